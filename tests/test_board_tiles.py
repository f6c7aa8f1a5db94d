"""Tiling math for home printing, and the tiled PDFs."""

from __future__ import annotations

import itertools

import pytest
from reportlab.lib.units import mm
from test_board_helpers import page_sizes, pdf_fonts, shipped

from cardgen.board import build_board_tiles
from cardgen.board.base import PAPERS
from cardgen.board.tiles import MARK_ARM, MARK_R, marks, plan_tiles


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("board", [(594, 420), (420, 297), (841, 594), (200, 150)])
def test_tiles_cover_the_board_with_overlap(paper, board):
    bw, bh = board
    plan = plan_tiles(bw, bh, PAPERS[paper])
    assert len(plan.tiles) == plan.cols * plan.rows
    pw, ph = plan.paper
    for t in plan.tiles:  # each window fits the printable area and lies on the board
        assert t.w <= pw - 2 * plan.margin + 1e-9 and t.h <= ph - 2 * plan.margin + 1e-9
        assert t.x >= 0 and t.y >= 0 and t.x + t.w <= bw + 1e-9 and t.y + t.h <= bh + 1e-9
    xs, ys = plan.starts("x"), plan.starts("y")
    assert xs[0] == 0 and ys[0] == 0
    w, h = plan.tiles[0].w, plan.tiles[0].h
    assert xs[-1] + w == pytest.approx(bw) and ys[-1] + h == pytest.approx(bh)
    for a, b in itertools.pairwise(xs):
        assert a + w - b >= 10 - 1e-9  # neighbours share at least 10 mm
    for a, b in itertools.pairwise(ys):
        assert a + h - b >= 10 - 1e-9
    # a fine grid of board points is on some tile
    for i in range(41):
        for j in range(41):
            px, py = bw * i / 40, bh * j / 40
            assert any(t.x - 1e-9 <= px <= t.x + t.w + 1e-9 and t.y - 1e-9 <= py <= t.y + t.h
                       + 1e-9 for t in plan.tiles)


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_alignment_marks_end_up_hidden_under_the_cut_neighbour(paper):
    """Each mark is printed on one sheet only, inside the band its left/upper neighbour
    covers once cut, with a cross arm ending on the cut line: off the finished board."""
    plan = plan_tiles(594, 420, PAPERS[paper])
    pts, cuts_x, cuts_y = marks(plan)
    assert len(pts) == 3 * (len(cuts_x) * plan.rows + len(cuts_y) * plan.cols)
    reach = MARK_R + MARK_ARM
    tiles = {(t.row, t.col): t for t in plan.tiles}
    for m in pts:
        t = tiles[(m.row, m.col)]
        assert t.x <= m.x - MARK_R and m.x + MARK_R <= t.x + t.w  # on its sheet
        assert t.y <= m.y - MARK_R and m.y + MARK_R <= t.y + t.h
        vertical = m.col > 0 and m.x + reach == pytest.approx(t.x + plan.overlap_x / 2)
        horizontal = m.row > 0 and m.y + reach == pytest.approx(t.y + plan.overlap_y / 2)
        assert vertical or horizontal  # the arm's tip is where the neighbour's cut edge lies


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_tiled_pdf_pages(paper):
    pdf = build_board_tiles(shipped(), "cs", paper)
    plan = plan_tiles(594, 420, PAPERS[paper])
    sizes = page_sizes(pdf)
    assert len(sizes) == 1 + len(plan.tiles)
    pw, ph = plan.paper
    for w, h in sizes:
        assert w == pytest.approx(pw * mm, abs=0.1) and h == pytest.approx(ph * mm, abs=0.1)
    assert all(emb == "yes" for _n, emb in pdf_fonts(pdf))
    # the board is drawn once (one form XObject), not once per tile
    assert pdf.count(b"/Subtype /Form") == 1
