"""Vector icons: value emblems, currency coins, the boost mark, shields, the crown.

Every function draws into the box (x, y, w, h) given in points with (x, y) its lower-left
corner, centred in it and scaled to fit. Marks and charges differ in shape, not only in
colour, so they stay readable in greyscale (11.0).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from reportlab.pdfgen.canvas import Canvas

from .colour import darker, hex_colour, lighter, luminance

INK = "#1d1a16"
LIGHT = "#fbf7ec"
SEAL = "#a3161a"
STEEL = "#8d949b"
PARCHMENT = "#ead9ad"
GOLD = "#c99a2e"

Pt = tuple[float, float]


#: The thinnest line a press holds: a hairline under 0.25 pt breaks up or vanishes.
MIN_LINE_PT = 0.25


class _Unit:
    """Draw in a unit square [-1, 1]² centred in a box (keeps icon code readable)."""

    def __init__(self, c: Canvas, x: float, y: float, w: float, h: float, aspect: float = 1.0):
        self.c = c
        # the unit square is stretched to `aspect` (width / height) and fitted in the box
        self.s = min(w / (2 * aspect), h / 2)
        self.ax = aspect
        self.cx, self.cy = x + w / 2, y + h / 2
        self.ink = hex_colour(INK)  # the colour a mark is drawn in (set by its caller)

    def mark(self, name: str, colour: str, scale: float = 1.0) -> None:
        """Draw heraldic mark ``name`` in ``colour`` (fill and line work alike), ``scale``
        times the unit square (its line widths know the scale they print at)."""
        self.ink = hex_colour(colour)
        with self.scaled(scale):
            self.c.setFillColor(self.ink)
            MARKS.get(name, _mark_blank)(self)

    @contextmanager
    def scaled(self, k: float) -> Iterator[None]:
        """Draw ``k`` times smaller or larger inside the unit square, line widths knowing it."""
        self.c.saveState()
        self.c.scale(k, k)
        outer, self.s = self.s, self.s * k
        try:
            yield
        finally:
            self.s = outer
            self.c.restoreState()

    def __enter__(self) -> _Unit:
        self.c.saveState()
        self.c.translate(self.cx, self.cy)
        self.c.scale(self.s, self.s)
        return self

    def __exit__(self, *exc: object) -> None:
        self.c.restoreState()

    def lw(self, points: float) -> None:
        """Set a line width given in points (undoing the unit scale)."""
        self.c.setLineWidth(max(points, MIN_LINE_PT) / self.s)

    def width(self, units: float) -> None:
        """Set a line width given in the unit square's lengths, never printed thinner than
        :data:`MIN_LINE_PT` however small the icon is drawn."""
        self.c.setLineWidth(max(units, MIN_LINE_PT / self.s))

    def poly(self, pts: Sequence[Pt], fill: bool = True, stroke: bool = False) -> None:
        p = self.c.beginPath()
        p.moveTo(*pts[0])
        for pt in pts[1:]:
            p.lineTo(*pt)
        p.close()
        self.c.drawPath(p, fill=int(fill), stroke=int(stroke))


def _mirror(right: Sequence[Pt]) -> list[Pt]:
    """A symmetric outline from its right half (top to bottom, x ≥ 0)."""
    return [*right, *[(-x, y) for x, y in reversed(right)]]


# --- heraldic and coin marks (drawn in the current fill colour, unit square) ----------

def _mark_cross(u: _Unit) -> None:
    a = 0.2
    u.c.rect(-a, -0.78, 2 * a, 1.56, fill=1, stroke=0)
    u.c.rect(-0.62, 0.12 - a, 1.24, 2 * a, fill=1, stroke=0)


def _mark_eagle(u: _Unit) -> None:
    right = [(0.0, 0.5), (0.12, 0.48), (0.2, 0.3), (0.42, 0.62), (0.72, 0.78), (0.94, 0.62),
             (0.8, 0.46), (0.94, 0.32), (0.74, 0.2), (0.84, 0.04), (0.5, 0.02), (0.26, 0.0),
             (0.22, -0.3), (0.46, -0.52), (0.3, -0.52), (0.2, -0.42), (0.28, -0.8),
             (0.1, -0.66), (0.0, -0.86)]
    u.poly(_mirror(right))
    u.c.circle(0.0, 0.62, 0.17, fill=1, stroke=0)
    u.poly([(0.12, 0.68), (0.32, 0.6), (0.12, 0.55)])  # beak


def _mark_lily(u: _Unit) -> None:
    c = u.c
    p = c.beginPath()  # central petal
    p.moveTo(0, 0.92)
    p.curveTo(0.34, 0.55, 0.3, 0.2, 0.1, -0.08)
    p.lineTo(-0.1, -0.08)
    p.curveTo(-0.3, 0.2, -0.34, 0.55, 0, 0.92)
    p.close()
    c.drawPath(p, fill=1, stroke=0)
    for sx in (1, -1):  # curled side petals
        p = c.beginPath()
        p.moveTo(sx * 0.12, -0.06)
        p.curveTo(sx * 0.2, 0.5, sx * 0.88, 0.62, sx * 0.9, 0.2)
        p.curveTo(sx * 0.9, 0.02, sx * 0.7, -0.02, sx * 0.6, 0.12)
        p.curveTo(sx * 0.7, 0.06, sx * 0.52, -0.12, sx * 0.36, -0.08)
        p.close()
        c.drawPath(p, fill=1, stroke=0)
    c.rect(-0.5, -0.24, 1.0, 0.16, fill=1, stroke=0)  # band
    u.poly([(-0.1, -0.24), (0.1, -0.24), (0.05, -0.7), (0, -0.82), (-0.05, -0.7)])
    u.poly([(-0.14, -0.24), (-0.46, -0.66), (-0.26, -0.6)])
    u.poly([(0.14, -0.24), (0.46, -0.66), (0.26, -0.6)])


def _star_points(n: int, r_out: float, r_in: float, rot: float = 90.0) -> list[Pt]:
    pts = []
    for i in range(2 * n):
        r = r_out if i % 2 == 0 else r_in
        a = math.radians(rot + i * 180.0 / n)
        pts.append((r * math.cos(a), r * math.sin(a)))
    return pts


def _mark_star(u: _Unit) -> None:
    u.poly(_star_points(5, 0.9, 0.38))


def _mark_blank(u: _Unit) -> None:
    """'Any' currency: no emblem, only a bold dashed inner ring (distinct from every mark)."""
    u.c.saveState()
    u.width(0.16)
    u.c.setDash([0.22, 0.16])
    u.c.setStrokeColor(u.ink)
    u.c.circle(0, 0, 0.62, fill=0, stroke=1)
    u.c.restoreState()


def _mark_lion(u: _Unit) -> None:
    pts = [(-0.1, 0.9), (0.15, 0.92), (0.32, 0.8), (0.3, 0.62), (0.16, 0.56), (0.2, 0.4),
           (0.46, 0.58), (0.62, 0.78), (0.66, 0.62), (0.44, 0.36), (0.34, 0.2), (0.38, -0.06),
           (0.52, -0.3), (0.5, -0.6), (0.7, -0.84), (0.42, -0.86), (0.3, -0.54),
           (0.12, -0.36), (0.0, -0.62), (0.12, -0.88), (-0.2, -0.88), (-0.16, -0.52),
           (-0.24, -0.2), (-0.46, -0.06), (-0.7, 0.14), (-0.86, 0.46), (-0.7, 0.44),
           (-0.6, 0.22), (-0.36, 0.12), (-0.26, 0.32), (-0.52, 0.52), (-0.44, 0.62),
           (-0.24, 0.52), (-0.18, 0.7)]
    u.poly(pts)
    # tail curling up on the right
    c = u.c
    c.saveState()
    c.setStrokeColor(u.ink)
    u.width(0.09)
    p = c.beginPath()
    p.moveTo(0.42, -0.5)
    p.curveTo(0.9, -0.4, 0.9, 0.0, 0.74, 0.14)
    c.drawPath(p, fill=0, stroke=1)
    c.restoreState()


def _key(u: _Unit) -> None:
    c = u.c
    c.rect(-0.06, -0.72, 0.12, 1.2, fill=1, stroke=0)  # shaft
    c.rect(0.06, -0.72, 0.24, 0.14, fill=1, stroke=0)  # bit
    c.rect(0.06, -0.5, 0.18, 0.12, fill=1, stroke=0)
    c.saveState()
    c.setStrokeColor(u.ink)
    u.width(0.14)
    c.circle(0, 0.64, 0.2, fill=0, stroke=1)  # bow
    c.restoreState()


def _mark_keys(u: _Unit) -> None:
    for angle in (35, -35):
        u.c.saveState()
        u.c.rotate(angle)
        with u.scaled(0.95):
            _key(u)
        u.c.restoreState()


def _mark_crown(u: _Unit) -> None:
    pts = [(-0.8, -0.5), (-0.85, 0.45), (-0.45, 0.05), (0.0, 0.7), (0.45, 0.05), (0.85, 0.45),
           (0.8, -0.5)]
    u.poly(pts)
    for x, y in ((-0.85, 0.52), (0.0, 0.78), (0.85, 0.52)):
        u.c.circle(x, y, 0.13, fill=1, stroke=0)
    u.c.rect(-0.8, -0.72, 1.6, 0.16, fill=1, stroke=0)


def _mark_wheel(u: _Unit) -> None:
    c = u.c
    c.saveState()
    c.setStrokeColor(u.ink)
    u.width(0.14)
    c.circle(0, 0, 0.7, fill=0, stroke=1)
    for i in range(4):
        a = math.radians(45 * i)
        c.line(-0.7 * math.cos(a), -0.7 * math.sin(a), 0.7 * math.cos(a), 0.7 * math.sin(a))
    c.restoreState()
    c.circle(0, 0, 0.18, fill=1, stroke=0)


MARKS: dict[str, Callable[[_Unit], None]] = {
    "cross": _mark_cross,
    "eagle": _mark_eagle,
    "lily": _mark_lily,
    "fleur": _mark_lily,
    "star": _mark_star,
    "blank": _mark_blank,
    "lion": _mark_lion,
    "keys": _mark_keys,
    "crown": _mark_crown,
    "wheel": _mark_wheel,
}


def _contrast(colour: str) -> str:
    return INK if luminance(colour) > 0.6 else LIGHT


# --- coins and the boost mark ---------------------------------------------------------

def draw_coin(c: Canvas, x: float, y: float, w: float, h: float, colour: str, mark: str,
              label: str | None = None, font: str | None = None) -> None:
    """A currency coin: its colour, a rim, and its greyscale-readable mark (or a label)."""
    with _Unit(c, x, y, w, h) as u:
        c.setFillColor(darker(colour, 0.45))
        c.circle(0, 0, 1.0, fill=1, stroke=0)
        c.setFillColor(hex_colour(colour))
        c.circle(0, 0, 0.86, fill=1, stroke=0)
        c.setStrokeColor(lighter(colour, 0.35))
        u.lw(0.35)
        c.circle(0, 0, 0.74, fill=0, stroke=1)
        if label is not None and font is not None:
            c.setFillColor(hex_colour(_contrast(colour)))
            size = 1.05 if len(label) < 2 else 0.8
            c.setFont(font, size)
            c.drawCentredString(0, -0.36 * size, label)
        else:
            u.mark(mark, _contrast(colour), 0.56)


def draw_boost(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    """The ⊕ paid-boost mark (5.7): a gold disc with a dark cross-ring."""
    with _Unit(c, x, y, w, h) as u:
        c.setFillColor(hex_colour(GOLD))
        c.setStrokeColor(hex_colour(INK))
        u.lw(0.6)
        c.circle(0, 0, 0.88, fill=1, stroke=1)
        u.lw(0.9)
        c.line(-0.88, 0, 0.88, 0)
        c.line(0, -0.88, 0, 0.88)


# --- shields --------------------------------------------------------------------------

def _heater_path(c: Canvas, w: float = 0.82, top: float = 0.92) -> object:
    p = c.beginPath()
    p.moveTo(-w, top)
    p.lineTo(w, top)
    p.lineTo(w, 0.05)
    p.curveTo(w, -0.5, 0.4, -0.8, 0.0, -1.0)
    p.curveTo(-0.4, -0.8, -w, -0.5, -w, 0.05)
    p.close()
    return p


def draw_heraldic_shield(c: Canvas, x: float, y: float, w: float, h: float,
                         colour: str, charge: str) -> None:
    """A shield marker (11.0): its own colour with a simple heraldic charge."""
    with _Unit(c, x, y, w, h, aspect=0.84) as u:
        c.setFillColor(hex_colour(colour))
        c.setStrokeColor(hex_colour(INK))
        u.lw(0.7)
        c.drawPath(_heater_path(c), fill=1, stroke=1)
        c.setStrokeColor(lighter(colour, 0.45))
        u.lw(0.35)
        c.saveState()
        c.scale(0.86, 0.88)
        c.drawPath(_heater_path(c), fill=0, stroke=1)
        c.restoreState()
        u.mark(charge, _contrast(colour), 0.56)


def draw_steel_shield(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    """The military value emblem (2.32): a steel heater shield with a boss and rim."""
    with _Unit(c, x, y, w, h, aspect=0.86) as u:
        c.saveState()
        p = _heater_path(c, 0.84)
        c.clipPath(p, stroke=0, fill=0)
        c.linearGradient(-0.84, 0, 0.84, 0, (lighter(STEEL, 0.55), hex_colour(STEEL),
                                             darker(STEEL, 0.3)), (0, 0.45, 1), extend=True)
        c.restoreState()
        c.setStrokeColor(darker(STEEL, 0.6))
        u.lw(0.9)
        c.drawPath(_heater_path(c, 0.84), fill=0, stroke=1)
        c.setStrokeColor(lighter(STEEL, 0.7))
        u.lw(0.4)
        c.saveState()
        c.scale(0.84, 0.86)
        c.drawPath(_heater_path(c, 0.84), fill=0, stroke=1)
        c.restoreState()


def draw_scroll(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    """The political value emblem (2.31): a parchment scroll with a red wax seal."""
    with _Unit(c, x, y, w, h, aspect=1.0) as u:
        paper = hex_colour(PARCHMENT)
        edge = darker(PARCHMENT, 0.5)
        u.lw(0.6)
        c.setStrokeColor(edge)
        # body of the sheet, slightly waisted
        c.setFillColor(paper)
        p = c.beginPath()
        p.moveTo(-0.68, 0.7)
        p.curveTo(-0.2, 0.62, 0.2, 0.78, 0.68, 0.7)
        p.lineTo(0.68, -0.7)
        p.curveTo(0.2, -0.78, -0.2, -0.62, -0.68, -0.7)
        p.close()
        c.drawPath(p, fill=1, stroke=1)
        # rolled ends top and bottom
        for yy in (0.72, -0.72):
            c.setFillColor(lighter(PARCHMENT, 0.25))
            c.roundRect(-0.86, yy - 0.14, 1.72, 0.28, 0.14, fill=1, stroke=1)
            c.setFillColor(darker(PARCHMENT, 0.2))
            c.circle(-0.78, yy, 0.08, fill=1, stroke=0)
            c.circle(0.78, yy, 0.08, fill=1, stroke=0)
        # the red seal with ribbon, lower right
        c.setFillColor(hex_colour(SEAL))
        u.poly([(0.42, -0.5), (0.56, -1.0), (0.64, -0.86), (0.74, -0.98), (0.7, -0.5)])
        c.setFillColor(darker(SEAL, 0.15))
        c.setStrokeColor(darker(SEAL, 0.45))
        u.lw(0.5)
        c.circle(0.58, -0.42, 0.27, fill=1, stroke=1)
        c.setStrokeColor(lighter(SEAL, 0.3))
        c.circle(0.58, -0.42, 0.17, fill=0, stroke=1)


def draw_crown(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    """Charles IV's Rex Romanorum reminder (11.8): a small gold crown."""
    with _Unit(c, x, y, w, h, aspect=1.3) as u:
        c.setFillColor(hex_colour(GOLD))
        c.setStrokeColor(hex_colour(INK))
        u.lw(0.6)
        c.saveState()
        c.scale(1.25, 1.0)
        pts = [(-0.8, -0.5), (-0.85, 0.45), (-0.45, 0.05), (0.0, 0.7), (0.45, 0.05),
               (0.85, 0.45), (0.8, -0.5)]
        u.poly(pts, stroke=True)
        for px, py in ((-0.85, 0.52), (0.0, 0.78), (0.85, 0.52)):
            c.circle(px, py, 0.13, fill=1, stroke=1)
        c.roundRect(-0.84, -0.78, 1.68, 0.24, 0.06, fill=1, stroke=1)
        c.setFillColor(hex_colour(SEAL))
        c.circle(0, -0.2, 0.12, fill=1, stroke=0)
        c.setFillColor(hex_colour("#2f6db5"))
        c.circle(-0.45, -0.25, 0.09, fill=1, stroke=0)
        c.circle(0.45, -0.25, 0.09, fill=1, stroke=0)
        c.restoreState()


