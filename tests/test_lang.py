"""Translation QA: each check with a broken card and its exact message."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from test_lang_fixtures import CLEAN, NB, ROOT, load_cards

from cardgen.check.lang import check_language, numbers
from cardgen.errors import Severity
from cardgen.wording.language import fix_text, plural_category


def run(tmp_path, cards):
    return check_language(load_cards(tmp_path, cards))


def only(findings, code):
    return [f for f in findings if f.code == code]


def test_clean_cards_have_no_findings(tmp_path):
    assert run(tmp_path, CLEAN) == []


def test_numbers_differ(tmp_path):
    (f,) = only(run(tmp_path, CLEAN.replace(f"Lízni 2{NB}karty", f"Lízni 3{NB}karty")),
                "lang-numbers")
    assert f.message == "deed: the numbers differ: English 1, 2, Czech 1, 3"
    assert f.hint == "missing in Czech: 2; only in Czech: 3"
    assert (f.card, f.lang, f.severity) == ("philip-vi", "cs", Severity.ERROR)
    assert str(f.location) == "card_data/cards/test.yaml:16:13"


def test_decimal_comma_is_not_a_mismatch():
    assert [v for v, _ in numbers("1,5 vlivu", "cs")] == [Decimal("1.5")]
    assert [v for v, _ in numbers("1.5 influence, 1,000 votes", "en")] == [Decimal("1.5"),
                                                                           Decimal("1000")]


def test_forbidden_variant_cs(tmp_path):
    cards = CLEAN.replace(f"Posuň Jana o{NB}1{NB}pole ke Karlovi.",
                          f"Posuň Jana o{NB}1{NB}pole ke Karlovi. Zruš čin.")
    (f,) = only(run(tmp_path, cards), "lang-forbidden")
    assert f.message == "deed: 'Zruš' is a forbidden variant of the glossary term 'counter'"
    assert f.hint.startswith("write 'zrušit kontrou' (5.6, 6.46")
    assert f.rule == "5.6"


def test_forbidden_variant_en(tmp_path):
    cards = CLEAN.replace("toward Charles.", "toward Charles. Cancel a Deed.")
    found = only(run(tmp_path, cards), "lang-forbidden")
    assert [f.message for f in found] == [
        "deed: 'Cancel' is a forbidden variant of the glossary term 'counter'"]
    assert found[0].lang == "en"


def test_zrusit_kontrou_is_allowed(tmp_path):
    cards = CLEAN.replace("toward Charles.", "toward Charles. Counter it.").replace(
        "ke Karlovi.", "ke Karlovi. Můžeš ho zrušit kontrou.")
    assert only(run(tmp_path, cards), "lang-forbidden") == []
    assert only(run(tmp_path, cards), "lang-glossary") == []


def test_glossary_term_needs_its_pair(tmp_path):
    cards = CLEAN.replace("toward Charles.", "toward Charles. Use its Deed.")
    (f,) = only(run(tmp_path, cards), "lang-glossary")
    assert f.message == ("deed: the English text uses the term 'Deed' "
                         "but the Czech text has no 'čin'")
    assert f.hint == "use one of: čin, činu, činem, činy, činů, činech"
    assert f.lang == "cs"


def test_glossary_other_direction(tmp_path):
    cards = CLEAN.replace("ke Karlovi.", "ke Karlovi. Zahraj čin.")
    (f,) = only(run(tmp_path, cards), "lang-glossary")
    assert f.message == ("deed: the Czech text uses the term 'čin' "
                         "but the English text has no 'Deed'")
    assert f.lang == "en"


def test_place_named_on_one_side_only(tmp_path):
    f, g = only(run(tmp_path, CLEAN.replace(f"v{NB}Mohuči", f"v{NB}Trevíru")), "lang-name")
    assert f.message == "deed: the English text names place 'Mainz' but the Czech text does not"
    assert f.hint == "write: Mohuč / v Mohuči / do Mohuče / z Mohuče"
    assert f.lang == "cs"
    assert g.message == "deed: the Czech text names place 'Trevír' but the English text does not"
    assert g.lang == "cs"  # the wrong place is in the Czech: the finding is at the Czech line
    assert g.location == f.location and "cs:" in _line_at(tmp_path, g.location)


def test_card_referenced_by_effect_uses_current_name(tmp_path):
    cards = CLEAN.replace(
        "      name: {en: Auld Alliance, cs: Starý spolek}\n",
        "      name: {en: Auld Alliance, cs: Starý spolek}\n"
        "      effects: [{op: boost_card, card: blanche-de-valois}]\n")
    cards = cards.replace("toward Charles.", "toward Charles. Blanche of Valois gets +2.")
    cards = cards.replace("ke Karlovi.", "ke Karlovi. Blanka z\u00a0Valois dostane +2.")
    data = load_cards(tmp_path, cards)
    assert data.card("philip-vi").line("deed").effects
    (f,) = only(check_language(data), "lang-name")
    assert f.message == ("deed: the effect refers to card 'blanche-de-valois' but the text "
                         "does not name it as 'Blanche de Valois'")
    assert f.lang == "en"


def test_czech_name_in_another_case_matches(tmp_path):
    cards = CLEAN.replace("toward Charles.", "toward Charles. Blanche de Valois gets +2.")
    cards = cards.replace("ke Karlovi.", "ke Karlovi. Blance z\u00a0Valois přidej +2.")
    assert only(run(tmp_path, cards), "lang-name") == []


@pytest.mark.parametrize(("n", "written", "expected"), [
    ("1", "karty", "kartu"), ("2", "karet", "karty"), ("5", "karty", "karet"),
])
def test_plural_agreement_cs(tmp_path, n, written, expected):
    cards = CLEAN.replace("Draw 2 cards", f"Draw {n} cards").replace(
        f"Lízni 2{NB}karty", f"Lízni {n}{NB}{written}")
    (f,) = [f for f in only(run(tmp_path, cards), "lang-plural") if f.lang == "cs"]
    assert f.message == f"deed: after {n} write '{expected}', not '{written}'"
    assert f.lang == "cs"


def test_plural_agreement_en(tmp_path):
    (f,) = only(run(tmp_path, CLEAN.replace("Draw 2 cards", "Draw 2 card")), "lang-plural")
    assert f.message == "deed: after 2 write 'cards', not 'card'"


def test_plural_categories():
    assert [plural_category(n, "cs") for n in (1, 2, 4, 5, Decimal("1.5"))] == [
        "one", "few", "few", "other", "many"]


def test_czech_missing(tmp_path):
    cards = CLEAN.replace(f"        cs: Lízni 2{NB}karty. Posuň Jana o{NB}1{NB}pole ke Karlovi.\n",
                          "")
    (f,) = only(run(tmp_path, cards), "lang-missing")
    assert f.message == "deed: the Czech text is missing"
    assert f.location.line == 15  # the text mapping


def test_czech_identical(tmp_path):
    cards = CLEAN.replace(f"Lízni 2{NB}karty. Posuň Jana o{NB}1{NB}pole ke Karlovi.",
                          "Draw 2 cards. Move John 1 step toward Charles.")
    (f,) = only(run(tmp_path, cards), "lang-identical")
    assert f.message == "deed: the Czech text is the same as the English"


def test_english_term_left_in_czech(tmp_path):
    cards = CLEAN.replace("ke Karlovi.", "ke Karlovi. Deed.")
    found = run(tmp_path, cards)
    (f,) = only(found, "lang-untranslated")
    assert f.message == "deed: the English term 'Deed' is left in the Czech text"


def test_symbols_must_match(tmp_path):
    cards = CLEAN.replace("toward Charles.", "toward Charles. Gain :church:.").replace(
        "ke Karlovi.", "ke Karlovi. Získej :german:.")
    (f,) = only(run(tmp_path, cards), "lang-symbols")
    assert f.message == "deed: the symbols differ: English :church:, Czech :german:"


@pytest.mark.parametrize(("text", "code", "message"), [
    ("Lízni 2 karty.", "typo-nbsp-number",
     "a number and its noun need a non-breaking space: '2 karty.'"),
    ("Jdi v Mohuči.", "typo-nbsp-prep",
     "a one-letter word needs a non-breaking space after it: 'v Mohuči.'"),
    ('Je to \\"Maultasch\\".', "typo-quotes", 'Czech quotation marks are „…“: "Maultasch"'),
    ("Kola 1-3.", "typo-dash-range", "a range is an en dash without spaces: '-'"),
    ("Kola 1 – 3.", "typo-dash-range", "a range is an en dash without spaces: ' – 3.'"),
    ("Jdi dál...", "typo-ellipsis", "three dots are an ellipsis: '...'"),
    ("Je to “Maultasch”.", "typo-quotes", "Czech quotation marks are „…“: “Maultasch”"),
    ("Ockham’s.", "typo-apostrophe-cs", "an English apostrophe or single quote in Czech text: '’'"),
    ("Jdi  dál.", "typo-double-space", "double space"),
    (" Jdi.", "typo-space-edge", "leading or trailing space"),
    ("Jdi jdi dál.", "typo-doubled-word", "doubled word: 'Jdi jdi'"),
    ("KAždý hráč.", "typo-caps", "stray capital: 'KAždý'"),
])
def test_typography(tmp_path, text, code, message):
    cards = CLEAN.replace(f"Umísti 2{NB}vlivy v{NB}Mohuči.", text)
    found = [f for f in run(tmp_path, cards) if f.code.startswith("typo-")]
    assert [(f.code, f.message) for f in found] == [(code, f"deed: {message}")]
    assert found[0].severity is Severity.WARNING


def test_fix_text_is_idempotent():
    text = ' Lízni 2 karty v Mohuči  a "Maultasch" 1 - 3 - tak. '
    fixed = fix_text(text, "cs")
    assert fixed == f"Lízni 2{NB}karty v{NB}Mohuči a{NB}„Maultasch“ 1–3 – tak."
    assert fix_text(fixed, "cs") == fixed
    assert fix_text("Draw  2 cards, 1-3 ", "en") == "Draw 2 cards, 1–3"


def test_any_place_form_names_the_place_even_shared_by_two():
    """The `elector` forms of places.yaml name their country; in "mohučského nebo trevírského
    kurfiřta" both countries are named (the noun is said once), in "trevírského kurfiřta" one."""
    from conftest import ROOT

    from cardgen.check.names import find_names, name_table
    from cardgen.data.load import load

    data, _ = load(ROOT)
    names = name_table(data)
    assert find_names(names, "získá 1 hlas u kolínského kurfiřta", "cs") == {"cologne"}
    assert find_names(names, "u mohučského nebo trevírského kurfiřta", "cs") == {"mainz", "trier"}
    assert find_names(names, "u trevírského kurfiřta", "cs") == {"trier"}
    assert find_names(names, "gains 1 vote on the elector of Mainz or Trier", "en") == {
        "mainz", "trier"}


