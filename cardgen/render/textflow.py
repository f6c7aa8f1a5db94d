"""Paragraph setting for card text: bold lead-ins, inline icons, hyphenation, shrink-to-fit.

The module knows nothing about cards: it sets :class:`Para` values into a width and a
height and reports a :class:`FitResult`. Inline ``:token:`` symbols become icon atoms whose
width and drawing come from an :class:`IconSet` supplied by the caller.

Line breaking is greedy (left aligned), hyphenated as a typesetter would (:class:`Hyphenation`):
with pyphen in the face's language, at least 2 letters before and 3 after a break, never
inside a proper name (a capitalised word that does not start a sentence), never the same
word twice in one block, and only where it pays — the text would not fit otherwise, or the
line would end further from the margin than the rag limit. U+00A0 never breaks and a word
containing it is never hyphenated.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import pyphen
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

#: Inline symbols (see cardgen.wording.face). Anything else between colons is ordinary text.
TOKEN = re.compile(r":(church|german|western|eastern|any|boost|crown|shield-[a-z0-9-]+):")
NBSP = "\u00a0"
HYPHEN = "-"


@dataclass(frozen=True)
class Atom:
    """A text run in one font role, or an inline icon (``icon`` set, ``text`` empty)."""

    text: str = ""
    role: str = "body"
    icon: str | None = None


@dataclass(frozen=True)
class Para:
    """One paragraph: its atoms, with spaces between words as plain ' ' text."""

    atoms: tuple[Atom, ...]
    kind: str = "text"


@dataclass
class IconSet:
    """How inline icons are measured and drawn, relative to the text size."""

    width: Callable[[str, float], float]
    draw: Callable[[Canvas, str, float, float, float], None]  # (canvas, token, x, base, size)


@dataclass(frozen=True)
class Hyphenation:
    """Where a word may break (``layouts/card.yaml`` ``text_box``): at least ``left`` letters
    before and ``right`` after the break (pyphen's left/right), only words of ``min_len``
    letters or more, and, while the text fits, only when the line would otherwise end more
    than ``rag_limit`` (a share of the line width) short of the margin."""

    left: int = 2
    right: int = 3
    min_len: int = 5
    rag_limit: float = 0.0


@dataclass(frozen=True)
class Placed:
    x: float
    atom: Atom


@dataclass(frozen=True)
class Line:
    items: tuple[Placed, ...]
    width: float


@dataclass(frozen=True)
class SetPara:
    kind: str
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class FitResult:
    """Outcome of shrink-to-fit: the size used, and whether the text fits at all."""

    fits: bool
    size: float
    leading: float
    height: float  # points used at `size`
    available: float  # points available
    paras: tuple[SetPara, ...] = field(default=(), repr=False)
    too_wide: tuple[str, ...] = ()  # words wider than the line even after hyphenation

    @property
    def line_count(self) -> int:
        return sum(len(p.lines) for p in self.paras)


def parse(text: str, role: str) -> list[Atom]:
    """Split ``text`` into text atoms of ``role`` and icon atoms."""
    atoms: list[Atom] = []
    pos = 0
    for m in TOKEN.finditer(text):
        if m.start() > pos:
            atoms.append(Atom(text[pos:m.start()], role))
        atoms.append(Atom(icon=m.group(1), role=role))
        pos = m.end()
    if pos < len(text):
        atoms.append(Atom(text[pos:], role))
    return atoms


def paragraph(text: str, role: str = "body", title: str | None = None,
              title_role: str = "bold", kind: str = "text", title_sep: str = ":") -> Para:
    """A paragraph with an optional bold lead-in (``title`` + ``title_sep``)."""
    atoms: list[Atom] = []
    if title:
        lead = title if title.rstrip().endswith((":", ".", "!", "?")) else title + title_sep
        atoms += parse(lead, title_role)
        atoms.append(Atom(" ", role))
    atoms += parse(text, role)
    return Para(tuple(atoms), kind)


@functools.lru_cache(maxsize=8)
def _hyphenator(lang: str, left: int, right: int) -> pyphen.Pyphen:
    return pyphen.Pyphen(lang=lang, left=left, right=right)


def _letters(text: str) -> int:
    return sum(ch.isalpha() for ch in text)


def _key(word: Word) -> str:
    """A word as the "same word" rule compares it: its letters, lower case."""
    return "".join(ch for a in word for ch in a.text.lower() if ch.isalpha())


# --- words -----------------------------------------------------------------------------

Word = tuple[Atom, ...]


def _words(para: Para) -> list[Word]:
    """Break a paragraph at ordinary spaces; U+00A0 stays inside its word."""
    words: list[list[Atom]] = [[]]
    for atom in para.atoms:
        if atom.icon:
            words[-1].append(atom)
            continue
        parts = atom.text.split(" ")
        for i, part in enumerate(parts):
            if i:
                words.append([])
            if part:
                words[-1].append(Atom(part, atom.role))
    return [tuple(w) for w in words if w]


class _Measure:
    def __init__(self, fonts: Mapping[str, str], icons: IconSet, size: float):
        self.fonts, self.icons, self.size = fonts, icons, size

    def atom(self, a: Atom) -> float:
        if a.icon:
            return self.icons.width(a.icon, self.size)
        return stringWidth(a.text.replace(NBSP, " "), self.fonts[a.role], self.size)

    def word(self, w: Word) -> float:
        return sum(self.atom(a) for a in w)

    def space(self, role: str) -> float:
        return stringWidth(" ", self.fonts[role], self.size)


def _split(word: Word, room: float, m: _Measure, lang: str | None, rules: Hyphenation
           ) -> tuple[Word, Word] | None:
    """Hyphenate the word's last text atom so the head (with '-') fits in ``room``."""
    if not lang or not word or word[-1].icon:
        return None
    last = word[-1]
    if NBSP in last.text or _letters(last.text) < rules.min_len:
        return None
    head_w = m.word(word[:-1])
    for left, right in _hyphenator(lang, rules.left, rules.right).iterate(last.text):
        if _letters(left) < rules.left or _letters(right) < rules.right:
            continue  # pyphen counts punctuation and a compound's own hyphen as letters
        if left.endswith(HYPHEN):  # compound words already carry their own hyphen
            piece, rest = left, right
        else:
            piece, rest = left + HYPHEN, right
        if head_w + m.atom(Atom(piece, last.role)) <= room:
            return (*word[:-1], Atom(piece, last.role)), (Atom(rest, last.role),)
    return None


def _is_name(word: Word, starts_sentence: bool) -> bool:
    """A proper name: capitalised, and not capitalised only because a sentence starts."""
    text = next((a.text for a in word if a.text), "")
    return not starts_sentence and text[:1].isupper()


def set_para(para: Para, width: float, m: _Measure, lang: str | None,
             rules: Hyphenation | int, *, fitting: bool = True,
             broken: set[str] | None = None) -> tuple[list[Line], list[str]]:
    """Set one paragraph greedily. ``fitting``: hyphenate wherever a word does not fit
    (the text is tight); otherwise only where the rag would pass the limit. ``broken``
    collects the words hyphenated so far in the block (each may break once)."""
    if isinstance(rules, int):  # the shortest word to break, every other rule by default
        rules = Hyphenation(min_len=rules)
    broken = set() if broken is None else broken
    lines: list[Line] = []
    too_wide: list[str] = []
    cur: list[Placed] = []
    x = 0.0
    pending: list[tuple[Word, bool]] = [(w, False) for w in _words(para)]  # (word, a tail)
    pending.reverse()
    starts_sentence = True
    while pending:
        word, tail = pending.pop()
        ww = m.word(word)
        gap = m.space(word[0].role) if cur else 0.0
        if x + gap + ww <= width + 0.01:
            x += gap
            for a in word:
                cur.append(Placed(x, a))
                x += m.atom(a)
            starts_sentence = (word[-1].text or "").rstrip(")\u201c\"").endswith(
                (".", "!", "?", ":"))
            continue
        room = width - x - gap
        key = _key(word)
        may = (not cur or (not tail and key not in broken
                           and not _is_name(word, starts_sentence)
                           and (fitting or room > rules.rag_limit * width)))
        split = _split(word, room, m, lang, rules) if may else None
        if split:
            head, rest = split
            broken.add(key)
            x += gap
            for a in head:
                cur.append(Placed(x, a))
                x += m.atom(a)
            pending.append((rest, True))
            starts_sentence = False
        elif not cur:  # alone on a line and still too wide: place it and report it
            too_wide.append("".join(a.text or f":{a.icon}:" for a in word))
            for a in word:
                cur.append(Placed(x, a))
                x += m.atom(a)
        else:
            pending.append((word, tail))
        lines.append(Line(tuple(cur), x))
        cur, x = [], 0.0
    if cur:
        lines.append(Line(tuple(cur), x))
    return lines, too_wide


def fit(paras: Iterable[Para], width: float, height: float, *, fonts: Mapping[str, str],
        icons: IconSet, size: float, min_size: float, leading: float, para_gap: float,
        lang: str | None, hyphen_min: int = 5, step: float = 0.1,
        hyphenation: Hyphenation | None = None) -> FitResult:
    """Set ``paras`` at the largest size from ``size`` down to ``min_size`` that fits.

    At each size the text is first set hyphenating only against a bad rag, then, if that
    does not fit, hyphenating wherever a word does not fit; only then is the size reduced.
    Text that cannot fit even at ``min_size`` by a cheap measure (its words laid end to end
    are longer than every line of the box together) is not searched: it is set once, cut
    to what the box could show, and reported as not fitting."""
    rules = hyphenation or Hyphenation(min_len=hyphen_min)
    paras = tuple(paras)
    lead_min = min_size * leading
    lines = int((height + 0.01) // lead_min) if lead_min > 0 else 0
    room = lines * (width + 0.01)
    m = _Measure(fonts, icons, min_size)
    content = sum(_content_width(p, m) for p in paras)
    if content > room:
        shown = _cut(paras, 1.5 * room, m)
        result = _set_all(shown, width, height, fonts, icons, min_size, leading, para_gap,
                          lang, rules, True)
        return FitResult(False, min_size, result.leading,
                         max(result.height, content / max(width, 1e-9) * lead_min), height,
                         result.paras, result.too_wide)
    s = size
    while True:
        for fitting in (False, True):
            result = _set_all(paras, width, height, fonts, icons, s, leading, para_gap, lang,
                              rules, fitting)
            if result.fits:
                return result
        if s <= min_size + 1e-9:
            return result
        s = max(min_size, round(s - step, 3))


def _content_width(para: Para, m: _Measure) -> float:
    """The width of a paragraph's words without the spaces between them: no setting of it
    can put more than a line's width of this on one line."""
    return sum(m.atom(Atom(a.text.replace(" ", ""), a.role)) if not a.icon else m.atom(a)
               for a in para.atoms)


def _cut(paras: tuple[Para, ...], room: float, m: _Measure) -> tuple[Para, ...]:
    """The leading part of ``paras`` about ``room`` wide (what a full box can show)."""
    out: list[Para] = []
    for p in paras:
        atoms: list[Atom] = []
        for a in p.atoms:
            w = m.atom(a)
            if w > room:
                if not a.icon:
                    atoms.append(Atom(a.text[:max(1, int(len(a.text) * room / w))], a.role))
                room = 0.0
                break
            atoms.append(a)
            room -= w
        out.append(Para(tuple(atoms), p.kind))
        if room <= 0:
            break
    return tuple(out)


def _set_all(paras: tuple[Para, ...], width: float, height: float, fonts: Mapping[str, str],
             icons: IconSet, size: float, leading: float, para_gap: float, lang: str | None,
             rules: Hyphenation, fitting: bool) -> FitResult:
    m = _Measure(fonts, icons, size)
    out: list[SetPara] = []
    wide: list[str] = []
    broken: set[str] = set()  # one block (one card face): each word breaks once at most
    for p in paras:
        lines, too_wide = set_para(p, width, m, lang, rules, fitting=fitting, broken=broken)
        out.append(SetPara(p.kind, tuple(lines)))
        wide += too_wide
    lead = size * leading
    n = sum(len(p.lines) for p in out)
    used = n * lead + max(0, len(out) - 1) * para_gap * size / 7.6 if n else 0.0
    fits = used <= height + 0.01 and not wide
    return FitResult(fits, size, lead, used, height, tuple(out), tuple(wide))


def draw(c: Canvas, result: FitResult, x: float, top: float, *, fonts: Mapping[str, str],
         icons: IconSet, colour: object, para_gap: float,
         between: Callable[[float, int], None] | None = None) -> None:
    """Draw a set text block with its first line's top at ``top`` (points, y up)."""
    size, lead = result.size, result.leading
    y = top
    for i, p in enumerate(result.paras):
        if i:
            gap = para_gap * size / 7.6
            if between:
                between(y - gap / 2, i)
            y -= gap
        for line in p.lines:
            base = y - size * 0.86
            for item in line.items:
                a = item.atom
                if a.icon:
                    icons.draw(c, a.icon, x + item.x, base, size)
                    continue
                c.setFillColor(colour)
                c.setFont(fonts[a.role], size)
                c.drawString(x + item.x, base, a.text.replace(NBSP, " "))
            y -= lead


def draw_inline(c: Canvas, para: Para, x: float, base: float, *, fonts: Mapping[str, str],
                icons: IconSet, size: float, colour: object) -> float:
    """Draw a paragraph on one line from ``x`` on baseline ``base``; return its width."""
    m = _Measure(fonts, icons, size)
    for a in para.atoms:
        if a.icon:
            icons.draw(c, a.icon, x, base, size)
        else:
            c.setFillColor(colour)
            c.setFont(fonts[a.role], size)
            c.drawString(x, base, a.text.replace(NBSP, " "))
        x += m.atom(a)
    return x
