"""Pickled files under output/.cache/, trusted only as far as they can be checked.

For what JSON cannot hold cheaply (the loaded model, recorded PDF drawings): a file is a
magic line, the caller's key (what its content depends on, e.g. the code), the SHA-256 of
the body, and the pickled body. A missing, truncated, edited or stale file reads as nothing;
the body is unpickled by an unpickler that makes no object but the classes the caller
allows, so a damaged or planted cache file is never an error and can run no code.
"""

from __future__ import annotations

import hashlib
import io
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .write import atomic_write

#: Module, name → the class to make, or None: what one reader allows
Allow = Callable[[str, str], Any]

#: Anything unpickling a damaged or foreign body may raise.
_BROKEN = (pickle.UnpicklingError, EOFError, AttributeError, ImportError, IndexError, KeyError,
           TypeError, ValueError, OverflowError, MemoryError, RecursionError)


class _Restricted(pickle.Unpickler):
    def __init__(self, blob: bytes, allow: Allow):
        super().__init__(io.BytesIO(blob))
        self._allow = allow

    def find_class(self, module: str, name: str) -> Any:
        found = self._allow(module, name)
        if found is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed here")
        return found


def loads(blob: bytes, allow: Allow) -> Any:
    """The object pickled in ``blob``, or None when it is damaged or makes anything else."""
    try:
        return _Restricted(blob, allow).load()
    except _BROKEN:
        return None


def dumps(obj: Any) -> bytes:
    return pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)


def read(path: Path, magic: bytes, key: str) -> bytes | None:
    """The body of the file at ``path`` if it is intact and was written with ``key``."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    head, _, rest = raw.partition(b"\n")
    stored, _, rest = rest.partition(b"\n")
    sha, _, body = rest.partition(b"\n")
    if (head + b"\n" != magic or stored.decode("ascii", "replace") != key
            or sha.decode("ascii", "replace") != hashlib.sha256(body).hexdigest()):
        return None
    return body


def write(path: Path, magic: bytes, key: str, body: bytes) -> None:
    """Write ``body`` framed for :func:`read`, atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, b"".join([magic, key.encode("ascii"), b"\n",
                                 hashlib.sha256(body).hexdigest().encode("ascii"), b"\n", body]))
