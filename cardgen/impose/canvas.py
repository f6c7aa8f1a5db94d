"""The PDF canvas every imposition file is drawn on, and the card forms placed on it.

* Deterministic bytes: ``invariant=1`` (no dates or random ids).
* CMYK output: every colour set through ``setFillColor``/``setStrokeColor`` (hex strings,
  RGB tuples, ReportLab colours) is converted by :func:`to_cmyk`; neutral colours become
  pure K. Every image drawn with ``drawImage`` is converted to CMYK (alpha flattened on
  white). The renderer needs no change as long as it sets colours through those calls.
* Gradients (``linearGradient``/``radialGradient``) are converted the same way.
* Each card is drawn once per file as a form XObject and placed many times.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image
from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfdoc import PDFResourceDictionary
from reportlab.pdfgen.canvas import Canvas

from ..face import CardFace
from .geometry import Box, CardSize

DrawFront = Callable[[Canvas, CardFace, tuple[float, float]], None]
DrawBack = Callable[[Canvas, tuple[float, float]], None]

#: Channels closer than this (0–1) count as a neutral grey, printed with black ink only.
NEUTRAL_TOLERANCE = 6 / 255


def to_cmyk(colour: Any) -> CMYKColor:
    """Convert ``#rrggbb`` (or any ReportLab colour) to CMYK; greys and black are pure K."""
    tc = toColor(colour) if not isinstance(colour, Color) else colour
    alpha = getattr(tc, "alpha", 1)
    if isinstance(tc, CMYKColor):
        out = tc.clone()
        out.__class__ = CMYKColor
        return out
    r, g, b = tc.red, tc.green, tc.blue
    if max(r, g, b) - min(r, g, b) <= NEUTRAL_TOLERANCE:
        grey = (r + g + b) / 3
        return CMYKColor(0, 0, 0, round(1 - grey, 4), alpha=alpha)
    k = 1 - max(r, g, b)
    c, m, y = ((1 - v - k) / (1 - k) for v in (r, g, b))
    return CMYKColor(round(c, 4), round(m, 4), round(y, 4), round(k, 4), alpha=alpha)


def _cmyk_enforcer(colour: Any) -> Any:
    if isinstance(colour, (tuple, list)) and len(colour) == 4:
        return CMYKColor(*colour)
    if isinstance(colour, (tuple, list)) and len(colour) == 3:
        return to_cmyk(Color(*colour))
    return to_cmyk(colour)


def cmyk_image(image: Any) -> Image.Image:
    """Open ``image`` (path, PIL image or ImageReader) as a CMYK PIL image."""
    if isinstance(image, ImageReader):
        pil = getattr(image, "_image", None)
        if pil is None:
            name = getattr(image, "fileName", None)
            if isinstance(name, (str, Path)):
                pil = Image.open(name)
            else:
                image.fp.seek(0)
                pil = Image.open(io.BytesIO(image.fp.read()))
    elif isinstance(image, Image.Image):
        pil = image
    else:
        pil = Image.open(Path(image))
    if pil.mode == "CMYK":
        return pil
    if pil.mode in ("RGBA", "LA", "PA") or (pil.mode == "P" and "transparency" in pil.info):
        rgba = pil.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        pil = Image.alpha_composite(white, rgba)
    return pil.convert("RGB").convert("CMYK")


class PrintCanvas(Canvas):
    """A ReportLab canvas with deterministic output and an optional CMYK-only mode."""

    def __init__(self, buffer: io.BytesIO, page_mm: tuple[float, float], cmyk: bool = False,
                 title: str = "", font: str | None = None):
        # ``font``: a registered font to start with, so no unembedded Helvetica is listed
        extra = {"initialFontName": font, "initialFontSize": 8} if font else {}
        super().__init__(buffer, pagesize=(page_mm[0] * mm, page_mm[1] * mm), invariant=1,
                         pageCompression=1,
                         enforceColorSpace=_cmyk_enforcer if cmyk else None, **extra)
        self.cmyk = cmyk
        #: id(original) -> (original, CMYK reader); the original is kept so ids stay unique
        self._cmyk_images: dict[int, tuple[Any, ImageReader]] = {}
        if title:
            self.setTitle(title)
        self.setCreator("cardgen")

    def drawImage(self, image: Any, *args: Any, **kwargs: Any) -> Any:
        if self.cmyk:
            key = id(image)
            if key not in self._cmyk_images:
                self._cmyk_images[key] = (image, ImageReader(cmyk_image(image)))
            image = self._cmyk_images[key][1]
            if kwargs.get("mask") == "auto":
                kwargs["mask"] = None
        return super().drawImage(image, *args, **kwargs)

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

    def linearGradient(self, x0, y0, x1, y1, colors, positions=None, extend=True):
        if self.cmyk:
            colors = [_cmyk_enforcer(col) for col in colors]
        return super().linearGradient(x0, y0, x1, y1, colors, positions, extend)

    def radialGradient(self, x, y, radius, colors, positions=None, extend=True):
        if self.cmyk:
            colors = [_cmyk_enforcer(col) for col in colors]
        return super().radialGradient(x, y, radius, colors, positions, extend)

    def ink(self, hex_colour: str) -> None:
        """Set fill and stroke to one colour (converted when CMYK)."""
        self.setFillColor(hex_colour)
        self.setStrokeColor(hex_colour)

    def set_print_preferences(self, duplex: str | None) -> None:
        """Ask viewers to print at actual size and, for duplex files, which edge to flip."""
        self.setViewerPreference("PrintScaling", "None")
        if duplex:
            self.setViewerPreference("Duplex", duplex)


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
