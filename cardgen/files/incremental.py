"""What a build may skip: content keys of every output and the state of the last build.

A target's key hashes everything its bytes depend on. The state file records, per output,
the key it was built from and the SHA-256 of the bytes written; an output is reused only
when both still match, so a corrupt, edited or stale file is rebuilt, never trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import CardgenError, Finding
from .fingerprint import code_digest
from .oserrors import check_regular, read_input
from .safepath import inside
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


#: Names an input file has: a folder with such a name stands where a file belongs.
_FILE_SUFFIXES = (".yaml", ".yml", ".png", ".jpg", ".jpeg", ".ttf", ".otf", ".icc")


def odd_inputs(project: Path) -> list[Finding]:
    """A FIFO, device or socket under the input folders, or a folder named like an input
    file (``art/<id>.png/``): each a ``not-a-file`` finding (exit 2), said before a build
    copies its inputs, which would otherwise pass over it without a word."""
    out: list[Finding] = []
    for name in INPUT_DIRS:
        folder = project / name
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            rel = path.relative_to(project)
            if any(part.startswith(".") for part in rel.parts):
                continue
            try:
                mode = path.stat().st_mode
            except OSError:
                continue  # a dead link: as good as no file (the check names what is missing)
            if stat.S_ISDIR(mode) and path.suffix.lower() not in _FILE_SUFFIXES:
                continue
            found = check_regular(path, str(rel))
            if found is not None:
                out.append(found)
    return out


def inputs_digest(project: Path, *extra: str) -> str:
    """One key over the code, every input file and ``extra`` (the build options)."""
    return digest(code_digest(), tree_digest(input_files(project), project), *extra)


def snapshot_inputs(project: Path, dest: Path, *extra: str) -> str:
    """Copy every input file of ``project`` to the same place under ``dest``; return the
    inputs key (as :func:`inputs_digest`) of exactly the bytes copied.

    A build reads only the copy, so its key and its outputs come from the same bytes by
    construction: a file saved while the build runs is seen by the next build, never half
    by this one. Links out of art/ and out of the project stay links, so the art check and
    the load still refuse them.
    """
    parts: list[str] = []
    for path in input_files(project):
        rel = path.relative_to(project)
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        top = (project / rel.parts[0]).resolve()
        real = path.resolve()
        if (rel.parts[0] == "art" and top not in real.parents) or not real.is_relative_to(
                project.resolve()):  # the load and the art check refuse such a link
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
        self.output, self.rel = output, f"{CACHE_DIR}/{name}.json"
        self.path = output / self.rel

    def read(self, key: str) -> object | None:
        try:
            raw = json.loads(read_input(inside(self.output, self.rel, own=True), self.rel))
            payload = raw["payload"]
            if raw.get("version") != STATE_VERSION or raw.get("key") != key:
                return None
            if raw.get("sha256") != _canonical_hash(payload):
                return None
            return payload
        except (CardgenError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return None  # a planted link or a damaged file is a cache miss

    def write(self, key: str, payload: object) -> None:
        doc = {"version": STATE_VERSION, "key": key, "sha256": _canonical_hash(payload),
               "payload": payload}
        atomic_write(inside(self.output, self.rel, own=True),
                     json.dumps(doc, ensure_ascii=False, sort_keys=True).encode("utf-8"))


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
            raw = json.loads(read_input(inside(output, STATE_NAME, own=True), STATE_NAME))
            if raw.get("version") != STATE_VERSION:
                return cls(path)
            entries = raw["entries"]
            inputs, outputs = raw.get("inputs", ""), raw.get("outputs", [])
            if (not isinstance(entries, dict) or not isinstance(inputs, str)
                    or not isinstance(outputs, list)
                    or not all(isinstance(o, str) for o in outputs)):
                return cls(path)
        except (CardgenError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return cls(path)  # missing, corrupt or planted state: rebuild everything
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
        atomic_write(inside(self.path.parent, self.path.name, own=True),
                     json.dumps(payload, indent=1).encode("utf-8"))
