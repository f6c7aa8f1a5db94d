"""The rule-schema check of card effects, with broken cards built in code."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT, replace_in

from cardgen.check.effects import check_effects
from cardgen.data.load import load

CARDS = Path("card_data") / "cards"


def findings(project: Path):
    data, load_findings = load(project)
    assert not load_findings, [f.format() for f in load_findings]
    return check_effects(data)


def test_shipped_effects_are_valid():
    data, _ = load(ROOT)
    assert [f.format() for f in check_effects(data)] == []


def test_unknown_op_with_suggestion(project: Path):
    line = replace_in(project / CARDS / "luxembourg.yaml",
                      "{op: place_influence, amount: 3, where: bohemia}",
                      "{op: place_influense, amount: 3, where: bohemia}")
    found = [f for f in findings(project) if f.code == "unknown-op"]
    assert len(found) == 1
    f = found[0]
    assert f.card == "elizabeth-of-bohemia"
    assert f.location.file.endswith("luxembourg.yaml") and f.location.line == line
    assert "place_influence" in f.hint


def test_unknown_param_with_suggestion(project: Path):
    line = replace_in(project / CARDS / "luxembourg.yaml",
                      "{op: place_influence, amount: 3, where: trier}",
                      "{op: place_influence, amount: 3, wher: trier}")
    found = [f for f in findings(project) if f.code == "unknown-param"]
    assert [(f.card, f.location.line, f.hint) for f in found] == [
        ("baldwin-of-trier", line, "did you mean 'where'?")]


def test_wrong_type_missing_required_and_bad_reference(project: Path):
    path = project / CARDS / "market.yaml"
    replace_in(path, "{op: place_influence, amount: 3, where: saxony}",
               "{op: place_influence, amount: three, where: saxon}")
    replace_in(path, "{op: kicker, card: blanche-de-valois, amount: 2}",
               "{op: kicker, card: blanche}")
    found = findings(project)
    by = {(f.card, f.code, f.message.split(" ")[0]) for f in found}
    assert ("rudolf-i-of-saxony", "bad-param", "'amount'") in by
    assert ("rudolf-i-of-saxony", "bad-param", "'where'") in by
    assert ("philip-vi", "bad-param", "'card'") in by
    assert ("philip-vi", "missing-param", "op") in by
    saxon = next(f for f in found if "saxon'" in f.message)
    assert "did you mean 'saxony'" in saxon.message
    assert all(f.rule for f in found if f.code in ("bad-param", "missing-param"))


def test_nested_effects_are_checked(project: Path):
    replace_in(project / CARDS / "market.yaml", "then: [{op: win_tie, country: bohemia}]",
               "then: [{op: win_tie, country: bohemai}]")
    found = findings(project)
    assert [(f.card, f.code) for f in found] == [("elizabeth-richeza", "bad-param")]


def test_acquire_line_places_the_cards_own_shield(project: Path):
    replace_in(project / CARDS / "market.yaml",
               "{op: place_shield, shield: casimir-iii, location: your-court}",
               "{op: place_shield, shield: edward-iii, location: your-court}")
    found = findings(project)
    assert [(f.card, f.code, f.rule) for f in found] == [
        ("casimir-iii", "acquire-other-shield", "11.1")]


def test_op_on_a_line_kind_the_schema_does_not_allow(project: Path):
    """schema.yaml `lines`: a Counter only on a counter line, Writing History's
    counter_event only on writing_history, a shield placed only by acquire or event lines;
    nested ops count for the line they sit on."""
    path = project / CARDS / "market.yaml"
    counter = replace_in(path, "{op: counter, deed_op: remove_influence}",
                         "{op: counter_event}")
    acquire = replace_in(path, "{op: place_shield, shield: john-iv-drazice, location: your-curia}",
                         "{op: draw, amount: 1}")
    deed = replace_in(path, "{op: look_market_deck, amount: 3, buy_discount: 2}",
                      "{op: if_lead, country: bohemia, then: [{op: place_shield, "
                      "shield: clement-vi, location: curia}]}")
    found = [(f.card, f.location.line, f.message, f.rule) for f in findings(project)
             if f.code == "op-line"]
    assert found == [
        ("peter-of-zittau", deed, "op 'place_shield' can't be on a deed line", "2.36"),
        ("elizabeth-richeza", counter, "op 'counter_event' can't be on a counter line", "2.36"),
        ("john-iv-drazice", acquire, "op 'draw' can't be on an acquire line", "2.36"),
    ]


def test_schema_lines_must_name_line_kinds(project: Path):
    path = project / "card_data" / "rules" / "schema.yaml"
    replace_in(path, "    lines: [counter]\n", "    lines: [counters]\n")
    (f,) = [f for f in findings(project) if f.code == "schema-lines"]
    assert f.message == "lines of op 'counter': unknown line kind 'counters'"
    assert f.hint == "did you mean 'counter'?"
    assert f.location.file.endswith("schema.yaml")
