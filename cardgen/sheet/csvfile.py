"""cards-<deck>.csv and places.csv: one sheet each, for scripts (UTF-8, comma-separated,
a header row, ``\\n`` line ends); read back with commas, semicolons or tabs between cells
(as the header shows) and any line ends."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from ..errors import CardgenError, Location, error
from .table import PLACES, SHEETS, Table


def csv_name(sheet: str) -> str:
    return f"{sheet}.csv" if sheet == PLACES else f"cards-{sheet}.csv"


def csv_bytes(table: Table) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([c.name for c in table.columns])
    writer.writerows([["" if c.value is None else c.value for c in row] for row in table.rows])
    return out.getvalue().encode("utf-8")


def sheet_of_csv(path: Path) -> str:
    """The sheet a CSV file holds, by its name (``cards-market.csv`` → market)."""
    stem = path.stem.removeprefix("cards-")
    if stem not in SHEETS:
        raise CardgenError(error(
            "sheet-file", f"{path.name} names no sheet", location=Location(path.name),
            hint="keep the exported name: " + ", ".join(csv_name(s) for s in SHEETS)))
    return stem


def read_csv(path: Path, raw: bytes) -> dict[str, list[list[Any]]]:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CardgenError(error("file-encoding", f"file is not UTF-8 ({exc.reason} at byte "
                                 f"{exc.start})", location=Location(path.name),
                                 hint="save the CSV as UTF-8")) from None
    header = text.split("\n", 1)[0]
    # an office suite in a locale with decimal commas saves ';' (or tabs) between cells
    delimiter = next((d for d in ",;\t" if d in header), ",")
    rows = [[cell if cell != "" else None for cell in row]
            for row in csv.reader(io.StringIO(text), delimiter=delimiter)]
    return {sheet_of_csv(path): rows}
