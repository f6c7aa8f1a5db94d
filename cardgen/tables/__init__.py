"""The rulebook's missing tables (1.4 Key terms, 2.1 Inventory, 7.2 The seven countries,
8.0 The five battlegrounds, 11.5 The six shields), generated from card_data.

:mod:`.facts` gathers what the tables say without words, :mod:`.content` puts it in one
language's words (:class:`.table.Document`), and three writers turn that one document
into PDF, Markdown and HTML, so the three always carry the same content.
"""

from __future__ import annotations

from collections.abc import Callable

from ..board.base import make_ctx
from ..data.model import GameData
from ..data.project import Project
from ..errors import CardgenError, has_errors
from ..render.cmyk import CmykConverter
from ..wording.components import load_components, token_inventory
from . import facts
from .content import document, label_findings
from .html import build_html
from .markdown import build_markdown
from .pdf import build_pdf
from .table import Document

__all__ = ["Document", "build_tables_html", "build_tables_md", "build_tables_pdf",
           "drawing_inputs", "label_findings", "tables_document", "writers"]


def tables_document(project: Project, lang: str) -> Document:
    """Every table in ``lang``; raises one CardgenError if labels are missing or the
    inventory's totals disagree with game.yaml or the token sheets."""
    comp, found = load_components(project)
    if comp is None or has_errors(found):
        raise CardgenError(found)
    data = project.data
    inventory = facts.inventory(data, comp.tokens, len(token_inventory(data, comp)))
    return document(data, lang, comp, inventory)


def writers(doc: Document, project: Project, cmyk: CmykConverter | None = None
            ) -> dict[str, Callable[[], bytes]]:
    """The bytes of each file of ``doc``, by extension, made on demand (the PDF in CMYK
    through ``cmyk`` when given)."""
    return {"pdf": lambda: build_pdf(doc, make_ctx(project, doc.lang, "board"), cmyk),
            "md": lambda: build_markdown(doc).encode("utf-8"),
            "html": lambda: build_html(doc).encode("utf-8")}


def drawing_inputs(data: GameData) -> str:
    """What the PDF draws besides the document's words: the shields' colours and charges."""
    return repr(sorted((s.id, s.colour, s.charge) for s in data.shields.values()))


def build_tables_pdf(project: Project, lang: str) -> bytes:
    return build_pdf(tables_document(project, lang), make_ctx(project, lang, "board"))


def build_tables_md(project: Project, lang: str) -> bytes:
    return build_markdown(tables_document(project, lang)).encode("utf-8")


def build_tables_html(project: Project, lang: str) -> bytes:
    return build_html(tables_document(project, lang)).encode("utf-8")
