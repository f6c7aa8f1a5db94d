"""Formatting findings for people (grouped per card) and for tools (JSON)."""

from __future__ import annotations

import json
from collections.abc import Iterable

from .data.model import Card
from .errors import Finding, Severity, shown
from .messages import _, ngettext

_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


def sort_key(f: Finding) -> tuple:
    loc = f.location
    return (f.card or "", _ORDER[f.severity], loc.file if loc else "", loc.line if loc else 0,
            loc.col if loc else 0, f.code, f.lang or "")


def counts(findings: Iterable[Finding]) -> tuple[int, int]:
    items = list(findings)
    errors = sum(1 for f in items if f.severity is Severity.ERROR)
    warnings = sum(1 for f in items if f.severity is Severity.WARNING)
    return errors, warnings


def summary_line(cards: int, findings: list[Finding], exceptions: int) -> str:
    errors, warnings = counts(findings)
    return ", ".join([
        ngettext("{n} card checked", "{n} cards checked", cards).format(n=cards),
        ngettext("{n} error", "{n} errors", errors).format(n=errors),
        ngettext("{n} warning", "{n} warnings", warnings).format(n=warnings),
        ngettext("{n} reviewed exception", "{n} reviewed exceptions",
                 exceptions).format(n=exceptions)])


def format_text(findings: list[Finding]) -> str:
    """Findings grouped per card (data-wide findings first), errors before warnings."""
    lines: list[str] = []
    current: str | None = "\0"
    for f in sorted(findings, key=sort_key):
        if f.card != current:
            current = f.card
            lines.append("\n== " + (_("card {id}").format(id=shown(f.card)) if f.card
                                      else _("data")) + " ==")
        lines.append(f.format())
    return "\n".join(lines).lstrip("\n")


def exception_lines(cards: Iterable[Card]) -> list[str]:
    """The reviewed exceptions, one line each, for the summary."""
    return [shown(f"{ex.loc}: card {card.id} {ex.line} ({ex.lang}): reviewed: {ex.reason}")
            for card in cards for ex in card.exceptions]


def format_json(findings: list[Finding], summary: dict[str, object]) -> str:
    payload = {"summary": summary, "findings": [f.to_json() for f in sorted(findings, key=sort_key)]}
    text = json.dumps(payload, ensure_ascii=False, indent=2)
    # json escapes C0 itself; C1, bidi controls and lone surrogates become \uXXXX (valid JSON)
    return "".join(c if c == "\n" or shown(c) == c else f"\\u{ord(c):04x}" for c in text)
