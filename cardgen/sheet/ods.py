"""cards.ods through odfpy (Apache-2.0 / GPL): the same sheets as the XLSX (frozen header
and id column, widths, validation, marks, findings as annotations); read back with the
standard library's XML parser, so reading needs no extra."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from .style import BOUND, HEADER_FILL, fill, note, validation_text, width
from .table import NUMBER, Table
from .zipped import fixed

MIMETYPE = "application/vnd.oasis.opendocument.spreadsheet"
#: Repeated empty rows or columns read at most (LibreOffice writes a million at the end),
#: and the most cells a sheet may give (the 20× deck has about 40,000).
MAX_REPEAT = 10_000
MAX_CELLS = 2_000_000


def _styles(doc: Any, tables: list[Table]) -> tuple[dict[str, Any], dict[int, Any]]:
    from odf.style import Style, TableCellProperties, TableColumnProperties, TextProperties
    cells: dict[str, Any] = {}
    colours = sorted({colour for t in tables for row in t.rows
                      for col, cell in zip(t.columns, row, strict=True)
                      if (colour := fill(col, cell))})
    for name, colour, bold in (("header", HEADER_FILL, True),
                               *((f"fill{c}", c, False) for c in colours)):
        style = Style(name=name, family="table-cell")
        style.addElement(TableCellProperties(backgroundcolor="#" + colour))
        if bold:
            style.addElement(TextProperties(fontweight="bold"))
        doc.automaticstyles.addElement(style)
        cells[name] = style
    columns: dict[int, Any] = {}
    for w in sorted({width(t, c) for t in tables for c in range(len(t.columns))}):
        style = Style(name=f"col{w}", family="table-column")
        style.addElement(TableColumnProperties(columnwidth=f"{w * 0.21:.2f}cm"))
        doc.automaticstyles.addElement(style)
        columns[w] = style
    return cells, columns


def _settings(doc: Any, tables: list[Table]) -> None:
    """Each sheet's header row and id column frozen, as LibreOffice's view settings say it."""
    from odf.config import (
        ConfigItem,
        ConfigItemMapEntry,
        ConfigItemMapIndexed,
        ConfigItemMapNamed,
        ConfigItemSet,
    )
    view = ConfigItemSet(name="ooo:view-settings")
    views = ConfigItemMapIndexed(name="Views")
    entry = ConfigItemMapEntry()
    entry.addElement(ConfigItem(name="ViewId", type="string", text="view1"))
    sheets = ConfigItemMapNamed(name="Tables")
    for table in tables:
        one = ConfigItemMapEntry(name=table.name)
        for key, kind, value in (("HorizontalSplitMode", "short", 2), ("VerticalSplitMode", "short", 2),
                                 ("HorizontalSplitPosition", "int", 1),
                                 ("VerticalSplitPosition", "int", 1), ("ActiveSplitRange", "short", 2),
                                 ("PositionLeft", "int", 0), ("PositionRight", "int", 1),
                                 ("PositionTop", "int", 0), ("PositionBottom", "int", 1)):
            one.addElement(ConfigItem(name=key, type=kind, text=str(value)))
        sheets.addElement(one)
    entry.addElement(sheets)
    views.addElement(entry)
    view.addElement(views)
    doc.settings.addElement(view)


def _validations(doc: Any, tables: list[Table]) -> dict[tuple[int | None, int | None], str]:
    """One whole-number validation per range of the value cells, as LibreOffice writes it
    (it enforces this form; it reads ODF 1.2's comparisons but does not enforce them)."""
    from odf.table import ContentValidation, ContentValidations, ErrorMessage
    from odf.text import P
    names: dict[tuple[int | None, int | None], str] = {}
    checks = ContentValidations()
    for table in tables:
        for row in table.rows:
            for column, cell in zip(table.columns, row, strict=True):
                if column.kind != NUMBER or not cell.path or cell.range is None:
                    continue
                key = (cell.range.low, cell.range.high)
                if key in names:
                    continue
                names[key] = f"whole{len(names) + 1}"
                low = -BOUND if key[0] is None else key[0]
                high = BOUND if key[1] is None else key[1]
                rule = ContentValidation(name=names[key], allowemptycell="true", condition=(
                    f"of:cell-content-is-whole-number() and cell-content-is-between({low},{high})"))
                message = ErrorMessage(display="true", messagetype="stop", title="cardgen")
                message.addElement(P(text=validation_text(*key)))
                rule.addElement(message)
                checks.addElement(rule)
    if names:
        doc.spreadsheet.addElement(checks)
    return names


def ods_bytes(tables: list[Table]) -> bytes:
    from odf.office import Annotation, Spreadsheet
    from odf.opendocument import OpenDocument
    from odf.table import Table as OdfTable
    from odf.table import TableCell, TableColumn, TableRow
    from odf.teletype import addTextToElement
    from odf.text import P

    doc = OpenDocument(MIMETYPE, add_generator=False)
    doc.spreadsheet = Spreadsheet()
    doc.body.addElement(doc.spreadsheet)
    cell_styles, column_styles = _styles(doc, tables)
    _settings(doc, tables)
    validations = _validations(doc, tables)

    def text_cell(value: str, **kw: Any) -> Any:
        cell = TableCell(valuetype="string", **kw)
        paragraph = P()
        addTextToElement(paragraph, value)
        cell.addElement(paragraph)
        return cell

    for table in tables:
        sheet = OdfTable(name=table.name)
        for c in range(len(table.columns)):
            sheet.addElement(TableColumn(stylename=column_styles[width(table, c)]))
        header = TableRow()
        for column in table.columns:
            header.addElement(text_cell(column.name, stylename=cell_styles["header"]))
        sheet.addElement(header)
        for row in table.rows:
            line = TableRow()
            for column, value in zip(table.columns, row, strict=True):
                kw: dict[str, Any] = {}
                colour = fill(column, value)
                if colour:
                    kw["stylename"] = cell_styles[f"fill{colour}"]
                if column.kind == NUMBER and value.path and value.range is not None:
                    kw["contentvalidationname"] = validations[(value.range.low, value.range.high)]
                if isinstance(value.value, int):
                    cell = TableCell(valuetype="float", value=str(value.value), **kw)
                    cell.addElement(P(text=str(value.value)))
                elif value.value:
                    cell = text_cell(value.value, **kw)
                else:
                    cell = TableCell(**kw)
                if value.notes:
                    annotation = Annotation()
                    for part in note(value).split("\n"):
                        paragraph = P()
                        addTextToElement(paragraph, part)
                        annotation.addElement(paragraph)
                    if cell.firstChild is not None:
                        cell.insertBefore(annotation, cell.firstChild)
                    else:
                        cell.addElement(annotation)
                line.addElement(cell)
            sheet.addElement(line)
        doc.spreadsheet.addElement(sheet)
    raw = io.BytesIO()
    doc.write(raw)
    return fixed(raw.getvalue())


# --- reading -----------------------------------------------------------------------------

NS = {"table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
      "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
      "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0"}


def _q(prefix: str, name: str) -> str:
    return f"{{{NS[prefix]}}}{name}"


def _text(element: ElementTree.Element) -> str:
    """A paragraph's text as the cell shows it (``text:s`` spaces, tabs, line breaks)."""
    out = [element.text or ""]
    for child in element:
        if child.tag == _q("text", "s"):
            out.append(" " * int(child.get(_q("text", "c"), "1")))
        elif child.tag == _q("text", "tab"):
            out.append("\t")
        elif child.tag == _q("text", "line-break"):
            out.append("\n")
        elif child.tag != _q("office", "annotation"):
            out.append(_text(child))
        out.append(child.tail or "")
    return "".join(out)


def _value(cell: ElementTree.Element) -> Any:
    kind = cell.get(_q("office", "value-type"))
    if kind in ("float", "percentage", "currency"):
        number = float(cell.get(_q("office", "value"), "nan"))
        return int(number) if number.is_integer() else number
    paragraphs = [p for p in cell if p.tag == _q("text", "p")]
    if kind is None and not paragraphs:
        return None
    return "\n".join(_text(p) for p in paragraphs)


def _rows(sheet: ElementTree.Element) -> Iterator[list[Any]]:
    cells = 0
    for row in sheet.iter(_q("table", "table-row")):
        values: list[Any] = []
        for cell in row:
            if cell.tag not in (_q("table", "table-cell"), _q("table", "covered-table-cell")):
                continue
            repeat = min(int(cell.get(_q("table", "number-columns-repeated"), "1")), MAX_REPEAT)
            values += [_value(cell)] * repeat
            if len(values) > MAX_CELLS:
                raise ValueError(f"a row gives more than {MAX_CELLS} cells")
        while values and values[-1] in (None, ""):
            values.pop()
        repeat = min(int(row.get(_q("table", "number-rows-repeated"), "1")), MAX_REPEAT)
        cells += len(values) * (repeat if values else 1)
        if cells > MAX_CELLS:
            raise ValueError(f"a sheet gives more than {MAX_CELLS} cells")
        for _ in range(repeat if values else 1):
            yield values


def read_ods(path: Path) -> dict[str, list[list[Any]]]:
    """Each sheet's cells, row by row (None for an empty cell)."""
    with zipfile.ZipFile(path) as package:
        root = ElementTree.fromstring(package.read("content.xml"))
    return {sheet.get(_q("table", "name"), ""): list(_rows(sheet))
            for sheet in root.iter(_q("table", "table"))}

