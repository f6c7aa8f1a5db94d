"""Atomic file output: write a temporary file in the target folder, fsync, then replace.

A reader (or a crashed run) never sees half a PDF; every output writer goes through here.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from ..errors import CardgenError
from .oserrors import os_errors, os_finding
from .safepath import output_tree

_UMASK = os.umask(0o022)
os.umask(_UMASK)


@contextlib.contextmanager
def atomic_output(path: Path | str) -> Iterator[BinaryIO]:
    """Yield a binary file; on success it atomically becomes ``path``, on error it vanishes.

    An operating-system error (read-only or full disk, a folder or a file in the way) is a
    :class:`~cardgen.errors.CardgenError` naming ``path`` or the folder in the way.
    """
    with StagedFiles() as staged:
        with staged.open(path) as fh:
            yield fh
        staged.commit()


@contextlib.contextmanager
def _temp_beside(path: Path) -> Iterator[tuple[int, str]]:
    """A temporary file in ``path``'s folder (its descriptor and name), removed when the
    block fails; its name is one :func:`stale_temps` knows."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        yield fd, tmp
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


class StagedFiles:
    """Files that go into place together: :meth:`add` writes each to a temporary file
    beside its path as soon as it is made, :meth:`commit` renames them all. Used as a
    context manager, a block that fails removes the temporaries, so every output stays as
    it was; and nobody has to hold every file's bytes until the last one is made."""

    def __init__(self) -> None:
        self._staged: list[tuple[str, Path]] = []  # (temporary, final path)

    def __enter__(self) -> StagedFiles:
        return self

    def __exit__(self, kind: object, *_rest: object) -> None:
        if kind is not None:
            self.discard()

    def add(self, path: Path | str, data: bytes) -> None:
        with self.open(path) as fh:
            fh.write(data)

    @contextlib.contextmanager
    def open(self, path: Path | str) -> Iterator[BinaryIO]:
        """A file to write ``path``'s bytes to; staged when the block ends without error."""
        path = Path(path)
        make_folder(path.parent)
        with os_errors("write", path), _temp_beside(path) as (fd, tmp):
            os.fchmod(fd, 0o666 & ~_UMASK)  # mkstemp makes 0600; outputs get the usual mode
            with os.fdopen(fd, "wb") as fh:
                yield fh
                fh.flush()
                os.fsync(fh.fileno())
        self._staged.append((tmp, path))

    def commit(self) -> list[Path]:
        """Put every staged file in place; the paths, in the order they were added. When a
        rename fails, the files not yet in place stay staged (for :meth:`discard`)."""
        done: list[Path] = []
        while self._staged:
            tmp, path = self._staged[0]
            with os_errors("write", path):
                os.replace(tmp, path)
            done.append(path)
            self._staged.pop(0)
        for folder in dict.fromkeys(path.parent for path in done):
            _fsync_dir(folder)
        return done

    def discard(self) -> None:
        for tmp, _path in self._staged:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        self._staged = []


def make_folder(folder: Path) -> None:
    """``mkdir -p``; a file, a link to nothing or a read-only disk in the way is a finding
    naming the part of the path at fault."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CardgenError(os_finding(exc, "create the folder", exc.filename or folder)) from None


def atomic_write(path: Path | str, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_output(path) as fh:
        fh.write(data)


def atomic_move(src: Path | str, dst: Path | str) -> None:
    """Move a finished file into place atomically (same file system), then fsync its folder."""
    dst = Path(dst)
    make_folder(dst.parent)
    with os_errors("write", dst):
        os.replace(src, dst)
    _fsync_dir(dst.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. platforms without directory fds
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def rewrite_file(path: Path | str, data: bytes) -> Path:
    """Replace the contents of an existing file in place, keeping the file's identity.

    A symbolic link is followed and its target is written (the link stays a link). The new
    bytes go to a temporary file beside the real target, which gets the target's mode and
    owner, and then replaces it atomically: a killed run leaves the old or the new file,
    never half of one. When that would change the file's identity, because it has other
    hard links (a rename would split them) or its owner cannot be kept, the temporary copy
    is written and read back first, then the target itself is overwritten, so every link
    sees the edit (DECISIONS.md, "In-place edits"). The temporary files an earlier edit of
    the same file left when it was killed are removed first. Returns the path written.
    """
    real = Path(os.path.realpath(path))
    info = os.stat(real)
    _remove_temps_of(real)
    with _temp_beside(real) as (fd, tmp):
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
            same_owner = _keep_owner(fh.fileno(), info)  # before chmod: chown clears set-id bits
            os.fchmod(fh.fileno(), stat.S_IMODE(info.st_mode))
        if info.st_nlink > 1 or not same_owner:
            if Path(tmp).read_bytes() != data:  # pragma: no cover - a failing disk
                raise OSError(errno.EIO, "the temporary copy did not read back", tmp)
            with open(real, "r+b") as fh:
                fh.write(data)
                fh.truncate()
                fh.flush()
                os.fsync(fh.fileno())
            os.unlink(tmp)
        else:
            os.replace(tmp, real)
    _fsync_dir(real.parent)
    return real


def _keep_owner(fd: int, info: os.stat_result) -> bool:
    """Give the open file ``info``'s owner and group; False when that is not allowed."""
    current = os.fstat(fd)
    if (current.st_uid, current.st_gid) == (info.st_uid, info.st_gid):
        return True
    try:
        os.fchown(fd, info.st_uid, info.st_gid)
    except PermissionError:
        return False
    return True


#: What :func:`atomic_output` leaves behind when its process is killed: ``.<name>.<random>.tmp``.
_STALE_TEMP = re.compile(r"\..+\.[A-Za-z0-9_]{8}\.tmp")


def _remove_temps_of(path: Path) -> None:
    """Delete the temporary files (``.<name>.<random>.tmp``) that killed edits of ``path`` left
    beside it; regular files only, never a link."""
    prefix = f".{path.name}."
    with contextlib.suppress(OSError):
        for entry in os.scandir(path.parent):
            if (entry.name.startswith(prefix) and _STALE_TEMP.fullmatch(entry.name)
                    and len(entry.name) == len(prefix) + 12
                    and entry.is_file(follow_symlinks=False)):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)


def stale_temps(output: Path, deep: Iterable[str], shallow: Iterable[str] = ("",)
                ) -> list[Path]:
    """The temporary files a killed run left in the folders ``output/<deep>`` (with their
    subfolders) and ``output/<shallow>`` (without: ``""`` is ``output/`` itself).

    Every folder is listed through the output wall (:func:`~.safepath.output_tree`), all
    of them before this returns: a link among them that leads out of ``output/``, or a FIFO,
    is an error, so a caller that lists first deletes nothing anywhere. Regular files only,
    never a link.
    """
    listed = [p for folder in deep for p in output_tree(output, folder)]
    listed += [p for folder in shallow for p in output_tree(output, folder, deep=False)]
    return [p for p in listed if _STALE_TEMP.fullmatch(p.name)]


def remove_stale_temps(temps: Iterable[Path]) -> list[Path]:
    """Delete the files :func:`stale_temps` listed; those removed. Only call this while
    holding the build lock of their ``output/``: no other writer then has a temporary file
    in it."""
    removed = []
    for path in temps:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
            removed.append(path)
    return removed
