"""Meaning facts are compared clause by clause under a wording exception: a negation, a
side or a condition moved to another clause, sentence or branch keeps every count of the
line equal, so only the clause comparison (``text-meaning``, "another clause" / "branches")
finds it — at the file:line of the edit, in both languages. Clauses end at sentence ends,
at the ``clauses:`` boundaries of card_data/text/<lang>.yaml and before "otherwise"; the
statements may stand in another order.
"""

from __future__ import annotations

import pytest

from tests.conftest import replace_in
from tests.test_meaning import CARDS, at, both, check, edit

MUHLDORF_EN = ("If Wittelsbach holds John: it places 5 military in Lower Bavaria. Otherwise: it "
               "places 3 military in Lower Bavaria and John’s loyalty moves 1 step toward Ludwig. "
               "Luxembourg places")
MUHLDORF_CS = ("Drží-li Jana Wittelsbachové: umístí 5 vojska do Dolního Bavorska. Jinak umístí "
               "3 vojska do Dolního Bavorska a ukazatel Janovy věrnosti se posune o 1 pole k Ludvíkovi. "
               "Lucemburkové umístí")

# (file, old, new, lang, fact class the message names); every count of the line stays equal.
MOVED = [
    # a negation moved from the condition into its consequence (":" ends a clause)
    *both("market.yaml", "negation",
          en=("If you don’t lead in Bohemia: place 3", "If you lead in Bohemia: don’t place 3"),
          cs=("Nevedeš-li v Čechách: umísti 3", "Vedeš-li v Čechách: neumísti 3")),
    # a negation moved to another sentence
    *both("wittelsbach.yaml", "negation",
          en=("from the game (never John). Draw 1 card.",
              "from the game. Draw 1 card (never John)."),
          cs=("balíčku (nikdy Jana). Lízni 1 kartu.",
              "balíčku. Lízni 1 kartu (nikdy Jana).")),
    # the sides swapped between the condition and another sentence
    *both("events.yaml", "Luxembourg",
          en=(MUHLDORF_EN, MUHLDORF_EN.replace("Wittelsbach", "@").replace("Luxembourg",
              "Wittelsbach").replace("@", "Luxembourg")),
          cs=(MUHLDORF_CS, MUHLDORF_CS.replace("Jana Wittelsbachové", "Jana Lucemburkové")
              .replace("Lucemburkové umístí", "Wittelsbachové umístí"))),
    # "you" moved from a leading condition to the main clause (the language’s comma boundary)
    *both("market.yaml", "you",
          en=("If you play Blanche de Valois later this round, that card gains +2.",
              "If Blanche de Valois is played later this round, you gain +2."),
          cs=("Zahraješ-li v tomto kole později Blanku z Valois, získá +2.",
              "Zahraje-li v tomto kole později Blanku z Valois, získáš +2.")),
    # the condition moved from the first branch into the "otherwise" branch
    *both("events.yaml", "condition",
          en=("If Wittelsbach holds John: it places 5 military in Lower Bavaria. Otherwise: it "
              "places 3 military in Lower Bavaria and John’s",
              "Wittelsbach holds John: it places 5 military in Lower Bavaria. Otherwise: if it "
              "places 3 military in Lower Bavaria, John’s"),
          cs=("Drží-li Jana Wittelsbachové: umístí 5 vojska do Dolního Bavorska. Jinak umístí "
              "3 vojska do Dolního Bavorska a ukazatel",
              "Drží Jana Wittelsbachové: umístí 5 vojska do Dolního Bavorska. Jinak umístí-li "
              "3 vojska do Dolního Bavorska, ukazatel")),
]


@pytest.mark.parametrize(("file", "old", "new", "lang", "fact"), MOVED,
                         ids=[f"{m[4]}-{m[3]}-{i}" for i, m in enumerate(MOVED)])
