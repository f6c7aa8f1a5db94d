"""The facts a card text states, counted the same way in the canonical and the written text:
numbers, places, currencies, card names, shields, glossary terms, sentences and the fact
classes of the meaning vocabulary (card_data/text/<lang>.yaml), names set aside."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from itertools import pairwise

from ..data.memo import Memo
from ..data.model import LANGS, GameData
from ..data.patterns import BoundedPattern, PatternError, bounded
from ..wording.templates import normalize, renderer
from .wordindex import WordIndex

_NUMBER = re.compile(r"(?<![\w-])\d+")
_SHIELD = re.compile(r":shield-([a-z0-9-]+):")
_TOKEN = re.compile(r":([a-z]+):")
_ROMAN = re.compile(r"(?<!\w)[IVX]+\.")
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
#: Never a boundary: inline tokens (":shield-x:") and Roman ordinals ("Jan IV.").
_UNSPLIT = re.compile(r":[a-z][a-z0-9-]*:|(?<!\w)[IVX]+\.")
#: (id of the data, language) -> the facts counted for it, kept while the data lives
_FACTS: Memo[tuple[int, str], tuple[GameData, TextFacts]] = Memo(8)


def _pattern(phrases: Iterable[str]) -> re.Pattern[str] | None:
    words = sorted({p.strip() for p in phrases if p and p.strip()}, key=len, reverse=True)
    if not words:
        return None
    alts = "|".join(r"\s+".join(map(re.escape, w.split())) for w in words)
    return re.compile(rf"(?<!\w)(?:{alts})(?!\w)", re.IGNORECASE)


def _vocabulary(patterns: Iterable[str]) -> BoundedPattern | None:
    """A meaning class's regular expressions, as whole words in any case, matched with
    bounded cost (a broken or unbounded one is left out and reported by
    :func:`check_vocabulary`)."""
    alts = [r"\s+".join(p.split()) for p in patterns
            if isinstance(p, str) and p.strip() and _regex(p) is not None]
    if not alts:
        return None
    where = getattr(patterns, "loc", None)
    joined = rf"(?<!\w)(?:{'|'.join(alts)})(?!\w)"
    return bounded(joined, where, check="|".join(alts))


#: Fact kinds in the order a message lists them.
KINDS = ("numbers", "card names", "shields", "places", "currencies", "glossary terms",
         "meaning", "sentences")


class TextFacts:
    """The checkable facts of a text in one language: numbers, places, names, meaning …"""

    def __init__(self, data: GameData, lang: str):
        self.lang = lang
        tables = renderer(data, lang).tables
        names = {c.id: [c.name.get(lang) or "", *c.name_forms.get(lang, {}).values()]
                 for c in data.cards}  # the name and its case forms
        self.cards = WordIndex(((c.id, p), names[c.id]) for c in data.cards
                               if (p := _pattern(names[c.id])) is not None)
        places: list[tuple[tuple[str, re.Pattern[str]], list[str]]] = []
        self.foreign_places: list[tuple[str, str, re.Pattern[str]]] = []
        own_names: set[str] = set()
        for pid, place in data.places.items():
            phrases = self._place_phrases(place, lang)  # every form: in, into, elector, acc …
            own_names |= {p.lower() for p in phrases if p}
            pat = _pattern(phrases)
            if pat:
                places.append(((pid, pat), phrases))
        self.places = WordIndex(places)
        for other in LANGS:
            if other == lang:
                continue
            for pid, place in data.places.items():
                name = place.name.get(other) or ""
                bare = re.sub(r"^the\s+", "", name)
                if bare and bare.lower() not in own_names and not any(
                        bare.lower() in n for n in own_names):
                    pat = _pattern([bare])
                    if pat:
                        self.foreign_places.append((pid, bare, pat))
        self.currencies: list[tuple[str, re.Pattern[str]]] = []
        for cid, cur in data.currencies.items():
            forms = list((data.nouns.get(f"currency:{cid}") or {}).get(lang, {}).values())
            forms.append(cur.name.get(lang) or "")
            type_forms = dict(tables.get("types") or {}).get(cid)
            if isinstance(type_forms, dict):  # a damaged table is reported by the loader
                forms += [str(v) for v in type_forms.values()]
            pat = _pattern(forms)
            if pat:
                self.currencies.append((cid, pat))
        self.terms = WordIndex(((t.id, p), t.forms.get(lang, ())) for t in data.glossary
                               if (p := _pattern(t.forms.get(lang, ()))) is not None)
        vocabulary = tables.get("meaning")
        self.meaning = [(str(k), vp) for k, v in (vocabulary or {}).items()
                        if isinstance(v, list) and (vp := _vocabulary(v)) is not None]
        self.otherwise = next((vp for k, vp in self.meaning if k == "otherwise"), None)
        self.boundaries = [bp for v in (tables.get("clauses") or ())
                           if isinstance(v, str) and (bp := _regex(v)) is not None]

    @staticmethod
    def _place_phrases(place, lang: str) -> list[str]:
        out = [place.name.get(lang) or ""]
        for phrase in place.forms.get(lang, {}).values():
            out.append(phrase)
            first, _, rest = phrase.partition(" ")
            if rest and first.islower() and len(first) <= 4:  # after a preposition
                out.append(rest)  # the bare case form: "Čech", "Mohuče"
        return out

    def of(self, text: str) -> Counter[tuple[str, str]]:
        """Every fact of ``text`` as (kind, item) with its count."""
        text = normalize(text)
        found: Counter[tuple[str, str]] = Counter()
        for cid, pat in self.cards.candidates(text):  # in card order, as a sequence of subs
            for _ in pat.finditer(text):
                found["card names", cid] += 1
            text = pat.sub(" ", text)
        found.update(("shields", s) for s in _SHIELD.findall(text))
        found.update(("numbers", n) for n in _NUMBER.findall(_SHIELD.sub(" ", text)))
        plain = text
        for pid, pat in self.places.candidates(text):
            if pat.search(text):
                found["places", pid] += 1
            plain = pat.sub(" ", plain)
        for cid, pat in self.currencies:
            if pat.search(text):
                found["currencies", cid] += 1
        found.update(("currencies", t) for t in _TOKEN.findall(text)
                     if t in dict(self.currencies))
        for tid, pat in self.terms.candidates(text):
            if pat.search(text):
                found["glossary terms", tid] += 1
        for kind, vocab in self.meaning:
            found["meaning", kind] += len(vocab.findall(plain))
        found["sentences", ""] = len(_SENTENCE_END.findall(_ROMAN.sub(" ", text)))
        return +found

    def branches(self, clauses: list[str]) -> list[list[str]]:
        """A statement's clauses cut before each "otherwise": the branches of its condition."""
        out: list[list[str]] = [[]]
        for clause in clauses:
            if out[-1] and self.otherwise and self.otherwise.match(clause):
                out.append([])
            out[-1].append(clause)
        return out

    def clause_facts(self, text: str) -> Counter[tuple[str, str]]:
        """The facts of a clause: those of :meth:`of` but the sentence count."""
        return Counter({k: n for k, n in self.of(text).items() if k[0] != "sentences"})

    def statements(self, text: str) -> list[list[str]]:
        """``text`` as statements, each a list of clauses (see the module docstring)."""
        text = normalize(text)
        masked = _UNSPLIT.sub(lambda m: "x" * len(m.group()), text)
        out: list[list[str]] = []
        for start, end in _pieces(masked, [m.end() for m in _SENTENCE_END.finditer(masked)]):
            clauses = self._clauses(text[start:end], masked[start:end])
            if not clauses:
                continue
            if out and self.otherwise and self.otherwise.match(clauses[0]):
                out[-1].extend(clauses)  # "Otherwise: …" is the other branch of the one before
            else:
                out.append(clauses)
        return out

    def _clauses(self, text: str, masked: str) -> list[str]:
        spans = [(0, len(text))]
        cutters = [(p, False) for p in self.boundaries]
        if self.otherwise:
            cutters.append((self.otherwise, True))
        for pattern, before in cutters:
            spans = [(start + a, start + b) for start, end in spans
                     for a, b in _pieces(masked[start:end], [
                         m.start() if before else m.end()
                         for m in pattern.finditer(masked[start:end])])]
        return [c for a, b in spans if re.search(r"\w", c := text[a:b].strip())]


