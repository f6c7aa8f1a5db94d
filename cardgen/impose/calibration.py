"""The duplex calibration sheet: a target on the front, a matching target with scales on
the back. A pin pushed through the front target shows on the back how far this printer
moves its backs; that reading, passed as ``--back-offset "X;Y"``, shifts every backs page.

The back is drawn with the offset in use, so a second print checks the correction (the
hole lands on X = 0, Y = 0).

X and Y are separated by a semicolon so that either decimal sign reads unambiguously: a
Czech user writes ``"1,5;-0,5"``, an English one ``"1.5;-0.5"`` (DECISIONS: back offset).
"""

from __future__ import annotations

import argparse
import io
import math

from babel.numbers import get_decimal_symbol
from reportlab.lib.units import mm

from ..errors import CardgenError, error
from ..fonts import missing_glyphs, register_font, wrap_words
from ..render.cmyk import CmykConverter
from ..wording.language import fix_text
from ..wording.sandbox import fill_in
from .canvas import PrintCanvas
from .sheets import INK, _draw_ruler, _instruction_strings
from .spec import SheetSpec

TARGET = "#c0392b"  # the target's colour, so it stands out from the scales
SCALE_MM = 5  # the back's scales run from −5 to +5 mm
OFFSET_LIMIT_MM = 10  # a larger reading is a misread sheet, not a printer's drift
COMMAND = "cardgen build --back-offset"


class BackOffsetError(argparse.ArgumentTypeError, ValueError):
    """A ``--back-offset`` value that is malformed, ambiguous or out of range; argparse
    prints the message as the option's error."""


def parse_back_offset(text: str) -> tuple[float, float]:
    """``--back-offset``: X and Y in mm, as ``"X;Y"`` with a decimal point or comma in each
    number (``"1,5;-0,5"``, ``"1.5;-0.5"``) or the older ``X,Y`` with decimal points
    (``1.5,-0.5``). One comma between plain digits (``1,5``) is refused as ambiguous: a
    Czech reader means 1.5 mm, the older form read X = 1, Y = 5."""
    raw = text.strip().replace("\u2212", "-").replace(" ", "")
    example = '"1.5;-0.5" or "1,5;-0,5"'
    if ";" in raw:
        parts = [p.replace(",", ".") for p in raw.split(";")]
    else:
        parts = raw.split(",")
        if len(parts) == 2 and "." not in raw and parts[1][:1] not in "+-":
            raise BackOffsetError(
                f"{text!r} is ambiguous: X = {parts[0]}.{parts[1]} mm, or X = {parts[0]} mm "
                f"and Y = {parts[1]} mm? Separate X and Y with a semicolon, in quotes: "
                f'"{parts[0]},{parts[1]};0" or "{parts[0]};{parts[1]}"')
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = (float(v) for v in parts)
    except ValueError:
        raise BackOffsetError(f"expected X and Y in mm separated by a semicolon, like "
                              f"{example} (in quotes), not {text!r}") from None
    if not all(math.isfinite(v) for v in (x, y)):
        raise BackOffsetError(f"expected two finite numbers in mm like {example}, "
                              f"not {text!r}")
    if max(abs(x), abs(y)) > OFFSET_LIMIT_MM:
        raise BackOffsetError(f"{text!r}: an offset beyond {OFFSET_LIMIT_MM} mm is a "
                              "misread; print the calibration sheet again")
    return x, y


def _number(value: float, lang: str, minus: str = "-") -> str:
    """``value`` with the language's decimal sign (cs: 1,5) and ``minus`` for a negative."""
    text = f"{abs(value):g}".replace(".", get_decimal_symbol(lang))
    return f"{minus}{text}" if value < 0 else text


def offset_argument(x: float, y: float, lang: str) -> str:
    """The ``--back-offset`` value as a user of ``lang`` types it: ``"1,5;-0,5"`` (cs)."""
    return f'"{_number(x, lang)};{_number(y, lang)}"'


