"""The proof PDF and the glossary sheet: pages, text (pdftotext) and determinism."""

from __future__ import annotations

import shutil
import subprocess
from types import MappingProxyType

import pytest
from conftest import at
from PIL import Image
from test_lang_fixtures import CARDS, CLEAN, NB, ROOT, make_project

from cardgen.check.lang import check_language
from cardgen.data.layout import load_layout
from cardgen.data.load import load
from cardgen.render.card import draw_card
from cardgen.tables import glossary as glossary_sheet
from cardgen.tables.glossary import build_glossary_sheet, czech_key, name_pairs
from cardgen.translate.proof import build_proof
from cardgen.translate.translation import text_states
from cardgen.wording.compose import compose_faces

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler")


def pdf_text(tmp_path, data: bytes, name: str, *options: str) -> list[str]:
    path = tmp_path / name
    path.write_bytes(data)
    out = subprocess.run(["pdftotext", *(options or ("-layout",)), str(path), "-"],
                         capture_output=True, text=True, check=True).stdout
    return out.split("\f")[:-1]


FONTS = MappingProxyType({"body": ROOT / "fonts" / "CharisSIL-Regular.ttf",
                          "bold": ROOT / "fonts" / "CharisSIL-Bold.ttf",
                          "italic": ROOT / "fonts" / "CharisSIL-Italic.ttf"})


def small_project(tmp_path, cards=CARDS):
    """The two test cards with the shipped wording templates and rule schema."""
    project = make_project(tmp_path, cards)
    for part in ("text", "rules"):
        shutil.copytree(ROOT / "card_data" / part, project / "card_data" / part,
                        dirs_exist_ok=True)
    return project


def proof_of(project, findings=None, **kw) -> tuple[bytes, object]:
    data, _ = load(project)
    layout = load_layout(ROOT / "layouts" / "card.yaml")
    pdf = build_proof(data, compose_faces(data, "en", project), compose_faces(data, "cs", project),
                      check_language(data) if findings is None else findings, draw_card, layout,
                      states=text_states(data, at(project)), **kw)
    return pdf, data


def test_proof_pages_and_text(tmp_path):
    project = small_project(tmp_path, CARDS.replace("Lízni 2 karty", "Lízni 3 karty"))
    pdf, _ = proof_of(project)
    pages = pdf_text(tmp_path, pdf, "proof.pdf")
    # page 1: the summary with its glossary (issue 41: it had moved to page 2), then both
    # cards on one page
    assert len(pages) == 2 and "(philip-vi)" in pages[1] and "(blanche-de-valois)" in pages[1]
    first = " ".join(pages[0].split())
    assert "Cards / Karty 2" in first
    assert "Errors / Chyby 1" in first
    assert "Deed čin" in first and "counter zrušit kontrou" in first
    cards = " ".join(pdf_text(tmp_path, pdf, "proof.pdf", "-raw")[-1].split())
    assert "market 20: Philip VI / Filip VI. (philip-vi)" in cards
    assert "luxembourg 3: Blanche de Valois / Blanka z Valois (blanche-de-valois)" in cards
    assert "Draw 2 cards. Move John 1 step toward Charles." in cards
    assert ("English / anglicky Czech as written / česky, jak je psáno canonical Czech / "
            "kanonická čeština state / stav") in cards
    assert "error[lang-numbers] (cs)" in cards
    # errors come before the warnings of the same card
    philip = cards[cards.index("(philip-vi)"):]
    assert philip.index("error[lang-numbers]") < philip.index("warning[typo-nbsp")
    assert proof_of(project)[0] == pdf


