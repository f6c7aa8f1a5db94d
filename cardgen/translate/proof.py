"""The translator's proof (output/proof/cs-en.pdf): a review sheet, English and Czech.

Page 1: the summary (cards, errors, warnings, untranslated texts; with ``earlier``, what it
was compared with, and the cards changed, new and removed), the legend and the glossary.
Then several cards per landscape page: the EN and CS faces drawn by the renderer (a face
whose text does not fit is framed in red with the lines it drops), beside them a table of
the card's texts as printed — English, written Czech, the canonical Czech rendered from the
effects by the Czech wording templates, and each text's translation state — and beneath,
the card's findings, errors first. With ``earlier`` only the changed cards are shown, the
changed words marked and the earlier wording under each changed text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from io import BytesIO
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from ..check.lang import is_untranslated
from ..data.model import LINE_KINDS, Card, GameData
from ..errors import Finding, Severity
from ..fonts import register_fonts
from ..render.card import inline_icons
from ..render.cmyk import canvas_maker
from ..render.textflow import IconSet
from ..tables.glossary import headword, pair_table, styles
from ..wording.face import CardFace
from ..wording.templates import TextError, canonical_text, normalize, typography
from .proof_cells import CardPair, DrawCard, MarkedText
from .review import Change, Earlier, Run, changes, keys_in_order, plain, removed, texts_of, word_diff

_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
PAGE = landscape(A4)
MARGIN = 12 * mm
FRAME_W = PAGE[0] - 2 * MARGIN
PAIR_W = 68 * mm  # the two faces, side by side (vector: zoom in to read them)
#: widths of the text table's columns: key, English, Czech, canonical Czech, state
COLUMNS = (17 * mm, 55 * mm, 55 * mm, 55 * mm, FRAME_W - PAIR_W - 4 * mm - 182 * mm)
#: the proof is the Czech proofreader's document: its labels are English / Czech (issue 41,
#: no. 18); the findings stay English, as `cardgen check` prints them (the page says so)
HEAD = ("", "English / anglicky", "Czech as written / česky, jak je psáno",
        "canonical Czech / kanonická čeština", "state / stav")
#: a text's translation state (translation.STATES, and a printed label's "template")
STATE = {"untranslated": "untranslated / nepřeloženo", "translated": "translated / přeloženo",
         "fuzzy": "fuzzy / nejisté", "reviewed": "reviewed / zkontrolováno",
         "template": "template / šablona"}
#: the glossary's headword pairs are set in this many columns, so page 1 holds them
GLOSSARY_COLUMNS = 4


def _count(findings: Sequence[Finding], severity: Severity) -> int:
    return sum(1 for f in findings if f.severity is severity)


def _finding_line(f: Finding) -> str:
    where = f" {f.location}" if f.location else ""
    lang = f" ({f.lang})" if f.lang else ""
    rule = f" [rule {f.rule}]" if f.rule else ""
    hint = f" — fix: {f.hint}" if f.hint else ""
    return f"{f.severity.value}[{f.code}]{lang}{where}: {f.message}{rule}{hint}"


def _all_icons(faces: Sequence[CardFace]) -> dict[str, IconSet]:
    """Per card, an icon set knowing every currency and shield of the language, so an
    earlier text's tokens draw too."""
    currencies = {c.id: c for f in faces for c in f.currencies}
    shields = {s.id: s for f in faces for s in (*f.shields, *([f.shield] if f.shield else []))}
    return {f.card_id: inline_icons(replace(f, currencies=tuple(currencies.values()),
                                            shields=tuple(shields.values())))
            for f in faces}


def _canonical(data: GameData, card: Card, key: str) -> str | None:
    """The Czech the wording templates render from the line's effects, as printed."""
    line = card.line(key) if key in LINE_KINDS else None
    if line is None or not line.effects:
        return None
    try:
        return typography(canonical_text(data, card, line, "cs"), "cs")
    except TextError as exc:
        return f"(no canonical text: {exc})"


