"""The PDF canvas every imposition file is drawn on, and the card forms placed on it.

* Deterministic bytes: ``invariant=1`` (no dates or random ids).
* CMYK output: a :class:`~cardgen.render.cmyk.CmykConverter` (ICC profile) converts every
  colour, gradient and image (see :mod:`cardgen.render.cmyk`).
* Each card is a form XObject placed many times: drawn once per file, or defined from a
  drawing made once for every file of the language (:class:`FormSource`).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any, Protocol

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFDictionary,
    PDFInfo,
    PDFName,
    PDFStream,
    PDFString,
    PDFZCompress,
)
from reportlab.pdfgen.canvas import Canvas

from ..render.cmyk import ICC_DIR, CmykCanvas, CmykConverter, default_converter
from ..wording.face import CardFace
from .geometry import Box, CardSize

DrawFront = Callable[[Canvas, CardFace, tuple[float, float]], None]
DrawBack = Callable[[Canvas, tuple[float, float]], None]


class FileForms(Protocol):
    def define(self, name: str, face: CardFace | None) -> str:
        """Define form ``name`` in the bound file: ``face``'s front, the back when None."""


class FormSource(Protocol):
    """Faces drawn once elsewhere (:class:`cardgen.render.faceforms.FaceLibrary`)."""

    def bind(self, canvas: Canvas) -> FileForms:
        """Ready a new file's canvas (nothing drawn on it yet) for the source's forms."""


def converter(cmyk: CmykConverter | bool | None) -> CmykConverter | None:
    """``True`` means the shipped profile; a converter is used as given."""
    if cmyk is True:
        return default_converter()
    return cmyk or None


class PrintCanvas(CmykCanvas):
    """A ReportLab canvas with deterministic output and an optional CMYK-only mode."""

    def __init__(self, buffer: io.BytesIO, page_mm: tuple[float, float],
                 cmyk: CmykConverter | bool | None = None, title: str = "",
                 font: str | None = None):
        # ``font``: a registered font to start with, so no unembedded Helvetica is listed
        extra = {"initialFontName": font, "initialFontSize": 8} if font else {}
        super().__init__(buffer, pagesize=(page_mm[0] * mm, page_mm[1] * mm), invariant=1,
                         pageCompression=1, cmyk=converter(cmyk), **extra)
        if title:
            self.setTitle(title)
        self.setCreator("cardgen")

    def ink(self, hex_colour: str) -> None:
        """Set fill and stroke to one colour (converted when CMYK)."""
        self.setFillColor(hex_colour)
        self.setStrokeColor(hex_colour)

    def make_pdfx(self, cmyk: CmykConverter) -> None:
        """Mark the file PDF/X-1a:2003: the OutputIntent carries ``cmyk``'s ICC profile, the
        Info dictionary the version and conformance keys (and, as always, Trapped /False). The rest of the
        standard (CMYK only, no transparency, boxes, embedded fonts) is the drawing's own
        and is checked by preflight."""
        doc = self._doc
        icc = PDFStream(PDFDictionary({"N": 4}), cmyk.raw, filters=[PDFZCompress])
        shipped = cmyk.icc.parent == ICC_DIR
        intent = PDFDictionary({
            "Type": PDFName("OutputIntent"), "S": PDFName("GTS_PDFX"),
            "OutputConditionIdentifier": PDFString("FOGRA39" if shipped else "Custom"),
            "RegistryName": PDFString("http://www.color.org"),
            "OutputCondition": PDFString(cmyk.description),
            "Info": PDFString(cmyk.description),
            "DestOutputProfile": doc.Reference(icc)})
        catalog = doc.Catalog
        catalog.__NoDefault__ = [*type(catalog).__NoDefault__, "OutputIntents"]
        catalog.__Refs__ = catalog.__NoDefault__
        catalog.OutputIntents = PDFArray([intent])
        info = _PdfxInfo()
        info.__dict__.update(doc.info.__dict__)
        for key in ("title", "author", "subject", "keywords", "creator", "producer"):
            setattr(info, key, getattr(doc.info, key))
        doc.info = info

    def set_print_preferences(self, duplex: str | None) -> None:
        """Ask viewers to print at actual size and, for duplex files, which edge to flip."""
        self.setViewerPreference("PrintScaling", "None")
        if duplex:
            self.setViewerPreference("Duplex", duplex)


#: The document information keys of PDF/X-1a:2003 as ISO 15930-4 states them (and Acrobat
#: and Scribus write them): the version names the PDF/X-1 family, the conformance level a.
PDFX_KEYS = {"GTS_PDFXVersion": "PDF/X-1:2003", "GTS_PDFXConformance": "PDF/X-1a:2003"}


class _PdfxInfo(PDFInfo):
    """The document information of a PDF/X-1a:2003 file."""

    def format(self, document: Any) -> bytes:
        self.trapped = "False"
        out = super().format(document)
        keys = b"".join(f"/{k} ({v})\n".encode("ascii") for k, v in PDFX_KEYS.items())
        return out.replace(b"/Trapped", keys + b"/Trapped", 1)


class CardForms:
    """Draw each card (and the one back) once as a form XObject; place it many times.

    A form's origin is the lower-left corner of the card's bleed box, as for the drawers.
    With a ``source`` the forms come from faces drawn once for every file (bound before
    anything is drawn on ``canvas``); the drawers are then not called.
    """

    def __init__(self, canvas: PrintCanvas, card: CardSize, draw_front: DrawFront,
                 draw_back: DrawBack, source: FormSource | None = None):
        self.canvas = canvas
        self.card = card
        self.draw_front = draw_front
        self.draw_back = draw_back
        self._done: set[str] = set()
        self._shared = source.bind(canvas) if source is not None else None

    def _form(self, name: str, draw: Callable[[], None], face: CardFace | None = None) -> str:
        if self._shared is not None:
            return self._shared.define(name, face)
        if name not in self._done:
            c = self.canvas
            c.beginForm(name, 0, 0, self.card.bleed_width * mm, self.card.bleed_height * mm)
            c.saveState()
            draw()
            c.restoreState()
            c.endForm()
            self._done.add(name)
        return name

    def front(self, face: CardFace) -> str:
        return self._form(f"front-{face.card_id}",
                          lambda: self.draw_front(self.canvas, face, (0.0, 0.0)), face)

    def back(self) -> str:
        return self._form("back", lambda: self.draw_back(self.canvas, (0.0, 0.0)))

    def place(self, name: str, trim: Box, clip: Box) -> None:
        """Place form ``name`` with its trim on ``trim``, showing only ``clip`` (mm)."""
        c = self.canvas
        c.saveState()
        path = c.beginPath()
        path.rect(clip.x * mm, clip.y * mm, clip.w * mm, clip.h * mm)
        c.clipPath(path, stroke=0, fill=0)
        b = self.card.bleed
        c.translate((trim.x - b) * mm, (trim.y - b) * mm)
        c.doForm(name)
        c.restoreState()
