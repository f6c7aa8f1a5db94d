"""Every card effect against the rule schema (card_data/rules/schema.yaml).

Unknown ops and parameters (with the nearest valid name), wrong types, missing required
parameters, references to countries, battlegrounds, shields, currencies, locations and
cards that do not exist, and ops on a line kind the schema's `lines` (or `default_lines`)
does not allow: each a finding with the effect's file:line:col and its rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..data.fields import suggest
from ..data.model import LINE_KINDS, Card, Effect, GameData
from ..data.ranges import spec_range
from ..errors import Finding, Location, error


class _Types:
    def __init__(self, data: GameData):
        self.data = data
        schema = self.schema = data.schema or {}
        self.ops: dict[str, Any] = dict(schema.get("ops") or {})
        self.values: dict[str, list[str]] = {k: list(v) for k, v in
                                             (schema.get("values") or {}).items()}
        cat: dict[str, list[str]] = {}
        for pid, place in data.places.items():
            cat.setdefault(place.category, []).append(pid)
        self.countries = cat.get("country", [])
        self.battlegrounds = cat.get("battleground", [])
        self.locations = cat.get("location", [])
        self.cards = [c.id for c in data.cards]

    @staticmethod
    def _one(value: Any, options: list[str], what: str) -> str | None:
        if not isinstance(value, str):
            return f"must be {what} id, not {value!r}"
        if value in options:
            return None
        near = suggest(value, options)
        return f"unknown {what} '{value}'" + (f" (did you mean '{near}'?)" if near else
                                             f"; use one of: {', '.join(options)}")

    def _list(self, value: Any, options: list[str], what: str) -> str | None:
        if not isinstance(value, list) or not value:
            return f"must be a non-empty list of {what} ids"
        for item in value:
            problem = self._one(item, options, what)
            if problem:
                return problem
        return None

    def _target(self, value: Any, options: list[str], what: str) -> str | None:
        if value == "any":
            return None
        if isinstance(value, list):
            return self._list(value, options, what)
        return self._one(value, options, what)

    def check(self, type_name: str, spec: dict[str, Any], value: Any) -> str | None:
        t = type_name
        if t == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                return f"must be a whole number, not {value!r}"
            rng = spec_range(spec)
            return None if rng is None or rng.holds(value) else (
                f"is {value}, outside {rng.text()} [{rng.at}]")
        if t == "bool":
            return None if isinstance(value, bool) else f"must be true or false, not {value!r}"
        if t == "choice":
            return self._one(value, list(spec.get("values") or []), "value")
        if t == "country":
            return self._one(value, self.countries, "country")
        if t == "country_list":
            return self._list(value, self.countries, "country")
        if t == "country_target":
            return self._target(value, self.countries, "country")
        if t == "battleground":
            return self._one(value, self.battlegrounds, "battleground")
        if t == "battleground_target":
            return self._target(value, self.battlegrounds, "battleground")
        if t == "currency":
            return self._one(value, list(self.data.currencies), "currency")
        if t == "card_types":
            return self._list(value, [c for c in self.data.currencies if c != "any"],
                              "card type (currency)")
        if t == "shield":
            return self._one(value, list(self.data.shields), "shield")
        if t == "location":
            return self._one(value, self.locations, "location")
        if t == "card":
            return self._one(value, self.cards, "card")
        if t == "op":
            return self._one(value, list(self.ops), "op")
        if t == "piles":
            return self._list(value, self.values.get("piles", []), "pile")
        if t in self.values:
            return self._one(value, self.values[t], t)
        if t == "effects":
            if isinstance(value, tuple) and all(isinstance(e, Effect) for e in value):
                return None
            return "must be a list of effects, each with 'op:'"
        return f"has unknown schema type '{t}'"


def _range_hint(name: str, spec: Any, value: Any) -> str | None:
    """The fix for a whole number outside its parameter's range (None for other problems)."""
    rng = spec_range(spec) if isinstance(value, int) and not isinstance(value, bool) else None
    return None if rng is None or rng.holds(value) else rng.hint(f"write {name} {rng.allowed()}")


def _lines(types: _Types, op: str) -> list[str]:
    spec = types.ops.get(op) or {}
    return list(spec.get("lines") or (types.schema.get("default_lines") or LINE_KINDS))


