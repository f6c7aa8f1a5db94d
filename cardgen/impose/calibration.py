"""The duplex calibration sheet: a target on the front, a matching target with scales on
the back. A pin pushed through the front target shows on the back how far this printer
moves its backs; that reading, passed as ``--back-offset X,Y``, shifts every backs page.

The back is drawn with the offset in use, so a second print checks the correction (the
hole lands on 0, 0).
"""

from __future__ import annotations

import io

from reportlab.lib.units import mm

from ..errors import CardgenError, error
from ..fonts import missing_glyphs, register_font, wrap_words
from ..render.cmyk import CmykConverter
from .canvas import PrintCanvas
from .sheets import INK, _draw_ruler, _instruction_strings
from .spec import SheetSpec

TARGET = "#c0392b"  # the target's colour, so it stands out from the scales
SCALE_MM = 5  # the back's scales run from −5 to +5 mm


def build_calibration(spec: SheetSpec, paper: str, lang: str, flip: str = "long",
                      offset: tuple[float, float] = (0.0, 0.0),
                      cmyk: CmykConverter | bool | None = None) -> bytes:
    """``calibration-<paper>.pdf``: page 1 the front (target, ruler, how to use it),
    page 2 the back (target shifted by ``offset``, scales in mm)."""
    s = _instruction_strings(spec, lang)
    geom = spec.paper(paper)
    pw, ph = geom.width, geom.height
    body, bold = register_font(spec.font), register_font(spec.bold_font)
    for font, text in ((bold, s["calib_title"]), (body, s["calib_how"]),
                       (body, s["calib_read"]), (body, s["actual_size"])):
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
    _draw_ruler(c, left, 40 * mm, body)
    c.showPage()
    # back
    c.saveState()
    c.translate(offset[0] * mm, offset[1] * mm)
    _target(c, cx, cy)
    _scales(c, cx, cy, body)
    c.restoreState()
    c.setFillColor(INK)
    for i, row in enumerate(wrap_words(s["calib_read"], body, 11, width)):
        c.setFont(body, 11)
        c.drawString(left, ph * mm - 30 * mm - i * 15, row)
    c.showPage()
    c.save()
    return buf.getvalue()


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
