"""`cardgen check` on the shipped data and on data broken the ways a designer breaks it.

Each broken case asserts the exit code, the finding's code, and the file and line of the
fault (rules cited where the check enforces one).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardgen.cli import main
from tests.conftest import replace_in

CARDS = Path("card_data") / "cards"


def run_check(project: Path, capsys, *extra: str) -> tuple[int, str]:
    code = main(["--project", str(project), "check", *extra])
    return code, capsys.readouterr().out


def findings_json(project: Path, capsys) -> tuple[int, list[dict]]:
    code, out = run_check(project, capsys, "--format", "json")
    return code, json.loads(out)["findings"]


def test_shipped_data_passes(project, capsys):
    code, out = run_check(project, capsys)
    assert code == 0, out
    last = out.strip().splitlines()[-1]
    assert last.startswith("76 cards checked, 0 errors")


def test_json_output_has_summary_and_locations(project, capsys):
    code, out = run_check(project, capsys, "--format", "json")
    payload = json.loads(out)
    assert code == 0
    assert payload["summary"]["ok"] is True
    assert payload["summary"]["cards"] == 76
    for f in payload["findings"]:
        assert f["severity"] in ("warning", "info")
        # missing art is about files that are not there: it names the folder, not a line
        assert f["file"] and (f["line"] or f["code"] == "art-placeholder"), f


def _error_at(findings: list[dict], code: str, file: Path, line: int, card: str | None = None
              ) -> dict:
    hits = [f for f in findings if f["code"] == code and f["severity"] == "error"]
    assert hits, f"no {code} error in {[(f['code'], f['message']) for f in findings]}"
    hit = next((f for f in hits if f["file"] == str(file) and f["line"] == line), None)
    assert hit, f"{code} not at {file}:{line}: {[(f['file'], f['line']) for f in hits]}"
    if card:
        assert hit["card"] == card
    return hit


def test_number_changed_in_czech_text_only(project, capsys):
    path = project / CARDS / "luxembourg.yaml"
    line = replace_in(path, 'cs: "Umísti 2\u00a0vlivu do Čech', 'cs: "Umísti 3\u00a0vlivu do Čech')
    code, findings = findings_json(project, capsys)
    assert code == 1
    hits = [f for f in findings if f["severity"] == "error" and f["card"] == "charles-iv"
            and f["lang"] == "cs" and f["file"] == str(CARDS / "luxembourg.yaml")
            and f["line"] == line]
    assert hits, findings
    assert any("3" in f["message"] for f in hits)


def test_place_name_in_the_wrong_language(project, capsys):
    path = project / CARDS / "luxembourg.yaml"
    line = replace_in(path, 'cs: "Umísti 2\u00a0vlivu do Čech.', 'cs: "Umísti 2\u00a0vlivu do Bohemia.')
    code, findings = findings_json(project, capsys)
    assert code == 1
    assert any(f["severity"] == "error" and f["card"] == "charles-iv" and f["line"] == line
               and "Bohemia" in f["message"] for f in findings), findings


@pytest.mark.parametrize(("lang", "old", "new"), [
    ("en", "to counter a German Deed", "to cancel a German Deed"),
    ("cs", "zruš kontrou čin soupeřovy říšské karty", "zruš čin soupeřovy říšské karty"),
    ("cs", "zruš kontrou čin soupeřovy říšské karty", "stornuj čin soupeřovy říšské karty"),
])
def test_wrong_counter_verb_is_an_error_citing_5_6(project, capsys, lang, old, new):
    path = project / CARDS / "market.yaml"
    line = replace_in(path, old, new)
    code, findings = findings_json(project, capsys)
    assert code == 1
    hits = [f for f in findings if f["severity"] == "error" and f["lang"] == lang
            and f["line"] == line and f["rule"] == "5.6"]
    assert hits, [(f["code"], f["line"], f["rule"], f["message"]) for f in findings]
    assert "kontrou" in (hits[0]["hint"] or "") or "counter" in (hits[0]["hint"] or "")


def test_duplicated_key(project, capsys):
    path = project / CARDS / "luxembourg.yaml"
    line = replace_in(path, "    political: 3\n    military: 2\n",
                      "    political: 3\n    political: 4\n    military: 2\n") + 1
    code, findings = findings_json(project, capsys)
    assert code == 1
    _error_at(findings, "yaml-duplicate-key", CARDS / "luxembourg.yaml", line)


def test_unknown_key_suggests_the_nearest(project, capsys):
    path = project / CARDS / "luxembourg.yaml"
    line = replace_in(path, "    crown: true\n", "    crwon: true\n")
    code, findings = findings_json(project, capsys)
    assert code == 1
    hit = _error_at(findings, "unknown-key", CARDS / "luxembourg.yaml", line, "charles-iv")
    assert hit["hint"] == "did you mean 'crown'?"


def test_yaml_syntax_error(project, capsys):
    path = project / CARDS / "wittelsbach.yaml"
    line = replace_in(path, "    military: ", "    military: [", 1)
    code, findings = findings_json(project, capsys)
    assert code == 1
    hits = [f for f in findings if f["code"] == "yaml-syntax"]
    assert hits and hits[0]["file"] == str(CARDS / "wittelsbach.yaml")
    assert hits[0]["line"] >= line


def test_boost_on_a_starter_card(project, capsys):
    path = project / CARDS / "luxembourg.yaml"
    text = path.read_text(encoding="utf-8")
    block = text[text.index("  - id: blanche-de-valois"):]
    deed_end = block.index("    deed:")
    boost = ("    boost:\n      cost: [church]\n      mode: adds\n"
             "      effects:\n        - {op: draw, amount: 1}\n"
             '      text: {en: "Also draw 1 card.", cs: "Navíc lízni 1 kartu."}\n')
    # insert the boost after Blanche's deed block
    rest = block[deed_end:]
    after = rest.index("\n\n")
    new_block = block[:deed_end] + rest[:after + 1] + boost + rest[after + 1:]
    path.write_text(text.replace(block, new_block), encoding="utf-8")
    line = path.read_text(encoding="utf-8").count("\n", 0, path.read_text().index(boost)) + 1
    code, findings = findings_json(project, capsys)
    assert code == 1
    hit = _error_at(findings, "boost-not-allowed", CARDS / "luxembourg.yaml", line + 1,
                    "blanche-de-valois")
    assert hit["rule"] == "5.74"


def test_a_fifth_counter_card(project, capsys):
    path = project / CARDS / "market.yaml"
    text = path.read_text(encoding="utf-8")
    anchor = "  - id: robert-of-naples"
    block = text[text.index(anchor):]
    block = block[:block.index("\n\n")]
    counter = ("    counter:\n      effects:\n        - {op: counter, card_type: church}\n"
               "      text:\n"
               '        en: "Discard this card from your hand to counter a Church Deed."\n'
               '        cs: "Odhoď tuto kartu z ruky a zruš kontrou soupeřův církevní čin."\n')
    path.write_text(text.replace(block, block + "\n" + counter.rstrip("\n")), encoding="utf-8")
    code, findings = findings_json(project, capsys)
    assert code == 1
    hit = _error_at(findings, "inventory-count", Path("card_data/game.yaml"), 17)
    assert hit["rule"] == "5.6"
    assert "the data has 5" in hit["message"]


def test_text_output_groups_per_card_and_ends_with_summary(project, capsys):
    path = project / CARDS / "luxembourg.yaml"
    replace_in(path, "    crown: true\n", "    crwon: true\n")
    code, out = run_check(project, capsys)
    assert code == 1
    assert "== card charles-iv ==" in out
    assert f"{CARDS / 'luxembourg.yaml'}:" in out
    assert "error[unknown-key] card charles-iv: unknown key 'crwon'" in out
    assert out.strip().splitlines()[-1].startswith("76 cards checked, 1 error,")


def test_missing_card_data_folder(tmp_path, capsys):
    code = main(["--project", str(tmp_path), "check"])
    captured = capsys.readouterr()
    assert code == 1
    assert "no card_data/ folder" in captured.out + captured.err


def test_a_damaged_rule_schema_is_reported_at_its_line_not_per_card(project, capsys):
    path = project / "card_data" / "rules" / "schema.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("  at_crecy:")
    params = text.index("      then: {type: effects, required: true}", start)
    line = text.count("\n", 0, params) + 1
    path.write_text(text[:params] + "      then\n" + text[text.index("\n", params) + 1:],
                    encoding="utf-8")  # a half-deleted parameter
    code, findings = findings_json(project, capsys)
    assert code == 1
    shape = [f for f in findings if f["code"] == "shape"]
    assert shape and (shape[0]["file"], shape[0]["line"]) == ("card_data/rules/schema.yaml", line)
    assert "'schema.ops.at_crecy.params' must be a mapping" in shape[0]["message"]
    assert not [f for f in findings if f["code"] == "text-render"]
