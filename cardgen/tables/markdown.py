"""The tables as Markdown (GitHub pipe tables) for the rulebook's own source."""

from __future__ import annotations

import re

from .table import Cell, Document, Row

_SPECIAL = re.compile(r"([\\`*_\[\]|<>#])")


def md_escape(text: str) -> str:
    """``text`` with every character Markdown would read as markup escaped."""
    return _SPECIAL.sub(r"\\\1", text)


def _cell(cell: Cell, mark: str, strong: bool) -> str:
    text = md_escape(cell.text) + (md_escape(mark) if cell.prototype else "")
    return f"**{text}**" if strong and text else text


def _row(row: Row, mark: str) -> str:
    cells = [_cell(c, mark, row.kind in ("group", "total")) for c in row.cells]
    return "| " + " | ".join(cells) + " |"


def build_markdown(doc: Document) -> str:
    out = [f"# {md_escape(doc.title)}", "", md_escape(doc.subtitle), "", md_escape(doc.note)]
    for t in doc.tables:
        numeric = [any(r.cells[i].numeric for r in t.rows) for i in range(len(t.head))]
        out += ["", f"## {md_escape(t.heading)}", "",
                "| " + " | ".join(md_escape(h) for h in t.head) + " |",
                "|" + "|".join("---:" if n else "---" for n in numeric) + "|"]
        out += [_row(r, doc.mark) for r in t.rows]
    return "\n".join(out) + "\n"
