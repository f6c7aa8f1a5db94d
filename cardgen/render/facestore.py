"""Face drawings kept between builds: output/.cache/faces-<lang>-<key>.bin, one file per face library.

A one-card edit then draws one face instead of every face of its language
(:class:`cardgen.render.faceforms.FaceLibrary` takes the others when their glyph codes
still hold). A file (:mod:`cardgen.files.pickles`) holds its key and its seal (an HMAC with the
project's secret, :mod:`cardgen.files.seal`), then the pickled drawings, unpickled by an
unpickler that makes nothing but ReportLab's PDF objects and the renderer's own data
classes, so a damaged, planted or forged cache file is ignored and can run no code. The
build writes a library's file only when it drew something new, and removes the files of
the languages it built that no library of it uses any more.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..files import pickles
from ..files.safepath import output_tree
from .faceforms import FaceLibrary, Kept

MAGIC = b"cardgen-faces 1\n"
PREFIX = "faces-"
SUFFIX = ".bin"
#: The classes a kept drawing is made of, by module; anything else in a file refuses it.
#: None of them reads a file: they are made empty and given their saved attributes (a body
#: that would call a constructor is refused, :func:`cardgen.files.pickles.loads`).
_ALLOWED = {
    "reportlab.pdfbase.pdfdoc": frozenset({
        "PDFAxialShading", "PDFRadialShading", "PDFExponentialFunction",
        "PDFStitchingFunction", "PDFArray", "PDFDictionary", "PDFName", "PDFString",
        "PDFObjectReference", "PDFResourceDictionary"}),
    "cardgen.render.faceforms": frozenset({"Kept", "Drawing", "Glyphs"}),
}


def _allowed(module: str, name: str) -> Any:
    if name not in _ALLOWED.get(module, ()):
        return None
    found = getattr(importlib.import_module(module), name, None)
    return found if isinstance(found, type) and found.__module__ == module else None


def _read(path: Path, key: str) -> Kept:
    output = path.parent.parent
    body = pickles.read(output, f"{path.parent.name}/{path.name}", MAGIC, key)
    kept = pickles.loads(body, _allowed, calls=False) if body is not None else None
    return kept if isinstance(kept, Kept) else Kept()


class FaceStore:
    """The face libraries of one build and their files under ``folder`` (output/.cache)."""

    def __init__(self, folder: Path):
        self.folder = folder
        #: file → (its content key, the library whose drawings it keeps)
        self._libraries: dict[Path, tuple[str, FaceLibrary]] = {}

    def path(self, lang: str, key: str) -> Path:
        return self.folder / f"{PREFIX}{lang}-{key[:32]}{SUFFIX}"

    def kept(self, lang: str, key: str) -> Callable[[], Kept]:
        """What the library of ``lang`` with content key ``key`` may take (read when first
        asked)."""
        return lambda: _read(self.path(lang, key), key)

    def track(self, lang: str, key: str, library: FaceLibrary) -> None:
        """Keep ``library``'s drawings when the build has written its files."""
        self._libraries[self.path(lang, key)] = key, library

    def save(self) -> None:
        """Write each library that drew a face; remove the other files of its language."""
        for path, (key, library) in self._libraries.items():
            if library.drawn:  # a library that drew nothing new: its file is as it was
                pickles.write(self.folder.parent, f"{self.folder.name}/{path.name}", MAGIC,
                              key, pickles.dumps(library.keep()))
        langs = {library.lang for _key, library in self._libraries.values()}
        kept = {path.name for path in self._libraries}
        for old in output_tree(self.folder.parent, self.folder.name, deep=False):
            lang = old.name.removeprefix(PREFIX).split("-", 1)[0]
            if (old.name.startswith(PREFIX) and old.name.endswith(SUFFIX) and lang in langs
                    and old.name not in kept):
                old.unlink(missing_ok=True)
