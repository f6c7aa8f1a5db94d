"""`cardgen po import` refuses what msgfmt refuses, other languages, line breaks and texts
that fail the checks, writing nothing (issue 13, item 1)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import copy_project

from cardgen.cli import main

NB = "\u00a0"
CHARLES = f'msgstr "Umísti 2{NB}vlivu do Čech. Lízni 1{NB}kartu."'


def card_data(project: Path) -> dict[str, bytes]:
    return {str(p.relative_to(project)): p.read_bytes()
            for p in sorted((project / "card_data").rglob("*")) if p.is_file()}


def run(project: Path, capsys, *args: str) -> tuple[int, str]:
    code = main(["--project", str(project), *args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.fixture(scope="module")
def shipped_po(tmp_path_factory) -> bytes:
    """The shipped project's export, made once (an export takes seconds)."""
    project = copy_project(tmp_path_factory.mktemp("po-export"))
    assert main(["--project", str(project), "po", "export"]) == 0
    return (project / "output" / "po" / "cs.po").read_bytes()


@pytest.fixture
def po(project, shipped_po) -> Path:
    """The export of this test's project (the same bytes as the shipped project's)."""
    path = project / "output" / "po" / "cs.po"
    path.parent.mkdir(parents=True)
    path.write_bytes(shipped_po)
    return path


def edit(po: Path, old: str, new: str) -> int:
    """Replace ``old`` in the PO file; return the 1-based line it starts on."""
    text = po.read_text(encoding="utf-8")
    assert old in text, old
    po.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1


def msgfmt_rejects(po: Path) -> bool | None:
    if shutil.which("msgfmt") is None:
        return None
    result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)],
                            capture_output=True, text=True, check=False)
    return result.returncode != 0


BROKEN = {
    "unterminated string": (CHARLES, CHARLES[:-1], "a string must be written in double quotes"),
    "unknown keyword": (CHARLES, CHARLES.replace("msgstr", "msgstring"), "unknown keyword 'msgstring'"),
    "unknown escape": (CHARLES, CHARLES.replace("Čech.", "Čech\\q."), "unknown escape sequence '\\q'"),
    "msgid without msgstr": (CHARLES + "\n", "\n", "has no msgstr"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_po_file_msgfmt_rejects_is_refused_at_its_line(project, po, capsys, case):
    old, new, message = BROKEN[case]
    line = edit(po, old, new)
    if msgfmt_rejects(po) is False:
        pytest.fail(f"msgfmt accepts the {case} case; the test must plant a real error")
    before = card_data(project)
    code, out = run(project, capsys, "po", "import", str(po))
    assert code == 1, out
    want = line - 1 if case == "msgid without msgstr" else line
    assert f"{po}:{want}:1: error[po-syntax]" in out and message in out, out
    assert "no longer exists" not in out
    assert card_data(project) == before


def test_a_message_defined_twice_is_refused_naming_both_lines(project, po, capsys):
    text = po.read_text(encoding="utf-8")
    entry = text[text.index('msgctxt "charles-iv:deed"'):].split("\n\n", 1)[0]
    po.write_text(text + "\n" + entry + "\n", encoding="utf-8")
    first = text[:text.index('msgctxt "charles-iv:deed"')].count("\n") + 2
    assert msgfmt_rejects(po) in (True, None)
    before = card_data(project)
    code, out = run(project, capsys, "po", "import", str(po))
    assert code == 1
    assert f"duplicate message definition (first defined at line {first})" in out
    assert card_data(project) == before


def test_a_po_for_another_language_is_refused(project, po, capsys):
    line = edit(po, '"Language: cs\\n"', '"Language: de\\n"')
    edit(po, CHARLES, 'msgstr "Platziere 2 Einfluss in Böhmen. Ziehe 1 Karte."')
    before = card_data(project)
    code, out = run(project, capsys, "po", "import", str(po))
    assert code == 1
    assert f"{po}:{line}:1: error[po-language]" in out, out
    assert "the PO file is for 'de', not Czech (cs)" in out
    assert card_data(project) == before


@pytest.mark.parametrize("bad", ["\\n", "\\t", "\\r", "\\001"])
def test_a_translation_with_a_line_break_or_control_character_is_refused(project, po, capsys, bad):
    line = edit(po, CHARLES, f'msgstr "Umísti 2{NB}vlivu do Čech.{bad}Lízni 1{NB}kartu."')
    before = card_data(project)
    code, out = run(project, capsys, "po", "import", str(po))
    assert code == 1, out
    assert f"{po}:{line - 1}:1: error[control-character] card charles-iv (cs)" in out, out
    assert "nothing was written" in out
    assert card_data(project) == before


def test_an_entry_that_fails_the_checks_is_refused_and_nothing_is_written(project, po, capsys):
    """One good entry and one that changes a number: the full check stage runs on the
    result, and neither is written."""
    edit(po, CHARLES, f'msgstr "Umísti 3{NB}vlivu do Čech. Lízni 1{NB}kartu."')
    edit(po, 'msgstr "Vysvětlivky"', 'msgstr "Legenda"')
    before = card_data(project)
    code, out = run(project, capsys, "po", "import", str(po))
    assert code == 1, out
    assert "card_data/cards/luxembourg.yaml:22:13: error[text-differs] card charles-iv (cs)" in out
    assert "nothing was written" in out
    assert card_data(project) == before


def test_a_place_form_is_checked_through_the_cards_that_use_it(project, po, capsys):
    """A case form changed alone would make every card text using it differ: refused."""
    edit(po, 'msgctxt "places:countries.bohemia.forms.into"\nmsgid "in Bohemia"\nmsgstr "do Čech"',
         'msgctxt "places:countries.bohemia.forms.into"\nmsgid "in Bohemia"\nmsgstr "do Čechy"')
    before = card_data(project)
    code, out = run(project, capsys, "po", "import", str(po))
    assert code == 1
    assert "error[text-differs] card charles-iv (cs)" in out and "do Čechy" in out
    assert card_data(project) == before


def test_the_import_reports_exactly_what_it_applied(project, po, capsys):
    edit(po, 'msgstr "Vysvětlivky"', 'msgstr "Legenda"')
    code, out = run(project, capsys, "po", "import", str(po))
    assert code == 0, out
    components = (project / "card_data" / "components.yaml").read_text(encoding="utf-8")
    line = components[:components.index("cs: Legenda")].count("\n") + 1
    lines = out.strip().splitlines()
    assert lines[0].startswith(f"card_data/components.yaml:{line}:")
    assert lines[0].endswith(": components:labels.legend (cs): Legenda")
    assert lines[-1].startswith("1 applied, ")
    assert "legend: {en: Key, cs: Legenda}" in components


def test_continued_previous_strings_join_onto_their_own_fields():
    """The reader joins "#|" continuation strings once per field (linear in the file:
    bench/po.py), each onto the previous msgctxt or msgid it continues."""
    from cardgen.translate.pofile import parse_po
    raw = (b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
           b'#| msgctxt "ca"\n#| "rd"\n#| msgid "Old "\n#| "Eng"\n#| "lish"\n'
           b'msgctxt "x"\nmsgid "New"\nmsgstr "Nov\xc3\xa9"\n')
    po, found = parse_po(raw, "t.po")
    assert found == [] and po is not None
    (entry,) = po.entries
    assert (entry.previous_msgctxt, entry.previous_msgid) == ("card", "Old English")
    assert entry.msgstr == "Nové"
