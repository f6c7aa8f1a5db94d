"""Small vector glyphs for the board and tokens.

Shields and coins are the shared icons of :mod:`cardgen.render.icons`, wrapped here for
millimetre centres; only board-only glyphs (mitre, electoral crown, crossed swords, card,
play arrow, empty shield slot) are drawn in this module.
All sizes and positions are millimetres in PDF coordinates (y up).
"""

from __future__ import annotations

from reportlab.lib.colors import Color, white
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..render import icons
from .base import saved


def _path(c: Canvas, pts: list[tuple[float, float]], close: bool = True):
    p = c.beginPath()
    p.moveTo(pts[0][0] * mm, pts[0][1] * mm)
    for x, y in pts[1:]:
        p.lineTo(x * mm, y * mm)
    if close:
        p.close()
    return p


def shield(c: Canvas, cx: float, cy: float, w: float, colour: str, charge_kind: str) -> None:
    """A shield marker ``w`` mm wide centred on (cx, cy): the shared heraldic shield icon."""
    h = w * 1.2
    icons.draw_heraldic_shield(c, (cx - w / 2) * mm, (cy - h / 2) * mm, w * mm, h * mm,
                               colour, charge_kind)


def shield_outline(c: Canvas, cx: float, cy: float, w: float):
    """An empty heater-shield outline (a slot for a shield marker), ``w`` mm wide."""
    h = 1.15 * w
    top, left, right = cy + h / 2, cx - w / 2, cx + w / 2
    p = c.beginPath()
    p.moveTo(left * mm, top * mm)
    p.lineTo(right * mm, top * mm)
    p.lineTo(right * mm, (top - 0.45 * h) * mm)
    p.curveTo(right * mm, (cy - 0.25 * h) * mm, (cx + 0.2 * w) * mm, (cy - 0.42 * h) * mm,
              cx * mm, (cy - h / 2) * mm)
    p.curveTo((cx - 0.2 * w) * mm, (cy - 0.42 * h) * mm, left * mm, (cy - 0.25 * h) * mm,
              left * mm, (top - 0.45 * h) * mm)
    p.close()
    return p


def coin(c: Canvas, cx: float, cy: float, d: float, colour: str, mark: str,
         label: str | None = None, font: str | None = None) -> None:
    """A currency coin ``d`` mm across centred on (cx, cy): the shared coin icon."""
    icons.draw_coin(c, (cx - d / 2) * mm, (cy - d / 2) * mm, d * mm, d * mm, colour, mark,
                    label, font)


def crown_shape(c: Canvas, cx: float, cy: float, s: float, fill: Color) -> None:
    u = s / 10
    with saved(c):
        c.setFillColor(fill)
        pts = [(-5, -3), (5, -3), (5, 3), (2.5, 0.5), (0, 4), (-2.5, 0.5), (-5, 3)]
        c.drawPath(_path(c, [(cx + x * u, cy + y * u) for x, y in pts]), 0, 1)
        c.rect((cx - 5 * u) * mm, (cy - 4.6 * u) * mm, 10 * u * mm, 1.2 * u * mm, 0, 1)


def mitre(c: Canvas, cx: float, cy: float, s: float, fill: Color,
          detail: Color | None = None) -> None:
    """Ecclesiastical elector: a bishop's mitre ``s`` mm tall."""
    u = s / 10
    with saved(c):
        c.setFillColor(fill)
        pts = [(-3.5, -5), (3.5, -5), (3.8, 1), (0, 5), (-3.8, 1)]
        c.drawPath(_path(c, [(cx + x * u, cy + y * u) for x, y in pts]), 0, 1)
        c.setFillColor(detail or white)
        c.rect((cx - 0.5 * u) * mm, (cy - 4.5 * u) * mm, 1 * u * mm, 7 * u * mm, 0, 1)
        c.rect((cx - 2.5 * u) * mm, (cy - 0.5 * u) * mm, 5 * u * mm, 1 * u * mm, 0, 1)


def crown(c: Canvas, cx: float, cy: float, s: float, fill: Color) -> None:
    """Secular elector: an electoral crown ``s`` mm tall."""
    crown_shape(c, cx, cy, s, fill)


def swords(c: Canvas, cx: float, cy: float, s: float, colour: Color) -> None:
    u = s / 10
    with saved(c):
        c.setStrokeColor(colour)
        c.setLineCap(1)
        for sgn in (-1, 1):
            c.setLineWidth(0.9 * u * mm)
            c.line((cx - sgn * 4 * u) * mm, (cy - 4 * u) * mm, (cx + sgn * 4 * u) * mm,
                   (cy + 4.5 * u) * mm)
            c.setLineWidth(0.7 * u * mm)
            x, y = cx - sgn * 2.6 * u, cy - 2.5 * u
            c.line((x - 1.4 * u) * mm, (y + 1.4 * sgn * u * -1) * mm,
                   (x + 1.4 * u) * mm, (y - 1.4 * sgn * u * -1) * mm)


def card_icon(c: Canvas, cx: float, cy: float, s: float, colour: Color) -> None:
    with saved(c):
        c.setStrokeColor(colour)
        c.setFillColor(white)
        c.setLineWidth(0.35 * mm)
        c.roundRect((cx - 0.35 * s) * mm, (cy - 0.5 * s) * mm, 0.7 * s * mm, s * mm,
                    0.08 * s * mm, 1, 1)


def play_icon(c: Canvas, cx: float, cy: float, s: float, colour: Color) -> None:
    """A card being played: a card with an arrow."""
    card_icon(c, cx - 0.15 * s, cy, s, colour)
    with saved(c):
        c.setFillColor(colour)
        pts = [(cx + 0.1 * s, cy - 0.18 * s), (cx + 0.45 * s, cy), (cx + 0.1 * s, cy + 0.18 * s)]
        c.drawPath(_path(c, pts), 0, 1)
