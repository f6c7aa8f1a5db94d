"""The workbook's ``about`` sheet: what the colours mean, how to import, and the digest of
the values exported, so an import can tell that card_data/ changed since (a stale file
would write the old values back).

A file may be imported again after more edits: each import records in
output/sheet/imported.json the digest its file was exported with and the digest of the
values it left, and a file whose digest led to today's values is not stale.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..data.model import GameData
from ..errors import CardgenError
from ..files.oserrors import read_input
from ..files.safepath import in_output
from ..files.write import atomic_write
from .table import FIXED, KEY, Cell, Column, Table, coin_text

ABOUT = "about"
DIGEST = "values digest"


def values_digest(sheets: list[Table], changed: Mapping[str, int | tuple[str, ...]] | None = None
                  ) -> str:
    """16 hex digits over every value cell (sheet, id, column, value) of ``sheets``, the
    values at the paths of ``changed`` taken as changed."""
    changed = changed or {}

    def value(cell: Cell) -> Any:
        if cell.path is None or cell.path not in changed:
            return cell.value
        new = changed[cell.path]
        return new if isinstance(new, int) else coin_text(new)

    cells = [[t.name, str(row[0].value), c.name, value(row[i])]
             for t in sheets for row in t.rows for i, c in enumerate(t.columns) if c.writable]
    return hashlib.sha256(json.dumps(cells, ensure_ascii=False).encode()).hexdigest()[:16]


def about_table(data: GameData, sheets: list[Table]) -> Table:
    rows = [
        ("made by", "cardgen sheet export"),
        (DIGEST, values_digest(sheets)),
        ("data version", data.game.data_version),
        ("value cells", "white, or yellow for a prototype value: change them; whole numbers "
         "are checked against card_data/rules/schema.yaml's ranges"),
        ("read-only cells", "grey: names, deck, house, kind and the texts, which come from "
         "the effects (a changed number re-renders them)"),
        ("comments", "the findings of `cardgen check` at the export"),
        ("import", "cardgen sheet import FILE --dry-run, then without --dry-run; rows are "
         "matched by id, so sorting is no edit"),
    ]
    table = Table(ABOUT, [Column("about", KEY), Column("value", FIXED)])
    table.rows = [[Cell(key), Cell(value)] for key, value in rows]
    return table


IMPORTED = "sheet/imported.json"
#: The most digests kept (one a successful import; the oldest go first).
MAX_IMPORTED = 200


def file_stamp(grids: dict[str, list[list[Any]]]) -> tuple[str, int] | None:
    """The values digest an exported workbook carries and its row in ``about``."""
    for r, row in enumerate(grids.get(ABOUT, [])):
        if row and str(row[0]).strip() == DIGEST:
            return (str(row[1]).strip() if len(row) > 1 and row[1] is not None else ""), r
    return None


def imported(project: Path) -> dict[str, str]:
    """Export digest → the values digest its file's last import left (nothing when the
    record is missing or unreadable: then only a fresh export is taken)."""
    path = in_output(project, IMPORTED)
    if not path.is_file():
        return {}
    try:
        doc = json.loads(read_input(path, IMPORTED, limit=1024 * 1024))
    except (CardgenError, ValueError):  # a damaged record only makes older files stale
        return {}
    return {k: v for k, v in doc.items() if isinstance(k, str) and isinstance(v, str)} \
        if isinstance(doc, dict) else {}


def record_import(project: Path, stamp: str, after: str) -> None:
    known = imported(project)
    known.pop(stamp, None)
    known[stamp] = after
    kept = dict(list(known.items())[-MAX_IMPORTED:])
    atomic_write(in_output(project, IMPORTED), json.dumps(kept, indent=1).encode() + b"\n")
