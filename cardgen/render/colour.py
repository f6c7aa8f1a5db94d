"""Small colour helpers shared by the drawing modules."""

from __future__ import annotations

from reportlab.lib.colors import Color, HexColor


def hex_colour(value: str, alpha: float = 1.0) -> Color:
    c = HexColor(value)
    return Color(c.red, c.green, c.blue, alpha)


def mix(value: str, other: str, t: float) -> Color:
    """``value`` moved a fraction ``t`` towards ``other``."""
    a, b = HexColor(value), HexColor(other)
    return Color(a.red + (b.red - a.red) * t, a.green + (b.green - a.green) * t,
                 a.blue + (b.blue - a.blue) * t)


def blend(top: Color | str, alpha: float, under: Color | str) -> Color:
    """``top`` laid at ``alpha`` over ``under``, as one opaque colour: see-through panels are
    pre-mixed like this, so no print file carries transparency."""
    a = HexColor(top) if isinstance(top, str) else top
    b = HexColor(under) if isinstance(under, str) else under
    return Color(*(bv + (av - bv) * alpha for av, bv in
                   ((a.red, b.red), (a.green, b.green), (a.blue, b.blue))))


def darker(value: str, t: float = 0.35) -> Color:
    return mix(value, "#000000", t)


def lighter(value: str, t: float = 0.35) -> Color:
    return mix(value, "#ffffff", t)


def luminance(value: str) -> float:
    c = HexColor(value)
    return 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue
