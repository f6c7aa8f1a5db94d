"""The tables as an A4 PDF in the glossary sheet's typography, with the board's glyphs
(shields, mitre and crown, card and play bonuses) drawn as on the board."""

from __future__ import annotations

from dataclasses import replace
from io import BytesIO
from xml.sax.saxutils import escape

from reportlab.lib.colors import white
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table

from ..board import glyphs
from ..board.base import Ctx
from ..render.cmyk import CmykConverter, canvas_maker
from .glossary import FIRST_ROWS, keep_with_first_rows, ruled_table, styles
from .table import Cell, Document, Icon, Row
from .table import Table as RulesTable

ICON_MM = 4.6  # glyph width beside a cell's text


class Glyph(Flowable):
    """One board glyph, ``ICON_MM`` wide, drawn with the board's own drawing code."""

    def __init__(self, icon: Icon, ctx: Ctx):
        super().__init__()
        self.icon, self.ctx = icon, ctx
        self.width, self.height = ICON_MM * mm, ICON_MM * 1.2 * mm

    def draw(self) -> None:
        c, kind, s = self.canv, self.icon.kind, ICON_MM
        cx, cy = s / 2, s * 0.6
        ink = self.ctx.layout.colour("ink")
        if kind == "shield":
            shield = self.ctx.data.shields[self.icon.key]
            glyphs.shield(c, cx, cy, s, shield.colour, shield.charge)
        elif kind == "mitre":
            glyphs.mitre(c, cx, cy, s * 1.1, self.ctx.layout.colour("ecclesiastical"), white)
        elif kind == "crown":
            glyphs.crown(c, cx, cy, s * 1.1, self.ctx.layout.colour("secular"))
        elif kind == "card":
            glyphs.card_icon(c, cx, cy, s, ink)
        elif kind == "play":
            glyphs.play_icon(c, cx, cy, s, ink)


def _text(cell: Cell, mark: str) -> str:
    return escape(cell.text) + (escape(mark) if cell.prototype else "")


def _cell(cell: Cell, style: ParagraphStyle, mark: str, ctx: Ctx, width: float):
    para = Paragraph(_text(cell, mark), style)
    if cell.icon is None:
        return para
    gap = ICON_MM * mm + 2 * mm
    padding = 12  # the outer cell's left and right padding, points
    inner = Table([[Glyph(cell.icon, ctx), para]],
                  colWidths=[gap, max(width - gap - padding, 10 * mm)])
    inner.setStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("FONTNAME", (0, 0), (-1, -1), style.fontName),
                    *[(k, (0, 0), (-1, -1), 0) for k in ("LEFTPADDING", "RIGHTPADDING",
                                                          "TOPPADDING", "BOTTOMPADDING")]])
    return inner


def _table(t: RulesTable, st: dict[str, ParagraphStyle], mark: str, ctx: Ctx, width: float):
    widths = [width * x / sum(t.widths) for x in t.widths]
    right = {k: ParagraphStyle(f"{k}-r", parent=v, alignment=TA_RIGHT) for k, v in st.items()}
    cells: list[list] = [[Paragraph(escape(h), st["italic"]) for h in t.head]]
    extra: list[tuple] = []
    for i, row in enumerate(t.rows, start=1):
        cells.append(_row(row, st, right, mark, ctx, widths))
        if row.kind == "group":
            extra += [("SPAN", (0, i), (-1, i)), ("TOPPADDING", (0, i), (-1, i), 5)]
        elif row.kind == "total":
            extra.append(("LINEABOVE", (0, i), (-1, i), 0.6, ctx.layout.colour("ink")))
    return ruled_table(cells, widths, st, extra)


def _row(row: Row, st, right, mark: str, ctx: Ctx, widths: list[float]) -> list:
    plain = st["bold"] if row.kind in ("group", "total") else st["body"]
    bold_right = right["bold"] if row.kind == "total" else right["body"]
    return [_cell(c, bold_right if c.numeric else plain, mark, ctx, w)
            for c, w in zip(row.cells, widths, strict=True)]


def build_pdf(doc: Document, ctx: Ctx, cmyk: CmykConverter | None = None) -> bytes:
    """The tables of ``doc`` as PDF bytes (deterministic: same document, same bytes); in
    CMYK through ``cmyk`` when given, like every other file of a CMYK build."""
    fonts = ctx.layout.fonts
    st = styles(fonts) | {"bold": ParagraphStyle("bold", fontName=fonts["bold"], fontSize=9,
                                                 leading=11.5)}
    buf = BytesIO()
    pdf = SimpleDocTemplate(buf, pagesize=A4, leftMargin=18 * mm, rightMargin=18 * mm,
                            topMargin=15 * mm, bottomMargin=15 * mm, invariant=1,
                            initialFontName=fonts["body"], initialFontSize=9,
                            title=doc.title, author="cardgen", creator="cardgen",
                            subject="", keywords="", lang=doc.lang)
    width = A4[0] - 36 * mm
    story: list = [Paragraph(escape(doc.title), st["title"]),
                   Paragraph(escape(doc.subtitle), st["italic"]),
                   Paragraph(escape(doc.note), st["italic"])]
    for t in doc.tables:
        first = replace(t, rows=t.rows[:FIRST_ROWS])
        story += [Spacer(1, 3 * mm), *keep_with_first_rows(
            Paragraph(escape(t.heading), st["h"]), _table(t, st, doc.mark, ctx, width),
            _table(first, st, doc.mark, ctx, width), width)]
    pdf.build(story, canvasmaker=canvas_maker(cmyk))
    return buf.getvalue()
