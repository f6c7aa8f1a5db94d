"""A rulebook table in one language: numbered title, column heads and rows of cells.

This is what the PDF, Markdown and HTML writers share, so the three carry the same words.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Icon:
    """A board glyph drawn before a cell's text in the PDF: ``shield`` (``key`` is the
    shield id), ``mitre``, ``crown``, ``card`` or ``play``."""

    kind: str
    key: str = ""


@dataclass(frozen=True)
class Cell:
    text: str
    prototype: bool = False  # a prototype value: the writers add the prototype mark
    icon: Icon | None = None
    numeric: bool = False


@dataclass(frozen=True)
class Row:
    cells: tuple[Cell, ...]
    kind: str = "body"  # body | group (a heading across the table) | total


@dataclass(frozen=True)
class Table:
    id: str  # key_terms, inventory, countries, battlegrounds, shields
    number: str  # as the rulebook numbers it: "1.4"
    title: str
    head: tuple[str, ...]
    rows: tuple[Row, ...]
    widths: tuple[float, ...]  # relative column widths (PDF)

    @property
    def heading(self) -> str:
        return f"{self.number} {self.title}"


@dataclass(frozen=True)
class Document:
    """Every table of one language, with the title, subtitle and the prototype note."""

    lang: str
    title: str
    subtitle: str
    mark: str  # the prototype mark, e.g. "*"
    note: str  # what the mark means
    tables: tuple[Table, ...]

    def table(self, table_id: str) -> Table:
        return next(t for t in self.tables if t.id == table_id)
