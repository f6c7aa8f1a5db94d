"""Issue 41: the Czech editor's second review (language part), read back from the printed
documents (pdftotext, pixels) of the shipped game in both languages. The rules tables'
pages are in tests/test_tables.py (they reuse its build), the proof's in tests/test_proof.py.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from cardgen.board import build_board, build_player_aid
from cardgen.data.layout import load_layout
from cardgen.data.load import load
from cardgen.render.pdf import rasterise, render_cards_pdf
from cardgen.tables.glossary import build_glossary_sheet
from cardgen.translate.po import po_bytes
from cardgen.wording.components import load_components
from cardgen.wording.compose import compose_faces
from tests.conftest import ROOT, at

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                reason="pdftotext (poppler-utils) is not installed")

NB = "\u00a0"


@pytest.fixture(scope="module")
def data():
    return load(ROOT)[0]


@pytest.fixture(scope="module")
def glossary(data, tmp_path_factory) -> dict[str, list[str]]:
    """Each language's glossary sheet as pages of text (pdftotext -layout, runs of white
    space as one space per line)."""
    folder = tmp_path_factory.mktemp("glossary")
    layout = load_layout(ROOT / "layouts" / "card.yaml")
    out = {}
    for lang in ("en", "cs"):
        pdf = folder / f"{lang}.pdf"
        pdf.write_bytes(build_glossary_sheet(data, lang, layout.fonts))
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                              text=True, check=True).stdout.replace(NB, " ")
        out[lang] = ["\n".join(" ".join(ln.split()) for ln in page.splitlines() if ln.strip())
                     for page in text.split("\f")[:-1]]
    return out


# --- 1 (major): a heading keeps with its table's first rows, not the whole table ---------

@pytest.mark.parametrize(("lang", "title", "first_terms"), [
    ("en", "A Vote for the King of the Romans – glossary",
     ["Glossary of terms", "English Czech forms", "acquire získat"]),
    ("cs", "Volba římského krále – slovníček",
     ["Slovníček pojmů", "česky anglicky tvary", "balíček trhu market deck"]),
])
def test_the_glossary_starts_on_page_1_and_fits_five_pages(glossary, lang, title, first_terms):
    pages = glossary[lang]
    assert len(pages) <= 5  # 8 when a heading pulled its whole table onto the next page
    lines = pages[0].splitlines()
    assert lines[0] == title
    # the terms table under its heading on page 1, not a title alone on a white page
    assert lines[1:3] == first_terms[:2] and lines[3].startswith(first_terms[2])
    assert len(lines) > 40


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_every_glossary_heading_shares_its_page_with_rows(glossary, data, lang):
    """No heading ends a page: the head row and at least one row follow it there."""
    labels = data.templates[lang]["labels"]
    headings = [labels[k].replace(" — ", " – ") for k in (
        "glossary_terms", "glossary_forbidden", "glossary_places", "glossary_shields",
        "glossary_currencies", "glossary_nouns", "glossary_deeds", "glossary_names")]
    found = 0
    for page in glossary[lang]:
        lines = page.splitlines()
        for i, line in enumerate(lines):
            if line in headings:
                found += 1
                assert len(lines) > i + 2, (line, lines[i:])
    assert found == len(headings)


# --- 4 (medium): the PO file pairs each language's name with its translation ------------

def test_po_pairs_english_with_anglicky(data):
    po = po_bytes(data, canonical=None).decode("utf-8")
    heads = dict(re.findall(r'msgctxt "text:labels\.glossary_head\[\d\]"\nmsgid "(\w+)"\n'
                            r'msgstr "(\w+)"', po))
    assert heads == {"English": "anglicky", "Czech": "česky"}


@pytest.mark.parametrize(("lang", "head"), [("en", "English Czech"), ("cs", "česky anglicky")])
def test_each_sheet_heads_its_own_language_first(glossary, lang, head):
    assert glossary[lang][0].splitlines()[2].startswith(head)


# --- minor: 8, 9, 11 on the glossary ------------------------------------------------------

def test_forbidden_variants_give_their_reason_once_under_a_head(glossary):
    cs, en = "\n".join(glossary["cs"]), "\n".join(glossary["en"])
    assert "česky správně proč" in cs and "English use instead why" in en
    assert cs.count("5.6, 6.46: Odhodit z ruky kartu s kontrou") == 1
    assert en.count("the only verb for cancelling") == 1


def test_card_names_start_their_entries_as_the_cards_print_them(glossary):
    cs = "\n".join(glossary["cs"])
    assert "Papež Benedikt XII." in cs and "Papež Jan XXII." in cs
    assert "papež Benedikt" not in cs and "papež Jan" not in cs


def test_a_places_accusative_stands_after_its_verb(glossary):
    cs = "\n".join(glossary["cs"])
    assert "z Lombardie · (ovládá) Lombardii" in cs
    assert "(ovládá) Slezsko a Lužici" in cs.replace("\n", " ")
    assert not re.search(r"z Lombardie · Lombardii", cs)


# --- 17: the Deed's divider is clear of the letters above and below ----------------------

DPI = 400
MM = 25.4 / DPI
INK = 160  # a pixel darker than this is ink (anti-aliased edges included; the panel: 225)


def _clearance(png: Path) -> tuple[float, float]:
    """(mm of paper between the divider and the ink above it, and below it): the rule is
    the one row in the text panel's middle that is mostly mid-tone."""
    im = Image.open(png).convert("L")
    px, (w, h) = im.load(), im.size
    xs = range(int(w * 0.35), int(w * 0.65))
    rule = [y for y in range(int(h * 0.62), int(h * 0.9))
            if sum(100 < px[x, y] < 205 for x in xs) > 0.75 * len(xs)]
    top, bottom = rule[0], rule[0]
    while bottom + 1 in rule:
        bottom += 1

    def ink(y: int) -> bool:
        return any(px[x, y] < INK for x in range(int(w * 0.12), int(w * 0.88)))

    up, down = top - 1, bottom + 1
    while not ink(up):
        up -= 1
    while not ink(down):
        down += 1
    return (top - 1 - up) * MM, (down - bottom - 1) * MM


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler")
@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_deed_divider_clears_descenders_and_icons(data, tmp_path, lang):
    """John of Luxembourg: a "j" above the rule (the review's case); Charles I Robert and
    Edward III: a descender above, a shield in the line below."""
    wanted = ("john-of-luxembourg-lux", "charles-i-robert", "edward-iii")
    faces = [f for f in compose_faces(data, lang, ROOT) if f.card_id in wanted]
    assert len(faces) == len(wanted)
    pdf, _ = render_cards_pdf(faces, load_layout(ROOT / "layouts" / "card.yaml"),
                              physical=False)
    for face, png in zip(faces, rasterise(pdf, DPI, tmp_path), strict=True):
        above, below = _clearance(png)
        # letters on both sides: 0.5 mm clear; a shield below (0.2 of the size taller than
        # the letters) shares the same gap: 0.4 mm
        least = 0.5 if face.card_id.startswith("john") else 0.4
        assert above >= least and below >= least, (face.card_id, above, below)
        assert abs(above - below) <= 0.2, (face.card_id, above, below)  # about centred


