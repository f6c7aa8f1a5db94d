"""External programs (qpdf, pdftoppm, git, the designer's editor), run as data, never as
options: the one module that starts a process.

Never a shell. Every file argument is a :class:`~pathlib.Path`, made absolute here, so a file
named ``@print-shop.pdf`` (qpdf reads its arguments from a file named after an ``@``) or
``-x.pdf`` is a name, never an option; a tool that knows ``--`` gets it before its files.
Each run has a time limit and a cap on what it may say (stdout, stderr); a missing tool, a
time-out or too much output is a located finding with a fix line, exit 2, never a hang.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import CardgenError, Finding, Location, error

#: Far above any real run (a print file of hundreds of pages), far below forever.
TIMEOUT = 600.0
#: What a tool may write to stdout and stderr together; files it writes are read by callers
#: through their own limits.
MAX_OUTPUT = 16 * 1024 * 1024


@dataclass(frozen=True)
class Tool:
    """A program on PATH, the Debian package that installs it, and how to try it by hand."""

    program: str
    package: str
    probe: str
    ends_options: bool = False  # takes "--" before its file operands


QPDF = Tool("qpdf", "qpdf", "qpdf --version")
PDFTOPPM = Tool("pdftoppm", "poppler-utils", "pdftoppm -v", ends_options=True)
GIT = Tool("git", "git", "git --version")


@dataclass(frozen=True)
class Ran:
    """A finished run: its exit status and what it said."""

    returncode: int
    stdout: bytes
    stderr: bytes

    def last_word(self) -> str:
        """The last line the tool wrote to stderr (its error, as a rule), or ''."""
        lines = self.stderr.decode("utf-8", "replace").strip().splitlines()
        return lines[-1] if lines else ""


def find(tool: Tool) -> str | None:
    """The program's full path, or None when it is not installed."""
    return shutil.which(tool.program)


def missing(tool: Tool, needs: str, location: Location | None = None) -> Finding:
    """The error for a tool that is not installed; ``needs`` says who needs it."""
    return error("tool-missing", f"{needs} needs {tool.program}, and it is not installed",
                 location=location,
                 hint=f"install {tool.package} (Debian: apt-get install {tool.package})")


def argv(tool: Tool, exe: str, options: Sequence[str | Path], files: Sequence[Path]
         ) -> list[str]:
    """The argument list: options as given (a Path among them made absolute), then ``--``
    when the tool knows it, then each file as an absolute path."""
    words = [os.path.abspath(w) if isinstance(w, Path) else w for w in options]
    names = [os.path.abspath(f) for f in files]
    return [exe, *words, *(["--"] if tool.ends_options and names else []), *names]


def run(tool: Tool, options: Sequence[str | Path], files: Sequence[Path] = (), *, needs: str,
        location: Location | None = None, stdin: bytes = b"", timeout: float = TIMEOUT,
        max_output: int = MAX_OUTPUT) -> Ran:
    """Run ``tool`` and wait for it; ``needs`` (e.g. "preflight") and ``location`` (the file
    it works on) go into the finding when it is missing, runs out of time or says too much.
    A non-zero exit is the caller's to judge (qpdf exits 3 for warnings)."""
    exe = find(tool)
    if exe is None:
        raise CardgenError(missing(tool, needs, location))
    where = f" on {location}" if location else ""

    def failed(what: str, hint: str) -> CardgenError:
        return CardgenError(error("tool-failed", f"{tool.program}{where} {what}",
                                  location=location, hint=hint))

    with tempfile.TemporaryFile() as given:
        given.write(stdin)
        given.seek(0)
        try:
            proc = subprocess.Popen(argv(tool, exe, options, files), stdin=given,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    start_new_session=True)  # its own group, ended whole
        except OSError as exc:
            raise failed(f"cannot start: {exc.strerror or exc}",
                         f"check that {tool.program} works: {tool.probe}") from None
        try:
            out, err = _collect(proc, time.monotonic() + timeout, max_output)
        except TimeoutError:
            raise failed(f"did not finish within {timeout:g} s",
                         f"a damaged or hostile file can keep {tool.program} busy: write it "
                         f"again or ask for a new copy; check that {tool.program} works: "
                         f"{tool.probe}") from None
        except OverflowError:
            raise failed(f"wrote more than {max_output} bytes of output",
                         f"a damaged or hostile file can make {tool.program} say too much: "
                         "write it again or ask for a new copy") from None
        finally:
            _end(proc)
    return Ran(proc.returncode, out, err)


def _collect(proc: subprocess.Popen[bytes], deadline: float, cap: int) -> tuple[bytes, bytes]:
    """Read stdout and stderr until both end and the process exits; TimeoutError past the
    deadline, OverflowError past ``cap`` bytes together."""
    assert proc.stdout is not None and proc.stderr is not None
    got = {proc.stdout.fileno(): bytearray(), proc.stderr.fileno(): bytearray()}
    with selectors.DefaultSelector() as sel:
        for fd in got:
            sel.register(fd, selectors.EVENT_READ)
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            for key, _ in sel.select(left):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    sel.unregister(key.fd)
                    continue
                got[key.fd] += chunk
                if sum(map(len, got.values())) > cap:
                    raise OverflowError
    try:
        proc.wait(max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        raise TimeoutError from None
    return bytes(got[proc.stdout.fileno()]), bytes(got[proc.stderr.fileno()])


def _end(proc: subprocess.Popen[bytes]) -> None:
    """Kill the run's process group when it is still running, then reap it."""
    if proc.poll() is None:
        with contextlib.suppress(OSError):  # it ended meanwhile
            os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    for pipe in (proc.stdout, proc.stderr):
        if pipe is not None:
            pipe.close()


def start(words: Sequence[str]) -> str | None:
    """Start a program that outlives the request (the designer's editor), detached: no
    shell, no terminal, its own session, reaped when it exits. None when it started, else
    what went wrong."""
    try:
        proc = subprocess.Popen(list(words), stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
    except (OSError, ValueError) as exc:
        return str(getattr(exc, "strerror", None) or exc)
    threading.Thread(target=proc.wait, daemon=True).start()
    return None
