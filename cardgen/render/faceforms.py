"""Every face of one language drawn once, then placed by reference in every file; a face
whose inputs did not change since the last build is not drawn at all.

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

Glyph codes are given in order of first use, face after face in deck order. Each drawing
notes, per font, the characters it uses in the order it first uses them and the codes they
got; a drawing kept from an earlier build (:mod:`cardgen.render.facestore`) is taken
instead of drawing the face when its characters, assigned in that order, get the same codes
again. A file is thus byte for byte what a build that draws every face would make.
"""

from __future__ import annotations

import copy
import hashlib
import io
import pickle
import re
import zlib
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFDictionary,
    PDFName,
    PDFObjectReference,
    PDFResourceDictionary,
    xObjectName,
)
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from ..data.layout import Layout
from ..fonts import NBSP, register_fonts
from ..wording.face import CardFace
from .back import draw_back
from .card import CardReport, draw_card
from .cmyk import CmykCanvas, CmykConverter
from .pdfpage import FastStream

_INTERNAL = "__InternalName__"  # where ReportLab notes an object's name in its document


@dataclass(frozen=True)
class Glyphs:
    """The characters one drawing shows in one font, in the order it first shows them, and
    the glyph codes they had (0: a character the font lacks)."""

    font: str  # ReportLab font name
    chars: str
    codes: tuple[int, ...]


@dataclass(frozen=True)
class Drawing:
    """One recorded form: its compressed content and what the content names."""

    content: bytes
    fonts: tuple[tuple[str, str], ...]  # (name in the content, e.g. "F2"; ReportLab font name)
    glyphs: tuple[Glyphs, ...]
    images: tuple[str, ...]  # XObject names (by content)
    shadings: tuple[tuple[str, str], ...]  # (name in the content, digest of the shading)
    report: CardReport | None = None  # a card front's fit and findings
    version: tuple[int, int] = (1, 3)  # the PDF version the drawing needs (1.4: shadings)
    #: False for a drawing that sets a graphics state (alpha, blend) or uses a font outside
    #: the layout: those are named by the library's document, not by the drawing
    portable: bool = True


@dataclass
class Image:
    """An image XObject a drawing places, and its soft mask (ReportLab objects, not named
    in any document)."""

    obj: Any
    mask_name: str | None = None
    mask: Any = None


@dataclass
class Kept:
    """Drawings kept from an earlier build for one library: face key → drawing, and the
    images and gradients they use."""

    drawings: dict[str, Drawing] = field(default_factory=dict)
    images: dict[str, Image] = field(default_factory=dict)
    shadings: dict[str, Any] = field(default_factory=dict)


def _unregistered(obj):
    """A shallow copy of a ReportLab PDF object that no document has named yet."""
    clone = copy.copy(obj)
    clone.__dict__.pop(_INTERNAL, None)
    return clone


def _code(assignments: dict[int, int], char: str) -> int:
    """The glyph code ReportLab's text output gives ``char`` (a no-break space is a space)."""
    return assignments.get(32 if char == NBSP else ord(char), 0)


@contextmanager
def _glyph_log(doc: Any) -> Iterator[dict[str, dict[str, None]]]:
    """Font name → characters shown on ``doc`` while the block runs, in order of first use.

    ReportLab gives a TrueType font's characters their codes in ``TTFont.splitString``, the
    one place every text call passes; it is wrapped for the block only.
    """
    used: dict[str, dict[str, None]] = {}
    original = TTFont.splitString

    def split(font: TTFont, text: Any, on: Any, encoding: str = "utf-8") -> Any:
        if on is doc:
            chars = text if isinstance(text, str) else text.decode(encoding)
            used.setdefault(font.fontName, {}).update(dict.fromkeys(chars))
        return original(font, text, on, encoding)

    TTFont.splitString = split  # type: ignore[method-assign]
    try:
        yield used
    finally:
        TTFont.splitString = original  # type: ignore[method-assign]


