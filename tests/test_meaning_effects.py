"""The parameters of the effects are facts of the text (cardgen/check/opfacts.py): the op,
the target's quantifier, the side, the direction … A reviewed wording exception lets a line
be worded otherwise, never say another of these (``text-meaning`` naming the fact, its
canonical wording and the rule); the same edit without an exception is a ``text-differs``
naming the fact, whose hint never suggests an exception.
"""

from __future__ import annotations

import pytest

from tests.conftest import replace_in
from tests.test_meaning import CARDS, at, both, check, edit

# (file, old, new, lang, the fact the message names), English and Czech
EDITS = [
    # the op: place ↔ remove (5.21)
    *both("luxembourg.yaml", "place_influence: the op",
          en=("one battleground. Place 1 influence in Bohemia.",
              "one battleground. Remove 1 influence in Bohemia."),
          cs=("jedno bojiště. Umísti 1 vliv do Čech.", "jedno bojiště. Odstraň 1 vliv do Čech.")),
    # the op: draw ↔ discard (5.9)
    *both("luxembourg.yaml", "draw: the op",
          en=("in Lombardy. Draw 1 card.", "in Lombardy. Discard 1 card."),
          cs=("do Lombardie. Lízni 1 kartu.", "do Lombardie. Odhoď 1 kartu.")),
    # the op: gain ↔ lose (2.4)
    *both("market.yaml", "gain_currency: the op",
          en=("Gain 2 Church. Draw 1 card.", "Lose 2 Church. Draw 1 card."),
          cs=("Získej 2 církevní měny. Lízni", "Ztrať 2 církevní měny. Lízni")),
    # the op: acquire ↔ discard (6.2)
    *both("events.yaml", "acquire_free: ",  # cs: the verb "získají" is the side's too
          en=("Wittelsbach acquires a card from the market row for free.",
              "Wittelsbach discards a card from the market row for free."),
          cs=("Wittelsbachové získají zdarma kartu", "Wittelsbachové odhodí zdarma kartu")),
    # the op: look at the draw pile ↔ the market deck (5.92)
    *both("market.yaml", "look_draw_pile: the op",
          en=("top 3 cards of your draw pile and put", "top 3 cards of the market deck and put"),
          cs=("vrchní karty svého dobíracího balíčku a", "vrchní karty balíčku trhu a")),
    # the quantifier: in one battleground ↔ in every battleground (5.22)
    *both("luxembourg.yaml", "place_military: where = any",
          en=("Place 4 military in one battleground.", "Place 4 military in every battleground."),
          cs=("Umísti 4 vojska na jedno bojiště.", "Umísti 4 vojska na všechna bojiště.")),
    # the quantifier: split ↔ one country (5.21)
    *both("luxembourg.yaml", "place_influence: split = true",
          en=("Also place 2 influence, split among any elector countries.",
              "Also place 2 influence in one elector country."),
          cs=("Navíc umísti 2 vlivu do libovolných kurfiřtských zemí.",
              "Navíc umísti 2 vlivu do jedné kurfiřtské země.")),
]
IDS = [f"{e[4].split(':')[0]}-{e[3]}-{i}" for i, e in enumerate(EDITS)]


@pytest.mark.parametrize(("file", "old", "new", "lang", "fact"), EDITS, ids=IDS)
def test_an_effect_fact_changed_under_a_wording_exception(project, capsys, file, old, new,
                                                          lang, fact):
    line = edit(project, CARDS / file, old, new, lang, exception=True)
    code, findings = check(project, capsys)
    assert code == 1
    (hit,) = at(findings, "text-meaning", CARDS / file, line)
    assert hit["lang"] == lang
    assert f"'{fact}" in hit["message"] and "canonical \u201c" in hit["message"]
    assert hit["rule"]
    assert not [f for f in findings if f["code"] == "text-differs"]


@pytest.mark.parametrize(("file", "old", "new", "lang", "fact"), EDITS[::3], ids=IDS[::3])
def test_a_plain_edit_names_the_changed_fact_and_never_suggests_an_exception(
        project, capsys, file, old, new, lang, fact):
    line = edit(project, CARDS / file, old, new, lang)
    code, findings = check(project, capsys)
    assert code == 1
    (hit,) = at(findings, "text-differs", CARDS / file, line)
    assert f"'{fact}" in hit["message"]
    assert "wording_exception" not in hit["hint"] and "never allows" in hit["hint"]


def test_a_reworded_line_that_keeps_every_fact_passes_under_an_exception(project, capsys):
    edit(project, CARDS / "luxembourg.yaml", "Umísti 2 vojska do Lombardie. Lízni 1 kartu.",
         "Lízni 1 kartu. Umísti 2 vojska do Lombardie.", "cs", exception=True)
    code, findings = check(project, capsys)
    assert code == 0, findings


def test_a_wording_only_edit_suggests_the_exception(project, capsys):
    line = edit(project, CARDS / "luxembourg.yaml", "Umísti 2 vojska do Lombardie. Lízni 1 kartu.",
                "Lízni 1 kartu. Umísti 2 vojska do Lombardie.", "cs")
    code, findings = check(project, capsys)
    assert code == 1
    (hit,) = at(findings, "text-differs", CARDS / "luxembourg.yaml", line)
    assert "wording_exception" in hit["hint"] and "states every fact" in hit["message"]


def test_an_op_changed_while_both_texts_stay_is_one_finding_naming_it(project, capsys):
    line = replace_in(project / CARDS / "luxembourg.yaml",
                      "{op: place_influence, amount: 3, where: trier}",
                      "{op: remove_influence, amount: 3, where: trier}")
    code, findings = check(project, capsys)
    assert code == 1
    errors = [f for f in findings if f["severity"] == "error"]
    assert [(f["code"], f["line"], f["lang"]) for f in errors] == [("text-differs", line, None)]
    assert "'remove_influence: the op'" in errors[0]["message"]
