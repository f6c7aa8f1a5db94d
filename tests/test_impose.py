"""Home print sheets: geometry a printer cares about, duplex backs, marks, PDF structure."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import at

from cardgen.errors import CardgenError
from cardgen.impose import (
    CardSize,
    build_sheets,
    duplex_geometry,
    gutterfold_geometry,
    load_sheet_spec,
    outer_bleed,
    plan_sheets,
)
from cardgen.impose.fakes import fake_drawers, fake_faces, game_counts
from cardgen.impose.geometry import Box, mirror_box, printable_area
from cardgen.press.pdfscan import rgb_usage

ROOT = Path(__file__).resolve().parent.parent
CARD = CardSize(63, 88, 3)
PAPERS = ("a4", "letter")
PT = 72 / 25.4


@pytest.fixture(scope="module")
def spec():
    return load_sheet_spec(at(ROOT))


@pytest.fixture(scope="module")
def faces():
    return fake_faces(game_counts())


@pytest.fixture(scope="module")
def drawers():
    return fake_drawers(CARD)


def image_colours(pdf: bytes, tmp_path: Path) -> set[str]:
    path = tmp_path / "img.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdfimages", "-list", str(path)], check=True, capture_output=True,
                         text=True).stdout.splitlines()[2:]
    return {line.split()[5] for line in out}


def pdfinfo(pdf: bytes, tmp_path: Path, *args: str) -> str:
    path = tmp_path / "f.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdfinfo", *args, str(path)], check=True, capture_output=True,
                          text=True).stdout


def test_outer_bleed_is_chosen_per_paper_and_side(spec):
    assert outer_bleed(spec, CARD, "a4") == pytest.approx((3, 3, 3))
    # Letter: 279.4 - 264 = 15.4 mm above and below the grid together; centred, 7.7 mm a
    # side: 1.7 mm of bleed inside the 6 mm margin on every edge (issue 41, min_bleed 1.5)
    assert outer_bleed(spec, CARD, "letter") == pytest.approx((3, 1.7, 1.7))


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("flip", ["long", "short"])
def test_grid_sits_inside_the_printable_area(spec, paper, flip):
    g = duplex_geometry(spec, CARD, paper, flip)
    area = printable_area(g.page_w, g.page_h, spec.printer_margin)
    for side, slots in (("front", g.fronts), ("back", g.backs)):
        bx, below, above = g.outer(side)
        for slot in slots:
            assert area.contains(slot.trim.grow(bx, below, bx, above))
    xs = [s.trim.x for s in g.fronts] + [s.trim.right for s in g.fronts]
    ys = [s.trim.y for s in g.fronts] + [s.trim.top for s in g.fronts]
    assert min(xs) == pytest.approx(g.page_w - max(xs))  # centred across
    assert min(ys) == pytest.approx(g.page_h - max(ys))  # and up and down (Letter too)
    assert min(ys) - spec.printer_margin >= spec.min_bleed - 1e-9
    # shared cut lines: neighbours butt, no gutter
    assert max(xs) - min(xs) == pytest.approx(3 * 63)
    assert max(ys) - min(ys) == pytest.approx(3 * 88)


@pytest.mark.parametrize("paper", PAPERS)
def test_every_back_lies_exactly_behind_its_front_long_edge(spec, paper):
    g = duplex_geometry(spec, CARD, paper, "long")
    for f, b in zip(g.fronts, g.backs, strict=True):
        assert b.trim.x == pytest.approx(g.page_w - f.trim.x - f.trim.w)
        assert b.trim.y == pytest.approx(f.trim.y)
        assert (b.row, b.col) == (f.row, 2 - f.col)


@pytest.mark.parametrize("paper", PAPERS)
def test_every_back_lies_exactly_behind_its_front_short_edge(spec, paper):
    g = duplex_geometry(spec, CARD, paper, "short")
    for f, b in zip(g.fronts, g.backs, strict=True):
        assert b.trim.x == pytest.approx(f.trim.x)
        assert b.trim.y == pytest.approx(g.page_h - f.trim.y - f.trim.h)
        assert (b.row, b.col) == (2 - f.row, f.col)


def test_mirror_is_an_involution():
    box = Box(10, 20, 63, 88)
    for flip in ("long", "short"):
        assert mirror_box(mirror_box(box, 210, 297, flip), 210, 297, flip) == box


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("gutterfold", [False, True])
def test_crop_marks_lie_outside_every_bleed_and_reach_the_printable_area(spec, paper,
                                                                          gutterfold):
    g = (gutterfold_geometry(spec, CARD, paper) if gutterfold
         else duplex_geometry(spec, CARD, paper, "long"))
    trims = [s.trim for s in (*g.fronts, *g.backs)]
    bx, below, above = g.outer("front")
    bleeds = [s.trim.grow(bx, below, bx, above) for s in g.fronts]
    area = printable_area(g.page_w, g.page_h, spec.printer_margin)
    for marks in (g.marks, g.back_marks):
        assert marks
        for seg in marks:
            box = seg.box()
            assert not any(box.overlaps(t) for t in trims), seg  # marks run over bleed only
            assert min(seg.x1, seg.x2) > 0 and max(seg.x1, seg.x2) < g.page_w
            assert min(seg.y1, seg.y2) > 0 and max(seg.y1, seg.y2) < g.page_h
            # the part of the mark inside the printer margin is long enough to see (a
            # short one only where its cut has one at the other end too: Letter's columns)
            inside = (min(box.right, area.right) - max(box.x, area.x)
                      + min(box.top, area.top) - max(box.y, area.y))
            assert inside >= spec.marks.min_printable_each - 1e-9, seg
        for seg in marks:
            others = [s for s in marks if s is not seg and s.x1 == seg.x1 == s.x2 == seg.x2]
            box = seg.box()
            inside = (min(box.right, area.right) - max(box.x, area.x)
                      + min(box.top, area.top) - max(box.y, area.y))
            assert inside >= spec.marks.min_printable - 1e-9 or others, seg
    if gutterfold:
        assert g.fold is not None
        assert not any(g.fold.box().overlaps(bl) for bl in bleeds)
    else:
        assert bleeds


@pytest.mark.parametrize("paper", PAPERS)
def test_gutterfold_backs_mirror_fronts_about_the_fold(spec, paper):
    g = gutterfold_geometry(spec, CARD, paper)
    assert g.page_w > g.page_h  # landscape
    fold_x = g.fold.x1
    for f, b in zip(g.fronts, g.backs, strict=True):
        assert f.trim.right <= fold_x - spec.fold_gap + 1e-9
        assert b.trim.x == pytest.approx(2 * fold_x - f.trim.right)
        assert b.trim.y == pytest.approx(f.trim.y)


def test_plan_has_every_copy_and_22_pages(spec, faces):
    plan = plan_sheets(faces, CARD, spec, "a4")
    assert plan.cards == 82
    assert len(plan.pages) == 2 + 2 * 10 == 22
    assert [p.kind for p in plan.pages[:4]] == ["info", "blank", "fronts", "backs"]
    fronts = [(p.card_id, p.copy) for page in plan.pages for p in page.placements
              if p.side == "front"]
    assert len(fronts) == len(set(fronts)) == 82
    assert fronts.count(("c01", 4)) == 1


def test_backs_page_mirrors_its_fronts_page_with_a_partial_last_page(spec, faces):
    plan = plan_sheets(faces, CARD, spec, "letter", flip="long")
    g = plan.geometry
    for front_page, back_page in zip(plan.pages[2::2], plan.pages[3::2], strict=True):
        assert front_page.kind == "fronts" and back_page.kind == "backs"
        backs = {(p.card_id, p.copy): p for p in back_page.placements}
        for f in front_page.placements:
            b = backs[(f.card_id, f.copy)]
            assert b.trim == mirror_box(f.trim, g.page_w, g.page_h, "long")
            assert b.visible.w == pytest.approx(f.visible.w)
    last = plan.pages[-2]
    assert len(last.placements) == 1  # 82 = 9 × 9 + 1
    only = last.placements[0]
    assert (only.row, only.col) == (0, 0)
    assert (plan.pages[-1].placements[0].row, plan.pages[-1].placements[0].col) == (0, 2)
    # a lone card gets the outer bleed on all four sides; butting cards get none between
    bx, below, above = g.outer("front")
    assert only.visible == only.trim.grow(bx, below, bx, above)
    first = plan.pages[2].placements[4]  # centre card of a full page
    assert first.visible == first.trim


@pytest.mark.parametrize("paper,size", [("a4", "595.276 x 841.89"), ("letter", "612 x 792")])
def test_pdf_pages_and_size(spec, faces, drawers, tmp_path, paper, size):
    pdf = build_sheets(faces, *drawers, CARD, spec, paper, "en")
    info = pdfinfo(pdf, tmp_path)
    assert "Pages:           22" in info
    assert f"Page size:       {size} pts" in info
    raw = pdf.decode("latin-1")
    assert "/PrintScaling /None" in raw
    assert "/Duplex /DuplexFlipLongEdge" in raw


def test_short_edge_and_gutterfold_preferences(spec, faces, drawers):
    short = build_sheets(faces[:3], *drawers, CARD, spec, "a4", "en", flip="short")
    assert b"/Duplex /DuplexFlipShortEdge" in short
    fold = build_sheets(faces[:3], *drawers, CARD, spec, "a4", "cs", gutterfold=True)
    assert b"/Duplex /Simplex" in fold


def test_each_card_and_image_is_embedded_once(spec, faces, drawers, tmp_path):
    pdf = build_sheets(faces, *drawers, CARD, spec, "a4", "en")
    path = tmp_path / "s.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdfimages", "-list", str(path)], check=True, capture_output=True,
                         text=True).stdout.splitlines()[2:]
    assert len(out) == 82  # one placement per physical front …
    assert {line.split()[10] for line in out} == {line.split()[10] for line in out[:1]}
    # … of a single image object; one form per card plus one for the back
    assert pdf.count(b"/Subtype /Form") == len(faces) + 1


def test_forms_keep_transparency_and_gradients(spec, faces, drawers, tmp_path):
    """ReportLab forms drop ExtGState and Shading resources unless PrintCanvas adds them."""
    pdf = build_sheets(faces[:2], *drawers, CARD, spec, "a4", "en")
    path = tmp_path / "g.pdf"
    path.write_bytes(pdf)
    run = subprocess.run(["pdftoppm", "-r", "20", "-png", "-f", "3", "-l", "3", str(path),
                          str(tmp_path / "g")], capture_output=True, text=True, check=True)
    assert run.stderr == ""


def test_bytes_are_deterministic(spec, faces, drawers):
    one = build_sheets(faces[:10], *drawers, CARD, spec, "letter", "cs")
    two = build_sheets(faces[:10], *drawers, CARD, spec, "letter", "cs")
    assert one == two


def test_cmyk_sheets_have_no_rgb(spec, faces, drawers, tmp_path):
    pdf = build_sheets(faces[:12], *drawers, CARD, spec, "a4", "en", cmyk=True)
    assert rgb_usage(pdf) == []
    rgb = build_sheets(faces[:12], *drawers, CARD, spec, "a4", "en")
    assert rgb_usage(rgb)  # the scan does see RGB when it is there
    assert image_colours(pdf, tmp_path) == {"cmyk"}


def test_unknown_paper_and_duplicate_cards_are_reported(spec, faces):
    with pytest.raises(CardgenError) as exc:
        plan_sheets(faces, CARD, spec, "a5")
    assert "paper 'a5' is not in sheets.yaml; expected one of: a4, letter" in str(exc.value)
    with pytest.raises(CardgenError) as exc:
        plan_sheets([faces[0], faces[0], faces[1], faces[1]], CARD, spec, "a4")
    assert [f.card for f in exc.value.findings] == ["c01", "c02"]


def test_missing_language_is_a_finding_not_an_english_fallback(spec, faces, drawers):
    with pytest.raises(CardgenError) as exc:
        build_sheets(faces[:1], *drawers, CARD, spec, "a4", "de")
    assert exc.value.findings[0].code == "missing-translation"


def test_czech_card_count_uses_cldr_plurals(spec):
    from cardgen.impose.sheets import plural

    assert plural(spec, "cs", "count", 1) == "1 karta"
    assert plural(spec, "cs", "count", 3) == "3 karty"
    assert plural(spec, "cs", "count", 82) == "82 karet"
    assert plural(spec, "en", "count", 1) == "1 card"


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("flip", ["long", "short"])
def test_every_cut_has_a_mark_on_both_pages(spec, paper, flip):
    """Each of the 4 column and 4 row cut lines has at least one mark on the fronts page
    and on the backs page (Letter: the column cuts' marks on one side of the grid only)."""
    g = duplex_geometry(spec, CARD, paper, flip)
    for side, marks, slots in (("front", g.marks, g.fronts), ("back", g.back_marks, g.backs)):
        xs = {round(v, 6) for s in slots for v in (s.trim.x, s.trim.right)}
        ys = {round(v, 6) for s in slots for v in (s.trim.y, s.trim.top)}
        assert {round(m.x1, 6) for m in marks if m.x1 == m.x2} == xs, side
        assert {round(m.y1, 6) for m in marks if m.y1 == m.y2} == ys, side


@pytest.mark.parametrize(("grid", "dimension", "hint"), [
    ({"rows": 4}, "height", "use fewer rows, or a smaller margin"),
    ({"columns": 4}, "width", "use fewer rows or columns, or a smaller margin"),
])
def test_a_grid_larger_than_the_paper_says_which_side_and_how_to_fix_it(spec, grid, dimension,
                                                                         hint):
    with pytest.raises(CardgenError) as exc:
        outer_bleed(replace(spec, **grid), CARD, "a4")
    (finding,) = exc.value.findings
    assert finding.code == "sheet-too-small" and finding.hint == hint
    assert finding.message == (f"the card grid does not fit the A4 {dimension} with a 6.0 mm "
                               "printer margin and room for crop marks (63 × 88 mm cards)")
    assert finding.location.file == "layouts/sheets.yaml"
