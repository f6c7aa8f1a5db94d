"""The mechanical fixer and the surgical YAML editor it shares with the PO import."""

from __future__ import annotations

import pytest
from test_lang_fixtures import CARDS, make_project

from cardgen.check.lang import check_language
from cardgen.data.load import load
from cardgen.data.yamledit import TextEdit, edit_yaml
from cardgen.errors import CardgenError, Location
from cardgen.translate.fix import fix_project

NB = "\u00a0"
BROKEN = CARDS.replace('cs: "Umísti 2 vlivy v Mohuči."',
                       'cs: "Umísti  2 vlivy v Mohuči, \\"Maultasch\\" 1-3 "  # keep me')


def test_fix_repairs_only_the_texts(tmp_path):
    project = make_project(tmp_path, BROKEN)
    path = project / "card_data" / "cards" / "test.yaml"
    before = path.read_text(encoding="utf-8")
    report, problems = fix_project(project)
    assert problems == []
    after = path.read_text(encoding="utf-8")
    assert len(report) == 3
    assert report[2].startswith("card_data/cards/test.yaml:31:13: blanche-de-valois deed (cs): ")
    old_lines, new_lines = before.splitlines(), after.splitlines()
    changed = [i + 1 for i, (a, b) in enumerate(zip(old_lines, new_lines, strict=True)) if a != b]
    assert changed == [16, 24, 31]
    assert new_lines[30] == (f'        cs: "Umísti 2{NB}vlivy v{NB}Mohuči, „Maultasch“ 1–3"'
                             "  # keep me")
    assert new_lines[15] == f"        cs: Lízni 2{NB}karty. Posuň Jana o{NB}1{NB}pole ke Karlovi."
    assert "# the French king" in after and after.startswith("# Test cards")
    data, _ = load(project)
    assert not [f for f in check_language(data) if f.code.startswith("typo-")]


def test_fix_is_idempotent(tmp_path):
    project = make_project(tmp_path, BROKEN)
    fix_project(project)
    path = project / "card_data" / "cards" / "test.yaml"
    once = path.read_bytes()
    assert fix_project(project) == ([], [])
    assert path.read_bytes() == once


def test_fix_leaves_other_files_alone(tmp_path):
    project = make_project(tmp_path, BROKEN)
    others = {p: p.read_bytes() for p in (project / "card_data").glob("*.yaml")}
    fix_project(project)
    assert {p: p.read_bytes() for p in others} == others


def test_clean_project_is_untouched(tmp_path):
    project = make_project(tmp_path, BROKEN)
    fix_project(project)
    path = project / "card_data" / "cards" / "test.yaml"
    mtime = path.stat().st_mtime_ns
    fix_project(project)
    assert path.stat().st_mtime_ns == mtime


SOURCE = """\
# comment
a:
  plain: one two   # trailing comment
  single: 'it''s'
  flow: {en: x, cs: y}
  folded: >-
    a long folded text that
    goes on
  literal: |
    line one
    line two
  block:
    en: English
after: 1
"""


@pytest.mark.parametrize(("line", "col", "value", "expected_line"), [
    (3, 10, "one  two", "  plain: one  two   # trailing comment"),
    (3, 10, "x: y", '  plain: "x: y"   # trailing comment'),
    (4, 11, "its", "  single: 'its'"),
    (5, 21, "a, b", '  flow: {en: x, cs: "a, b"}'),
    (5, 21, f"z{NB}y", f"  flow: {{en: x, cs: z{NB}y}}"),
])
def test_edit_yaml_keeps_style(line, col, value, expected_line):
    out = edit_yaml(SOURCE, [TextEdit(Location("f.yaml", line, col), value)], "f.yaml")
    lines = out.splitlines()
    assert lines[line - 1] == expected_line
    assert [a for a, b in zip(SOURCE.splitlines(), lines, strict=True) if a != b] == [
        SOURCE.splitlines()[line - 1]]


def test_edit_block_scalars():
    out = edit_yaml(SOURCE, [TextEdit(Location("f", 6, 11), "a long folded text that goes off"),
                             TextEdit(Location("f", 9, 12), "line 1\nline two\n")], "f")
    assert out == SOURCE.replace("goes on", "goes off").replace("line one", "line 1")


def test_insert_key_into_mappings():
    out = edit_yaml(SOURCE, [TextEdit(Location("f", 13, 5), "Česky", key="cs"),
                             TextEdit(Location("f", 5, 9), "q", key="de")], "f")
    assert out == SOURCE.replace("    en: English\n", "    en: English\n    cs: Česky\n").replace(
        "cs: y}", "cs: y, de: q}")


def test_edit_nowhere_is_an_error():
    with pytest.raises(CardgenError, match="no text to replace here"):
        edit_yaml(SOURCE, [TextEdit(Location("f", 1, 1), "x")], "f")
