"""The board-side YAML files (``layouts/board.yaml``, ``tokens.yaml``, ``aid.yaml``,
``vtt.yaml`` and ``card_data/components.yaml``): read with their locations and checked
against their shapes (``shapes.yaml`` beside this file, see :mod:`cardgen.data.shape`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from ..errors import Finding, Location, error
from .fields import control_findings
from .model import LANGS
from .project import Documents
from .yamlsrc import LocList, LocMap


def plain(value: Any) -> Any:
    """LocMap/LocList → plain dict/list (locations dropped)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


@cache
def _shapes() -> dict[str, Any]:
    with (Path(__file__).with_name("shapes.yaml")).open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def shape_of(name: str) -> Any:
    """The shape spec of a board-side file (``board``, ``tokens``, ``aid``, ``components``)."""
    return _shapes()[name]


@dataclass
class Source:
    """A loaded YAML file: its plain data and its located form, for findings."""

    path: Path
    raw: LocMap
    data: dict[str, Any]

    def at(self, *keys: str) -> Location:
        node: Any = self.raw
        loc = self.raw.loc
        for key in keys:
            if isinstance(node, LocMap) and key in node:
                loc = node.at(key)
                node = node[key]
            else:
                break
        return loc


def read_source(documents: Documents, rel: str, findings: list[Finding]) -> Source | None:
    """``rel`` of the project as a :class:`Source`, or None with why added to ``findings``."""
    raw = documents.mapping(rel, findings)
    return None if raw is None else Source(documents.root / rel, raw, plain(raw))


def bilingual_findings(value: Any, where: Location, what: str) -> list[Finding]:
    if not isinstance(value, dict):
        return [error("shape", f"{what} must be a mapping {{en: …, cs: …}}", location=where)]
    out = [control for lang in LANGS if isinstance(value.get(lang), str)
           for control in control_findings(value[lang], value.at(lang) if isinstance(
               value, LocMap) else where, what, lang)]
    return out + [error("missing-translation", f"{what} has no '{lang}' text", location=where,
                        lang=lang, hint=f"add '{lang}: …'")
                  for lang in LANGS if not isinstance(value.get(lang), str) or not value.get(lang)]


def walk_bilingual(node: Any, where: Location, path: str) -> list[Finding]:
    """Every {en, cs} leaf under the aid table must have both languages."""
    out: list[Finding] = []
    if isinstance(node, LocMap):
        if set(node) & set(LANGS) or not node:
            return bilingual_findings(node, where, path)
        for key, value in node.items():
            out += walk_bilingual(value, node.at(key), f"{path}.{key}")
    elif isinstance(node, LocList):
        for i, value in enumerate(node):
            out += walk_bilingual(value, node.at(i), f"{path}[{i}]")
    return out


