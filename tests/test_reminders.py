"""A next-purchase discount needs its reminder token (5.43, 6.22, 9.6): the engine ends the
discount at round end because the token leaves then."""

from __future__ import annotations

from cardgen.check.reminders import check_reminders
from tests.conftest import at, replace_in


def test_shipped_discounts_have_reminder_tokens(project):
    assert check_reminders(at(project)) == []


def test_a_discount_without_its_token_is_reported_at_the_card(project):
    replace_in(project / "card_data" / "components.yaml",
               'text: {en: "Next purchase\\u00a0−2", cs: "Příští nákup\\u00a0−2", states:',
               'text: {en: "Next purchase", cs: "Příští nákup", states:')
    found = check_reminders(at(project))
    assert [(f.code, f.card, f.rule) for f in found] == [("reminder-missing", "margaret-of-holland", "6.22")]
    assert found[0].location.file.endswith("wittelsbach.yaml")
