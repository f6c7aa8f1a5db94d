"""One build for the preview: `cardgen watch`'s build, then the images it changed, then the
page's state. Runs in the watch loop's thread; a failed build keeps the last good images."""

from __future__ import annotations

import threading
import time
from datetime import datetime
from pathlib import Path

from ..build.options import BuildOptions
from ..build.preview import Preview, preview_build
from ..build.watch import Log
from ..data.layout import Layout
from ..errors import CardgenError, Finding, Severity, error
from ..report import counts
from ..wording.face import CardFace
from .changes import card_changes
from .desk import Desk, Sources, card_entries, game_entries, geometry, openable, shown_findings, with_errors
from .images import ImageCache


class DeskBuilder:
    """Called by :func:`cardgen.build.watch.watch` for every build."""

    def __init__(self, desk: Desk, images: ImageCache):
        self.desk = desk
        self.images = images
        self.keys: dict[str, dict[str, str]] = {}  # face keys of the last good build
        self.shown: set[str] = set()  # image names of the last good build
        self.openable: set[tuple[str, int]] = set()  # finding locations of the last good build
        self.cards: list[dict] = []  # the last good build's cards
        #: full-size image name → the face it shows, of the last good build
        self.full_faces: dict[str, tuple[CardFace, str]] = {}
        self.layout: Layout | None = None
        #: one drawing at a time: a build, or a face asked for full size (ReportLab's
        #: drawing is not shared between threads)
        self.lock = threading.Lock()

    def __call__(self, project: Path, options: BuildOptions, log: Log) -> bool:
        with self.lock:
            return self._build(project, options, log)

    def full(self, name: str) -> Path | None:
        """The full-size image ``name`` (``full/<key>.png``) of a face of the last good
        build, drawn now if it was not yet; None for any other name."""
        with self.lock:
            face = self.full_faces.get(name)
            if face is None or self.layout is None:
                return None
            return self.images.draw_full(face[0], face[1], self.layout)

    def _build(self, project: Path, options: BuildOptions, log: Log) -> bool:
        self.desk.change(building=True)
        start = time.perf_counter()
        try:
            preview = preview_build(project, options)
            drawn = {lang: self.images.draw_cards(preview.faces[lang], preview.keys[lang],
                                                  preview.layout) for lang in preview.faces}
            game = self.images.draw_game(project / "output", options.langs)
            # pruning lists output/serve/ through the wall: a link planted since is refused
            self._publish(project, preview, drawn, game, time.perf_counter() - start, log)
        except CardgenError as exc:
            self._failed(project, exc.findings, time.perf_counter() - start, log)
            return False
        except Exception as exc:  # a crash is shown like a failed build; the loop goes on
            self._failed(project, [error("build-crashed", f"{type(exc).__name__}: {exc}")],
                         time.perf_counter() - start, log)
            return False
        return True

    def _publish(self, project: Path, preview: Preview, drawn: dict[str, list[str]],
                 game: list, seconds: float, log: Log) -> None:
        report = preview.report
        changed = {card_id for lang, keys in preview.keys.items() for card_id, key in keys.items()
                   if self.keys and self.keys.get(lang, {}).get(card_id) != key}
        findings = shown_findings(report.findings, Sources(project))
        errors, warnings = counts(report.findings)
        redrawn = sum(len(ids) for ids in drawn.values())
        build = _summary(True, seconds, errors, warnings, written=len(report.written),
                         unchanged=len(report.skipped), redrawn=redrawn, changed=sorted(changed))
        cards = card_entries(preview, findings, changed, card_changes(project))
        shown = {ImageCache.card_name(key) for keys in preview.keys.values() for key in keys.values()}
        shown |= {page for g in game for page in g.pages}
        full = {ImageCache.full_name(preview.keys[face.lang][face.card_id]):
                (face, preview.keys[face.lang][face.card_id])
                for faces in preview.faces.values() for face in faces}
        shown |= set(full)
        self.images.prune(shown | self.shown)  # the last build's images may still be loading
        self.keys, self.shown, self.openable = preview.keys, shown, openable(findings)
        self.cards, self.full_faces, self.layout = cards, full, preview.layout
        self.desk.change(building=False, build=build, errors=[], cards=cards,
                         game=game_entries(game), notes=[f for f in findings if not f["card"]],
                         openable=self.openable, geometry=geometry(preview.layout))
        for f in report.findings:
            if f.severity is not Severity.INFO:
                log(f.format())
        log(f"built in {seconds:.1f} s: {len(report.written)} written, {len(report.skipped)} "
            f"unchanged, {warnings} warning(s), {redrawn} card image(s) drawn. "
            "Waiting for the next save…")

    def _failed(self, project: Path, findings: list[Finding], seconds: float, log: Log) -> None:
        shown = shown_findings(findings, Sources(project))
        errors, warnings = counts(findings)
        build = _summary(False, seconds, errors, warnings)
        blocking = [f for f in shown if f["severity"] == "error"]
        self.desk.change(building=False, build=build, errors=blocking,
                         cards=with_errors(self.cards, blocking),
                         openable=self.openable | openable(blocking))
        for f in findings:
            log(f.format())
        log(f"build failed: {errors} error(s); the page keeps the last good images. "
            "Waiting for the next save…")


def _summary(ok: bool, seconds: float, errors: int, warnings: int, *, written: int = 0,
             unchanged: int = 0, redrawn: int = 0, changed: list[str] | None = None) -> dict:
    """The last build for the page's status line; ``at`` lets the page time its own update."""
    return {"ok": ok, "finished": datetime.now().strftime("%H:%M:%S"), "at": time.time(),
            "seconds": round(seconds, 2), "errors": errors, "warnings": warnings,
            "written": written, "unchanged": unchanged, "redrawn": redrawn,
            "changed": changed or []}
