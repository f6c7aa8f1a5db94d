"""Home print sheets: 3×3 cards per page with crop marks, duplex or gutterfold.

:func:`plan_sheets` is pure (which copy of which card sits where, page by page);
:func:`build_sheets` draws that plan and returns the PDF bytes. The manifest and the
reprint files read the same plan, so they always agree with the PDF.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from babel import Locale
from reportlab.lib.units import mm

from ..errors import CardgenError, Location, error
from ..fonts import missing_glyphs, register_font, wrap_words
from ..render.cmyk import CmykConverter
from ..wording.face import CardFace
from ..wording.language import NBSP, fix_text
from ..wording.sandbox import fill_in
from .canvas import CardForms, DrawBack, DrawFront, FormSource, PrintCanvas
from .geometry import (
    Box,
    CardSize,
    SheetGeometry,
    duplex_geometry,
    gutterfold_geometry,
    printable_area,
    visible_box,
)
from .spec import SheetSpec

INK = "#000000"
HALO = "#ffffff"  # under every crop mark, so it reads over the bleed it starts on
FOLD_DASH = (3, 2)  # pt
NOTE_GREY = "#9a9a9a"


@dataclass(frozen=True)
class BackSide:
    """How the backs pages of a duplex file forgive a real printer."""

    colour: str | None = None  # the back's colour, run out to the printer margin
    offset: tuple[float, float] = (0.0, 0.0)  # mm, right and up as seen on the back side


@dataclass(frozen=True)
class Placement:
    """One printed side of one physical card on a sheet (rows, columns 0-based)."""

    card_id: str
    copy: int  # 1-based copy number of this card
    side: str  # front | back
    row: int
    col: int
    trim: Box  # mm, page coordinates
    visible: Box  # trim plus the outer bleed where the card has no neighbour


@dataclass(frozen=True)
class Page:
    kind: str  # info | blank | fronts | backs | gutterfold
    placements: tuple[Placement, ...] = ()


@dataclass(frozen=True)
class SheetPlan:
    geometry: SheetGeometry
    flip: str | None  # long | short | None (gutterfold: single-sided)
    pages: tuple[Page, ...]
    cards: int  # physical cards

    @property
    def paper(self) -> str:
        return self.geometry.paper.id


def _check_faces(faces: Sequence[CardFace]) -> None:
    seen: set[str] = set()
    findings = []
    for face in faces:
        if face.card_id in seen:
            findings.append(error("duplicate-card", f"card '{face.card_id}' is listed twice "
                                  "for one sheet file", card=face.card_id, lang=face.lang))
        if face.copies < 1:
            findings.append(error("bad-copies", f"card '{face.card_id}' has {face.copies} "
                                  "copies; a printed card needs at least 1",
                                  card=face.card_id, lang=face.lang))
        seen.add(face.card_id)
    if findings:
        raise CardgenError(findings)


def physical_cards(faces: Sequence[CardFace]) -> list[tuple[CardFace, int]]:
    """Every physical card in order: (face, copy number 1..copies)."""
    return [(face, n) for face in faces for n in range(1, face.copies + 1)]


def plan_sheets(faces: Sequence[CardFace], card: CardSize, spec: SheetSpec, paper: str,
                flip: str = "long", gutterfold: bool = False) -> SheetPlan:
    """Which physical card goes where; pure, no drawing."""
    _check_faces(faces)
    geom = (gutterfold_geometry(spec, card, paper) if gutterfold
            else duplex_geometry(spec, card, paper, flip))
    cards = physical_cards(faces)
    per_page = len(geom.fronts)
    pages: list[Page] = [Page("info")] if gutterfold else [Page("info"), Page("blank")]
    for start in range(0, len(cards), per_page):
        chunk = cards[start:start + per_page]
        fronts_occ = {(s.row, s.col) for s in geom.fronts[:len(chunk)]}
        backs_occ = {(s.row, s.col) for s in geom.backs[:len(chunk)]}
        fronts, backs = [], []
        for (face, copy), f_slot, b_slot in zip(chunk, geom.fronts, geom.backs, strict=False):
            fronts.append(Placement(face.card_id, copy, "front", f_slot.row, f_slot.col,
                                    f_slot.trim,
                                    visible_box(f_slot, fronts_occ, *geom.outer("front"))))
            backs.append(Placement(face.card_id, copy, "back", b_slot.row, b_slot.col,
                                   b_slot.trim,
                                   visible_box(b_slot, backs_occ, *geom.outer("back"))))
        if gutterfold:
            pages.append(Page("gutterfold", tuple(fronts + backs)))
        else:
            pages += [Page("fronts", tuple(fronts)), Page("backs", tuple(backs))]
    return SheetPlan(geom, None if gutterfold else flip, tuple(pages), len(cards))


def sheet_count(plan: SheetPlan) -> int:
    """Physical sheets of paper the plan prints on."""
    return len(plan.pages) if plan.flip is None else math.ceil(len(plan.pages) / 2)


def build_sheets(faces: Sequence[CardFace], draw_front: DrawFront, draw_back: DrawBack,
                 card: CardSize, spec: SheetSpec, paper: str, lang: str, flip: str = "long",
                 gutterfold: bool = False, cmyk: CmykConverter | bool | None = None,
                 backs: BackSide = BackSide(), source: FormSource | None = None) -> bytes:
    """The home-printing PDF for ``faces`` on ``paper``; returns its bytes.

    Page 1 explains how to print (with a 100 mm ruler and the card count); in duplex files
    page 2 is its reverse (blank but for a small note, so no driver skips it), then each
    fronts page is followed by its backs page.
    """
    plan = plan_sheets(faces, card, spec, paper, flip, gutterfold)
    return render_plan(plan, faces, draw_front, draw_back, card, spec, lang, cmyk, backs,
                       source)


def render_plan(plan: SheetPlan, faces: Sequence[CardFace], draw_front: DrawFront,
                draw_back: DrawBack, card: CardSize, spec: SheetSpec, lang: str,
                cmyk: CmykConverter | bool | None = None, backs: BackSide = BackSide(),
                source: FormSource | None = None) -> bytes:
    """Draw a :class:`SheetPlan`; every card is a form placed by reference (drawn once here,
    or taken from ``source``)."""
    geom = plan.geometry
    texts = _instructions(plan, spec, lang)
    buf = io.BytesIO()
    c = PrintCanvas(buf, (geom.page_w, geom.page_h), cmyk=cmyk, title=texts[0],
                    font=register_font(spec.font))
    duplex = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}.get(plan.flip or "",
                                                                              "Simplex")
    c.set_print_preferences(duplex)
    forms = CardForms(c, card, draw_front, draw_back, source)
    by_id = {face.card_id: face for face in faces}
    for page in plan.pages:
        if page.kind == "info":
            _draw_info(c, geom, spec, texts)
        elif page.kind == "blank":
            _draw_note(c, geom, spec, spec.strings[lang]["blank_page"])
        if page.kind == "backs":
            c.saveState()
            c.translate(backs.offset[0] * mm, backs.offset[1] * mm)
            if backs.colour:
                _draw_runout(c, geom, spec, page.placements, backs.colour)
        for p in page.placements:
            name = forms.front(by_id[p.card_id]) if p.side == "front" else forms.back()
            forms.place(name, p.trim, p.visible)
        if page.kind in ("fronts", "gutterfold"):
            _draw_marks(c, geom.marks, spec)
        elif page.kind == "backs":
            _draw_marks(c, geom.back_marks, spec)
            c.restoreState()
        if page.kind == "gutterfold":
            _draw_fold(c, geom, spec)
        c.showPage()
    c.save()
    return buf.getvalue()


def _draw_marks(c: PrintCanvas, marks: Sequence, spec: SheetSpec) -> None:
    """Thin black marks on a white halo three times as wide."""
    c.saveState()
    c.setLineCap(0)
    for colour, width in ((HALO, spec.marks.width_pt * 3), (INK, spec.marks.width_pt)):
        c.setStrokeColor(colour)
        c.setLineWidth(width)
        for s in marks:
            c.line(s.x1 * mm, s.y1 * mm, s.x2 * mm, s.y2 * mm)
    c.restoreState()


def _draw_runout(c: PrintCanvas, geom: SheetGeometry, spec: SheetSpec,
                 placements: Sequence[Placement], colour: str) -> None:
    """Under each back, its colour out to the printer margin on every side that faces the
    paper's edge, so a duplex drift of a few millimetres shows back colour, not paper."""
    area = printable_area(geom.page_w, geom.page_h, spec.printer_margin)
    slots = [s.trim for s in geom.backs]
    left, right = min(b.x for b in slots), max(b.right for b in slots)
    bottom, top = min(b.y for b in slots), max(b.top for b in slots)
    tol = 1e-6
    c.saveState()
    c.setFillColor(colour)
    for p in placements:
        t, v = p.trim, p.visible
        x0 = area.x if abs(t.x - left) < tol else v.x
        x1 = area.right if abs(t.right - right) < tol else v.right
        y0 = area.y if abs(t.y - bottom) < tol else v.y
        y1 = area.top if abs(t.top - top) < tol else v.top
        c.rect(x0 * mm, y0 * mm, (x1 - x0) * mm, (y1 - y0) * mm, stroke=0, fill=1)
    c.restoreState()


