"""Check stage: every rule-schema, invariant, text and language check over the model.

Each check module exposes one function ``(GameData) -> list[Finding]``; :func:`run_all`
runs them all and returns every finding in one pass, never stopping at the first.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import Finding
from ..model import GameData
from .effects import check_effects
from .engine import check_deeds, check_engine
from .facts import check_rule_facts
from .invariants import check_invariants
from .lang import check_language
from .text import check_texts

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
    is one ``rule-fact`` at that value, not that plus another check's finding there."""
    texts = {f.extra.get("text") for f in findings if f.code in TEXT_CODES}
    facts = {f.location for f in findings if f.code == "rule-fact"}
    return [f for f in findings
            if not (f.code in REPEATS and f.extra.get("text") in texts)
            and not (f.code != "rule-fact" and f.location in facts)]


def run_all(data: GameData, *, lang_only: bool = False) -> list[Finding]:
    checks = LANGUAGE_CHECKS if lang_only else RULE_CHECKS + LANGUAGE_CHECKS
    findings: list[Finding] = []
    for check in checks:
        findings.extend(check(data))
    return one_finding_per_mistake(findings)
