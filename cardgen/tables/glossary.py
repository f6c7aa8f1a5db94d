"""The bilingual glossary sheet, sorted by the language's collation: terms under their
first form (a verb's infinitive) with their other forms, the forbidden variants, places in
every form card text uses, shields, currencies and nouns after numbers (one phrase per
Babel plural category, with a number of that category), Deed names and card names.

Czech collation is done by :func:`czech_key` (no ICU): ch is a letter after h; č, ř, š, ž
follow c, r, s, z; acute, ring and the háček on d, t, n only break ties (a < á).
"""

from __future__ import annotations

import re
import re._parser as sre  # the standard parser: spells out a forbidden variant's few forms
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from io import BytesIO
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from babel.numbers import format_decimal
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    BalancedColumns,
    CondPageBreak,
    Flowable,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.tables import CellStyle

from ..data.model import GameData
from ..errors import CardgenError, Finding, Location, error
from ..fonts import register_fonts
from ..render.cmyk import CmykConverter, canvas_maker
from ..wording.language import fix_text, plural_category
from ..wording.templates import capitalised

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
LABELS = ("glossary_title", "glossary_terms", "glossary_names", "glossary_head",
          "glossary_places", "glossary_shields", "glossary_currencies", "glossary_deeds",
          "glossary_nouns", "glossary_forbidden", "glossary_forms", "glossary_use",
          "glossary_card", "glossary_not_deed", "glossary_why", "glossary_acc")


def styles(fonts: dict[str, str]) -> dict[str, ParagraphStyle]:
    return {
        "title": ParagraphStyle("title", fontName=fonts["bold"], fontSize=16, leading=20,
                                spaceAfter=6),
        # kept with its table's first rows by keep_with_first_rows, not keepWithNext: that
        # keeps it with the whole table and moves a table longer than a page to the next
        "h": ParagraphStyle("h", fontName=fonts["bold"], fontSize=12, leading=15, spaceBefore=8,
                            spaceAfter=4),
        "body": ParagraphStyle("body", fontName=fonts["body"], fontSize=9, leading=11.5),
        "small": ParagraphStyle("small", fontName=fonts["body"], fontSize=8, leading=10),
        "italic": ParagraphStyle("italic", fontName=fonts["italic"], fontSize=8, leading=10),
    }


#: the body rows a heading keeps on its page, under the table's head row
FIRST_ROWS = 3


def keep_with_first_rows(heading: Paragraph, table: Flowable, first: Flowable,
                         width: float) -> list[Flowable]:
    """``heading``, then ``table``, the heading on the page of ``first`` (the table's head
    row and its first :data:`FIRST_ROWS` rows, set alone to be measured): the page breaks
    before the heading only when the two do not fit. Kept with the whole table instead, a
    table longer than a page left the heading's page empty (issue 41); the table splits
    under its repeated head."""
    tall = 10 * A4[1]
    need = (heading.getSpaceBefore() + heading.wrap(width, tall)[1] + heading.getSpaceAfter()
            + first.wrap(width, tall)[1])
    return [CondPageBreak(need), heading, table]


def _other(lang: str) -> str:
    return "cs" if lang == "en" else "en"


def _sorted(rows: Iterable[tuple[str, ...]], lang: str) -> list[tuple[str, ...]]:
    return sorted(set(rows), key=lambda r: (SORT_KEYS[lang](r[0]), r[1:]))  # ties: the rest


def headword(term: Any, lang: str) -> str:
    """A term's headword: its first form (a verb's infinitive); a line label such as
    "Při získání:" as a dictionary writes it, lower-case and without the colon."""
    first = str(term.forms[lang][0])
    if first.endswith(":"):
        first = first[:-1].rstrip()
        return first[:1].lower() + first[1:]
    return first


