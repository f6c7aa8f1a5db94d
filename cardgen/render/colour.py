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


def darker(value: str, t: float = 0.35) -> Color:
    return mix(value, "#000000", t)


def lighter(value: str, t: float = 0.35) -> Color:
    return mix(value, "#ffffff", t)


def luminance(value: str) -> float:
    c = HexColor(value)
    return 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue
