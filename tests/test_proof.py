"""The proof PDF and the glossary sheet: pages, text (pdftotext) and determinism."""

from __future__ import annotations

import shutil
import subprocess
from types import MappingProxyType

import pytest
from test_lang_fixtures import CARDS, CLEAN, NB, ROOT, make_project

from cardgen.check.lang import check_language
from cardgen.glossary_sheet import build_glossary_sheet, czech_key, name_pairs
from cardgen.load import load
from cardgen.proof import build_proof

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler")


def pdf_text(tmp_path, data: bytes, name: str) -> list[str]:
    path = tmp_path / name
    path.write_bytes(data)
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                         text=True, check=True).stdout
    return out.split("\f")[:-1]


class Face:
    def __init__(self, card_id, lang, name):
        self.card_id, self.lang, self.name = card_id, lang, name


class Layout:
    page_size = (195.6, 266.5)
    fonts = MappingProxyType({"body": ROOT / "fonts" / "CharisSIL-Regular.ttf",
                              "bold": ROOT / "fonts" / "CharisSIL-Bold.ttf",
                              "italic": ROOT / "fonts" / "CharisSIL-Italic.ttf"})


def fake_draw(canvas, face, layout, origin):
    canvas.drawString(20, 100, f"FACE {face.lang} {face.name}")


def faces(data, lang):
    return [Face(c.id, lang, c.name.get(lang)) for c in data.cards]


def project_data(tmp_path, cards=CARDS):
    data, _ = load(make_project(tmp_path, cards))
    return data


def test_proof_pages_and_text(tmp_path):
    data = project_data(tmp_path, CARDS.replace("Lízni 2 karty", "Lízni 3 karty"))
    findings = check_language(data)
    pdf = build_proof(data, faces(data, "en"), faces(data, "cs"), findings, fake_draw, Layout())
    pages = pdf_text(tmp_path, pdf, "proof.pdf")
    assert len(pages) == 3
    first = " ".join(pages[0].split())
    assert "Cards / Karty 2" in first
    assert "Errors / Chyby 1" in first
    assert "Deed čin" in first and "counter zrušit kontrou" in first
    philip = " ".join(pages[1].split())
    assert "market 20: Philip VI / Filip VI. (philip-vi)" in philip
    assert "FACE en Philip VI" in philip and "FACE cs Filip VI." in philip
    assert "Draw 2 cards. Move John 1 step toward Charles." in philip
    assert "error[lang-numbers] (cs)" in philip
    # errors come before the warnings of the same card
    assert philip.index("error[lang-numbers]") < philip.index("warning[typo-nbsp")
    assert build_proof(data, faces(data, "en"), faces(data, "cs"), findings, fake_draw,
                       Layout()) == pdf


def test_proof_only_problems(tmp_path):
    data = project_data(tmp_path, CLEAN.replace(f"Lízni 2{NB}karty", f"Lízni 3{NB}karty"))
    pdf = build_proof(data, faces(data, "en"), faces(data, "cs"), check_language(data),
                      fake_draw, Layout(), only_problems=True)
    pages = pdf_text(tmp_path, pdf, "proof.pdf")
    assert len(pages) == 2
    assert "philip-vi" in pages[1]


def test_proof_with_the_real_renderer(tmp_path):
    compose = pytest.importorskip("cardgen.compose")
    card = pytest.importorskip("cardgen.render.card")
    layout_mod = pytest.importorskip("cardgen.layout")
    project = make_project(tmp_path)
    for part in ("text", "rules"):
        shutil.copytree(ROOT / "card_data" / part, project / "card_data" / part,
                        dirs_exist_ok=True)
    data, _ = load(project)
    layout = layout_mod.load_layout(ROOT / "layouts" / "card.yaml")
    pdf = build_proof(data, compose.compose_faces(data, "en", project),
                      compose.compose_faces(data, "cs", project), check_language(data),
                      card.draw_card, layout)
    pages = pdf_text(tmp_path, pdf, "real.pdf")
    assert len(pages) == 3
    text = " ".join(pages)
    assert "Blanka z Valois" in text and "Blanche de Valois" in text and "Filip VI." in text


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
    cs = build_glossary_sheet(data, "cs", Layout.fonts)
    assert build_glossary_sheet(data, "cs", Layout.fonts) == cs
    (page,) = pdf_text(tmp_path, cs, "cs.pdf")
    lines = [" ".join(ln.split()) for ln in page.splitlines() if ln.strip()]
    assert lines[:2] == ["Volba římského krále — slovníček", "Slovníček pojmů"]
    assert "Slovníček názvů karet" in lines
    terms = [ln for ln in lines if ln in ("hlas vote", "chata", "čin Deed", "čísla Numbers",
                                          "dvůr Court", "herní oblast play area")]
    assert terms == ["čin Deed", "čísla Numbers", "dvůr Court", "herní oblast play area",
                     "hlas vote"]
    (en_page,) = pdf_text(tmp_path, build_glossary_sheet(data, "en", Layout.fonts), "en.pdf")
    assert "Glossary of card names" in en_page
    assert name_pairs(data, "cs") == [("Blanka z Valois", "Blanche de Valois"),
                                      ("Filip VI.", "Philip VI")]
