"""Card files as the last build loaded them, so a check parses only the card files that changed.

Reading the YAML of a large deck and making its cards is most of a check's load stage. A
build keeps, per card file (by its name in the project), the SHA-256 of the file's bytes and
the cards and load findings made from them, pickled, in output/.cache/cards.pickle; the
next load takes a file's cards from there when its bytes are the same, and parses it again
otherwise. Every file:line in them is relative to the project, so the entries a build makes
in its copy of the inputs hold for the project itself.

The file is trusted only as far as it can be checked: its key (the generator's code) and a
SHA-256 of its body must match, and its pickles may make no object but the model's own
(cards, findings, loaded YAML values); anything else reads as no entry, never as an error.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import pickle
from pathlib import Path
from typing import Any

from . import errors, model, yamlsrc
from .errors import Finding
from .incremental import CACHE_DIR, code_digest, digest
from .model import Card
from .write import atomic_write

NAME = "cards.pickle"
MAGIC = b"cardgen-cards 1\n"

#: What a pickled entry may make: the model's records and the loaded YAML values in them.
ALLOWED: dict[str, tuple[Any, frozenset[str]]] = {
    "cardgen.model": (model, frozenset({"Bilingual", "Effect", "CardLine", "ReviewedException",
                                        "Card"})),
    "cardgen.errors": (errors, frozenset({"Location", "Finding", "Severity"})),
    "cardgen.yamlsrc": (yamlsrc, frozenset({"LocMap", "LocList", "Source"})),
    "datetime": (datetime, frozenset({"date", "datetime", "time", "timedelta", "timezone"})),
}

#: Anything unpickling a damaged or foreign entry may raise.
_BROKEN = (pickle.UnpicklingError, EOFError, AttributeError, ImportError, IndexError, KeyError,
           TypeError, ValueError, OverflowError, MemoryError, RecursionError)

Entry = tuple[list[Card], list[Finding]]


class _ModelUnpickler(pickle.Unpickler):
    """An unpickler that makes none but the :data:`ALLOWED` classes."""

    def find_class(self, module: str, name: str) -> Any:
        allowed = ALLOWED.get(module)
        if allowed is None or name not in allowed[1]:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of the model")
        return getattr(allowed[0], name)


def _loads(blob: bytes) -> Any:
    return _ModelUnpickler(io.BytesIO(blob)).load()


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
        try:
            cards, findings = _loads(hit[1])
        except _BROKEN:
            return None
        if not (isinstance(cards, list) and all(isinstance(c, Card) for c in cards)
                and isinstance(findings, list) and all(isinstance(f, Finding) for f in findings)):
            return None
        self.live[name] = hit
        return cards, findings

    def put(self, name: str, sha: str, cards: list[Card], findings: list[Finding]) -> None:
        """Keep the cards and findings just made from file ``name`` (a build's cache only)."""
        if self.keep:
            self.live[name] = (sha, pickle.dumps((cards, findings), pickle.HIGHEST_PROTOCOL))

    @classmethod
    def read(cls, output: Path, *, keep: bool = False) -> CardFileCache:
        """The cache under ``output``; a missing, damaged or stale file is an empty cache."""
        try:
            raw = (output / CACHE_DIR / NAME).read_bytes()
        except OSError:
            return cls(keep=keep)
        head, _, rest = raw.partition(b"\n")
        key, _, rest = rest.partition(b"\n")
        sha, _, body = rest.partition(b"\n")
        if (head + b"\n" != MAGIC or key.decode("ascii", "replace") != _key()
                or sha.decode("ascii", "replace") != hashlib.sha256(body).hexdigest()):
            return cls(keep=keep)
        try:
            stored = _loads(body)  # builtin types only: a dict of str → (str, bytes)
        except _BROKEN:
            return cls(keep=keep)
        if not isinstance(stored, dict) or not all(
                isinstance(k, str) and isinstance(v, tuple) and len(v) == 2
                and isinstance(v[0], str) and isinstance(v[1], bytes) for k, v in stored.items()):
            return cls(keep=keep)
        return cls(stored, keep=keep)

    def write(self, output: Path) -> None:
        """Keep this load's entries (only those: a removed card file's entry goes)."""
        body = pickle.dumps(dict(sorted(self.live.items())), pickle.HIGHEST_PROTOCOL)
        path = output / CACHE_DIR / NAME
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, b"".join([MAGIC, _key().encode("ascii"), b"\n",
                                     hashlib.sha256(body).hexdigest().encode("ascii"), b"\n",
                                     body]))
