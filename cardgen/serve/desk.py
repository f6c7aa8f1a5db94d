"""What the preview page shows, shared by the build thread (which writes it after every
build) and the request threads (which read it): the cards with their images and findings,
the board, tokens and aid, the last build's summary, and a failed build's errors.

Every change bumps :attr:`Desk.version` and wakes the event streams waiting for it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from ..build.preview import Preview
from ..data.layout import Layout, Rect
from ..data.model import Card
from ..errors import Finding, Severity
from .images import FULL_DPI, GameImages, ImageCache

#: Route under which images of the serve folder are served.
IMAGE_ROUTE = "/img/"


@dataclass
class Desk:
    project: Path
    editor: bool = False
    version: int = 0
    building: bool = False
    cards: list[dict] = field(default_factory=list)
    game: list[dict] = field(default_factory=list)
    build: dict | None = None
    #: errors of the last build when it failed (the cards keep the last good images)
    errors: list[dict] = field(default_factory=list)
    #: warnings of the last good build that belong to no card
    notes: list[dict] = field(default_factory=list)
    #: (file, line) of every finding shown: the only places the editor may be asked to open
    openable: set[tuple[str, int]] = field(default_factory=set)
    #: the card's regions in mm for the overlay (:func:`geometry`)
    geometry: dict | None = None
    _cond: threading.Condition = field(default_factory=threading.Condition, repr=False)

    def change(self, **values: object) -> None:
        with self._cond:
            for name, value in values.items():
                setattr(self, name, value)
            self.version += 1
            self._cond.notify_all()

    def wait(self, seen: int, timeout: float) -> int:
        """The version, once it differs from ``seen`` (or after ``timeout`` seconds)."""
        with self._cond:
            self._cond.wait_for(lambda: self.version != seen, timeout)
            return self.version

    def may_open(self, file: str, line: int) -> bool:
        with self._cond:
            return (file, line) in self.openable

    def snapshot(self) -> dict:
        with self._cond:
            return {"version": self.version, "building": self.building, "editor": self.editor,
                    "build": self.build, "errors": self.errors, "notes": self.notes,
                    "cards": self.cards, "game": self.game, "geometry": self.geometry}


def image_url(name: str) -> str:
    return IMAGE_ROUTE + name


def card_entries(preview: Preview, findings: list[dict], changed: set[str],
                 since_commit: dict[str, list[dict[str, str]]] | None = None) -> list[dict]:
    """One entry per card, starter decks before the market, each in card number order, with
    both faces' images, its findings and what changed in its record since the last commit
    (:func:`cardgen.serve.changes.card_changes`)."""
    faces = {lang: {f.card_id: f for f in preview.faces[lang]} for lang in preview.faces}
    out = []
    for card in sorted(preview.data.cards, key=lambda c: (c.deck == "market", c.deck, c.number)):
        shown = {lang: faces[lang][card.id] for lang in faces if card.id in faces[lang]}
        out.append({
            "id": card.id, "number": card.number, "deck": card.deck, "kind": card.kind,
            "side": card.side or "neutral", "copies": card.copies, "where": str(card.loc),
            "file": card.loc.file, "line": card.loc.line,
            "deck_title": _deck_title(card, next(iter(shown.values())).deck_label if shown else ""),
            "names": {lang: face.name for lang, face in shown.items()},
            "text": "\n".join(_face_text(face) for face in shown.values()),
            "images": {lang: image_url(ImageCache.card_name(preview.keys[lang][card.id]))
                       for lang in shown},
            "full": {lang: image_url(ImageCache.full_name(preview.keys[lang][card.id]))
                     for lang in shown},
            "findings": [f for f in findings if f["card"] == card.id],
            "errors": [],
            "changed": card.id in changed,
            "since_commit": (since_commit or {}).get(card.id, []),
        })
    return out


def with_errors(cards: list[dict], errors: list[dict]) -> list[dict]:
    """The last good build's cards, each with the errors of a failed build that belong to
    it: those naming it, and those at a line of its record (a YAML syntax error inside it)."""
    starts: dict[str, list[tuple[int, str]]] = {}
    for card in cards:
        starts.setdefault(card["file"], []).append((card["line"], card["id"]))
    for lines in starts.values():
        lines.sort()
    mine: dict[str, list[dict]] = {}
    for f in errors:
        owner = f["card"] or _card_at(starts.get(f["file"] or "", []), f["line"] or 0)
        if owner:
            mine.setdefault(owner, []).append(f)
    return [{**card, "errors": mine.get(card["id"], [])} for card in cards]


def _card_at(starts: list[tuple[int, str]], line: int) -> str | None:
    """The card whose record holds ``line``: the last one starting at or before it."""
    owner = None
    for first, card_id in starts:
        if first > line:
            break
        owner = card_id
    return owner


def geometry(layout: Layout) -> dict:
    """The card's regions in mm from the top left of the page with bleed, for the page's
    overlay: the trim, the safe area (``card.safe``), the frame (``card.frame``), the art
    box, the name bar and the text panel over it, and the art's visible window between
    them (``art.window``, else what no panel covers)."""
    c, b = layout.card, layout.card.bleed

    def box(x: float, y: float, w: float, h: float) -> list[float]:
        return [round(x + b, 3), round(y + b, 3), round(w, 3), round(h, 3)]

    art, bar, panel = layout.art_box, layout.name_bar.box, layout.text_box.panel
    top, bottom = max(art.y, bar.bottom), min(art.bottom, panel.y)
    window = layout.art.window or Rect(art.x, top, art.w, max(bottom - top, 0.0))
    return {"page": [c.width + 2 * b, c.height + 2 * b], "trim": box(0, 0, c.width, c.height),
            "safe": box(c.safe, c.safe, c.width - 2 * c.safe, c.height - 2 * c.safe),
            "frame": box(c.frame, c.frame, c.width - 2 * c.frame, c.height - 2 * c.frame),
            "art": box(art.x, art.y, art.w, art.h),
            "name_bar": box(bar.x, bar.y, bar.w, bar.h),
            "text_panel": box(panel.x, panel.y, panel.w, panel.h),
            "window": box(window.x, window.y, window.w, window.h),
            "dpi": FULL_DPI}


def _deck_title(card: Card, label: str) -> str:
    return card.deck.title() if card.deck == "market" else f"{card.deck.title()} · {label}"


def _face_text(face) -> str:
    parts = [face.name, face.kind_label or ""]
    for line in face.lines:
        parts += [line.title or "", line.text]
    return " ".join(p for p in parts if p)


def game_entries(game: list[GameImages]) -> list[dict]:
    return [{"lang": g.lang, "label": g.label, "images": [image_url(p) for p in g.pages]}
            for g in game]


class Sources:
    """Lines of the project's files, read once per build, for showing a finding's line."""

    def __init__(self, project: Path):
        self.project = project.resolve()
        self._lines: dict[str, list[str]] = {}

    def path(self, file: str) -> Path | None:
        """The file inside card_data/ (the only files a finding may open), else None."""
        path = (self.project / file).resolve()
        return path if (self.project / "card_data") in path.parents and path.is_file() else None

    def line(self, file: str, number: int) -> str | None:
        path = self.path(file)
        if path is None or number < 1:
            return None
        if file not in self._lines:
            try:
                self._lines[file] = path.read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                self._lines[file] = []
        lines = self._lines[file]
        return lines[number - 1] if number <= len(lines) else None

    def finding(self, f: Finding) -> dict:
        """A finding for the page: its JSON, where it is as text and the line it points at."""
        loc = f.location
        out = f.to_json()
        out["where"] = str(loc) if loc else ""
        out["source"] = self.line(loc.file, loc.line) if loc else None
        out["openable"] = bool(loc and loc.line and self.path(loc.file))
        return out


def shown_findings(findings: list[Finding], sources: Sources) -> list[dict]:
    """Errors and warnings for the page (infos such as art resolution stay in the terminal)."""
    return [sources.finding(f) for f in findings if f.severity is not Severity.INFO]


def openable(findings: list[dict]) -> set[tuple[str, int]]:
    return {(f["file"], f["line"]) for f in findings if f["openable"]}
