"""One full `cardgen build` of the shipped game, inspected as a printer would inspect it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from cardgen.cli import main
from tests.conftest import copy_project

MM = 72 / 25.4
LANGS = ("en", "cs")
FILES = ("cards.pdf", "back.pdf", "sheets-a4.pdf", "sheets-letter.pdf", "print-shop.pdf",
         "manifest.json", "manifest.txt", "board.pdf", "board-a4.pdf", "board-letter.pdf",
         "tokens.pdf", "tokens-letter.pdf", "player-aid.pdf", "glossary.pdf")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    project = copy_project(tmp_path_factory.mktemp("build") / "project")
    assert main(["--project", str(project), "build", "--quiet"]) == 0
    return project / "output"


def tool(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def pages(pdf: Path) -> int:
    return int(re.search(r"^Pages:\s+(\d+)", tool("pdfinfo", str(pdf)), re.M).group(1))


def boxes(pdf: Path, page: int) -> dict[str, tuple[float, ...]]:
    out = tool("pdfinfo", "-box", "-f", str(page), "-l", str(page), str(pdf))
    found = {}
    for name in ("MediaBox", "TrimBox", "BleedBox"):
        m = re.search(rf"{name}:\s+([\d.\s-]+)", out)
        found[name] = tuple(round(float(v) / MM, 1) for v in m.group(1).split())
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_every_output_exists(built, lang):
    missing = [name for name in FILES if not (built / lang / name).is_file()]
    assert not missing


def test_the_build_writes_the_art_template(built):
    """art/README.md's template: the art box at its 300 ppi minimum (issue 40.3)."""
    from PIL import Image

    with Image.open(built / "art-template.png") as img:
        assert img.size == (745, 497)


@pytest.mark.parametrize("lang", LANGS)
def test_every_pdf_is_structurally_sound_with_all_fonts_embedded(built, lang):
    for pdf in sorted((built / lang).glob("*.pdf")):
        subprocess.run(["qpdf", "--check", str(pdf)], capture_output=True, check=True)
        rows = tool("pdffonts", str(pdf)).splitlines()[2:]
        not_embedded = [r for r in rows if r.split()[-5] != "yes"]
        assert not not_embedded, f"{pdf.name}: {not_embedded}"


@pytest.mark.parametrize("lang", LANGS)
def test_card_pdf_has_one_page_per_physical_card_with_trim_and_bleed(built, lang):
    cards = built / lang / "cards.pdf"
    assert pages(cards) == 82
    for page in (1, 82):
        b = boxes(cards, page)
        assert b["MediaBox"] == (0, 0, 69, 94)  # 63 × 88 mm + 3 mm bleed
        assert b["BleedBox"] == b["MediaBox"]
        assert b["TrimBox"] == (3, 3, 66, 91)


@pytest.mark.parametrize(("name", "size"), [("sheets-a4.pdf", (210, 297)),
                                            ("sheets-letter.pdf", (215.9, 279.4))])
def test_home_sheets_are_exact_paper_with_22_pages(built, name, size):
    for lang in LANGS:
        pdf = built / lang / name
        assert pages(pdf) == 22  # instructions + blank reverse, 10 × (fronts, backs)
        w, h = boxes(pdf, 3)["MediaBox"][2:]
        assert (w, h) == size


def test_czech_text_is_extractable(built):
    text = tool("pdftotext", str(built / "cs" / "cards.pdf"), "-")
    assert "Karel IV." in text and "Lízni" in text and "Kresčaku" in text
    board = tool("pdftotext", str(built / "cs" / "board.pdf"), "-")
    for place in ("Mohuč", "Trevír", "Čechy", "Falc", "Sasko", "Braniborsko", "Lombardie"):
        assert place in board


def test_a_second_build_changes_nothing_and_bytes_are_identical(built):
    before = {p: p.read_bytes() for p in built.rglob("*.pdf")}
    project = built.parent
    assert main(["--project", str(project), "build", "--quiet"]) == 0
    assert {p: p.read_bytes() for p in built.rglob("*.pdf")} == before


def test_a_rebuild_says_nothing_changed_and_still_reports_placeholder_art(built, capsys):
    assert main(["--project", str(built.parent), "build"]) == 0
    out = capsys.readouterr().out
    assert "warning[art-placeholder]: 76 of 76 cards have no art yet" in out
    assert "fix: add art/<card id>.png or .jpg" in out
    assert out.strip().splitlines()[-1].startswith("nothing changed; 1 warning;")
    # issue 41 item 7: the generic profile's file is RGB, and the build says what a press needs
    (rgb,) = [line for line in out.splitlines() if "info[press-rgb]" in line]
    assert "print-shop.pdf (generic) is RGB" in rgb and "--cmyk" in rgb and "--pdfx" in rgb
