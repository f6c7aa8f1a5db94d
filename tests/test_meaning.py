"""Meaning-changing edits, each applied alone to a copy of the project: `cardgen check`
exits 1 with a finding of the intended check at the file:line of the edit (and, for a
rulebook fact, naming the line of the fact in card_data/rules/facts.yaml).

* MEANING: the written text changes its meaning on a line that has a reviewed
  ``wording_exception`` for that language, so only the meaning check (``text-meaning``)
  can catch it — never ``text-differs`` by luck; the message names the fact class.
* EFFECTS: an effect changes while the text stays (``text-differs`` in both languages).
* FACTS: a value the rulebook fixes changes (``rule-fact``, rules 2.25 … 12.12).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardgen.cli import main
from cardgen.wording.language import fix_text
from tests.conftest import replace_in

DATA = Path("card_data")
CARDS = DATA / "cards"
FACTS = DATA / "rules" / "facts.yaml"


def _find(text: str, old: str) -> re.Match[str]:
    """``old`` in ``text``, any space in ``old`` matching a plain or non-breaking one and an
    apostrophe a straight or typographic one."""
    pattern = r"[ \u00a0]".join(re.escape(part).replace("'", "['’]") for part in old.split(" "))
    found = re.search(pattern, text)
    assert found, f"{old!r} not found"
    return found


def edit(project: Path, file: Path, old: str, new: str, lang: str | None = None,
         exception: bool = False) -> int:
    """Replace ``old`` by ``new`` (with its language's typography); with ``exception``, first
    record a reviewed wording exception for ``lang`` on the line that holds ``old``.
    Returns the 1-based line of the edit."""
    path = project / file
    text = path.read_text(encoding="utf-8")
    found = _find(text, old)
    if exception:
        head = text.rindex("\n      text:\n", 0, found.start())
        text = (text[:head] + f"\n      wording_exception: {{{lang}: reviewed wording}}"
                + text[head:])
        found = _find(text, old)
    if lang:
        new = fix_text(new, lang)
    path.write_text(text[:found.start()] + new + text[found.end():], encoding="utf-8")
    return text[:found.start()].count("\n") + 1


def check(project: Path, capsys, *extra: str) -> tuple[int, list[dict]]:
    """Exit code and findings of `cardgen check`, less the warning that the shipped project
    has no art yet (a copy of it never has): these tests are about meaning."""
    code = main(["--project", str(project), "check", "--format", "json", *extra])
    out = capsys.readouterr().out
    return code, [f for f in json.loads(out)["findings"] if f["code"] != "art-placeholder"]


def at(findings: list[dict], code: str, file: Path, line: int) -> list[dict]:
    return [f for f in findings if f["code"] == code and f["file"] == str(file)
            and f["line"] == line]


def test_shipped_data_passes_with_no_warnings(capsys):
    code, findings = check(Path(__file__).resolve().parent.parent, capsys)
    assert code == 0
    assert findings == []  # the missing art aside (tests/test_strict.py)


def both(file: str, fact: str, en: tuple[str, str], cs: tuple[str, str]
         ) -> list[tuple[str, str, str, str, str]]:
    """The same meaning edit in English and in Czech: (file, old, new, lang, fact)."""
    return [(file, *en, "en", fact), (file, *cs, "cs", fact)]


# (file, old, new, lang, fact class the message names), English and Czech
MEANING = [
    # John’s direction (10.3)
    *both("market.yaml", "toward Charles",
          en=("1 step toward Charles. If you play", "1 step toward Ludwig. If you play"),
          cs=("o 1 pole ke Karlovi. Zahraješ", "o 1 pole k Ludvíkovi. Zahraješ")),
    *both("market.yaml", "either way",
          en=("1 step either way. Draw", "1 step toward Charles. Draw"),
          cs=("o 1 pole libovolným směrem. Lízni", "o 1 pole ke Karlovi. Lízni")),
    # sides: Luxembourg / Wittelsbach, you / opponent / each
    *both("events.yaml", "Luxembourg",
          en=("Luxembourg places 4 military", "Wittelsbach places 4 military"),
          cs=("Lucemburkové umístí 4 vojska", "Wittelsbachové umístí 4 vojska")),
    *both("luxembourg.yaml", "opponent",
          en=("Place 3 influence in Trier.", "Your opponent places 3 influence in Trier."),
          cs=("Umísti 3 vlivu do Trevíru.", "Soupeř umístí 3 vlivu do Trevíru.")),
    *both("events.yaml", "each side",
          en=("Each side loses 2 Church (never", "You lose 2 Church (never"),
          cs=("Každá strana ztratí 2 církevní měny (nikdy", "Ztratíš 2 církevní měny (nikdy")),
    # negations
    *both("market.yaml", "negation",
          en=("If you don’t lead in Bohemia", "If you lead in Bohemia"),
          cs=("Nevedeš-li v Čechách", "Vedeš-li v Čechách")),
    *both("market.yaml", "negation",
          en=("Church cards can’t be countered", "Church cards can be countered"),
          cs=("církevních karet nelze zrušit kontrou", "církevních karet lze zrušit kontrou")),
    *both("wittelsbach.yaml", "negation",
          en=("from the game (never John). Draw", "from the game. Draw"),
          cs=("balíčku (nikdy Jana). Lízni", "balíčku. Lízni")),
    # comparatives
    *both("wittelsbach.yaml", "less",
          en=("costs 2 less. Draw", "costs 2 more. Draw"),
          cs=("stojí o 2 méně. Lízni", "stojí o 2 více. Lízni")),
    # quantifiers
    *both("luxembourg.yaml", "one of",
          en=("in one of Mainz, Trier or Cologne.", "split among Mainz, Trier and Cologne."),
          cs=('do Mohuče, Trevíru nebo Kolína nad Rýnem."',
              'a rozděl je mezi Mohuč, Trevír a Kolín nad Rýnem."')),
    *both("wittelsbach.yaml", "up to",
          en=("Remove up to 2 cards", "Remove 2 cards"),
          cs=("Vyřaď ze hry až 2 karty", "Vyřaď ze hry 2 karty")),
    # conditions and their branches
    *both("events.yaml", "branches",
          en=("it places 5 military in Lower Bavaria. Otherwise: it places 3 military",
              "it places 3 military in Lower Bavaria. Otherwise: it places 5 military"),
          cs=("umístí 5 vojska do Dolního Bavorska. Jinak umístí 3 vojska",
              "umístí 3 vojska do Dolního Bavorska. Jinak umístí 5 vojska")),
    *both("luxembourg.yaml", "condition",
          en=("If Wittelsbach holds John: move", "Wittelsbach holds John: move"),
          cs=("Drží-li Jana Wittelsbachové: posuň", "Drží Jana Wittelsbachové: posuň")),
    # durations
    *both("market.yaml", "this round",
          en=("Block one battleground for the rest of the round:", "Block one battleground:"),
          cs=("Zablokuj do konce kola jedno bojiště", "Zablokuj jedno bojiště")),
    *both("market.yaml", "round end",
          en=("Court: at round end, gain 1 Eastern.", "Court: gain 1 Eastern."),
          cs=("dvoře: na konci kola získej 1 východní", "dvoře: získej 1 východní")),
    *both("market.yaml", "later",
          en=("Blanche de Valois later this round, that", "Blanche de Valois, that"),
          cs=("Zahraješ-li v tomto kole později Blanku", "Zahraješ-li Blanku")),
    *both("events.yaml", "last",
          en=(' This round is the last."', '"'),
          cs=(' Toto kolo je poslední."', '"')),
    *both("events.yaml", "free",
          en=("acquires a card from the market row for free.",
              "acquires a card from the market row."),
          cs=("získají zdarma kartu z řady trhu.", "získají kartu z řady trhu.")),
    # sentence count
    *both("events.yaml", "sentences",
          en=("below 0). Each side places", "below 0). Then it rests. Each side places"),
          cs=("pod 0). Každá strana umístí", "pod 0). Potom si oddechne. Každá strana umístí")),
    # numbers, places, currencies, cards, shields
    *both("luxembourg.yaml", "numbers",
          en=("Place 3 influence in Trier.", "Place 2 influence in Trier."),
          cs=("Umísti 3 vlivu do Trevíru.", "Umísti 4 vlivu do Trevíru.")),
    *both("luxembourg.yaml", "places",
          en=("Place 3 influence in Trier.", "Place 3 influence in Mainz."),
          cs=("Umísti 3 vlivu do Trevíru.", "Umísti 3 vlivu do Mohuče.")),
    *both("wittelsbach.yaml", "currencies",
          en=('en: "Gain 2 German."', 'en: "Gain 2 Church."'),
          cs=('cs: "Získej 2 říšské měny."', 'cs: "Získej 2 církevní měny."')),
    *both("market.yaml", "card names",
          en=("If you play Blanche de Valois", "If you play Elizabeth of Bohemia"),
          cs=("později Blanku z Valois", "později Elišku Přemyslovnu")),
    *both("luxembourg.yaml", "shields",
          en=("If :shield-clement-vi: is in the Papal Curia",
              "If :shield-edward-iii: is in the Papal Curia"),
          cs=("Je-li :shield-clement-vi: v papežské kurii",
              "Je-li :shield-edward-iii: v papežské kurii")),
]

@pytest.mark.parametrize(("file", "old", "new", "lang", "fact"), MEANING,
                         ids=[f"{m[4]}-{m[3]}-{i}" for i, m in enumerate(MEANING)])
def test_meaning_change_under_a_wording_exception_is_an_error(project, capsys, file, old, new,
                                                               lang, fact):
    line = edit(project, CARDS / file, old, new, lang, exception=True)
    code, findings = check(project, capsys)
    assert code == 1
    hits = at(findings, "text-meaning", CARDS / file, line)
    assert len(hits) == 1, [f"{f['code']} {f['file']}:{f['line']}" for f in findings]
    assert hits[0]["lang"] == lang
    assert fact in hits[0]["message"]
    assert not [f for f in findings if f["code"] == "text-differs"]


def test_meaning_findings_cite_the_rule_of_the_clause_that_differs(project, capsys):
    # Philip VI: move_loyalty (10.3) then kicker (5.82); the kicker’s card name changes.
    line = edit(project, CARDS / "market.yaml", "If you play Blanche de Valois",
                "If you play Elizabeth of Bohemia", "en", exception=True)
    _code, findings = check(project, capsys)
    (hit,) = at(findings, "text-meaning", CARDS / "market.yaml", line)
    assert hit["rule"] == "5.82"


# An effect the rulebook does not fix changes while the text stays: (file, old, new, who,
# fact class) on the effects (one the rulebook fixes is one rule-fact: see FOLDED).
EFFECTS = [
    ("luxembourg.yaml", "{op: place_military, amount: 2, where: lombardy}",
     "{op: place_military, amount: 2, where: tyrol}", "Raimondino", "places"),
    ("luxembourg.yaml", "{op: place_influence, amount: 3, where: bohemia}",
     "{op: place_influence, amount: 2, where: bohemia}", "Elizabeth", "numbers"),
    ("events.yaml", "{op: place_military, amount: 4, where: lombardy, who: luxembourg}",
     "{op: place_military, amount: 4, where: lombardy, who: wittelsbach}", "San Felice",
     "Luxembourg"),
    ("market.yaml", "{op: if_shield, shield: casimir-iii, location: your-court, then: [{op: "
     "cheaper_cards, amount: 1, card_types: [eastern]}]}", "{op: cheaper_cards, amount: 1, "
     "card_types: [eastern]}", "Casimir III", "condition"),
]


@pytest.mark.parametrize(("file", "old", "new", "who", "fact"), EFFECTS,
                         ids=[e[3] for e in EFFECTS])
def test_effect_changed_while_the_text_stays(project, capsys, file, old, new, who, fact):
    """One error at the changed effect: both texts differ from it the same way. (A Deed
    probe warning may come and go with the sampled games an effect changes: not counted.)"""
    line = replace_in(project / CARDS / file, old, new)
    code, findings = check(project, capsys)
    assert code == 1
    errors = [f for f in findings if f["severity"] == "error"]
    assert [(f["code"], f["file"], f["line"], f["lang"]) for f in errors] == [
        ("text-differs", str(CARDS / file), line, None)], findings
    assert fact in errors[0]["message"] and "texts both say otherwise" in errors[0]["message"]


def test_texts_changed_each_its_own_way_are_a_finding_each(project, capsys):
    en = edit(project, CARDS / "luxembourg.yaml", "Place 3 influence in Trier.",
              "Place 2 influence in Trier.")
    cs = edit(project, CARDS / "luxembourg.yaml", "Umísti 3 vlivu do Trevíru.",
              "Umísti 4 vlivu do Trevíru.", "cs")
    code, findings = check(project, capsys)
    assert code == 1
    assert [(f["code"], f["line"], f["lang"]) for f in findings] == [
        ("text-differs", en, "en"), ("text-differs", cs, "cs")]


def test_wording_only_change_is_an_error_in_both_languages(project, capsys):
    en = edit(project, CARDS / "wittelsbach.yaml", "en: \"Gain 2 German.\"",
              "en: \"Now gain 2 German.\"")
    cs = edit(project, CARDS / "wittelsbach.yaml", "cs: \"Získej 2 říšské měny.\"",
              "cs: \"Teď získej 2 říšské měny.\"", "cs")
    code, findings = check(project, capsys)
    assert code == 1
    assert [(f["lang"], f["line"]) for f in findings if f["code"] == "text-differs"] == [
        ("en", en), ("cs", cs)]
    assert all(f["severity"] == "error" for f in findings)


def test_number_changed_in_czech_only_is_one_finding(project, capsys):
    line = edit(project, CARDS / "luxembourg.yaml", "Umísti 3 vlivu do Trevíru.",
                "Umísti 2 vlivu do Trevíru.", "cs")
    code, findings = check(project, capsys)
    assert code == 1
    assert [(f["code"], f["line"]) for f in findings] == [("text-differs", line)]


# A value the rulebook fixes: (file, old, new, a unique string of the fact’s line, rule).
FACT_EDITS = [
    ("cards/events.yaml", "    year: 1338\n", "    year: 1339\n",
     'quote: "Declaration of Rhens (1338)"', "6.41"),
    ("cards/events.yaml", "    year: 1345\n", "    year: 1344\n",
     'quote: "The Holland Inheritance (1345)"', "6.41"),
    ("places.yaml", "    kind: ecclesiastical\n    stability: 4\n",
     "    kind: ecclesiastical\n    stability: 3\n", 'quote: "Example: Mainz (stability 4)."', "7.5"),
    ("places.yaml", "    bonus: play\n    links: [brandenburg]",
     "    bonus: card\n    links: [brandenburg]",
     "place: tyrol\n    bonus: play", "2.25"),
    ("places.yaml", "    bonus: card\n    links: [mainz, trier]",
     "    bonus: play\n    links: [mainz, trier]",
     "place: lombardy\n    bonus: card", "8.31"),
    ("places.yaml", "    kind: secular\n    stability: 2\n", "    kind: ecclesiastical\n    stability: 2\n",
     "place: saxony, kind: secular}", "2.21"),
    ("places.yaml", "    links: [cologne]", "    links: [cologne, saxony]",
     "place: saxony\n    supply_links: 0", "8.41"),
    ("game.yaml", "rounds: [3, 4, 5, 6]", "rounds: [3, 4, 5]", "phase_changes_after: [2, 6]",
     "9.7"),
    ("game.yaml", "counter_cards: 4 ", "counter_cards: 5 ", "counts: {counter_cards: 4}", "5.6"),
    ("game.yaml", "set_aside: [john-of-luxembourg-lux]", "set_aside: []",
     "set_aside: [john-of-luxembourg-lux]", "3.32"),
    ("cards/events.yaml", "{op: if_shield, shield: edward-iii, location: court-louis",
     "{op: if_shield, shield: edward-iii, location: court-charles",
     "card: battle-of-crecy\n    effect: {op: if_shield", "12.12"),
    ("cards/events.yaml", "{op: move_loyalty, steps: 2, direction: charles}",
     "{op: move_loyalty, steps: 2, direction: ludwig}", "card: tyrol-marriage\n    effect",
     "10.32"),
    ("cards/market.yaml", "{op: move_loyalty, steps: 1, direction: charles}\n        - {op: kicker",
     "{op: move_loyalty, steps: 1, direction: ludwig}\n        - {op: kicker",
     "card: philip-vi\n    effect: {op: move_loyalty", "10.33"),
    ("cards/market.yaml", "{op: if_lead, country: bohemia, lead: false",
     "{op: if_lead, country: bohemia, lead: true", "card: henry-of-lipa", "5.31"),
    ("cards/luxembourg.yaml", "          location: curia\n", "          location: your-curia\n",
     "card: pierre-de-rosieres", "5.31"),
    ("cards/market.yaml", "    yield: [church]\n    cost: [church, church, german]\n",
     "    yield: [german]\n    cost: [church, church, german]\n",
     "card: heinrich-of-virneburg\n    types", "5.52"),
    ("cards/events.yaml", "cs: Rhenské prohlášení}", "cs: Rhenská deklarace}",
     "card: declaration-of-rhens, name:", "6.41"),
    ("cards/market.yaml", "name: {en: Gerlach of Nassau, cs: Gerlach Nasavský}",
     "name: {en: Gerlach of Nassau, cs: Gerlach z Nassau}", "card: gerlach-of-nassau, name:",
     "3.41, 6.42"),
    ("places.yaml", "name: {en: Lombardy, cs: Lombardie}", "name: {en: Lombardia, cs: Lombardie}",
     "place: lombardy, name:", "2.22"),
]


@pytest.mark.parametrize(("file", "old", "new", "fact", "rule"), FACT_EDITS,
                         ids=[f"{e[4]}-{i}" for i, e in enumerate(FACT_EDITS)])
def test_rulebook_fact_changed_in_the_data(project, capsys, file, old, new, fact, rule):
    """One finding, at the data: a supply line added to Saxony is not a text finding on the
    event that names the line's countries too, nor a round left out of the phases an
    engine finding too."""
    line = replace_in(project / DATA / file, old, new)
    line += next(i for i, (a, b) in enumerate(zip(old.split("\n"), new.split("\n"),
                                                  strict=False)) if a != b)  # the changed line
    fact_line = _fact_line(project, fact)
    code, findings = check(project, capsys)
    assert code == 1
    hits = at(findings, "rule-fact", DATA / file, line)
    assert len(hits) == len(findings) == 1, [f"{f['code']} {f['file']}:{f['line']} "
                                             f"{f['message'][:80]}" for f in findings]
    assert all(f"facts.yaml:{fact_line}:" in f["message"] for f in hits), hits
    assert all(f["rule"] == rule for f in hits)
    assert not any("fixes nothing" in f["message"] for f in hits), hits  # the fact’s value shown


# An effect the rulebook fixes changes while its texts stay: (file, old, new, the fact’s line)
FOLDED = [FACT_EDITS[i] for i, e in enumerate(FACT_EDITS) if "effect" in e[3] or "henry" in e[3]
          or "pierre" in e[3]]


@pytest.mark.parametrize(("file", "old", "new", "fact", "rule"), FOLDED,
                         ids=[f"{e[4]}-{i}" for i, e in enumerate(FOLDED)])
def test_an_effect_the_rulebook_fixes_changed_is_one_finding(project, capsys, file, old, new,
                                                              fact, rule):
    """One edit, one finding: the rule-fact at the effect, naming the fact’s line and
    noting that both texts still say what the rule fixes (no text-differs beside it)."""
    replace_in(project / DATA / file, old, new)
    code, findings = check(project, capsys)
    assert code == 1
    assert [f["code"] for f in findings] == ["rule-fact"], findings
    (hit,) = findings
    assert hit["rule"] == rule and f"facts.yaml:{_fact_line(project, fact)}:" in hit["message"]
    en, cs = _texts_after((project / DATA / file).read_text(encoding="utf-8"), hit["line"])
    assert f"the en ({DATA / file}:{en}:13) and cs ({DATA / file}:{cs}:13) texts still say " \
        "what the rule fixes" in hit["message"]


def test_a_text_edit_beside_a_rulebook_effect_change_is_its_own_finding(project, capsys):
    effect = replace_in(project / CARDS / "events.yaml", "{op: move_loyalty, steps: 2, "
                        "direction: charles}", "{op: move_loyalty, steps: 2, direction: ludwig}")
    cs = edit(project, CARDS / "events.yaml", "umístí 3 vojska do Tyrolska.",
              "umístí 4 vojska do Tyrolska.", "cs")
    code, findings = check(project, capsys)
    assert code == 1
    assert [(f["code"], f["line"]) for f in findings] == [("rule-fact", effect),
                                                          ("text-differs", cs)]
    fact, differs = findings
    assert "numbers: written 2, 4, canonical 2, 3" in differs["message"]
    assert "toward" not in differs["message"].split("written:")[0]  # the rule’s direction
    assert "canonical (as rule 10.32 fixes the data)" in differs["message"]
    assert f"the en ({CARDS / 'events.yaml'}:{cs - 1}:13) text still says" in fact["message"]


def test_a_reworded_text_beside_a_rulebook_effect_change_is_no_finding_of_its_own(project,
                                                                                 capsys):
    """Under a wording exception the text states the rule’s facts in another order: the
    effect’s rule-fact is the one finding, and it notes the Czech text too."""
    cs = edit(project, CARDS / "events.yaml", "Wittelsbachové umístí 3 vojska do Tyrolska. "
              "Posuň ukazatel Janovy věrnosti o 2 pole ke Karlovi.", "Posuň ukazatel Janovy "
              "věrnosti o 2 pole ke Karlovi. Wittelsbachové umístí 3 vojska do Tyrolska.", "cs",
              exception=True)
    replace_in(project / CARDS / "events.yaml", "{op: move_loyalty, steps: 2, direction: "
               "charles}", "{op: move_loyalty, steps: 2, direction: ludwig}")
    code, findings = check(project, capsys)
    assert code == 1
    (hit,) = findings
    assert hit["code"] == "rule-fact"
    assert f"cs ({CARDS / 'events.yaml'}:{cs}:13) texts still say" in hit["message"]


# An effect the rulebook fixes removed outright, its texts left as they were: (file, old,
# new, the fact's unique string, rule, the rule-fact's line from the edit's line).
REMOVED = [
    ("cards/events.yaml", "        - {op: move_loyalty, steps: 2, direction: charles}\n", "",
     "card: tyrol-marriage\n    effect", "10.32", -1),
    ("cards/events.yaml", "        - {op: last_round}\n", "", "effect: {op: last_round}", "12.13",
     -2),
    ("cards/events.yaml", ", {op: move_loyalty, steps: 1, direction: ludwig, who: wittelsbach}]}",
     "]}", "card: battle-of-muhldorf\n    effect: {op: if_holds_john", "6.47", 0),
    ("cards/market.yaml", "        - {op: look_draw_pile, amount: 3, action: discard_or_top}\n",
     "", "card: charles-i-robert\n    effect: {op: look_draw_pile", "5.92", 0),
    # a condition removed from around its consequence
    ("cards/luxembourg.yaml", "- op: if_holds_john\n          holder: wittelsbach\n          then: "
     "[{op: move_loyalty, steps: 1, direction: charles}]", "- {op: move_loyalty, steps: 1, "
     "direction: charles}", "card: blanche-de-valois\n    effect", "10.33", 0),
    ("cards/market.yaml", "{op: if_lead, country: bohemia, lead: false, then: [{op: "
     "place_influence, amount: 3, where: bohemia}]}", "{op: place_influence, amount: 3, where: "
     "bohemia}", "card: henry-of-lipa", "5.31", 0),
    ("cards/market.yaml", "{op: if_shield, shield: clement-vi, location: curia, then: [{op: "
     "stop_yield, card: heinrich-of-virneburg, currency: church}]}", "{op: stop_yield, card: "
     "heinrich-of-virneburg, currency: church}", "line: passive\n    effect: {op: if_shield, "
     "shield: clement-vi", "11.4", 0),
]


@pytest.mark.parametrize(("file", "old", "new", "fact", "rule", "offset"), REMOVED,
                         ids=[f"{e[4]}-{i}" for i, e in enumerate(REMOVED)])
def test_an_effect_the_rulebook_fixes_removed_is_one_finding(project, capsys, file, old, new,
                                                              fact, rule, offset):
    """One finding at the line's effects, naming the fact's line; the texts that still say
    what the rule fixes are noted in it, and no other check repeats the mistake."""
    line = replace_in(project / DATA / file, old, new) + offset
    code, findings = check(project, capsys)
    assert code == 1
    assert [(f["code"], f["file"], f["line"]) for f in findings] == [
        ("rule-fact", str(DATA / file), line)], findings
    (hit,) = findings
    assert hit["rule"] == rule and f"facts.yaml:{_fact_line(project, fact)}:" in hit["message"]
    assert "texts still say what the rule fixes" in hit["message"]


def test_a_text_edit_beside_a_removed_rulebook_effect_is_its_own_finding(project, capsys):
    effect = replace_in(project / CARDS / "events.yaml", "        - {op: move_loyalty, steps: 2, "
                        "direction: charles}\n", "") - 1
    cs = edit(project, CARDS / "events.yaml", "umístí 3 vojska do Tyrolska.",
              "umístí 4 vojska do Tyrolska.", "cs")
    code, findings = check(project, capsys)
    assert code == 1
    assert [(f["code"], f["line"]) for f in findings] == [("rule-fact", effect),
                                                          ("text-differs", cs)]
    fact, differs = findings
    assert "numbers: written 2, 4, canonical 2, 3" in differs["message"]
    assert "canonical (as rule 10.32 fixes the data)" in differs["message"]
    assert "no 'move_loyalty' effect on the event line" in fact["message"]
    assert f"the en ({CARDS / 'events.yaml'}:{cs - 1}:13) text still says" in fact["message"]


# A card or place the rulebook names, renamed: (file, old, new, langs renamed, fact, the
# texts that name it, as "file:line" strings found by a unique string of each).
RENAMED = [
    ("cards/market.yaml", "cs: Gerlach Nasavský}", "cs: Gerlach z\u00a0Nassau}", ["cs"],
     "card: gerlach-of-nassau, name:", ["cs: \"Polož :shield-clement-vi:"]),
    ("cards/market.yaml", "{en: Gerlach of Nassau, cs: Gerlach Nasavský}",
     "{en: Gerlach von Nassau, cs: Gerlach z\u00a0Nassau}", ["en", "cs"],
     "card: gerlach-of-nassau, name:", ["en: \"Place :shield-clement-vi:",
                                       "cs: \"Polož :shield-clement-vi:"]),
    ("places.yaml", "name: {en: Lombardy, cs: Lombardie}", "name: {en: Lombardia, cs: Lombardie}",
     ["en"], "place: lombardy, name:", []),
]


@pytest.mark.parametrize(("file", "old", "new", "langs", "fact", "texts"), RENAMED,
                         ids=[f"{e[4].split(',')[0]}-{'+'.join(e[3])}" for e in RENAMED])
def test_a_renamed_rulebook_name_is_one_finding(project, capsys, file, old, new, langs, fact,
                                                texts):
    """One finding at the name, whichever languages changed, naming the fact's line; the
    texts that still use the rulebook's name are noted in it, not findings of their own."""
    line = replace_in(project / DATA / file, old, new)
    code, findings = check(project, capsys)
    assert code == 1
    assert [(f["code"], f["file"], f["line"]) for f in findings] == [
        ("rule-fact", str(DATA / file), line)], findings
    (hit,) = findings
    assert hit["lang"] == (langs[0] if len(langs) == 1 else None)
    assert f"facts.yaml:{_fact_line(project, fact)}:" in hit["message"]
    assert all(f"({lang})" in hit["message"] for lang in langs)
    events = (CARDS / "events.yaml").read_text(encoding="utf-8")
    for text in texts:
        assert f"{CARDS / 'events.yaml'}:{events[:events.index(text)].count(chr(10)) + 1}:" \
            in hit["message"]
    assert "still say" in hit["message"]


def _fact_line(project: Path, fact: str) -> int:
    """The line of the "- " that opens the fact holding the unique string ``fact``."""
    facts = (project / FACTS).read_text(encoding="utf-8")
    item = facts.rindex("\n  - ", 0, _find(facts, fact).start()) + 1
    return facts[:item].count("\n") + 1


def _texts_after(text: str, line: int) -> tuple[int, int]:
    """The (1-based) lines of the en and cs texts that follow line ``line`` of ``text``."""
    lines = text.split("\n")
    return tuple(next(n for n in range(line, len(lines)) if lines[n].startswith(f"        {lang}: "))
                 + 1 for lang in ("en", "cs"))


def test_a_fifth_counter_card_is_listed_with_the_four(project, capsys):
    path = project / CARDS / "market.yaml"
    line = replace_in(path, "    acquire:\n      effects:\n        - {op: place_shield, "
                      "shield: edward-iii",
                      "    counter:\n      effects:\n        - {op: counter}\n      text:\n"
                      "        en: \"Discard this card from your hand to counter a Deed.\"\n"
                      "        cs: \"Odhoď tuto kartu z\u00a0ruky a\u00a0zruš kontrou soupeřův "
                      "čin.\"\n    acquire:\n      effects:\n        - {op: place_shield, "
                      "shield: edward-iii")
    code, findings = check(project, capsys)
    assert code == 1
    (hit,) = [f for f in findings if f["code"] == "inventory-count"]
    assert hit["rule"] == "5.6" and "data has 5, game.yaml expects 4" in hit["message"]
    assert f"edward-iii at card_data/cards/market.yaml:{line}" in hit["message"]
    assert hit["message"].count(" at card_data/cards/") == 5


def test_a_changed_fact_in_the_rulebook_file_is_one_deliberate_edit(project, capsys):
    replace_in(project / FACTS, 'rulebook: "0.27.4"', 'rulebook: "0.28.0"')
    code, findings = check(project, capsys)
    assert code == 1
    assert [f["code"] for f in findings] == ["rule-fact"]
    assert "facts.yaml is for rulebook 0.28.0" in findings[0]["message"]


def test_a_malformed_fact_is_reported_at_the_fact(project, capsys):
    line = replace_in(project / FACTS, "    place: mainz\n    stability: 4\n",
                      "    place: mainz\n    stabilty: 4\n")
    code, findings = check(project, capsys)
    assert code == 1
    (hit,) = findings
    assert hit["code"] == "fact-shape" and "stabilty" in hit["message"]
    assert hit["file"] == str(FACTS) and line - 3 <= hit["line"] <= line


def test_a_card_text_that_swaps_top_for_bottom_is_an_error_at_its_line(project, capsys):
    """Issue 41, item 8: "the top 3 cards" (Peter of Zittau, rule 6.5) written as the bottom
    ones states another card: the ordering words are facts like numbers and directions."""
    line = edit(project, DATA / "cards" / "market.yaml", "3 vrchní karty balíčku trhu",
                "3 spodní karty balíčku trhu", "cs")
    status, findings = check(project, capsys)
    assert status == 1
    (hit,) = at(findings, "text-differs", DATA / "cards" / "market.yaml", line)
    assert "'bottom' written 1×" in hit["message"] and "'top' written 0×" in hit["message"]
