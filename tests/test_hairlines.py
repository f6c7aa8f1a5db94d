"""No hairline under 0.25 pt (issue 41, item 4): a press loses thinner lines. The icons are
drawn in a unit square scaled to their box (and their charges scaled again inside it), so
each line's printed width is measured through every scale the canvas applies."""

from __future__ import annotations

import io

import pytest
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from cardgen.data.layout import MIN_BODY_PT
from cardgen.render import icons


class Measuring(Canvas):
    """A canvas that follows its uniform part of the scale and records each stroke's
    printed width (the smaller axis of a non-uniform scale)."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO())
        self.scales = [1.0]
        self.widths: list[float] = []

    def saveState(self) -> None:
        self.scales.append(self.scales[-1])
        super().saveState()

    def restoreState(self) -> None:
        self.scales.pop()
        super().restoreState()

    def scale(self, x: float, y: float) -> None:
        self.scales[-1] *= min(abs(x), abs(y))
        super().scale(x, y)

    def setLineWidth(self, width: float) -> None:
        self._printed = width
        super().setLineWidth(width)

    def _record(self) -> None:
        self.widths.append(getattr(self, "_printed", 1.0) * self.scales[-1])

    def drawPath(self, path, stroke=1, fill=0, *args, **kwargs):
        if stroke:
            self._record()
        return super().drawPath(path, stroke, fill, *args, **kwargs)

    def circle(self, x, y, r, stroke=1, fill=0):
        if stroke:
            self._record()
        return super().circle(x, y, r, stroke, fill)

    def line(self, *args):
        self._record()
        return super().line(*args)


#: The smallest each icon is drawn: inline in card text at the smallest body size (a coin
#: 1.02 and a shield 1.05 × 1.15 times the type size, render/card.py), the value emblems
#: (12 mm), the house arms on the placeholder art.
SMALLEST = MIN_BODY_PT


@pytest.mark.parametrize("mark", sorted(icons.MARKS))
def test_every_mark_on_a_coin_and_a_shield_prints_lines_of_at_least_a_quarter_point(mark):
    c = Measuring()
    icons.draw_coin(c, 0, 0, SMALLEST * 1.02, SMALLEST * 1.02, "#c0392b", mark)
    icons.draw_heraldic_shield(c, 0, 0, SMALLEST * 1.05, SMALLEST * 1.15, "#c0392b", mark)
    assert c.widths and min(c.widths) >= icons.MIN_LINE_PT - 1e-9, (mark, min(c.widths))


def test_the_emblems_and_arms_print_no_hairline():
    c = Measuring()
    icons.draw_boost(c, 0, 0, SMALLEST * 1.02, SMALLEST * 1.02)
    icons.draw_crown(c, 0, 0, SMALLEST * 1.3, SMALLEST * 1.02)
    icons.draw_steel_shield(c, 0, 0, 12 * mm, 12.4 * mm)
    icons.draw_scroll(c, 0, 0, 12 * mm, 12.4 * mm)
    icons.draw_crown(c, 0, 0, 9.4 * mm, 7 * mm)
    for house in ("luxembourg", "wittelsbach"):
        icons.draw_house_arms(c, 0, 0, 17 * mm, 20 * mm, house)
    assert c.widths and min(c.widths) >= icons.MIN_LINE_PT - 1e-9, min(c.widths)