def _effect(types: _Types, card: Card, effect: Effect, line: str) -> Iterable[Finding]:
    spec = types.ops.get(effect.op)
    if spec is None:
        near = suggest(effect.op, types.ops)
        yield error("unknown-op", f"unknown effect op '{effect.op}' in the {line} line",
                    location=effect.at("op"), card=card.id,
                    hint=f"did you mean '{near}'?" if near else
                    "see card_data/rules/schema.yaml for the ops")
        return
    rule = str(spec.get("rule")) if spec.get("rule") else None
    allowed = _lines(types, effect.op)
    if line not in allowed:
        article = "an" if line[:1] in "aeiou" else "a"
        yield error("op-line", f"op '{effect.op}' can't be on {article} {line} line",
                    location=effect.at("op"), card=card.id, rule="2.36",
                    hint=f"it belongs on: {', '.join(allowed)} (card_data/rules/schema.yaml)")
    params: dict[str, Any] = dict(spec.get("params") or {})
    for name, value in effect.params.items():
        pspec = params.get(name)
        if pspec is None:
            near = suggest(name, params)
            yield error("unknown-param", f"unknown parameter '{name}' for op '{effect.op}'",
                        location=effect.at(name), card=card.id, rule=rule,
                        hint=f"did you mean '{near}'?" if near else
                        f"valid parameters: {', '.join(params) or 'none'}")
            continue
        problem = types.check(str(pspec.get("type")), pspec, value)
        if problem:
            yield error("bad-param", f"'{name}' of op '{effect.op}' {problem}",
                        location=effect.at(name), card=card.id, rule=rule,
                        hint=_range_hint(name, pspec, value))
        if isinstance(value, tuple):
            for sub in value:
                if isinstance(sub, Effect):
                    yield from _effect(types, card, sub, line)
    for name, pspec in params.items():
        if (pspec or {}).get("required") and name not in effect.params:
            yield error("missing-param", f"op '{effect.op}' needs '{name}' "
                        f"({(pspec or {}).get('type')})", location=effect.loc, card=card.id,
                        rule=rule, hint=f"add '{name}: ...'")


def _shield_line(card: Card) -> Iterable[Finding]:
    """A 'When acquired:' line places the card's own shield (11.1)."""
    line = card.line("acquire")
    if line is None or card.shield is None:
        return
    placed = [e for e in line.effects if e.op == "place_shield"]
    if not placed:
        yield error("acquire-no-shield", "the 'When acquired:' line must place the card's "
                    "shield", location=line.loc, card=card.id, rule="11.1",
                    hint=f"effects: [{{op: place_shield, shield: {card.shield}, "
                    "location: your-court}]")
    for e in placed:
        if e.params.get("shield") != card.shield:
            yield error("acquire-other-shield", f"the 'When acquired:' line places "
                        f"'{e.params.get('shield')}', but the card's shield is '{card.shield}'",
                        location=e.at("shield"), card=card.id, rule="11.1")


def _schema_lines(types: _Types) -> Iterable[Finding]:
    """Every `lines` / `default_lines` entry of the schema names a line kind (2.36)."""
    lists = [("default_lines", "default_lines", types.schema)]
    lists += [(f"lines of op '{op}'", "lines", spec or {}) for op, spec in types.ops.items()]
    for what, key, owner in lists:
        kinds = owner.get(key)
        if kinds is None:
            continue
        at = owner.at(key) if hasattr(owner, "at") else Location("card_data/rules/schema.yaml")
        if not isinstance(kinds, list) or not kinds:
            yield error("schema-lines", f"{what} must be a non-empty list of line kinds",
                        location=at, rule="2.36", hint=f"line kinds: {', '.join(LINE_KINDS)}")
            continue
        for kind in kinds:
            if kind not in LINE_KINDS:
                near = suggest(str(kind), LINE_KINDS)
                yield error("schema-lines", f"{what}: unknown line kind '{kind}'", location=at,
                            rule="2.36", hint=f"did you mean '{near}'?" if near else
                            f"line kinds: {', '.join(LINE_KINDS)}")


def check_effects(data: GameData) -> list[Finding]:
    """Validate every effect of every card against card_data/rules/schema.yaml."""
    types = _Types(data)
    out: list[Finding] = []
    if not types.ops:
        out.append(error("no-schema", "the rule schema has no 'ops'",
                         location=Location("card_data/rules/schema.yaml"),
                         hint="restore the rule schema"))
        return out
    out.extend(_schema_lines(types))
    for card in data.cards:
        for line in card.lines:
            for effect in line.effects:
                out.extend(_effect(types, card, effect, line.kind))
        out.extend(_shield_line(card))
    return out
