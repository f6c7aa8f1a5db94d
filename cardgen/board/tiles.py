"""The board tiled for home printing on A4 or Letter.

:func:`plan_tiles` is pure tiling math (tested on its own); :func:`build_board_tiles`
draws the board once as a form XObject and places it, clipped, on each tile page, after
a first page that shows how the sheets go together. Board rectangles here are in mm with
y down from the board's top edge, like the layouts.
"""

from __future__ import annotations

import math
import string
from dataclasses import dataclass

from reportlab.lib.colors import HexColor, white
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..data.project import Project
from ..errors import CardgenError, error
from ..render.cmyk import CmykConverter
from ..wording.sandbox import fill_in
from .base import PAPERS, make_ctx, new_canvas, saved, text, wrap
from .board import draw_board, sheet

#: Non-printable border most home printers need, and the least overlap between sheets.
MARGIN_MM = 10.0
MIN_OVERLAP_MM = 10.0
FORM = "cardgen-board"
#: The tile label's baseline: its descenders stay ≥ 5 mm from the paper edge.
TILE_LABEL_BASELINE_MM = 6.5
#: Alignment mark: ring radius and how far its cross arms reach past the ring (mm).
MARK_R, MARK_ARM = 1.8, 1.2


@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    x: float  # board mm, from the left edge
    y: float  # board mm, down from the top edge
    w: float
    h: float

    @property
    def label(self) -> str:
        return f"{string.ascii_uppercase[self.row]}{self.col + 1}"


@dataclass(frozen=True)
class TilePlan:
    paper: tuple[float, float]  # page size in mm, in the chosen orientation
    margin: float
    board: tuple[float, float]
    cols: int
    rows: int
    overlap_x: float  # actual overlap between neighbouring columns (≥ the minimum)
    overlap_y: float
    tiles: tuple[Tile, ...]

    def starts(self, axis: str) -> list[float]:
        seen = sorted({t.x if axis == "x" else t.y for t in self.tiles})
        return seen


def _split(length: float, window: float, overlap: float) -> tuple[int, list[float], float]:
    """Tile starts along one axis: the fewest windows with at least ``overlap`` shared."""
    if length <= window:
        return 1, [0.0], 0.0
    if window <= overlap:
        raise ValueError("the printable area is smaller than the overlap")
    n = math.ceil((length - overlap) / (window - overlap))
    step = (length - window) / (n - 1)
    return n, [i * step for i in range(n)], window - step


def plan_tiles(board_w: float, board_h: float, paper: tuple[float, float],
               margin: float = MARGIN_MM, min_overlap: float = MIN_OVERLAP_MM) -> TilePlan:
    """Cover the board with paper-sized windows, trying both orientations (fewest sheets)."""
    best: TilePlan | None = None
    for pw, ph in (paper, (paper[1], paper[0])):
        cw, ch = pw - 2 * margin, ph - 2 * margin
        cols, xs, ox = _split(board_w, cw, min_overlap)
        rows, ys, oy = _split(board_h, ch, min_overlap)
        tiles = tuple(Tile(r, c, xs[c], ys[r], min(cw, board_w), min(ch, board_h))
                      for r in range(rows) for c in range(cols))
        plan = TilePlan((pw, ph), margin, (board_w, board_h), cols, rows, ox, oy, tiles)
        if best is None or len(plan.tiles) < len(best.tiles):
            best = plan
    assert best is not None
    return best


def _mark(c: Canvas, x: float, y: float) -> None:
    """An alignment mark ⊕ at (x, y) mm, black on a white disc so it shows on any colour."""
    r, reach = MARK_R, MARK_R + MARK_ARM
    with saved(c):
        c.setFillColor(white)
        c.setStrokeColor(HexColor("#000000"))
        c.setLineWidth(0.25 * mm)
        c.circle(x * mm, y * mm, r * mm, 1, 1)
        c.line((x - reach) * mm, y * mm, (x + reach) * mm, y * mm)
        c.line(x * mm, (y - reach) * mm, x * mm, (y + reach) * mm)


@dataclass(frozen=True)
class Mark:
    x: float  # board mm, y down
    y: float
    row: int  # the sheet that carries it
    col: int


def marks(plan: TilePlan) -> tuple[list[Mark], list[float], list[float]]:
    """Alignment marks and the cut lines: x of vertical, y of horizontal (board mm, y down).

    The left/upper sheet of each pair is cut in the middle of the shared band and laid over
    its neighbour. The marks are printed on that neighbour only, in the half of the band
    the cut sheet then covers, with a cross arm reaching exactly to the cut line: the cut
    edge is laid on the arm tips, and no mark is left on the finished board.
    """
    out: list[Mark] = []
    xs, ys = plan.starts("x"), plan.starts("y")
    tw, th = plan.tiles[0].w, plan.tiles[0].h
    cuts_x = [x + plan.overlap_x / 2 for x in xs[1:]]
    cuts_y = [y + plan.overlap_y / 2 for y in ys[1:]]
    reach = MARK_R + MARK_ARM
    for col, cut in enumerate(cuts_x, 1):
        for row, y in enumerate(ys):
            out += [Mark(cut - reach, y + th * f, row, col) for f in (0.2, 0.5, 0.8)]
    for row, cut in enumerate(cuts_y, 1):
        for col, x in enumerate(xs):
            out += [Mark(x + tw * f, cut - reach, row, col) for f in (0.2, 0.5, 0.8)]
    return out, cuts_x, cuts_y


