"""cards.xlsx through openpyxl (MIT): written with a frozen header and id column, fitting
widths, whole-number validation from the schema's ranges, prototype values marked and the
check's findings as comments; read back as plain values."""

from __future__ import annotations

import datetime
import io
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from .style import BOUND, HEADER_FILL, fill, note, validation_text, width
from .table import NUMBER, Table, cell_name
from .zipped import fixed

#: The creation and change date written into the package (same data, same bytes).
STAMP = datetime.datetime(2000, 1, 1)



def xlsx_bytes(tables: list[Table]) -> bytes:
    from openpyxl import Workbook
    from openpyxl.comments import Comment
    from openpyxl.styles import Font, PatternFill
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.datavalidation import DataValidation

    book = Workbook()
    book.remove(book.active)
    book.properties.created = book.properties.modified = STAMP
    book.properties.creator = book.properties.lastModifiedBy = "cardgen"
    fills: dict[str, Any] = {}

    def solid(colour: str) -> Any:
        return fills.setdefault(colour, PatternFill("solid", start_color=colour, end_color=colour))

    for table in tables:
        sheet = book.create_sheet(table.name)
        sheet.append([c.name for c in table.columns])
        for cell in sheet[1]:
            cell.font = Font(bold=True)
            cell.fill = solid(HEADER_FILL)
        checks: dict[tuple[int | None, int | None], list[str]] = defaultdict(list)
        for r, row in enumerate(table.rows, start=1):
            for c, (column, value) in enumerate(zip(table.columns, row, strict=True)):
                out = sheet.cell(r + 1, c + 1, None if value.value == "" else value.value)
                if isinstance(value.value, str) and value.value.startswith("="):
                    out.data_type = "s"  # a text, never a formula
                colour = fill(column, value)
                if colour:
                    out.fill = solid(colour)
                if value.notes:
                    comment = Comment(note(value), "cardgen cardgen check")
                    comment.width, comment.height = 320, 160
                    out.comment = comment
                if column.kind == NUMBER and value.range is not None and value.path:
                    checks[(value.range.low, value.range.high)].append(cell_name(r, c))
        for (low, high), cells in sorted(checks.items(), key=str):
            rule = DataValidation(type="whole", operator="between", allow_blank=True,
                                  formula1=str(low if low is not None else -BOUND),
                                  formula2=str(high if high is not None else BOUND),
                                  showErrorMessage=True, errorTitle="cardgen",
                                  error=validation_text(low, high))
            for cell in cells:
                rule.add(cell)
            sheet.add_data_validation(rule)
        sheet.freeze_panes = "B2"
        for c in range(len(table.columns)):
            sheet.column_dimensions[get_column_letter(c + 1)].width = width(table, c)
    raw = io.BytesIO()
    book.save(raw)
    return fixed(raw.getvalue(), {"docProps/core.xml": _stamped})


def _stamped(core: bytes) -> bytes:
    """openpyxl dates the change at saving: the package says :data:`STAMP` instead."""
    return re.sub(rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>" + STAMP.isoformat().encode() + b"Z",
                  core)


def read_xlsx(path: Path) -> dict[str, list[list[Any]]]:
    """Each sheet's cells, row by row (None for an empty cell)."""
    from openpyxl import load_workbook
    book = load_workbook(path, read_only=True, data_only=True)
    try:
        return {sheet.title: [list(row) for row in sheet.iter_rows(values_only=True)]
                for sheet in book.worksheets}
    finally:
        book.close()
