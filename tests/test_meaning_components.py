"""Board, token, player-aid and sheet texts say what the rules, the game and the cards say
(cardgen/check/restated.py): a number, a direction or a side changed in one language is
one error at its line — against the source the text names in `states:`, or, where it names
none, against the other language; a board label the rulebook names and an event's year
are rule facts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_meaning import DATA, check, edit

COMPONENTS = DATA / "components.yaml"
SHEETS = Path("layouts") / "sheets.yaml"

# (file, old, new, lang, finding code, what the message names), one per text kind
EDITS = [
    # player aid, against a rule fact: John's direction (10.31) and the draw bonus (4.2)
    (COMPONENTS, "moves his marker 1 step away from you", "moves his marker 1 step toward you", "en",
     "component-meaning", "away from"),
    (COMPONENTS, "posune se jeho ukazatel o 1 pole od tebe", "posune se jeho ukazatel o 1 pole k tobě", "cs",
     "component-meaning", "“od”"),
    (COMPONENTS, "+1 card per draw battleground", "+2 cards per draw battleground", "en",
     "component-meaning", "rule 4.2"),
    (COMPONENTS, "+1 kartu za každé ovládané bojiště", "+2 karty za každé ovládané bojiště", "cs",
     "component-meaning", "rule 4.2"),
    # player aid, against a game value (9.4 loyalty cost) and a card's effect (9.6)
    (COMPONENTS, "buy 1 loyalty step for 3 currency", "buy 1 loyalty step for 2 currency",
     "en", "component-meaning", "the number 3"),
    (COMPONENTS, "jeho držitel získá 1 východní", "jeho držitel získá 2 východní", "cs",
     "component-meaning", "card charles-i-robert"),
    # a reminder token against the card it reminds of (Margaret of Holland's discount)
    (COMPONENTS, 'en: "Next purchase\\u00a0−2"', 'en: "Next purchase\\u00a0−3"', "en",
     "component-meaning", "card margaret-of-holland"),
    # board labels: the supply line (8.4) and the stability legend (7.5)
    (COMPONENTS, "supply line: +2 influence", "supply line: +3 influence", "en",
     "component-meaning", "rule 8.4"),
    (COMPONENTS, "soupeř platí 2 politické za každý vliv", "soupeř platí 3 politické za každý vliv",
     "cs", "component-meaning", "rule 7.5"),
    # no source named: the two languages against each other (a side, a number)
    (COMPONENTS, "(na neutrálním poli Wittelsbachové)", "(na neutrálním poli Lucemburkové)",
     "cs", "component-meaning", "'Wittelsbach' 0×"),
    (COMPONENTS, "Posuň ukazatel kola.", "Posuň ukazatel kola o 2.", "cs", "component-meaning",
     "numbers 2"),
    # words that order or select are facts too (issue 41, item 8): oldest, top, bottom
    (COMPONENTS, "vyřaď nejstarší z 5 karet", "vyřaď nejnovější z 5 karet", "cs",
     "component-meaning", "'oldest' 0×"),
    (COMPONENTS, "Sedíš u horního okraje", "Sedíš u dolního okraje", "cs",
     "component-meaning", "'top' 0×"),
    # a home-print sheet text
    (SHEETS, "toto pravítko musí měřit přesně 100 mm", "toto pravítko musí měřit přesně 90 mm",
     "cs", "component-meaning", "numbers 90"),
    # a board label the rulebook names (2.27)
    (COMPONENTS, "loyalty_ludwig: {en: Ludwig, cs: Ludvík}",
     "loyalty_ludwig: {en: Ludwig, cs: Ludovít}", None, "rule-fact", "rule 2.27"),
    # a marker count the rulebook fixes (one round marker, 2.25)
    (COMPONENTS, "  round_marker: 1\n", "  round_marker: 2\n", None, "rule-fact",
     "rule 2.25, 3.22, 11.0 fixes 1"),
]


@pytest.mark.parametrize(("file", "old", "new", "lang", "code", "names"), EDITS,
                         ids=[f"{e[4]}-{e[3]}-{i}" for i, e in enumerate(EDITS)])
def test_a_changed_component_meaning_is_one_error_at_its_line(project, capsys, file, old, new,
                                                              lang, code, names):
    line = edit(project, file, old, new, lang)
    status, findings = check(project, capsys)
    assert status == 1
    errors = [f for f in findings if f["severity"] == "error"]
    assert [(f["code"], f["file"], f["line"]) for f in errors] == [(code, str(file), line)], \
        errors
    assert names in errors[0]["message"]


def test_an_event_year_outside_the_game_is_a_rule_fact(project, capsys):
    line = edit(project, DATA / "cards" / "events.yaml", "    year: 1333\n", "    year: 1350\n")
    status, findings = check(project, capsys)
    assert status == 1
    (hit,) = [f for f in findings if f["severity"] == "error"]
    assert (hit["code"], hit["line"], hit["rule"]) == ("rule-fact", line, "1.1")
    assert "1322, 1346" in hit["message"]


def test_a_source_that_does_not_exist_is_reported_at_the_text(project, capsys):
    line = edit(project, COMPONENTS, "states: [fact:supply_line]", "states: [fact:supply_lines]")
    status, findings = check(project, capsys)
    assert status == 1
    (hit,) = [f for f in findings if f["severity"] == "error"]
    assert hit["code"] == "component-meaning" and hit["line"] == line
    assert "no game fact 'supply_lines'" in hit["message"]
