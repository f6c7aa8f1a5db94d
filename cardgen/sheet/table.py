"""The designer's numbers as tables: one per deck (starters, market, events) and one of the
places, each a header of columns and one row per card or place.

A column is a key (the id), a value the designer may change (a whole number, or coins
written ``church, church``), or read-only (names, texts, deck, house: texts come from the
effects). Every writable cell knows where its value is written in card_data/ and the path
:mod:`cardgen.data.paths` names it by; the export draws the tables, the import compares a
read table with them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..data.model import LANGS, LINE_KINDS, Card, Effect, GameData
from ..data.ranges import Range, spec_range
from ..errors import Finding, Location

#: The sheets, in order; a card's sheet is :func:`sheet_of`.
DECK_SHEETS = ("starters", "market", "events")
PLACES = "places"
SHEETS = (*DECK_SHEETS, PLACES)

KEY, NUMBER, COINS, FIXED = "key", "number", "coins", "fixed"


@dataclass(frozen=True)
class Column:
    name: str
    kind: str  # KEY, NUMBER, COINS or FIXED

    @property
    def writable(self) -> bool:
        return self.kind in (NUMBER, COINS)


@dataclass(frozen=True)
class Cell:
    """One value as the export writes it: where card_data/ writes it (the findings there are
    noted on it), and for a writable one its path and range."""

    value: int | str | None
    path: str | None = None
    loc: Location | None = None
    range: Range | None = None
    prototype: bool = False
    notes: tuple[str, ...] = ()


@dataclass
class Table:
    name: str
    columns: list[Column]
    rows: list[list[Cell]] = field(default_factory=list)

    def index(self, name: str) -> int:
        return next(i for i, c in enumerate(self.columns) if c.name == name)


def sheet_of(card: Card, data: GameData) -> str:
    if card.is_event:
        return "events"
    return "market" if card.deck not in data.sides else "starters"


def coin_text(coins: tuple[str, ...]) -> str:
    return ", ".join(coins)


def _ranges(data: GameData, group: str) -> dict[str, Range]:
    ranges = data.schema.get("ranges") if isinstance(data.schema, dict) else None
    table = ranges.get(group) if isinstance(ranges, dict) else None
    return {k: r for k, v in (table or {}).items() if (r := spec_range(v)) is not None}


def _op_range(data: GameData, op: str, param: str) -> Range | None:
    ops = data.schema.get("ops") if isinstance(data.schema, dict) else None
    spec = (ops or {}).get(op) or {}
    params = spec.get("params") if isinstance(spec, dict) else None
    return spec_range((params or {}).get(param)) if isinstance(params, dict) else None


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def effect_numbers(effects: tuple[Effect, ...], prefix: str = ""
                   ) -> Iterator[tuple[str, Effect, str]]:
    """(path tail ``0.amount`` / ``0.then.1.amount``, effect, parameter) of every whole
    number written in ``effects``, nested lists included."""
    for i, eff in enumerate(effects):
        for key, value in eff.params.items():
            if _whole(value) and key in eff.locs:
                yield f"{prefix}{i}.{key}", eff, key
        for key, inner in eff.nested():
            yield from effect_numbers(inner, f"{prefix}{i}.{key}.")


def _effect_cells(data: GameData, card: Card, proto: bool) -> dict[str, Cell]:
    """Column name (``deed.place_influence.amount``, a second one ``….amount.2``) → cell."""
    out: dict[str, Cell] = {}
    seen: Counter[str] = Counter()
    for line in card.lines:
        for tail, eff, param in effect_numbers(line.effects):
            name = f"{line.kind}.{eff.op}.{param}"
            seen[name] += 1
            column = name if seen[name] == 1 else f"{name}.{seen[name]}"
            out[column] = Cell(eff.params[param], f"cards.{card.id}.{line.kind}.effects.{tail}",
                               eff.at(param), _op_range(data, eff.op, param), proto)
    return out


def _card_cells(data: GameData, card: Card) -> dict[str, Cell]:
    card_ranges, costs = _ranges(data, "card"), _ranges(data, "cost")
    line_costs = _ranges(data, "line_cost")
    proto = card.prototype
    cells: dict[str, Cell] = {
        "id": Cell(card.id), "deck": Cell(card.deck), "house": Cell(card.side or ""),
        "kind": Cell(card.kind),
        **{f"name.{lang}": Cell(card.name.get(lang) or "", loc=card.name.at(lang))
           for lang in LANGS}}

    def number(key: str) -> None:
        written = key in card.locs
        cells[key] = Cell(getattr(card, key), f"cards.{card.id}.{key}" if written else None,
                          card.at(key) if written else None, card_ranges.get(key), proto)

    for key in ("number", "copies", "political", "military"):
        number(key)
    for key, coins, rng in (("yield", card.yields, card_ranges.get("yield")),
                            ("cost", card.cost, costs.get(card.kind))):
        written = key in card.locs
        cells[key] = Cell(coin_text(coins), f"cards.{card.id}.{key}" if written else None,
                          card.at(key) if written else None, rng, proto)
    if card.use_cost is not None:
        number("use_cost")
    if card.year is not None:
        number("year")
    for line in card.lines:
        if line.cost or "cost" in line.locs:
            written = "cost" in line.locs
            cells[f"{line.kind}.cost"] = Cell(
                coin_text(line.cost), f"cards.{card.id}.{line.kind}.cost" if written else None,
                line.at("cost") if written else None, line_costs.get(line.kind), proto)
    cells.update(_effect_cells(data, card, proto))
    for line in card.lines:
        for lang in LANGS:
            text = line.text.get(lang) if line.text is not None else None
            cells[f"{line.kind}.text.{lang}"] = Cell(  # read-only: the place is for notes
                text or "", loc=line.text.at(lang) if text is not None and line.text else None)
    return cells


BASE = ("id", "number", "deck", "house", "kind", "copies", *(f"name.{lang}" for lang in LANGS),
        "political", "military", "yield", "cost")


def _kind_of(name: str) -> str:
    if name == "id":
        return KEY
    if name in ("yield", "cost") or name.endswith(".cost"):
        return COINS
    if name in ("deck", "house", "kind") or name.startswith("name.") or ".text." in name:
        return FIXED
    return NUMBER


def _order(name: str) -> tuple[int, int, str]:
    """Base columns first, then per line kind its cost, numbers and texts."""
    if name in BASE:
        return (0, BASE.index(name), "")
    if name in ("use_cost", "year"):
        return (1, ("use_cost", "year").index(name), "")
    kind, _, rest = name.partition(".")
    line = LINE_KINDS.index(kind) if kind in LINE_KINDS else len(LINE_KINDS)
    if rest.startswith("text."):
        lang = rest.removeprefix("text.")
        return (3, line, str(LANGS.index(lang)) if lang in LANGS else lang)
    return (2, line, "" if rest == "cost" else rest)


def _table(name: str, rows: list[dict[str, Cell]]) -> Table:
    names: dict[str, None] = dict.fromkeys(BASE)
    for row in rows:
        names.update(dict.fromkeys(row))
    columns = [Column(n, _kind_of(n)) for n in sorted(names, key=_order)]
    table = Table(name, columns)
    table.rows = [[row.get(c.name, Cell(None)) for c in columns] for row in rows]
    return table


def _place_table(data: GameData) -> Table:
    ranges = _ranges(data, "place")
    proto = data.game.prototype
    rows: list[dict[str, Cell]] = []
    extra: dict[str, str] = {}
    for place in data.places.values():
        row = {"id": Cell(place.id), "category": Cell(place.category),
               **{f"name.{lang}": Cell(place.name.get(lang) or "") for lang in LANGS}}
        for key, value in place.attrs.items():
            if _whole(value) and key in place.locs:
                row[key] = Cell(value, f"places.{place.id}.{key}", place.locs[key],
                                ranges.get(key), proto)
                extra.setdefault(key, NUMBER)
            elif isinstance(value, str | list | tuple):
                row[key] = Cell(value if isinstance(value, str) else ", ".join(map(str, value)),
                                prototype=proto)
                extra.setdefault(key, FIXED)
        rows.append(row)
    base = ["id", "category", *(f"name.{lang}" for lang in LANGS)]
    numbers = sorted(k for k, v in extra.items() if v == NUMBER)
    fixed = sorted(k for k, v in extra.items() if v == FIXED)
    columns = [Column("id", KEY), *(Column(n, FIXED) for n in base[1:]),
               *(Column(n, NUMBER) for n in numbers), *(Column(n, FIXED) for n in fixed)]
    table = Table(PLACES, columns)
    table.rows = [[row.get(c.name, Cell(None)) for c in columns] for row in rows]
    return table


def tables(data: GameData, findings: Sequence[Finding] = ()) -> list[Table]:
    """The sheets of ``data`` in :data:`SHEETS` order, ``findings`` noted on their cells."""
    by_sheet: dict[str, list[dict[str, Cell]]] = {name: [] for name in DECK_SHEETS}
    for card in data.cards:  # in the order of their files
        by_sheet[sheet_of(card, data)].append(_card_cells(data, card))
    out = [_table(name, rows) for name, rows in by_sheet.items()]
    out.append(_place_table(data))
    return _noted(out, list(findings))


def _noted(out: list[Table], findings: list[Finding]) -> list[Table]:
    """Each finding as a note on the cell of its file line, else on its card's id cell."""
    at: dict[tuple[str, int], tuple[Table, int, int]] = {}
    ids: dict[str, tuple[Table, int, int]] = {}
    for table in out:
        for r, row in enumerate(table.rows):
            ids.setdefault(str(row[0].value), (table, r, 0))
            for c, cell in enumerate(row):
                if cell.loc is not None:
                    at.setdefault((cell.loc.file, cell.loc.line), (table, r, c))
    for finding in findings:
        loc = finding.location
        spot = at.get((loc.file, loc.line)) if loc is not None else None
        if spot is None and finding.card is not None:
            spot = ids.get(finding.card)
        if spot is None:
            continue
        table, r, c = spot
        cell = table.rows[r][c]
        note = f"{finding.severity.value}[{finding.code}]: {finding.message}"
        if note not in cell.notes:
            table.rows[r][c] = Cell(cell.value, cell.path, cell.loc, cell.range, cell.prototype,
                                    (*cell.notes, note))
    return out


def cell_name(row: int, col: int) -> str:
    """``F12`` for the 0-based (row 11, column 5)."""
    letters, n = "", col + 1
    while n:
        n, rest = divmod(n - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"{letters}{row + 1}"