def draw_house_arms(c: Canvas, x: float, y: float, w: float, h: float, house: str) -> None:
    """The two houses for the shared back: Luxembourg lion, Wittelsbach lozenges."""
    with _Unit(c, x, y, w, h, aspect=0.84) as u:
        path = _heater_path(c)
        c.saveState()
        c.clipPath(path, stroke=0, fill=0)
        if house == "wittelsbach":
            c.setFillColor(hex_colour("#f4f1ea"))
            c.rect(-1, -1, 2, 2, fill=1, stroke=0)
            c.setFillColor(hex_colour("#2f6db5"))
            # lozengy argent and azure: blue lozenges meet only at their points, so half
            # the field stays white and the arms read at a vote token's size
            step = 0.5
            for i in range(-3, 4):
                for j in range(-2, 3):
                    cx, cy = i * step, j * step * 1.5
                    u.poly([(cx, cy + step * 0.75), (cx + step / 2, cy), (cx, cy - step * 0.75),
                            (cx - step / 2, cy)])
        else:
            for k in range(10):  # barry argent and azure
                c.setFillColor(hex_colour("#f4f1ea" if k % 2 == 0 else "#3d6fb0"))
                c.rect(-1, -1 + k * 0.2, 2, 0.2, fill=1, stroke=0)
            c.setFillColor(hex_colour("#b3202a"))
            with u.scaled(0.72):
                _mark_lion(u)
        c.restoreState()
        c.setStrokeColor(hex_colour(INK))
        u.lw(1.0)
        c.drawPath(path, fill=0, stroke=1)
