"""The terminal speaks Czech where the locale or --ui-lang says so, English by default."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from cardgen import messages
from cardgen.cli import main
from cardgen.errors import Location, error
from cardgen.report import format_text, summary_line

ROOT = Path(messages.__file__).parent
NBSP = "\u00a0"


def _check(project: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    assert main([*extra, "--project", str(project), "check"]) in (0, 1)
    return capsys.readouterr().out.splitlines()[-1]


def test_check_summary_follows_lang_and_ui_lang_wins(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert "cards checked" in _check(project, capsys)
    monkeypatch.setenv("LANG", "cs_CZ.UTF-8")
    assert "karet zkontrolováno" in _check(project, capsys)
    assert "cards checked" in _check(project, capsys, "--ui-lang", "en")
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert "karet zkontrolováno" in _check(project, capsys, "--ui-lang", "cs")


def test_lc_all_before_lang() -> None:
    assert messages.ui_lang(None, {"LC_ALL": "cs_CZ.UTF-8", "LANG": "en_US.UTF-8"}) == "cs"
    assert messages.ui_lang(None, {"LC_MESSAGES": "cs_CZ", "LANG": "de_DE"}) == "cs"
    assert messages.ui_lang(None, {"LANG": "de_DE.UTF-8"}) == "en"
    assert messages.ui_lang("en", {"LC_ALL": "cs_CZ.UTF-8"}) == "en"


@pytest.mark.parametrize(("n", "cards", "errors"), [
    (1, "1 karta zkontrolována", "1 chyba"), (3, "3 karty zkontrolovány", "3 chyby"),
    (5, "5 karet zkontrolováno", "5 chyb")])
def test_czech_plurals(n: int, cards: str, errors: str) -> None:
    messages.use("cs")
    found = [error("usage", "x") for _ in range(n)]
    assert summary_line(n, found, 0).split(", ")[:2] == [cards, errors]


def test_findings_in_czech_keep_code_and_message() -> None:
    messages.use("cs")
    text = format_text([error("usage", "x", card="a", location=Location("f", 1, 1), hint="h")])
    assert "f:1:1: chyba[usage] karta a: x" in text and "oprava: h" in text


def test_every_marked_message_is_translated_in_czech() -> None:
    with (ROOT / "locale/cs/LC_MESSAGES/cardgen.po").open("rb") as f:
        catalog = read_po(f, locale="cs")
    assert catalog.num_plurals == 3
    marked = {m[2] for m in extract_from_dir(ROOT, [("**.py", "python")])}
    missing = [m for m in marked if not catalog.get(m if isinstance(m, str) else m[0])]
    assert not missing
    for entry in catalog:
        if entry.id:
            strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
            assert all(strings) and not entry.fuzzy, entry.id
            for s in strings:  # no one-letter preposition at the end of a line
                assert not any(f" {p} " in f" {s} " for p in "ksvzouai"), s
    assert any(NBSP in (e.string if isinstance(e.string, str) else "") for e in catalog)
