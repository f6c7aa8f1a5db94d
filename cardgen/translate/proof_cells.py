"""The proof's drawn pieces: a card's two faces, and table text set as the card sets it.

:class:`CardPair` draws the EN and CS faces with the renderer and frames a face whose text
does not fit in red, saying how many lines the card drops. :class:`MarkedText` sets a text
with the card's own text engine (:mod:`cardgen.render.textflow`) and icons, so ``:token:``
placeholders show as the coins and shields the card prints; marked words get a background
(changed, removed, differs from canonical) and each non-breaking space a light ⍽ mark.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from ..errors import CardgenError
from ..render.textflow import NBSP, Atom, FitResult, IconSet, Para, fit, parse
from ..render.textflow import draw as draw_text

DrawCard = Callable[[Any, Any, Any, tuple[float, float]], Any]

#: Background of marked words, by mark: changed (now), removed (was), not canonical.
MARKS = {"new": colors.HexColor("#ffe36e"), "old": colors.HexColor("#f6b4b4"),
         "canon": colors.HexColor("#bcd8f5")}
NBSP_MARK = colors.HexColor("#9a9a9a")
OVERFLOW = colors.HexColor("#d0021b")


def overflow_label(report: Any) -> str | None:
    """What an overflowing face loses ("3 lines dropped"), or None when its text fits."""
    result: FitResult | None = getattr(report, "fit", None)
    if result is None or result.fits:
        return None
    if result.too_wide:
        return f"word too wide: {', '.join(result.too_wide)}"
    lost = max(1, math.ceil((result.height - result.available - 0.01) / result.leading))
    return f"{lost} line{'s' * (lost != 1)} dropped"


class CardPair(Flowable):
    """The EN and CS faces of one card next to each other, ``width`` wide together."""

    def __init__(self, faces: Sequence[Any | None], draw_card: DrawCard, layout: Any,
                 font: str, width: float, gap: float = 3 * mm):
        super().__init__()
        self.faces, self.draw_card, self.layout, self.font, self.gap = (
            faces, draw_card, layout, font, gap)
        w, h = layout.page_size
        self.scale = (width - gap) / (2 * w)
        self.card_w, self.card_h = w * self.scale, h * self.scale
        self.width, self.height = width, self.card_h + 4 * mm

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        for i, face in enumerate(self.faces):
            c.saveState()
            c.translate(i * (self.card_w + self.gap), self.height - self.card_h)
            problem = "no face" if face is None else None
            if face is not None:
                c.saveState()
                c.scale(self.scale, self.scale)
                try:
                    problem = overflow_label(self.draw_card(c, face, self.layout, (0, 0)))
                except CardgenError as exc:
                    problem = exc.findings[0].message if exc.findings else str(exc)
                c.restoreState()
            if problem:
                self._frame(c, problem)
            c.restoreState()

    def _frame(self, c: Canvas, problem: str) -> None:
        c.setStrokeColor(OVERFLOW)
        c.setLineWidth(2)
        c.rect(0, 0, self.card_w, self.card_h, stroke=1, fill=0)
        size = 7
        text = problem[:60]
        tw = stringWidth(text, self.font, size)
        c.setFillColor(OVERFLOW)
        c.rect(0, -size * 1.6, min(self.card_w, tw + 4), size * 1.5, stroke=0, fill=1)
        c.setFillColor(colors.white)
        c.setFont(self.font, size)
        c.drawString(2, -size * 1.2, text)


class MarkedText(Flowable):
    """Words set by the card's text engine, with ``:token:`` icons and marked words.

    ``runs`` are (word, marked) pairs; ``mark`` picks the background of marked words
    (see :data:`MARKS`), ``prefix`` an italic lead such as "was:"."""

    def __init__(self, runs: Sequence[tuple[str, bool]], fonts: Mapping[str, str],
                 icons: IconSet, *, mark: str = "new", size: float = 7.5,
                 leading: float = 1.3, prefix: str | None = None, colour: Any = colors.black):
        super().__init__()
        self.fonts = {"body": fonts["body"], "mark": fonts["body"], "lead": fonts["italic"]}
        self.icons = IconSet(icons.width, self._safe(icons.draw))
        self.mark, self.size, self.lead, self.colour = mark, size, size * leading, colour
        atoms: list[Atom] = []
        if prefix:
            atoms += [Atom(prefix, "lead"), Atom(" ", "body")]
        for i, (word, marked) in enumerate(runs or [("—", False)]):
            if i:
                atoms.append(Atom(" ", "body"))
            atoms += parse(word, "mark" if marked else "body")
        self.para = Para(tuple(atoms))
        self.result: FitResult | None = None

    @staticmethod
    def _safe(draw: Callable[[Canvas, str, float, float, float], None]
              ) -> Callable[[Canvas, str, float, float, float], None]:
        """An icon the face has no style for is drawn as a plain frame, not an error."""
        def safe(c: Canvas, token: str, x: float, base: float, size: float) -> None:
            try:
                draw(c, token, x, base, size)
            except CardgenError:
                c.rect(x, base - size * 0.2, size, size, stroke=1, fill=0)
        return safe

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        self.result = fit([self.para], avail_w, 1e6, fonts=self.fonts, icons=self.icons,
                          size=self.size, min_size=self.size, leading=self.lead / self.size,
                          para_gap=0, lang=None)
        self.width = avail_w
        self.height = self.result.line_count * self.lead + self.size * 0.25
        return self.width, self.height

    def _placed(self):
        """(atom, x, baseline, width) of every set atom."""
        top = self.height
        paras = self.result.paras if self.result else ()
        for n, line in enumerate(paras[0].lines if paras else ()):
            base = top - n * self.lead - self.size * 0.86
            for item in line.items:
                a = item.atom
                w = (self.icons.width(a.icon, self.size) if a.icon else
                     stringWidth(a.text.replace(NBSP, " "), self.fonts[a.role], self.size))
                yield a, item.x, base, w

    def draw(self) -> None:
        if self.result is None:
            self.wrap(self.width, 0)
        c = self.canv
        placed = list(self._placed())
        c.setFillColor(MARKS[self.mark])
        for a, x, base, w in placed:
            if a.role == "mark":
                c.rect(x - 0.6, base - self.size * 0.25, w + 1.2, self.size * 1.18,
                       stroke=0, fill=1)
        draw_text(c, cast(FitResult, self.result), 0, self.height,  # set by wrap above
                  fonts=self.fonts, icons=self.icons, colour=self.colour, para_gap=0)
        c.setLineWidth(0.45)
        for a, x, base, w in placed:
            if a.role == "mark" and self.mark == "old":
                c.setStrokeColor(colors.HexColor("#a00000"))
                c.line(x, base + self.size * 0.3, x + w, base + self.size * 0.3)
            self._nbsp_marks(c, a, x, base)

    def _nbsp_marks(self, c: Canvas, a: Atom, x: float, base: float) -> None:
        """A light ⍽ under each non-breaking space of the atom."""
        if a.icon or NBSP not in a.text:
            return
        font = self.fonts[a.role]
        space = stringWidth(" ", font, self.size)
        c.setStrokeColor(NBSP_MARK)
        c.setLineWidth(0.5)
        for i, ch in enumerate(a.text):
            if ch != NBSP:
                continue
            left = x + stringWidth(a.text[:i].replace(NBSP, " "), font, self.size)
            x1, x2 = left + space * 0.12, left + space * 0.88
            low, high = base - self.size * 0.12, base + self.size * 0.16
            p = c.beginPath()
            p.moveTo(x1, high)
            p.lineTo(x1, low)
            p.lineTo(x2, low)
            p.lineTo(x2, high)
            c.drawPath(p, stroke=1, fill=0)
