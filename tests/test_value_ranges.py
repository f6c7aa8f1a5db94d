"""Ranges of printed values (schema.yaml `ranges`, op parameters' min/max) and the coin row's
room (layouts/card.yaml): each value out of bounds is one error at its line, with its range."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, replace_in

from cardgen.build.check import run_check
from cardgen.check.coinrow import coin_row_findings, cost_capacity, fits
from cardgen.check.effects import check_effects
from cardgen.cli import main
from cardgen.data.layout import load_layout
from cardgen.data.load import load
from cardgen.data.paths import patched, read_slot
from cardgen.data.ranges import range_findings
from cardgen.data.yamlsrc import load_yaml_file
from cardgen.errors import Severity

CARDS = Path("card_data") / "cards"
SCHEMA = Path("card_data") / "rules" / "schema.yaml"


def schema_line(project: Path, text: str) -> int:
    """The line of the schema that holds ``text``."""
    lines = (project / SCHEMA).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def errors(findings, code: str):
    return [f for f in findings if f.code == code and f.severity is Severity.ERROR]


def test_shipped_data_is_inside_every_range_and_its_coins_fit():
    data, found = load(ROOT)
    assert [f.format() for f in found] == []
    assert range_findings(data) == []
    assert coin_row_findings(data, load_layout(ROOT / "layouts" / "card.yaml")) == []


@pytest.mark.parametrize(("old", "new", "card", "what", "schema_text"), [
    ("    political: 3\n    military: 2\n    yield: [any]\n    crown: true",
     "    political: 99\n    military: 2\n    yield: [any]\n    crown: true",
     "charles-iv", "political 99 is outside 0–9", "political: {min: 0, max: 9"),
    ("    military: 2\n    yield: [any]\n    crown: true",
     "    military: -1\n    yield: [any]\n    crown: true",
     "charles-iv", "military -1 is outside 0–9", "military: {min: 0, max: 9"),
    ("    political: 3\n    military: 2\n    yield: [any]\n    crown: true",
     "    political: 999999999999999\n    military: 2\n    yield: [any]\n    crown: true",
     "charles-iv", "political 999999999999999 is outside 0–9", "political: {min: 0, max: 9"),
    ("    number: 1\n", "    number: 0\n", "charles-iv", "number 0 is outside 1–9999",
     "number: {min: 1"),
])
def test_a_card_value_out_of_range_is_an_error_at_its_line(project, old, new, card, what,
                                                            schema_text):
    line = replace_in(project / CARDS / "luxembourg.yaml", old, new)
    _, found = load(project)
    [f] = errors(found, "out-of-range")
    assert (f.card, f.location.file, f.location.line) == (
        card, "card_data/cards/luxembourg.yaml", line)
    at = f"[card_data/rules/schema.yaml:{schema_line(project, schema_text)}:"
    assert what in f.message and at in f.message, f.message
    assert f.hint.startswith("write ") and "prototype limit" in f.hint
    assert len(found) == 1  # one mistake, one finding


def test_a_fifteen_digit_value_is_held_inside_its_range_for_the_checks(project):
    """The checks after the load see the range's end, so none counts to the number written
    (issue 38: the engine placed its points one at a time)."""
    replace_in(project / CARDS / "luxembourg.yaml", "    political: 3\n    military: 2\n",
               "    political: 999999999999999\n    military: 2\n")
    report = run_check(project)
    assert report.data.card("charles-iv").political == 9
    assert [f.code for f in report.findings if f.severity is Severity.ERROR] == ["out-of-range"]


@pytest.mark.parametrize("command", ["check", "build"])
def test_check_and_build_report_it_and_exit_1(project, capsys, command):
    line = replace_in(project / CARDS / "market.yaml", "    military: 3\n",
                      "    military: -1\n")
    assert main(["--project", str(project), command]) == 1
    err = capsys.readouterr()
    text = err.out + err.err
    assert f"card_data/cards/market.yaml:{line}:" in text
    assert "card philip-vi: military -1 is outside 0–9" in text
    assert not list((project / "output").rglob("*.pdf"))  # nothing written


def test_a_count_and_a_stability_out_of_range(project):
    count = replace_in(project / "card_data" / "game.yaml", "physical_cards: 82",
                       "physical_cards: 100000000000000")
    stab = replace_in(project / "card_data" / "places.yaml", "stability: 4", "stability: 0")
    data, found = load(project)
    by_file = {f.location.file: f for f in errors(found, "out-of-range")}
    game, place = by_file["card_data/game.yaml"], by_file["card_data/places.yaml"]
    assert game.location.line == count and "counts.physical_cards 100000000000000 is " \
        "outside 0–9999" in game.message
    assert place.location.line == stab and "is outside 1–9" in place.message
    assert data.game.counts["physical_cards"] == 9999


def test_a_cost_of_fourteen_coins_is_out_of_range(project):
    line = replace_in(project / CARDS / "market.yaml", "cost: [church, church, german]",
                      "cost: [" + ", ".join(["church"] * 14) + "]")
    report = run_check(project)
    [f] = errors(report.findings, "out-of-range")
    assert (f.card, f.location.line, f.rule) == ("heinrich-of-virneburg", line, "2.34")
    assert "cost of 14 coins is outside 0–6 coins" in f.message
    assert "give it a cost of 0 to 6 coins" in f.hint
    assert not errors(report.findings, "coin-row-overflow")  # the range said it


def test_a_cost_too_wide_for_its_row_names_the_widest_that_fits(project):
    line = replace_in(project / CARDS / "market.yaml", "cost: [church, church, german]",
                      "cost: [church, church, german, church, church, german]")
    report = run_check(project)
    assert not errors(report.findings, "out-of-range")  # 6 coins are inside the range
    [f] = errors(report.findings, "coin-row-overflow")
    assert (f.card, f.location.file, f.location.line) == (
        "heinrich-of-virneburg", "card_data/cards/market.yaml", line)
    assert "cost of 6 coins" in f.message and "widest cost it holds there is 5 coins" in f.message
    assert "at most 5 coins" in f.hint


def test_the_row_s_capacity_follows_the_layout(project):
    """A narrower row holds fewer coins: the shipped 4-coin costs beside 1 yield coin, and
    3-coin costs beside 2, no longer fit."""
    replace_in(project / "layouts" / "card.yaml", "  right: 58.4", "  right: 40.0")
    row = load_layout(project / "layouts" / "card.yaml").coin_row
    assert [cost_capacity(row, y) for y in (0, 1, 2)] == [5, 3, 2]
    found = errors(run_check(project).findings, "coin-row-overflow")
    data, _ = load(ROOT)
    assert sorted(f.card for f in found) == sorted(
        c.id for c in data.cards if len(c.cost) > cost_capacity(row, len(c.yields)))
    assert {"philip-vi", "guy-of-boulogne"} <= {f.card for f in found}
    assert "heinrich-of-virneburg" not in {f.card for f in found}  # 1 yield, 3 coins: fits
    assert fits(row, 1, 3) and not fits(row, 1, 4)
    assert all("widest cost it holds there is" in f.message for f in found)


def test_an_effect_amount_out_of_range_names_its_range(project):
    line = replace_in(project / CARDS / "luxembourg.yaml",
                      "        - {op: draw, amount: 1}\n      text:\n"
                      "        en: \"Place 2 influence in Bohemia. Draw 1 card.\"",
                      "        - {op: draw, amount: 99}\n      text:\n"
                      "        en: \"Place 2 influence in Bohemia. Draw 1 card.\"")
    data, found = load(project)
    assert found == []
    [f] = errors(check_effects(data), "bad-param")
    at = schema_line(project, "amount: {type: int, required: true, min: 1, max: 5}")
    assert (f.card, f.location.line) == ("charles-iv", line)
    assert f"'amount' of op 'draw' is 99, outside 1–5 [card_data/rules/schema.yaml:{at}:" \
        in f.message
    assert f.hint.startswith("write amount from 1 to 5")


def test_a_widened_range_lets_the_value_through(project):
    replace_in(project / SCHEMA, "political: {min: 0, max: 9", "political: {min: 0, max: 12")
    replace_in(project / CARDS / "luxembourg.yaml", "    political: 3\n    military: 2\n",
               "    political: 11\n    military: 2\n")
    _, found = load(project)
    assert found == []


def test_a_range_with_min_above_max_is_an_error_in_the_schema(project):
    line = replace_in(project / SCHEMA, "military: {min: 0, max: 9", "military: {min: 9, max: 0")
    _, found = load(project)
    assert [f.location.line for f in errors(found, "range-bad")] == [line]


def test_balance_ranges_lie_inside_the_schema_ranges():
    """Both ends of every tunable's range in balance.yaml pass the schema's ranges."""
    data, _ = load(ROOT)
    spec = load_yaml_file(ROOT / "card_data" / "balance.yaml")
    for entry in spec["tunable"]:
        path, (low, high) = entry["path"], entry["range"]
        slot = read_slot(data, path)
        for value in (low, high):
            probe = patched(data, {path: value})
            bad = [f.format() for f in (*range_findings(probe), *check_effects(probe))
                   if f.severity is Severity.ERROR]
            assert bad == [], (path, value, slot.loc)


def test_the_schema_marks_its_ranges_as_prototype_limits():
    text = (ROOT / SCHEMA).read_text(encoding="utf-8")
    head = text[:text.index("\nranges:")]
    assert "PROTOTYPE LIMITS" in head and "may widen" in head
