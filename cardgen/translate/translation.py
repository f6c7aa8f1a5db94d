"""Every translatable string of the game, and the translation state of its Czech.

A :class:`Unit` is one English string with its Czech (or the place the Czech goes): card
texts (names, lines, Deed names), and the strings printed elsewhere — side names, places
with every case form, shields, currencies and their plural forms, the glossary's nouns
after numbers, component labels, reminder tokens, the player aid, the wording labels of
``text/<lang>.yaml``, the card back and the print-sheet instructions. Its ``context`` is
the PO ``msgctxt``: ``<card id>:<key>`` for card texts, ``<source>:<path>`` otherwise.

The translation state lives in ``card_data/text/cs-state.yaml``, one line per context: a
short hash of the English the Czech was translated from (``source``) and, once reviewed,
of the Czech as reviewed (``reviewed``). A text whose English changed since is *fuzzy*;
one reviewed and unchanged since is *reviewed*. The card files stay free of hashes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..check.lang import CardText, all_texts
from ..data.model import GameData
from ..data.project import Documents, Project
from ..data.yamlsrc import LocList, LocMap
from ..errors import CardgenError, Finding, Location, error

STATE_FILE = Path("card_data") / "text" / "cs-state.yaml"
STATES = ("untranslated", "translated", "fuzzy", "reviewed")
#: Czech plural categories the English (one / other) has no form of.
_PLURAL_FALLBACK = {"few": "other", "many": "other", "zero": "other", "two": "other"}


@dataclass(frozen=True)
class Unit:
    """One translatable string: its English, its Czech and where each is written."""

    context: str
    en: str
    en_loc: Location
    cs: str | None
    cs_loc: Location | None  # the Czech scalar (None while there is no Czech)
    parent: Location | None  # the mapping a missing Czech is added to, under ``cs_key``
    cs_key: str = "cs"
    what: str = "text"
    card_text: CardText | None = None

    @property
    def card(self) -> str | None:
        return self.card_text.card.id if self.card_text else None


def _card_unit(t: CardText) -> Unit:
    cs = t.text.get("cs")
    what = "card name" if t.key == "name" else "Deed name" if t.key.endswith(".name") else "card text"
    return Unit(t.context, t.text.get("en") or "", t.text.at("en"), cs,
                t.text.at("cs") if cs is not None else None, t.text.loc, "cs", what, t)


# --------------------------------------------------------------------------------------
# Strings outside the cards, read with their file:line
# --------------------------------------------------------------------------------------

#: (context prefix, file under the project, subtree or None, what the strings are)
SOURCES: tuple[tuple[str, str, str | None, str], ...] = (
    ("game", "card_data/game.yaml", "sides", "side name"),
    ("places", "card_data/places.yaml", None, "place"),
    ("shields", "card_data/shields.yaml", None, "shield"),
    ("currencies", "card_data/currencies.yaml", None, "currency"),
    ("glossary", "card_data/glossary.yaml", "nouns", "noun after a number"),
    ("components", "card_data/components.yaml", None, "board, token or aid text"),
    ("card-back", "layouts/card.yaml", "back", "card back"),
    ("sheets", "layouts/sheets.yaml", "strings", "print-sheet instructions"),
)

#: Every context prefix that is not a card id.
SOURCE_PREFIXES = frozenset({prefix for prefix, *_ in SOURCES} | {"text"})


def _read(project: Project, rel: str) -> Any:
    documents = project.documents
    return documents.read(rel) if documents.exists(rel) else None


#: What each case or plural key of a table of forms is, for the translator.
FORM_NOTES = {
    "in": "where something is (v Mohuči)", "into": "where something is placed (do Mohuče)",
    "from": "where something is removed from (z Mohuče)",
    "elector": "whose vote, genitive after \"u\" (mohučského kurfiřta)",
    "acc": "what is controlled, accusative (ovládá Lombardii)", "nom": "nominative",
    "one": "after 1 (CLDR one)", "few": "after 2-4 (CLDR few)",
    "many": "after a decimal number (CLDR many)", "other": "after 0 and 5 or more (CLDR other)",
}


def _leaves(node: Any, path: str, what: str) -> Iterator[Unit]:
    """Every ``{en: …, cs: …}`` string pair under ``node`` (and ``{en: {…}, cs: {…}}``
    tables of forms, paired key by key)."""
    if isinstance(node, LocMap):
        en, cs = node.get("en"), node.get("cs")
        if isinstance(en, str):
            if en:
                has = isinstance(cs, str)
                yield Unit(path, en, node.at("en"), cs if has else None,
                           node.at("cs") if has else None, node.loc, "cs", what)
            return
        if isinstance(en, LocMap):
            yield from _pairs(en, cs if isinstance(cs, LocMap) else None, path, what)
            return
        for key, value in node.items():
            yield from _leaves(value, f"{path}.{key}" if path else str(key), what)
    elif isinstance(node, LocList):
        for i, value in enumerate(node):
            yield from _leaves(value, f"{path}[{i}]", what)


def _pairs(en: Any, cs: Any, path: str, what: str, add_missing: bool = False) -> Iterator[Unit]:
    """Two parallel tables (English, Czech) paired by key or index. A Czech key the English
    lacks (a plural category, a case) is paired with the English ``other`` form, or with
    the English table's only form; an English key the Czech table lacks is a form Czech
    does not use (``the``), unless ``add_missing`` (labels: every one needs its Czech)."""
    if isinstance(en, LocList):
        for i, value in enumerate(en):
            other = cs[i] if isinstance(cs, LocList) and i < len(cs) else None
            yield from _pair(value, en.at(i), other, cs.at(i) if other is not None else None,
                             cs.loc if isinstance(cs, LocList) else None, None,
                             f"{path}[{i}]", what)
        return
    if not isinstance(en, LocMap):
        return
    keys = [k for k in en if add_missing or not isinstance(cs, LocMap) or k in cs]
    for key in keys + [k for k in (cs or {}) if k not in en]:
        en_key = key if key in en else _PLURAL_FALLBACK.get(str(key))
        if en_key not in en and len(en) == 1:
            en_key = next(iter(en))
        if en_key not in en:
            continue
        has = isinstance(cs, LocMap) and key in cs
        yield from _pair(en[en_key], en.at(en_key), cs[key] if has else None,
                         cs.at(key) if has else None, cs.loc if isinstance(cs, LocMap) else None,
                         str(key), f"{path}.{key}", what)


def _pair(en: Any, en_loc: Location, cs: Any, cs_loc: Location | None, parent: Location | None,
          key: str | None, path: str, what: str) -> Iterator[Unit]:
    if isinstance(en, (LocMap, LocList)):
        yield from _pairs(en, cs, path, what)
    elif isinstance(en, str) and en:
        has = isinstance(cs, str)
        yield Unit(path, en, en_loc, cs if has else None, cs_loc if has else None,
                   parent if key is not None else None, key or "cs", what)


def other_units(project: Project) -> Iterator[Unit]:
    """The translatable strings outside the cards, in file order."""
    for prefix, rel, subtree, what in SOURCES:
        doc = _read(project, rel)
        if subtree is not None:
            doc = doc.get(subtree) if isinstance(doc, LocMap) else None
        for unit in _leaves(doc, subtree or "", what):
            yield _prefixed(unit, prefix)
    en, cs = _read(project, "card_data/text/en.yaml"), _read(project, "card_data/text/cs.yaml")
    if isinstance(en, LocMap) and isinstance(cs, LocMap):
        for unit in _pairs(en.get("labels"), cs.get("labels"), "labels", "wording label", True):
            yield _prefixed(unit, "text")


def _prefixed(unit: Unit, prefix: str) -> Unit:
    return Unit(f"{prefix}:{unit.context}", unit.en, unit.en_loc, unit.cs, unit.cs_loc,
                unit.parent, unit.cs_key, unit.what)


def all_units(data: GameData, project: Project) -> list[Unit]:
    """Every translatable string: the cards' texts, then everything else."""
    return [_card_unit(t) for t in all_texts(data) if t.text.get("en")] + list(other_units(project))


