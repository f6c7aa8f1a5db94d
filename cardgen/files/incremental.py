"""What a build may skip: content keys of every output and the state of the last build.

A target's key hashes everything its bytes depend on. The state file records, per output,
the key it was built from and the SHA-256 of the bytes written; an output is reused only
when both still match, so a corrupt, edited or stale file is rebuilt, never trusted. The
state and the JSON caches are sealed with the project's secret (:mod:`.seal`), so a planted
one, however well-formed, is ignored; and every output the state names is read through the
output wall (a path out of ``output/``, a device or a FIFO listed there is an output to
make again, never one to open).
"""

from __future__ import annotations

import errno
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
from .safepath import output_path
from .seal import CACHE_DIR as CACHE_DIR
from .seal import make_key, read_key, seal, sealed
from .write import atomic_write

STATE_NAME = ".cardgen-state.json"
STATE_VERSION = 3  # 3: sealed with the project's secret
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
    """The SHA-256 of a regular file's bytes; anything else (a FIFO, which would block, a
    device, which may never end) is an OSError, never opened for reading."""
    h = hashlib.sha256()
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        os.set_blocking(fd, True)
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
    the load still refuse them. ``dest`` is a new folder of the build's own, named through
    the output wall; every file is created there anew (never opened if something is there).
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
        with path.open("rb") as src, target.open("xb") as out:  # never through a planted file
            for block in iter(lambda: src.read(1 << 20), b""):
                h.update(block)
                out.write(block)
        parts += [str(rel), h.hexdigest()]
    return digest(code_digest(), digest(*parts), *extra)


class JsonCache:
    """A JSON document under output/.cache/ that is trusted only if its seal matches.

    The payload is stored with a caller's key and the seal (HMAC-SHA256 with the project's
    secret) of both: a missing, truncated, edited, stale, planted or forged file reads as
    empty, so it is rebuilt, never used.
    """

    def __init__(self, output: Path, name: str):
        self.output, self.rel = output, f"{CACHE_DIR}/{name}.json"
        self.path = output / self.rel

    def read(self, key: str) -> object | None:
        try:
            raw = json.loads(read_input(output_path(self.output, self.rel), self.rel))
            payload = raw["payload"]
            if raw.get("version") != STATE_VERSION or raw.get("key") != key:
                return None
            if not sealed(read_key(self.output), raw.get("seal"), key, _canonical(payload)):
                return None
            return payload
        except (CardgenError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return None  # a planted link or a damaged file is a cache miss

    def write(self, key: str, payload: object) -> None:
        path = output_path(self.output, self.rel)
        secret = make_key(self.output)
        if secret is None:  # pragma: no cover - a file system that cannot keep it private
            return
        doc = {"version": STATE_VERSION, "key": key,
               "seal": seal(secret, key, _canonical(payload)), "payload": payload}
        atomic_write(path, json.dumps(doc, ensure_ascii=False, sort_keys=True).encode("utf-8"))


def _canonical(payload: object) -> str:
    return json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


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
            raw = json.loads(read_input(output_path(output, STATE_NAME), STATE_NAME))
            if raw.get("version") != STATE_VERSION or not sealed(
                    read_key(output), raw.pop("seal", None), _canonical(raw)):
                return cls(path)  # planted, forged or of another project: trust none of it
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
            if not isinstance(entry, dict) or _digest_at(output, rel) != entry.get("sha256"):
                return False
        return True

    def fresh(self, rel: str, key: str, output: Path) -> bool:
        entry = self.entries.get(rel)
        if not isinstance(entry, dict) or entry.get("key") != key:
            return False
        return _digest_at(output, rel) == entry.get("sha256")

    def record(self, rel: str, key: str, data: bytes) -> None:
        self.entries[rel] = {"key": key, "sha256": hashlib.sha256(data).hexdigest()}

    def save(self) -> None:
        output = self.path.parent
        path = output_path(output, self.path.name)
        secret = make_key(output)
        if secret is None:  # pragma: no cover - a file system that cannot keep it private
            return
        doc: dict[str, object] = {
            "version": STATE_VERSION, "inputs": self.inputs, "outputs": self.outputs,
            "timings": {k: round(v, 4) for k, v in sorted(self.timings.items())},
            "entries": dict(sorted(self.entries.items()))}
        doc["seal"] = seal(secret, _canonical(doc))
        atomic_write(path, json.dumps(doc, indent=1).encode("utf-8"))


def _digest_at(output: Path, rel: str) -> str | None:
    """The SHA-256 of the output ``rel`` (as the state names it), through the output wall;
    None when it is missing, not a regular file or not a path inside ``output/``."""
    try:
        return file_digest(output_path(output, rel, own=False))
    except (CardgenError, OSError):
        return None
