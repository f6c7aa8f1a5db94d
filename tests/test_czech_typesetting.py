"""Czech set as a typesetter would (issue 13, items 4 and 6): no one-letter word ends a line,
a break leaves at least 2 letters before and 3 after it, no break inside a proper name, a
hyphen only where it pays, no word broken twice on one card — on the cards and on every
board, aid, token and sheet text (their labels get the typography of card text)."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import at, copy_project, replace_in
from reportlab.pdfbase.pdfmetrics import stringWidth

from cardgen.cli import main
from cardgen.fonts import register_font, wrap_words
from cardgen.render import textflow
from cardgen.wording.components import load_components
from cardgen.wording.language import NBSP

ROOT = Path(__file__).resolve().parent.parent
FONT = ROOT / "fonts" / "CharisSIL-Regular.ttf"
ONE_LETTER = set("vkszouaiVKSZOUAI")
_PAGE = re.compile(r'<page width="([\d.]+)" height="[\d.]+">(.*?)</page>', re.S)
_BLOCK = re.compile(r"<block [^>]*>(.*?)</block>", re.S)
_LINE = re.compile(r"<line [^>]*>(.*?)</line>", re.S)
_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">(.*?)</word>')


def line_problems(pdf: Path, czech: bool) -> list[str]:
    """Lines of ``pdf`` (pdftotext's own line grouping, with positions) that end with a
    one-letter Czech word, or break a word leaving < 2 letters before or < 3 after. A word
    cut by the page edge (a board tile) is not a line end."""
    xml = subprocess.run(["pdftotext", "-bbox-layout", str(pdf), "-"], capture_output=True,
                         text=True, check=True).stdout
    out = []
    for number, (width, body) in enumerate(_PAGE.findall(xml), 1):
        for block in _BLOCK.findall(body):
            lines = [[(float(a), float(b), html.unescape(t)) for a, b, t in _WORD.findall(ln)]
                     for ln in _LINE.findall(block)]
            for i, words in enumerate(lines):
                if not words:
                    continue
                x0, x1, last = words[-1]
                if x1 > float(width) - 15 or x0 < 3:
                    continue
                said = " ".join(w[2] for w in words)
                if czech and last in ONE_LETTER and len(words) > 1:
                    out.append(f"{pdf.name} p{number}: ends with '{last}': {said}")
                m = re.search(r"(\w*)-$", last)
                if m and i + 1 < len(lines) and lines[i + 1]:
                    tail = re.sub(r"\W", "", lines[i + 1][0][2])
                    if len(m.group(1)) < 2 or len(tail) < 3:
                        out.append(f"{pdf.name} p{number}: breaks '{last}' / '{tail}'")
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    project = copy_project(tmp_path_factory.mktemp("built") / "project")
    assert main(["--project", str(project), "build", "--quiet"]) == 0
    assert main(["--project", str(project), "proof"]) == 0  # output/proof/ is under output/ too
    return project / "output"


def test_no_pdf_ends_a_line_with_a_one_letter_word_or_breaks_short(built):
    pdfs = sorted(built.rglob("*.pdf"))
    assert {p.name for p in pdfs} >= {"cards.pdf", "board.pdf", "board-a4.pdf", "tokens.pdf",
                                       "player-aid.pdf", "sheets-a4.pdf"}
    assert (built / "proof" / "cs-en.pdf") in pdfs
    # the proof sets English and Czech side by side: its breaks are checked, not its
    # one-letter words (an English "a" may end an English line)
    problems = [p for pdf in pdfs for p in line_problems(pdf, pdf.parent.name == "cs")]
    assert problems == []


def test_the_scan_sees_what_it_must(tmp_path):
    """The scan above is not blind: a board label without typography is caught."""
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    from reportlab.pdfgen.canvas import Canvas
    pdf = tmp_path / "cs" / "x.pdf"
    pdf.parent.mkdir()
    c = Canvas(str(pdf), pagesize=(400, 400))
    c.setFont("Helvetica", 10)
    c.drawString(20, 300, "kontrola na konci kola: bonus v")
    c.drawString(20, 288, "příštím kole; odhazova-")
    c.drawString(20, 276, "cí balíček")
    c.save()
    assert [p.split(": ", 1)[1].split(":")[0] for p in line_problems(pdf, True)] == [
        "ends with 'v'", "breaks 'odhazova-' / 'cí'"]


def test_component_labels_get_card_text_typography():
    comp, findings = load_components(at(ROOT))
    assert comp is not None and not findings
    assert f"bonus v{NBSP}příštím" in comp.label("legend_bonus", "cs")
    assert f"ním), a{NBSP}zezadu" in comp.label("tiles_howto", "cs")
    assert "1322–1346" in comp.label("subtitle", "cs")


def test_wrapped_labels_never_break_at_a_non_breaking_space():
    font = register_font(FONT)
    text = f"kontrola na konci kola: bonus v{NBSP}příštím kole"
    width = stringWidth("kontrola na konci kola: bonus v", font, 10) + 1
    lines = wrap_words(text, font, 10, width)
    assert lines == ["kontrola na konci kola: bonus", "v příštím kole"]
    assert all(NBSP not in ln for ln in lines)  # ready to draw


# --- hyphenation (item 6) -------------------------------------------------------------


def _set(text: str, width_chars: float, *, fitting: bool, rules=None, size: float = 10):
    font = register_font(FONT)
    m = textflow._Measure({"body": font}, textflow.IconSet(lambda t, s: s, lambda *a: None), size)
    width = stringWidth("n", font, size) * width_chars
    lines, _ = textflow.set_para(textflow.paragraph(text), width, m, "cs_CZ",
                                 rules or textflow.Hyphenation(2, 3, 5, 0.3), fitting=fitting)
    return [" ".join(p.atom.text for p in ln.items) for ln in lines]  # one atom a word here


def _breaks(lines: list[str]) -> list[tuple[str, str]]:
    return [(a.split()[-1], b.split()[0]) for a, b in pairwise(lines)
            if a.endswith("-")]


def test_a_break_leaves_two_letters_before_and_three_after():
    for width in range(10, 40):
        for head, tail in _breaks(_set("Odstraň 2 vojska soupeře z jednoho bojiště a získej "
                                       "1 církevní měnu; odhazovacího balíčku", width,
                                       fitting=True)):
            assert len(re.sub(r"\W", "", head)) >= 2 and len(re.sub(r"\W", "", tail)) >= 3, \
                (width, head, tail)


def test_a_proper_name_is_never_broken():
    for width in range(14, 40):
        lines = _set("Umísti 4 vojska do Lombardie a posuň věrnost k Ludvíkovi", width,
                     fitting=True)
        assert not any(head.startswith(("Lom", "Lud")) for head, _ in _breaks(lines)), lines


def test_a_word_that_fits_on_the_next_line_is_not_broken_for_a_small_gain():
    # the line would end 2 letters short: not worth a hyphen while the text fits
    text = "posuň Janovu věrnost zahrajete"
    width = len("posuň Janovu věrnost za") + 1
    assert _breaks(_set(text, width, fitting=False)) == []
    # a line left half empty is worth one
    assert _breaks(_set("posuň odhazovacího", 14, fitting=False)) != []


def test_no_word_is_broken_twice_in_one_block():
    text = " ".join(["odhazovacího balíčku"] * 6)
    lines = _set(text, 17, fitting=True)
    assert len([h for h, _ in _breaks(lines) if h.startswith("odhazo")]) <= 1, lines


def test_a_board_text_is_checked_at_its_line_and_repaired_by_fix(project, capsys):
    comp = project / "card_data" / "components.yaml"
    line = replace_in(comp, f"bonus v{NBSP}příštím kole", "bonus v příštím kole")
    assert main(["--project", str(project), "check"]) == 0
    out = capsys.readouterr().out
    assert (f"card_data/components.yaml:{line}:" in out and "warning[typo-nbsp-prep]" in out
            and "labels.legend_bonus: a one-letter word needs a non-breaking space after it: "
            "'v příštím'" in out)
    assert main(["--project", str(project), "check", "--fix"]) == 0
    assert f"bonus v{NBSP}příštím kole" in comp.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["--project", str(project), "check"]) == 0
    assert "0 errors, 1 warning," in capsys.readouterr().out  # the shipped data has no art yet


def _said(pdf: Path) -> str:
    out = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                         check=True).stdout
    return " ".join(out.split())


def test_the_editors_corrections_are_printed(built):
    """Item 9 on paper: the aid, the tokens and the sheets as the Czech editor wrote them."""
    aid, tokens, sheets = (_said(built / "cs" / f) for f in ("player-aid.pdf", "tokens.pdf",
                                                              "sheets-a4.pdf"))
    for phrase in ("s bonusem k dobírání", "na každém bojišti ubude", "Konec kola (kroky vpravo)",
                   "Strany se střídají", "Získej výnos měny", "s bonusem k zahrání",
                   "pak kartu použij buď na čísla, nebo na čin", "strana s větším vlivem získá 1 hlas",
                   "karty z ruky i z herní oblasti", "smíš 3 jednotkami jedné měny zaplatit",
                   # the December 2026 review (issue 29, nos. 12–15, 37, 38)
                   "za každé ovládané bojiště", "strana, která ovládá méně kurfiřtů",
                   "v ruce nejvýše 1 kartu", "posune se jeho ukazatel", "ostatní vliv odstraň"):
        assert phrase in aid
    assert "oblast zahraných karet" not in aid  # the glossary's "herní oblast" (play area)
    assert "níže" not in aid and "Střídejte" not in aid and "přejde:" not in aid
    assert "sem nelze umístit vojsko" in tokens and "+1 k politickým číslům" in tokens
    assert "82 karet na 10 listech" in sheets and "1 list s pokyny" in sheets
    assert "převracejte podél delší hrany" in tokens and "převracejte podél DELŠÍ hrany" in sheets
    assert ("Initiative: the side that controls fewer electors chooses who starts; if tied, "
            in _said(built / "en" / "player-aid.pdf"))


def test_a_sheet_instruction_is_checked_at_its_line(project, capsys):
    line = replace_in(project / "layouts" / "sheets.yaml", f"karty k{NBSP}vytištění",
                      "karty k vytištění")
    assert main(["--project", str(project), "check"]) == 0
    out = capsys.readouterr().out
    assert f"layouts/sheets.yaml:{line}:" in out and "strings.cs.title: a one-letter word" in out


def test_an_aid_text_that_rewords_a_glossary_phrase_is_a_warning_at_its_czech_line(
        project, capsys):
    """The aid said "oblast zahraných karet" for the play area (glossary: herní oblast)."""
    line = replace_in(project / "card_data" / "components.yaml", f"z{NBSP}herní oblasti jdou",
                      f"z{NBSP}oblasti zahraných karet jdou")
    assert main(["--project", str(project), "check"]) == 0
    out = capsys.readouterr().out
    assert (f"card_data/components.yaml:{line}:12: warning[lang-glossary] (cs): "
            "aid.round_end[5]: the English uses the term 'play area' but the Czech has no "
            "'herní oblast' [rule 5.4]") in out
    assert main(["--project", str(project), "check", "--strict"]) == 1
