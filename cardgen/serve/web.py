"""The preview's HTTP side (standard library only): the page, its state as JSON, a stream of
server-sent events that says when the state changed, and the images under output/serve/.

Safe by default: it listens on the loopback address only, answers only requests addressed
to that host (no DNS rebinding), serves files from the serve folder alone (``..``, encoded
dots and absolute paths are refused), and writes nothing but the serve folder's own images
(a face of the last good build is drawn full size there the first time it is asked for:
``full/<face key>.png``, no other name). The one action, opening the editor, runs the
user's own ``--editor`` command and only for a file and line that a finding on the page
points at inside card_data/. Every answer forbids framing
and loading anything from elsewhere (:data:`SECURITY_HEADERS`); a client gets
:class:`Limits`: a whole request within a deadline, and a bounded number of connections and
event streams (a 503 past them).
"""

from __future__ import annotations

import io
import json
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

from ..errors import CardgenError
from ..files.oserrors import read_input
from ..files.safepath import output_path
from .desk import IMAGE_ROUTE, Desk, Sources
from .editor import Editor

#: The exported spreadsheets offered for download, and the most read of one.
SHEET_ROUTE = "/sheet/"
SHEETS = {"cards.ods": "application/vnd.oasis.opendocument.spreadsheet",
          "cards.xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}
MAX_SHEET = 32 * 1024 * 1024

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
#: On every answer: no page may frame the preview (clickjacking), and the page loads
#: The largest image answered (a board page at 40 dpi is well under 1 MB).
MAX_IMAGE = 64 * 1024 * 1024
#: scripts, styles, images and event streams from this server only.
SECURITY_HEADERS = (("X-Frame-Options", "DENY"),
                    ("Content-Security-Policy", "frame-ancestors 'none'; default-src 'self'"),
                    ("X-Content-Type-Options", "nosniff"))


#: Draws a face's full-size image on first request: its name under the serve folder
#: (``full/<key>.png``) → its path, or None when no face of the last good build has it.
FullImage = Callable[[str], Path | None]


@dataclass(frozen=True)
class Limits:
    """What clients may hold of the server: a page needs one event stream and a few
    connections, so these stop a runaway script, not a designer with many tabs."""

    #: seconds for a whole request (line, headers and body), however slowly it trickles in
    request_seconds: float = REQUEST_SECONDS
    #: connections answered at once (each holds a thread); one more gets a 503
    threads: int = 64
    #: open event streams (one per open page); one more gets a 503
    streams: int = 16


class DeskServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, port: int, desk: Desk, images: Path, editor: Editor | None = None,
                 limits: Limits = Limits(), full: FullImage | None = None):
        super().__init__((HOST, port), DeskHandler)
        self.desk = desk
        self.full = full
        self.images = images.resolve()
        self.editor = editor
        self.limits = limits
        self.stopping = threading.Event()
        self._held = {"threads": 0, "streams": 0}
        self._count = threading.Lock()

    def take(self, what: str) -> bool:
        """Hold one of the ``what`` ("threads", "streams") :attr:`limits` allow, if any is left."""
        with self._count:
            if self._held[what] >= getattr(self.limits, what):
                return False
            self._held[what] += 1
            return True

    def give_back(self, what: str) -> None:
        with self._count:
            self._held[what] -= 1

    def process_request(self, request: Any, client_address: Any) -> None:
        """A thread per connection, up to :attr:`Limits.threads`; past them a 503, sent
        from here without reading the request (it is a few bytes: the send never waits)."""
        if not self.take("threads"):
            busy(request, "too many connections to the preview; try again")
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.give_back("threads")
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.give_back("threads")

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_address[1]}/"

    def stop(self) -> None:
        self.stopping.set()
        self.shutdown()
        self.server_close()

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that went away (or stalled) ends its request quietly; anything else is
        a bug, told in one line (the terminal shows builds, never a traceback)."""
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return
        print(f"cardgen serve: a request failed ({type(exc).__name__}: {str(exc)[:200]}); "
              "please report this", file=sys.stderr)  # pragma: no cover - a bug


def busy(request: socket.socket, message: str) -> None:
    """A 503 written straight to a connection no handler takes."""
    body = json.dumps({"error": message}).encode()
    head = ["HTTP/1.1 503 Service Unavailable", "Content-Type: application/json",
            f"Content-Length: {len(body)}", "Cache-Control: no-store", "Retry-After: 2",
            "Connection: close", *(f"{name}: {value}" for name, value in SECURITY_HEADERS)]
    try:
        request.setblocking(False)
        request.send("\r\n".join(head).encode() + b"\r\n\r\n" + body)
    except OSError:
        pass  # the client is gone, or not reading: it is closed all the same


class _DeadlineReader(io.RawIOBase):
    """A connection's bytes, each read waiting no longer than the request's deadline: a
    client that sends one byte at a time still has :attr:`Limits.request_seconds` in all."""

    def __init__(self, sock: socket.socket, timeout: float):
        self.sock, self.timeout = sock, timeout
        self.until: float | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.until is not None:
            left = self.until - time.monotonic()
            if left <= 0:
                raise TimeoutError("the request took too long")
            self.sock.settimeout(min(left, self.timeout))
        try:
            return self.sock.recv_into(buffer)
        finally:
            self.sock.settimeout(self.timeout)


class DeskHandler(BaseHTTPRequestHandler):
    server: DeskServer
    server_version = "cardgen-serve"
    timeout = REQUEST_SECONDS

    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # the plain reader; reads go through the deadline instead
        self._reader = _DeadlineReader(self.connection, self.timeout)
        self.rfile = io.BufferedReader(self._reader)

    def handle_one_request(self) -> None:
        """One request, which must arrive whole within the deadline (the wait for it on a
        kept-alive connection included); past it the connection is closed."""
        self._reader.until = time.monotonic() + self.server.limits.request_seconds
        super().handle_one_request()

    def end_headers(self) -> None:
        for name, value in SECURITY_HEADERS:  # every answer, the standard library's errors too
            self.send_header(name, value)
        super().end_headers()

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
        elif path.startswith(SHEET_ROUTE):
            self._sheet(path.removeprefix(SHEET_ROUTE))
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
            return
        images = self.server.images
        try:  # through the output wall: a FIFO, a device or a link out is no image
            wall = output_path(images.parent, f"{images.name}/{path.relative_to(images).as_posix()}")
            if not wall.is_file() and self.server.full is not None and \
                    path.parent == images / "full":
                self.server.full(f"full/{path.name}")  # drawn on first view (none else)
            body = read_input(wall, limit=MAX_IMAGE) if path.suffix in IMAGE_TYPES else None
        except (CardgenError, OSError):  # a name too long for the file system is none either
            body = None
        if body is None:
            self._error(HTTPStatus.NOT_FOUND)
        else:
            # names are content hashes: an image never changes under its name
            self._send(HTTPStatus.OK, body, IMAGE_TYPES[path.suffix],
                       cache="public, max-age=31536000, immutable")

    def _sheet(self, name: str) -> None:
        """The spreadsheet `cardgen sheet export` wrote (output/sheet/), as a download,
        read through the output wall."""
        if name not in SHEETS:
            self._error(HTTPStatus.NOT_FOUND)
            return
        output = self.server.images.parent
        try:
            body: bytes | None = read_input(output_path(output, f"sheet/{name}"),
                                            limit=MAX_SHEET)
        except (CardgenError, OSError):
            body = None
        if body is None:
            self._error(HTTPStatus.NOT_FOUND, "no spreadsheet yet: run `cardgen sheet export`")
            return
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", SHEETS[name])
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Disposition", f'attachment; filename="{name}"')
        self.send_header("Cache-Control", "no-store")  # a new export keeps the name
        self.end_headers()
        self.wfile.write(body)

    def _events(self) -> None:
        """Server-sent events: ``state`` with the new version whenever the desk changes;
        a 503 past :attr:`Limits.streams` open ones."""
        if not self.server.take("streams"):
            self._error(HTTPStatus.SERVICE_UNAVAILABLE, "too many pages of the preview are "
                        "open; close one", retry=True)
            return
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            seen = -1
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
        finally:
            self.server.give_back("streams")

    def _send(self, status: HTTPStatus, body: bytes, kind: str, cache: str,
              retry: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        if retry:
            self.send_header("Retry-After", "2")
        self.end_headers()
        self.wfile.write(body)

    def _error(self, status: HTTPStatus, message: str = "", retry: bool = False) -> None:
        body = json.dumps({"error": message or status.phrase}).encode()
        self._send(status, body, "application/json", cache="no-store", retry=retry)


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