class _Sheet:
    """What every card block of one proof shares."""

    def __init__(self, data: GameData, faces: Mapping[str, Sequence[CardFace]],
                 draw_card: DrawCard, layout: Any, fonts: dict[str, str],
                 earlier: Earlier | None, states: Mapping[str, str]):
        self.data, self.draw_card, self.layout, self.fonts = data, draw_card, layout, fonts
        self.states = states
        self.st = styles(fonts)
        self.faces = {lang: {f.card_id: f for f in fs} for lang, fs in faces.items()}
        self.texts = {lang: texts_of(fs) for lang, fs in faces.items()}
        self.icons = {lang: _all_icons(fs) for lang, fs in faces.items()}
        self.earlier = earlier
        self.head = ParagraphStyle("card", parent=self.st["h"], fontSize=10.5, leading=13,
                                   spaceBefore=0, spaceAfter=2)

    def text(self, runs: list[Run], lang: str, card_id: str, mark: str = "new",
             prefix: str | None = None, colour: Any = colors.black) -> MarkedText | None:
        icons = self.icons[lang].get(card_id)
        if icons is None:
            return None
        return MarkedText(runs, self.fonts, icons, mark=mark, prefix=prefix, colour=colour)

    def cell(self, card_id: str, key: str, lang: str, change: Change | None) -> list[Flowable]:
        """One language's text: changed words marked, and the earlier wording beneath."""
        now = self.texts[lang].get(card_id, {}).get(key)
        before = None
        if change is not None and lang in change.langs:
            before = self.earlier.texts[lang].get(card_id, {}).get(key) if self.earlier else None
            if before == now:
                before = None
            elif before is None:
                before = ""
        if before is None:
            cells = [self.text(plain(now or ""), lang, card_id)]
        else:
            new_runs, old_runs = word_diff(before, now or "")
            cells = [self.text(new_runs, lang, card_id),
                     self.text(old_runs, lang, card_id, mark="old", prefix="was:",
                               colour=colors.HexColor("#555555"))]
        return [c for c in cells if c is not None]

    def canonical_cell(self, card: Card, key: str) -> list[Flowable]:
        canon = _canonical(self.data, card, key)
        if canon is None:
            return []
        written = self.texts["cs"].get(card.id, {}).get(key) or ""
        if normalize(canon) == normalize(written):
            runs = plain(canon)
        else:
            runs, _ = word_diff(written, canon)
        cell = self.text(runs, "cs", card.id, mark="canon")
        return [cell] if cell else []

    def table(self, card: Card, change: Change | None) -> Table:
        keys = keys_in_order([self.texts[lang].get(card.id, {}) for lang in ("en", "cs")])
        rows: list[list[Any]] = [[Paragraph(escape(h), self.st["italic"]) for h in HEAD]]
        for key in keys:
            # a card text's translation state, as `cardgen check` counts it; a printed
            # label (the deck's name, a kind) is no text of the card: its template's
            state = self.states.get(f"{card.id}:{key}", "template")
            rows.append([Paragraph(escape(key), self.st["italic"]),
                         self.cell(card.id, key, "en", change),
                         self.cell(card.id, key, "cs", change),
                         self.canonical_cell(card, key),
                         Paragraph(escape(STATE.get(state, state)), self.st["small"])])
        table = Table(rows, colWidths=COLUMNS, repeatRows=1)
        table.setStyle(TableStyle([
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("FONTNAME", (0, 0), (-1, -1), self.fonts["body"]),
            ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black),
            ("LINEBELOW", (0, 1), (-1, -1), 0.2, colors.lightgrey),
            ("LEFTPADDING", (0, 0), (-1, -1), 3),
            ("RIGHTPADDING", (0, 0), (-1, -1), 3)]))
        return table

    def block(self, card_id: str, findings: list[Finding], change: Change | None) -> Flowable:
        card = self.data.card(card_id)
        names = (" / ".join(n for n in (card.name.get("en"), card.name.get("cs")) if n)
                 if card else card_id)
        number = f"{card.deck} {card.number}: " if card else ""
        why = f" — {change.describe()}" if change else ""
        parts: list[Flowable] = [Paragraph(escape(f"{number}{names}  ({card_id}){why}"),
                                           self.head)]
        pair = CardPair([self.faces["en"].get(card_id), self.faces["cs"].get(card_id)],
                        self.draw_card, self.layout, self.fonts["body"], PAIR_W)
        right = self.table(card, change) if card is not None else Spacer(1, 1)
        row = Table([[pair, right]], colWidths=[PAIR_W + 4 * mm, FRAME_W - PAIR_W - 4 * mm])
        row.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                                 ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                 ("RIGHTPADDING", (0, 0), (-1, -1), 0)]))
        parts.append(row)
        for line in self.earlier.values.get(card_id, []) if self.earlier else []:
            parts.append(Paragraph(escape(f"value / hodnota: {line}"), self.st["small"]))
        for f in sorted(findings, key=lambda f: _ORDER[f.severity]):
            colour = {"error": "#b00020", "warning": "#8a5a00"}.get(f.severity.value, "#555555")
            parts.append(Paragraph(f'<font color="{colour}">{escape(_finding_line(f))}</font>',
                                   self.st["small"]))
        parts.append(Spacer(1, 2.5 * mm))
        return KeepTogether(parts)


