"""The project's secret and the seal on everything a build keeps between runs.

A cache or build state under ``output/`` may have been planted (a shared folder, an
archive, a pull request that adds ``output/``): a checksum anyone can compute proves
nothing. So every cache file and the build state carry an HMAC-SHA256 made with a secret
only this user's builds know: 32 random bytes in ``output/.cache/key``, made by the first
build (mode 0600, never through a link, behind the output wall). The secret is used only
when that file is a regular file of its own, owned by the user running cardgen and readable
by nobody else (a checkout or a shared folder makes files others may read, so a key file
planted with them is never used: it is replaced by a new one). A file whose seal does not
match is ignored and rebuilt, never an error. `check` only reads the key; with none, it
uses no cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import stat
from pathlib import Path

from ..errors import CardgenError
from .oserrors import os_errors
from .safepath import output_path

#: output/<CACHE_DIR>/: what a build keeps between runs
CACHE_DIR = ".cache"
KEY_NAME = f"{CACHE_DIR}/key"
KEY_BYTES = 32


def read_key(output: Path) -> bytes | None:
    """The secret of ``output``'s caches, or None when there is no usable key file."""
    try:
        path = output_path(output, KEY_NAME)
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except (CardgenError, OSError):
        return None
    try:
        info = os.fstat(fd)
        if (not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid()
                or info.st_mode & 0o077 or info.st_nlink != 1 or info.st_size != KEY_BYTES):
            return None
        secret = os.read(fd, KEY_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return secret if len(secret) == KEY_BYTES else None


def make_key(output: Path) -> bytes | None:
    """:func:`read_key`, after making a new key file when there is no usable one (a planted,
    shared or damaged one is replaced: it is removed, never followed). None when this file
    system cannot keep a key private (the caches are then not kept)."""
    key = read_key(output)
    if key is not None:
        return key
    path = output_path(output, KEY_NAME)  # a link out or a FIFO there: refused
    with os_errors("write", path):
        path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # a link is removed itself, never its target
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o600)
        try:
            os.write(fd, os.urandom(KEY_BYTES))
            os.fsync(fd)
        finally:
            os.close(fd)
    return read_key(output)


def seal(key: bytes, *parts: bytes | str) -> str:
    """The HMAC-SHA256 (hex) of ``parts``, each framed by its length."""
    mac = hmac.new(key, digestmod=hashlib.sha256)
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        mac.update(len(data).to_bytes(8, "big"))
        mac.update(data)
    return mac.hexdigest()


def sealed(key: bytes | None, mac: object, *parts: bytes | str) -> bool:
    """``mac`` is the seal of ``parts`` under ``key`` (never, without a key)."""
    return key is not None and isinstance(mac, str) and hmac.compare_digest(
        mac.encode("ascii", "replace"), seal(key, *parts).encode("ascii"))
