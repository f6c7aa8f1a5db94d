"""Per-card check results: an edit re-checks what it changes, and the findings equal a cold check."""

from __future__ import annotations

import json

from cardgen.build.check import CHECKS_CACHE, checks_key, run_check
from cardgen.check.cache import CheckCache
from cardgen.files.incremental import JsonCache
from tests.conftest import replace_in


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



def _at(findings, code: str, card: str) -> list[str]:
    return [str(f.location) for f in findings if f.code == code and f.card == card]


def test_lines_added_above_a_card_move_its_cached_finding(project):
    cards = project / "card_data" / "cards" / "luxembourg.yaml"
    # Blanche de Valois's Czech Deed text moves John's loyalty 2 steps, her effect 1 (2.36)
    line = replace_in(cards, 'cs: "Drží-li Jana Wittelsbachové: posuň ukazatel Janovy věrnosti o\u00a01',
                      'cs: "Drží-li Jana Wittelsbachové: posuň ukazatel Janovy věrnosti o\u00a02')
    cache = CheckCache()
    first = run_check(project, check_cache=cache)
    assert _at(first.findings, "text-differs", "blanche-de-valois") == [
        f"card_data/cards/luxembourg.yaml:{line}:13"]
    cache = CheckCache(dict(cache.live))
    # two lines more above every card: her record's text is the same, her lines are not
    replace_in(cards, "cards:\n", "# a note\n# another\ncards:\n")
    warm = run_check(project, check_cache=cache)
    assert _at(warm.findings, "text-differs", "blanche-de-valois") == [
        f"card_data/cards/luxembourg.yaml:{line + 2}:13"]
    assert warm.findings == run_check(project, check_cache=CheckCache()).findings


def test_an_edit_after_a_build_is_reported_by_check_at_its_line(project):
    # the cache a build leaves in output/.cache, as `cardgen check` then reads it
    cache = CheckCache()
    assert run_check(project, check_cache=cache).ok
    JsonCache(project / "output", CHECKS_CACHE).write(checks_key(), cache.to_json())
    cards = project / "card_data" / "cards" / "luxembourg.yaml"
    line = replace_in(cards, 'cs: "Umísti 2\u00a0vlivu do Čech.', 'cs: "Umísti 3\u00a0vlivu do Čech.')
    found = run_check(project).findings
    assert _at(found, "text-differs", "charles-iv") == [f"card_data/cards/luxembourg.yaml:{line}:13"]
    assert found == run_check(project, check_cache=CheckCache()).findings


def test_a_damaged_cache_file_in_output_is_ignored(project):
    cache = CheckCache()
    run_check(project, check_cache=cache)
    file = JsonCache(project / "output", CHECKS_CACHE)
    file.write(checks_key(), cache.to_json())
    # a finding slipped into an entry (the checksum no longer matches), then a cut-off file
    doc = json.loads(file.path.read_text(encoding="utf-8"))
    entry = next(iter(doc["payload"]))
    doc["payload"][entry] = [{"severity": "error", "code": "planted", "message": "not found"}]
    file.path.write_text(json.dumps(doc), encoding="utf-8")
    cold = run_check(project, check_cache=CheckCache()).findings
    assert run_check(project).findings == cold
    file.path.write_text(file.path.read_text(encoding="utf-8")[:200], encoding="utf-8")
    assert run_check(project).findings == cold


def test_a_changed_place_form_reaches_the_card_that_uses_it(project):
    cache = _warm(project)
    # Charles IV's Czech Deed places influence "do Čech" (the into form of Bohemia)
    replace_in(project / "card_data" / "places.yaml", "into: do Čech,", "into: do Čechů,")
    warm = run_check(project, check_cache=cache)
    assert warm.findings == run_check(project, check_cache=CheckCache()).findings
    assert _at(warm.findings, "text-differs", "charles-iv")
