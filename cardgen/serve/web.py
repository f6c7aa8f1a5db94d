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
import threading
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


class DeskHandler(BaseHTTPRequestHandler):
    server: DeskServer
    server_version = "cardgen-serve"

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
        try:
            length = min(int(self.headers.get("Content-Length", "0")), 4096)
            asked = json.loads(self.rfile.read(length) or b"{}")
            file, line = str(asked["file"]), int(asked["line"])
        except (ValueError, KeyError, TypeError):
            self._error(HTTPStatus.BAD_REQUEST)
            return
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