def _line_at(tmp_path: Path, location) -> str:
    """The line a finding points at, in the newest project ``run`` wrote."""
    path = max(tmp_path.glob(f"project*/{location.file}"), key=lambda p: len(str(p)))
    return path.read_text(encoding="utf-8").splitlines()[location.line - 1]


# --- issue 13, item 5: the QA gaps ------------------------------------------------------


def test_english_quotes_and_apostrophes_are_typographic(tmp_path):
    cards = CLEAN.replace("Draw 2 cards.", 'Draw 2 "fresh" cards for John\'s sake.')
    found = [(f.code, f.lang) for f in run(tmp_path, cards) if f.code.startswith("typo-")]
    assert found == [("typo-quotes-en", "en"), ("typo-apostrophe", "en")]
    assert fix_text('Draw 2 "fresh" cards for John\'s sake.', "en") == \
        "Draw 2 \u201cfresh\u201d cards for John\u2019s sake."


def test_a_line_ends_with_the_same_mark_in_both_languages(tmp_path):
    (f,) = only(run(tmp_path, CLEAN.replace(f"v{NB}Mohuči.", f"v{NB}Mohuči")), "lang-end-punct")
    assert f.message == f"deed: the text does not end with a full stop: '…ivy v{NB}Mohuči'"
    assert f.lang == "cs"
    (g,) = only(run(tmp_path, CLEAN.replace("in Mainz.", "in Mainz?")), "lang-end-punct")
    assert g.message == "deed: the English text ends with '?' but the Czech with '.'"
    assert g.lang == "cs"


