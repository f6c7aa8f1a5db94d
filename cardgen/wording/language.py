"""Language rules that both compose and the checks apply: CLDR plural categories (Babel)
and typography, Czech above all (non-breaking spaces, „quotes“, en dashes).

One rule table drives the printed text, the typography check and ``cardgen check --fix``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import cast

from babel import Locale

from ..errors import Severity

NBSP = "\u00a0"


@cache
def _plural_form(lang: str) -> Callable[[Decimal | int], str]:
    return Locale.parse(lang).plural_form


def plural_category(number: Decimal | int, lang: str) -> str:
    """The CLDR plural category (cs: one, few, many, other) of ``number`` in ``lang``."""
    return _plural_form(lang)(number)


@dataclass(frozen=True)
class TypoRule:
    code: str
    langs: tuple[str, ...]
    pattern: re.Pattern[str]
    repl: str | Callable[[re.Match[str]], str] | None  # None: not mechanical, only reported
    message: str  # may use {found}
    hint: str
    severity: Severity = Severity.WARNING


_PREP = "vkszouaiVKSZOUAI"
TYPO_RULES: tuple[TypoRule, ...] = (
    TypoRule("typo-space-edge", ("en", "cs"), re.compile(r"^[ \t\u00a0]+|[ \t\u00a0]+$"), "",
             "leading or trailing space", "remove the space"),
    TypoRule("typo-double-space", ("en", "cs"), re.compile(r"[ \u00a0]{2,}"),
             lambda m: NBSP if NBSP in m.group() else " ",
             "double space", "write one space"),
    TypoRule("typo-dash-range", ("en", "cs"),
             re.compile(r"(?<=\d)(?:[ \u00a0]?[-\u2014][ \u00a0]?"
                        r"|[ \u00a0]\u2013[ \u00a0]?|\u2013[ \u00a0])(?=\d)"),
             "\u2013", "a range is an en dash without spaces: '{found}'",
             "write '–' between the numbers, no spaces (1322–1346)"),
    TypoRule("typo-ellipsis", ("en", "cs"), re.compile(r"\.\.\."), "\u2026",
             "three dots are an ellipsis: '{found}'", "write '…'"),
    TypoRule("typo-dash", ("en", "cs"), re.compile(r"(?<=\S) [-\u2014] (?=\S)"), " \u2013 ",
             "a dash between words is an en dash with spaces: '{found}'", "write ' – '"),
    TypoRule("typo-quotes", ("cs",),
             re.compile(r"[\"\u201c\u201d]([^\"\u201c\u201d\u201e]*)[\"\u201c\u201d]"),
             "\u201e\\1\u201c", "Czech quotation marks are „…“: {found}", "write „…“"),
    TypoRule("typo-quotes-en", ("en",), re.compile(r'"([^"]*)"'), "\u201c\\1\u201d",
             "English quotation marks are “…”: {found}", "write “…”"),
    TypoRule("typo-apostrophe", ("en",), re.compile(r"(?<=\w)'(?=\w)"), "\u2019",
             "an apostrophe is ’: '{found}'", "write ’ (John’s)"),
    TypoRule("typo-apostrophe-cs", ("cs",), re.compile(r"[\u2018\u2019']"), None,
             "an English apostrophe or single quote in Czech text: '{found}'",
             "Czech quotes are ‚…‘ and has no possessive apostrophe (Ockhamova břitva)"),
    TypoRule("typo-nbsp-prep", ("cs",),
             re.compile(rf"(?<![\w.:\-\u2013])([{_PREP}]) (?=\S)"), rf"\1{NBSP}",
             "a one-letter word needs a non-breaking space after it: '{found}'",
             "write U+00A0 instead of the space (cardgen check --fix does it)"),
    TypoRule("typo-nbsp-number", ("cs",), re.compile(r"(?<![\w.,])(\d+(?:,\d+)?) (?=[^\W\d_])"),
             rf"\1{NBSP}",
             "a number and its noun need a non-breaking space: '{found}'",
             "write U+00A0 instead of the space (cardgen check --fix does it)"),
    TypoRule("typo-nbsp-regnal", ("cs",),
             re.compile(r"(?<!\w)([A-ZÁČĎÉÍŇÓŘŠŤÚŮÝŽ][a-záčďéěíňóřšťúůýž]+) (?=[IVX]+\.(?!\w))"),
             rf"\1{NBSP}",
             "a regnal number stays with its name: '{found}'",
             "write U+00A0 before it (Klimenta\u00a0VI.; cardgen check --fix does it)"),
    TypoRule("typo-nbsp-place", ("cs",),
             re.compile(r"(?<=[^\W\d_]) (nad|pod) (?=[A-ZÁČĎÉÍŇÓŘŠŤÚŮÝŽ])"), rf"{NBSP}\1{NBSP}",
             "a place name with „nad“ or „pod“ is one unit: '{found}'",
             "write U+00A0 around it (Kolína\u00a0nad\u00a0Rýnem; cardgen check --fix does it)"),
    TypoRule("typo-doubled-word", ("en", "cs"), re.compile(r"(?<!\w)([^\W\d_]+)[ \u00a0]+\1(?!\w)",
                                                            re.IGNORECASE),
             None, "doubled word: '{found}'", "delete one of them"),
    TypoRule("typo-caps", ("en", "cs"), re.compile(r"(?<!\w)[^\W\d_]{3,}"),
             None, "stray capital: '{found}'", "write it with one capital letter"),
)


def _rule_applies(rule: TypoRule, match: re.Match[str]) -> bool:
    if rule.code == "typo-caps":
        word = match.group()
        return word[0].isupper() and word[1].isupper() and any(c.islower() for c in word[2:])
    return True


def fix_text(text: str, lang: str) -> str:
    """``text`` with every mechanical typography rule applied, until nothing changes."""
    for _ in range(5):
        before = text
        for rule in TYPO_RULES:
            if rule.repl is None or lang not in rule.langs:
                continue
            text = rule.pattern.sub(rule.repl, text)
        if text == before:
            break
    return text


def typography_problems(text: str, lang: str) -> list[tuple[TypoRule, str]]:
    """(rule, offending text) for each typography problem in ``text``."""
    out = []
    plain = text
    for rule in TYPO_RULES:
        if lang not in rule.langs:
            continue
        for m in rule.pattern.finditer(plain):
            if _rule_applies(rule, m):
                found = m.group()
                if found.endswith(" "):  # show the word the space leads to
                    word = cast(re.Match[str], re.match(r"[^\s\u00a0]*", plain[m.end():]))  # "" at least
                    found += word.group()
                out.append((rule, found.replace(NBSP, "\u2423")))
    return out
