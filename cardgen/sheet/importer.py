"""Reading a spreadsheet back: the changed cells as value changes, strictly.

Rows are matched by id, columns by header, so rows may be sorted and columns moved. Every
other difference from the export is an error at its ``sheet!cell``: an unknown or missing
column, an id that is no card of the sheet (a renamed id, an added row), a missing row, a
value that is no whole number (or no coins), outside its range or where the file writes
none, and any edit of a read-only cell. Errors are gathered over the whole file; with any,
nothing is written.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

from ..data.model import GameData
from ..errors import CardgenError, Finding, Location, error
from ..files.oserrors import read_input
from ..translate.values import ValueChange
from .about import ABOUT, file_stamp, values_digest
from .csvfile import read_csv
from .table import COINS, FIXED, NUMBER, PLACES, Cell, Column, Table, cell_name, coin_text, tables

#: The largest spreadsheet read (the shipped data exports to about 26 kB, a 20× deck 240 kB),
#: and the most its package may unpack to or hold (a ZIP bomb is refused before it is read).
MAX_FILE = 32 * 1024 * 1024
MAX_UNPACKED = 256 * 1024 * 1024
MAX_MEMBERS = 1000
WHOLE = re.compile(r"[+-]?\d+")
SHEET_HINT = "export again with `cardgen sheet export`, then change only value cells"


def read_grids(path: Path) -> dict[str, list[list[Any]]]:
    """The sheets of an ODS, XLSX or CSV file, each as rows of cell values."""
    suffix = path.suffix.lower()
    name = path.name
    raw = read_input(path, name, limit=MAX_FILE)
    if suffix == ".csv":
        return read_csv(path, raw)
    if suffix not in (".ods", ".xlsx"):
        raise CardgenError(error("sheet-file", f"{name} is no .ods, .xlsx or .csv file",
                                 location=Location(name), hint="import the exported file"))
    try:
        _package_walls(path)
        if suffix == ".ods":
            from .ods import read_ods
            return read_ods(path)
        from .xlsx import read_xlsx
        return read_xlsx(path)
    except (zipfile.BadZipFile, KeyError, ValueError, SyntaxError, OSError) as exc:
        raise CardgenError(error("sheet-file", f"{name} cannot be read as {suffix[1:]}: {exc}",
                                 location=Location(name), hint="save it again from the office "
                                 "suite in that format")) from None


def _package_walls(path: Path) -> None:
    """A ZIP package that unpacks to more than :data:`MAX_UNPACKED` bytes or holds more than
    :data:`MAX_MEMBERS` files is refused (ValueError) before any member is read."""
    with zipfile.ZipFile(path) as package:
        members = package.infolist()
    if len(members) > MAX_MEMBERS:
        raise ValueError(f"the package holds {len(members)} files, more than {MAX_MEMBERS}")
    unpacked = sum(m.file_size for m in members)
    if unpacked > MAX_UNPACKED:
        raise ValueError(f"the package unpacks to {unpacked} bytes, more than {MAX_UNPACKED}")


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _text(value: Any) -> str:
    """A cell's value as text (the form read-only cells are compared in)."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).replace("\r\n", "\n")


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    text = str(value).strip()
    return int(text) if WHOLE.fullmatch(text) else None


