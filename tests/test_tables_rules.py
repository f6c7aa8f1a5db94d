"""The rules tables say what the rules say (issue 28): each table's rows against the data
and the rulebook facts (card_data/rules/facts.yaml), read here straight from the YAML and
the rulebook text, so a wrong prototype star or a missing citation fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from cardgen.tables import tables_document
from cardgen.tables.table import Table
from tests.conftest import ROOT, at, copy_project, replace_in

LANGS = ("en", "cs")
#: the rulebook, in shared/ beside the repository (as CI lays it out too)
RULES = Path(__file__).resolve().parents[2] / "shared" / "rules" / "rules-v0.27.4-en.txt"


def _yaml(name: str) -> dict:
    with (ROOT / "card_data" / name).open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@pytest.fixture(scope="module")
def docs() -> dict[str, dict[str, Table]]:
    return {lang: {t.id: t for t in tables_document(at(ROOT), lang).tables} for lang in LANGS}


def _rows(table: Table) -> dict[str, tuple]:
    return {r.cells[0].text.replace("\u00a0", " "): r.cells for r in table.rows if r.kind == "body"}


def _facts() -> list[dict]:
    return _yaml("rules/facts.yaml")["facts"]


# --- 1.4 Key terms ----------------------------------------------------------------------

#: Headword (en) -> the rules its row must cite (issue 28's list).
CITED = {"counter": {"5.6", "6.46"}, "boost": {"5.71"}, "gain": {"7.31"},
         "Numbers": {"5.21"}, "stability": {"5.33", "7.52", "8.43", "7.6"},
         "market row": {"6.42"}, "shield": {"11.2"}, "currency": {"9.4", "10.2"},
         "Papal Curia": {"2.26"}}
NEW = ("control", "yield", "card type", "foothold", "supply line", "lead", "Court Prestige",
       "passive", "hold John", "phase", "first player", "exchange", "flip", "treasury",
       "starter card")


def test_key_terms_cite_the_rules_that_define_them(docs):
    rows = _rows(docs["en"]["key_terms"])
    for term, rules in CITED.items():
        cited = {r.strip() for r in rows[term][2].text.split(",")}
        assert rules <= cited, (term, cited)
    assert not {"Curia"} & set(rows)  # the Papal Curia by its rulebook name
    assert set(NEW) <= set(rows)


@pytest.mark.skipif(not RULES.exists(), reason="the rulebook text is not on this machine")
@pytest.mark.parametrize("lang", LANGS)
def test_every_cited_rule_exists_and_every_definition_has_one(docs, lang):
    numbers = set(re.findall(r"^(?:• )?(\d+\.\d+)\b", RULES.read_text(encoding="utf-8"), re.M))
    for row in docs[lang]["key_terms"].rows:
        cited = [r.strip() for r in row.cells[2].text.split(",")]
        assert row.cells[1].text and cited and set(cited) <= numbers, row.cells[0].text


def test_the_czech_elector_is_not_defined_by_itself(docs):
    rows = _rows(docs["cs"]["key_terms"])
    assert "kurfiřt" not in rows["kurfiřt"][1].text.lower()


# --- 2.1 Inventory, 7.2, 8.0: a prototype star only where the rulebook fixes nothing ------

def _fixed(subject: str, key: str) -> set[str]:
    return {str(f[subject]) for f in _facts() if subject in f and key in f}


@pytest.mark.parametrize("lang", LANGS)
def test_inventory_stars_only_prototype_values(docs, lang):
    fixed = {k for f in _facts() if isinstance(f.get("tokens"), dict) for k in f["tokens"]}
    assert {"round_marker", "loyalty_marker", "card_play_marker", "shield_markers"} <= fixed
    labels = _yaml(f"text/{lang}.yaml")["tables"]["inventory"]
    rows = _rows(docs[lang]["inventory"])
    for key in ("round_marker", "loyalty_marker", "card_play_marker", "shield_markers"):
        assert not rows[labels[key]][1].prototype, key
    for key in ("vote_markers", "influence", "military", "currency", "reminders"):
        assert rows[labels[key]][1].prototype, key
    assert "cubes" not in labels["currency"].lower() and "kostky" not in labels["currency"].lower()


@pytest.mark.parametrize("lang", LANGS)
def test_country_and_battleground_stars_follow_the_rule_facts(docs, lang):
    places = _yaml("places.yaml")
    stable, bonus, links = (_fixed("place", k) for k in ("stability", "bonus", "links"))
    none = {f["place"] for f in _facts() if f.get("supply_links") == 0}
    names = {pid: p["name"][lang] for group in ("countries", "battlegrounds")
             for pid, p in places[group].items()}
    countries = {r.cells[0].text: r.cells for r in docs[lang]["countries"].rows}
    for pid in places["countries"]:
        cells = next(c for n, c in countries.items() if n.replace("\u00a0", " ").lower().endswith(
            names[pid].lower().removeprefix("the ")))
        feeding = [b for b, bg in places["battlegrounds"].items() if pid in bg["links"]]
        assert cells[2].prototype == (pid not in stable), pid
        assert cells[3].prototype == (pid not in none if not feeding
                                      else not set(feeding) <= links), pid
    grounds = {r.cells[0].text: r.cells for r in docs[lang]["battlegrounds"].rows}
    for pid in places["battlegrounds"]:
        cells = next(c for n, c in grounds.items() if n.replace("\u00a0", " ").lower().endswith(
            names[pid].lower().removeprefix("the ")))
        assert cells[1].prototype == (pid not in bonus), pid
        assert cells[2].prototype == (pid not in links), pid


def test_a_star_follows_the_facts(tmp_path):
    """Without the rule fact that fixes the markers, their rows carry the star again."""
    project = copy_project(tmp_path / "project")
    replace_in(project / "card_data" / "rules" / "facts.yaml",
               "    tokens: {round_marker: 1, card_play_marker: 1, loyalty_marker: 1, "
               "shield_markers: 1}\n", "")
    replace_in(project / "card_data" / "rules" / "facts.yaml", "    game: markers\n",
               "    game: markers\n    values: {markers: 1}\n")
    rows = _rows({t.id: t for t in tables_document(at(project), "en").tables}["inventory"])
    assert rows["Round marker"][1].prototype and rows["Shield markers"][1].prototype


# --- 11.5 shields -------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_each_shield_cites_its_own_rules(docs, lang):
    shields = _yaml("shields.yaml")
    rows = [r.cells for r in docs[lang]["shields"].rows]
    assert len(rows) == len(shields)
    for (sid, shield), cells in zip(shields.items(), rows, strict=True):
        assert cells[4].text == ", ".join(shield["rules"]), sid
    clement = rows[list(shields).index("clement-vi")][4].text
    assert clement == "5.31, 5.52, 11.7"


@pytest.mark.parametrize(("lang", "vote"), [("en", "gains 1 vote on an elector of its choice"),
                                            ("cs", "získají 1 hlas u kurfiřta podle své volby")])
def test_edward_iii_s_crecy_vote_is_stated_once(docs, lang, vote):
    shields = list(_yaml("shields.yaml"))
    passive = [r.cells for r in docs[lang]["shields"].rows][shields.index("edward-iii")][3].text
    assert passive.replace("\u00a0", " ").count(vote) == 1, passive
