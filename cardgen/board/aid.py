"""Player aid: a half-page per side with the sequence of play (4.0), the round-end steps
(9.0), currency exchange (6.12) and John's loyalty track (10.3), in the project's own
words from ``card_data/components.yaml``."""

from __future__ import annotations

from reportlab.lib.colors import HexColor, white
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..data.project import Project
from ..errors import CardgenError, error
from ..render.cmyk import CmykConverter
from ..wording.sandbox import fill_in
from .base import PAPERS, Ctx, make_ctx, new_canvas, saved, text, wrap

SIDES = ("luxembourg", "wittelsbach")
PT = 0.3528  # mm per point


def _section(c: Canvas, ctx: Ctx, x: float, y: float, w: float, title: str,
             items: list[str], numbered: bool) -> float:
    """Draw a heading and its items from top y (mm, PDF coords); return the next y."""
    a = ctx.layout.data["aid"]
    body, lead = a["body_size"], a["leading"] * PT
    with saved(c):
        c.setFillColor(HexColor(ctx.layout.data["colours"]["ink"]))
        y -= a["heading_size"] * PT
        text(c, x, y, title, ctx.font("bold"), a["heading_size"])
        y -= 1.8
        for i, item in enumerate(items):
            mark = f"{i + 1}." if numbered else "•"
            lines = wrap(item, ctx.font("body"), body, w - 5)
            y -= lead
            text(c, x, y, mark, ctx.font("bold"), body)
            for j, line in enumerate(lines):
                if j:
                    y -= lead
                text(c, x + 5, y, line, ctx.font("body"), body)
            y -= 0.6
    return y - 2.5


def _loyalty_strip(c: Canvas, ctx: Ctx, x: float, y: float, w: float) -> float:
    ludwig, charles = ctx.comp.label("loyalty_ludwig", ctx.lang), ctx.comp.label("loyalty_charles", ctx.lang)
    spaces = [(f"{ludwig} 2", "wittelsbach"), (f"{ludwig} 1", "wittelsbach"),
              (ctx.comp.label("loyalty_neutral", ctx.lang), None),
              (f"{charles} 1", "luxembourg"), (f"{charles} 2", "luxembourg")]
    cell = w / len(spaces)
    cols = ctx.layout.data["colours"]
    y -= 8
    for i, (label, side) in enumerate(spaces):
        colour = HexColor(cols[side] if side else cols["muted"])
        with saved(c):
            c.setStrokeColor(colour)
            c.setFillColor(white)
            c.setLineWidth(0.5 * mm)
            c.roundRect((x + i * cell + 0.6) * mm, y * mm, (cell - 1.2) * mm, 7 * mm, 1 * mm,
                        1, 1)
            c.setFillColor(colour)
            text(c, x + i * cell + cell / 2, y + 2.4, label, ctx.font("bold"), 7.5, "centre",
                 width=cell - 2)
    return y - 3


def draw_aid(c: Canvas, ctx: Ctx, side: str, x0: float, y0: float, w: float, h: float) -> None:
    """One side's aid in the box (x0, y0, w, h), mm, lower-left origin."""
    a, cols, aid = ctx.layout.data["aid"], ctx.layout.data["colours"], ctx.comp.aid
    lang, m = ctx.lang, a["margin"]
    colour = HexColor(cols[side])
    with saved(c):
        c.setFillColor(HexColor(cols["paper"]))
        c.rect(x0 * mm, y0 * mm, w * mm, h * mm, 0, 1)
        c.setFillColor(colour)
        c.rect(x0 * mm, (y0 + h - m - 11) * mm, w * mm, (m + 11) * mm, 0, 1)
        c.setFillColor(white)
        title = f"{aid['title'][lang]} · {ctx.side_name(side)}"
        text(c, x0 + m, y0 + h - m - 6, title, ctx.font("bold"), a["title_size"])
        text(c, x0 + w - m, y0 + h - m - 6, ctx.label("title"), ctx.font("display_italic"), 11,
             "right", width=w / 2 - m)
        c.setFillColor(HexColor(cols["muted"]))
        text(c, x0 + m, y0 + h - m - 16, aid["side_note"][side][lang], ctx.font("italic"), 8.5)
    gap = a["column_gap"]
    cw = (w - 2 * m - gap) / 2
    top = y0 + h - m - 19
    left, right = x0 + m, x0 + m + cw + gap
    y = _section(c, ctx, left, top, cw, aid["sequence_title"][lang],
                 [s[lang] for s in aid["sequence"]], True)
    y = _section(c, ctx, left, y, cw, aid["exchange_title"][lang], [aid["exchange"][lang]],
                 False)
    y = _section(c, ctx, left, y, cw, aid["loyalty_title"][lang],
                 [s[lang] for s in aid["loyalty"]], False)
    _loyalty_strip(c, ctx, left, y + 2, cw)
    _section(c, ctx, right, top, cw, aid["round_end_title"][lang],
             [s[lang] for s in aid["round_end"]], True)
    # plays – hand per phase, from data
    phases = sorted(ctx.data.phases, key=lambda p: min(p.rounds))
    rows = [fill_in(ctx.label("aid_rounds_row"), first=min(p.rounds), last=max(p.rounds),
                    plays=fill_in(ctx.label("round_plays"), n=p.plays),
                    hand=fill_in(ctx.label("round_hand"), n=p.hand)) for p in phases]
    with saved(c):  # each number says what it is: no "4–5" that reads as a range (2.25)
        c.setFillColor(HexColor(cols["ink"]))
        text(c, right, y0 + m + 4 * len(rows), ctx.label("aid_rounds"), ctx.font("bold"), 8.5)
        for i, row in enumerate(reversed(rows)):
            text(c, right, y0 + m + 4 * i, row, ctx.font("body"), 8.5, width=cw)


def build_player_aid(project: Project, lang: str, paper: str = "a4",
                     cmyk: CmykConverter | None = None) -> bytes:
    """One page: the Luxembourg aid on the top half, the Wittelsbach aid on the bottom half,
    with a cut line between them."""
    if paper not in PAPERS:
        raise CardgenError(error("bad-paper", f"unknown paper '{paper}'",
                                 hint=f"use one of: {', '.join(PAPERS)}"))
    ctx = make_ctx(project, lang, "aid")
    pw, ph = PAPERS[paper]
    buf, c = new_canvas((pw, ph), ctx.comp.aid["title"][lang], ctx.font("body"), cmyk)
    c.setFont(ctx.font("body"), 9)
    half, pm = ph / 2, ctx.layout.data["aid"]["printer_margin"]
    # everything, backgrounds too, stays inside what a home printer prints
    draw_aid(c, ctx, "luxembourg", pm, half, pw - 2 * pm, half - pm)
    draw_aid(c, ctx, "wittelsbach", pm, pm, pw - 2 * pm, half - pm)
    with saved(c):
        c.setDash([2 * mm, 1.5 * mm])
        c.setLineWidth(0.25 * mm)
        c.line(pm * mm, half * mm, (pw - pm) * mm, half * mm)
    c.showPage()
    c.save()
    return buf.getvalue()
