"""Face drawings kept between builds: output/.cache/faces-<lang>-<key>.bin, one file per face library.

A one-card edit then draws one face instead of every face of its language
(:class:`cardgen.render.faceforms.FaceLibrary` takes the others when their glyph codes
still hold). A file holds a checksum, then the pickled drawings; it is read only when the
checksum matches, and unpickled by an unpickler that builds nothing but ReportLab's PDF
objects and cardgen's own data classes, so a damaged or planted cache file is ignored and
can run no code. The build writes a library's file only when it drew something new, and
removes the files of the languages it built that no library of it uses any more.
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

    def path(self, lang: str, key: str) -> Path:
        return self.folder / f"{PREFIX}{lang}-{key[:32]}{SUFFIX}"

    def kept(self, lang: str, key: str) -> Callable[[], Kept]:
        """What the library of ``lang`` with content key ``key`` may take (read when first
        asked)."""
        return lambda: _read(self.path(lang, key))

    def track(self, lang: str, key: str, library: FaceLibrary) -> None:
        """Keep ``library``'s drawings when the build has written its files."""
        self._libraries[self.path(lang, key)] = library

    def save(self) -> None:
        """Write each library that drew a face; remove the other files of its language."""
        for path, library in self._libraries.items():
            if library.drawn:  # a library that drew nothing new: its file is as it was
                self.folder.mkdir(parents=True, exist_ok=True)
                payload = pickle.dumps(library.keep(), protocol=pickle.HIGHEST_PROTOCOL)
                atomic_write(path, MAGIC + hashlib.sha256(payload).hexdigest().encode()
                             + b"\n" + payload)
        langs = {library.lang for library in self._libraries.values()}
        for old in self.folder.glob(f"{PREFIX}*{SUFFIX}"):
            lang = old.name.removeprefix(PREFIX).split("-", 1)[0]
            if lang in langs and old not in self._libraries:
                old.unlink(missing_ok=True)
