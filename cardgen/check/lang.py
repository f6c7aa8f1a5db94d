"""Translation QA: every card text, English against Czech (Weblate/Xbench-style, tuned to Czech).

Checks, per card and text (card name, each line, each Deed name):

* ``lang-missing`` / ``lang-identical`` / ``lang-untranslated`` — Czech missing, equal to the
  English, or still holding English glossary terms;
* ``lang-numbers`` — the same numbers on both sides (parsed per locale with Babel, so the
  Czech decimal comma is not a mismatch); ``lang-symbols`` — the same inline ``:tokens:``;
* ``lang-glossary`` — a glossary term on one side needs its pair on the other (any listed
  form); ``lang-forbidden`` — a forbidden variant (e.g. "cancel", bare "zrušit");
* ``lang-name`` — a card, place, shield or currency named (or referenced by an effect) on
  one side is named on the other, in the data's current form;
* ``lang-plural`` — the noun after a number takes the form Babel's plural rules give;
* ``lang-capital`` / ``lang-end-punct`` — a card line starts with a capital and ends with
  the same mark (. ! ? …) in both languages;
* ``lang-name-english`` — a card or Deed name keeps an English word that the Czech texts
  translate everywhere else ("Blanche z Valois": the Czech says "Blanku" elsewhere);
* ``lang-inconsistent`` — one English text translated two ways;
* ``typo-*`` — Czech typography (non-breaking spaces, „quotes“, en dash, spaces, doubled
  words, "KAždý" capitals). The mechanical ones are exactly what :func:`fix_text` repairs.

:func:`longest_text_at` locates the renderer's fit findings in the card's text.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from typing import Any

from babel.numbers import NumberFormatError, parse_decimal

from ..data.model import Bilingual, Card, GameData
from ..errors import Finding, Location, Severity, error, quoted, warning
from ..wording.language import NBSP, plural_category, typography_problems
from .cache import CheckCache, card_key, text_key
from .names import (
    TOKEN,
    find_names,
    find_phrase,
    name_index,
    name_table,
    phrase_re,
    referenced_ids,
    strip_tokens,
)
from .wordindex import WordIndex

SEVERITY: dict[Severity, Callable[..., Finding]] = {Severity.ERROR: error, Severity.WARNING: warning}


LANG_NAMES = {"en": "English", "cs": "Czech"}
OTHER = {"en": "cs", "cs": "en"}
MM = 72 / 25.4  # points per millimetre

# --------------------------------------------------------------------------------------
# The texts of a card
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardText:
    """One translatable text of a card: its key (``name``, ``deed``, ``deed.name`` …)."""

    card: Card
    key: str
    text: Bilingual

    @property
    def context(self) -> str:
        """The PO ``msgctxt``: ``<card id>:<key>``."""
        return f"{self.card.id}:{self.key}"


def card_texts(card: Card) -> Iterator[CardText]:
    """Every translatable text of ``card``, in printed order."""
    yield CardText(card, "name", card.name)
    for line in card.lines:
        if line.name is not None:
            yield CardText(card, f"{line.kind}.name", line.name)
        if line.text is not None:
            yield CardText(card, line.kind, line.text)


def all_texts(data: GameData) -> Iterator[CardText]:
    for card in data.cards:
        yield from card_texts(card)


# --------------------------------------------------------------------------------------
# Numbers and plurals
# --------------------------------------------------------------------------------------

NUMBER_RE = {
    "en": re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?!\d)|(?<![\w.,])\d+(?:\.\d+)?(?!\d)"),
    "cs": re.compile(r"(?<![\w.,])\d+(?:,\d+)?(?!\d)"),
}
LOCALE = {"en": "en", "cs": "cs"}


def numbers(text: str, lang: str) -> list[tuple[Decimal, re.Match[str]]]:
    """Every number in ``text`` with its match, parsed with the language's locale."""
    out = []
    for m in NUMBER_RE[lang].finditer(strip_tokens(text)):
        token = m.group().rstrip(".,")
        try:
            out.append((parse_decimal(token, locale=LOCALE[lang]), m))
        except NumberFormatError:
            continue
    return out