def test_a_fact_moved_to_another_clause_is_an_error(project, capsys, file, old, new, lang,
                                                     fact):
    line = edit(project, CARDS / file, old, new, lang, exception=True)
    code, findings = check(project, capsys)
    assert code == 1
    hits = at(findings, "text-meaning", CARDS / file, line)
    assert len(hits) == 1, [f"{f['code']} {f['file']}:{f['line']}" for f in findings]
    message = hits[0]["message"]
    assert hits[0]["lang"] == lang
    assert "another clause" in message or "branches of the condition" in message, message
    assert f"'{fact}'" in message, message
    assert [f["code"] for f in findings] == ["text-meaning"]


def test_the_condition_moved_into_the_other_branch_is_named_as_such(project, capsys):
    line = edit(project, CARDS / "events.yaml", *MOVED[-2][1:4], exception=True)
    _code, findings = check(project, capsys)
    (hit,) = at(findings, "text-meaning", CARDS / "events.yaml", line)
    assert "the branches of the condition say different things" in hit["message"]
    assert hit["rule"] == "10.0"  # if_holds_john, the condition that has the branches


@pytest.mark.parametrize(("lang", "old", "new"), [
    ("en", "John dies and both John cards leave the game.",
     "This round is the last. John dies and both John cards leave the game."),
    ("cs", "Jan padne a obě Janovy karty odejdou ze hry.",
     "Toto kolo je poslední. Jan padne a obě Janovy karty odejdou ze hry."),
])
def test_statements_in_another_order_keep_their_meaning(project, capsys, lang, old, new):
    """Word order is what an exception relaxes: the last sentence put first is no error."""
    last = {"en": " This round is the last.\"", "cs": " Toto kolo je poslední.\""}[lang]
    edit(project, CARDS / "events.yaml", last, "\"", lang, exception=True)
    edit(project, CARDS / "events.yaml", old, new, lang)
    code, findings = check(project, capsys)
    assert (code, findings) == (0, [])


MUHLDORF = {"en": ("If Wittelsbach holds John: it places 5 military in Lower Bavaria.",
                   "Otherwise: it places 3 military in Lower Bavaria and John’s loyalty moves 1 "
                   "step toward Ludwig.", "Luxembourg places 2 influence in the Palatinate."),
            "cs": ("Drží-li Jana Wittelsbachové: umístí 5 vojska do Dolního Bavorska.",
                   "Jinak umístí 3 vojska do Dolního Bavorska a ukazatel Janovy věrnosti se posune o 1 "
                   "pole k Ludvíkovi.", "Lucemburkové umístí 2 vlivu do Falce.")}


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_otherwise_branch_moves_with_its_condition(project, capsys, lang):
    """The last sentence put first keeps the condition and its "Otherwise" together."""
    condition, otherwise, last = MUHLDORF[lang]
    edit(project, CARDS / "events.yaml", " ".join(MUHLDORF[lang]),
         f"{last} {condition} {otherwise}", lang, exception=True)
    assert check(project, capsys) == (0, [])


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_an_otherwise_before_its_condition_is_an_error(project, capsys, lang):
    condition, otherwise, last = MUHLDORF[lang]
    line = edit(project, CARDS / "events.yaml", " ".join(MUHLDORF[lang]),
                f"{otherwise} {condition} {last}", lang, exception=True)
    code, findings = check(project, capsys)
    assert code == 1
    (hit,) = findings
    assert (hit["code"], hit["line"], hit["lang"]) == ("text-meaning", line, lang)
    assert "an 'otherwise' sentence does not follow its condition" in hit["message"]


def test_a_broken_clause_boundary_is_reported_at_its_line(project, capsys):
    path = project / "card_data" / "text" / "cs.yaml"
    line = replace_in(path, "  - ',(?=\\s*(?:potom|pak)\\b)'", "  - ',(?=\\s*(?:potom|pak\\b)'")
    code, findings = check(project, capsys)
    assert code == 1
    assert [(f["code"], f["file"], f["line"], f["lang"]) for f in findings] == [
        ("text-vocabulary", "card_data/text/cs.yaml", line, "cs")]
    assert "clauses" in findings[0]["message"] and "not a regular expression" in findings[0]["message"]
