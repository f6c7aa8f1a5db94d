"""Every number the rulebook states of a card it names is a fact (issue 42.6): changing it
breaks `cardgen check`'s fact check, so `cardgen balance` refuses to tune it (rules 6.41,
the Declaration of Rhens' 2 Church lost, and 6.47, the Dream at Terenzo's 2 Church gained,
among them). The rulebook is read line by line: a whole number on a line that names a card
(rule numbers such as 6.46 left out) must be fixed wherever the card carries it, unless
the line's number is about something else (listed below, each with its reason)."""

from __future__ import annotations

import re

import pytest

from cardgen.balance.spec import read_spec, rule_errors
from cardgen.data.load import load_or_raise
from cardgen.data.paths import card_paths, patched, read_slot
from cardgen.errors import CardgenError
from tests.conftest import ROOT

RULES = ROOT.parent / "shared" / "rules" / "rules-v0.27.4-en.txt"
#: (rule, path): the line's number is not this value of the card.
ELSEWHERE = {
    ("3.32", "cards.john-of-luxembourg-lux.military"): "4 Ducal Retinues",
    ("3.32", "cards.john-of-luxembourg-lux.deed.effects.0.amount"): "4 Ducal Retinues",
    ("3.32", "cards.teutonic-order.military"): "4 Ducal Retinues",
    ("5.82", "cards.blanche-de-valois.political"): "Philip VI's kicker gives +2",
    ("5.82", "cards.philip-vi.political"): "Philip VI's kicker gives +2",
    ("6.22", "cards.flemish-cities.political"): "the Wool Trade's 1 less",
    ("6.22", "cards.flemish-cities.military"): "the Wool Trade's 1 less",
    ("6.22", "cards.flemish-cities.deed.effects.1.amount"): "the Wool Trade's 1 less",
    ("6.22", "cards.margaret-of-holland.political"): "the Wool Trade's 1 less",
    ("6.22", "cards.margaret-of-holland.deed.effects.1.amount"): "the Wool Trade's 1 less",
    ("6.5", "cards.peter-of-zittau.cost"): "the top 3 cards of the market deck",
    ("7.4", "cards.elizabeth-richeza.military"): "influence above 0",
    ("9.21", "cards.elizabeth-richeza.deed.effects.1.amount"): "at least 1 influence each",
    ("9.6", "cards.charles-i-robert.deed.effects.1.amount"): "the shield's 1 Eastern",
    ("12.11", "cards.john-of-luxembourg-lux.deed.effects.1.amount"): "1 vote on Bohemia",
    ("12.11", "cards.john-of-luxembourg-wit.deed.effects.1.amount"): "1 vote on Bohemia",
    ("12.12", "cards.edward-iii.deed.effects.1.amount"): "1 vote on an elector",
}


def _stated(data) -> dict[tuple[str, str], int]:
    """(rule, path) → value for each number a rulebook line states beside a card's name
    that the card carries at that path."""
    found: dict[tuple[str, str], int] = {}
    rule = "?"
    for line in RULES.read_text(encoding="utf-8").splitlines():
        head = re.match(r"\W*(\d+\.\d+)\s", line)
        rule = head.group(1) if head else rule  # a sub-bullet belongs to the rule above
        numbers = {int(n) for n in re.findall(r"(?<![\w.])(\d{1,2})(?![\w.]\d)",
                                              re.sub(r"\d+\.\d+", " ", line))}
        for card in data.cards:
            if numbers and card.name.values["en"] in line:
                for path in card_paths(data, card):
                    value = read_slot(data, path).value
                    if value in numbers:
                        found[(rule, path)] = value
    return found


@pytest.fixture(scope="module")
def data():
    if not RULES.is_file():
        pytest.skip("rulebook not available")
    return load_or_raise(ROOT)


def test_every_number_the_rulebook_states_of_a_card_is_a_fact(data):
    stated = _stated(data)
    assert ("6.41", "cards.declaration-of-rhens.event.effects.0.amount") in stated  # 2 Church lost
    assert ("6.47", "cards.dream-at-terenzo.event.effects.1.amount") in stated  # 2 Church gained
    before = rule_errors(data)
    free = [f"{rule} {path} = {value}" for (rule, path), value in sorted(stated.items())
            if (rule, path) not in ELSEWHERE
            and not rule_errors(patched(data, {path: value + 1})) - before]
    assert free == []
    assert set(ELSEWHERE) <= set(stated)  # each exception still names a number the rules state


def test_balance_refuses_the_dream_at_terenzo_church_at_its_line(project):
    (project / "card_data/balance.yaml").write_text(
        "tunable:\n  - {path: cards.louis-iv.political, range: [2, 5]}\n"
        "  - {path: cards.dream-at-terenzo.event.effects.1.amount, range: [1, 3]}\n"
        "  - {path: cards.declaration-of-rhens.event.effects.0.amount, range: [1, 3]}\n",
        encoding="utf-8")
    with pytest.raises(CardgenError) as caught:
        read_spec(project, load_or_raise(project))
    text = "\n".join(f"{f.location}: {f.code}: {f.message}" for f in caught.value.findings)
    assert "card_data/balance.yaml:3:5" in text and "rule 6.47" in text
    assert "card_data/balance.yaml:4:5" in text and "rule 6.41" in text
    assert text.count("balance-fixed") == 2


def test_shipped_balance_yaml_lists_no_fixed_value(data):
    read_spec(ROOT, data)  # raises on any refused tunable
