"""Player aid: both sides, all four sections, in each language."""

from __future__ import annotations

import pytest
from reportlab.lib.units import mm
from test_board_helpers import ROOT, game, page_sizes, pdf_fonts, pdf_text, shipped

from cardgen.board import build_player_aid
from cardgen.wording.components import load_components
from cardgen.wording.sandbox import fill_in


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_aid_has_every_section_for_both_sides(lang):
    pdf = build_player_aid(shipped(), lang)
    (w, h), = page_sizes(pdf)
    assert w == pytest.approx(210 * mm, abs=0.1) and h == pytest.approx(297 * mm, abs=0.1)
    assert all(emb == "yes" for _n, emb in pdf_fonts(pdf))
    comp, findings = load_components(shipped())
    assert comp is not None and not findings
    txt = pdf_text(pdf)
    for key in ("sequence_title", "round_end_title", "exchange_title", "loyalty_title"):
        assert txt.count(comp.aid[key][lang]) == 2, key  # once per side
    for side in game().sides.values():
        assert side.name.values[lang] in txt
    for phase in game().phases:  # each number named: no "4–5" that reads as a range (2.25)
        assert fill_in(comp.label("round_plays", lang), n=phase.plays) in txt
        assert fill_in(comp.label("round_hand", lang), n=phase.hand) in txt
    assert "4–5" not in txt


def test_aid_text_is_not_rulebook_prose():
    comp, _ = load_components(shipped())
    rules = (ROOT.parent / "shared" / "rules" / "rules-v0.27.4-en.txt")
    if not rules.is_file():
        pytest.skip("rulebook not available")
    prose = rules.read_text()
    items = comp.aid["sequence"] + comp.aid["round_end"] + comp.aid["loyalty"]
    for item in items:
        words = item["en"].split()
        for i in range(len(words) - 7):  # no 8-word run copied from the rulebook
            assert " ".join(words[i:i + 8]) not in prose, item["en"]
