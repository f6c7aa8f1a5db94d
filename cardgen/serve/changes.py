"""Per card, what changed since the last commit: the values and texts of its record in
``card_data/cards/`` now against the same record at git ``HEAD`` (read as
:func:`cardgen.translate.review.git_card_data` reads a revision: stored bytes, no filter or
hook of the repository runs). Outside a git repository, or before the first commit, no
card has changes.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from ..data.yamlsrc import load_yaml_file
from ..errors import CardgenError
from ..translate.review import git_card_data

CARDS = Path("card_data") / "cards"
#: Longer values are told as changed, not quoted (a Deed's text).
SHORT = 40


def card_changes(project: Path) -> dict[str, list[dict[str, str]]]:
    """Card id → its changes since ``HEAD``, each ``{"what", "was", "now"}`` (a new card:
    one change, ``what`` "new card")."""
    with tempfile.TemporaryDirectory(prefix="cardgen-head-") as tmp:
        try:
            git_card_data(project, "HEAD", Path(tmp))
        except CardgenError:
            return {}  # no repository, no commit yet, no git: nothing to compare with
        before = _records(Path(tmp))
        values = _values(Path(tmp), project)
    now = _records(project)
    out: dict[str, list[dict[str, str]]] = {}
    for card_id, record in now.items():
        if card_id not in before:
            out[card_id] = [{"what": "new card", "was": "", "now": ""}]
            continue
        old, new = _flat(before[card_id]), _flat(record)
        diff = [{"what": key, "was": _shown(old.get(key)), "now": _shown(new.get(key))}
                for key in sorted(old.keys() | new.keys()) if old.get(key) != new.get(key)
                and (values is None or not _is_value(old.get(key), new.get(key)))]
        diff = (values or {}).get(card_id, []) + diff
        if diff:
            out[card_id] = diff
    return out


def _values(head: Path, project: Path) -> dict[str, list[dict[str, str]]] | None:
    """Card id → its value changes as `cardgen diff` names them (``political``,
    ``deed.place_influence.amount``); None when either data set does not load (then the
    records' own keys tell the values)."""
    from ..data.load import load
    from ..sheet.diff import value_changes
    try:
        old, _ = load(head)
        new, _ = load(project)
    except CardgenError:
        return None
    out: dict[str, list[dict[str, str]]] = {}
    for change in value_changes(old, new):
        if change.column:
            out.setdefault(change.id, []).append(
                {"what": change.column, "was": _shown(change.old), "now": _shown(change.new)})
    return out


def _is_value(*values: Any) -> bool:
    """A number or a coin list: what :func:`_values` tells (texts and names stay the
    records')."""
    return any(isinstance(v, int | list) for v in values)


def _records(root: Path) -> dict[str, Any]:
    """Every card record under ``root``/card_data/cards by id (a file that does not load is
    left out: the build reports it)."""
    out: dict[str, Any] = {}
    for path in sorted((root / CARDS).glob("*.yaml")):
        try:
            raw = load_yaml_file(path, (CARDS / path.name).as_posix())
        except CardgenError:
            continue
        cards = raw.get("cards") if isinstance(raw, dict) else None
        for record in cards if isinstance(cards, list) else []:
            if isinstance(record, dict) and isinstance(record.get("id"), str):
                out.setdefault(record["id"], record)
    return out


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    """``{"deed.text.cs": "…", "cost": [...]}``: mappings flattened to dotted keys; lists
    of scalars stay whole, a list of mappings (effects) is one value per item."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            out.update(_flat(item, f"{prefix}.{key}" if prefix else str(key)))
        return out
    if isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
        out = {}
        for i, item in enumerate(value, 1):
            out.update(_flat(item, f"{prefix}[{i}]"))
        return out
    return {prefix: value}


def _shown(value: Any) -> str:
    if value is None:
        return "—"
    text = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    return text if len(text) <= SHORT else text[:SHORT - 1] + "…"
