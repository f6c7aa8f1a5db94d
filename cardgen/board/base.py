"""Shared pieces of the board, token and aid generators: layouts, labels, fonts, drawing.

Layout files (``layouts/board.yaml`` …) hold geometry in millimetres with y measured down
from the top trim edge; ``card_data/components.yaml`` holds quantities and every printed
word that is not a place, side, currency or shield name. Problems are collected as
findings and raised together in one :class:`~cardgen.errors.CardgenError`.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas as rl_canvas

from .. import fonts as shared_fonts
from ..data.layout import FONT_ROLES
from ..data.model import LANGS, GameData
from ..data.project import Project
from ..data.shape import check_shape
from ..data.sidefiles import Source, read_source, shape_of
from ..errors import CardgenError, Finding, error, has_errors
from ..files.safepath import resolved
from ..render.cmyk import CmykCanvas, CmykConverter
from ..wording.components import Components, load_components
from ..wording.language import NBSP

PAPERS: dict[str, tuple[float, float]] = {  # portrait, mm
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
}


def position_findings(data: GameData, src: Source) -> list[Finding]:
    """The board layout must place every country and battleground of the data."""
    out = []
    for group, category in (("countries", "country"), ("battlegrounds", "battleground")):
        placed = src.data[group]
        for pid, place in data.places.items():
            if place.category == category and pid not in placed:
                out.append(error("board-position", f"layouts/board.yaml has no position for "
                                 f"{category} '{pid}'", location=src.at(group),
                                 hint=f"add '{pid}: {{at: [x, y]}}' under {group}:"))
    return out


def display_name(name: str, lang: str) -> str:
    """A place name as a heading: English drops a leading article; first letter upper."""
    if lang == "en" and name.lower().startswith("the "):
        name = name[4:]
    return name[:1].upper() + name[1:]


# --- layouts ------------------------------------------------------------------------------


@dataclass
class Layout:
    source: Source
    fonts: dict[str, str] = field(default_factory=dict)

    @property
    def data(self) -> dict[str, Any]:
        return self.source.data

    def colour(self, key: str) -> HexColor:
        return HexColor(self.data["colours"][key])


def load_layout(project: Project, name: str) -> tuple[Layout | None, list[Finding]]:
    """``layouts/<name>.yaml`` checked, its fonts registered (made once per project)."""
    return project.derived(f"layout:{name}", lambda: _layout(project, name))


def _layout(project: Project, name: str) -> tuple[Layout | None, list[Finding]]:
    findings: list[Finding] = []
    src = read_source(project.documents, f"layouts/{name}.yaml", findings)
    if src is None:
        return None, findings
    shape = check_shape(src.raw, shape_of(name), src.raw.loc, name)
    findings += shape
    if shape:
        return None, findings
    fonts = src.data["fonts"]
    files: dict[str, Path] = {}
    for role in FONT_ROLES:
        rel = fonts.get(role)
        path = resolved(src.path.parent / str(rel), src.at("fonts", role), str(rel)) \
            if rel else None
        if path is not None and not path.is_relative_to(project.root.resolve()):
            findings.append(error("outside-project", f"the font for '{role}' is outside the "
                                  "project; cardgen reads only files inside the project",
                                  location=src.at("fonts", role),
                                  hint="copy the font into fonts/ and name it from there"))
        elif path is None or not path.is_file():
            findings.append(error("font-missing", f"font for '{role}' not found: {rel}",
                                  location=src.at("fonts", role) if rel else src.at("fonts"),
                                  hint="paths are relative to the layout file"))
        else:
            files[role] = path
    if len(files) != len(FONT_ROLES):
        return None, findings
    return Layout(src, shared_fonts.register_fonts(files)), findings


@dataclass
class Ctx:
    """Everything a generator needs for one language."""

    data: GameData
    lang: str
    layout: Layout
    comp: Components

    def label(self, key: str) -> str:
        return self.comp.label(key, self.lang)

    def font(self, role: str) -> str:
        return self.layout.fonts[role]

    def side_name(self, side: str) -> str:
        return self.data.sides[side].name.values[self.lang]

    def place_name(self, pid: str) -> str:
        return display_name(self.data.places[pid].name.values[self.lang], self.lang)


def make_ctx(project: Project, lang: str, layout_name: str) -> Ctx:
    """The layout and components; raise one CardgenError with every finding."""
    if lang not in LANGS:
        raise CardgenError(error("bad-lang", f"unknown language '{lang}'",
                                 hint=f"use one of: {', '.join(LANGS)}"))
    data = project.data
    layout, found = load_layout(project, layout_name)
    findings = list(found)
    if layout is not None and layout_name == "board":
        findings += position_findings(data, layout.source)
    comp, found = load_components(project)
    findings += found
    if has_errors(findings) or layout is None or comp is None:
        raise CardgenError(findings)
    return Ctx(data, lang, layout, comp)


# --- canvas helpers ------------------------------------------------------------------------


def new_canvas(size_mm: tuple[float, float], title: str, font: str,
               cmyk: CmykConverter | None = None) -> tuple[io.BytesIO, rl_canvas.Canvas]:
    """A deterministic canvas whose initial font is ``font`` (no stray Helvetica); every
    colour converted through ``cmyk`` when given."""
    buf = io.BytesIO()
    c = CmykCanvas(buf, pagesize=(size_mm[0] * mm, size_mm[1] * mm), invariant=1,
                   pageCompression=1, initialFontName=font, initialFontSize=10, cmyk=cmyk)
    c.setTitle(title)
    c.setAuthor("cardgen")
    c.setCreator("cardgen")
    return buf, c


@contextmanager
def saved(c: rl_canvas.Canvas) -> Iterator[None]:
    c.saveState()
    try:
        yield
    finally:
        c.restoreState()


def fit_size(text: str, font: str, size: float, width_mm: float, min_size: float = 5) -> float:
    """The largest size ≤ ``size`` at which ``text`` fits ``width_mm``."""
    w = pdfmetrics.stringWidth(text, font, size)
    if w <= width_mm * mm or w == 0:
        return size
    return max(min_size, size * width_mm * mm / w)


def text(c: rl_canvas.Canvas, x: float, y: float, s: str, font: str, size: float,
         align: str = "left", width: float | None = None) -> None:
    """Draw ``s`` with its baseline at (x, y) in mm (PDF coordinates: y up).

    A character the font lacks is an error, never a silent box.
    """
    lost = shared_fonts.missing_glyphs(font, s)
    if lost:
        raise CardgenError(error("missing-glyph", f"font {font} has no glyph for "
                                 f"{''.join(sorted(lost))!r} in {s!r}",
                                 hint="change the text or the layout's font"))
    s = s.replace(NBSP, " ")  # typography kept it together; the glyph is a space
    if width is not None:
        size = fit_size(s, font, size, width)
    c.setFont(font, size)
    if align == "centre":
        c.drawCentredString(x * mm, y * mm, s)
    elif align == "right":
        c.drawRightString(x * mm, y * mm, s)
    else:
        c.drawString(x * mm, y * mm, s)


def wrap(s: str, font: str, size: float, width_mm: float) -> list[str]:
    """Lines of ``s`` no wider than ``width_mm`` (millimetres, as board layouts are)."""
    return shared_fonts.wrap_words(s, font, size, width_mm * mm)
