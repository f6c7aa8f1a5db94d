"""The one place where operating-system errors become findings, and where inputs are read.

Every :class:`OSError` the tool can meet (a read-only or full disk, a folder where a file
belongs, a dangling link, a missing project …) becomes one located :class:`Finding` that
says what to do; the command line exits 2 for them (see :func:`cardgen.errors.exit_code`).
Input files are read by :func:`read_input`, which accepts regular files only: a FIFO, a
device or a folder where a file is expected is an error, never a hang.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from ..errors import CardgenError, Finding, Location, error

#: errno → (finding code, what happened, what to do)
_KNOWN: dict[int, tuple[str, str, str]] = {
    errno.EACCES: ("os-permission", "permission denied",
                   "give your user access to it, or work in a copy of the project you own"),
    errno.EPERM: ("os-permission", "operation not permitted",
                  "give your user access to it, or work in a copy of the project you own"),
    errno.EROFS: ("os-read-only", "the file system is read-only",
                  "work in a copy of the project on a writable disk"),
    errno.ENOSPC: ("os-no-space", "the disk is full",
                   "free some space (output/ can be deleted), then run the command again"),
    errno.EDQUOT: ("os-no-space", "the disk quota is used up",
                   "free some space (output/ can be deleted), then run the command again"),
    errno.EISDIR: ("os-is-directory", "a folder is where a file belongs",
                   "remove or rename that folder"),
    errno.ENOTDIR: ("os-not-directory", "a file is where a folder belongs",
                    "remove or rename that file"),
    errno.ENOENT: ("os-not-found", "no such file or folder",
                   "check the path (a link may point to something that is gone)"),
    errno.EEXIST: ("os-in-the-way", "a file or a link to nothing is where a folder belongs",
                   "remove it; the tool makes the folder itself"),
    errno.ENAMETOOLONG: ("os-name-too-long", "the name is too long for the file system",
                         "use shorter names"),
    errno.ELOOP: ("os-link-loop", "symbolic links form a loop", "fix or remove the link"),
    errno.EMFILE: ("os-too-many-files", "too many open files",
                   "raise the open-file limit (ulimit -n) or build with --jobs 1"),
    errno.EIO: ("os-io", "input/output error", "check the disk"),
}

#: The largest input file read whole (card data, PO files, manifests): far above any real one.
MAX_INPUT_BYTES = 64 * 1024 * 1024


def os_finding(exc: OSError, doing: str, path: Path | str | None = None) -> Finding:
    """The finding for ``exc`` met while trying to ``doing`` (e.g. "write") ``path``."""
    target = path if path is not None else exc.filename
    code, what, hint = _KNOWN.get(exc.errno or 0, ("os-error", exc.strerror or str(exc),
                                                   "check the file and its folder"))
    where = f" {target}" if target is not None else ""
    return error(code, f"cannot {doing}{where}: {what}",
                 location=Location(str(target)) if target is not None else None, hint=hint)


@contextlib.contextmanager
def os_errors(doing: str, path: Path | str | None = None) -> Iterator[None]:
    """Turn any :class:`OSError` inside the block into a :class:`CardgenError` finding."""
    try:
        yield
    except OSError as exc:
        raise CardgenError(os_finding(exc, doing, path)) from None


def kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def not_a_file(path: Path | str, kind: str, display: str | None = None) -> Finding:
    return error("not-a-file", f"expected a file but found {kind}",
                 location=Location(display or str(path)),
                 hint="replace it with a regular file (or remove it)")


def read_input(path: Path | str, display: str | None = None,
               limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a regular file (through links); any other kind of file is an error.

    Opened without blocking, so a FIFO with no writer is reported, not waited for.
    """
    shown = display or str(path)
    with os_errors("read", shown):
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise CardgenError(not_a_file(path, kind_of(info.st_mode), display))
            if info.st_size > limit:
                raise CardgenError(error(
                    "file-too-large", f"file is {info.st_size} bytes; at most {limit} are read",
                    location=Location(shown), hint="is this the right file?"))
            os.set_blocking(fd, True)
            with os.fdopen(os.dup(fd), "rb") as fh:
                # sized by the file, not the limit: read(n) sets aside n bytes up front
                data = fh.read(info.st_size + 1)
                if len(data) > info.st_size:  # it grew since fstat: read on, to the limit
                    data += fh.read(limit + 1 - len(data))
        finally:
            os.close(fd)
    if len(data) > limit:
        raise CardgenError(error("file-too-large", f"file is larger than {limit} bytes",
                                 location=Location(shown), hint="is this the right file?"))
    return data


def check_regular(path: Path, display: str | None = None) -> Finding | None:
    """None when ``path`` is missing or a regular file (through links), else the finding
    (a loop of links among them)."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        return os_finding(exc, "follow the link", display or path) \
            if exc.errno == errno.ELOOP else None
    return None if stat.S_ISREG(mode) else not_a_file(path, kind_of(mode), display)
