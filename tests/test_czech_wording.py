"""The Czech editor's corrections (issue 13, items 7 and 9) held as the canonical text the
wording templates render, and card names declined inside running text."""

from __future__ import annotations

import pytest
from conftest import ROOT, replace_in

from cardgen.data.load import load
from cardgen.wording.compose import compose_faces
from cardgen.wording.templates import canonical_text, normalize


@pytest.fixture(scope="module")
def data():
    loaded, findings = load(ROOT)
    assert not findings
    return loaded


def text(data, card: str, line: str, lang: str = "cs") -> str:
    c = data.card(card)
    return normalize(canonical_text(data, c, c.line(line), lang))


@pytest.mark.parametrize(("card", "line", "lang", "expected"), [
    # 5.82 as the Czech rulebook words the kicker; the name in the accusative (item 7)
    ("philip-vi", "deed", "cs", "Zahraješ-li v tomto kole později Blanku z Valois, získá +2."),
    ("battle-of-crecy", "event", "cs", "Jan padne a obě Janovy karty odejdou ze hry."),
    ("pope-john-xxii", "counter", "cs",
     "Odhoď tuto kartu z ruky a zruš kontrou čin soupeřovy říšské karty."),
    ("jacob-van-artevelde", "counter", "cs",
     "Odhoď tuto kartu z ruky a zruš kontrou čin soupeřovy západní karty."),
    ("elizabeth-richeza", "passive", "cs", "(aspoň 1 vliv na každé straně) hlas získáš ty."),
    ("pope-benedict-xii", "deed", "cs",
     "Libovolně rozděl 2 vlivu mezi Mohuč, Trevír a Kolín nad Rýnem."),
    # the December 2026 review (issue 29, no. 33): a relative clause, as the battle events
    ("holland-inheritance", "event", "cs", "Strana, která ovládá Nizozemí, získá 3 západní měny"),
    ("battle-of-muhldorf", "event", "cs", "Dolního Bavorska. Jinak umístí 3 vojska"),
    ("heinrich-of-virneburg", "passive", "cs", "Jindřich z Virneburgu už nevynáší církevní měnu."),
    # one sentence where one side does two things, one verb for two gains
    ("dream-at-terenzo", "event", "cs", "(nikdy Jana) a získají 2 církevní měny."),
    ("dream-at-terenzo", "event", "en", "(never John) and gains 2 Church."),
    ("hanseatic-league", "deed", "cs", "Získej 2 říšské měny a 1 východní měnu."),
    ("hanseatic-league", "deed", "en", "Gain 2 German and 1 Eastern."),
    ("clement-vi-elected", "event", "en", "enters the market row in an extra sixth space."),
    # a split removal said as a Czech editor would, not "rozděl odstranění mezi"
    ("marsilius-of-padua", "deed", "cs",
     "Odstraň 2 vlivu soupeře z Mohuče, Trevíru a Kolína nad Rýnem v libovolném rozdělení."),
])
def test_the_editors_wording(data, card, line, lang, expected):
    assert normalize(expected) in text(data, card, line, lang)


def test_johns_use_cost_has_its_unit_and_his_note_an_object(data):
    faces = {lang: {f.card_id: f for f in compose_faces(data, lang, ROOT)} for lang in ("en", "cs")}
    john = "john-of-luxembourg-lux"
    assert normalize(faces["cs"][john].use_cost_label) == "Použití stojí 3 měny libovolného druhu"
    assert normalize(faces["en"][john].use_cost_label) == "Costs 3 currency of any type to use"
    note = next(ln.text for ln in faces["cs"][john].lines if ln.kind == "note")
    assert normalize(note) == "Tuto kartu nelze vyřadit ze hry, s výjimkou Bitvy u Kresčaku."
    assert faces["cs"]["dream-at-terenzo"].kind_label == "Historická událost"
    assert any(ln.name and ln.name.get("cs") == "Holandský hrabě"
               for c in data.cards for ln in c.lines)


def test_a_card_name_without_the_case_a_template_asks_for_is_an_error_at_the_card(project,
                                                                                capsys):
    from cardgen.cli import main
    replace_in(project / "card_data" / "cards" / "luxembourg.yaml",
               "    name_forms: {cs: {acc: Blanku z\u00a0Valois, gen: Blanky z\u00a0Valois}}\n", "")
    assert main(["--project", str(project), "check"]) == 1
    out = capsys.readouterr().out
    assert "card philip-vi (cs)" in out
    assert ("card 'blanche-de-valois' has no 'acc' form of its name in cs (add name_forms: "
            "{cs: {acc: …}} next to its name)") in out


def test_the_shipped_translation_is_current(project, capsys):
    """After merges and English edits every Czech text is reviewed again (po export, remove
    the fuzzy mark, po import): the shipped data has no fuzzy and no untranslated text."""
    from cardgen.cli import main
    assert main(["--project", str(project), "check", "--lang-only"]) == 0
    out = capsys.readouterr().out
    assert " 0 untranslated, " in out and " 0 fuzzy, " in out and " 0 warnings" in out
