"""The component texts as printed: ``card_data/components.yaml`` (token quantities,
reminder kinds, labels, the player aid) loaded, checked for both languages and given each
language's typography.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..data.model import LANGS, GameData
from ..data.project import Project
from ..data.shape import check_shape
from ..data.sidefiles import Source, bilingual_findings, read_source, shape_of, walk_bilingual
from ..errors import CardgenError, Finding, error, has_errors
from .language import fix_text


@dataclass
class Components:
    """card_data/components.yaml: token quantities, reminder kinds, labels, aid text."""

    source: Source
    tokens: dict[str, Any]
    labels: dict[str, dict[str, str]]
    aid: dict[str, Any]

    def label(self, key: str, lang: str) -> str:
        try:
            return self.labels[key][lang]
        except (KeyError, TypeError):
            raise CardgenError(error(
                "missing-label", f"card_data/components.yaml has no label '{key}' in {lang}",
                location=self.source.at("labels"), lang=lang,
                hint=f"add '{key}: {{en: …, cs: …}}' under labels:")) from None


def load_components(project: Project) -> tuple[Components | None, list[Finding]]:
    """card_data/components.yaml, checked and typeset (made once per project)."""
    return project.derived("components", lambda: _components(project))


def _components(project: Project) -> tuple[Components | None, list[Finding]]:
    findings: list[Finding] = []
    src = read_source(project.documents, "card_data/components.yaml", findings)
    if src is None:
        return None, findings
    findings += check_shape(src.raw, shape_of("components"), src.raw.loc, "components")
    if has_errors(findings):
        return None, findings
    labels_raw = src.raw["labels"]
    for key, value in labels_raw.items():
        findings += bilingual_findings(value, labels_raw.at(key), f"label '{key}'")
    findings += walk_bilingual(src.raw["aid"], src.at("aid"), "aid")
    for i, rem in enumerate(src.data["tokens"].get("reminders") or []):
        where = src.raw["tokens"]["reminders"].at(i)
        for part in ("text", "note"):
            findings += bilingual_findings(rem.get(part), where, f"reminder {i + 1} {part}")
    tokens, labels, aid = (typeset(src.data[k]) for k in ("tokens", "labels", "aid"))
    return Components(src, tokens, labels, aid), findings


def typeset(node: Any) -> Any:
    """``node`` with every {en, cs} text given its language's typography, as card text is
    (Czech: a non-breaking space after "v", "k", "a" … so no line ends with one)."""
    if isinstance(node, dict):
        return {k: fix_text(v, k) if k in LANGS and isinstance(v, str) else typeset(v)
                for k, v in node.items()}
    if isinstance(node, list):
        return [typeset(v) for v in node]
    return node




#: The two houses, in the order token sheets print their markers.
SIDES = ("luxembourg", "wittelsbach")


@dataclass(frozen=True)
class TokenEntry:
    """One physical token of the game (2.1): what it is, whose or which, and its value."""

    kind: str  # shield | round | loyalty | card_play | vote | influence | military | currency | reminder
    key: str  # shield id, side, currency id or reminder id
    value: int | None = None


def token_inventory(data: GameData, comp: Components) -> list[TokenEntry]:
    """Every token of the game, in sheet order, with quantities from components.yaml: the
    inventory the token sheets print, the tables count and the online table places."""
    q = comp.tokens
    out: list[TokenEntry] = []
    for sid in data.shields:
        out += [TokenEntry("shield", sid)] * int(q.get("shield_markers", 1))
    out += [TokenEntry("round", "round")] * int(q.get("round_marker", 1))
    out += [TokenEntry("loyalty", "john")] * int(q.get("loyalty_marker", 1))
    out += [TokenEntry("card_play", "play")] * int(q.get("card_play_marker", 1))
    for rem in q.get("reminders") or []:
        out += [TokenEntry("reminder", rem["id"])] * int(rem.get("count", 1))
    for side in SIDES:
        out += [TokenEntry("vote", side)] * int(q.get("vote_markers", 0))
    for kind in ("influence", "military"):
        for side in SIDES:
            for value, count in sorted((q.get(kind) or {}).items()):
                out += [TokenEntry(kind, side, int(value))] * int(count)
    for cid in data.currencies:
        if cid == "any":
            continue
        for value, count in sorted((q.get("currency") or {}).items()):
            out += [TokenEntry("currency", cid, int(value))] * int(count)
    return out