def _fmt(values: Iterable[Decimal]) -> str:
    return ", ".join(str(v.normalize()) if v % 1 else str(int(v)) for v in values) or "none"


# --------------------------------------------------------------------------------------
# The checks
# --------------------------------------------------------------------------------------


def _rule_of(note: str | None) -> str | None:
    m = re.search(r"\b(\d+\.\d+)\b", note or "")
    return m.group(1) if m else None


def _loc(t: CardText, lang: str) -> Location:
    return t.text.at(lang)


class _Checker:
    def __init__(self, data: GameData):
        self.data = data
        self.findings: list[Finding] = []
        self.names = name_table(data)
        self.ids = {n.id: n for n in self.names}
        self.index = {lang: name_index(self.names, lang) for lang in ("en", "cs")}
        self.term_index = {lang: WordIndex((t, t.forms.get(lang, ())) for t in data.glossary)
                           for lang in ("en", "cs")}
        self.positions: dict[str, list[int]] = {}
        for i, name in enumerate(self.names):
            self.positions.setdefault(name.id, []).append(i)
        self.cs_terms = {form.lower() for term in data.glossary for form in term.forms.get("cs", ())}
        self.evidence = _english_word_evidence(data)

    def add(self, severity: Callable[..., Finding], code: str, t: CardText, lang: str,
            message: str, hint: str | None = None, rule: str | None = None) -> None:
        self.findings.append(severity(code, f"{t.key}: {message}", location=_loc(t, lang),
                                      card=t.card.id, lang=lang, rule=rule, hint=hint,
                                      extra={"text": t.context}))

    # -- one text --------------------------------------------------------------------
    def text(self, t: CardText) -> None:
        en, cs = t.text.get("en"), t.text.get("cs")
        for lang in ("en", "cs"):
            value = t.text.get(lang)
            if value is not None:
                self.typography(t, lang, value)
                self.forbidden(t, lang, value)
                if not _is_name(t) and value.strip():
                    self.capital(t, lang, value)
        if not en:
            return
        if not cs or not cs.strip():
            self.add(error, "lang-missing", t, "cs", "the Czech text is missing",
                     f"translate: {quoted(en)}")
            return
        if t.key != "name" and not t.key.endswith(".name") and _norm(cs) == _norm(en) \
                and re.search(r"[^\W\d_]", strip_tokens(en)):
            self.add(error, "lang-identical", t, "cs", "the Czech text is the same as the English",
                     "translate it")
            return
        if not _is_name(t):  # a name's English words: english_names, across the cards
            self.end_punct(t, en, cs)
        self.untranslated(t, cs)
        self.numbers(t, en, cs)
        self.symbols(t, en, cs)
        self.glossary(t, en, cs)
        self.names_(t, en, cs)
        for lang, value in (("en", en), ("cs", cs)):
            self.plural(t, lang, value)

    def typography(self, t: CardText, lang: str, value: str) -> None:
        for rule, found in typography_problems(value, lang):
            self.add(SEVERITY[rule.severity], rule.code, t, lang, rule.message.format(found=found), rule.hint)

    def capital(self, t: CardText, lang: str, value: str) -> None:
        first = _FIRST_WORD.search(strip_tokens(value))
        if first and first.group()[0].islower():
            self.add(warning, "lang-capital", t, lang,
                     f"the text starts with a small letter: '{first.group()}'",
                     "start the sentence with a capital letter")

    def end_punct(self, t: CardText, en: str, cs: str) -> None:
        marks = {lang: _end_mark(value) for lang, value in (("en", en), ("cs", cs))}
        for lang, value in (("en", en), ("cs", cs)):
            if not marks[lang]:
                self.add(warning, "lang-end-punct", t, lang,
                         f"the text does not end with a full stop: '…{value.rstrip()[-12:]}'",
                         "end the sentence with '.' (or '!', '?', '…')")
        if marks["en"] and marks["cs"] and marks["en"] != marks["cs"]:
            self.add(warning, "lang-end-punct", t, "cs",
                     f"the English text ends with '{marks['en']}' but the Czech with "
                     f"'{marks['cs']}'", f"end the Czech with '{marks['en']}' too")

    def english_names(self) -> list[Finding]:
        """Every name checked against the data's translation memory: a finding may change
        with any card's text, so this runs across the cards, never from the per-card cache."""
        self.findings = []
        for t in all_texts(self.data):
            en, cs = t.text.get("en"), t.text.get("cs")
            if _is_name(t) and en and cs and cs.strip():
                self.english_name(t, en, cs)
        return self.findings

    def english_name(self, t: CardText, en: str, cs: str) -> None:
        """A name that keeps an English word which every other Czech text translates."""
        en_words = {w.casefold() for w in _WORD.findall(strip_tokens(en))}
        for word in _WORD.findall(strip_tokens(cs)):
            if not word[0].isupper() or word.casefold() not in en_words:
                continue
            kept, translated = self.evidence.get(word.casefold(), ((), ()))
            elsewhere = [c for c in translated if c != t.context]
            if elsewhere and not [c for c in kept if c != t.context]:
                what = "card" if t.key == "name" else "Deed"
                self.add(warning, "lang-name-english", t, "cs",
                         f"the Czech {what} name keeps the English word '{word}', which the "
                         f"Czech texts translate elsewhere ({', '.join(elsewhere[:3])})",
                         "translate the name as the Czech texts do, as 'Blanka z Valois' translates "
                         "'Blanche de Valois'")
                return

    def forbidden(self, t: CardText, lang: str, value: str) -> None:
        plain = strip_tokens(value)
        for term in self.data.glossary:
            for pattern, use in term.forbidden.get(lang, ()):
                for m in pattern.finditer(plain):
                    note = f" ({term.note})" if term.note else ""
                    self.add(error, "lang-forbidden", t, lang,
                             f"'{m.group()}' is a forbidden variant of the glossary term "
                             f"'{term.id}'", f"write '{use}'{note}", _rule_of(term.note))

    def untranslated(self, t: CardText, cs: str) -> None:
        plain = strip_tokens(cs)
        for term in self.term_index["en"].candidates(plain):
            for form in term.forms.get("en", ()):
                if form.lower() in self.cs_terms:
                    continue
                m = find_phrase(form, plain)
                if m:
                    self.add(error, "lang-untranslated", t, "cs",
                             f"the English term '{m.group()}' is left in the Czech text",
                             f"write one of: {', '.join(term.forms['cs'])}")
                    break

    def numbers(self, t: CardText, en: str, cs: str) -> None:
        a = Counter(v for v, _ in numbers(en, "en"))
        b = Counter(v for v, _ in numbers(cs, "cs"))
        if a == b:
            return
        missing = list((a - b).elements())
        extra = list((b - a).elements())
        parts = []
        if missing:
            parts.append(f"missing in Czech: {_fmt(missing)}")
        if extra:
            parts.append(f"only in Czech: {_fmt(extra)}")
        self.add(error, "lang-numbers", t, "cs",
                 f"the numbers differ: English {_fmt(sorted(a.elements()))}, "
                 f"Czech {_fmt(sorted(b.elements()))}", "; ".join(parts))

    def symbols(self, t: CardText, en: str, cs: str) -> None:
        a, b = Counter(TOKEN.findall(en)), Counter(TOKEN.findall(cs))
        if a != b:
            self.add(error, "lang-symbols", t, "cs",
                     f"the symbols differ: English {' '.join(sorted(a.elements())) or 'none'}, "
                     f"Czech {' '.join(sorted(b.elements())) or 'none'}",
                     "use the same :symbols: on both sides")

    def glossary(self, t: CardText, en: str, cs: str) -> None:
        texts = {"en": self.mask_currency(strip_tokens(en), "en"),
                 "cs": self.mask_currency(strip_tokens(cs), "cs")}
        found = {lang: find_terms(self.term_index[lang].candidates(texts[lang]), texts[lang],
                                  lang) for lang in texts}
        for term in self.data.glossary:
            for lang in ("en", "cs"):
                other = OTHER[lang]
                word = found[lang].get(term.id)
                if not word or term.id in found[other] or self.shared(word, lang, found[other]):
                    continue
                self.add(warning, "lang-glossary", t, other,
                         f"the {LANG_NAMES[lang]} text uses the term '{word}' "
                         f"but the {LANG_NAMES[other]} text has no '{term.forms[other][0]}'",
                         f"use one of: {', '.join(term.forms[other])}", _rule_of(term.note))
                break

    def shared(self, word: str, lang: str, other_found: Mapping[str, str]) -> bool:
        """Whether ``word`` is also a form of a term whose pair the other side has."""
        return any(term.id in other_found for term in self.data.glossary
                   if any(f.casefold() == _norm(word) for f in term.forms.get(lang, ())))

    def mask_currency(self, text: str, lang: str) -> str:
        """Blank out currency noun phrases ("2 církevní měny"): a currency, not the term."""
        for noun, by_lang in self.data.nouns.items():
            if not noun.startswith("currency:"):
                continue
            for form in sorted(set(by_lang.get(lang, {}).values()), key=len, reverse=True):
                text = phrase_re(form).sub(lambda m: " " * len(m.group()), text)
        if lang == "cs":
            adjectives = "|".join(re.escape((c.name.get("cs") or "")[:-2]) for c in
                                  self.data.currencies.values() if c.name.get("cs"))
            text = re.sub(rf"(?<!\w)(?:{adjectives})\w*[\s\u00a0]+měn\w*", lambda m: " " * len(
                m.group()), text, flags=re.IGNORECASE)
        return text

    def names_(self, t: CardText, en: str, cs: str) -> None:
        if t.key == "name" or t.key.endswith(".name"):
            return
        hits = {lang: find_names(self.names, strip_tokens(value), lang, self.index[lang])
                for lang, value in (("en", en), ("cs", cs))}
        line = t.card.line(t.key)
        referenced = referenced_ids(line.effects if line else (), self.ids) - {t.card.id}
        # only the names found or referenced can give a finding (in the table's order)
        named = hits["en"] | hits["cs"] | referenced
        for name in [self.names[i] for i in sorted(i for n in named for i in self.positions[n])]:
            if name.id == t.card.id:
                continue
            on = {lang: name.id in hits[lang] for lang in ("en", "cs")}
            if name.id in referenced:
                for lang in ("en", "cs"):
                    if not on[lang]:
                        self.add(warning, "lang-name", t, lang,
                                 f"the effect refers to {name.what} '{name.id}' but the text "
                                 f"does not name it as '{name.forms[lang][0]}'",
                                 f"write its current name: {' / '.join(name.forms[lang][:4])}")
                continue
            for lang in ("en", "cs"):
                other = OTHER[lang]
                if on[lang] and not on[other]:  # the Czech is the translation: fix it there
                    self.add(warning, "lang-name", t, "cs",
                             f"the {LANG_NAMES[lang]} text names {name.what} "
                             f"'{name.forms[lang][0]}' but the {LANG_NAMES[other]} text does not",
                             f"write: {' / '.join(name.forms[other][:4])}" if lang == "en" else
                             f"name what the English names, not {name.forms['cs'][0]}")

    def plural(self, t: CardText, lang: str, value: str) -> None:
        plain = strip_tokens(value)
        for number, m in numbers(value, lang):
            rest = plain[m.end():]
            if not rest[:1].isspace():
                continue
            rest = rest.lstrip(" \u00a0")
            noun, written = _noun_at(self.data.nouns, lang, rest)
            if noun is None:
                continue
            category = plural_category(number, lang)
            table = self.data.nouns[noun][lang]
            expected = table.get(category) or table.get("other")
            if expected and written.lower() != expected.lower():
                self.add(error, "lang-plural", t, lang,
                         f"after {m.group()} write '{expected}', not '{written}'",
                         f"{LANG_NAMES[lang]} plural '{category}' of '{noun}': "
                         + ", ".join(f"{k}: {v}" for k, v in table.items()))


