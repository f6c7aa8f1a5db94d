"""Regular expressions in data files are untrusted (issue 26, item 2): a glossary `forbidden`
pattern or a `meaning:` entry that does not compile, or that could backtrack for ever, is an
error at its line with exit 1, within a small memory ceiling (a runaway match stops at its
time limit, cardgen/data/patterns.py)."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from cardgen.cli import main
from cardgen.data.patterns import PatternError, bounded
from tests.conftest import replace_in
from tests.test_budget import ceiling

GLOSSARY = Path("card_data") / "glossary.yaml"
EN = Path("card_data") / "text" / "en.yaml"
CANCEL = r"- {pattern: '\bcancel(s|led|ling)?\b', use: counter}"


def _check(project: Path, capsys, bounded: bool = False) -> tuple[int, str]:
    with ceiling() if bounded else contextlib.nullcontext():
        code = main(["--project", str(project), "check"])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize(("pattern", "says"), [
    ("(", "not a regular expression"),
    ("(a+)+$", "repeats a group that itself repeats"),
    (r"(\w+\s?)+$", "repeats a group that itself repeats"),
    ("x" * 600, "at most 500"),
    ("(?:(?:(?:a{100}){100}){100}){100}", "at most 10,000 are allowed"),
    ("x{999999999}", "at most 10,000 are allowed"),
], ids=["unbalanced", "nested-repeat", "nested-word-repeat", "too-long", "nested-counts",
        "huge-count"])
def test_a_refused_forbidden_pattern_is_an_error_at_its_line(project, capsys, pattern, says):
    line = replace_in(project / GLOSSARY, CANCEL, f"- {{pattern: '{pattern}', use: counter}}")
    code, out = _check(project, capsys)
    assert code == 1
    assert f"{GLOSSARY}:{line}:" in out and says in out and "Traceback" not in out


def test_a_forbidden_pattern_that_backtracks_stops_at_its_time_limit(project, capsys):
    line = replace_in(project / GLOSSARY, CANCEL, r"- {pattern: '(.|..)*\d{9}', use: counter}")
    code, out = _check(project, capsys, bounded=True)
    assert code == 1
    assert f"{GLOSSARY}:{line}:" in out and "takes more than" in out


@pytest.mark.parametrize("pattern", ["(", "(x+)+y", "(?:(?:a{100}){100}){100}"])
def test_a_refused_meaning_entry_is_an_error_at_its_line(project, capsys, pattern):
    line = replace_in(project / EN, "  more: [more]", f"  more: [more, '{pattern}']")
    code, out = _check(project, capsys)
    assert code == 1
    assert f"{EN}:{line}:" in out and "meaning 'more'" in out and "refused" in out


def test_the_shipped_patterns_are_accepted_and_match_in_any_case():
    zrus = bounded(r"\bzruš(it|í|en[aoy]?)?\b(?!\s+(ho\s+|ji\s+|je\s+)?kontrou)")
    assert zrus.search("Zruš ten čin") and not zrus.search("zruš ho kontrou")
    with pytest.raises(PatternError):
        bounded("([a-z]*)*")
