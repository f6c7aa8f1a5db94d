"""Translation state: which English each Czech was translated from, fuzzy entries with the
previous English, the template for msgmerge, reviewed texts (issue 13, item 2)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import at, replace_in

from cardgen.cli import main
from cardgen.data.load import load
from cardgen.translate.translation import STATE_FILE, text_states

COMPONENTS = Path("card_data") / "components.yaml"
SHIELDS_HERE = 'msgctxt "components:labels.shields_here"\n'


def run(project: Path, capsys, *args: str) -> tuple[int, str]:
    code = main(["--project", str(project), *args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def card_data(project: Path) -> dict[str, bytes]:
    return {str(p.relative_to(project)): p.read_bytes()
            for p in sorted((project / "card_data").rglob("*")) if p.is_file()}


def export(project: Path, capsys, *extra: str) -> Path:
    code, out = run(project, capsys, "po", "export", *extra)
    assert code == 0, out
    return Path(out.strip().split("wrote ", 1)[1])


def gettext(*args: str) -> subprocess.CompletedProcess:
    if shutil.which(args[0]) is None:
        pytest.skip(f"{args[0]} (gettext) is not installed: apt-get install gettext")
    return subprocess.run(args, capture_output=True, text=True, check=False)


def test_an_english_edit_makes_the_entry_fuzzy_with_the_previous_english(project, capsys):
    po = export(project, capsys)
    line = replace_in(project / COMPONENTS, "shields_here: {en: shield markers,",
                      "shields_here: {en: shield tokens,")
    code, out = run(project, capsys, "check")
    assert code == 0
    assert (f"  fuzzy: card_data/components.yaml:{line}:41: components:labels.shields_here: "
            "the English changed since this Czech was translated") in out
    assert "translation (cs): 0 untranslated, " in out and ", 1 fuzzy, 0 reviewed of " in out
    assert out.strip().splitlines()[-1].endswith(" 0 errors, 1 warning, 0 reviewed exceptions")  # no art yet

    assert export(project, capsys) == po  # the previous English comes from the file replaced
    text = po.read_text(encoding="utf-8")
    assert ('#, fuzzy\n#| msgid "shield markers"\n' + SHIELDS_HERE
            + 'msgid "shield tokens"\nmsgstr "štítové žetony"\n') in text
    assert gettext("msgfmt", "--check", "-o", "/dev/null", str(po)).returncode == 0
    assert export(project, capsys) == po  # exporting again keeps the previous English
    assert '#, fuzzy\n#| msgid "shield markers"\n' + SHIELDS_HERE in po.read_text(encoding="utf-8")

    # the translator keeps the Czech for the new English: removes the fuzzy mark, imports
    po.write_text(po.read_text(encoding="utf-8").replace(
        '#, fuzzy\n#| msgid "shield markers"\n', ""), encoding="utf-8")
    before = (project / "card_data" / "components.yaml").read_bytes()
    code, out = run(project, capsys, "po", "import", str(po))
    assert code == 0, out
    assert f"card_data/components.yaml:{line}:41: components:labels.shields_here (cs): " \
           "fuzzy -> translated" in out
    assert (project / "card_data" / "components.yaml").read_bytes() == before
    states = text_states(load(project)[0], at(project))
    assert states["components:labels.shields_here"] == "translated"
    assert "fuzzy" not in states.values()


def test_a_fuzzy_entry_is_not_imported(project, capsys):
    po = export(project, capsys)
    text = po.read_text(encoding="utf-8").replace(
        SHIELDS_HERE + 'msgid "shield markers"\nmsgstr "štítové žetony"',
        "#, fuzzy\n" + SHIELDS_HERE + 'msgid "shield markers"\nmsgstr "štítky"')
    po.write_text(text, encoding="utf-8")
    before = card_data(project)
    code, out = run(project, capsys, "po", "import", str(po))
    assert code == 1
    assert "warning[po-fuzzy]" in out and "'components:labels.shields_here' is marked fuzzy" in out
    assert card_data(project) == before


def test_msgmerge_with_the_pot_template_round_trips(project, capsys, tmp_path):
    po = export(project, capsys)
    pot = export(project, capsys, "--pot")
    assert pot.name == "cards.pot"
    template = pot.read_text(encoding="utf-8")
    assert '"Language: \\n"' in template and 'msgstr "štítové žetony"' not in template
    merged = tmp_path / "merged.po"
    result = gettext("msgmerge", "--previous", "--quiet", "-o", str(merged), str(po), str(pot))
    assert result.returncode == 0, result.stderr
    assert gettext("msgfmt", "--check", "-o", "/dev/null", str(merged)).returncode == 0
    before = card_data(project)
    code, out = run(project, capsys, "po", "import", str(merged))
    assert code == 0, out
    assert out.strip().splitlines()[-1].startswith("0 applied, ")
    assert card_data(project) == before

    # the English changes: msgmerge marks the entry fuzzy with the previous English
    replace_in(project / COMPONENTS, "shields_here: {en: shield markers,",
               "shields_here: {en: shield marker,")
    pot = export(project, capsys, "--pot")
    result = gettext("msgmerge", "--previous", "--quiet", "-o", str(merged), str(po), str(pot))
    assert result.returncode == 0, result.stderr
    assert '#| msgid "shield markers"\n' + SHIELDS_HERE + 'msgid "shield marker"\n' \
        in merged.read_text(encoding="utf-8")
    before = card_data(project)
    code, out = run(project, capsys, "po", "import", str(merged))
    assert "'components:labels.shields_here' is marked fuzzy; not applied" in out
    assert card_data(project) == before


def test_a_text_marked_reviewed_in_the_po_is_recorded_and_shown(project, capsys):
    po = export(project, capsys)
    text = po.read_text(encoding="utf-8")
    entry = 'msgctxt "charles-iv:deed"\n'
    at = text.index(entry)
    start = text.rindex("\n\n", 0, at) + 2
    po.write_text(text[:start] + "# reviewed\n" + text[start:], encoding="utf-8")
    code, out = run(project, capsys, "po", "import", str(po))
    assert code == 0, out
    assert "card_data/cards/luxembourg.yaml:22:13: charles-iv:deed (cs): translated -> reviewed" \
        in out
    assert out.strip().splitlines()[-1].startswith("1 applied, ")
    state = (project / STATE_FILE).read_text(encoding="utf-8")
    assert '"charles-iv:deed": {source: "' in state and ', reviewed: "' in state
    code, out = run(project, capsys, "check")
    assert ", 0 fuzzy, 1 reviewed of " in out
    text = export(project, capsys).read_text(encoding="utf-8")
    assert "# reviewed\n" in text[text.rindex("\n\n", 0, text.index(entry)):text.index(entry)]