def test_proof_shows_the_canonical_czech_and_the_state(tmp_path):
    cards = CLEAN.replace(f"Umísti 2{NB}vlivy v{NB}Mohuči.", "").replace(
        "    deed:\n      text:\n        en: \"Place 2",
        "    deed:\n      effects: [{op: place_influence, amount: 2, where: mainz}]\n"
        "      text:\n        en: \"Place 2")
    project = small_project(tmp_path, cards)
    pdf, _ = proof_of(project)
    cards = pdf_text(tmp_path, pdf, "proof.pdf")[-1]  # after the summary
    rows = [" ".join(ln.split()) for ln in cards.splitlines()]
    # Blanche's Czech deed is missing: the canonical text stands beside it, the state says so
    deed = next(r for r in rows if "Place 2 influence in Mainz." in r)
    assert deed.endswith("— Umísti 2 vlivu do Mohuče. untranslated"), deed
    # the state in Czech too, beside the English (issue 41, no. 18)
    raw = " ".join(pdf_text(tmp_path, pdf, "proof.pdf", "-raw")[-1].split())
    assert "Umísti 2 vlivu do Mohuče. untranslated / nepřeloženo" in raw
    assert "Filip VI. translated / přeloženo" in raw


def test_proof_only_problems(tmp_path):
    project = small_project(tmp_path, CLEAN.replace(f"Lízni 2{NB}karty", f"Lízni 3{NB}karty"))
    pdf, _ = proof_of(project, only_problems=True)
    pages = pdf_text(tmp_path, pdf, "proof.pdf")
    assert len(pages) == 2  # the summary's page, then the one card with a problem
    assert "philip-vi" in pages[1] and "blanche-de-valois" not in pages[1]


def test_czech_collation():
    words = ["chata", "hrad", "cena", "čin", "Čechy", "ruka", "řada", "šátek", "sasko",
             "žeton", "zámek", "Ábel", "abeceda", "izba", "dvůr", "dal"]
    assert sorted(words, key=czech_key) == [
        "abeceda", "Ábel", "cena", "Čechy", "čin", "dal", "dvůr", "hrad", "chata", "izba",
        "ruka", "řada", "sasko", "šátek", "zámek", "žeton"]


def test_glossary_sheet(tmp_path):
    project = make_project(tmp_path)
    shutil.copytree(ROOT / "card_data" / "text", project / "card_data" / "text")
    data, _ = load(project)
    cs = build_glossary_sheet(data, "cs", FONTS)
    assert build_glossary_sheet(data, "cs", FONTS) == cs
    pages = pdf_text(tmp_path, cs, "cs.pdf")
    lines = [" ".join(ln.split()) for page in pages for ln in page.splitlines() if ln.strip()]
    # labels get card text's typography: a spaced dash is the en dash (issue 13)
    assert lines[:2] == ["Volba římského krále – slovníček", "Slovníček pojmů"]
    assert "Slovníček názvů karet" in lines
    terms = [ln.split()[0] for ln in lines
             if ln.startswith(("hlas vote", "chata", "čin Deed", "čísla Numbers", "dvůr Court",
                               "herní oblast play area"))]
    assert terms == ["čin", "čísla", "dvůr", "herní", "hlas"]
    # verbs under their infinitive, with the other forms beside them
    # one entry per headword: acquire and gain share "získat" (issue 13); a line label is
    # a headword as a dictionary writes it, lower-case and without its colon
    assert [ln for ln in lines if ln.startswith("získat ")] == [
        "získat acquire, gain získej, získání, získáš, získá, získají, získáváš"]
    assert "při získání when acquired" in lines
    assert not any("Při získání:" in ln for ln in lines)
    assert any(ln.startswith("zrušit kontrou counter zrušit kontrou, zruš kontrou") or
               ln.startswith("zrušit kontrou counter zruš kontrou") for ln in lines)
    assert "vyřadit ze hry remove from the game vyřaď ze hry, vyřadí ze hry, vyřazena ze hry," in lines
    # forbidden variants spelled out, with what to write instead and why, under a head;
    # a term's variants share one row, so the reason is printed once (issue 41, no. 8)
    assert "česky správně proč" in lines
    assert any(ln.startswith("anul…, storn…, zruš, zrušit, zruší, zrušit kontrou 5.6, 6.46: "
                             "Odhodit") for ln in lines)
    assert "VLA-61" not in " ".join(lines)  # no internal ids on a player's sheet (issue 29)
    assert "the only verb" not in " ".join(lines)  # the reason in Czech on the Czech sheet
    text = " ".join(lines)
    assert text.count("5.6, 6.46: Odhodit") == 1
    assert "zrušen, zrušena, zrušeno, zrušeny" in text  # the variants wrap
    # places in every form card text uses; shields; currencies and nouns after numbers
    assert "Mohuč Mainz v Mohuči · do Mohuče · z Mohuče · mohučského kurfiřta" in lines
    assert "Čechy Bohemia v Čechách · do Čech · z Čech · českého kurfiřta" in lines
    assert "štít Eduarda III. Edward III shield" in lines
    # whole numbers only: the game counts no fractions (issue 29, no. 30)
    assert "církevní Church 1 církevní měnu · 2 církevní měny · 5 církevních měn" in lines
    assert "1 vliv · 2 vlivu · 5 vlivu 1 influence · 2 influence" in lines
    assert "1 kartu · 2 karty · 5 karet 1 card · 2 cards" in lines
    assert "1 top card · 2 top cards" in text  # a template noun has its pair too
    # Deed names with their card
    assert "Starý spolek Auld Alliance Filip VI." in lines
    en = " ".join(" ".join(p.split()) for p in pdf_text(tmp_path, build_glossary_sheet(
        data, "en", FONTS), "en.pdf"))
    assert "Glossary of card names" in en
    assert "English use instead why" in en
    assert "cancel, cancels, cancelled, counter 5.6, 6.46: the only verb" in en
    assert "cancelling, negate, negates," in en and en.count("the only verb") == 1
    assert "Mainz Mohuč in Mainz · from Mainz · the elector of Mainz" in en
    assert name_pairs(data, "cs") == [("Blanka z Valois", "Blanche de Valois"),
                                      ("Filip\u00a0VI.", "Philip VI")]


