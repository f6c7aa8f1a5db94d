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
from dataclasses import dataclass, replace
from typing import Any

from ..data.model import CardLine, Effect, GameData
from ..wording.templates import TextError, normalize, renderer
from .facts import swap_effect

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
                return ["any", next(iter(value))]
            return [v for v in values if v != list(value)][:_MOST_OTHERS]
        return [v for v in values if v != value][:_MOST_OTHERS]

    def other_ops(self, effect: Effect) -> tuple[list[Effect], bool]:
        """``effect`` as another op: the ops that take every parameter it gives and need no
        other; failing those, the ops that need none it lacks (given only theirs); and
        whether they are the first kind."""
        ops = self.schema.get("ops") or {}
        given = set(effect.params)
        strict: list[Effect] = []
        loose: list[Effect] = []
        for name, spec in ops.items():
            params = (spec or {}).get("params") or {}
            if name == effect.op or any((p or {}).get("required") and k not in given
                                        for k, p in params.items()):
                continue
            kept = {k: v for k, v in effect.params.items() if k in params}
            (strict if given <= set(params) else loose).append(
                Effect(name, kept, effect.loc))
        return (strict, True) if strict else (loose, False)


def line_facts(data: GameData, line: CardLine, lang: str) -> list[OpFact]:
    """Every fact the canonical text of ``line`` states in ``lang`` (an empty list when the
    line does not render)."""
    render = renderer(data, lang)
    try:
        canonical = words(render.line(line))
    except TextError:
        return []
    axes = _Axes(data, render, line, canonical)
    return [f for effect in line.effects for f in axes.facts(effect)]


class _Axes:
    """The facts of each effect of one line, nested effects after the one that holds them."""

    def __init__(self, data: GameData, render: Any, line: CardLine, canonical: list[str]):
        self.domains = _Domains(data)
        self.ops = data.schema.get("ops") or {}
        self.render, self.line, self.canonical = render, line, canonical

    def facts(self, effect: Effect) -> list[OpFact]:
        spec = self.ops.get(effect.op) or {}
        rule = str(spec.get("rule") or "")
        params = []
        for pname, pspec in (spec.get("params") or {}).items():
            pspec = pspec or {}
            if pspec.get("type") in ("effects", "op", "card"):
                continue
            value = effect.params.get(pname, pspec.get("default"))
            if value is None and pspec.get("type") != "bool":
                continue
            others = [replace(effect, params={**effect.params, pname: v})
                      for v in self.domains.others(pspec, value)]
            params.append(self._fact(effect, rule, (pname, value, others)))
        inner = [f for _key, nested in effect.nested() for e in nested for f in self.facts(e)]
        alternatives, strict = self.domains.other_ops(effect)
        op = self._fact(effect, rule, ("op", effect.op, alternatives))
        if op is not None:  # the op's own words: not those of its nested effects (nor, for
            # an op compared with ops that drop some of its parameters, of those)
            taken = {w for f in (*(() if strict else params), *inner) if f for w in f.words}
            left = tuple(w for w in op.words if w not in taken)
            op = replace(op, words=left) if left else None
        return [f for f in (op, *params) if f is not None] + inner

    def _fact(self, effect: Effect, rule: str, axis: tuple[str, Any, list[Effect]]
              ) -> OpFact | None:
        """The fact of one parameter: the canonical words any other value changes."""
        pname, value, variants = axis
        mine: Counter[str] | None = None
        theirs: set[str] = set()
        have = Counter(self.canonical)
        for variant in variants:
            try:
                text = words(self.render.line(replace(self.line, effects=swap_effect(
                    self.line.effects, effect, variant))))
            except (TextError, KeyError, TypeError, ValueError):
                continue
            other = Counter(text)
            gone = have - other
            mine = gone if mine is None else mine | gone
            if pname != "op":  # another op says much else besides its verb
                theirs |= {w for w in (other - have)
                           if _telling(w) and not _count(w, self.canonical)}
        if not mine and not theirs:
            return None
        ordered = tuple(w for w in dict.fromkeys(self.canonical) if w in (mine or ()))
        return OpFact(effect.op, pname, value, rule, ordered, frozenset(theirs))


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
