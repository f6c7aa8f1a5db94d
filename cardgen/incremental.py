"""What a build may skip: content keys of every output and the state of the last build.

A target's key hashes everything its bytes depend on. The state file records, per output,
the key it was built from and the SHA-256 of the bytes written; an output is reused only
when both still match, so a corrupt, edited or stale file is rebuilt, never trusted.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .write import atomic_write

STATE_NAME = ".cardgen-state.json"
STATE_VERSION = 1


def digest(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def tree_digest(files: Iterable[Path], root: Path) -> str:
    """One key for a set of files: their paths (relative to root) and contents."""
    parts: list[str] = []
    for path in sorted(set(files)):
        parts += [str(path.relative_to(root)), file_digest(path)]
    return digest(*parts)


def code_digest() -> str:
    """The generator's own version: every source file of the package."""
    package = Path(__file__).resolve().parent
    return tree_digest(package.rglob("*.py"), package)


@dataclass
class BuildState:
    """Per output path (relative to output/): the key it was built from and its bytes' hash."""

    path: Path
    entries: dict[str, dict[str, str]] = field(default_factory=dict)

    @classmethod
    def read(cls, output: Path) -> BuildState:
        path = output / STATE_NAME
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            entries = raw["entries"] if raw.get("version") == STATE_VERSION else {}
            if not isinstance(entries, dict):
                entries = {}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            entries = {}  # missing or corrupt state: rebuild everything
        return cls(path, entries)

    def fresh(self, rel: str, key: str, output: Path) -> bool:
        entry = self.entries.get(rel)
        if not isinstance(entry, dict) or entry.get("key") != key:
            return False
        target = output / rel
        try:
            return target.is_file() and file_digest(target) == entry.get("sha256")
        except OSError:
            return False

    def record(self, rel: str, key: str, data: bytes) -> None:
        self.entries[rel] = {"key": key, "sha256": hashlib.sha256(data).hexdigest()}

    def save(self) -> None:
        payload = {"version": STATE_VERSION, "entries": dict(sorted(self.entries.items()))}
        atomic_write(self.path, json.dumps(payload, indent=1).encode("utf-8"))
