"""Regular expressions from data files (glossary ``forbidden`` patterns, the ``meaning:`` and
``clauses:`` vocabularies), compiled once where they are loaded and matched with bounded cost.

A pattern is untrusted input: ``(a+)+$`` backtracks for ever on a long line. Each one is
compiled with the ``regex`` module (Apache-2.0), whose matches take a time limit; a pattern
that cannot compile, or nests one unbounded repeat inside another (the classic runaway), is
refused at its line, and a match that still runs past :data:`MATCH_SECONDS` is an error
naming the pattern, never a hang.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import regex

from ..errors import CardgenError, Location, error

#: Seconds one match of one pattern against one text may take (real ones take microseconds).
MATCH_SECONDS = 0.25
#: Characters a data pattern may have (the longest shipped one has about 60).
MAX_PATTERN = 500
#: How large a pattern may grow once its counted repeats are written out (``a{3}`` is 3):
#: compiling expands them, and four nested ``{100}`` took 3.7 GB (issue 38).
MAX_EXPANDED = 10_000
_COUNT = regex.compile(r"\{(\d*)(?:,(\d*))?\}")


class PatternError(ValueError):
    """Why a data pattern is refused: it does not compile, or it could run without end."""


@dataclass(frozen=True)
class BoundedPattern:
    """A compiled data pattern whose every match has a time limit; ``where`` is its line."""

    source: str
    compiled: Any = field(compare=False, repr=False)
    where: Location | None = field(default=None, compare=False, repr=False)

    def finditer(self, text: str) -> Iterator[Any]:
        return iter(self._run(lambda: list(self.compiled.finditer(text, timeout=MATCH_SECONDS))))

    def findall(self, text: str) -> list[Any]:
        return self._run(lambda: self.compiled.findall(text, timeout=MATCH_SECONDS))

    def search(self, text: str) -> Any:
        return self._run(lambda: self.compiled.search(text, timeout=MATCH_SECONDS))

    def match(self, text: str) -> Any:
        return self._run(lambda: self.compiled.match(text, timeout=MATCH_SECONDS))

    def _run(self, work: Any) -> Any:
        try:
            return work()
        except TimeoutError:
            shown = self.source if len(self.source) <= 60 else self.source[:57] + "…"
            raise CardgenError(error(
                "pattern-slow", f"the pattern {shown!r} takes more than {MATCH_SECONDS:g} s on "
                "one text", location=self.where,
                hint="simplify it: no repeat inside a repeat such as (a+)+")) from None


def bounded(source: str, where: Location | None = None, *, ignore_case: bool = True,
            check: str | None = None) -> BoundedPattern:
    """``source`` compiled (in any case unless told); ``check`` is the pattern whose safety is
    judged when ``source`` wraps it. Raises :class:`PatternError` saying why it is refused."""
    for reason in refusals(check if check is not None else source):
        raise PatternError(reason)
    try:
        compiled = regex.compile(source, regex.IGNORECASE if ignore_case else 0)
    except (regex.error, OverflowError, RecursionError) as exc:
        raise PatternError(f"it is not a regular expression ({exc})") from None
    return BoundedPattern(source, compiled, where)


def refusals(source: str) -> list[str]:
    """Why ``source`` may not be used (empty when it may): too long, or a group with an
    unbounded repeat (``*``, ``+``, ``{n,}``) inside that is itself repeated without bound."""
    if len(source) > MAX_PATTERN:
        return [f"it is {len(source)} characters long; at most {MAX_PATTERN} are allowed"]
    size = expanded_size(source)
    if size > MAX_EXPANDED:
        return [f"its counted repeats write out to about {size:,} characters; at most "
                f"{MAX_EXPANDED:,} are allowed (compiling it would take that much memory)"]
    try:
        regex.compile(source)
    except (regex.error, OverflowError, RecursionError) as exc:
        return [f"it is not a regular expression ({exc})"]
    if _nested_repeat(source):
        return ["it repeats a group that itself repeats without bound, such as (a+)+, which "
                "can take for ever on a long text"]
    return []


def expanded_size(source: str) -> int:
    """An upper bound of the pattern's length with every counted repeat (``{n}``,
    ``{m,n}``) written out, read without compiling it: each atom counts 1, a group the sum
    of its parts, a count multiplies what it follows (``*`` and ``+`` expand nothing)."""
    sizes = [0]  # per open group: its size so far
    last, i, n = 0, 0, len(source)
    while i < n:
        ch = source[i]
        if ch == "\\":
            close = source.find("}", i) if source[i + 2:i + 3] == "{" else -1
            i = close + 1 if close > 0 else i + 2
            item = 1
        elif ch == "[":
            j = i + 2 if source[i + 1:i + 2] == "]" else i + 1
            while j < n and source[j] != "]":
                j += 2 if source[j] == "\\" else 1
            i, item = j + 1, 1
        elif ch == "(":
            sizes.append(0)
            i += 1
            continue
        elif ch == ")" and len(sizes) > 1:
            item = sizes.pop()
            i += 1
        elif ch == "{" and (m := _COUNT.match(source, i)) and any(m.groups()):
            count = max(int(g) for g in m.groups() if g)
            sizes[-1] += last * (count - 1)
            last *= count
            i = m.end()
            continue
        elif ch in "*+?|":
            i += 1
            continue
        else:
            i, item = i + 1, 1
        sizes[-1] += item
        last = item
    return sum(sizes)


def _nested_repeat(source: str) -> bool:
    """Whether a group holding an unbounded repeat is followed by an unbounded repeat."""
    stack: list[bool] = []  # per open group: does it hold an unbounded repeat?
    i, n = 0, len(source)
    in_class = False
    while i < n:
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if source[i + 1:i + 2] == "]":
                i += 1
        elif ch == "(":
            stack.append(False)
        elif ch == ")" and stack:
            inner = stack.pop()
            if inner and _unbounded_at(source, i + 1):
                return True
            if stack and inner:
                stack[-1] = True
        elif _unbounded_at(source, i) and stack:
            stack[-1] = True
        i += 1
    return False


def _unbounded_at(source: str, i: int) -> bool:
    """Whether an unbounded repeat (``*``, ``+``, ``{n,}``) starts at ``source[i]``."""
    if source[i:i + 1] in ("*", "+"):
        return True
    if source[i:i + 1] == "{":
        close = source.find("}", i)
        return close > i and source[i + 1:close].endswith(",")
    return False
