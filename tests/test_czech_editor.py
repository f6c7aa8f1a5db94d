"""Issue 29: the Czech editor's corrections, read back from the printed PDFs (pdftotext) of
one build of the shipped game, in both languages."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from cardgen.cli import main
from cardgen.impose.calibration import BackOffsetError, offset_argument, parse_back_offset
from tests.conftest import copy_project

#: a one-letter Czech word (preposition, conjunction) ending a line
ONE_LETTER_END = re.compile(r"(?:^|\s)[vkszouaiVKSZOUAI]$")
#: a number ending a line whose next line starts with a word (its noun)
NUMBER_END = re.compile(r"(?:^|\s)\d+(?:,\d+)?$")
#: board tiles cut the board's text at the tile edges on purpose (the sheets overlap)
CUT_BY_DESIGN = ("board-a4.pdf", "board-letter.pdf")


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    project = copy_project(tmp_path_factory.mktemp("editor") / "project")
    assert main(["--project", str(project), "build", "--quiet"]) == 0
    assert main(["--project", str(project), "tables"]) == 0
    return project / "output"


def text(pdf: Path, first: int | None = None, last: int | None = None) -> str:
    pages = [*(["-f", str(first)] if first else []), *(["-l", str(last)] if last else [])]
    return subprocess.run(["pdftotext", *pages, str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout


def flat(pdf: Path, first: int | None = None, last: int | None = None) -> str:
    """The page text with every run of white space (line breaks included) as one space."""
    return " ".join(text(pdf, first, last).replace("\u00a0", " ").split())


# --- 1: the instructions page does not call itself blank; „lícová“ ---------------------

@pytest.mark.parametrize(("lang", "says", "not_said"), [
    ("en", "The back of this sheet stays blank, so every card page starts on a sheet front.",
     "This side of the first sheet stays blank"),
    ("cs", "Zadní strana tohoto listu zůstává prázdná, aby stránky s kartami začínaly na "
           "lícové straně listu.", "Tato strana prvního listu"),
])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_instructions_say_the_back_of_the_sheet_stays_blank(out, lang, says, not_said, paper):
    page1 = flat(out / lang / f"sheets-{paper}.pdf", 1, 1)
    assert says in page1 and not_said not in page1
    assert "lícní" not in page1
    # the card sheets are counted apart from the instruction sheet (correction 35)
    assert ("82 cards on 10 sheets" if lang == "en" else "82 karet na 10 listech") in page1


# --- 2: the calibration offset and the Czech decimal comma ------------------------------

@pytest.mark.parametrize(("lang", "example", "reading"), [
    ("en", 'cardgen build --back-offset "1.5;-0.5"', "X = 1.5 mm and Y = −0.5 mm"),
    ("cs", 'cardgen build --back-offset "1,5;-0,5"', "X = 1,5 mm a Y = −0,5 mm"),
])
def test_calibration_prints_a_command_that_cannot_be_misread(out, lang, example, reading):
    pdf = out / lang / "calibration-a4.pdf"
    for page in (1, 2):
        printed = flat(pdf, page, page)
        assert 'cardgen build --back-offset "X;Y"' in printed
        assert example in printed and reading in printed
        assert "X,Y" not in printed and "0,0" not in printed
    # the example on the sheet is exactly what the option reads
    assert parse_back_offset(example.split()[-1].strip('"')) == (1.5, -0.5)


@pytest.mark.parametrize(("value", "offset"), [
    ("1,5;-0,5", (1.5, -0.5)), ("1.5;-0.5", (1.5, -0.5)), ("1.5,-0.5", (1.5, -0.5)),
    ("2,-1", (2.0, -1.0)), ("0;0", (0.0, 0.0)), (" 1,5 ; \u22120,5 ", (1.5, -0.5)),
])
def test_back_offset_reads_either_decimal_sign(value, offset):
    assert parse_back_offset(value) == offset


@pytest.mark.parametrize(("value", "message"), [
    ("1,5", "'1,5' is ambiguous: X = 1.5 mm, or X = 1 mm and Y = 5 mm?"),
    ("0,0", "is ambiguous"),
    ("1,5,-0,5", 'separated by a semicolon, like "1.5;-0.5" or "1,5;-0,5"'),
    ("1;2;3", "separated by a semicolon"),
    ("nan;0", "finite"),
    ("12;0", "beyond 10 mm"),
])
def test_back_offset_refuses_an_ambiguous_or_bad_value(value, message):
    with pytest.raises(BackOffsetError, match=re.escape(message)):
        parse_back_offset(value)


def test_build_refuses_the_ambiguous_czech_offset_before_writing(project, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["build", "--project", str(project), "--back-offset", "1,5"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--back-offset" in err and "ambiguous" in err and '"1,5;0"' in err
    assert not (project / "output").exists()


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_offset_argument_round_trips(lang):
    for x, y in ((1.5, -0.5), (-2.0, 3.25), (0.0, 0.0)):
        assert parse_back_offset(offset_argument(x, y, lang).strip('"')) == (x, y)


# --- 3: the glossary's English column keeps English quotes -----------------------------

@pytest.mark.parametrize("lang", ["en", "cs"])
def test_glossary_english_column_keeps_english_quotes(out, lang):
    printed = flat(out / lang / "glossary.pdf")
    assert "Margaret “Maultasch”" in printed
    assert "Margaret „Maultasch“" not in printed
    assert "VLA-61" not in printed  # no internal id


def test_glossary_prints_whole_numbers_only_and_no_empty_column(out):
    printed = flat(out / "cs" / "glossary.pdf")
    assert "1 vliv · 2 vlivu · 5 vlivu" in printed
    assert "1,5" not in printed
    assert "tvary" in printed.split("Štíty", 1)[0]  # the forms column is there for places
    shields = printed.split("Štíty", 1)[1].split("Měny", 1)[0]
    assert "tvary" not in shields  # but dropped where every row is empty


@pytest.mark.parametrize(("lang", "label"), [
    ("en", "a line used from the hand, not a Deed, 6.46"),
    ("cs", "řádek z ruky, ne čin, 6.46"),
])
def test_glossary_says_writing_history_is_not_a_deed(out, lang, label):
    assert label in flat(out / lang / "glossary.pdf")


# --- 4: vote markers are „ukazatele hlasů“ (3.24, 7.3) ---------------------------------

@pytest.mark.parametrize(("lang", "says", "not_said"), [
    ("en", ["Vote markers", "A marker in an elector box"], "Vote tokens"),
    ("cs", ["Ukazatele hlasů", "Ukazatel v poli kurfiřta"], "Žetony hlasů"),
])
def test_rules_tables_call_votes_markers(out, lang, says, not_said):
    printed = flat(out / lang / "rules-tables.pdf")
    assert all(s in printed for s in says) and not_said not in printed
    assert "Žeton v poli kurfiřta" not in printed


def test_rules_tables_mark_only_prototype_values(out):
    md = (out / "cs" / "rules-tables.md").read_text(encoding="utf-8")
    key_terms = md.split("## 1.4", 1)[1].split("\n## ", 1)[0]
    assert "\\*" not in key_terms  # a definition is wording, not a prototype value
    assert "4\\*" in md  # the stabilities still are
    printed = flat(out / "cs" / "rules-tables.pdf")
    assert "Podle pravidel v0.27.4 a dat karet v0.5.1" in printed
    assert printed.count("Bitva u Kresčaku, Wittelsbachové získají 1 hlas") == 1


def test_rules_tables_keep_a_regnal_number_with_its_name(out):
    lines = text(out / "cs" / "rules-tables.pdf").splitlines()
    assert not [ln for ln in lines if re.match(r"\s*[IVX]+\.", ln)]


# --- layout slips a new user sees ---------------------------------------------------

@pytest.mark.parametrize(("lang", "cell", "note"), [
    ("en", ("4 plays", "hand 5"), "Card-play track"),
    ("cs", ("4 zahrání", "ruka 5"), "Stupnice zahrání"),
])
def test_board_round_boxes_say_what_each_number_is(out, lang, cell, note):
    printed = flat(out / lang / "board.pdf")
    plays, hand = cell
    assert printed.count(plays) == 2 and printed.count(hand) == 2  # rounds 1 and 2 (4.2)
    assert note in printed and "4–5" not in printed


@pytest.mark.parametrize(("lang", "row"), [("en", "Rounds 1–2: 4 plays, hand 5"),
                                           ("cs", "1.–2. kolo: 4 zahrání, ruka 5")])
def test_player_aid_says_what_each_number_is(out, lang, row):
    printed = flat(out / lang / "player-aid.pdf")
    assert printed.count(row) == 2 and "4–5" not in printed  # both halves (4.2, 4.3)


@pytest.mark.parametrize(("lang", "note"), [("en", "no military may be placed here"),
                                            ("cs", "sem nelze umístit vojsko")])
def test_blocked_token_says_what_it_blocks(out, lang, note):
    assert note in flat(out / lang / "tokens.pdf", 1, 1)


@pytest.mark.parametrize(("lang", "lines"), [
    ("en", ["A Vote for the King", "of the Romans"]),
    ("cs", ["Volba římského krále"]),
])
def test_back_title_breaks_between_phrases(out, lang, lines):
    printed = [ln.strip() for ln in text(out / lang / "back.pdf").splitlines() if ln.strip()]
    assert printed[:len(lines)] == lines


# --- keep true over every output ------------------------------------------------------

def line_end_problems(pdf: Path) -> list[str]:
    lines = [ln.rstrip() for ln in text(pdf).replace("\u00a0", " ").splitlines()]
    found = []
    for line, after in zip(lines, [*lines[1:], ""], strict=True):
        if not after.strip():
            continue
        if ONE_LETTER_END.search(line):
            found.append(f"one-letter word at a line end: {line[-30:]!r} / {after[:20]!r}")
        if (NUMBER_END.search(line) and not line.strip().isdigit()
                and re.match(r"\s*[^\W\d_]", after)):
            found.append(f"number split from its noun: {line[-30:]!r} / {after[:20]!r}")
    return found


def test_no_czech_line_ends_in_a_one_letter_word_or_a_number(out):
    pdfs = [p for p in sorted((out / "cs").glob("*.pdf")) if p.name not in CUT_BY_DESIGN]
    assert len(pdfs) >= 13  # cards, sheets, print shop, board, tokens, aid, tables …
    problems = {p.name: line_end_problems(p) for p in pdfs}
    assert not {k: v for k, v in problems.items() if v}


def test_the_line_end_check_finds_what_it_looks_for(tmp_path):
    """The check above is not vacuous: a page with both faults is caught."""
    from reportlab.pdfgen.canvas import Canvas
    pdf = tmp_path / "bad.pdf"
    c = Canvas(str(pdf))
    for i, line in enumerate(("Umísti vliv v", "Mohuči a lízni 2", "karty.")):
        c.drawString(72, 700 - 14 * i, line)
    c.save()
    assert len(line_end_problems(pdf)) == 2