# --- 15, 16: the aid's far-end bullet names its subject; the board's tracks as in 2.25, 2.27

@pytest.mark.parametrize(("lang", "said", "not_said"), [
    ("en", "At the far end he changes sides, into the other discard pile.", None),
    ("cs", "Dojde-li ukazatel na krajní pole, přejde Jan do soupeřova odhazovacího balíčku.",
     "Na krajním poli přejde na druhou stranu"),
])
def test_the_aid_says_who_changes_sides(data, lang, said, not_said):
    text = " ".join(_pdf_words(build_player_aid(at(ROOT), lang)))
    assert text.count(said) == 2  # once per side
    assert not_said is None or not_said not in text


@pytest.mark.parametrize(("lang", "titles", "marker_names"), [
    ("en", ("Round track", "Card-play track", "John’s loyalty track"), ("Round", "John’s loyalty")),
    ("cs", ("Stupnice kol", "Stupnice zahrání", "Stupnice Janovy věrnosti"),
     ("Kolo", "Janova věrnost")),
])
def test_the_board_names_its_tracks_as_the_rulebook_does(data, lang, titles, marker_names):
    lines = _pdf_words(build_board(at(ROOT), lang))
    for title in titles:
        assert title in lines
    comp, _ = load_components(at(ROOT))
    assert comp is not None
    # the markers keep their own names (tokens, the virtual table)
    assert (comp.label("round_track", lang), comp.label("loyalty", lang)) == marker_names


def _pdf_words(pdf: bytes) -> list[str]:
    """The PDF's text lines, white space runs as one space."""
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True,
                          check=True).stdout.decode("utf-8").replace(NB, " ")
    return [" ".join(ln.split()) for ln in text.splitlines() if ln.strip()]