def term_rows(data: GameData, lang: str) -> list[tuple[str, ...]]:
    """(headword, the other language's headwords, the other forms in ``lang``), one row per
    headword: terms that share it ("získat": acquire, gain) are one entry, as in a
    dictionary, with their forms merged."""
    other = _other(lang)
    merged: dict[str, tuple[list[str], list[str]]] = {}
    for t in data.glossary:
        if not (t.forms.get(lang) and t.forms.get(other)):
            continue
        head = headword(t, lang)
        others, forms = merged.setdefault(head, ([], []))
        others.append(headword(t, other))
        forms.extend(f for f in t.forms[lang][1:] if f != head)
    return _sorted(((head, ", ".join(dict.fromkeys(others)), ", ".join(dict.fromkeys(forms)))
                    for head, (others, forms) in merged.items()), lang)


def name_pairs(data: GameData, lang: str) -> list[tuple[str, str]]:
    """(card name, the other language's), each as an entry starts: capitalised as the card
    prints it ("Papež Benedikt XII.", whose data is lower-case for mid-sentence use)."""
    other = _other(lang)
    return _sorted(((capitalised(c.name.get(lang) or ""), capitalised(c.name.get(other) or ""))
                    for c in data.cards if c.name.get(lang)), lang)  # type: ignore[return-value]


def _forms(name: str | None, forms: Mapping[str, str], acc: str = "") -> str:
    """A name's phrases in card text, each once: "v Mohuči · do Mohuče · z Mohuče …"; the
    accusative after ``acc``, its verb ("(ovládá) Lombardii"): alone it reads as a repeat
    of the locative it is spelled like (issue 41, no. 11)."""
    shown = (f"{acc}\u00a0{f}" if key == "acc" and acc else f
             for key, f in forms.items() if f and f != name)
    return " · ".join(dict.fromkeys(shown))


def place_rows(data: GameData, lang: str, acc: str = "") -> list[tuple[str, ...]]:
    """Places with every form card text uses (in, into, from, the elector, accusative …)."""
    other = _other(lang)
    return _sorted(((p.name.get(lang) or p.id, p.name.get(other) or "",
                     _forms(p.name.get(lang), p.forms.get(lang, {}), acc))
                    for p in data.places.values()), lang)


def shield_rows(data: GameData, lang: str) -> list[tuple[str, ...]]:
    other = _other(lang)
    return _sorted(((s.name.get(lang) or s.id, s.name.get(other) or "",
                     _forms(s.name.get(lang), s.forms.get(lang, {})))
                    for s in data.shields.values()), lang)


def _sample(category: str, lang: str) -> str:
    """A number of the plural category, as written in ``lang`` (cs: 1, 2, 1,5, 5)."""
    for n in (*range(1, 101), 0):
        if plural_category(n, lang) == category:
            return str(n)
    for tenths in (15, 25, 5, *range(1, 100)):
        number = Decimal(tenths) / 10
        if plural_category(number, lang) == category:
            return format_decimal(number, locale=lang)
    return "?"


def counted(forms: Mapping[str, str], lang: str) -> str:
    """The noun after a whole number in each plural category: "1 vliv · 2 vlivy · 5 vlivů"
    (the game counts no fractions, so Czech's 1,5 category is left out)."""
    samples = ((_sample(cat, lang), form) for cat, form in forms.items())
    return " · ".join(f"{n}\u00a0{form}" for n, form in samples if n.isdigit())


def currency_rows(data: GameData, lang: str) -> list[tuple[str, ...]]:
    other = _other(lang)
    return _sorted(((c.name.get(lang) or c.id, c.name.get(other) or "",
                     counted(data.nouns.get(f"currency:{c.id}", {}).get(lang, {}), lang))
                    for c in data.currencies.values()), lang)


def noun_rows(data: GameData, lang: str) -> list[tuple[str, ...]]:
    """Each noun after numbers in ``lang`` and in the other language, by plural category."""
    other = _other(lang)
    nouns = {k: v for k, v in data.nouns.items() if not k.startswith("currency:")}
    for table_lang in (lang, other):  # the wording templates' own nouns
        for key, forms in ((data.templates.get(table_lang) or {}).get("nouns") or {}).items():
            nouns.setdefault(key, {})[table_lang] = forms
    return _sorted(((counted(forms.get(lang, {}), lang), counted(forms.get(other, {}), other))
                    for forms in nouns.values() if forms.get(lang)), lang)


