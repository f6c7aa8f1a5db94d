"""Every face of one language drawn once, then placed by reference in every file.

A :class:`FaceLibrary` draws each face (and the back) of one language once, on a canvas of
its own, and keeps the drawing as a finished form: its content stream, compressed once, and
the images and gradients it uses. Each file (cards.pdf, the sheet files, print-shop.pdf)
still defines the form itself, so every file stays self-contained; only the drawing is
shared.

The drawing can be shared because its bytes do not depend on the file: images are named by
their content, gradients and fonts by names local to the form's own resources, and text
by glyph codes that :meth:`FaceLibrary.bind` gives the file's fonts before anything is
drawn on it (the codes the library's fonts assigned while drawing every face). So the
library records every face first (:meth:`FaceLibrary.prepare`) and files bind after.
"""

from __future__ import annotations

import copy
import io
import pickle
import zlib
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFDictionary,
    PDFName,
    PDFObjectReference,
    PDFResourceDictionary,
    PDFStream,
    xObjectName,
)
from reportlab.pdfgen.canvas import Canvas

from ..face import CardFace
from ..fonts import register_fonts
from ..layout import Layout
from .card import CardReport, draw_back, draw_card
from .cmyk import CmykCanvas, CmykConverter

_INTERNAL = "__InternalName__"  # where ReportLab notes an object's name in its document


@dataclass(frozen=True)
class _Drawing:
    """One recorded form: compressed content and the library names of what it uses."""

    content: bytes
    images: tuple[str, ...]  # XObject names
    shadings: tuple[tuple[str, str], ...]  # (name in the content, an equal shading's name)


def _unregistered(obj):
    """A shallow copy of a ReportLab PDF object that no document has named yet."""
    clone = copy.copy(obj)
    clone.__dict__.pop(_INTERNAL, None)
    return clone


class FaceLibrary:
    """The faces of one language, each drawn once for ``layout`` (its bleed) and ``cmyk``."""

    def __init__(self, layout: Layout, lang: str, cmyk: CmykConverter | None = None):
        self.layout, self.lang, self.cmyk = layout, lang, cmyk
        body = register_fonts(layout.fonts)["body"]
        self._canvas = CmykCanvas(io.BytesIO(), pagesize=layout.page_size, invariant=1,
                                  pageCompression=1, initialFontName=body, initialFontSize=8,
                                  cmyk=cmyk)
        self._drawings: dict[Hashable, _Drawing] = {}
        self.reports: dict[CardFace, CardReport] = {}
        self._bound = False
        self._same_shading: dict[bytes, str] = {}  # content → the first shading's name

    def _shared_shading(self, name: str) -> str:
        """The name of the first recorded shading equal to ``name`` (every face's steel
        shield has the same gradient: each file then holds it once)."""
        obj = _unregistered(self._canvas._doc.idToObject[name])
        return self._same_shading.setdefault(pickle.dumps(obj, protocol=4), name)

    # --- recording ------------------------------------------------------------------------

    def _record(self, key: Hashable, draw: Callable[[Canvas], object]) -> _Drawing:
        found = self._drawings.get(key)
        if found is not None:
            return found
        if self._bound:
            raise RuntimeError("a face was drawn after a file took the library's glyph codes;"
                               " call FaceLibrary.prepare() with every face first")
        c = self._canvas
        c._pushAccumulators()  # what endForm does, keeping the content for us
        c.saveState()
        draw(c)
        c.restoreState()
        if c._colorsUsed:
            raise RuntimeError("spot colours in a card face are not supported by FaceLibrary")
        content = "\n".join([c._preamble, *c._code]).encode("latin-1")
        drawing = _Drawing(zlib.compress(content), tuple(dict.fromkeys(c._formsinuse)),
                           tuple((s, self._shared_shading(s)) for s in c._shadingUsed))
        c._restartAccumulators()
        self._drawings[key] = drawing
        return drawing

    def front(self, face: CardFace) -> _Drawing:
        """The face's drawing (drawn now if it was not yet); its report in :attr:`reports`."""
        def draw(c: Canvas) -> None:
            self.reports[face] = draw_card(c, face, self.layout)

        return self._record(face, draw)

    def back(self) -> _Drawing:
        return self._record("back", lambda c: draw_back(c, self.layout, lang=self.lang))

    def prepare(self, faces: Iterable[CardFace], back: bool = True) -> FaceLibrary:
        """Draw every face (and the back) that is not drawn yet; returns the library."""
        for face in faces:
            self.front(face)
        if back:
            self.back()
        return self

    # --- placing in a file ----------------------------------------------------------------

    def bind(self, canvas: Canvas) -> FileForms:
        """Ready ``canvas`` (a new file, nothing drawn yet) for this library's forms."""
        self._bound = True
        return FileForms(self, canvas)


