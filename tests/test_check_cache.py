"""Per-card check results: an edit re-checks what it changes, and the findings equal a cold check."""

from __future__ import annotations

from cardgen.check.cache import CheckCache
from cardgen.pipeline import run_check
from tests.conftest import replace_in


def _codes(findings):
    return sorted((f.code, f.card, f.lang, str(f.location)) for f in findings)


def _warm(project) -> CheckCache:
    cache = CheckCache()
    assert run_check(project, check_cache=cache).ok
    return CheckCache(dict(cache.live))


def test_one_card_text_edit_rechecks_that_card_only(project):
    cache = _warm(project)
    cards = project / "card_data" / "cards"
    # a Czech Deed name (rule 2.36): Charles IV's own record changes, nothing shared does
    replace_in(cards / "luxembourg.yaml", "cs: Otec vlasti}", "cs: Otec národa}")
    warm = run_check(project, check_cache=cache)
    assert cache.made == 3  # text, translation and game-state checks, of charles-iv alone
    assert warm.findings == run_check(project, check_cache=CheckCache()).findings


def test_renaming_a_referenced_card_still_reports_the_card_naming_it(project):
    cache = _warm(project)
    cards = project / "card_data" / "cards"
    # Philip VI's kicker names Blanche de Valois (5.82); rename her, leave his text alone
    replace_in(cards / "luxembourg.yaml", "name: {en: Blanche de Valois,",
               "name: {en: Blanche of Valois,")
    warm = run_check(project, check_cache=cache)
    cold = run_check(project, check_cache=CheckCache())
    assert warm.findings == cold.findings
    # she is a rulebook card (5.82): one rule-fact, noting the text that still names her
    fact = [f for f in warm.findings if f.code == "rule-fact" and f.card == "blanche-de-valois"]
    assert len(fact) == 1 and "market.yaml" in fact[0].message, fact


def test_a_changed_effect_plays_every_card_again(project):
    cache = _warm(project)
    made_cold = CheckCache()
    run_check(project, check_cache=made_cold)
    replace_in(project / "card_data" / "cards" / "luxembourg.yaml",
               "- {op: place_influence, amount: 3, where: bohemia}",
               "- {op: place_influence, amount: 4, where: bohemia}")
    warm = run_check(project, check_cache=cache)
    assert warm.findings == run_check(project, check_cache=CheckCache()).findings
    assert any(f.code == "text-differs" and f.card == "elizabeth-of-bohemia"
               for f in warm.findings)
    # the sampled games changed, so every card's lines were played again
    assert cache.made > len(made_cold.live) // 3


def test_a_damaged_cache_file_is_no_cache(project):
    assert CheckCache.from_json({"k": [{"severity": "nonsense"}]}).stored == {}
    assert CheckCache.from_json(["not", "a", "dict"]).stored == {}


def test_a_changed_case_form_reaches_the_card_that_uses_it(project):
    cache = _warm(project)
    # Philip VI's Czech kicker declines Blanka's name (issue 13 item 7): her accusative is
    # her record, his finding comes from it
    replace_in(project / "card_data" / "cards" / "luxembourg.yaml",
               "acc: Blanku z\u00a0Valois", "acc: Blanku Valoiskou")
    warm = run_check(project, check_cache=cache)
    assert warm.findings == run_check(project, check_cache=CheckCache()).findings
    assert any(f.card == "philip-vi" and f.lang == "cs" for f in warm.findings)

