"""Ranges of the numbers the data prints or counts: ``ranges`` in card_data/rules/schema.yaml
(and each whole-number op parameter's ``min`` / ``max``, checked with the effects).

A value outside its range is an error at its own line that names the value, the range and
the schema line setting it (the ranges are prototype limits the designer may widen there).
The model the later stages see holds each such value at the nearest end of its range
(:func:`held`), so no check counts to a 15-digit number; the error has already been said.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from ..errors import Finding, Location, error
from . import model as m

SCHEMA_FILE = "card_data/rules/schema.yaml"
#: The card numbers ``ranges.card`` may bound (the model's field names); ``yield`` is counted.
CARD_NUMBERS = ("political", "military", "number", "copies", "use_cost", "year")


@dataclass(frozen=True)
class Range:
    """Inclusive bounds (None: unbounded that way), where the schema sets them, the rule."""

    low: int | None
    high: int | None
    at: Location
    rule: str | None = None

    def holds(self, value: int) -> bool:
        return ((self.low is None or value >= self.low)
                and (self.high is None or value <= self.high))

    def nearest(self, value: int) -> int:
        """``value`` moved to the nearest end of the range (unchanged when inside)."""
        if self.low is not None and value < self.low:
            return self.low
        return self.high if self.high is not None and value > self.high else value

    def text(self) -> str:
        if self.low is not None and self.high is not None:
            return f"{self.low}–{self.high}"
        return f"at least {self.low}" if self.low is not None else f"at most {self.high}"

    def allowed(self) -> str:
        """The range as a fix says it: "from 0 to 9", "at least 1"."""
        if self.low is not None and self.high is not None:
            return f"from {self.low} to {self.high}"
        return self.text()

    def hint(self, fix: str) -> str:
        """``fix`` ("write political from 0 to 9"), and where the range may be widened."""
        return (f"{fix}; the range is a prototype limit: to go beyond it, widen it in "
                f"{self.at}")


def spec_range(spec: Any) -> Range | None:
    """The range a schema mapping with ``min`` and/or ``max`` sets (a ``ranges`` entry or a
    whole-number op parameter); None when it sets neither."""
    if not isinstance(spec, dict):
        return None
    low, high = (spec.get(k) if isinstance(spec.get(k), int)
                 and not isinstance(spec.get(k), bool) else None for k in ("min", "max"))
    if low is None and high is None:
        return None
    rule = spec.get("rule")
    return Range(low, high, getattr(spec, "loc", Location(SCHEMA_FILE)),
                 rule if isinstance(rule, str) else None)


def _table(schema: Any, group: str) -> dict[str, Range]:
    ranges = schema.get("ranges") if isinstance(schema, dict) else None
    table = ranges.get(group) if isinstance(ranges, dict) else None
    if not isinstance(table, dict):
        return {}
    return {k: r for k, v in table.items() if (r := spec_range(v)) is not None}


def _outside(what: str, value: int, rng: Range, where: Location, card: str | None,
             coins: bool = False) -> Finding:
    if coins:
        shown = f"{what} of {value} coin{'' if value == 1 else 's'}"
        fix = (f"give it a {what} of {rng.low} to {rng.high} coins" if rng.low is not None
               and rng.high is not None else f"give it a {what} of {rng.text()} coins")
        rng_text = f"{rng.text()} coins"
    else:
        shown, rng_text, fix = f"{what} {value}", rng.text(), f"write {what} {rng.allowed()}"
    return error("out-of-range", f"{shown} is outside {rng_text} [{rng.at}]", location=where,
                 card=card, rule=rng.rule, hint=rng.hint(fix))


#: One number the ranges bound: (finding's "what", value, range, where, card id, coins?)
Bound = tuple[str, int, Range, Location, str | None, bool]


def _card_bounds(data: m.GameData) -> Iterator[Bound]:
    card_ranges, costs = _table(data.schema, "card"), _table(data.schema, "cost")
    line_costs = _table(data.schema, "line_cost")
    for card in data.cards:
        for key in CARD_NUMBERS:
            value = getattr(card, key)
            if key in card_ranges and value is not None and key in card.locs:
                yield key, value, card_ranges[key], card.at(key), card.id, False
        if "yield" in card_ranges:
            yield "yield", len(card.yields), card_ranges["yield"], card.at("yield"), card.id, True
        if card.kind in costs:
            yield "cost", len(card.cost), costs[card.kind], card.at("cost"), card.id, True
        for line in card.lines:
            if line.kind in line_costs:
                yield (f"{line.kind} cost", len(line.cost), line_costs[line.kind],
                       line.at("cost"), card.id, True)


def _game_bounds(data: m.GameData) -> Iterator[Bound]:
    places, phases = _table(data.schema, "place"), _table(data.schema, "phase")
    counts = _table(data.schema, "counts")
    for place in data.places.values():
        for key, rng in places.items():
            value = place.attrs.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                yield (f"{key} of {place.id}", value, rng, place.locs.get(key, place.loc),
                       None, False)
    for phase in data.phases:
        for key, rng in phases.items():
            yield (f"{key} of phase {phase.id}", getattr(phase, key), rng,
                   phase.locs.get(key, phase.loc), None, False)
    for key, value in data.game.counts.items():
        limit = counts.get(key, counts.get("default"))
        if limit is not None and not isinstance(value, bool):
            yield f"counts.{key}", value, limit, data.game.locs.get(key, data.game.loc), None, False


def _bad_ranges(schema: Any) -> Iterator[Finding]:
    """A range whose ``min`` is above its ``max`` would refuse every value."""
    ranges = schema.get("ranges") if isinstance(schema, dict) else None
    for group, table in (ranges or {}).items():
        for key, spec in (table or {}).items():
            rng = spec_range(spec)
            if rng and rng.low is not None and rng.high is not None and rng.low > rng.high:
                yield error("range-bad", f"ranges.{group}.{key}: min {rng.low} is above max "
                            f"{rng.high}", location=rng.at, hint="swap them")


def range_findings(data: m.GameData) -> list[Finding]:
    """Every printed number and count of ``data`` outside its range in the schema."""
    out = list(_bad_ranges(data.schema))
    for what, value, rng, where, card, coins in (*_card_bounds(data), *_game_bounds(data)):
        if not rng.holds(value):
            out.append(_outside(what, value, rng, where, card, coins))
    return out


def held(data: m.GameData) -> m.GameData:
    """``data`` with each whole number outside its range at the range's nearest end (coin
    counts are left: a list is as long as its file). The same object when nothing is out."""
    card_ranges = _table(data.schema, "card")
    places, phases = _table(data.schema, "place"), _table(data.schema, "phase")
    counts = _table(data.schema, "counts")

    def fixed(values: dict[str, Any], ranges: Callable[[str], Range | None]) -> dict[str, Any]:
        out = {}
        for key, value in values.items():
            rng = ranges(key)
            if (rng is not None and isinstance(value, int) and not isinstance(value, bool)
                    and not rng.holds(value)):
                out[key] = rng.nearest(value)
        return out

    cards = []
    for card in data.cards:
        new = fixed({k: getattr(card, k) for k in CARD_NUMBERS}, card_ranges.get)
        cards.append(m.read_from(replace(card, **new), card.source_key) if new else card)
    new_places = {}
    for pid, place in data.places.items():
        new = fixed(place.attrs, places.get)
        new_places[pid] = replace(place, attrs={**place.attrs, **new}) if new else place
    new_phases = tuple(replace(ph, **new) if (new := fixed(
        {k: getattr(ph, k) for k in phases}, phases.get)) else ph for ph in data.phases)
    new_counts = fixed(data.game.counts, lambda k: counts.get(k, counts.get("default")))
    changed = (any(a is not b for a, b in zip(cards, data.cards, strict=True))
               or any(new_places[k] is not v for k, v in data.places.items())
               or any(a is not b for a, b in zip(new_phases, data.phases, strict=True))
               or new_counts)
    if not changed:
        return data
    return replace(data, cards=tuple(cards), places=new_places, phases=new_phases,
                   game=replace(data.game, counts={**data.game.counts, **new_counts}))
