"""`cardgen proof --changed-since`: only what changed since an earlier build or git revision,
word by word, with the overflow of a face shown; what a reviewer sees in the PDF."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from cardgen.cli import main
from cardgen.data.load import load
from cardgen.translate.review import Earlier, changes, removed, word_diff
from tests.conftest import copy_project, replace_in

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None or shutil.which("pdftoppm")
                                is None, reason="needs poppler-utils (pdftotext, pdftoppm)")

LUX = Path("card_data") / "cards" / "luxembourg.yaml"
NB = "\u00a0"
CHARLES_CS = f'cs: "Umísti 2{NB}vlivu do Čech. Lízni 1{NB}kartu."'
CHARLES_EN = 'en: "Place 2 influence in Bohemia. Draw 1 card."'
YELLOW, PINK, RED = (0xFF, 0xE3, 0x6E), (0xF6, 0xB4, 0xB4), (0xD0, 0x02, 0x1B)


@pytest.fixture(scope="module")
def old(tmp_path_factory) -> Path:
    """The output/ of a build of the shipped project: its manifests are the earlier state."""
    project = copy_project(tmp_path_factory.mktemp("old") / "project")
    assert main(["--project", str(project), "build", "--quiet"]) == 0
    return project / "output"


def run(project: Path, capsys, *args: str) -> tuple[int, str]:
    code = main(["--project", str(project), *args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def proof_text(project: Path) -> str:
    """The proof as pdftotext reads it in content order, spaces collapsed."""
    pdf = project / "output" / "proof" / "cs-en-changes.pdf"  # what --changed-since writes
    out = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True,
                         check=True).stdout
    return " ".join(out.split())


def shown_cards(project: Path, text: str) -> set[str]:
    return {c.id for c in load(project)[0].cards if f"({c.id})" in text}


def colour_pixels(project: Path, card_id: str, colour: tuple[int, int, int]) -> int:
    """How many pixels (at 50 dpi) of the proof page showing ``card_id`` have ``colour``
    (±6 a channel)."""
    pdf = project / "output" / "proof" / "cs-en-changes.pdf"  # what --changed-since writes
    pages = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                           check=True).stdout.split("\f")
    page = str(next(n for n, text in enumerate(pages, 1) if f"({card_id})" in text))
    stem = project / "output" / "card-page"
    subprocess.run(["pdftoppm", "-r", "50", "-png", "-singlefile", "-f", page, "-l", page,
                    str(pdf), str(stem)], check=True)
    with Image.open(f"{stem}.png") as img:
        rgb = img.convert("RGB")
        counts = rgb.getcolors(rgb.width * rgb.height) or []
    return sum(n for n, p in counts if all(abs(a - b) <= 6 for a, b in zip(p, colour, strict=True)))


def test_the_manifest_keeps_each_cards_printed_texts(old):
    cards = {c["id"]: c for c in json.loads((old / "cs" / "manifest.json").read_text())["cards"]}
    assert cards["charles-iv"]["texts"]["deed"] == f"Umísti 2{NB}vlivu do Čech. Lízni 1{NB}kartu."
    assert cards["charles-iv"]["texts"]["deed.name"] == "Otec vlasti"


def test_changed_since_a_manifest_shows_only_the_changed_card_word_by_word(project, old, capsys):
    replace_in(project / LUX, CHARLES_CS, f'cs: "Umísti 2{NB}vlivu do Čech. Pak lízni 1{NB}kartu."')
    replace_in(project / LUX, CHARLES_EN, 'en: "Place 2 influence in Bohemia. Then draw 1 card."')
    full = project / "output" / "proof" / "cs-en.pdf"
    full.parent.mkdir(parents=True, exist_ok=True)
    full.write_bytes(b"the full proof of every card")
    code, out = run(project, capsys, "proof", "--changed-since", str(old / "cs" / "manifest.json"))
    assert code == 0, out
    assert "cs-en-changes.pdf" in out
    assert full.read_bytes() == b"the full proof of every card"  # written beside, not over it
    text = proof_text(project)
    assert shown_cards(project, text) == {"charles-iv"}
    assert "Changed / Změněno 1" in text and "New / Nové 0" in text
    pages = subprocess.run(["pdftotext", str(project / "output" / "proof" / "cs-en-changes.pdf"),
                            "-"], capture_output=True, text=True, check=True).stdout.split("\f")
    headings = ("Glossary / Slovníček pojmů", "Data findings / Nálezy v datech")
    last_lines = [[ln for ln in page.splitlines() if ln.strip()][-1:] for page in pages]
    assert not [ln for ln in last_lines if ln and ln[0].strip() in headings]  # none at a foot
    assert "(charles-iv) — changed: en, cs" in text
    # now and was, in both languages; the canonical Czech beside the written; the state
    assert "Umísti 2 vlivu do Čech. Pak lízni 1 kartu." in text
    assert "was: Umísti 2 vlivu do Čech. Lízni 1 kartu." in text
    assert "Place 2 influence in Bohemia. Then draw 1 card." in text
    assert "was: Place 2 influence in Bohemia. Draw 1 card." in text
    # the written Czech, then the canonical, then the state `cardgen check` reports: the
    # English changed since this Czech was translated, so it is fuzzy
    assert ("was: Umísti 2 vlivu do Čech. Lízni 1 kartu. "
            "Umísti 2 vlivu do Čech. Lízni 1 kartu. fuzzy") in text
    # the changed words are marked: yellow behind the new ones, pink behind the old
    assert colour_pixels(project, "charles-iv", YELLOW) > 20
    assert colour_pixels(project, "charles-iv", PINK) > 10


def test_nothing_changed_shows_no_card(project, old, capsys):
    code, out = run(project, capsys, "proof", "--changed-since", str(old / "en" / "manifest.json"))
    assert code == 0, out
    text = proof_text(project)
    assert shown_cards(project, text) == set()
    assert "Changed / Změněno 0" in text and "nothing changed" in text


def test_an_overflowing_card_is_framed_in_red_with_the_lines_it_drops(project, old, capsys):
    long = " ".join(["Umísti 2 vlivu do Čech a pak zvaž, co dál."] * 12)
    replace_in(project / LUX, CHARLES_CS, f'cs: "{long}"')
    code, out = run(project, capsys, "proof", "--changed-since", str(old / "cs" / "manifest.json"))
    assert code == 0, out
    text = proof_text(project)
    assert shown_cards(project, text) == {"charles-iv"}
    assert "lines dropped" in text
    assert colour_pixels(project, "charles-iv", RED) > 100  # the frame round the Czech face


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_changed_since_a_git_revision(project, capsys):
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(project), "-c", "user.name=t", "-c", "user.email=t@t",
                        *args], check=True, capture_output=True)

    git("init", "-q")
    git("add", "card_data")
    git("commit", "-q", "-m", "before")
    replace_in(project / LUX, "cs: Blanka z\u00a0Valois", "cs: Blanka Valois")
    lux = project / LUX
    lux.write_text(lux.read_text("utf-8").replace("political: 3", "political: 4", 1), "utf-8")
    code, out = run(project, capsys, "proof", "--changed-since", "HEAD")
    assert code == 0, out
    text = proof_text(project)
    assert shown_cards(project, text) == {"blanche-de-valois", "charles-iv"}
    # the value change beside the texts, as `cardgen diff` says it
    assert "value / hodnota: charles-iv political 3 → 4 (card_data/cards/luxembourg.yaml:" in text
    assert "(blanche-de-valois) — changed: cs" in text and "Compared with / Porovnáno s git HEAD" in text
    assert "was: Blanka z Valois" in text
    code, out = run(project, capsys, "proof", "--changed-since", "HEAD~3")
    assert code == 2
    assert "--changed-since HEAD~3: neither a manifest file nor a revision" in out


def test_word_diff_marks_whole_words():
    now, was = word_diff(f"Lízni 1{NB}kartu.", f"Pak lízni 1{NB}kartu.")
    assert now == [("Pak", True), ("lízni", True), (f"1{NB}kartu.", False)]
    assert was == [("Lízni", True), (f"1{NB}kartu.", False)]


def test_new_and_removed_cards():
    earlier = Earlier("old", {"en": {"a": {"name": "A"}, "gone": {"name": "Gone"}}})
    now = {"en": {"a": {"name": "A"}, "b": {"name": "B"}}}
    found = changes(earlier, now)
    assert set(found) == {"b"} and found["b"].describe() == "new card"
    assert removed(earlier, now) == [("gone", "Gone")]


def test_a_manifest_without_texts_is_compared_by_hash():
    earlier = Earlier("old", {}, {"en": {"a": "h1", "b": "h2"}})
    now = {"en": {"a": {"name": "A"}, "b": {"name": "B"}}}
    found = changes(earlier, now, {"en": {"a": "h1", "b": "h3"}})
    assert set(found) == {"b"}
    assert found["b"].describe() == "content hash changed (the earlier manifest keeps no texts)"