_WORD = re.compile(r"[^\W\d_][\w\u2019'-]*")
_FIRST_WORD = re.compile(r"[^\W\d_]+")
_END = re.compile(r"([.!?\u2026])[\s\u00a0)\u201c\u201d\u2018\"'\]]*$")


def _is_name(t: CardText) -> bool:
    return t.key == "name" or t.key.endswith(".name")


def _end_mark(value: str) -> str | None:
    m = _END.search(value.rstrip())
    return m.group(1) if m else None


def _english_word_evidence(data: GameData) -> dict[str, tuple[list[str], list[str]]]:
    """Capitalised English words → (texts whose Czech keeps the word, texts whose Czech
    does not): the translation memory of the data itself ("Blanche" → "Blanku")."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    for t in all_texts(data):
        en, cs = t.text.get("en"), t.text.get("cs")
        if not en or not cs:
            continue
        cs_words = {w.casefold() for w in _WORD.findall(strip_tokens(cs))}
        for word in {w for w in _WORD.findall(strip_tokens(en)) if w[0].isupper()}:
            kept, translated = out.setdefault(word.casefold(), ([], []))
            (kept if word.casefold() in cs_words else translated).append(t.context)
    return out


def _inconsistent(data: GameData) -> list[Finding]:
    """One English text translated two ways: each later translation, at its Czech line."""
    first: dict[str, CardText] = {}
    out = []
    for t in all_texts(data):
        en, cs = t.text.get("en"), t.text.get("cs")
        if not en or not cs:
            continue
        seen = first.setdefault(_norm(en), t)
        if seen is not t and _norm(seen.text.get("cs") or "") != _norm(cs):
            out.append(warning(
                "lang-inconsistent", f"{t.key}: the English '{en}' is translated differently "
                f"on {seen.context} ('{seen.text.get('cs')}')", location=_loc(t, "cs"),
                card=t.card.id, lang="cs", extra={"text": t.context},
                hint="translate the same English the same way (or reword one English text)"))
    return out


def find_terms(terms: Iterable[Any], text: str, lang: str) -> dict[str, str]:
    """Term id -> the form found; a longer match hides the shorter terms inside it."""
    spans = [(m.start(), m.end(), term.id) for term in terms for form in term.forms.get(lang, ())
             for m in phrase_re(form).finditer(text)]
    spans.sort(key=lambda s: (s[0] - s[1], s[0]))
    taken: list[tuple[int, int]] = []
    found: dict[str, str] = {}
    for start, end, tid in spans:
        if (start, end) not in taken and any(start < e and s < end for s, e in taken):
            continue  # inside a longer match (the same span may serve several terms)
        taken.append((start, end))
        found.setdefault(tid, text[start:end])
    return found


def _norm(s: str) -> str:
    return " ".join(s.replace(NBSP, " ").split()).casefold()


def _noun_at(nouns: Mapping[str, Mapping[str, Mapping[str, str]]], lang: str, rest: str
             ) -> tuple[str | None, str]:
    """The noun (id, written form) that ``rest`` starts with, longest form first."""
    best: tuple[str | None, str] = (None, "")
    for noun, by_lang in nouns.items():
        for form in set(by_lang.get(lang, {}).values()):
            m = phrase_re(form).match(rest)
            if m and len(m.group()) > len(best[1]):
                best = (noun, m.group())
    return best


# --------------------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------------------


def check_language(data: GameData, cache: CheckCache | None = None) -> list[Finding]:
    """Every translation finding for every card, English against Czech; with a ``cache``,
    only the cards whose record or shared inputs changed are checked again."""
    checkers: list[_Checker] = []

    def one_card(card: Card) -> list[Finding]:
        if not checkers:
            checkers.append(_Checker(data))
        checker = checkers[0]
        checker.findings = []
        for t in card_texts(card):
            checker.text(t)
        return checker.findings

    shared = text_key(data) if cache is not None else ""
    out: list[Finding] = []
    for card in data.cards:
        out += (cache.findings(card_key("language", shared, card), partial(one_card, card))
                if cache is not None else one_card(card))
    if not checkers:
        checkers.append(_Checker(data))
    return out + checkers[0].english_names() + _inconsistent(data)


def is_untranslated(f: Finding) -> bool:
    return f.code in ("lang-missing", "lang-identical", "lang-untranslated")


def longest_text_at(card: Card, lang: str) -> Location:
    """Where a card's longest text in ``lang`` is written: the place to shorten when the
    card's text does not fit (the renderer's fit findings name no line)."""
    texts = [t for t in card_texts(card) if t.text.get(lang)]
    if not texts:
        return card.loc
    return max(texts, key=lambda t: len(t.text.get(lang) or "")).text.at(lang)