def glossary_card_inputs(data: GameData) -> list[str]:
    """What the sheet reads of the card files: each card's name and its Deed names (so an
    edit of a card's text leaves the sheet as it is)."""
    return [f"{c.id}={c.name.values!r}" + "".join(f"|{ln.kind}={ln.name.values!r}"
                                                  for ln in c.lines if ln.name is not None)
            for c in data.cards]


def deed_rows(data: GameData, lang: str, not_deed: str = "") -> list[tuple[str, ...]]:
    """(Deed name, the other language's, the card's name) of every named line; a named line
    that is not a Deed (Writing History, 2.36, 6.46) says so after the card's name."""
    other = _other(lang)
    return _sorted(((line.name.get(lang) or "", line.name.get(other) or "",
                     capitalised(card.name.get(lang) or card.id)
                     + (f" ({not_deed})" if line.kind != "deed" and not_deed else ""))
                    for card in data.cards for line in card.lines
                    if line.name is not None and line.name.get(lang)), lang)


def variants(pattern: str, limit: int = 12) -> list[str] | None:
    """The words a forbidden-variant pattern matches, spelled out ("cancel, cancels, …";
    an open ending as "storn…"), or None when the pattern is not that simple."""
    def spell(items: Iterable) -> list[str] | None:
        out = [""]
        for op, av in items:
            if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
                continue  # word boundaries and look-arounds add no letters
            if op is sre.LITERAL:
                options: list[str] | None = [chr(av)]
            elif op is sre.IN and all(o is sre.LITERAL for o, _ in av):
                options = [chr(v) for _, v in av]
            elif op is sre.SUBPATTERN:
                options = spell(av[-1])
            elif op is sre.BRANCH:
                parts = [spell(b) for b in av[1]]
                options = None if None in parts else [x for p in parts if p for x in p]
            elif op is sre.MAX_REPEAT and av[1] == 1:
                inner = spell(av[2])
                options = None if inner is None else ([""] * (av[0] == 0)) + inner
            elif op is sre.MAX_REPEAT and av[1] is sre.MAXREPEAT:
                options = ["…"]
            else:
                return None
            if options is None:
                return None
            out = [a + b for a in out for b in options]
            if len(out) > limit:
                return None
        return out
    try:
        spelled = spell(sre.parse(pattern))
    except re.error:
        return None
    return list(dict.fromkeys(spelled)) if spelled else None


def _why(term: Any, lang: str) -> str:
    """Why a variant is forbidden: the term's note (written in English); on another
    language's sheet the note's rule references with the term's definition there."""
    note = term.note or ""
    definition = (term.definition or {}).get(lang) if lang != "en" else None
    if not definition:
        return note
    refs = note.split(":", 1)[0] if ":" in note else ""
    return f"{refs}: {definition}" if refs else definition


def forbidden_rows(data: GameData, lang: str) -> list[tuple[str, ...]]:
    """(the forbidden variants' words, what to write instead, why): one row per term and
    word to use, its variants joined, so the reason is printed once (issue 41, no. 8)."""
    merged: dict[tuple[str, str], list[str]] = {}
    for term in data.glossary:
        for pattern, use in term.forbidden.get(lang, ()):
            words = variants(pattern.source) or [pattern.source]
            merged.setdefault((use, _why(term, lang)), []).append(", ".join(words))
    return _sorted(((", ".join(sorted(words, key=SORT_KEYS[lang])), use, why)
                    for (use, why), words in merged.items()), lang)


#: The space between two columns of one table set side by side.
_GUTTER = 6 * mm
#: The sheets' tables' top and bottom cell padding (points).
_PAD = 1.5
#: Left plus right padding of a table cell (the Table's default: 6 pt each side).
_SIDES = CellStyle("default").leftPadding + CellStyle("default").rightPadding


