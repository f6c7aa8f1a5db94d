"""output/sheet/: cards.ods, cards.xlsx and one CSV per sheet, from the loaded project."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..data.project import Project
from ..errors import CardgenError, Finding, error
from ..files.safepath import in_output
from ..files.write import atomic_write
from .about import about_table
from .csvfile import csv_bytes, csv_name
from .table import tables

FOLDER = "sheet"


def missing_extra() -> CardgenError | None:
    """Why the spreadsheet libraries cannot be used (None: they can)."""
    try:
        import odf  # noqa: F401
        import openpyxl  # noqa: F401
    except ImportError as exc:
        return CardgenError(error("sheet-setup", f"the spreadsheet export needs {exc.name}",
                                  hint="install cardgen's extra: pip install -e '.[sheet]'"))
    return None


def export(project: Project, findings: Sequence[Finding]) -> list[Path]:
    """Write the sheets of ``project`` (``findings`` noted on their cells); the files written."""
    problem = missing_extra()
    if problem is not None:
        raise problem
    from .ods import ods_bytes
    from .xlsx import xlsx_bytes
    sheets = tables(project.data, findings)
    book = [*sheets, about_table(project.data, sheets)]
    files = {"cards.ods": ods_bytes(book), "cards.xlsx": xlsx_bytes(book),
             **{csv_name(t.name): csv_bytes(t) for t in sheets}}
    written = []
    for name, content in files.items():
        path = in_output(project.root, f"{FOLDER}/{name}")
        atomic_write(path, content)
        written.append(path)
    return written
