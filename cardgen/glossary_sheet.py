"""The bilingual glossary sheet: terms and card names, sorted by the language's collation.

Czech collation is done by :func:`czech_key` (no ICU): ch is a letter after h; č, ř, š, ž
follow c, r, s, z; acute, ring and the háček on d, t, n only break ties (a < á).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from io import BytesIO
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from .errors import CardgenError, Finding, Location, error
from .fonts import register_fonts
from .model import GameData
from .render.cmyk import CmykConverter, canvas_maker

_LETTERS = ("a", "b", "c", "č", "d", "e", "f", "g", "h", "ch", "i", "j", "k", "l", "m", "n",
            "o", "p", "q", "r", "ř", "s", "š", "t", "u", "v", "w", "x", "y", "z", "ž")
_ORDER = {letter: 100 + i for i, letter in enumerate(_LETTERS)}
_FOLD = {"á": "a", "ď": "d", "é": "e", "ě": "e", "í": "i", "ň": "n", "ó": "o", "ť": "t",
         "ú": "u", "ů": "u", "ý": "y"}


def _base(ch: str) -> str:
    return unicodedata.normalize("NFD", ch)[0]


def czech_key(text: str) -> tuple:
    """A sort key following Czech collation (primary letters, then accents, then case)."""
    primary: list[int] = []
    secondary: list[int] = []
    tertiary: list[int] = []
    low = text.lower()
    i = 0
    while i < len(low):
        if low.startswith("ch", i):
            primary.append(_ORDER["ch"])
            secondary.append(0)
            tertiary.append(0 if text[i].islower() else 1)
            i += 2
            continue
        ch = low[i]
        base = _FOLD.get(ch, ch)
        if base not in _ORDER and ch.isalpha():
            base = _base(ch)
        if base in _ORDER:
            primary.append(_ORDER[base])
            secondary.append(0 if base == ch else 1 + "áďéěíňóťúůý".find(ch))
        elif ch.isdigit():
            primary.append(10 + int(ch))
            secondary.append(0)
        elif ch.isspace():
            primary.append(1)
            secondary.append(0)
        else:  # punctuation sorts before digits and letters
            primary.append(2)
            secondary.append(ord(ch))
        tertiary.append(0 if text[i].islower() or not text[i].isalpha() else 1)
        i += 1
    return (tuple(primary), tuple(secondary), tuple(tertiary), text)


def english_key(text: str) -> tuple:
    folded = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return (folded.casefold(), text)


SORT_KEYS: dict[str, Callable[[str], tuple]] = {"cs": czech_key, "en": english_key}

#: Labels of card_data/text/<lang>.yaml that the sheet prints.
LABELS = ("glossary_title", "glossary_terms", "glossary_names", "glossary_head")


def styles(fonts: dict[str, str]) -> dict[str, ParagraphStyle]:
    return {
        "title": ParagraphStyle("title", fontName=fonts["bold"], fontSize=16, leading=20,
                                spaceAfter=6),
        "h": ParagraphStyle("h", fontName=fonts["bold"], fontSize=12, leading=15, spaceBefore=8,
                            spaceAfter=4),
        "body": ParagraphStyle("body", fontName=fonts["body"], fontSize=9, leading=11.5),
        "small": ParagraphStyle("small", fontName=fonts["body"], fontSize=8, leading=10),
        "italic": ParagraphStyle("italic", fontName=fonts["italic"], fontSize=8, leading=10),
    }


def term_pairs(data: GameData, lang: str) -> list[tuple[str, str]]:
    other = "cs" if lang == "en" else "en"
    rows = {(t.forms[lang][0], t.forms[other][0]) for t in data.glossary
            if t.forms.get(lang) and t.forms.get(other)}
    return sorted(rows, key=lambda r: (SORT_KEYS[lang](r[0]), r[1]))  # ties: other language


def name_pairs(data: GameData, lang: str) -> list[tuple[str, str]]:
    other = "cs" if lang == "en" else "en"
    rows = {(c.name.get(lang) or "", c.name.get(other) or "") for c in data.cards
            if c.name.get(lang)}
    return sorted(rows, key=lambda r: (SORT_KEYS[lang](r[0]), r[1]))  # ties: other language


def ruled_table(cells: list[list[Any]], widths: list[float], st: dict[str, ParagraphStyle],
                extra: Iterable[tuple] = ()) -> Table:
    """A table in the sheets' style: a rule under the head row, hairlines between rows."""
    table = Table(cells, colWidths=widths, repeatRows=1)
    table.setStyle(TableStyle([
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black),
        ("LINEBELOW", (0, 1), (-1, -1), 0.2, colors.lightgrey),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("FONTNAME", (0, 0), (-1, -1), st["body"].fontName),  # no stray Helvetica
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        *extra,
    ]))
    return table


def pair_table(rows: Iterable[tuple[str, str]], head: tuple[str, str],
               st: dict[str, ParagraphStyle], width: float) -> Table:
    cells = [[Paragraph(escape(head[0]), st["italic"]), Paragraph(escape(head[1]), st["italic"])]]
    cells += [[Paragraph(escape(a), st["body"]), Paragraph(escape(b), st["body"])]
              for a, b in rows]
    return ruled_table(cells, [width / 2, width / 2], st)


def label_findings(data: GameData, lang: str) -> list[Finding]:
    """The sheet's titles must be in card_data/text/<lang>.yaml (checked before a build)."""
    labels = (data.templates.get(lang) or {}).get("labels") or {}
    missing = [k for k in LABELS if k not in labels]
    if not missing:
        return []
    return [error("missing-label", f"card_data/text/{lang}.yaml has no "
                  f"{', '.join(missing)} in labels", lang=lang,
                  location=Location(f"card_data/text/{lang}.yaml"),
                  hint="add the glossary sheet's titles to labels")]


def build_glossary_sheet(data: GameData, lang: str, font_files: Mapping[str, Path],
                         cmyk: CmykConverter | None = None) -> bytes:
    """A PDF of the glossary terms and the card names, sorted for ``lang`` (en or cs).

    ``font_files`` are the layout's font files by role (body, bold, italic)."""
    found = label_findings(data, lang)
    if found:
        raise CardgenError(found)
    labels = data.templates[lang]["labels"]
    text = {k.removeprefix("glossary_"): labels[k] for k in LABELS}
    fonts = register_fonts(font_files)
    st = styles(fonts)
    buf = BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, leftMargin=18 * mm, rightMargin=18 * mm,
                            topMargin=15 * mm, bottomMargin=15 * mm, invariant=1,
                            initialFontName=fonts["body"], initialFontSize=9,
                            title=text["title"], author="cardgen", creator="cardgen",
                            subject="", keywords="")
    width = A4[0] - 36 * mm
    story = [Paragraph(escape(text["title"]), st["title"]),
             Paragraph(escape(text["terms"]), st["h"]),
             pair_table(term_pairs(data, lang), text["head"], st, width),
             Spacer(1, 4 * mm),
             Paragraph(escape(text["names"]), st["h"]),
             pair_table(name_pairs(data, lang), text["head"], st, width)]
    doc.build(story, canvasmaker=canvas_maker(cmyk))
    return buf.getvalue()