def ruled_table(cells: list[list[Any]], widths: list[float], st: dict[str, ParagraphStyle],
                extra: Iterable[tuple] = (), heights: Sequence[float | None] | None = None
                ) -> Table:
    """A table in the sheets' style: a rule under the head row, hairlines between rows;
    ``heights``: row heights known beforehand (None: the Table measures the row)."""
    # splitInRow: a row taller than a page (a deck many times today's) goes on over the next
    table = Table(cells, colWidths=widths, rowHeights=heights, repeatRows=1, splitInRow=1)
    table.setStyle(TableStyle([
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black),
        ("LINEBELOW", (0, 1), (-1, -1), 0.2, colors.lightgrey),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("FONTNAME", (0, 0), (-1, -1), st["body"].fontName),  # no stray Helvetica
        ("TOPPADDING", (0, 0), (-1, -1), _PAD),
        ("BOTTOMPADDING", (0, 0), (-1, -1), _PAD),
        *extra,
    ]))
    return table


def pair_table(rows: Iterable[tuple[str, ...]], head: Sequence[str],
               st: dict[str, ParagraphStyle], width: float,
               shares: Sequence[float] | None = None) -> Table:
    """A ruled table with a head row; ``shares`` of ``width`` per column (default: even);
    the third column on is set smaller."""
    shares = shares or [1 / len(head)] * len(head)
    cells = [[Paragraph(escape(h), st["italic"]) for h in head]]
    cells += [[Paragraph(escape(text), st["body" if i < 2 else "small"])
               for i, text in enumerate(row)] for row in rows]
    return ruled_table(cells, [width * s for s in shares], st)


#: What a Paragraph reads otherwise than a plain string is drawn: a space it may break at
#: other than the plain one (no-break spaces stay), a soft hyphen or invisible break, and
#: doubled, leading or trailing spaces (it collapses and strips them).
_PARAGRAPH_ONLY = re.compile(r"[^\S \u00a0]|[\u00ad\u200b-\u200f\u2060\ufeff]|  |^ | $")


def _cell(text: str, style: ParagraphStyle, room: float) -> str | Paragraph:
    """A plain string when a Paragraph would set ``text`` as one line (it fits with room to
    spare): drawn by the Table in the column's FONT at the Paragraph's baseline, and far
    quicker to measure, split and draw; else the wrapping Paragraph."""
    if (text and not _PARAGRAPH_ONLY.search(text)
            and stringWidth(text, style.fontName, style.fontSize) < room - 0.01):
        return text
    return Paragraph(escape(text), style)


def _row_height(row: Sequence[Any], row_styles: Sequence[ParagraphStyle]) -> float | None:
    """A row of plain strings is a line and the padding high (the Table's own sum); None
    when a Paragraph must be measured. Known heights spare the Table its measuring loop,
    which rescans the rows for each row (quadratic in a long table)."""
    if not all(isinstance(v, str) for v in row):
        return None
    return max(s.leading for s in row_styles) + (_PAD + _PAD)


def sheet_table(rows: Iterable[tuple[str, ...]], head: Sequence[str],
                st: dict[str, ParagraphStyle], width: float, shares: Sequence[float]) -> Table:
    """:func:`pair_table`'s look, page for page, with a plain string for every cell that is
    one line: a deck many times today's makes thousands of cells, and a Paragraph for each
    made the sheet slow (parsed, then wrapped to measure, to split and to draw)."""
    widths = [width * s for s in shares]
    rooms = [w - _SIDES for w in widths]
    head_styles = [st["italic"]] * len(head)
    body_styles = [st["body" if i < 2 else "small"] for i in range(len(head))]
    cells = [[_cell(t, s, r) for t, s, r in zip(head, head_styles, rooms, strict=True)]]
    cells += [[_cell(t, s, r) for t, s, r in zip(row, body_styles, rooms, strict=True)]
              for row in rows]
    fonts = [("FONT", (0, 0), (-1, 0), st["italic"].fontName, st["italic"].fontSize,
              st["italic"].leading)]
    fonts += [("FONT", (col, 1), (col, -1), s.fontName, s.fontSize, s.leading)
              for col, s in enumerate(body_styles)]
    heights = [_row_height(cells[0], head_styles)]
    heights += [_row_height(row, body_styles) for row in cells[1:]]
    return ruled_table(cells, widths, st, fonts, heights)


