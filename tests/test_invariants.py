"""Each invariant of the card set, broken once on the shipped data: the right error, at the
right card and line, citing the rule it enforces."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.check.invariants import check_invariants
from cardgen.data.load import load
from cardgen.errors import Severity
from tests.conftest import replace_in

CARDS = Path("card_data") / "cards"

# (file, old, new, code, rule, card): one edit that breaks one invariant.
BROKEN = [
    ("luxembourg.yaml", "    copies: 4\n    name: {en: Royal Retinue",
     "    copies: 3\n    name: {en: Royal Retinue", "retinue-copies", "3.31", "royal-retinue"),
    ("luxembourg.yaml", "    name: {en: Royal Retinue, cs: Královská družina}\n    political: 0",
     "    name: {en: Royal Retinue, cs: Královská družina}\n    political: 1",
     "retinue-values", "2.37", "royal-retinue"),
    ("luxembourg.yaml", "    yield: []\n    use_cost: 3\n", "    yield: [church]\n    use_cost: 3\n",
     "john-yield", "10.2", "john-of-luxembourg-lux"),
    ("luxembourg.yaml", "    yield: []\n    use_cost: 3\n", "    yield: []\n    use_cost: 2\n",
     "john-use-cost", "10.2", "john-of-luxembourg-lux"),
    ("luxembourg.yaml", "    yield: [any]\n    crown: true", "    yield: [church]\n    crown: true",
     "king-yield", "5.51", "charles-iv"),
    ("luxembourg.yaml", "    kind: king\n    side: luxembourg\n",
     "    kind: king\n    side: luxembourg\n    cost: [church]\n", "starter-cost", "2.34", "charles-iv"),
    ("events.yaml", "    note: Shuffled into the bottom 6 cards of the market deck (3.45).\n    event:\n"
     "      uncounterable: true\n",
     "    note: Shuffled into the bottom 6 cards of the market deck (3.45).\n    event:\n",
     "must-be-uncounterable", "6.46", "battle-of-crecy"),
    ("events.yaml", "    year: 1346\n    prototype: true\n    note: Shuffled into the bottom 6",
     "    prototype: true\n    note: Shuffled into the bottom 6", "event-year", "2.39", "battle-of-crecy"),
    ("market.yaml", "    shield: edward-iii\n", "", "acquire-without-shield", "11.1", "edward-iii"),
    ("market.yaml", "    shield: edward-iii\n", "    shield: edward-3\n", "unknown-shield", None,
     "edward-iii"),
]


def _broken(project: Path, file: str, old: str, new: str):
    line = replace_in(project / CARDS / file, old, new)
    data, findings = load(project)
    assert not [f for f in findings if f.severity is Severity.ERROR], findings
    return line, check_invariants(data)


def test_shipped_data_satisfies_every_invariant(project):
    data, _ = load(project)
    assert [f for f in check_invariants(data) if f.severity is Severity.ERROR] == []


@pytest.mark.parametrize(("file", "old", "new", "code", "rule", "card"), BROKEN,
                         ids=[b[3] for b in BROKEN])
def test_each_broken_invariant_is_reported(project, file, old, new, code, rule, card):
    _line, findings = _broken(project, file, old, new)
    hits = [f for f in findings if f.code == code]
    assert hits, [(f.code, f.message) for f in findings]
    hit = hits[0]
    assert hit.severity is Severity.ERROR
    assert hit.card == card
    assert hit.rule == rule
    assert hit.location is not None and hit.location.file == str(CARDS / file)
    assert hit.location.line > 0


def test_duplicate_number_in_a_deck_names_both_cards(project):
    replace_in(project / CARDS / "luxembourg.yaml", "  - id: blanche-de-valois\n    number: 2\n",
               "  - id: blanche-de-valois\n    number: 1\n")
    data, _ = load(project)
    [hit] = [f for f in check_invariants(data) if f.code == "duplicate-number"]
    assert hit.card == "blanche-de-valois"
    assert "charles-iv" in hit.message


def test_counts_come_from_game_yaml(project):
    """A designer who adds a market card changes one number, not the code."""
    replace_in(project / "card_data" / "game.yaml", "  market_cards: 44", "  market_cards: 45")
    data, _ = load(project)
    [hit] = [f for f in check_invariants(data) if f.code == "inventory-count"
             and "market cards" in f.message]
    assert hit.message == "market cards: the data has 44, game.yaml expects 45"
    assert hit.rule == "3.4"
    assert str(hit.location).startswith("card_data/game.yaml:")


def test_text_lines_out_of_rule_order_warn(project):
    path = project / CARDS / "luxembourg.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("  - id: charles-iv")
    block = text[start:text.index("\n\n", start)]
    deed = block[block.index("    deed:"):block.index("    boost:")]
    boost = block[block.index("    boost:"):] + "\n"
    new_block = block.replace(deed, "").replace(boost.rstrip("\n"), boost + deed.rstrip("\n"))
    path.write_text(text.replace(block, new_block), encoding="utf-8")
    data, _ = load(project)
    hits = [f for f in check_invariants(data) if f.code == "line-order"]
    assert hits and hits[0].card == "charles-iv" and hits[0].rule == "2.36"