def _legend(sheet: _Sheet) -> Table | None:
    """What the marks mean, each shown as the tables draw it."""
    some = next(iter(sheet.icons["cs"]), None)
    if some is None:
        return None
    nb = "\u00a0"
    items = [(sheet.text([("slovo", True)], "cs", some),
              "words changed since the earlier state / slova změněná od dřívějšího stavu"),
             (sheet.text([("slovo", True)], "cs", some, mark="old"),
              "words removed: the earlier wording, after “was:” / odebraná slova: dřívější "
              "znění za „was:“"),
             (sheet.text([("slovo", True)], "cs", some, mark="canon"),
              "canonical Czech words the written Czech does not have / slova kanonické "
              "češtiny, která psaná čeština nemá"),
             (sheet.text([(f"2{nb}karty", False)], "cs", some),
              "a non-breaking space / nezlomitelná mezera"),
             (sheet.text([(":church: :german: :western: :eastern:", False)], "cs", some),
              "the :token: placeholders, drawn as the card draws them / zástupné značky "
              ":token: nakreslené tak, jak je kreslí karta"),
             (Paragraph('<font color="#d0021b">red frame / červený rámeček</font>',
                        sheet.st["small"]),
              "a card whose text does not fit: how many lines it drops / karta, jejíž text "
              "se nevejde: kolik řádků vypustí")]
    table = Table([[cell, Paragraph(escape(text), sheet.st["small"])] for cell, text in items],
                  colWidths=[42 * mm, 200 * mm], hAlign="LEFT")
    table.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("TOPPADDING", (0, 0), (-1, -1), 0.5),
                               ("BOTTOMPADDING", (0, 0), (-1, -1), 0.5)]))
    return table


