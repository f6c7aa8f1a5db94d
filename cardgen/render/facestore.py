"""Face drawings kept between builds: output/.cache/faces-<key>.bin, one file per face library.

A one-card edit then draws one face instead of every face of its language
(:class:`cardgen.render.faceforms.FaceLibrary` takes the others when their glyph codes
still hold). A file holds a checksum, then the pickled drawings; it is read only when the
checksum matches, and unpickled by an unpickler that builds nothing but ReportLab's PDF
objects and cardgen's own data classes, so a damaged or planted cache file is ignored and
can run no code. The build writes a library's file only when it drew something new, and
removes the files of libraries it no longer has.
"""

from __future__ import annotations

import hashlib
import io
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..write import atomic_write
from .faceforms import FaceLibrary, Kept

MAGIC = b"cardgen-faces 1\n"
PREFIX = "faces-"
SUFFIX = ".bin"
#: Modules whose classes a kept drawing is made of; anything else in a file refuses it.
_ALLOWED = ("reportlab.pdfbase.pdfdoc", "cardgen.")
_BUILTINS = frozenset({"set", "frozenset", "bytearray", "complex", "slice"})


class _SafeUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins" and name in _BUILTINS:
            return super().find_class(module, name)
        if module.startswith(_ALLOWED):
            found = super().find_class(module, name)
            if isinstance(found, type) and found.__module__.startswith(_ALLOWED):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not a kept drawing's part")


def _read(path: Path) -> Kept:
    try:
        raw = path.read_bytes()
    except OSError:
        return Kept()
    head, _, payload = raw[len(MAGIC):].partition(b"\n")
    if not raw.startswith(MAGIC) or head != hashlib.sha256(payload).hexdigest().encode():
        return Kept()
    try:
        kept = _SafeUnpickler(io.BytesIO(payload)).load()
    except Exception:  # a file from another version of the classes: drawn again
        return Kept()
    return kept if isinstance(kept, Kept) else Kept()


class FaceStore:
    """The face libraries of one build and their files under ``folder`` (output/.cache)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._libraries: dict[str, FaceLibrary] = {}

    def path(self, key: str) -> Path:
        return self.folder / f"{PREFIX}{key[:32]}{SUFFIX}"

    def kept(self, key: str) -> Callable[[], Kept]:
        """What the library with content key ``key`` may take (read when first asked)."""
        return lambda: _read(self.path(key))

    def track(self, key: str, library: FaceLibrary) -> None:
        """Keep ``library``'s drawings when the build has written its files."""
        self._libraries[key] = library

    def save(self) -> None:
        """Write each library that drew a face; remove the files of libraries gone."""
        live = {self.path(key) for key in self._libraries}
        for key, library in self._libraries.items():
            if library.drawn:  # a library that drew nothing new: its file is as it was
                self.folder.mkdir(parents=True, exist_ok=True)
                payload = pickle.dumps(library.keep(), protocol=pickle.HIGHEST_PROTOCOL)
                atomic_write(self.path(key), MAGIC + hashlib.sha256(payload).hexdigest()
                             .encode() + b"\n" + payload)
        for old in self.folder.glob(f"{PREFIX}*{SUFFIX}"):
            if old not in live:
                old.unlink(missing_ok=True)
