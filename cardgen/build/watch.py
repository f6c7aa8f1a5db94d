"""`cardgen watch`: build, then build again whenever a file under card_data/, layouts/ or
art/ (or fonts/) is saved. Polls modification times: no dependency, works on every file
system. Broken data is reported and the watcher waits for the next save.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from ..errors import CardgenError, Severity
from ..files.incremental import INPUT_DIRS

Log = Callable[[str], None]
Build = Callable[[Path, object, Log], object]
Snapshot = dict[str, tuple[int, int]]


def snapshot(project: Path) -> Snapshot:
    """(mtime ns, size) of every input file, by path relative to the project."""
    out: Snapshot = {}
    for name in INPUT_DIRS:
        folder = project / name
        if not folder.is_dir():
            continue
        for path in folder.rglob("*"):
            rel = path.relative_to(project)
            if any(part.startswith(".") for part in rel.parts) or path.name.endswith("~"):
                continue  # editor swap and backup files
            try:
                st = path.stat()
            except OSError:
                continue  # vanished between listing and stat (an editor's atomic save)
            if path.is_file():
                out[str(rel)] = (st.st_mtime_ns, st.st_size)
    return out


def changed(before: Snapshot, after: Snapshot) -> list[str]:
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))


def _format(findings) -> list[str]:
    return [f.format() for f in findings]


def build_once(project: Path, options, log: Log) -> bool:
    """One build; print what it wrote and its findings. False when the data has errors."""
    from .build import build  # the build imports the stages; watch only drives it

    try:
        report = build(project, options)
    except CardgenError as exc:
        for line in _format(exc.findings):
            log(line)
        errors = sum(f.severity is Severity.ERROR for f in exc.findings)
        log(f"build failed: {errors} error(s); nothing written. Waiting for the next save…")
        return False
    for line in _format(report.findings):
        log(line)
    warnings = sum(f.severity is Severity.WARNING for f in report.findings)
    log(f"built: {len(report.written)} written, {len(report.skipped)} unchanged, "
        f"{warnings} warning(s). Waiting for the next save…")
    return True


def watch(project: Path, options, log: Log = print, stop: threading.Event | None = None,
          interval: float = 0.25, settle: float = 0.1, build: Build = build_once) -> int:
    """Build now and after every save until ``stop`` is set (or Ctrl-C); return the build count.

    A change is acted on once the files stopped changing for ``settle`` seconds, so an editor
    that writes in several steps triggers one build. Any unexpected exception inside a build
    is reported and the watcher keeps running. ``build`` makes one build (`cardgen serve`
    passes its own, which also updates the page).
    """
    stop = stop or threading.Event()
    builds = 0
    seen = snapshot(project)
    log(f"watching {', '.join(d + '/' for d in INPUT_DIRS)} in {project}")
    _guarded(project, options, log, build)
    builds += 1
    try:
        while not stop.wait(interval):
            now = snapshot(project)
            diff = changed(seen, now)
            if not diff:
                continue
            while not stop.wait(settle):  # let a multi-step save finish
                later = snapshot(project)
                if later == now:
                    break
                now = later
            seen = now
            log(f"changed: {', '.join(diff[:5])}{' …' if len(diff) > 5 else ''}")
            _guarded(project, options, log, build)
            builds += 1
    except KeyboardInterrupt:
        log("stopped")
    return builds


def _guarded(project: Path, options, log: Log, build: Build) -> None:
    try:
        build(project, options, log)
    except KeyboardInterrupt:
        raise
    except Exception as exc:
        log(f"build crashed: {type(exc).__name__}: {exc}. Waiting for the next save…")
