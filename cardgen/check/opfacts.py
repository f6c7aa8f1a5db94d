"""The facts a line's effects give its text, found from the templates themselves.

Every parameter of every effect (and the op itself) is a fact the printed line states: the
op (place, remove, draw …), its amount, target, quantifier (one / any / split / up to),
side, direction, condition, duration. Which words state a fact is not listed by hand: the
line is rendered again with that one parameter given another value (another op of the rule
schema that takes the same parameters, another place, side, direction, the bool turned,
the number raised), and the words of the canonical text that change are the fact's
wording; the words the other value brings in are what a changed fact would say instead.

A written text states a fact when it has each of the fact's words (compared by stem, so a
Czech case ending or an English plural may differ) as often as the canonical text has it,
and none of the other values' words that the canonical text lacks. A wording exception may
change the other words of a line, never these.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from ..data.model import CardLine, Effect, GameData
from ..wording.templates import TextError, normalize, renderer

_WORD = re.compile(r"[+\u2212-]?\d+|[^\W\d_]+")
#: At most this many other values are tried per parameter.
_MOST_OTHERS = 4


@dataclass(frozen=True)
class OpFact:
    """One parameter of one effect as the canonical text states it."""

    op: str
    param: str  # "op" for the op itself
    value: Any
    rule: str
    words: tuple[str, ...]  # the canonical words that state it, in text order
    others: frozenset[str]  # words another value would bring in (not in the canonical text)

    @property
    def name(self) -> str:
        what = "the op" if self.param == "op" else f"{self.param} = {_shown(self.value)}"
        return f"{self.op}: {what}"


def _shown(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


def words(text: str) -> list[str]:
    """The words and numbers of ``text``, lower case, typography set aside."""
    return [w.replace("\u2212", "-") for w in _WORD.findall(normalize(text).lower())]


def _stem_match(a: str, b: str) -> bool:
    """Two words are one when equal or sharing all but their last two letters (3 at least):
    "umísti" / "umístí", "card" / "cards", "Trevíru" / "Trevír"."""
    if a == b:
        return True
    if a[:1].isdigit() or b[:1].isdigit() or a[:1] in "+-" or b[:1] in "+-":
        return False
    common = len(_common_prefix(a, b))
    return common >= max(3, min(len(a), len(b)) - 2)


def _common_prefix(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def _telling(word: str) -> bool:
    """Whether a word another value brings in says that value: a number, or a word of four
    letters or more (short words — "the", "do", "z" — come and go with any rewording)."""
    return word[:1].isdigit() or word[:1] in "+-" or len(word) >= 4


def _count(word: str, text: list[str]) -> int:
    return sum(_stem_match(word, w) for w in text)


def _nested(effect: Effect) -> Iterator[tuple[str, tuple[Effect, ...]]]:
    for key, value in effect.params.items():
        if isinstance(value, tuple) and value and all(isinstance(e, Effect) for e in value):
            yield key, value


def _all(effects: tuple[Effect, ...]) -> Iterator[Effect]:
    for effect in effects:
        yield effect
        for _key, inner in _nested(effect):
            yield from _all(inner)


def _swap(effects: tuple[Effect, ...], old: Effect, new: Effect) -> tuple[Effect, ...]:
    out = []
    for effect in effects:
        if effect is old:
            out.append(new)
            continue
        params = {k: _swap(v, old, new) if isinstance(v, tuple) and v and all(
            isinstance(e, Effect) for e in v) else v for k, v in effect.params.items()}
        out.append(effect if params == effect.params else replace(effect, params=params))
    return tuple(out)


class _Domains:
    """The other values a parameter may take, from the rule schema and the data."""

    def __init__(self, data: GameData):
        self.data = data
        self.schema = data.schema or {}
        places = list(data.places.values())
        self.countries = [p.id for p in places if p.category == "country"]
        self.battlegrounds = [p.id for p in places if p.category == "battleground"]
        self.locations = [p.id for p in places if p.category == "location"]

    def others(self, spec: dict, value: Any) -> list[Any]:
        kind = spec.get("type")
        values: list[Any]
        if kind == "bool":
            return [not value]
        if kind == "int":
            return [int(value) + 1] if isinstance(value, int) else []
        if kind == "choice":
            values = list(spec.get("values") or [])
        elif kind in ("who", "holder", "direction", "card_kind", "numbers"):
            values = list((self.schema.get("values") or {}).get(kind) or [])
        elif kind == "piles":
            return [[p] for p in ("hand", "discard") if [p] != list(value or [])]
        elif kind in ("country", "country_target"):
            values = self.countries + (["any"] if kind.endswith("target") else [])
        elif kind in ("battleground", "battleground_target"):
            values = self.battlegrounds + (["any"] if kind.endswith("target") else [])
        elif kind == "currency":
            values = list(self.data.currencies)
        elif kind == "card_types":
            values = [[c] for c in self.data.currencies if c != "any"]
        elif kind == "shield":
            values = list(self.data.shields)
        elif kind == "location":
            values = self.locations
        else:
            return []
        if isinstance(value, (list, tuple)):
            if kind.endswith("target"):
                return ["any", list(value)[0]]
            return [v for v in values if v != list(value)][:_MOST_OTHERS]
        return [v for v in values if v != value][:_MOST_OTHERS]

    def other_ops(self, effect: Effect) -> list[str]:
        """Ops that take every parameter ``effect`` gives and need no other."""
        ops = self.schema.get("ops") or {}
        given = set(effect.params)
        out = []
        for name, spec in ops.items():
            params = (spec or {}).get("params") or {}
            if name == effect.op or not given <= set(params):
                continue
            if any((p or {}).get("required") and k not in given for k, p in params.items()):
                continue
            out.append(name)
        return out


def line_facts(data: GameData, line: CardLine, lang: str) -> list[OpFact]:
    """Every fact the canonical text of ``line`` states in ``lang`` (an empty list when the
    line does not render)."""
    render = renderer(data, lang)
    try:
        canonical = words(render.line(line))
    except TextError:
        return []
    domains = _Domains(data)
    ops = data.schema.get("ops") or {}
    out: list[OpFact] = []
    for effect in _all(line.effects):
        spec = ops.get(effect.op) or {}
        rule = str(spec.get("rule") or "")
        axes: list[tuple[str, Any, list[Effect]]] = [
            ("op", effect.op, [Effect(op, effect.params, effect.loc)
                               for op in domains.other_ops(effect)])]
        for pname, pspec in (spec.get("params") or {}).items():
            if (pspec or {}).get("type") in ("effects", "op", "card"):
                continue
            value = effect.params.get(pname, (pspec or {}).get("default"))
            if value is None and (pspec or {}).get("type") != "bool":
                continue
            others = [replace(effect, params={**effect.params, pname: v})
                      for v in domains.others(pspec or {}, value)]
            axes.append((pname, value, others))
        for pname, value, variants in axes:
            mine: Counter[str] = Counter()
            theirs: set[str] = set()
            for variant in variants:
                try:
                    text = words(render.line(replace(line, effects=_swap(
                        line.effects, effect, variant))))
                except (TextError, KeyError, TypeError, ValueError):
                    continue
                have, other = Counter(canonical), Counter(text)
                mine |= have - other
                theirs |= {w for w in (other - have) if _telling(w) and not _count(w, canonical)}
            if mine or theirs:
                ordered = tuple(w for w in dict.fromkeys(canonical) if w in mine)
                out.append(OpFact(effect.op, pname, value, rule, ordered, frozenset(theirs)))
    return out


def unstated(facts: list[OpFact], written: str, canonical: str) -> list[tuple[OpFact, str]]:
    """The facts ``written`` does not state as ``canonical`` does, each with what is wrong."""
    have, want = words(written), words(canonical)
    out = []
    for fact in facts:
        missing = [w for w in fact.words if _count(w, have) < _count(w, want)]
        brought = sorted(w for w in fact.others if _count(w, have) > _count(w, want))
        if missing or brought:
            said = []
            if missing:
                said.append("lacks \u201c" + " ".join(missing) + "\u201d")
            if brought:
                said.append("says \u201c" + " ".join(brought) + "\u201d instead")
            out.append((fact, ", ".join(said)))
    return out


def describe(found: list[tuple[OpFact, str]]) -> str:
    """The differing facts as one clause of a message: each fact, its canonical wording,
    its rule and what the written text does instead."""
    return "; ".join(f"'{fact.name}' (canonical \u201c{' '.join(fact.words) or '—'}\u201d, "
                     f"rule {fact.rule}): the text {what}" for fact, what in found)
