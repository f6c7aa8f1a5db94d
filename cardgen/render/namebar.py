"""How a card's name is set in its bar (2.35): one line at the full size if it fits; else
condensed (down to ``min_scale``) before it is made smaller (down to ``min_size``); else on
two lines, broken between words where the lines are most even. A name is never set below
``min_size``, so a long name keeps the weight of a short one (issue 29)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import stringWidth

from ..wording.language import NBSP

#: size steps tried between the full and the minimum size (points)
_STEP = 0.1


@dataclass(frozen=True)
class NameSetting:
    lines: tuple[str, ...]
    size: float  # points
    scale: float  # horizontal scale, 1.0 = not condensed


def _sizes(size: float, min_size: float) -> list[float]:
    steps = max(0, round((size - min_size) / _STEP))
    return [round(size - i * _STEP, 2) for i in range(steps + 1)] or [min_size]


def _fit(lines: tuple[str, ...], font: str, sizes: list[float], min_scale: float,
         area: float) -> NameSetting | None:
    """The largest size where every line fits ``area``, condensed as little as needed:
    condensing comes first, then a smaller size."""
    for size in sizes:
        widest = max(stringWidth(line, font, size) for line in lines)
        scale = min(1.0, area / widest) if widest else 1.0
        if scale >= min_scale - 1e-9:
            return NameSetting(lines, size, scale)
    return None


_LINK = re.compile(f"{NBSP}(?=[a-zá-ž]+{NBSP})")  # "Frankfurt·|nad·Mohanem"


def breaks(name: str) -> list[tuple[str, str]]:
    """Every way to cut ``name`` into two lines: at a plain space, or before the linking
    word of a bound place name ("Frankfurt / nad Mohanem": a title breaks between its
    phrases; running text keeps the whole name on one line, DECISIONS: card names)."""
    cuts = [m.start() for m in re.finditer(" ", name)] + [m.start() for m in _LINK.finditer(name)]
    return [(name[:i], name[i + 1:]) for i in sorted(cuts)]


def set_name(name: str, font: str, size: float, min_size: float, min_scale: float,
             area: float, max_lines: int = 2) -> NameSetting | None:
    """The setting of ``name`` in a bar ``area`` points wide; None when it does not fit even
    on ``max_lines`` lines at ``min_size`` condensed to ``min_scale``."""
    sizes = _sizes(size, min_size)
    one = _fit((name,), font, sizes, min_scale, area)
    if one is not None or max_lines < 2:
        return one
    best: NameSetting | None = None
    for first, second in breaks(name):
        setting = _fit((first, second), font, sizes, min_scale, area)
        if setting is None:
            continue
        balance = abs(stringWidth(first, font, 10) - stringWidth(second, font, 10))
        key = (setting.size, setting.scale, -balance)
        if best is None or key > (best.size, best.scale, -_balance(best, font)):
            best = setting
    return best


def _balance(setting: NameSetting, font: str) -> float:
    first, second = setting.lines
    return abs(stringWidth(first, font, 10) - stringWidth(second, font, 10))


def printable(line: str) -> str:
    """A line as drawn: the no-break space is a plain space glyph."""
    return line.replace(NBSP, " ")
