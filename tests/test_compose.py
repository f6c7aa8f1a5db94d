"""Compose stage: canonical text in both languages, Czech plurals and cases, faces, --fill."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, replace_in

from cardgen.data.load import load
from cardgen.data.model import Effect
from cardgen.errors import Location
from cardgen.wording.compose import compose_faces, fill_texts
from cardgen.wording.language import NBSP, plural_category
from cardgen.wording.templates import Renderer, canonical_text, normalize


@pytest.fixture(scope="module")
def data():
    loaded, findings = load(ROOT)
    assert not findings, [f.format() for f in findings]
    return loaded


def effect(op: str, **params) -> Effect:
    return Effect(op, params, Location("test.yaml", 1, 1))


@pytest.mark.parametrize(("n", "category", "text"), [
    (1, "one", "1 kartu"), (2, "few", "2 karty"), (4, "few", "4 karty"),
    (5, "other", "5 karet"), (11, "other", "11 karet"),
])
def test_czech_card_plurals(data, n, category, text):
    assert plural_category(n, "cs") == category
    assert Renderer(data, "cs").clause(effect("draw", amount=n)) == f"lízni {text}"


def test_czech_currency_and_influence_plurals(data):
    r = Renderer(data, "cs")
    assert r.clause(effect("gain_currency", amount=1, currency="church")) == \
        "získej 1 církevní měnu"
    assert r.clause(effect("gain_currency", amount=3, currency="german")) == \
        "získej 3 říšské měny"
    assert r.clause(effect("gain_currency", amount=5, currency="eastern")) == \
        "získej 5 východních měn"
    assert r.clause(effect("place_influence", amount=2, where="mainz")) == \
        "umísti 2 vlivu do Mohuče"


@pytest.mark.parametrize(("op", "params", "cs"), [
    ("place_influence", {"amount": 1, "where": "saxony"}, "umísti 1 vliv do Saska"),
    ("remove_influence", {"amount": 2, "where": "cologne"},
     "odstraň 2 vlivu soupeře z Kolína nad Rýnem"),
    ("if_lead", {"country": "bohemia", "lead": False,
                 "then": (effect("draw", amount=1),)}, "nevedeš-li v Čechách: lízni 1 kartu"),
    ("place_military", {"amount": 3, "where": "lower-bavaria"},
     "umísti 3 vojska do Dolního Bavorska"),
])
def test_czech_case_forms(data, op, params, cs):
    assert Renderer(data, "cs").clause(effect(op, **params)) == cs


@pytest.mark.parametrize(("bg", "en", "cs"), [
    ("low-countries", "the side controlling the Low Countries gains 1 vote on the elector of Cologne",
     "strana, která ovládá Nizozemí, získá 1 hlas u kolínského kurfiřta"),
    ("lombardy", "the side controlling Lombardy gains 1 vote on the elector of Mainz or Trier "
     "(its choice)", "strana, která ovládá Lombardii, získá 1 hlas u mohučského nebo "
     "trevírského kurfiřta (podle své volby)"),
])
def test_battle_votes_name_the_elector_from_places_yaml(data, bg, en, cs):
    """6.43: the elector forms live in places.yaml, not in the templates."""
    assert "electors" not in data.templates["cs"] and "electors" not in data.templates["en"]
    assert Renderer(data, "en").clause(effect("battle_vote", battleground=bg)) == en
    assert Renderer(data, "cs").clause(effect("battle_vote", battleground=bg)) == cs


def test_a_side_named_in_the_clause_becomes_a_pronoun(data):
    card = data.card("battle-of-muhldorf")
    en = canonical_text(data, card, card.line("event"), "en")
    cs = canonical_text(data, card, card.line("event"), "cs")
    assert en.startswith("If Wittelsbach holds John: it places 5 military in Lower Bavaria. "
                         "Otherwise: it places 3 military")
    assert cs.startswith(f"Drží-li Jana Wittelsbachové: umístí 5{NBSP}vojska do Dolního Bavorska. "
                         f"Jinak umístí 3{NBSP}vojska")  # the editor: no colon after "Jinak"
    assert en.endswith("Luxembourg places 2 influence in the Palatinate.")


def test_english_sentence(data):
    card = data.card("charles-iv")
    assert canonical_text(data, card, card.line("deed"), "en") == \
        "Place 2 influence in Bohemia. Draw 1 card."


def test_czech_nbsp(data):
    card = data.card("charles-iv")
    text = canonical_text(data, card, card.line("deed"), "cs")
    assert text == f"Umísti 2{NBSP}vlivu do Čech. Lízni 1{NBSP}kartu."
    card = data.card("pierre-de-rosieres")
    assert f" v{NBSP}papežské" in canonical_text(data, card, card.line("deed"), "cs")


def test_every_line_renders_in_both_languages(data):
    for card in data.cards:
        for line in card.lines:
            for lang in ("en", "cs"):
                text = canonical_text(data, card, line, lang)
                assert text and "{" not in text and "None" not in text, (card.id, line.kind)


def test_shipped_text_is_canonical(data):
    for card in data.cards:
        for line in card.lines:
            for lang in ("en", "cs"):
                assert normalize(line.text.get(lang)) == normalize(
                    canonical_text(data, card, line, lang)), (card.id, line.kind, lang)


def test_faces_one_per_record_in_order(data):
    faces = compose_faces(data, "cs", ROOT)
    assert len(faces) == len(data.cards)
    assert sum(f.copies for f in faces) == 82
    decks = [data.card(f.card_id).deck for f in faces]
    assert decks == sorted(decks, key=["luxembourg", "wittelsbach", "market"].index)
    peter = next(f for f in faces if f.card_id == "peter-of-zittau")
    assert [ln.kind for ln in peter.lines] == ["deed", "writing_history"]
    assert peter.lines[1].title == "Psaní dějin"
    assert peter.deck_label == "Trh"
    crecy = next(f for f in faces if f.card_id == "battle-of-crecy")
    assert crecy.lines[-1].text == "Tuto událost nelze zrušit kontrou."
    john = next(f for f in faces if f.card_id == "john-of-luxembourg-wit")
    assert john.use_cost_label == f"Použití stojí 3{NBSP}měny libovolného druhu" and john.yields == ()


def test_missing_translation_is_not_filled_from_english(project: Path):
    path = project / "card_data" / "cards" / "luxembourg.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(f'        cs: "Umísti 3{NBSP}vlivu do Čech."\n', "", 1),
                    encoding="utf-8")
    data, _ = load(project)
    face = next(f for f in compose_faces(data, "cs", project)
                if f.card_id == "elizabeth-of-bohemia")
    assert face.lines == ()


def test_fill_writes_canonical_text_and_keeps_comments(project: Path):
    path = project / "card_data" / "cards" / "wittelsbach.yaml"
    replace_in(path, "cards:", "# a comment the fill keeps\ncards:")
    text = path.read_text(encoding="utf-8")
    old = ('      text:\n        en: "Place 3 influence in Brandenburg."\n'
           f'        cs: "Umísti 3{NBSP}vlivu do Braniborska."\n')
    assert old in text
    path.write_text(text.replace(old, ""), encoding="utf-8")
    data, _ = load(project)
    changes = fill_texts(data, project)
    assert {(c.card, c.lang) for c in changes} == {("louis-v-of-brandenburg", "en"),
                                                   ("louis-v-of-brandenburg", "cs")}
    after = path.read_text(encoding="utf-8")
    assert "# a comment the fill keeps" in after
    assert old in after
    assert fill_texts(load(project)[0], project) == []


def test_fill_adds_one_missing_language_to_the_text_mapping(project: Path):
    """--fill writes through the shared surgical editor: only the missing line appears."""
    path = project / "card_data" / "cards" / "wittelsbach.yaml"
    text = path.read_text(encoding="utf-8")
    cs = f'        cs: "Umísti 3{NBSP}vlivu do Braniborska."\n'
    assert cs in text
    path.write_text(text.replace(cs, ""), encoding="utf-8")
    changes = fill_texts(load(project)[0], project)
    assert [(c.card, c.lang) for c in changes] == [("louis-v-of-brandenburg", "cs")]
    assert path.read_text(encoding="utf-8") == text


def test_a_face_carries_the_style_of_every_shield_its_text_shows():
    data, _ = load(ROOT)
    [crecy] = [f for f in compose_faces(data, "en", ROOT) if f.card_id == "battle-of-crecy"]
    assert crecy.shield is None  # Crécy places no shield of its own…
    [edward] = crecy.shields  # …but its text shows Edward III's (12.12)
    assert (edward.id, edward.colour, edward.charge) == ("edward-iii", "#c0392b", "lion")


@pytest.mark.parametrize(("old", "new"), [
    ("""  draw: "{{ verb('draw', who) }} {{ n(amount, 'card') }}\"""",
     """  draw: "{{ verb('draw', who) }} {% elif %}\""""),
    ('''  use_cost: "Costs {{ cur(n, 'any') }} to use"''', '''  use_cost: "Costs {{ cur(n, 'any') to use"'''),
])
def test_a_broken_template_is_an_error_at_its_line_never_a_crash(project, old, new):
    from cardgen.build.check import run_check

    line = replace_in(project / "card_data" / "text" / "en.yaml", old, new)
    report = run_check(project)
    hits = [f for f in report.findings
            if f.location and f.location.file == "card_data/text/en.yaml" and f.location.line == line]
    assert hits, [f.format() for f in report.findings][:5]
    assert "syntax error" in hits[0].message


@pytest.mark.parametrize(("lang", "lux", "wit"), [("en", "Set aside", "Starter"),
                                                  ("cs", "Stranou", "Základní")])
def test_set_aside_john_says_so_on_its_bottom_strip(data, lang, lux, wit):
    """3.32: the Luxembourg John card is set aside, not shuffled into a starter deck."""
    strips = {f.card_id: f.deck_label for f in compose_faces(data, lang, ROOT) if f.kind == "john"}
    assert strips == {"john-of-luxembourg-lux": lux, "john-of-luxembourg-wit": wit}


def test_typographic_variants_compare_equal():
    assert normalize("„Maultasch“ – 2\u00a0cards") == normalize('"Maultasch" - 2 cards')
