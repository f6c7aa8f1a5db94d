"""The translator's proof (output/proof/cs-en.pdf): English and Czech side by side.

Page 1: the summary (cards, errors, warnings, untranslated texts) and the glossary. Then one
section per card: the EN and CS faces drawn by the renderer at readable size, each text of
the card in both languages beneath, and that card's findings, errors first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from io import BytesIO
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from .check.lang import card_texts, is_untranslated
from .errors import CardgenError, Finding, Severity
from .fonts import register_fonts
from .glossary_sheet import pair_table, styles
from .model import GameData

DrawCard = Callable[[Any, Any, Any, tuple[float, float]], Any]
_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
MARGIN = 15 * mm
FRAME_W = A4[0] - 2 * MARGIN


class CardPair(Flowable):
    """The EN and CS faces of one card next to each other, scaled to ``scale``."""

    def __init__(self, faces: Sequence[Any | None], draw_card: DrawCard, layout: Any,
                 font: str, gap: float = 8 * mm):
        super().__init__()
        self.faces, self.draw_card, self.layout, self.font, self.gap = (
            faces, draw_card, layout, font, gap)
        w, h = layout.page_size
        self.scale = min(1.3, (FRAME_W - gap) / (2 * w))
        self.card_w, self.card_h = w * self.scale, h * self.scale
        self.width, self.height = 2 * self.card_w + gap, self.card_h

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        for i, face in enumerate(self.faces):
            x = i * (self.card_w + self.gap)
            c.saveState()
            c.translate(x, 0)
            problem = None
            if face is None:
                problem = "no face"
            else:
                c.saveState()
                c.scale(self.scale, self.scale)
                try:
                    self.draw_card(c, face, self.layout, (0, 0))
                except CardgenError as exc:
                    problem = exc.findings[0].message if exc.findings else str(exc)
                c.restoreState()
            if problem:
                c.setStrokeColor(colors.red)
                c.rect(0, 0, self.card_w, self.card_h, stroke=1, fill=0)
                c.setFont(self.font, 8)
                c.drawString(4, self.card_h / 2, problem[:80])
            c.restoreState()


def _count(findings: Sequence[Finding], severity: Severity) -> int:
    return sum(1 for f in findings if f.severity is severity)


def _finding_line(f: Finding) -> str:
    where = f" {f.location}" if f.location else ""
    lang = f" ({f.lang})" if f.lang else ""
    rule = f" [rule {f.rule}]" if f.rule else ""
    hint = f" — fix: {f.hint}" if f.hint else ""
    return f"{f.severity.value}[{f.code}]{lang}{where}: {f.message}{rule}{hint}"


def build_proof(data: GameData, faces_en: Sequence[Any], faces_cs: Sequence[Any],
                findings: Sequence[Finding], draw_card: DrawCard, layout: Any,
                only_problems: bool = False) -> bytes:
    """The proof PDF as bytes (deterministic: same input, same bytes)."""
    fonts = register_fonts(layout.fonts)
    st = styles(fonts)
    by_card: dict[str | None, list[Finding]] = {}
    for f in findings:
        by_card.setdefault(f.card, []).append(f)
    en = {face.card_id: face for face in faces_en}
    cs = {face.card_id: face for face in faces_cs}
    order = list(dict.fromkeys([*en, *cs, *(c.id for c in data.cards)]))

    errors, warnings = _count(findings, Severity.ERROR), _count(findings, Severity.WARNING)
    untranslated = sum(1 for f in findings if is_untranslated(f))
    summary = [["Cards / Karty", str(len(data.cards))],
               ["Errors / Chyby", str(errors)],
               ["Warnings / Varování", str(warnings)],
               ["Untranslated / Nepřeloženo", str(untranslated)]]
    table = Table([[Paragraph(escape(a), st["body"]), Paragraph(b, st["body"])]
                   for a, b in summary], colWidths=[60 * mm, 30 * mm])
    table.setStyle(TableStyle([("LINEBELOW", (0, 0), (-1, -1), 0.2, colors.lightgrey),
                               ("FONTNAME", (0, 0), (-1, -1), fonts["body"])]))
    story: list[Flowable] = [
        Paragraph("Proof: English / Czech — korektura: anglicky / česky", st["title"]),
        Paragraph(escape(f"rules {data.game.rules_version}, data {data.game.data_version}"),
                  st["small"]),
        Spacer(1, 3 * mm), table,
        Paragraph("Glossary / Slovníček pojmů", st["h"]),
        pair_table(sorted({(t.forms["en"][0], t.forms["cs"][0]) for t in data.glossary},
                          key=lambda r: r[0].casefold()),
                   ("English", "česky"), st, FRAME_W),
    ]
    general = by_card.get(None, [])
    if general:
        story.append(Paragraph("Data findings / Nálezy v datech", st["h"]))
        story += [Paragraph(escape(_finding_line(f)), st["small"])
                  for f in sorted(general, key=lambda f: _ORDER[f.severity])]

    for card_id in order:
        card = data.card(card_id)
        mine = sorted(by_card.get(card_id, []), key=lambda f: _ORDER[f.severity])
        if only_problems and not any(f.severity is not Severity.INFO for f in mine):
            continue
        story.append(PageBreak())
        names = " / ".join(n for n in (card.name.get("en"), card.name.get("cs")) if n) \
            if card else card_id
        number = f"{card.deck} {card.number}: " if card else ""
        story.append(Paragraph(escape(f"{number}{names}  ({card_id})"), st["h"]))
        story.append(CardPair([en.get(card_id), cs.get(card_id)], draw_card, layout,
                              fonts["body"]))
        story.append(Spacer(1, 3 * mm))
        if card is not None:
            rows = [[Paragraph(escape(t.key), st["italic"]),
                     Paragraph(escape(t.text.get("en") or "—"), st["small"]),
                     Paragraph(escape(t.text.get("cs") or "—"), st["small"])]
                    for t in card_texts(card)]
            text_table = Table(rows, colWidths=[22 * mm, (FRAME_W - 22 * mm) / 2,
                                                (FRAME_W - 22 * mm) / 2])
            text_table.setStyle(TableStyle([
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("FONTNAME", (0, 0), (-1, -1), fonts["body"]),
                ("LINEBELOW", (0, 0), (-1, -1), 0.2, colors.lightgrey)]))
            story.append(text_table)
        for f in mine:
            colour = {"error": "#b00020", "warning": "#8a5a00"}.get(f.severity.value, "#555555")
            story.append(Paragraph(f'<font color="{colour}">{escape(_finding_line(f))}</font>',
                                   st["small"]))
    buf = BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN,
                            topMargin=MARGIN, bottomMargin=MARGIN, invariant=1,
                            initialFontName=fonts["body"], initialFontSize=9,
                            title="cardgen proof cs-en", author="cardgen", creator="cardgen",
                            subject="", keywords="")
    doc.build(story)
    return buf.getvalue()
