"""Reading a spreadsheet back: the changed cells as value changes, strictly.

Rows are matched by id, columns by header, so rows may be sorted and columns moved. Every
other difference from the export is an error at its ``sheet!cell``: an unknown or missing
column, a renamed id, an added row short of what a card needs (a full one adds the card:
:class:`AddedRow`), an added place, a missing row, a
value that is no whole number (or no coins), outside its range or where the file writes
none, and any edit of a read-only cell. Errors are gathered over the whole file; with any,
nothing is written.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..data.model import LANGS, GameData
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
ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
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


@dataclass(frozen=True)
class AddedRow:
    """A card a row adds: made like ``like`` (a card of its deck with the same values), then
    given the row's values (column name → cell value)."""

    id: str
    number: int
    deck: str
    like: str
    names: dict[str, str]
    values: dict[str, Any]


class _Sheet:
    """One read sheet against its exported table."""

    def __init__(self, table: Table, grid: list[list[Any]], data: GameData,
                 problems: list[Finding], changes: list[ValueChange]) -> None:
        self.table, self.data, self.problems, self.changes = table, data, problems, changes
        self.grid = grid
        self.added: list[AddedRow] = []

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
            elif self.table.name == PLACES:
                self.problem("sheet-row", f"a row for '{got or '(no id)'}' was added: a place "
                             "cannot be added from the sheet", r, id_col,
                             "add the place to card_data/, then export again")
            else:
                self.added_row(got, self.grid[r], r, where)
        if not unknown:
            for i in missing:
                self.problem("sheet-row", f"the row of '{self.table.rows[i][0].value}' was "
                             f"deleted: a {what} cannot be removed from the sheet", i + 1, id_col,
                             "remove it from card_data/, or put its row back")

    def added_row(self, card: str, values: list[Any], r: int, where: dict[str, int]) -> None:
        """A new card from a row: kept when it gives an id, a free number, its deck, names in
        both languages and exactly the values a card of its deck has (the model copied is the
        first such card); otherwise a ``sheet-row`` problem naming what is missing."""
        def got(name: str) -> Any:
            col = where[name]
            return values[col] if col < len(values) else None

        taken = {c.id for c in self.data.cards}
        id_col = where["id"]
        if not ID_RE.match(card) or card in taken:
            self.problem("sheet-row", f"the added row's id '{card or '(none)'}' " + (
                "is another card's" if card in taken else "is no lower-case words joined "
                "by hyphens"), r, id_col, "give the new card its own id, e.g. "
                "wenceslas-of-luxembourg")
            return
        deck = _text(got("deck")).strip()
        models = [row for row in self.table.rows if row[self.table.index("deck")].value == deck]
        if not models:
            decks = sorted({str(row[self.table.index("deck")].value) for row in self.table.rows})
            self.problem("sheet-row", f"the added row '{card}' has deck '{deck}', none of this "
                         "sheet's", r, where["deck"], f"write one of: {', '.join(decks)}", card)
            return
        missing = [n for n in ("number", *(f"name.{lang}" for lang in LANGS))
                   if _blank(got(n))]
        number = _whole(got("number"))
        if number is not None and any(c.number == number and c.deck == deck
                                      for c in self.data.cards):
            self.problem("sheet-row", f"the added row '{card}' has number {number}, which "
                         f"another {deck} card has", r, where["number"],
                         "give it the deck's next free number", card)
            return
        given = {c.name for c in self.table.columns if c.writable and not _blank(got(c.name))}

        def needs(row: list[Cell]) -> set[str]:
            return {c.name for c, cell in zip(self.table.columns, row, strict=True)
                    if c.writable and not _blank(cell.value)}
        model = next((row for row in models if needs(row) == given), None)
        if model is None:
            near = min(models, key=lambda row: len(needs(row) ^ given))
            missing += sorted(needs(near) - given)
            extra = sorted(given - needs(near))
            if not missing:
                self.problem("sheet-row", f"the added row '{card}' gives {', '.join(extra)}, "
                             f"which no {deck} card like {near[0].value} has", r,
                             where[extra[0]], "leave those cells empty, or add the card in "
                             "card_data/ with `cardgen new card`", card)
                return
        if missing or number is None:
            first = missing[0] if missing else "number"
            self.problem("sheet-row", f"the added row '{card}' lacks "
                         f"{', '.join(missing) or 'a whole number'}: a new card needs its "
                         "number, names in both languages and the values of its kind", r,
                         where[first], "fill those cells; adding it grows the counts of "
                         "game.yaml it joins (physical_cards and its deck's), and a count "
                         "the rulebook fixes (rules/facts.yaml) is named to confirm", card)
            return
        assert model is not None
        self.added.append(AddedRow(card, number, deck, str(model[0].value),
                                   {lang: _text(got(f"name.{lang}")).strip() for lang in LANGS},
                                   {n: got(n) for n in given}))

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


def edits_of(data: GameData, grids: dict[str, list[list[Any]]], whole_book: bool,
             follows: dict[str, str] | None = None
             ) -> tuple[list[ValueChange], list[AddedRow]]:
    """The value changes the read sheets make to ``data`` and the cards their added rows
    add; raises with every problem. ``whole_book``: the file is a workbook, so each exported
    sheet must be in it; ``follows``: the values each earlier import left, by its file's
    export digest."""
    problems: list[Finding] = []
    changes: list[ValueChange] = []
    added: list[AddedRow] = []
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
        sheet = _Sheet(table, grid, data, problems, changes)
        sheet.compare()
        added += sheet.added
    if whole_book:
        problems += [error("sheet-file", f"sheet '{name}' is missing",
                           location=Location(f"{name}!A1"), hint=SHEET_HINT)
                     for name in exported if name not in grids]
    if problems:
        raise CardgenError(problems)
    return changes, added
