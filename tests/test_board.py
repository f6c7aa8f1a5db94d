"""The full-size board: geometry model, page boxes, fonts, and every name per language."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from reportlab.lib.units import mm
from test_board_helpers import ROOT, game, pdf_fonts, pdf_info, pdf_text, shipped, words

from cardgen.board import build_board
from cardgen.board.base import display_name, load_components, make_ctx
from cardgen.board.board import regions
from cardgen.data.project import load_project
from cardgen.errors import CardgenError
from cardgen.wording.sandbox import fill_in

LANGS = ("en", "cs")


@pytest.fixture(scope="module", params=LANGS)
def board(request):
    return request.param, build_board(shipped(), request.param)


def test_page_is_a2_landscape_with_3mm_bleed_and_boxes(board):
    _lang, pdf = board
    info = pdf_info(pdf)
    w, h = (float(v) for v in info["Page size"].split()[:3:2])
    assert w == pytest.approx(600 * mm, abs=0.05) and h == pytest.approx(426 * mm, abs=0.05)
    trim = [float(v) for v in info["TrimBox"].split()]
    assert trim == pytest.approx([3 * mm, 3 * mm, 597 * mm, 423 * mm], abs=0.05)
    bleed = [float(v) for v in info["BleedBox"].split()]
    assert bleed == pytest.approx([0, 0, 600 * mm, 426 * mm], abs=0.05)


def test_fonts_are_embedded_and_no_helvetica(board):
    fonts = pdf_fonts(board[1])
    assert fonts, "no fonts found"
    assert all(emb == "yes" for _name, emb in fonts), fonts
    assert not any("Helvetica" in name for name, _ in fonts)


def test_every_place_and_track_is_named_in_its_language(board):
    lang, pdf = board
    data = game()
    ctx = make_ctx(shipped(), lang, "board")
    txt = pdf_text(pdf)
    for place in data.places.values():
        if place.category in ("country", "battleground"):
            assert display_name(place.name.values[lang], lang) in txt, place.id
    for pid in ("court-charles", "court-louis", "curia"):
        assert display_name(data.places[pid].name.values[lang], lang) in txt, pid
        assert data.places[pid].attrs["city"].values[lang] in txt, pid
    for key in ("round_panel", "card_play_track", "loyalty_panel", "treasury_charles", "half_luxembourg",
                "half_wittelsbach", "title"):
        assert ctx.label(key) in txt, key
    for side in data.sides.values():
        assert side.name.values[lang] in txt
    ludwig, charles = ctx.label("loyalty_ludwig"), ctx.label("loyalty_charles")
    for space in (f"{ludwig} 2", f"{ludwig} 1", ctx.label("loyalty_neutral"), f"{charles} 1",
                  f"{charles} 2"):
        assert space in txt
    other = "cs" if lang == "en" else "en"
    assert data.places["bohemia"].name.values[other] not in txt


def test_round_track_shows_plays_and_hand_from_data(board):
    txt = pdf_text(board[1])
    lang = board[0]
    labels = load_components(shipped())[0]
    for phase in game().phases:  # each number says what it is (2.25: "4–5": 4 plays, hand 5)
        assert fill_in(labels.label("round_plays", lang), n=phase.plays) in txt
        assert fill_in(labels.label("round_hand", lang), n=phase.hand) in txt
    assert "4–5" not in txt
    for n in range(1, 10):
        assert f" {n} " in f" {txt} "


def test_card_play_track_has_extra_spaces(board):
    txt = pdf_text(board[1])
    assert "+1" in txt and "+2" in txt


def test_treasury_of_louis_is_upside_down_at_the_top(board):
    lang, pdf = board
    ctx = make_ctx(shipped(), lang, "board")
    reg = regions(ctx)
    louis, charles = reg["treasury-wittelsbach"], reg["treasury-luxembourg"]
    assert louis.rotate == 180 and charles.rotate == 0
    assert louis.box[1] < 60 and charles.box[1] + charles.box[3] > 360  # top / bottom edges
    title = ctx.label("treasury_louis").split()
    found = [w for w in words(pdf) if w[0] in title[:2]]
    first = next(w for w in found if w[0] == title[0])
    second = next(w for w in found if w[0] == title[1] and abs(w[2] - first[2]) < 1)
    # upside down: the first word stands to the right of the second, near the page top
    assert first[1] > second[1]
    assert first[2] < 70 * mm


def test_places_do_not_overlap_and_stay_on_the_map():
    ctx = make_ctx(shipped(), "en", "board")
    reg = regions(ctx)
    mx, my, mw, mh = reg["map"].box
    places = [r for r in reg.values() if r.kind in ("country", "battleground")]
    assert len(places) == 12
    for r in places:
        x, y, w, h = r.box
        assert mx <= x and x + w <= mx + mw and my <= y and y + h <= my + mh, r.id
    for i, a in enumerate(places):
        for b in places[i + 1:]:
            ax, ay, aw, ah = a.box
            bx, by, bw, bh = b.box
            assert ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay, (a.id, b.id)


def test_missing_translation_is_a_finding(tmp_path: Path):
    for folder in ("card_data", "layouts", "fonts"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    comp = tmp_path / "card_data" / "components.yaml"
    comp.write_text(comp.read_text().replace("cs: Janova věrnost", "de: Johanns Treue"))
    with pytest.raises(CardgenError) as exc:
        build_board(load_project(tmp_path)[0], "cs")
    codes = {f.code for f in exc.value.findings}
    assert "missing-translation" in codes or "unknown-key" in codes
    assert any("components.yaml" in str(f.location) for f in exc.value.findings)