def build_board_tiles(project: Project, lang: str, paper: str = "a4",
                      cmyk: CmykConverter | None = None) -> bytes:
    """The board on A4 or Letter sheets, overlapping by at least 10 mm, with an assembly page."""
    if paper not in PAPERS:
        raise CardgenError(error("bad-paper", f"unknown paper '{paper}'",
                                 hint=f"use one of: {', '.join(PAPERS)}"))
    ctx = make_ctx(project, lang, "board")
    bw, bh, bleed = sheet(ctx)
    plan = plan_tiles(bw, bh, PAPERS[paper])
    pw, ph = plan.paper
    buf, c = new_canvas((pw, ph), ctx.label("title"), ctx.font("body"), cmyk)
    body, bold = ctx.font("body"), ctx.font("bold")

    c.beginForm(FORM, -bleed * mm, -bleed * mm, (bw + bleed) * mm, (bh + bleed) * mm)
    draw_board(ctx, c)
    c.endForm()

    # assembly page ---------------------------------------------------------------------
    c.setFont(body, 10)
    m = plan.margin
    text(c, m, ph - m - 6, fill_in(ctx.label("tiles_title"), n=len(plan.tiles)), bold, 16)
    y = ph - m - 14
    for line in wrap(ctx.label("tiles_howto"), body, 10, pw - 2 * m):
        text(c, m, y, line, body, 10)
        y -= 4.6
    text(c, m, y - 1, f"{ctx.label('tiles_overlap')} ≥ {MIN_OVERLAP_MM:g} mm · "
         f"{ctx.label('tiles_finished')} {bw:g} × {bh:g} mm", ctx.font("italic"), 9)
    scale = min((pw - 2 * m) / bw, (y - 10 - m) / bh)
    ox, oy = m + ((pw - 2 * m) - bw * scale) / 2, y - 8 - bh * scale
    with saved(c):
        c.translate(ox * mm, oy * mm)
        c.scale(scale, scale)
        p = c.beginPath()
        p.rect(0, 0, bw * mm, bh * mm)
        c.clipPath(p, 0, 0)
        c.doForm(FORM)
    for t in plan.tiles:
        x0, y0 = ox + t.x * scale, oy + (bh - t.y - t.h) * scale
        with saved(c):
            c.setStrokeColor(HexColor("#000000"))
            c.setLineWidth(0.4 * mm)
            c.setFillColor(white)
            c.rect(x0 * mm, y0 * mm, t.w * scale * mm, t.h * scale * mm, 1, 0)
            cx, cy = x0 + t.w * scale / 2, y0 + t.h * scale / 2
            c.circle(cx * mm, cy * mm, 6 * mm, 1, 1)
            c.setFillColor(HexColor("#000000"))
            text(c, cx, cy - 1.8, t.label, bold, 14, "centre")
    c.showPage()

    # tiles ---------------------------------------------------------------------------------
    pts, cuts_x, cuts_y = marks(plan)
    for t in plan.tiles:
        c.setFont(body, 10)
        bx0, by0 = t.x, bh - t.y - t.h  # tile's lower-left in PDF board coords
        with saved(c):
            p = c.beginPath()
            p.rect(m * mm, m * mm, t.w * mm, t.h * mm)
            c.clipPath(p, 0, 0)
            c.translate((m - bx0) * mm, (m - by0) * mm)
            c.doForm(FORM)
            for mk in pts:
                if (mk.row, mk.col) == (t.row, t.col):
                    _mark(c, mk.x, bh - mk.y)
            c.setStrokeColor(HexColor("#000000"))
            c.setLineWidth(0.3 * mm)
            c.setDash([2 * mm, 1.5 * mm])
            for x in cuts_x:
                if t.x < x < t.x + t.w and x > t.x + t.w / 2:  # this sheet's right edge
                    c.line(x * mm, by0 * mm, x * mm, (by0 + t.h) * mm)
            for yc in cuts_y:
                if t.y < yc < t.y + t.h and yc > t.y + t.h / 2:  # this sheet's bottom edge
                    c.line(bx0 * mm, (bh - yc) * mm, (bx0 + t.w) * mm, (bh - yc) * mm)
        label = (f"{ctx.label('tile')} {t.label} · {plan.tiles.index(t) + 1}/{len(plan.tiles)}"
                 f" · {ctx.label('title')}")
        text(c, m, TILE_LABEL_BASELINE_MM, label, bold, 8)
        c.showPage()
    c.save()
    return buf.getvalue()