def _draw_note(c: PrintCanvas, geom: SheetGeometry, spec: SheetSpec, text: str) -> None:
    """A small grey line at the foot of an otherwise blank page, so drivers print it."""
    font = register_font(spec.font)
    lost = missing_glyphs(font, text)
    if lost:
        raise CardgenError(error("missing-glyph", f"the sheet font lacks {sorted(lost)} "
                                 f"for: {text}", location=spec.loc))
    c.saveState()
    c.setFillColor(NOTE_GREY)
    c.setFont(font, 7)
    c.drawCentredString(geom.page_w / 2 * mm, (spec.printer_margin + 4) * mm, text)
    c.restoreState()


def _draw_fold(c: PrintCanvas, geom: SheetGeometry, spec: SheetSpec) -> None:
    fold = geom.fold
    if fold is None:
        return
    c.saveState()
    c.setStrokeColor(INK)
    c.setLineWidth(spec.marks.width_pt * 2)
    c.setDash(*FOLD_DASH)
    c.line(fold.x1 * mm, fold.y1 * mm, fold.x2 * mm, fold.y2 * mm)
    c.restoreState()


def plural(spec: SheetSpec, lang: str, key: str, n: int) -> str:
    forms = spec.strings[lang][key]
    category = Locale.parse(lang).plural_form(n)
    return fill_in(forms.get(category, forms["other"]), n=n)


