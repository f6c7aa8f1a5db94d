"""What the online table holds: ``layouts/vtt.yaml`` read and checked, the setup piles of
rule 3 with their cards, and the deck sheets those cards are drawn on.

A pile is one separate deck of the setup (the Luxembourg starter deck, the set-aside
Luxembourg John, the market cards …); a sheet is one Tabletop Simulator deck image, shared
by the piles that name it. A sheet holds each face once (a Retinue's four copies share one
cell) and keeps its last cell for the hidden-card image.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..data.model import GameData
from ..data.project import Project
from ..data.shape import check_shape
from ..data.sidefiles import Source, bilingual_findings, read_source, shape_of
from ..errors import CardgenError, Finding, error
from ..wording.face import CardFace

MAX_COLS, MAX_ROWS = 10, 7  # Tabletop Simulator's largest deck sheet


@dataclass(frozen=True)
class VttConfig:
    source: Source

    @property
    def data(self) -> dict[str, Any]:
        return self.source.data

    @property
    def cell(self) -> tuple[int, int]:
        w, h = self.data["card"]["pixels"]
        return int(w), int(h)


@dataclass(frozen=True)
class Pile:
    id: str
    sheet: str
    name: str
    note: str
    cards: tuple[CardFace, ...]  # each physical card, copies repeated
    at: tuple[float, float]
    rotate: float = 0.0


@dataclass(frozen=True)
class Sheet:
    """One deck-sheet image: ``faces`` in reading order, the hidden image in the last cell."""

    name: str  # file stem
    deck_id: int  # Tabletop Simulator's CustomDeck number
    faces: tuple[CardFace, ...]
    cols: int
    rows: int

    def card_id(self, face: CardFace) -> int:
        """Tabletop Simulator's CardID: deck × 100 + the cell's index."""
        return self.deck_id * 100 + [f.card_id for f in self.faces].index(face.card_id)


def load_config(project: Project) -> VttConfig:
    """``layouts/vtt.yaml`` with its shape and every name and note in both languages checked
    (made once per project)."""
    return project.derived("vtt", lambda: _config(project))


def _config(project: Project) -> VttConfig:
    findings: list[Finding] = []
    src = read_source(project.documents, "layouts/vtt.yaml", findings)
    if src is not None:
        findings += check_shape(src.raw, shape_of("vtt"), src.raw.loc, "vtt")
    if src is None or findings:
        raise CardgenError(findings)
    for pile in src.raw["piles"]:
        for key in ("name", "note"):
            if key in pile:
                findings += bilingual_findings(pile[key], pile.at(key), f"pile '{pile['id']}' {key}")
    for kind, marker in src.raw["markers"].items():
        findings += bilingual_findings(marker["note"], marker.at("note"), f"marker '{kind}' note")
    if findings:
        raise CardgenError(findings)
    return VttConfig(src)


def _selected(spec: dict[str, Any], faces: Sequence[CardFace], data: GameData) -> list[CardFace]:
    deck = {c.id: c.deck for c in data.cards}
    out = []
    for face in faces:
        if "deck" in spec and deck.get(face.card_id) != spec["deck"]:
            continue
        if "kinds" in spec and face.kind not in spec["kinds"]:
            continue
        if "ids" in spec and face.card_id not in spec["ids"]:
            continue
        if face.card_id in spec.get("except", ()):
            continue
        out.append(face)
    return out


def plan_piles(config: VttConfig, faces: Sequence[CardFace], data: GameData) -> list[Pile]:
    """The setup piles of rule 3 in the build's language; every physical card in exactly one.

    A pile with no ``name`` of its own (a single card set aside) takes its card's name.
    """
    src, lang = config.source, faces[0].lang if faces else "en"
    known = {f.card_id for f in faces}
    findings: list[Finding] = []
    owner: dict[str, str] = {}
    piles: list[Pile] = []
    for i, spec in enumerate(config.data["piles"]):
        where = src.raw["piles"].at(i)
        for key in ("ids", "except"):
            for cid in spec.get(key, ()):
                if cid not in known:
                    findings.append(error("vtt-pile", f"pile '{spec['id']}' names unknown card "
                                          f"'{cid}'", location=where,
                                          hint="use a card id from card_data/cards/"))
        chosen = _selected(spec, faces, data)
        if not chosen:
            findings.append(error("vtt-pile", f"pile '{spec['id']}' has no cards", location=where,
                                  hint="check its deck, kinds and ids"))
        for face in chosen:
            if face.card_id in owner:
                findings.append(error("vtt-pile", f"card '{face.card_id}' is in two piles: "
                                      f"'{owner[face.card_id]}' and '{spec['id']}'",
                                      location=where, card=face.card_id, rule="3.3",
                                      hint="every card starts in one pile; narrow one of them "
                                      "with 'except:'"))
            owner[face.card_id] = spec["id"]
        name = spec["name"][lang] if "name" in spec else (chosen[0].name if chosen else spec["id"])
        cards = tuple(f for f in chosen for _ in range(f.copies))
        piles.append(Pile(spec["id"], spec["sheet"], name, spec["note"][lang], cards,
                          tuple(spec["at"]), float(spec.get("rotate", 0))))
    for face in faces:
        if face.card_id not in owner:
            findings.append(error("vtt-pile", f"card '{face.card_id}' is in no pile of the table",
                                  location=src.at("piles"), card=face.card_id, rule="3.3",
                                  hint="add it to a pile's ids, deck or kinds"))
    if findings:
        raise CardgenError(findings)
    return piles


def grid(count: int) -> tuple[int, int]:
    """Columns and rows for ``count`` faces plus the hidden-card cell (at most 10 × 7)."""
    slots = count + 1
    cols = min(MAX_COLS, slots)
    return cols, math.ceil(slots / cols)


def plan_sheets(piles: Sequence[Pile]) -> list[Sheet]:
    """One sheet set per ``sheet`` name, in pile order; more than 69 faces continue on a
    second sheet (``<name>-2``). Deck numbers count from 1 in this order."""
    faces_by_sheet: dict[str, list[CardFace]] = {}
    for pile in piles:
        seen = faces_by_sheet.setdefault(pile.sheet, [])
        for face in pile.cards:
            if all(f.card_id != face.card_id for f in seen):
                seen.append(face)
    per_sheet = MAX_COLS * MAX_ROWS - 1
    out: list[Sheet] = []
    for name, faces in faces_by_sheet.items():
        for part in range(math.ceil(len(faces) / per_sheet)):
            chunk = tuple(faces[part * per_sheet:(part + 1) * per_sheet])
            cols, rows = grid(len(chunk))
            stem = name if part == 0 else f"{name}-{part + 1}"
            out.append(Sheet(stem, len(out) + 1, chunk, cols, rows))
    return out


def sheet_of(sheets: Sequence[Sheet], face: CardFace) -> Sheet:
    return next(s for s in sheets if any(f.card_id == face.card_id for f in s.faces))
