"""Check results kept per card, so an edit re-checks what it changes.

The costly checks (written against canonical text, translation QA, playing every line in
sampled game states) look at one card at a time, reading besides that card only inputs
every card shares. Their findings for a card are kept under a key over

* the card itself, everything loaded from its record (values, texts, file:line of each):
  the text of the card file it was read from, with that file's name and the line it
  starts at (or its repr, for a card made in code), and
* the shared inputs its check reads: the generator's code, every card_data/ file other than
  the card files, and what that check reads of the other cards — their ids and names for
  the text and language checks (a card's text may name another card), everything the rules
  engine plays with (all but texts and locations) for the game-state probes.

So a one-card text edit re-checks that card only; renaming a card changes the shared key of
the text checks and re-checks every card's text (the card naming it gets its finding); a
changed effect changes the games sampled, so every line is played again.
Cross-card rules (counts, ids, numbers, shields, rule facts) are cheap and always run.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..data.memo import Memo
from ..data.model import Card, CardLine, GameData
from ..errors import Finding, Location, Severity
from ..files.incremental import code_digest, digest, file_digest

CARDS_FOLDER = Path("card_data") / "cards"


class CheckCache:
    """Findings by key: read from the last run, and the entries this run used."""

    def __init__(self, stored: dict[str, list[Finding]] | None = None):
        self.stored = stored or {}
        self.live: dict[str, list[Finding]] = {}
        self.made = 0  # entries this run had to compute

    def findings(self, key: str, make: Callable[[], list[Finding]]) -> list[Finding]:
        if key not in self.live:
            if key in self.stored:
                self.live[key] = self.stored[key]
            else:
                self.live[key] = make()
                self.made += 1
        return list(self.live[key])

    def to_json(self) -> dict[str, list[dict]]:
        return {k: [f.to_json() for f in v] for k, v in sorted(self.live.items())}

    @classmethod
    def from_json(cls, payload: object) -> CheckCache:
        """The entries of ``payload`` (as :meth:`to_json` wrote); anything malformed reads
        as no cache at all."""
        if not isinstance(payload, dict):
            return cls()
        try:
            return cls({str(k): [finding_from_json(f) for f in v] for k, v in payload.items()})
        except (KeyError, TypeError, ValueError, AttributeError):
            return cls()


def finding_from_json(raw: dict) -> Finding:
    """The inverse of :meth:`Finding.to_json`."""
    loc = (Location(raw["file"], raw.get("line") or 0, raw.get("column") or 0)
           if raw.get("file") else None)
    return Finding(Severity(raw["severity"]), raw["code"], raw["message"], loc, raw.get("card"),
                   raw.get("lang"), raw.get("rule"), raw.get("hint"), dict(raw.get("extra") or {}))


def _shared_files(data: GameData) -> str:
    """One key over the code and every card_data/ file except the card files."""
    folder = data.root / "card_data"
    files = [p for p in sorted(folder.rglob("*")) if p.is_file()
             and not p.relative_to(data.root).is_relative_to(CARDS_FOLDER)]
    return digest(code_digest(), *(f"{p.relative_to(data.root)}:{file_digest(p)}" for p in files))


def text_key(data: GameData) -> str:
    """The shared inputs of the text and language checks: shared files, every card's name."""
    return _memo(data, "text", lambda: digest(
        _memo(data, "files", lambda: _shared_files(data)), "names",
        *(f"{c.id}={c.name.values!r}{c.name_forms!r}" for c in data.cards)))


def rules_key(data: GameData) -> str:
    """The shared inputs of the game-state probes: shared files and every card as the rules
    engine sees it (no texts, names of lines or file:line)."""
    return _memo(data, "rules", lambda: digest(
        _memo(data, "files", lambda: _shared_files(data)), "rules",
        *(repr(_played(c)) for c in data.cards)))


def card_key(check: str, shared: str, card: Card) -> str:
    """The key of ``check``'s findings for ``card`` under the ``shared`` inputs."""
    own = card.__dict__.get("_record_key")
    if own is None:  # the card's whole record, once per loaded card (several checks ask)
        source = card.source_key  # the text it was read from: cheaper than its repr
        own = digest("source", source) if source is not None else digest(repr(card))
        object.__setattr__(card, "_record_key", own)  # frozen: a cache, not a field
    return digest(check, shared, own)


#: What the rules engine does not read, by record type: texts, names of lines, reviewed
#: wording and every file:line.
_NOT_PLAYED: dict[type, frozenset[str]] = {
    Card: frozenset({"exceptions", "loc", "locs"}),
    CardLine: frozenset({"text", "name", "loc", "locs"}),
}
_LOCATED = frozenset({"loc", "locs"})


@functools.cache
def _played_fields(cls: type) -> tuple[str, ...] | None:
    """The fields of a record type the rules engine reads; None for any other type."""
    if not dataclasses.is_dataclass(cls):
        return None
    skip = _NOT_PLAYED.get(cls, _LOCATED)
    return tuple(f.name for f in dataclasses.fields(cls) if f.name not in skip)


def _played(value: Any) -> Any:
    """``value`` as the rules engine sees it, as plain data to repr: records (by type name,
    in field order) without what it does not read. Loaded YAML values (LocMap, LocList,
    scalars) are kept as they are; their repr has no file:line."""
    cls: type = type(value)
    names = _played_fields(cls)
    if names is not None:
        return (cls.__name__, *[_played(getattr(value, name)) for name in names])
    if cls is tuple:
        return tuple(map(_played, value))
    if cls is dict:  # an effect's parameters may hold effects (then, else)
        return {k: _played(v) for k, v in value.items()}
    return value


_MEMO: Memo[tuple[int, str], tuple[GameData, str]] = Memo(16)


def _memo(data: GameData, what: str, make: Callable[[], str]) -> str:
    """``make()`` once per loaded data (keys are read by several checks)."""
    hit = _MEMO.get((id(data), what))
    if hit is None or hit[0] is not data:
        hit = _MEMO[(id(data), what)] = (data, make())
    return hit[1]
