"""The tables as an HTML fragment-friendly page: semantic markup and class names only, so
the rulebook's own stylesheet decides how they look."""

from __future__ import annotations

from html import escape

from .table import Cell, Document, Row, Table


def _anchor(t: Table) -> str:
    return "table-" + t.number.replace(".", "-")


def _cell(cell: Cell, mark: str, tag: str = "td") -> str:
    text = escape(cell.text, quote=False)
    if cell.prototype:
        text += f'<sup class="prototype">{escape(mark, quote=False)}</sup>'
    cls = ' class="num"' if cell.numeric else ""
    return f"<{tag}{cls}>{text}</{tag}>"


def _row(row: Row, mark: str) -> str:
    if row.kind == "group":
        return (f'<tr class="group"><th colspan="{len(row.cells)}" scope="colgroup">'
                f"{escape(row.cells[0].text, quote=False)}</th></tr>")
    cls = ' class="total"' if row.kind == "total" else ""
    return f"<tr{cls}>" + "".join(_cell(c, mark) for c in row.cells) + "</tr>"


def _table(t: Table, mark: str) -> list[str]:
    head = "".join(f'<th scope="col">{escape(h, quote=False)}</th>' for h in t.head)
    return [f'<section class="rules-table" id="{_anchor(t)}">',
            f"<h2>{escape(t.heading, quote=False)}</h2>",
            "<table>", f"<thead><tr>{head}</tr></thead>", "<tbody>",
            *(_row(r, mark) for r in t.rows),
            "</tbody>", "</table>", "</section>"]


def build_html(doc: Document) -> str:
    out = ["<!DOCTYPE html>", f'<html lang="{doc.lang}">', "<head>", '<meta charset="utf-8">',
           f"<title>{escape(doc.title, quote=False)}</title>", "</head>", "<body>",
           f"<h1>{escape(doc.title, quote=False)}</h1>",
           f'<p class="subtitle">{escape(doc.subtitle, quote=False)}</p>',
           f'<p class="prototype-note">{escape(doc.note, quote=False)}</p>']
    for t in doc.tables:
        out += _table(t, doc.mark)
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
