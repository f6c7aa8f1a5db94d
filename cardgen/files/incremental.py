"""What a build may skip: content keys of every output and the state of the last build.

A target's key hashes everything its bytes depend on. The state file records, per output,
the key it was built from and the SHA-256 of the bytes written; an output is reused only
when both still match, so a corrupt, edited or stale file is rebuilt, never trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .write import atomic_write

STATE_NAME = ".cardgen-state.json"
STATE_VERSION = 2
CACHE_DIR = ".cache"
#: What a build reads besides the package's own code.
INPUT_DIRS = ("card_data", "layouts", "fonts", "art")


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


_CODE_DIGEST: list[str] = []


def code_digest() -> str:
    """The generator's own version: every source file of the package (once per process)."""
    if not _CODE_DIGEST:
        package = Path(__file__).resolve().parent
        _CODE_DIGEST.append(tree_digest(package.rglob("*.py"), package))
    return _CODE_DIGEST[0]


def input_files(project: Path) -> list[Path]:
    """Every file a build may read under the project's input folders (hidden files aside)."""
    out: list[Path] = []
    for name in INPUT_DIRS:
        folder = project / name
        if folder.is_dir():
            out += [p for p in folder.rglob("*")
                    if p.is_file() and not any(part.startswith(".")
                                               for part in p.relative_to(project).parts)]
    return sorted(out)


def inputs_digest(project: Path, *extra: str) -> str:
    """One key over the code, every input file and ``extra`` (the build options)."""
    return digest(code_digest(), tree_digest(input_files(project), project), *extra)


def snapshot_inputs(project: Path, dest: Path, *extra: str) -> str:
    """Copy every input file of ``project`` to the same place under ``dest``; return the
    inputs key (as :func:`inputs_digest`) of exactly the bytes copied.

    A build reads only the copy, so its key and its outputs come from the same bytes by
    construction: a file saved while the build runs is seen by the next build, never half
    by this one. Links out of art/ stay links, so the art check still refuses them.
    """
    parts: list[str] = []
    for path in input_files(project):
        rel = path.relative_to(project)
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        top = (project / rel.parts[0]).resolve()
        if rel.parts[0] == "art" and top not in path.resolve().parents:
            os.symlink(path.resolve(), target)
            parts += [str(rel), file_digest(path)]
            continue
        h = hashlib.sha256()
        with path.open("rb") as src, target.open("wb") as out:
            for block in iter(lambda: src.read(1 << 20), b""):
                h.update(block)
                out.write(block)
        parts += [str(rel), h.hexdigest()]
    return digest(code_digest(), digest(*parts), *extra)


class JsonCache:
    """A JSON document under output/.cache/ that is trusted only if its checksum matches.

    The payload is stored with the SHA-256 of its canonical JSON and a caller's key; a
    missing, truncated, edited or stale file reads as empty, so it is rebuilt, never used.
    """

    def __init__(self, output: Path, name: str):
        self.path = output / CACHE_DIR / f"{name}.json"

    def read(self, key: str) -> object | None:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            payload = raw["payload"]
            if raw.get("version") != STATE_VERSION or raw.get("key") != key:
                return None
            if raw.get("sha256") != _canonical_hash(payload):
                return None
            return payload
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def write(self, key: str, payload: object) -> None:
        doc = {"version": STATE_VERSION, "key": key, "sha256": _canonical_hash(payload),
               "payload": payload}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, json.dumps(doc, ensure_ascii=False, sort_keys=True).encode("utf-8"))


def _canonical_hash(payload: object) -> str:
    text = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class BuildState:
    """Per output path (relative to output/): the key it was built from and its bytes' hash."""

    path: Path
    entries: dict[str, dict[str, str]] = field(default_factory=dict)
    #: the inputs key of the last complete build and the outputs it made
    inputs: str = ""
    outputs: list[str] = field(default_factory=list)
    #: seconds each output took last time (to start the longest first); advisory only
    timings: dict[str, float] = field(default_factory=dict)

    @classmethod
    def read(cls, output: Path) -> BuildState:
        path = output / STATE_NAME
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            if raw.get("version") != STATE_VERSION:
                return cls(path)
            entries = raw["entries"]
            inputs, outputs = raw.get("inputs", ""), raw.get("outputs", [])
            if (not isinstance(entries, dict) or not isinstance(inputs, str)
                    or not isinstance(outputs, list)
                    or not all(isinstance(o, str) for o in outputs)):
                return cls(path)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return cls(path)  # missing or corrupt state: rebuild everything
        timings = raw.get("timings", {})
        if not isinstance(timings, dict):
            timings = {}
        timings = {k: float(v) for k, v in timings.items() if isinstance(v, (int, float))}
        return cls(path, entries, inputs, outputs, timings)

    def unchanged(self, inputs: str, output: Path) -> bool:
        """The last build had exactly these inputs and each of its outputs is still intact."""
        if not self.inputs or self.inputs != inputs or not self.outputs:
            return False
        for rel in self.outputs:
            entry = self.entries.get(rel)
            if not isinstance(entry, dict):
                return False
            try:
                if file_digest(output / rel) != entry.get("sha256"):
                    return False
            except OSError:
                return False
        return True

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
        payload = {"version": STATE_VERSION, "inputs": self.inputs, "outputs": self.outputs,
                   "timings": {k: round(v, 4) for k, v in sorted(self.timings.items())},
                   "entries": dict(sorted(self.entries.items()))}
        atomic_write(self.path, json.dumps(payload, indent=1).encode("utf-8"))