def build_calibration(spec: SheetSpec, paper: str, lang: str, flip: str = "long",
                      offset: tuple[float, float] = (0.0, 0.0),
                      cmyk: CmykConverter | bool | None = None) -> bytes:
    """``calibration-<paper>.pdf``: page 1 the front (target, ruler, how to use it),
    page 2 the back (target shifted by ``offset``, scales in mm)."""
    s = _instruction_strings(spec, lang)
    geom = spec.paper(paper)
    pw, ph = geom.width, geom.height
    body, bold = register_font(spec.font), register_font(spec.bold_font)
    mono = register_font(spec.mono_font)
    ex, ey = spec.calibration_example
    example = fix_text(fill_in(s["calib_example"], x=_number(ex, lang, "\u2212"),
                               y=_number(ey, lang, "\u2212")), lang)
    commands = (f'{COMMAND} "X;Y"', f"{COMMAND} {offset_argument(ex, ey, lang)}")
    for font, text in ((bold, s["calib_title"]), (body, s["calib_how"]),
                       (body, s["calib_read"]), (body, s["actual_size"]), (body, example),
                       *((mono, command) for command in commands)):
        lost = missing_glyphs(font, text)
        if lost:
            raise CardgenError(error("missing-glyph", f"the sheet font lacks {sorted(lost)} "
                                     f"for: {text}", location=spec.loc))
    buf = io.BytesIO()
    c = PrintCanvas(buf, (pw, ph), cmyk=cmyk, title=s["calib_title"], font=body)
    c.set_print_preferences("DuplexFlipLongEdge" if flip == "long" else "DuplexFlipShortEdge")
    cx, cy = pw / 2 * mm, ph / 2 * mm
    # front
    left, width = 20 * mm, (pw - 40) * mm
    y = ph * mm - 30 * mm
    c.setFillColor(INK)
    c.setFont(bold, 16)
    c.drawString(left, y, s["calib_title"])
    y -= 12 * mm
    for text in (s["actual_size"], s["calib_how"]):
        for row in wrap_words(text, body, 11, width):
            c.setFont(body, 11)
            c.drawString(left, y, row)
            y -= 15
        y -= 8
    _target(c, cx, cy)
    _commands(c, left, cy - 18 * mm, width, (body, mono), example, commands)
    _draw_ruler(c, left, 40 * mm, body)
    c.showPage()
    # back
    c.saveState()
    c.translate(offset[0] * mm, offset[1] * mm)
    _target(c, cx, cy)
    _scales(c, cx, cy, body)
    c.restoreState()
    c.setFillColor(INK)
    y = ph * mm - 30 * mm
    for row in wrap_words(s["calib_read"], body, 11, width):
        c.setFont(body, 11)
        c.drawString(left, y, row)
        y -= 15
    _commands(c, left, y - 4, width, (body, mono), example, commands)
    c.showPage()
    c.save()
    return buf.getvalue()


def _commands(c: PrintCanvas, left: float, y: float, width: float, fonts: tuple[str, str],
              example: str, commands: tuple[str, str]) -> float:
    """The command to type, then the example sentence and the example command; each
    command in monospace on a line of its own, never broken. Returns the next baseline."""
    body, mono = fonts
    c.saveState()
    c.setFillColor(INK)
    indent = 6 * mm
    c.setFont(mono, 10.5)
    c.drawString(left + indent, y, commands[0])
    y -= 22
    for row in wrap_words(example, body, 11, width):
        c.setFont(body, 11)
        c.drawString(left, y, row)
        y -= 15
    c.setFont(mono, 10.5)
    c.drawString(left + indent, y - 3, commands[1])
    c.restoreState()
    return y - 18


def _target(c: PrintCanvas, cx: float, cy: float) -> None:
    """Rings of 2 and 4 mm radius and a cross through the centre (points)."""
    c.saveState()
    c.setStrokeColor(TARGET)
    c.setLineWidth(0.3)
    for r in (2, 4):
        c.circle(cx, cy, r * mm, stroke=1, fill=0)
    c.line(cx - 8 * mm, cy, cx + 8 * mm, cy)
    c.line(cx, cy - 8 * mm, cx, cy + 8 * mm)
    c.restoreState()


def _scales(c: PrintCanvas, cx: float, cy: float, font: str) -> None:
    """X and Y scales beside the target: a tick every 0.5 mm, a number every 2 mm."""
    c.saveState()
    c.setStrokeColor(INK)
    c.setFillColor(INK)
    c.setLineWidth(0.2)
    half = SCALE_MM * mm
    c.line(cx - half, cy - 12 * mm, cx + half, cy - 12 * mm)  # X scale below the target
    c.line(cx + 12 * mm, cy - half, cx + 12 * mm, cy + half)  # Y scale right of it
    c.setFont(font, 5)
    for i in range(-2 * SCALE_MM, 2 * SCALE_MM + 1):
        d = i / 2 * mm
        tick = 2 * mm if i % 2 == 0 else 1 * mm
        c.line(cx + d, cy - 12 * mm, cx + d, cy - 12 * mm + tick)
        c.line(cx + 12 * mm, cy + d, cx + 12 * mm - tick, cy + d)
        if i % 4 == 0:
            label = f"{i // 2:+d}".replace("-", "\u2212") if i else "0"
            stagger = 2 * mm if i % 8 else 0  # ±2 a row lower than 0 and ±4, to fit
            c.drawCentredString(cx + d, cy - 14.5 * mm - stagger, label)
            c.drawString(cx + 12.8 * mm, cy + d - 1.6, label)
    c.drawCentredString(cx, cy - 20 * mm, "X (mm) →")
    c.drawString(cx + 13 * mm, cy + half + 3 * mm, "Y (mm) ↑")
    # a light grid under the target helps read both at once
    c.setLineWidth(0.1)
    c.setStrokeColor("#9a9a9a")
    for i in range(-SCALE_MM, SCALE_MM + 1):
        c.line(cx + i * mm, cy - half, cx + i * mm, cy + half)
        c.line(cx - half, cy + i * mm, cx + half, cy + i * mm)
    c.restoreState()