def _typeset(value: Any, lang: str) -> Any:
    """A label (or a list of column heads) with the language's typography, as card text."""
    if isinstance(value, str):
        return fix_text(value, lang)
    return [fix_text(str(v), lang) for v in value]


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
    text = {k.removeprefix("glossary_"): _typeset(labels[k], lang) for k in LABELS}
    fonts = register_fonts(font_files)
    st = styles(fonts)
    buf = BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, leftMargin=18 * mm, rightMargin=18 * mm,
                            topMargin=15 * mm, bottomMargin=15 * mm, invariant=1,
                            initialFontName=fonts["body"], initialFontSize=9,
                            title=text["title"], author="cardgen", creator="cardgen",
                            subject="", keywords="")
    width = A4[0] - 36 * mm
    other = _other(lang)
    # the heads name the two languages in a fixed order, English then Czech, so a PO
    # file pairs "English" with „anglicky“ (issue 41, no. 4); the sheet's own comes first
    names = dict(zip(("en", "cs"), text["head"], strict=True))
    head = (names[lang], names[other])
    three = (*head, text["forms"])
    wide = (0.3, 0.3, 0.4)
    pair, same = (lang, other, lang), (lang, lang, lang)  # each column's language
    # (title, column heads, rows, column widths, each column's language, page columns)
    sections: list[tuple[str, Sequence[str], Sequence[tuple[str, ...]], Sequence[float],
                         tuple[str, ...], int]] = [
        (text["terms"], three, term_rows(data, lang), wide, pair, 1),
        (text["forbidden"], (head[0], text["use"], text["why"]), forbidden_rows(data, lang),
         wide, same, 1),
        (text["places"], three, place_rows(data, lang, text["acc"]), (0.2, 0.2, 0.6), pair, 1),
        (text["shields"], three, shield_rows(data, lang), wide, pair, 1),
        (text["currencies"], three, currency_rows(data, lang), (0.15, 0.15, 0.7), pair, 1),
        (text["nouns"], head, noun_rows(data, lang), (0.5, 0.5), pair, 1),
        (text["deeds"], (*head, text["card"]), deed_rows(data, lang, text["not_deed"]),
         (0.35, 0.35, 0.3), pair, 1),
        # short pairs: two to a line, as a dictionary sets them
        (text["names"], head, name_pairs(data, lang), (0.5, 0.5), pair, 2),
    ]
    # each text typeset once in its column's language (a name recurs beside each Deed):
    # the other language's column keeps its own quotes ("Margaret “Maultasch”")
    typeset: dict[tuple[str, str], str] = {}
    story: list[Flowable] = [Paragraph(escape(text["title"]), st["title"])]
    for title, columns, rows, shares, langs, across in sections:
        rows, columns, shares = _drop_empty_columns(rows, columns, shares)
        if rows:
            cells = [tuple(typeset.setdefault((c, lg), fix_text(c, lg))
                           for c, lg in zip(row, langs, strict=False)) for row in rows]
            column = (width - (across - 1) * _GUTTER) / across
            table: Flowable = sheet_table(cells, columns, st, column, shares)
            if across > 1:  # the frame's padding is the tables' own (their cells' padding)
                table = BalancedColumns([table], nCols=across, innerPadding=_GUTTER,
                                        leftPadding=-_SIDES / 2, rightPadding=-_SIDES / 2,
                                        topPadding=0, bottomPadding=0)
            story += [*keep_with_first_rows(
                Paragraph(escape(title), st["h"]), table,
                sheet_table(cells[:FIRST_ROWS], columns, st, column, shares), width),
                Spacer(1, 4 * mm)]
    doc.build(story, canvasmaker=canvas_maker(cmyk))
    return buf.getvalue()


def _drop_empty_columns(rows: Sequence[tuple[str, ...]], columns: Sequence[str],
                        shares: Sequence[float]
                        ) -> tuple[Sequence[tuple[str, ...]], Sequence[str], Sequence[float]]:
    """Without the columns past the second that are empty in every row (shields have no
    other forms today): an empty column looks unfinished. Their width goes to the last."""
    keep = [i for i in range(len(columns)) if i < 2 or any(row[i] for row in rows)]
    if len(keep) == len(columns):
        return rows, columns, shares
    kept = [shares[i] for i in keep]
    kept[-1] += 1 - sum(kept)
    return ([tuple(row[i] for i in keep) for row in rows], [columns[i] for i in keep], kept)