def test_a_line_starts_with_a_capital(tmp_path):
    (f,) = only(run(tmp_path, CLEAN.replace("Umísti 2", "umísti 2")), "lang-capital")
    assert f.message == "deed: the text starts with a small letter: 'umísti'"
    assert f.lang == "cs"


BLANCHE = CLEAN.replace("Draw 2 cards.", "Draw 2 cards. Then play Blanche de Valois.").replace(
    f"Lízni 2{NB}karty.", f"Lízni 2{NB}karty. Pak zahraj Blanku z{NB}Valois.")


@pytest.mark.parametrize("name", [f"Blanche z{NB}Valois", "Blanche de Valois"])
def test_a_card_name_half_or_wholly_left_in_english(tmp_path, name):
    assert only(run(tmp_path, BLANCHE), "lang-name-english") == []
    found = only(run(tmp_path, BLANCHE.replace(f"Blanka z{NB}Valois", name)), "lang-name-english")
    assert [(f.card, f.lang) for f in found] == [("blanche-de-valois", "cs")]
    assert found[0].message == ("name: the Czech card name keeps the English word 'Blanche', "
                                "which the Czech texts translate elsewhere (philip-vi:deed)")


def test_a_deed_name_left_in_english(tmp_path):
    cards = CLEAN.replace("Starý spolek", "Auld Alliance").replace(
        "Move John 1 step toward Charles.", "Move John 1 step toward Charles. Auld friends.").replace(
        "ke Karlovi.", "ke Karlovi. Staří přátelé.")
    (f,) = only(run(tmp_path, cards), "lang-name-english")
    assert f.message.startswith("deed.name: the Czech Deed name keeps the English word 'Auld'")


def test_one_english_text_translated_two_ways(tmp_path):
    cards = CLEAN.replace('en: "Place 2 influence in Mainz."', "en: Draw 2 cards. Move John 1 step "
                          "toward Charles.").replace(
        f'cs: "Umísti 2{NB}vlivy v{NB}Mohuči."', f"cs: Lízni 2{NB}karty. Posuň Jana o{NB}1{NB}pole "
        "ke Karlovi Lucemburskému.")
    (f,) = only(run(tmp_path, cards), "lang-inconsistent")
    assert (f.card, f.lang) == ("blanche-de-valois", "cs")
    assert f.message.startswith("deed: the English 'Draw 2 cards. Move John 1 step toward "
                                "Charles.' is translated differently on philip-vi:deed")
    assert "cs:" in _line_at(tmp_path, f.location)


def test_the_shipped_data_passes_the_language_checks_without_a_warning():
    from cardgen.data.load import load
    data, findings = load(ROOT)
    assert [f for f in findings + check_language(data)] == []