def _glossary(data: GameData, st: dict[str, Any]) -> Table:
    """The glossary's headwords in :data:`GLOSSARY_COLUMNS` columns of pairs, so page 1
    holds it under the summary and the legend."""
    rows = sorted({(headword(t, "en"), headword(t, "cs")) for t in data.glossary},
                  key=lambda r: r[0].casefold())
    n = GLOSSARY_COLUMNS
    per = -(-len(rows) // n)
    width = FRAME_W / n - 3 * mm
    return Table([[pair_table(rows[i * per:(i + 1) * per], ("English", "česky"), st, width)
                   for i in range(n)]],
                 colWidths=[FRAME_W / n] * n,
                 style=[("VALIGN", (0, 0), (-1, -1), "TOP"),
                        ("LEFTPADDING", (0, 0), (-1, -1), 0)])


def build_proof(data: GameData, faces_en: Sequence[CardFace], faces_cs: Sequence[CardFace],
                findings: Sequence[Finding], draw_card: DrawCard, layout: Any, *,
                only_problems: bool = False, earlier: Earlier | None = None,
                states: Mapping[str, str], hashes: Mapping[str, Mapping[str, str]] | None = None
                ) -> bytes:
    """The proof PDF as bytes (deterministic: same input, same bytes).

    ``states``: PO context → translation state (:func:`~.translation.text_states`).

    With ``earlier`` only the cards changed since then are shown (``hashes``: the current
    content hashes by language, to find cards whose drawing alone changed)."""
    fonts = register_fonts(layout.fonts)
    sheet = _Sheet(data, {"en": faces_en, "cs": faces_cs}, draw_card, layout, fonts, earlier,
                   states)
    st = sheet.st
    by_card: dict[str | None, list[Finding]] = {}
    for f in findings:
        by_card.setdefault(f.card, []).append(f)
    order = list(dict.fromkeys([*sheet.faces["en"], *sheet.faces["cs"],
                                *(c.id for c in data.cards)]))
    changed = changes(earlier, sheet.texts, hashes) if earlier else None

    untranslated = sum(1 for f in findings if is_untranslated(f))
    summary = [["Cards / Karty", str(len(data.cards))],
               ["Errors / Chyby", str(_count(findings, Severity.ERROR))],
               ["Warnings / Varování", str(_count(findings, Severity.WARNING))],
               ["Untranslated / Nepřeloženo", str(untranslated)]]
    if earlier is not None and changed is not None:
        gone = removed(earlier, sheet.texts)
        summary += [["Compared with / Porovnáno s", earlier.label],
                    ["Changed / Změněno", str(sum(1 for c in changed.values() if not c.new))],
                    ["New / Nové", str(sum(1 for c in changed.values() if c.new))],
                    ["Removed / Odebráno",
                     ", ".join(f"{cid} ({name})" if name else cid for cid, name in gone) or "0"]]
    table = Table([[Paragraph(escape(a), st["body"]), Paragraph(escape(b), st["body"])]
                   for a, b in summary], colWidths=[60 * mm, 120 * mm])
    table.setStyle(TableStyle([("LINEBELOW", (0, 0), (-1, -1), 0.2, colors.lightgrey),
                               ("FONTNAME", (0, 0), (-1, -1), fonts["body"])]))
    story: list[Flowable] = [
        Paragraph("Proof: English / Czech — korektura: anglicky / česky", st["title"]),
        Paragraph(escape(f"rules {data.game.rules_version}, data {data.game.data_version}"),
                  st["small"]),
        Spacer(1, 3 * mm), table, Spacer(1, 3 * mm),
    ]
    legend = _legend(sheet)
    if legend is not None:
        story.append(legend)
    # the heading with what it heads (the glossary is one block; findings: the first)
    story.append(KeepTogether([Paragraph("Glossary / Slovníček pojmů", st["h"]),
                               _glossary(data, st)]))
    general = by_card.get(None, [])
    if general:
        lines = [Paragraph(escape(_finding_line(f)), st["small"])
                 for f in sorted(general, key=lambda f: _ORDER[f.severity])]
        story += [KeepTogether([Paragraph("Data findings / Nálezy v datech", st["h"]),
                                Paragraph("as cardgen check prints them, in English / tak, "
                                          "jak je vypisuje cardgen check, anglicky",
                                          st["italic"]), lines[0]]), *lines[1:]]
    story.append(PageBreak())
    shown = 0
    for card_id in order:
        mine = by_card.get(card_id, [])
        if only_problems and not any(f.severity is not Severity.INFO for f in mine):
            continue
        if changed is not None and card_id not in changed and not (
                earlier is not None and card_id in earlier.values):
            continue
        story.append(sheet.block(card_id, mine, changed.get(card_id) if changed else None))
        shown += 1
    if not shown:
        story.append(Paragraph("No card to show: nothing changed. / Žádná změna.", st["h"]))
    buf = BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=PAGE, leftMargin=MARGIN, rightMargin=MARGIN,
                            topMargin=MARGIN, bottomMargin=MARGIN, invariant=1,
                            initialFontName=fonts["body"], initialFontSize=9,
                            title="cardgen proof cs-en", author="cardgen", creator="cardgen",
                            subject="", keywords="")
    doc.build(story, canvasmaker=canvas_maker(None))  # a /ID of its own (render.pdfid)
    return buf.getvalue()

