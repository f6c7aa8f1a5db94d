"""The PDF canvas every imposition file is drawn on, and the card forms placed on it.

* Deterministic bytes: ``invariant=1`` (no dates or random ids).
* CMYK output: a :class:`~cardgen.render.cmyk.CmykConverter` (ICC profile) converts every
  colour, gradient and image (see :mod:`cardgen.render.cmyk`).
* Each card is drawn once per file as a form XObject and placed many times.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFDictionary,
    PDFInfo,
    PDFName,
    PDFResourceDictionary,
    PDFStream,
    PDFString,
    PDFZCompress,
)
from reportlab.pdfgen.canvas import Canvas

from ..face import CardFace
from ..render.cmyk import ICC_DIR, CmykCanvas, CmykConverter, default_converter
from .geometry import Box, CardSize

DrawFront = Callable[[Canvas, CardFace, tuple[float, float]], None]
DrawBack = Callable[[Canvas, tuple[float, float]], None]


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

    def endForm(self, **extra_attributes: Any) -> None:
        """Close a form with complete resources.

        ReportLab's form XObjects list only fonts and XObjects, so transparency (ExtGState),
        gradients (Shading) and separation colours drawn inside a form would be lost; this
        gives the form the same resource dictionary a page gets.
        """
        res = PDFResourceDictionary()
        res.basicFonts()
        res.allProcs()
        if self._formsinuse:
            res.XObject = self._doc.xobjDict(self._formsinuse)
        states = self._extgstate.getState()
        if states:
            res.ExtGState = states
        res.setShading(self._shadingUsed)
        res.setColorSpace(self._colorsUsed)
        super().endForm(Resources=res, **extra_attributes)

    def ink(self, hex_colour: str) -> None:
        """Set fill and stroke to one colour (converted when CMYK)."""
        self.setFillColor(hex_colour)
        self.setStrokeColor(hex_colour)

    def make_pdfx(self, cmyk: CmykConverter) -> None:
        """Mark the file PDF/X-1a:2003: the OutputIntent carries ``cmyk``'s ICC profile, the
        Info dictionary the version key (and, as always, Trapped /False). The rest of the
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


class _PdfxInfo(PDFInfo):
    """The document information of a PDF/X-1a:2003 file."""

    def format(self, document: Any) -> bytes:
        self.trapped = "False"
        out = super().format(document)
        return out.replace(b"/Trapped", b"/GTS_PDFXVersion (PDF/X-1a:2003)\n/Trapped", 1)


class CardForms:
    """Draw each card (and the one back) once as a form XObject; place it many times.

    A form's origin is the lower-left corner of the card's bleed box, as for the drawers.
    """

    def __init__(self, canvas: PrintCanvas, card: CardSize, draw_front: DrawFront,
                 draw_back: DrawBack):
        self.canvas = canvas
        self.card = card
        self.draw_front = draw_front
        self.draw_back = draw_back
        self._done: set[str] = set()

    def _form(self, name: str, draw: Callable[[], None]) -> str:
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
                          lambda: self.draw_front(self.canvas, face, (0.0, 0.0)))

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
