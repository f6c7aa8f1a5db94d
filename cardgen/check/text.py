"""Written card text against the canonical text rendered from the line's effects.

Per card, per line kind (never by position) and per language:

* written text equal to the canonical text (spaces and non-breaking spaces alike) → ok;
* written text missing → error (a missing translation never falls back to English);
* a difference in numbers, currencies, places, card names, shields or glossary terms →
  error, with both texts;
* a difference in wording only → warning with both texts, unless the card lists an
  ``exceptions`` entry for that line and language;
* a forbidden glossary variant (e.g. a bare "zrušit" / "cancel", VLA-61) → error.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from ..compose import TextError, canonical_text, normalize, renderer
from ..errors import Finding, error, warning
from ..model import LANGS, Card, CardLine, GameData

_NUMBER = re.compile(r"(?<![\w-])\d+")
_SHIELD = re.compile(r":shield-([a-z0-9-]+):")
_TOKEN = re.compile(r":([a-z]+):")


def _pattern(phrases: Iterable[str]) -> re.Pattern[str] | None:
    words = sorted({p.strip() for p in phrases if p and p.strip()}, key=len, reverse=True)
    if not words:
        return None
    alts = "|".join(r"\s+".join(map(re.escape, w.split())) for w in words)
    return re.compile(rf"(?<!\w)(?:{alts})(?!\w)", re.IGNORECASE)


class _Facts:
    """The checkable facts of a text in one language: numbers, places, names …"""

    def __init__(self, data: GameData, lang: str):
        self.lang = lang
        tables = renderer(data, lang).tables
        self.cards = [(c.id, p) for c in data.cards
                      if (p := _pattern([c.name.get(lang) or ""])) is not None]
        self.places: list[tuple[str, re.Pattern[str]]] = []
        self.foreign_places: list[tuple[str, str, re.Pattern[str]]] = []
        own_names: set[str] = set()
        for pid, place in data.places.items():
            phrases = self._place_phrases(place, lang)  # every form: in, into, elector, acc …
            own_names |= {p.lower() for p in phrases if p}
            pat = _pattern(phrases)
            if pat:
                self.places.append((pid, pat))
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
        self.terms = [(t.id, p) for t in data.glossary
                      if (p := _pattern(t.forms.get(lang, ()))) is not None]

    @staticmethod
    def _place_phrases(place, lang: str) -> list[str]:
        out = [place.name.get(lang) or ""]
        for phrase in place.forms.get(lang, {}).values():
            out.append(phrase)
            first, _, rest = phrase.partition(" ")
            if rest and first.islower() and len(first) <= 4:  # after a preposition
                out.append(rest)  # the bare case form: "Čech", "Mohuče"
        return out

    def of(self, text: str) -> dict[str, Counter[str]]:
        text = text.replace("\u00a0", " ")
        found: dict[str, Counter[str]] = {}
        names = Counter()
        for cid, pat in self.cards:
            for _ in pat.finditer(text):
                names[cid] += 1
            text = pat.sub(" ", text)
        found["card names"] = names
        found["shields"] = Counter(_SHIELD.findall(text))
        found["numbers"] = Counter(_NUMBER.findall(_SHIELD.sub(" ", text)))
        found["places"] = Counter(pid for pid, pat in self.places if pat.search(text))
        found["currencies"] = Counter(
            cid for cid, pat in self.currencies if pat.search(text)) + Counter(
            t for t in _TOKEN.findall(text) if t in dict(self.currencies))
        found["glossary terms"] = Counter(tid for tid, pat in self.terms if pat.search(text))
        return found


_FACTS: dict[tuple[int, str], tuple[GameData, _Facts]] = {}


def _facts(data: GameData, lang: str) -> _Facts:
    key = (id(data), lang)
    hit = _FACTS.get(key)
    if hit is None or hit[0] is not data:
        hit = _FACTS[key] = (data, _Facts(data, lang))
    return hit[1]


def _describe(counter: Counter[str]) -> str:
    return ", ".join(sorted(counter.elements())) or "none"


def _forbidden(data: GameData, card: Card, line: CardLine, lang: str, text: str
               ) -> Iterable[Finding]:
    for term in data.glossary:
        for pattern, use in term.forbidden.get(lang, ()):
            try:
                match = re.search(pattern, text, re.IGNORECASE)
            except re.error:
                continue
            if match:
                yield error("forbidden-term",
                            f"'{match.group(0)}' in the {line.kind} text: the glossary says "
                            f"'{use}' ({term.note or term.id})",
                            location=line.text.at(lang) if line.text else line.loc,
                            card=card.id, lang=lang, rule="5.6" if term.id == "counter"
                            else None, hint=f"write '{use}'")


def _check_line(data: GameData, card: Card, line: CardLine, lang: str) -> Iterable[Finding]:
    written = line.text.get(lang) if line.text else None
    where = line.text.at(lang) if line.text else line.loc
    try:
        canonical = canonical_text(data, card, line, lang) if line.effects else None
    except TextError as exc:
        if exc.unsafe:  # the template's fault, reported once at its line
            yield _template_finding(exc, lang)
            return
        yield error("text-render", f"the {line.kind} line has no canonical {lang} text: {exc}",
                    location=exc.location or line.at("effects"), card=card.id, lang=lang,
                    hint="fix the effects (see the effects findings) or the template")
        canonical = None
    if written is None:
        yield error("missing-text", f"the {line.kind} line has no {lang} text "
                    "(a missing translation is never filled from another language)",
                    location=where, card=card.id, lang=lang, rule="2.36",
                    hint=f"write: {canonical}  (or run 'cardgen check --fill')" if canonical
                    else "add the text")
        return
    yield from _forbidden(data, card, line, lang, written)
    if canonical is None or normalize(written) == normalize(canonical):
        return
    facts = _facts(data, lang)
    have, want = facts.of(written), facts.of(canonical)
    diffs = [f"{what}: written {_describe(have[what])}, canonical {_describe(want[what])}"
             for what in want if have[what] != want[what]]
    foreign = [name for pid, name, pat in facts.foreign_places if pat.search(written)]
    if foreign:
        diffs.append(f"place name in another language: {', '.join(foreign)}")
    both = f"\n    written:   {written}\n    canonical: {canonical}"
    rule = next((str(data.schema.get('ops', {}).get(e.op, {}).get('rule'))
                 for e in line.effects if e.op in (data.schema.get('ops') or {})), None)
    if diffs:
        yield error("text-differs", f"the {line.kind} text does not say what its effects do "
                    f"({'; '.join(diffs)}){both}", location=where, card=card.id, lang=lang,
                    rule=rule, hint="make the text match the effects, or the effects the text")
        return
    if any(ex.line == line.kind and ex.lang == lang for ex in card.exceptions):
        return
    yield warning("text-wording", f"the {line.kind} text is worded differently from the "
                  f"canonical text{both}", location=where, card=card.id, lang=lang, rule=rule,
                  hint="use the canonical text, or add an 'exceptions' entry "
                  f"{{line: {line.kind}, lang: {lang}, reason: ...}}")


def _template_finding(exc: TextError, lang: str) -> Finding:
    return error(exc.code, str(exc), location=exc.location, lang=lang,
                 hint="a wording template is text with {{ helper(...) }} and {% if %} only; "
                 "see the comment at the top of the file" if exc.unsafe else
                 "fix the template's syntax")


def check_templates(data: GameData) -> list[Finding]:
    """Every op template and label in card_data/text/*.yaml compiles and stays inside the
    sandbox (:mod:`cardgen.sandbox`): one finding per template, at its line."""
    return [_template_finding(exc, lang)
            for lang in LANGS for exc in renderer(data, lang).template_errors()]


def check_texts(data: GameData) -> list[Finding]:
    out = check_templates(data)
    if not data.schema.get("ops"):
        return out  # no usable rule schema (reported by the load and effects checks): no canonical text
    for card in data.cards:
        for kind in [ln.kind for ln in card.lines]:
            line = card.line(kind)
            if line is None:
                continue
            for lang in LANGS:
                out.extend(f for f in _check_line(data, card, line, lang) if f not in out)
    return out
