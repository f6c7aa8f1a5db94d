"""Shared by the commands: the card layout's place, and findings kept as JSON."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import Finding, Location, Severity
from ..files.incremental import BuildState, code_digest, digest, tree_digest
from ..files.safepath import output_path
from ..files.write import StagedFiles

if TYPE_CHECKING:
    from .outputs import Target



Log = Callable[[str], None]


def finding_from_json(raw: dict) -> Finding:
    """The inverse of :meth:`Finding.to_json` (for cached findings)."""
    loc = Location(raw["file"], raw.get("line") or 0, raw.get("column") or 0) if raw.get("file") else None
    return Finding(Severity(raw["severity"]), raw["code"], raw["message"], loc, raw.get("card"),
                   raw.get("lang"), raw.get("rule"), raw.get("hint"), dict(raw.get("extra") or {}))


def read_findings(payload: object) -> list[Finding] | None:
    if not isinstance(payload, list):
        return None
    try:
        return [finding_from_json(f) for f in payload]
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def project_keys(project: Path) -> tuple[str, str]:
    """(card key, base key): what cards and the shared components use."""
    code = code_digest()
    fonts = tree_digest((project / "fonts").glob("*.ttf"), project)
    layouts = tree_digest((project / "layouts").glob("*.yaml"), project)
    card_key = digest(code, fonts, layouts)
    data_dir = project / "card_data"
    shared = [p for p in data_dir.rglob("*.yaml") if "cards" not in p.relative_to(data_dir).parts]
    base_key = digest(card_key, tree_digest(shared, project))
    return card_key, base_key


def stage(staged: StagedFiles, output: Path, target: Target, data: bytes,
          state: BuildState) -> None:
    """Stage a made target's file in ``output`` and record it in the build state."""
    staged.add(output_path(output, target.rel, own=False), data)
    state.record(target.rel, target.key, data)
