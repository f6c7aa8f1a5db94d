"""What the two spreadsheet writers draw alike: column widths, colours, notes."""

from __future__ import annotations

from .table import Cell, Column, Table

#: Fill of read-only columns (texts, names, deck, house), of prototype values, of the header.
READ_ONLY_FILL, PROTOTYPE_FILL, HEADER_FILL = "EEEEEE", "FFF2CC", "D9E1F2"
#: Column widths in characters (a text column is cut at the widest and wraps).
MIN_WIDTH, MAX_WIDTH = 6, 60
#: The bound an open end of a range is validated with.
BOUND = 10 ** 9


def width(table: Table, col: int) -> int:
    """Characters the widest value (or the header) of column ``col`` needs."""
    longest = max([len(table.columns[col].name),
                   *(len(str(row[col].value)) for row in table.rows if row[col].value is not None)])
    return max(MIN_WIDTH, min(MAX_WIDTH, longest + 2))


def fill(column: Column, cell: Cell) -> str | None:
    if not column.writable:
        return READ_ONLY_FILL if column.kind != "key" else None
    return PROTOTYPE_FILL if cell.prototype else None


def note(cell: Cell) -> str:
    return "\n".join(cell.notes)


def validation_text(low: int | None, high: int | None) -> str:
    """What a validated cell asks for, and where its range is set."""
    if low is not None and high is not None:
        span = f"from {low} to {high}"
    else:
        span = f"at least {low}" if low is not None else f"at most {high}"
    return f"write a whole number {span} (ranges: in card_data/rules/schema.yaml)"
