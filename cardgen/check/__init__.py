"""Check stage: every rule-schema, invariant, text and language check over the model.

Each check module exposes one function ``(GameData) -> list[Finding]``; :func:`run_all`
runs them all and returns every finding in one pass, never stopping at the first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..data.model import GameData
from ..errors import Finding
from .cache import CheckCache
from .effects import check_effects
from .engine import check_deeds, check_engine
from .facts import ALSO_AT, FIXES, check_rule_facts
from .invariants import check_invariants
from .lang import check_language
from .text import FOLLOWS_FACT, check_texts

Check = Callable[[GameData], list[Finding]]

#: Rule checks (schema, invariants, text against effects), in the order they run.
RULE_CHECKS: tuple[Check, ...] = (check_invariants, check_effects, check_texts,
                                  check_rule_facts, check_engine, check_deeds)
#: Translation QA (English against Czech).
LANGUAGE_CHECKS: tuple[Check, ...] = (check_language,)


#: Text findings that already say everything a language finding on the same text would.
TEXT_CODES = frozenset({"text-differs", "text-meaning", "forbidden-term"})
#: Language findings that only repeat a text finding (one mistake, one finding).
REPEATS = frozenset({"lang-numbers", "lang-symbols", "lang-name", "lang-glossary",
                     "lang-forbidden"})


def one_finding_per_mistake(findings: list[Finding]) -> list[Finding]:
    """Drop the findings that repeat another: a number changed in Czech is one
    ``text-differs``, not that plus ``lang-numbers``; a value the rulebook fixes, changed,
    is one ``rule-fact`` at that value, not that plus another check's finding there; an
    effect the rulebook fixes changed or removed, or a card the rulebook names renamed,
    while the texts stay, is one ``rule-fact`` that notes the texts, not that plus a
    ``text-differs`` per text."""
    texts = {f.extra.get("text") for f in findings if f.code in TEXT_CODES}
    facts = {at for f in findings if f.code == "rule-fact"
             for at in (str(f.location), *f.extra.get(ALSO_AT, "").split())}
    fixes = {f.extra[FIXES] for f in findings if FIXES in f.extra}
    follow: dict[str, list[Finding]] = {}
    for f in findings:
        key = next((k for k in f.extra.get(FOLLOWS_FACT, "").split() if k in fixes), None)
        if key is not None:
            follow.setdefault(key, []).append(f)
    folded = {id(f) for fs in follow.values() for f in fs}
    out = []
    for f in findings:
        if (f.code in REPEATS and f.extra.get("text") in texts) or (
                f.code != "rule-fact" and str(f.location) in facts) or id(f) in folded:
            continue
        texts_of = follow.pop(f.extra.get(FIXES, ""), None)
        out.append(replace(f, message=f"{f.message}; {_still_ruled(texts_of)}") if texts_of else f)
    return out


def _still_ruled(texts: list[Finding]) -> str:
    """The note on a rule-fact finding whose texts still say what the rule fixes."""
    which = [f"{f.lang} ({f.location})" for f in texts]
    listed = " and ".join([", ".join(which[:-1]), which[-1]] if len(which) > 1 else which)
    return (f"the {listed} text{'s' if len(texts) > 1 else ''} still say"
            f"{'' if len(texts) > 1 else 's'} what the rule fixes: putting the data right "
            "is the whole fix")


#: Checks that look at one card at a time and may reuse a card's findings (check/cache.py).
PER_CARD: frozenset[Check] = frozenset({check_texts, check_deeds, check_language})


def run_all(data: GameData, *, lang_only: bool = False,
            cache: CheckCache | None = None) -> list[Finding]:
    """Every check's findings; with a ``cache``, the per-card checks re-check only the cards
    whose inputs changed (and fill the cache for the next run)."""
    checks = LANGUAGE_CHECKS if lang_only else RULE_CHECKS + LANGUAGE_CHECKS
    findings: list[Finding] = []
    for check in checks:
        found = check(data, cache=cache) if check in PER_CARD else check(data)  # type: ignore[call-arg]
        findings.extend(found)
    return one_finding_per_mistake(findings)