@dataclass
class FileForms:
    """One file's side of a :class:`FaceLibrary`: its fonts carry the library's glyph codes
    and each form is defined in the file at most once."""

    library: FaceLibrary
    canvas: Canvas
    _resources: dict[str, PDFObjectReference] = field(default_factory=dict)
    _defined: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        src, doc = self.library._canvas._doc, self.canvas._doc
        fonts = PDFDictionary({})
        for font_name in src.fontMapping:
            font = pdfmetrics.getFont(font_name)
            state = font.state.get(src)
            if state is None or not font._dynamicFont:
                raise RuntimeError(f"font {font_name} of a card face is not an embedded TTF")
            mine = font._assignState(doc)
            if mine.nextCode != 1 or mine.frozen:
                raise RuntimeError(f"text was drawn in font {font_name} before the file was"
                                   " bound to the face library")
            mine.assignments = dict(state.assignments)
            mine.subsets = [list(s) for s in state.subsets]
            mine.nextCode = state.nextCode
            for n in range(len(state.subsets)):
                theirs = font.getSubsetInternalName(n, doc)[1:]
                fonts.dict[f"{state.internalName}+{n}"] = PDFObjectReference(theirs)
        self._fonts = doc.Reference(fonts)
        # what the drawing needs of the PDF version (an alpha of 1 still asks for 1.4)
        doc._pdfVersion = max(doc._pdfVersion, src._pdfVersion)
        self._gstates = self.library._canvas._extgstate.getState()

    def _image(self, name: str) -> PDFObjectReference:
        src, doc = self.library._canvas._doc, self.canvas._doc
        reg = xObjectName(name)
        if reg not in doc.idToObject:
            image = _unregistered(src.idToObject[reg])
            smask = getattr(image, "smask", None)
            if isinstance(smask, PDFObjectReference):
                mask = smask.name
                if mask not in doc.idToObject:
                    doc.Reference(_unregistered(src.idToObject[mask]), mask)
            doc.Reference(image, reg)
        return PDFObjectReference(reg)

    def _shading(self, name: str) -> PDFObjectReference:
        key = f"shading:{name}"
        if key not in self._resources:
            src = self.library._canvas._doc
            # a deep copy: a shading's function objects get named in each document too
            self._resources[key] = PDFObjectReference(
                self.canvas._doc.addShading(_unregistered(copy.deepcopy(src.idToObject[name]))))
        return self._resources[key]

    def define(self, name: str, face: CardFace | None) -> str:
        """Form ``name`` in this file: ``face``'s front, or the back when None."""
        if name in self._defined:
            return name
        lib = self.library
        drawing = lib.back() if face is None else lib.front(face)
        res = PDFResourceDictionary()
        res.allProcs()
        res.Font = self._fonts
        res.XObject = {reg: self._image(n) for n in drawing.images
                       for reg in (xObjectName(n),)}
        res.Shading = {name: self._shading(same) for name, same in drawing.shadings}
        if self._gstates:
            res.ExtGState = self._gstates
        w, h = lib.layout.page_size
        stream = PDFStream(PDFDictionary({
            "Type": PDFName("XObject"), "Subtype": PDFName("Form"), "FormType": 1,
            "BBox": PDFArray([0, 0, w, h]), "Matrix": PDFArray([1, 0, 0, 1, 0, 0]),
            "Resources": res, "Filter": PDFName("FlateDecode")}), drawing.content, filters=[])
        self.canvas._doc.addForm(name, stream)
        self._defined.add(name)
        return name