def _regex(source: str) -> BoundedPattern | None:
    """A clause boundary of the language file, in any case, matched with bounded cost (a
    broken or unbounded one is reported by :func:`check_vocabulary`)."""
    try:
        return bounded(source)
    except PatternError:
        return None


def _pieces(text: str, cuts: Iterable[int]) -> list[tuple[int, int]]:
    """The spans of ``text`` between the ``cuts`` (positions), empty ones left out."""
    edges = [0, *sorted({c for c in cuts if 0 < c < len(text)}), len(text)]
    return [(a, b) for a, b in pairwise(edges) if a < b]


def text_facts(data: GameData, lang: str) -> TextFacts:
    key = (id(data), lang)
    hit = _FACTS.get(key)
    if hit is None or hit[0] is not data:
        hit = _FACTS[key] = (data, TextFacts(data, lang))
    return hit[1]


def fact_delta(have: Counter, want: Counter) -> Counter[tuple[str, str]]:
    return (have - want) + (want - have)


def _spoken(kind: str, have: Counter, want: Counter, items: list[str]) -> str:
    if kind == "sentences":
        return f"written {have[kind, '']}, canonical {want[kind, '']}"
    if kind == "meaning":
        return "; ".join(f"'{i}' written {have[kind, i]}\u00d7, canonical {want[kind, i]}\u00d7"
                         for i in items)

    def listed(c: Counter) -> str:
        return ", ".join(sorted(i for (k, i), n in c.items() if k == kind
                                for _ in range(n))) or "none"
    return f"written {listed(have)}, canonical {listed(want)}"


def describe_delta(have: Counter, want: Counter) -> list[str]:
    diff = fact_delta(have, want)
    return [f"{kind}: {_spoken(kind, have, want, items)}" for kind in KINDS
            if (items := sorted({i for k, i in diff if k == kind}))]