#: Characters a face's drawing shows that its data need not hold: the separator of the
#: coin row and the en dash of the back's years.
DRAWN = "\u00b7\u2013"

#: A gradient's name in a drawing's content: ReportLab numbers them per document, a drawing
#: kept between builds names each by its digest instead (the same bytes in every build)
_SHADING_USE = re.compile(rb"/(Sh\d+) sh\b")


class FaceLibrary:
    """The faces of one language, each drawn once for ``layout`` (its bleed) and ``cmyk``.

    ``kept`` gives drawings of an earlier build (called once, when the first face is
    needed) and ``key`` each face's key in them; without them every face is drawn.
    """

    def __init__(self, layout: Layout, lang: str, cmyk: CmykConverter | None = None, *,
                 kept: Callable[[], Kept] | None = None,
                 key: Callable[[CardFace], str | None] | None = None):
        self.layout, self.lang, self.cmyk = layout, lang, cmyk
        fonts = register_fonts(layout.fonts)
        self._canvas = CmykCanvas(io.BytesIO(), pagesize=layout.page_size, invariant=1,
                                  pageCompression=1, initialFontName=fonts["body"],
                                  initialFontSize=8, cmyk=cmyk)
        doc = self._canvas._doc
        # the layout's fonts named in a fixed order, not in order of first use, so a kept
        # drawing's font names mean the same fonts in every build
        self._named = sorted(set(fonts.values()))
        for n, name in enumerate(self._named, 1):
            font = pdfmetrics.getFont(name)
            font._assignState(doc).internalName = f"F{n}"
            doc.fontMapping[name] = f"/F{n}"
        self._version = doc._pdfVersion
        self._kept_source, self._key = kept, key
        self._kept: Kept | None = None
        self._drawings: dict[Hashable, Drawing] = {}
        self.images: dict[str, Image] = {}
        self.shadings: dict[str, Any] = {}
        self.fonts: set[str] = set()  # every font a drawing of the library uses
        self.drawn = 0  # faces drawn, not taken from an earlier build
        self._seeded = False
        self._bound = False

    def report(self, face: CardFace) -> CardReport | None:
        """What drawing ``face`` found (its fit and findings); None for a face taken from an
        earlier build (the check fits every face and reports what it finds)."""
        return self.front(face).report

    # --- recording ------------------------------------------------------------------------

    def _record(self, key: Hashable, draw: Callable[[Canvas], object]) -> Drawing:
        found = self._drawings.get(key)
        if found is not None:
            return found
        if self._bound:
            raise RuntimeError("a face was drawn after a file took the library's glyph codes;"
                               " call FaceLibrary.prepare() with every face first")
        c = self._canvas
        doc = c._doc
        c._pushAccumulators()  # what endForm does, keeping the content for us
        c.saveState()
        before, doc._pdfVersion = doc._pdfVersion, self._version
        with _glyph_log(doc) as used:
            result = draw(c)
        c.restoreState()
        needs, doc._pdfVersion = doc._pdfVersion, max(before, doc._pdfVersion)
        if c._colorsUsed:
            raise RuntimeError("spot colours in a card face are not supported by FaceLibrary")
        content = "\n".join([c._preamble, *c._code]).encode("latin-1")
        shadings: dict[str, str] = {}  # name in the document → digest
        for name in c._shadingUsed:
            obj = _unregistered(doc.idToObject[name])
            digest = hashlib.sha256(pickle.dumps(obj, protocol=4)).hexdigest()[:24]
            self.shadings.setdefault(digest, obj)
            shadings[name] = digest
        if shadings:
            content = _SHADING_USE.sub(lambda m: b"/Sh%s sh" % shadings[m.group(1).decode()]
                                       .encode(), content)
        for name in dict.fromkeys(c._formsinuse):
            self._keep_image(name)
        glyphs = []
        for font_name, chars in sorted(used.items()):
            state = pdfmetrics.getFont(font_name).state[doc]
            glyphs.append(Glyphs(font_name, "".join(chars),
                                 tuple(_code(state.assignments, ch) for ch in chars)))
        self.fonts.update(used)
        drawing = Drawing(
            zlib.compress(content), tuple(sorted((
                pdfmetrics.getFont(n).state[doc].internalName, n) for n in used)),
            tuple(glyphs), tuple(dict.fromkeys(c._formsinuse)),
            tuple(sorted({(f"Sh{d}", d) for d in shadings.values()})),
            result if isinstance(result, CardReport) else None, needs,
            portable=b" gs" not in content and all(n in self._named for n in used))
        c._restartAccumulators()
        self._drawings[key] = drawing
        self.drawn += isinstance(key, CardFace)
        return drawing

    def _keep_image(self, name: str) -> None:
        if name in self.images:
            return
        doc = self._canvas._doc
        obj = _unregistered(doc.idToObject[xObjectName(name)])
        smask = getattr(obj, "smask", None)
        image = Image(obj)
        if isinstance(smask, PDFObjectReference):
            image.mask_name, image.mask = smask.name, _unregistered(doc.idToObject[smask.name])
        self.images[name] = image

    def _adopt(self, face: CardFace) -> bool:
        """Take ``face``'s drawing from an earlier build if its glyphs keep their codes."""
        key = self._key(face) if self._key is not None else None
        if key is None or self._kept_source is None:
            return False
        if self._kept is None:
            self._kept = self._kept_source()
        kept = self._kept.drawings.get(key)
        if kept is None or not kept.portable:
            return False
        doc = self._canvas._doc
        for glyphs in kept.glyphs:
            if glyphs.font not in self._named:
                return False
            font = pdfmetrics.getFont(glyphs.font)
            font.splitString(glyphs.chars, doc)  # new characters get codes as drawing would
            assignments = font.state[doc].assignments
            if tuple(_code(assignments, ch) for ch in glyphs.chars) != glyphs.codes:
                return False
        if (any(n not in self._kept.images for n in kept.images)
                or any(d not in self._kept.shadings for _n, d in kept.shadings)):
            return False
        for name in kept.images:
            self.images.setdefault(name, self._kept.images[name])
        for _name, digest in kept.shadings:
            self.shadings.setdefault(digest, self._kept.shadings[digest])
        self.fonts.update(g.font for g in kept.glyphs)
        doc._pdfVersion = max(doc._pdfVersion, kept.version)
        self._drawings[face] = kept
        return True

    def front(self, face: CardFace) -> Drawing:
        """The face's drawing (drawn now if it was not yet)."""
        return self._record(face, lambda c: draw_card(c, face, self.layout))

    def back(self) -> Drawing:
        return self._record("back", lambda c: draw_back(c, self.layout, lang=self.lang))

    def _seed(self, faces: list[CardFace]) -> None:
        """Give every character the faces can show its glyph code now, in character order.

        Codes given in order of first use would change whenever a card's text changes the
        order in which a character first appears (a new word on the first card renumbers
        the deck), and every later face would have to be drawn again. The characters are
        taken from everything a face holds, in both cases (labels print in capitals), and
        from :data:`DRAWN`; one the drawing shows beyond them is given the next code when
        first used, as before.
        """
        chars: set[str] = set(DRAWN)
        for face in faces:
            text = repr(face)
            chars.update(text, text.upper())
        seed = "".join(sorted(ch for ch in chars if ord(ch) > 126))
        doc = self._canvas._doc
        for name in self._named:
            pdfmetrics.getFont(name).splitString(seed, doc)

    def prepare(self, faces: Iterable[CardFace], back: bool = True) -> FaceLibrary:
        """Draw, or take from an earlier build, every face (and the back) not ready yet, in
        the order given; returns the library. The first call gives the glyph codes: it must
        have every face that any file of the library shows."""
        faces = list(faces)
        if not self._seeded:
            self._seed(faces)
            self._seeded = True
        for face in faces:
            if face not in self._drawings and not self._adopt(face):
                self.front(face)
        if back:
            self.back()
        return self

    def keep(self) -> Kept:
        """The drawings an earlier build can take (by face key), with what they use."""
        out = Kept()
        for face, drawing in self._drawings.items():
            key = self._key(face) if isinstance(face, CardFace) and self._key else None
            if key is None or not drawing.portable:
                continue
            out.drawings[key] = replace(drawing, report=None)  # a tenth of the reading time
            for name in drawing.images:
                out.images[name] = self.images[name]
            for _name, digest in drawing.shadings:
                out.shadings[digest] = self.shadings[digest]
        return out

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
        #: font name → this file's name of each of its subsets
        self._subsets: dict[str, list[str]] = {}
        for font_name in sorted(self.library.fonts):
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
            self._subsets[font_name] = [font.getSubsetInternalName(n, doc)[1:]
                                        for n in range(len(state.subsets))]
        self._fonts: dict[tuple[tuple[str, str], ...], PDFObjectReference] = {}
        self._shared: dict[tuple, PDFObjectReference] = {}
        # what the drawing needs of the PDF version (an alpha of 1 still asks for 1.4)
        doc._pdfVersion = max(doc._pdfVersion, src._pdfVersion)
        self._gstates = self.library._canvas._extgstate.getState()

    def _font_dict(self, fonts: tuple[tuple[str, str], ...]) -> PDFObjectReference:
        """The /Font resources of a drawing whose content names ``fonts``."""
        if fonts not in self._fonts:
            entries = {f"{name}+{n}": PDFObjectReference(subset) for name, font in fonts
                       for n, subset in enumerate(self._subsets[font])}
            self._fonts[fonts] = self.canvas._doc.Reference(PDFDictionary(entries))
        return self._fonts[fonts]

    def _image(self, name: str) -> PDFObjectReference:
        doc = self.canvas._doc
        reg = xObjectName(name)
        if reg not in doc.idToObject:
            image = self.library.images[name]
            if image.mask_name is not None and image.mask_name not in doc.idToObject:
                doc.Reference(_unregistered(image.mask), image.mask_name)
            doc.Reference(_unregistered(image.obj), reg)
        return PDFObjectReference(reg)

    def _shading(self, digest: str) -> PDFObjectReference:
        key = f"shading:{digest}"
        if key not in self._resources:
            # a deep copy: a shading's function objects get named in each document too
            self._resources[key] = PDFObjectReference(self.canvas._doc.addShading(
                _unregistered(copy.deepcopy(self.library.shadings[digest]))))
        return self._resources[key]

    def _resources_of(self, drawing: Drawing) -> PDFObjectReference:
        """The form's resources: one object shared by every form that uses the same fonts,
        images and gradients (most faces), so a file holds and writes it once."""
        key = (drawing.fonts, drawing.images, drawing.shadings)
        if key not in self._shared:
            res = PDFResourceDictionary()
            res.allProcs()
            res.Font = self._font_dict(drawing.fonts)
            res.XObject = {xObjectName(n): self._image(n) for n in drawing.images}
            res.Shading = {name: self._shading(digest) for name, digest in drawing.shadings}
            if self._gstates:
                res.ExtGState = self._gstates
            self._shared[key] = self.canvas._doc.Reference(res)
        return self._shared[key]

    def define(self, name: str, face: CardFace | None) -> str:
        """Form ``name`` in this file: ``face``'s front, or the back when None."""
        if name in self._defined:
            return name
        lib = self.library
        drawing = lib.back() if face is None else lib.front(face)
        w, h = lib.layout.page_size
        stream = FastStream(PDFDictionary({
            "Type": PDFName("XObject"), "Subtype": PDFName("Form"), "FormType": 1,
            "BBox": PDFArray([0, 0, w, h]), "Matrix": PDFArray([1, 0, 0, 1, 0, 0]),
            "Resources": self._resources_of(drawing), "Filter": PDFName("FlateDecode")}),
            drawing.content, filters=[])
        self.canvas._doc.addForm(name, stream)
        self._defined.add(name)
        return name
