"""Card files as the last build loaded them, so a check parses only the card files that changed.

Reading the YAML of a large deck and making its cards is most of a check's load stage. A
build keeps, per card file (by its name in the project), the SHA-256 of the file's bytes and
the cards and load findings made from them, pickled, in output/.cache/cards.pickle; the
next load takes a file's cards from there when its bytes are the same, and parses it again
otherwise. Every file:line in them is relative to the project, so the entries a build makes
in its copy of the inputs hold for the project itself.

The file is trusted only as far as it can be checked: its key (the generator's code) and its
seal (an HMAC with the project's secret, :mod:`cardgen.files.seal`) must match, so a planted
or forged file, however well-formed, is no entry; and its pickles may make no object but the
model's own (cards, findings, loaded YAML values); anything else reads as no entry, never as
an error.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from .. import errors
from ..errors import Finding
from ..files import pickles
from ..files.incremental import CACHE_DIR, code_digest, digest
from . import model, yamlsrc
from .model import Card

NAME = "cards.pickle"
MAGIC = b"cardgen-cards 2\n"  # 2: the model moved to cardgen.data

#: What a pickled entry may make: the model's records and the loaded YAML values in them.
ALLOWED: dict[str, tuple[Any, frozenset[str]]] = {
    "cardgen.data.model": (model, frozenset({"Bilingual", "Effect", "CardLine",
                                             "ReviewedException", "Card"})),
    "cardgen.errors": (errors, frozenset({"Location", "Finding", "Severity"})),
    "cardgen.data.yamlsrc": (yamlsrc, frozenset({"LocMap", "LocList", "Source"})),
    "datetime": (datetime, frozenset({"date", "datetime", "time", "timedelta", "timezone"})),
}

Entry = tuple[list[Card], list[Finding]]


def _allowed(module: str, name: str) -> Any:
    allowed = ALLOWED.get(module)
    return getattr(allowed[0], name) if allowed is not None and name in allowed[1] else None


def _key() -> str:
    return digest(code_digest(), NAME)


class CardFileCache:
    """Entries by card file name: (SHA-256 of its bytes, pickled cards and findings)."""

    def __init__(self, stored: dict[str, tuple[str, bytes]] | None = None, *, keep: bool = False):
        self.stored = stored or {}
        #: the entries this load used or made: what :meth:`write` keeps
        self.live: dict[str, tuple[str, bytes]] = {}
        self.keep = keep  # pickle what was parsed (a build writes the cache; a check only reads)

    def get(self, name: str, sha: str) -> Entry | None:
        """The cards and findings of file ``name`` whose bytes hash to ``sha``, if kept."""
        hit = self.stored.get(name)
        if hit is None or hit[0] != sha:
            return None
        entry = pickles.loads(hit[1], _allowed)
        if not isinstance(entry, tuple) or len(entry) != 2:
            return None
        cards, findings = entry
        if not (isinstance(cards, list) and all(isinstance(c, Card) for c in cards)
                and isinstance(findings, list) and all(isinstance(f, Finding) for f in findings)):
            return None
        self.live[name] = hit
        return cards, findings

    def put(self, name: str, sha: str, cards: list[Card], findings: list[Finding]) -> None:
        """Keep the cards and findings just made from file ``name`` (a build's cache only)."""
        if self.keep:
            self.live[name] = (sha, pickles.dumps((cards, findings)))

    @classmethod
    def read(cls, output: Path, *, keep: bool = False) -> CardFileCache:
        """The cache under ``output``; a missing, damaged or stale file is an empty cache."""
        body = pickles.read(output, f"{CACHE_DIR}/{NAME}", MAGIC, _key())
        stored = pickles.loads(body, _allowed) if body is not None else None
        if not isinstance(stored, dict) or not all(
                isinstance(k, str) and isinstance(v, tuple) and len(v) == 2
                and isinstance(v[0], str) and isinstance(v[1], bytes) for k, v in stored.items()):
            return cls(keep=keep)
        return cls(stored, keep=keep)

    def write(self, output: Path) -> None:
        """Keep this load's entries (only those: a removed card file's entry goes)."""
        pickles.write(output, f"{CACHE_DIR}/{NAME}", MAGIC, _key(),
                      pickles.dumps(dict(sorted(self.live.items()))))