def pages_png(tmp_path, pdf: bytes, name: str) -> list[bytes]:
    """Each page drawn by pdftoppm (72 dpi), as RGB pixels."""
    (tmp_path / f"{name}.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "72", "-png", str(tmp_path / f"{name}.pdf"),
                    str(tmp_path / name)], check=True)
    return [Image.open(png).convert("RGB").tobytes()
            for png in sorted(tmp_path.glob(f"{name}-*.png"))]


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler")
def test_glossary_one_line_cells_look_as_a_paragraph_in_every_cell(tmp_path, monkeypatch):
    """A one-line cell is a plain string (a Paragraph per cell made a 20× deck's sheet slow,
    issue 14): the pages are pixel for pixel those with a Paragraph in every cell, a table
    split over pages under its repeated head, a cell that wraps, a row taller than a page,
    and spaces a Paragraph collapses or keeps (no-break) or breaks at (soft hyphen)."""
    project = make_project(tmp_path)
    shutil.copytree(ROOT / "card_data" / "text", project / "card_data" / "text")
    data, _ = load(project)
    odd = [("a  b", " lead", "trail "), ("soft\u00adhyphen", "n\u00a0b", "tab\there"),
           ("A & B <i>x</i>", "thin\u2009space", ""), ("wraps", "word " * 40, "x"),
           ("tall", "slovo " * 1500, "y")]
    rows = odd + [(f"čin {i}", f"deed {i}", "Filip VI.") for i in range(80)]
    monkeypatch.setattr(glossary_sheet, "deed_rows", lambda data, lang, not_deed="": rows)
    for lang in ("cs", "en"):
        plain = build_glossary_sheet(data, lang, FONTS)
        with monkeypatch.context() as m:
            m.setattr(glossary_sheet, "sheet_table", glossary_sheet.pair_table)
            paragraphs = build_glossary_sheet(data, lang, FONTS)
        assert plain != paragraphs  # drawn otherwise …
        drawn = pages_png(tmp_path, plain, f"plain-{lang}")
        assert len(drawn) > 5 and drawn == pages_png(tmp_path, paragraphs, f"para-{lang}")
