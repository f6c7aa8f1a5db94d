"""Token sheets: quantities from data, packing, duplex alignment, the PDF."""

from __future__ import annotations

import pytest
from reportlab.lib.units import mm
from test_board_helpers import game, page_sizes, pdf_fonts, pdf_text, shipped

from cardgen.board import build_tokens
from cardgen.board.base import PAPERS, display_name, make_ctx
from cardgen.board.tokens import back_x, pack, token_list


@pytest.fixture(scope="module")
def ctx():
    return make_ctx(shipped(), "en", "tokens")


def test_quantities_come_from_components(ctx):
    tokens = token_list(ctx)
    q = ctx.comp.tokens
    kinds = [t.kind for t in tokens]
    assert kinds.count("shield") == len(game().shields) * q["shield_markers"]
    assert kinds.count("vote") == 2 * q["vote_markers"]
    assert kinds.count("influence") == 2 * sum(q["influence"].values())
    assert kinds.count("military") == 2 * sum(q["military"].values())
    assert kinds.count("currency") == 4 * sum(q["currency"].values())
    assert {t.key for t in tokens if t.kind == "currency"} == {"church", "german", "western",
                                                             "eastern"}
    assert kinds.count("reminder") == sum(r["count"] for r in q["reminders"])
    assert kinds.count("card_play") == kinds.count("round") == kinds.count("loyalty") == 1


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_packing_stays_in_margins_without_overlap_and_backs_mirror(ctx, paper):
    pw, ph = PAPERS[paper]
    sheet = ctx.layout.data["sheet"]
    placed = pack(token_list(ctx), (pw, ph), sheet["margin"], sheet["gutter"], sheet["margin_y"])
    for p in placed:
        s = p.token.size
        assert sheet["margin"] - 1e-9 <= p.x and p.x + s <= pw - sheet["margin"] + 1e-9
        assert sheet["margin_y"] - 1e-9 <= p.y and p.y + s <= ph - sheet["margin_y"] + 1e-9
        bx = back_x(p, pw)
        # duplex, long-edge flip: the back's centre is the front's centre mirrored
        assert (bx + s / 2) + (p.x + s / 2) == pytest.approx(pw)
    for i, a in enumerate(placed):
        for b in placed[i + 1:]:
            if a.page != b.page:
                continue
            gap = sheet["gutter"] - 1e-9
            assert (a.x + a.token.size + gap <= b.x or b.x + b.token.size + gap <= a.x
                    or a.y + a.token.size + gap <= b.y or b.y + b.token.size + gap <= a.y)


@pytest.mark.parametrize(("lang", "paper"), [("en", "a4"), ("cs", "letter")])
def test_token_pdf(lang, paper):
    pdf = build_tokens(shipped(), lang, paper)
    sizes = page_sizes(pdf)
    assert len(sizes) % 2 == 0  # every front page has its back page
    pw, ph = PAPERS[paper]
    assert all(w == pytest.approx(pw * mm, abs=0.1) and h == pytest.approx(ph * mm, abs=0.1)
               for w, h in sizes)
    fonts = pdf_fonts(pdf)
    assert all(emb == "yes" for _n, emb in fonts)
    assert not any("Helvetica" in n for n, _ in fonts)
    txt = pdf_text(pdf)
    data = game()
    for side in data.sides.values():
        assert side.name.values[lang] in txt
    for shield in data.shields.values():  # a caption starts with a capital (Štít …)
        assert display_name(shield.name.values[lang], lang).replace("\u00a0", " ") in txt
