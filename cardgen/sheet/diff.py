"""Values as a change list: every value cell of the sheets that differs between two loads
of the card data (per card and place), and the cards added or removed.

The same tables as the export, so a change is named as its column is
(``charles-iv political 3 → 4``) and placed where today's data writes it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from ..data.model import GameData
from .table import Table, tables


@dataclass(frozen=True)
class Change:
    sheet: str
    id: str
    column: str  # "" for a card or place added or removed
    old: Any
    new: Any
    at: str  # file:line today (or, for a removed row, at the old revision)

    def line(self) -> str:
        if not self.column:
            what = "added" if self.old is None else "removed"
            return f"{self.id} {what} ({self.sheet}, {self.at})"
        return f"{self.id} {self.column} {_shown(self.old)} → {_shown(self.new)} ({self.at})"


def _shown(value: Any) -> str:
    return "(none)" if value in (None, "") else str(value)


def _rows(table: Table) -> dict[str, dict[str, Any]]:
    return {str(row[0].value): {c.name: cell for c, cell in zip(table.columns, row, strict=True)
                                if c.writable} for row in table.rows}


def _where(cells: dict[str, Any]) -> str:
    loc = next((c.loc for c in cells.values() if c.loc is not None), None)
    return f"{loc.file}:{loc.line}" if loc is not None else ""


def value_changes(old: GameData, new: GameData) -> list[Change]:
    """Every changed value, card by card in today's order, then the removed rows."""
    before = {t.name: _rows(t) for t in tables(old)}
    out: list[Change] = []
    for table in tables(new):
        then = before.get(table.name, {})
        for cid, cells in _rows(table).items():
            if cid not in then:
                out.append(Change(table.name, cid, "", None, cid, _where(cells)))
                continue
            for name, cell in cells.items():
                was = then[cid].get(name)
                old_value = was.value if was is not None else None
                if old_value != cell.value and not (old_value in (None, "") and cell.value in (None, "")):
                    loc = cell.loc or (was.loc if was is not None else None)
                    out.append(Change(table.name, cid, name, old_value, cell.value,
                                      f"{loc.file}:{loc.line}" if loc else ""))
        now = {str(row[0].value) for row in table.rows}
        out += [Change(table.name, cid, "", cid, None, _where(cells))
                for cid, cells in then.items() if cid not in now]
    return out


def changes_markdown(changes: list[Change], since: str) -> str:
    lines = [f"# Value changes since {since}", ""]
    if not changes:
        return "\n".join([*lines, "No value changed.", ""])
    for sheet in dict.fromkeys(c.sheet for c in changes):
        lines += [f"## {sheet}", "", *(f"- {c.line()}" for c in changes if c.sheet == sheet), ""]
    return "\n".join(lines)


def changes_json(changes: list[Change], since: str) -> str:
    return json.dumps({"since": since, "changes": [asdict(c) for c in changes]},
                      ensure_ascii=False, indent=2) + "\n"