class _Sheet:
    """One read sheet against its exported table."""

    def __init__(self, table: Table, grid: list[list[Any]], data: GameData,
                 problems: list[Finding], changes: list[ValueChange]) -> None:
        self.table, self.data, self.problems, self.changes = table, data, problems, changes
        self.grid = grid

    def at(self, row: int, col: int) -> Location:
        return Location(f"{self.table.name}!{cell_name(row, col)}")

    def problem(self, code: str, message: str, row: int, col: int, hint: str,
                card: str | None = None) -> None:
        self.problems.append(error(code, message, location=self.at(row, col), card=card,
                                   hint=hint))

    def header(self) -> dict[str, int] | None:
        """Column name → the file's column; None (with the problems) when it is not the
        exported header."""
        names = [_text(v).strip() for v in (self.grid[0] if self.grid else [])]
        while names and not names[-1]:
            names.pop()
        known = {c.name for c in self.table.columns}
        where: dict[str, int] = {}
        bad = False
        for col, name in enumerate(names):
            if name not in known or name in where:
                what = "twice" if name in where else "unknown"
                self.problem("sheet-column", f"column '{name}' is {what}" if name else
                             "a column without a name", 0, col,
                             "a sheet has the exported columns, each once; " + SHEET_HINT)
                bad = True
            else:
                where[name] = col
        missing = [c.name for c in self.table.columns if c.name not in where]
        if missing:
            shown = ", ".join(f"'{n}'" for n in missing[:5]) + (
                f" and {len(missing) - 5} more" if len(missing) > 5 else "")
            self.problem("sheet-column", f"column{'s' if len(missing) > 1 else ''} {shown} "
                         f"{'are' if len(missing) > 1 else 'is'} missing", 0, len(names),
                         "columns cannot be deleted; " + SHEET_HINT)
            bad = True
        return None if bad else where

    def compare(self) -> None:
        where = self.header()
        if where is None:
            return
        id_col = where["id"]
        rows = {str(r[0].value): (i, r) for i, r in enumerate(self.table.rows)}
        seen: dict[str, int] = {}
        unknown: list[tuple[int, str]] = []
        for r, values in enumerate(self.grid[1:], start=1):
            if all(_blank(v) for v in values):
                continue
            got = _text(values[id_col] if id_col < len(values) else None).strip()
            if got in seen:
                self.problem("sheet-id", f"id '{got}' has a second row (first in row "
                             f"{seen[got] + 1})", r, id_col, "each card has one row; " + SHEET_HINT)
            elif got in rows:
                seen[got] = r
                self.row(rows[got][1], values, r, where)
            else:
                unknown.append((r, got))
        missing = [i for cid, (i, _) in rows.items() if cid not in seen]
        what = "place" if self.table.name == PLACES else f"{self.table.name} card"
        for r, got in unknown:
            if missing:
                old = self.table.rows[missing[0]][0].value
                self.problem("sheet-id", f"'{got}' is no id of a {what} "
                             f"(was it '{old}'?): an id cannot be renamed in the sheet", r, id_col,
                             f"rename it in card_data/ (and in every card naming it); {SHEET_HINT}")
            else:
                self.problem("sheet-row", f"a row for '{got or '(no id)'}' was added: a {what} "
                             "cannot be added from the sheet yet", r, id_col,
                             "add the card to card_data/cards/ (`cardgen check` says what it "
                             "needs), then export again")
        if not unknown:
            for i in missing:
                self.problem("sheet-row", f"the row of '{self.table.rows[i][0].value}' was "
                             f"deleted: a {what} cannot be removed from the sheet", i + 1, id_col,
                             "remove it from card_data/, or put its row back")

    def row(self, cells: list[Cell], values: list[Any], r: int, where: dict[str, int]) -> None:
        card = str(cells[0].value)
        for column, cell in zip(self.table.columns, cells, strict=True):
            col = where[column.name]
            got = values[col] if col < len(values) else None
            if column.kind == FIXED:
                if _text(got) != _text(cell.value):
                    self.problem("sheet-readonly", f"{column.name} of '{card}' is read-only "
                                 f"(was \"{_text(cell.value)}\")", r, col,
                                 "texts come from the effects and names from card_data/: edit "
                                 "them there; in the sheet change only value cells", card)
            elif column.kind == NUMBER:
                self.number(column, cell, got, card, r, col)
            elif column.kind == COINS:
                self.coins(column, cell, got, card, r, col)

    def _unwritten(self, column: Column, cell: Cell, card: str, r: int, col: int) -> bool:
        if cell.path is None or cell.loc is None:
            self.problem("sheet-readonly", f"'{card}' has no {column.name} written in "
                         "card_data/, so the sheet cannot set one", r, col,
                         f"write {column.name} into the card's file first, then export again",
                         card)
            return True
        return False

    def number(self, column: Column, cell: Cell, got: Any, card: str, r: int, col: int) -> None:
        if _blank(got) and cell.value is None:
            return
        value = _whole(got)
        if value is None:
            self.problem("sheet-value", f"{column.name} of '{card}' is \"{_text(got)}\", not a "
                         "whole number", r, col, f"write a whole number (was {cell.value})", card)
            return
        if value == cell.value or self._unwritten(column, cell, card, r, col):
            return
        if cell.range is not None and not cell.range.holds(value):
            self.problem("sheet-range", f"{column.name} {value} of '{card}' is outside "
                         f"{cell.range.text()} [{cell.range.at}]", r, col,
                         cell.range.hint(f"write {column.name} {cell.range.allowed()}"), card)
            return
        assert cell.path is not None and cell.loc is not None and isinstance(cell.value, int)
        self.changes.append(ValueChange(cell.path, cell.loc, cell.value, value))

    def coins(self, column: Column, cell: Cell, got: Any, card: str, r: int, col: int) -> None:
        words = tuple(w for w in re.split(r"[\s,]+", _text(got)) if w)
        old = tuple(w for w in re.split(r"[\s,]+", _text(cell.value)) if w)
        if words == old or self._unwritten(column, cell, card, r, col):
            return
        wrong = [w for w in words if w not in self.data.currencies]
        if wrong:
            self.problem("sheet-value", f"{column.name} of '{card}': '{wrong[0]}' is no coin",
                         r, col, "write coins as currency ids separated by commas: "
                         + ", ".join(sorted(self.data.currencies)), card)
            return
        if cell.range is not None and not cell.range.holds(len(words)):
            self.problem("sheet-range", f"{column.name} of '{card}' has {len(words)} coins, "
                         f"outside {cell.range.text()} [{cell.range.at}]", r, col,
                         cell.range.hint(f"give it {cell.range.allowed()} coins"), card)
            return
        assert cell.path is not None and cell.loc is not None
        if coin_text(words) != coin_text(old):
            self.changes.append(ValueChange(cell.path, cell.loc, old, words))


