"""`cardgen sheet export` and `sheet import`: the designer's numbers in a spreadsheet."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import CardgenError, has_errors

if TYPE_CHECKING:
    from ..sheet.importer import AddedRow
from .check import run_check


def sheet_export(project: Path) -> list[Path]:
    """output/sheet/cards.ods, cards.xlsx and cards-<deck>.csv, with the current findings of
    `cardgen check` as cell comments."""
    from ..sheet.export import export, missing_extra
    if (problem := missing_extra()) is not None:  # said before the check runs
        raise problem
    report = run_check(project)
    if report.project is None:
        raise CardgenError(report.findings)
    return export(report.project, report.findings)


def sheet_import(project: Path, file: Path, *, dry_run: bool = False) -> list[str]:
    """Write the changed values of ``file`` (ODS, XLSX or CSV) into card_data/; the lines say
    each change. Nothing is written when any cell is wrong, or with ``dry_run``."""
    from ..data.project import load_project
    from ..sheet.about import file_stamp, imported, record_import, values_digest
    from ..sheet.export import missing_extra
    from ..sheet.importer import edits_of, read_grids
    from ..sheet.table import tables
    from ..translate.values import write_values
    if file.suffix.lower() == ".xlsx" and (problem := missing_extra()) is not None:
        raise problem
    gathered, findings = load_project(project)
    if has_errors(findings):
        raise CardgenError(findings)
    grids = read_grids(file)
    changes, added = edits_of(gathered.data, grids, whole_book=file.suffix.lower() != ".csv",
                              follows=imported(project))
    lines = write_values(project, gathered.data, changes, code="sheet-text", dry_run=dry_run)
    for row in added:
        lines += _add_card(project, row, dry_run)
    stamp = file_stamp(grids)
    if stamp is not None and lines and not dry_run:  # the file may be imported again
        after = values_digest(tables(gathered.data), {c.path: c.new for c in changes})
        record_import(project, stamp[0], after)
    return lines


def _add_card(project: Path, row: AddedRow, dry_run: bool) -> list[str]:
    """Add the card of an added row: made by `cardgen new card` like its model, then given
    the row's values through the same in-place editor as the changed cells."""
    from ..data.project import load_project
    from ..sheet.importer import edits_of
    from ..sheet.table import tables
    from ..translate.values import write_values
    from .newcard import new_card
    if dry_run:
        return [f"would add {row.id} ({row.deck} {row.number}) like {row.like}"]
    made = new_card(project, row.deck, row.like, row.id, row.names, number=row.number)
    gathered, _ = load_project(project)
    table = next(t for t in tables(gathered.data)
                 if any(r[0].value == row.id for r in t.rows))
    grid: list[list[Any]] = [[c.name for c in table.columns],
            *([row.values.get(c.name, cell.value) if c.writable and cells[0].value == row.id
               else cell.value for c, cell in zip(table.columns, cells, strict=True)]
              for cells in table.rows)]
    changes, _ = edits_of(gathered.data, {table.name: grid}, whole_book=False)
    return made.lines()[:-1] + write_values(project, gathered.data, changes, code="sheet-text")