# --------------------------------------------------------------------------------------
# Translation state
# --------------------------------------------------------------------------------------


def text_hash(text: str) -> str:
    """The short hash the state file records of a text (8 hex digits of SHA-256)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


@dataclass(frozen=True)
class Record:
    source: str | None = None  # hash of the English the Czech translates
    reviewed: str | None = None  # hash of the Czech as reviewed


def read_state(documents: Documents) -> dict[str, Record]:
    """card_data/text/cs-state.yaml (absent: no state recorded yet)."""
    if not documents.exists(str(STATE_FILE)):
        return {}
    doc = documents.read(str(STATE_FILE))
    if doc is None:
        return {}
    if not isinstance(doc, LocMap):
        raise CardgenError(error("shape", "the translation state must be a mapping",
                                 location=Location(str(STATE_FILE)),
                                 hint="'<context>': {source: <hash>, reviewed: <hash>}"))
    out = {}
    for key, value in doc.items():
        if not isinstance(value, LocMap) or not set(value) <= {"source", "reviewed"}:
            raise CardgenError(error("shape", f"'{key}' must be {{source: …, reviewed: …}}",
                                     location=doc.at(key)))
        out[str(key)] = Record(*(str(value[k]) if value.get(k) is not None else None
                                 for k in ("source", "reviewed")))
    return out


def state_bytes(state: dict[str, Record]) -> bytes:
    lines = ["# Translation state of the Czech texts, written by `cardgen po import`",
             "# (card_data/README.md, \"Translation state\"): per PO context, the hash of the",
             "# English the Czech was translated from, and of the Czech as reviewed.",
             "# Generated; do not edit by hand."]
    for key in sorted(state):
        rec = state[key]
        parts = [f'source: "{rec.source}"'] if rec.source else []
        if rec.reviewed:
            parts.append(f'reviewed: "{rec.reviewed}"')
        lines.append(f"{json.dumps(key, ensure_ascii=False)}: {{{', '.join(parts)}}}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def translation_state(unit: Unit, state: dict[str, Record]) -> str:
    """``untranslated``, ``fuzzy`` (the English changed since the Czech was translated),
    ``reviewed`` (reviewed, and neither text changed since) or ``translated``."""
    if not unit.cs:
        return "untranslated"
    rec = state.get(unit.context)
    if rec is None:
        return "translated"
    if rec.source and rec.source != text_hash(unit.en):
        return "fuzzy"
    if rec.reviewed and rec.reviewed == text_hash(unit.cs):
        return "reviewed"
    return "translated"


def text_states(data: GameData, project: Project) -> dict[str, str]:
    """PO context -> state of every translatable string (for the proof and serve views;
    a card text's context is ``CardText.context``, ``<card id>:<key>``)."""
    state = read_state(project.documents)
    return {u.context: translation_state(u, state) for u in all_units(data, project)}


def state_summary(data: GameData, project: Project) -> tuple[list[Finding], list[str]]:
    """For ``cardgen check``: the state counts, then one line per fuzzy text with its
    file:line (a state, not a problem: no finding); a broken state file is an error."""
    try:
        state = read_state(project.documents)
    except CardgenError as exc:
        return exc.findings, []
    units = all_units(data, project)
    counts = dict.fromkeys(STATES, 0)
    fuzzy = []
    for unit in units:
        st = translation_state(unit, state)
        counts[st] += 1
        if st == "fuzzy":
            fuzzy.append(f"  fuzzy: {unit.cs_loc}: {unit.context}: the English changed since "
                         "this Czech was translated")
    head = ("translation (cs): " + ", ".join(f"{counts[s]} {s}" for s in STATES)
            + f" of {len(units)} texts")
    return [], [head, *fuzzy]
