"""`cardgen serve`: the designer's desk, a page in the browser that shows every card in both
languages, their findings and the board, tokens and aid, and follows every save.

The build is `cardgen watch`'s loop in a background thread; the page is served by the
standard library's HTTP server and told of each finished build by server-sent events.
"""

from __future__ import annotations

import errno
import signal
import threading
from pathlib import Path

from ..build.options import BuildOptions
from ..build.watch import Log, watch
from ..errors import CardgenError
from ..files.safepath import in_output
from ..report import format_text
from .builder import DeskBuilder
from .desk import Desk
from .editor import Editor, check_template
from .images import IMAGE_FOLDERS, SERVE_DIR, ImageCache
from .web import HOST, DeskServer, FullImage

#: Tried first when no --port is given, so a reopened tab finds a restarted server.
DEFAULT_PORT = 8765


def serve(project: Path, port: int | None = None, editor: str | None = None, log: Log = print
          ) -> int:
    """Serve the preview until Ctrl-C; the exit code (2: the port is taken or bad options)."""
    if editor is not None and (problem := check_template(editor)):
        log(f"error: {problem}")
        return 2
    if not (project / "card_data").is_dir():
        log(f"error: {project} has no card_data/ folder; run in a project folder or pass --project")
        return 2
    desk = Desk(project, editor=editor is not None)
    try:  # the folders the preview writes, lists and prunes: none a link out, none a FIFO
        images = in_output(project, SERVE_DIR, folder=True)
        for sub in IMAGE_FOLDERS:
            in_output(project, f"{SERVE_DIR}/{sub}", folder=True)
        images.mkdir(parents=True, exist_ok=True)
    except CardgenError as exc:
        log(format_text(exc.findings).rstrip("\n"))
        return 2
    builds = DeskBuilder(desk, ImageCache(images))
    server = _bind(port, desk, images, Editor(editor) if editor else None, log, builds.full)
    if server is None:
        return 2
    log(f"cardgen serve: open {server.url} in a browser (Ctrl-C stops)")
    stop = threading.Event()
    builder = threading.Thread(
        target=watch, name="cardgen-build", daemon=True,
        # serial builds: forking worker processes from a threaded server is unsafe
        args=(project, BuildOptions(jobs=1)),
        kwargs={"log": log, "stop": stop, "build": builds})
    builder.start()
    _stop_on_sigterm()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        log("stopped")
    finally:
        stop.set()
        server.stopping.set()
        server.server_close()
        builder.join(timeout=30)
    return 0


def _stop_on_sigterm() -> None:
    """`kill` stops the server like Ctrl-C: the build under way finishes first."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, signal.default_int_handler)


def _bind(port: int | None, desk: Desk, images: Path, editor: Editor | None, log: Log,
          full: FullImage | None = None) -> DeskServer | None:
    try:
        return DeskServer(DEFAULT_PORT if port is None else port, desk, images, editor, full=full)
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise
        if port is not None:
            log(f"error: port {port} on {HOST} is already in use (another cardgen serve?); "
                "stop that program or pick another port with --port N (0: any free port)")
            return None
    return DeskServer(0, desk, images, editor, full=full)  # the usual port is busy: any free one
