"""Finding words and names in printed text: inline ``:symbols:`` blanked out, phrases as
whole words with any space matching a non-breaking one, Czech names in any case ending, and
the table of every card, place and shield name with its case forms.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..data.model import Bilingual, GameData
from ..errors import Finding, Severity, error, warning
from .wordindex import WordIndex

SEVERITY: dict[Severity, Callable[..., Finding]] = {Severity.ERROR: error, Severity.WARNING: warning}


LANG_NAMES = {"en": "English", "cs": "Czech"}
OTHER = {"en": "cs", "cs": "en"}
MM = 72 / 25.4  # points per millimetre

# --------------------------------------------------------------------------------------
# Inline symbols and word matching
# --------------------------------------------------------------------------------------

TOKEN = re.compile(r":[a-z][a-z0-9-]*:")


def strip_tokens(text: str) -> str:
    """``text`` with every ``:token:`` replaced by spaces of the same length."""
    return TOKEN.sub(lambda m: " " * len(m.group()), text)


@cache
def phrase_re(phrase: str) -> re.Pattern[str]:
    body = r"[\s\u00a0]+".join(re.escape(p) for p in phrase.split())
    return re.compile(rf"(?<![\w]){body}(?![\w])", re.IGNORECASE)


def find_phrase(phrase: str, text: str) -> re.Match[str] | None:
    """``phrase`` as whole words in ``text``, case-insensitively, any space matching NBSP."""
    return phrase_re(phrase).search(text)


_SP = r"[\s\u00a0]+"


@cache
def stem_re(phrase: str) -> re.Pattern[str]:
    """A Czech name allowing case endings: long words match on all but their last 2 letters.

    A two-word name also matches its first word when a coordinated word shares the second:
    "mohučského nebo trevírského kurfiřta" names "mohučského kurfiřta" too.
    """
    parts = []
    for word in phrase.split():
        core = word.rstrip(".")
        if len(core) >= 4 and core.isalpha():
            parts.append(re.escape(core[:-2]) + r"\w{0,4}")
        else:
            parts.append(re.escape(word))
    body = _SP.join(parts)
    if len(parts) == 2:
        shared = rf"(?=(?:\s*,\s*\w+)*{_SP}(?:nebo|či|a|i){_SP}\w+{_SP}{parts[1]}(?![\w]))"
        body = rf"(?:{body}|{parts[0]}{shared})"
    return re.compile(r"(?<![\w])" + body + r"(?![\w])", re.IGNORECASE)


# --------------------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Named:
    id: str
    what: str  # card | place | shield | currency
    forms: dict[str, tuple[str, ...]]  # lang -> names and case forms, the name first


def name_table(data: GameData) -> list[Named]:
    out: list[Named] = []
    seen: set[tuple[str, str]] = set()

    def add(nid: str, what: str, name: Bilingual, forms: Mapping[str, Mapping[str, str]]) -> None:
        by_lang = {}
        for lang in ("en", "cs"):
            first = name.get(lang)
            if not first:
                return
            rest = [v for v in forms.get(lang, {}).values() if v != first]
            by_lang[lang] = (first, *dict.fromkeys(rest))
        key = (by_lang["en"][0], by_lang["cs"][0])
        if key in seen:
            return
        seen.add(key)
        out.append(Named(nid, what, by_lang))

    for card in data.cards:
        add(card.id, "card", card.name, card.name_forms)
    for place in data.places.values():
        add(place.id, "place", place.name, place.forms)
    for shield in data.shields.values():
        add(shield.id, "shield", shield.name, shield.forms)
    return out


def name_index(names: Sequence[Named], lang: str) -> WordIndex[Named]:
    """The names of one language indexed by their forms' first words (see wordindex)."""
    return WordIndex((name, name.forms[lang]) for name in names)


def find_names(names: Sequence[Named], text: str, lang: str,
                index: WordIndex[Named] | None = None) -> set[str]:
    """Ids of the names in ``text``; the longest match wins, shorter names inside it do not.

    With the ``index`` of ``names``, only the names whose first word starts a word of
    ``text`` are tried (the same result, in time linear in the text, not in the names).
    """
    spans: list[tuple[int, int, str]] = []
    for name in index.candidates(text) if index is not None else names:
        for form in name.forms[lang]:
            pattern = stem_re(form) if lang == "cs" else phrase_re(form)
            spans.extend((m.start(), m.end(), name.id) for m in pattern.finditer(text))
    spans.sort(key=lambda s: (s[0] - s[1], s[0]))
    taken: list[tuple[int, int]] = []
    found: set[str] = set()
    for start, end, nid in spans:
        if any(start < e and s < end for s, e in taken):
            continue
        taken.append((start, end))
        found.add(nid)
    return found


def referenced_ids(effects: Iterable[Any], ids: Mapping[str, Named]) -> set[str]:
    out: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            if value in ids and ids[value].what == "card":
                out.add(value)
        elif isinstance(value, Mapping):
            for v in value.values():
                walk(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v)
        elif hasattr(value, "params"):
            walk(value.params)

    for effect in effects:
        walk(effect)
    return out