def _fresh(grids: dict[str, list[list[Any]]], today: str, follows: dict[str, str],
           problems: list[Finding]) -> None:
    """A problem when the values the file was exported from are not today's, nor what its
    last import left: the file's unchanged cells would write the old values back."""
    stamp = file_stamp(grids)
    if stamp is None:
        return
    written, r = stamp
    if written != today and follows.get(written) != today:
        problems.append(error(
            "sheet-stale", f"card_data/ changed since this file was exported (values digest "
            f"{written or '(none)'}, today {today}): importing it would write the old values "
            "back", location=Location(f"{ABOUT}!{cell_name(r, 1)}"),
            hint="export again and make the edits there (`cardgen diff` lists what changed "
            "in card_data/)"))


def changes_of(data: GameData, grids: dict[str, list[list[Any]]], whole_book: bool,
               follows: dict[str, str] | None = None) -> list[ValueChange]:
    """The value changes the read sheets make to ``data``; raises with every problem.
    ``whole_book``: the file is a workbook, so each exported sheet must be in it;
    ``follows``: the values each earlier import left, by its file's export digest."""
    problems: list[Finding] = []
    changes: list[ValueChange] = []
    sheets = tables(data)
    exported = {t.name: t for t in sheets}
    _fresh(grids, values_digest(sheets), follows or {}, problems)
    for name, grid in grids.items():
        if name == ABOUT:
            continue
        table = exported.get(name)
        if table is None:
            problems.append(error("sheet-file", f"sheet '{name}' is none of "
                                  f"{', '.join(exported)}", location=Location(f"{name}!A1"),
                                  hint=SHEET_HINT))
            continue
        _Sheet(table, grid, data, problems, changes).compare()
    if whole_book:
        problems += [error("sheet-file", f"sheet '{name}' is missing",
                           location=Location(f"{name}!A1"), hint=SHEET_HINT)
                     for name in exported if name not in grids]
    if problems:
        raise CardgenError(problems)
    return changes
