"""Check stage: every rule-schema, invariant, text and language check over the model.

Each check module exposes one function ``(GameData) -> list[Finding]``; :func:`run_all`
runs the ones asked for and returns every finding in one pass, never stopping early.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from ..errors import Finding
from ..model import GameData

Check = Callable[[GameData], list[Finding]]

#: (module, function) of each structural/rule check, in the order they run.
RULE_CHECKS: tuple[tuple[str, str], ...] = (
    ("invariants", "check_invariants"),
    ("effects", "check_effects"),
    ("text", "check_texts"),
)
LANGUAGE_CHECKS: tuple[tuple[str, str], ...] = (("lang", "check_language"),)


def _resolve(table: tuple[tuple[str, str], ...]) -> list[Check]:
    checks: list[Check] = []
    for module, name in table:
        try:
            mod = import_module(f"{__name__}.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{module}":
                raise
            continue
        checks.append(getattr(mod, name))
    return checks


def run_all(data: GameData, *, lang_only: bool = False) -> list[Finding]:
    checks = _resolve(LANGUAGE_CHECKS) if lang_only else _resolve(RULE_CHECKS + LANGUAGE_CHECKS)
    findings: list[Finding] = []
    for check in checks:
        findings.extend(check(data))
    return findings