def _instruction_strings(spec: SheetSpec, lang: str) -> Mapping[str, Any]:
    if lang not in spec.strings:
        raise CardgenError(error(
            "missing-translation",
            f"layouts/sheets.yaml has no instruction strings for language '{lang}'",
            location=Location("layouts/sheets.yaml"), lang=lang,
            hint=f"add a 'strings: {lang}:' table like the 'en' one"))
    return spec.strings[lang]


def _instructions(plan: SheetPlan, spec: SheetSpec, lang: str) -> list[str]:
    s = _instruction_strings(spec, lang)
    cards = plural(spec, lang, "count", plan.cards)
    sheets = plural(spec, lang, "sheet", sheet_count(plan) - 1)  # the instructions' apart
    how = (s["gutterfold"] if plan.flip is None
           else s["duplex_long"] if plan.flip == "long" else s["duplex_short"])
    lines = [s["title"],
             fill_in(s["contents"], cards=cards, sheets=sheets, paper=plan.geometry.paper.name),
             s["actual_size"], how, s["cut"]]
    if plan.flip is not None:
        lines.append(s["blank_back"])
    lines.append(s["ruler"])
    return [fix_text(line, lang) for line in lines]  # the typography of card text


def _draw_info(c: PrintCanvas, geom: SheetGeometry, spec: SheetSpec, lines: list[str]) -> None:
    body, bold = register_font(spec.font), register_font(spec.bold_font)
    for font, text in [(bold, lines[0])] + [(body, t) for t in lines[1:]]:
        lost = missing_glyphs(font, text)
        if lost:
            raise CardgenError(error("missing-glyph", f"the sheet font lacks {sorted(lost)} "
                                     f"for: {text}", location=spec.loc))
    left = 20 * mm
    width = geom.page_w * mm - 2 * left
    y = geom.page_h * mm - 30 * mm
    c.setFillColor(INK)
    c.setFont(bold, 16)
    c.drawString(left, y, lines[0].replace(NBSP, " "))
    y -= 14 * mm
    for text in lines[1:-1]:
        for row in wrap_words(text, body, 11, width):
            c.setFont(body, 11)
            c.drawString(left, y, row)
            y -= 15
        y -= 8
    y -= 10 * mm
    c.setFont(body, 11)
    c.drawString(left, y, lines[-1].replace(NBSP, " "))
    _draw_ruler(c, left, y - 18 * mm, body)


def _draw_ruler(c: PrintCanvas, x: float, y: float, font: str) -> None:
    """A 100 mm ruler: a baseline with ticks every millimetre, labelled every centimetre."""
    c.saveState()
    c.setStrokeColor(INK)
    c.setFillColor(INK)
    c.setLineWidth(0.4)
    c.line(x, y, x + 100 * mm, y)
    for i in range(101):
        tick = 6 if i % 10 == 0 else 4 if i % 5 == 0 else 2.5
        c.line(x + i * mm, y, x + i * mm, y + tick * mm)
        if i % 10 == 0:
            c.setFont(font, 8)
            c.drawCentredString(x + i * mm, y - 4 * mm, str(i // 10) if i < 100 else "10 cm")
    c.restoreState()
