"""Pickled files under output/.cache/, trusted only as far as they can be checked.

For what JSON cannot hold cheaply (the loaded model, recorded PDF drawings): a file is a
magic line, the caller's key (what its content depends on, e.g. the code), the seal of all
of it (:mod:`.seal`: an HMAC-SHA256 made with the project's secret, which a planted file
cannot carry), and the pickled body. A missing, truncated, edited, stale or forged file
reads as nothing;
the body is unpickled by an unpickler that makes no object but the classes the caller
allows (named one by one), and a caller whose objects need no constructor call refuses a
body that calls anything: a damaged or planted cache file is never an error, can run no code
and can make no allowed class open a file it names. Files are read through the safe reader
(regular files only, at most :data:`MAX_BYTES`), at paths confirmed by the output wall.
"""

from __future__ import annotations

import io
import pickle
import pickletools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import CardgenError
from .oserrors import read_input
from .safepath import output_path
from .seal import make_key, read_key, seal, sealed
from .write import atomic_write

#: The largest cache file read (the face drawings of one language are a few MB).
MAX_BYTES = 256 * 1024 * 1024
#: Opcodes that call what they load (a class's constructor, a function).
_CALLS = frozenset({"REDUCE", "INST", "OBJ", "NEWOBJ_EX", "EXT1", "EXT2", "EXT4"})

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


def loads(blob: bytes, allow: Allow, *, calls: bool = True) -> Any:
    """The object pickled in ``blob``, or None when it is damaged or makes anything else;
    with ``calls=False``, also None when it would call anything (objects are then only
    made empty and filled with their saved attributes)."""
    try:
        if not calls and any(op.name in _CALLS for op, _arg, _pos in pickletools.genops(blob)):
            return None
        return _Restricted(blob, allow).load()
    except _BROKEN:
        return None


def dumps(obj: Any) -> bytes:
    return pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)


def read(output: Path, rel: str, magic: bytes, key: str) -> bytes | None:
    """The body of the file ``output/rel`` if it is intact, sealed with the project's
    secret, and was written with ``key``."""
    try:
        raw = read_input(output_path(output, rel), limit=MAX_BYTES)
    except CardgenError:
        return None
    head, _, rest = raw.partition(b"\n")
    stored, _, rest = rest.partition(b"\n")
    mac, _, body = rest.partition(b"\n")
    if (head + b"\n" != magic or stored.decode("ascii", "replace") != key
            or not sealed(read_key(output), mac.decode("ascii", "replace"), magic, key, body)):
        return None
    return body


def write(output: Path, rel: str, magic: bytes, key: str, body: bytes) -> None:
    """Write ``body`` framed and sealed for :func:`read`, atomically, at ``output/rel``
    (nothing, on a file system that cannot keep the secret private)."""
    path = output_path(output, rel)
    secret = make_key(output)
    if secret is None:  # pragma: no cover - e.g. a FAT disk, where every file is 0777
        return
    atomic_write(path, b"".join([magic, key.encode("ascii"), b"\n",
                                 seal(secret, magic, key, body).encode("ascii"), b"\n", body]))
