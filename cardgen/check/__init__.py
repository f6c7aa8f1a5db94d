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
from .invariants import check_invariants
from .lang import check_language
from .text import check_texts

Check = Callable[[GameData], list[Finding]]

#: Rule checks (schema, invariants, text against effects), in the order they run.
RULE_CHECKS: tuple[Check, ...] = (check_invariants, check_effects, check_texts, check_engine,
                                  check_deeds)
#: Translation QA (English against Czech).
LANGUAGE_CHECKS: tuple[Check, ...] = (check_language,)


def run_all(data: GameData, *, lang_only: bool = False) -> list[Finding]:
    checks = LANGUAGE_CHECKS if lang_only else RULE_CHECKS + LANGUAGE_CHECKS
    findings: list[Finding] = []
    for check in checks:
        findings.extend(check(data))
    return findings
