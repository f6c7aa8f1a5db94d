"""Findings and the project's own error type.

Every stage reports problems as :class:`Finding` values; a stage that cannot go on
raises :class:`CardgenError` carrying all findings collected so far, never one at a time.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace
from enum import StrEnum

from .codes import CODES, DATA, SETUP
from .messages import _


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


#: The severity words a terminal shows (JSON keeps the values themselves).
SEVERITY_WORDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "info"}
_("error"), _("warning"), _("info")  # marked for extraction; translated where shown


@dataclass(frozen=True, order=True)
class Location:
    """A place in a source file (1-based line and column)."""

    file: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if not self.line:
            return self.file
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Finding:
    """One problem found in the input, with everything needed to fix it."""

    severity: Severity
    code: str
    message: str
    location: Location | None = None
    card: str | None = None
    lang: str | None = None
    rule: str | None = None
    hint: str | None = None
    extra: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    def format(self) -> str:
        """The finding for a terminal or a log: every part :func:`shown` (a name, key, id or
        path from the input can never send a control sequence)."""
        where = f"{shown(str(self.location))}: " if self.location else ""
        parts = [f"{where}{_(SEVERITY_WORDS[self.severity])}[{shown(self.code)}]"]
        if self.card:
            parts.append(_("card {id}").format(id=shown(self.card)))
        if self.lang:
            parts.append(f"({shown(self.lang)})")
        head = " ".join(parts)
        rule = " [" + _("rule {number}").format(number=shown(self.rule)) + "]" if self.rule else ""
        text = f"{head}: {_indented(shown(self.message, keep=chr(10)))}{rule}"
        if self.hint:
            text += "\n    " + _("fix: {hint}").format(hint=shown(self.hint))
        return text

    def to_json(self) -> dict[str, object]:
        return {
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
            "file": self.location.file if self.location else None,
            "line": self.location.line if self.location else None,
            "column": self.location.col if self.location else None,
            "card": self.card,
            "lang": self.lang,
            "rule": self.rule,
            "hint": self.hint,
            **({"extra": self.extra} if self.extra else {}),
        }


def strict(findings: list[Finding]) -> list[Finding]:
    """``--strict``: every warning becomes an error (a release build tolerates none)."""
    return [replace(f, severity=Severity.ERROR, message=f"{f.message} (a warning; --strict)")
            if f.severity is Severity.WARNING else f for f in findings]


def error(code: str, message: str, **kw: object) -> Finding:
    return Finding(Severity.ERROR, code, message, **kw)  # type: ignore[arg-type]


def warning(code: str, message: str, **kw: object) -> Finding:
    return Finding(Severity.WARNING, code, message, **kw)  # type: ignore[arg-type]


class CardgenError(Exception):
    """Raised when a stage cannot continue; carries every finding collected."""

    def __init__(self, findings: list[Finding] | Finding):
        self.findings = [findings] if isinstance(findings, Finding) else list(findings)
        super().__init__("\n".join(f.format() for f in self.findings))


#: How a message shows a non-breaking space (Czech typography keeps many): a visible mark,
#: as the proof draws one, instead of Python's ``\xa0`` escape.
NBSP_SHOWN = "⍽"


def quoted(text: str) -> str:
    """``text`` quoted for a message: control characters escaped, each non-breaking space
    shown as :data:`NBSP_SHOWN`."""
    return repr(text).replace("\\xa0", NBSP_SHOWN)


#: Unicode categories that never belong raw in a terminal or a log: controls (C0 with ESC,
#: DEL, C1 with CSI U+009B), format characters (the bidi overrides U+202A-U+202E and
#: isolates), lone surrogates (an undecodable file name) and the line and paragraph
#: separators.
_UNSHOWN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def shown(text: str, keep: str = "") -> str:
    """``text`` safe to print: each character of :data:`_UNSHOWN` escaped as :func:`quoted`
    (Python) writes it (``\\x1b``, ``\\x9b``, ``\\u202e``), everything else as it is;
    ``keep``: characters to leave raw (a block's newlines)."""
    if text.isprintable():  # the common case: nothing to escape, not even a space
        return text
    return "".join(c if c in keep or unicodedata.category(c) not in _UNSHOWN
                   else repr(c)[1:-1] for c in text)


def _indented(text: str) -> str:
    """A message's own lines (``written:``/``canonical:`` blocks) kept as lines, each after
    the first indented, so no line of a message can pass for a finding of its own."""
    first, *rest = text.split("\n")
    return "\n".join([first, *(r if r.startswith("    ") else "    " + r for r in rest)])


def has_errors(findings: list[Finding]) -> bool:
    return any(f.severity is Severity.ERROR for f in findings)


#: Exit codes: 1 when the data has errors, 2 when the command line or the machine must be
#: fixed first (README "Exit codes", DECISIONS.md). Each code's class is declared in
#: :mod:`cardgen.codes`; ``tests/test_codes.py`` holds every code the package makes to it.
EXIT_DATA, EXIT_SETUP = DATA, SETUP


def exit_code(findings: list[Finding]) -> int:
    """2 when any error is of a code about the command line or the machine, else 1 (also for
    a code not registered: one read from an old cache, or a test's own)."""
    setup = any(f.severity is Severity.ERROR and (entry := CODES.get(f.code)) is not None
                and entry.exit == SETUP for f in findings)
    return EXIT_SETUP if setup else EXIT_DATA
