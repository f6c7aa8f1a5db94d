"""The preview's HTTP side (standard library only): the page, its state as JSON, a stream of
server-sent events that says when the state changed, and the images under output/serve/.

Safe by default: it listens on the loopback address only, answers only requests addressed
to that host (no DNS rebinding), serves files from the serve folder alone (``..``, encoded
dots and absolute paths are refused), and has no endpoint that writes anything. The one
action, opening the editor, runs the user's own ``--editor`` command and only for a file and
line that a finding on the page points at inside card_data/.
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from .desk import IMAGE_ROUTE, Desk, Sources
from .editor import Editor

HOST = "127.0.0.1"
#: Files of the page, shipped as package data (cardgen/serve/static/).
STATIC = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
          "app.css": "text/css; charset=utf-8"}
IMAGE_TYPES = {".jpg": "image/jpeg", ".png": "image/png"}
#: Seconds between keep-alive comments on an idle event stream.
PING = 15.0
#: Bytes of the one request body the preview takes ({"file": …, "line": …}).
MAX_BODY = 4096
#: Seconds a client may take to send a request (a stalled one frees its thread).
REQUEST_SECONDS = 30


class DeskServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, port: int, desk: Desk, images: Path, editor: Editor | None = None):
        super().__init__((HOST, port), DeskHandler)
        self.desk = desk
        self.images = images.resolve()
        self.editor = editor
        self.stopping = threading.Event()

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_address[1]}/"

    def stop(self) -> None:
        self.stopping.set()
        self.shutdown()
        self.server_close()

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that went away (or stalled) ends its request quietly; anything else is
        a bug and is reported as the standard library does."""
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)  # pragma: no cover - a bug


class DeskHandler(BaseHTTPRequestHandler):
    server: DeskServer
    server_version = "cardgen-serve"
    timeout = REQUEST_SECONDS

    def log_message(self, format: str, *args: object) -> None:
        pass  # the terminal shows builds, not requests

    def do_GET(self) -> None:
        if not self._local():
            return
        path = urlsplit(self.path).path
        if path == "/":
            self._static("index.html")
        elif path.startswith("/static/"):
            self._static(path.removeprefix("/static/"))
        elif path == "/api/state":
            self._send(HTTPStatus.OK, json.dumps(self.server.desk.snapshot()).encode(),
                       "application/json", cache="no-store")
        elif path == "/events":
            self._events()
        elif path.startswith(IMAGE_ROUTE):
            self._image(path.removeprefix(IMAGE_ROUTE))
        else:
            self._error(HTTPStatus.NOT_FOUND)

    def do_POST(self) -> None:
        if not self._local():
            return
        if urlsplit(self.path).path != "/api/open":
            self._error(HTTPStatus.NOT_FOUND)
            return
        editor = self.server.editor
        # a page on another site cannot send JSON here without the browser asking first
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
            self._error(HTTPStatus.UNSUPPORTED_MEDIA_TYPE)
            return
        asked = open_request(self.headers.get("Content-Length", ""), self.rfile.read)
        if asked is None:
            self._error(HTTPStatus.BAD_REQUEST, "expected {\"file\": …, \"line\": …} in at "
                        f"most {MAX_BODY} bytes")
            return
        file, line = asked
        path = Sources(self.server.desk.project).path(file)
        if editor is None:
            self._error(HTTPStatus.NOT_FOUND, "no --editor given: the page shows the line instead")
        elif path is None or not self.server.desk.may_open(file, line):
            self._error(HTTPStatus.FORBIDDEN, "only the places findings point at can be opened")
        else:
            problem = editor.open(path, line)
            if problem:
                self._error(HTTPStatus.INTERNAL_SERVER_ERROR, problem)
            else:
                self._send(HTTPStatus.OK, b'{"ok": true}', "application/json", cache="no-store")

    # --- answers -----------------------------------------------------------------------------

    def _local(self) -> bool:
        """Only requests addressed to the loopback server itself (refuses DNS rebinding)."""
        port = self.server.server_address[1]
        if self.headers.get("Host", "") in {f"{HOST}:{port}", f"localhost:{port}"}:
            return True
        self._error(HTTPStatus.FORBIDDEN, "use the address cardgen serve printed")
        return False

    def _static(self, name: str) -> None:
        if name not in STATIC:
            self._error(HTTPStatus.NOT_FOUND)
            return
        body = resources.files(__package__).joinpath("static", name).read_bytes()
        self._send(HTTPStatus.OK, body, STATIC[name], cache="no-cache")

    def _image(self, raw: str) -> None:
        path = safe_path(self.server.images, raw)
        if path is None:
            self._error(HTTPStatus.FORBIDDEN, "outside the preview's images")
        elif path.suffix not in IMAGE_TYPES or not path.is_file():
            self._error(HTTPStatus.NOT_FOUND)
        else:
            # names are content hashes: an image never changes under its name
            self._send(HTTPStatus.OK, path.read_bytes(), IMAGE_TYPES[path.suffix],
                       cache="public, max-age=31536000, immutable")

    def _events(self) -> None:
        """Server-sent events: ``state`` with the new version whenever the desk changes."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        seen = -1
        try:
            while not self.server.stopping.is_set():
                version = self.server.desk.wait(seen, PING)
                if version == seen:
                    self.wfile.write(b": ping\n\n")
                else:
                    self.wfile.write(f"event: state\ndata: {version}\n\n".encode())
                    seen = version
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page was closed

    def _send(self, status: HTTPStatus, body: bytes, kind: str, cache: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(body)

    def _error(self, status: HTTPStatus, message: str = "") -> None:
        body = json.dumps({"error": message or status.phrase}).encode()
        self._send(status, body, "application/json", cache="no-store")


def open_request(length: str, read: Callable[[int], bytes]) -> tuple[str, int] | None:
    """The file and line an "open in editor" request asks for, or None when the request is
    malformed: a length that is not 0 to :data:`MAX_BODY`, a body that is not that JSON
    object (NaN, Infinity, deep nesting, a line that is not a whole number)."""
    if not length.isdigit() or len(length) > 6 or int(length) > MAX_BODY:
        return None
    try:
        asked = json.loads(read(int(length)) or b"{}", parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return None
    if not isinstance(asked, dict):
        return None
    file, line = asked.get("file"), asked.get("line")
    if not isinstance(file, str) or type(line) is not int or not 0 < line < 10**7:
        return None
    return file, line


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a line number")


def safe_path(root: Path, raw: str) -> Path | None:
    """``raw`` (URL-encoded, relative) as a path inside ``root``, or None if it would leave it.

    Refuses ``..`` segments (also percent-encoded), absolute paths, backslashes and NUL, and
    anything that resolves (through links) outside ``root``.
    """
    rel = unquote(raw)
    if not rel or "\\" in rel or "\0" in rel:
        return None
    parts = PurePosixPath(rel)
    if parts.is_absolute() or ".." in parts.parts or rel.startswith("/"):
        return None
    path = (root / parts).resolve()
    return path if root in path.parents else None
