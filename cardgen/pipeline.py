"""The one place that runs the stages in order: load → check → compose → layout → render
→ impose → write. Every other module is a stage that knows nothing of the ones after it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import check as checks
from .errors import CardgenError, Finding, has_errors
from .load import load
from .model import GameData

Log = Callable[[str], None]


@dataclass
class CheckReport:
    data: GameData | None
    findings: list[Finding]

    @property
    def ok(self) -> bool:
        return not has_errors(self.findings)

    @property
    def exceptions(self) -> int:
        return sum(len(c.exceptions) for c in self.data.cards) if self.data else 0

    @property
    def cards(self) -> int:
        return len(self.data.cards) if self.data else 0


def run_check(project: Path, *, lang_only: bool = False) -> CheckReport:
    """Load and check everything; never raises for bad data, only reports."""
    try:
        data, findings = load(project)
    except CardgenError as exc:
        return CheckReport(None, exc.findings)
    findings = list(findings)
    findings.extend(checks.run_all(data, lang_only=lang_only))
    return CheckReport(data, findings)


@dataclass
class BuildOptions:
    langs: tuple[str, ...] = ("en", "cs")
    png: bool = False
    cards: tuple[str, ...] = ()
    changed_since: Path | None = None
    profile: str = "generic"
    cmyk: bool = False
    gutterfold: bool = False
    flip: str = "long"


@dataclass
class BuildReport:
    written: list[Path] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
