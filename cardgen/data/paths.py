"""Paths into the loaded card data: read one number where the designer wrote it, and make a
copy of the data with some numbers changed (the data itself is never mutated).

A path names a value the way the files hold it:

* ``cards.<id>.political`` / ``military`` / ``copies`` / ``use_cost``: a card's number;
* ``cards.<id>.cost``: how many coins the card costs (more coins repeat its last coin type;
  fewer drop the last ones);
* ``cards.<id>.<line>.effects.<i>.<param>``: a number of an effect, e.g.
  ``cards.charles-iv.deed.effects.0.amount``; effects nested in ``then``/``otherwise``
  continue the path: ``….effects.0.then.0.amount``;
* ``places.<id>.<attribute>``: e.g. ``places.trier.stability``;
* ``phases.<id>.plays`` / ``hand``: plays and hand size of a phase (game.yaml).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..errors import Location
from .model import LINE_KINDS, Card, Effect, GameData

CARD_NUMBERS = ("political", "military", "copies", "use_cost")
PHASE_NUMBERS = ("plays", "hand")


class PathError(ValueError):
    """A path that names no number of the data; the message says what is wrong."""


@dataclass(frozen=True)
class Slot:
    """One tunable number as the data holds it now, and where it is written."""

    path: str
    value: int
    loc: Location
    coins: tuple[str, ...] | None = None  # a cost: the coins written, the value is their count


def _number(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PathError(f"{path} is {value!r}, not a whole number")
    return value


def _card(data: GameData, card_id: str, path: str) -> Card:
    card = data.card(card_id)
    if card is None:
        raise PathError(f"{path}: no card has the id '{card_id}'")
    return card


def _effect_at(effects: tuple[Effect, ...], rest: list[str], path: str) -> tuple[Effect, str, list[str]]:
    """The effect a path's ``<i>(.<list>.<j>)*.<param>`` tail names, its parameter, and the
    indices walked (for :func:`_set_effect`)."""
    if len(rest) < 2 or not rest[0].isdigit() or int(rest[0]) >= len(effects):
        raise PathError(f"{path}: expected an effect number below {len(effects)} and a parameter")
    eff = effects[int(rest[0])]
    if len(rest) == 2:
        return eff, rest[1], rest
    nested = eff.params.get(rest[1])
    if not (isinstance(nested, tuple) and nested and isinstance(nested[0], Effect)):
        raise PathError(f"{path}: '{rest[1]}' of {eff.op} is not a list of effects")
    inner, param, _ = _effect_at(nested, rest[2:], path)
    return inner, param, rest


def _set_effect(effects: tuple[Effect, ...], rest: list[str], value: int) -> tuple[Effect, ...]:
    i = int(rest[0])
    eff = effects[i]
    if len(rest) == 2:
        new = replace(eff, params={**eff.params, rest[1]: value})
    else:
        new = replace(eff, params={**eff.params, rest[1]: _set_effect(eff.params[rest[1]], rest[2:], value)})
    return (*effects[:i], new, *effects[i + 1:])


def read_slot(data: GameData, path: str) -> Slot:
    """The number ``path`` names, with the location of the value in its file."""
    parts = path.split(".")
    head = parts[0]
    if head == "cards" and len(parts) >= 3:
        card = _card(data, parts[1], path)
        key = parts[2]
        if len(parts) == 3 and key in CARD_NUMBERS:
            if key not in card.locs:
                raise PathError(f"{path}: card {card.id} has no '{key}' written in its file; "
                                f"write the current value there first")
            return Slot(path, _number(getattr(card, key), path), card.at(key))
        if len(parts) == 3 and key == "cost":
            if not card.cost or "cost" not in card.locs:
                raise PathError(f"{path}: card {card.id} has no cost written in its file")
            return Slot(path, len(card.cost), card.at("cost"), tuple(card.cost))
        if key in LINE_KINDS and len(parts) >= 6 and parts[3] == "effects":
            line = card.line(key)
            if line is None:
                raise PathError(f"{path}: card {card.id} has no {key} line")
            eff, param, _ = _effect_at(line.effects, parts[4:], path)
            if param not in eff.params or param not in eff.locs:
                raise PathError(f"{path}: the {eff.op} effect has no '{param}' written")
            return Slot(path, _number(eff.params[param], path), eff.at(param))
    elif head == "places" and len(parts) == 3:
        place = data.places.get(parts[1])
        if place is None:
            raise PathError(f"{path}: no place has the id '{parts[1]}'")
        if parts[2] not in place.attrs or parts[2] not in place.locs:
            raise PathError(f"{path}: place {place.id} has no '{parts[2]}'")
        return Slot(path, _number(place.attrs[parts[2]], path), place.locs[parts[2]])
    elif head == "phases" and len(parts) == 3 and parts[2] in PHASE_NUMBERS:
        phase = next((ph for ph in data.phases if ph.id == parts[1]), None)
        if phase is None:
            raise PathError(f"{path}: no phase has the id '{parts[1]}' in game.yaml")
        return Slot(path, getattr(phase, parts[2]), phase.locs.get(parts[2], phase.loc))
    raise PathError(f"{path}: not a path to a number; write cards.<id>.political|military|copies|"
                    f"cost, cards.<id>.<line>.effects.<i>.<param>, places.<id>.<attribute> or "
                    f"phases.<id>.plays|hand")


def _effect_paths(effects: tuple[Effect, ...], prefix: str) -> list[str]:
    out = []
    for i, eff in enumerate(effects):
        for key, value in eff.params.items():
            if isinstance(value, int) and not isinstance(value, bool):
                out.append(f"{prefix}.{i}.{key}")
            elif isinstance(value, tuple) and value and isinstance(value[0], Effect):
                out += _effect_paths(value, f"{prefix}.{i}.{key}")
    return out


def card_paths(data: GameData, card: Card) -> list[str]:
    """Every number of ``card`` a path can name, as :func:`read_slot` reads it: its numbers,
    its cost and the whole-number parameters of its effects (nested ones included)."""
    paths = [f"cards.{card.id}.{k}" for k in (*CARD_NUMBERS, "cost")]
    for line in card.lines:
        paths += _effect_paths(line.effects, f"cards.{card.id}.{line.kind}.effects")
    readable = []
    for path in paths:
        try:
            read_slot(data, path)
        except PathError:
            continue
        readable.append(path)
    return readable


def _card_with(card: Card, parts: list[str], value: int) -> Card:
    key = parts[2]
    if len(parts) == 3 and key in CARD_NUMBERS:
        number: dict[str, Any] = {key: value}
        return replace(card, **number)
    if len(parts) == 3 and key == "cost":
        return replace(card, cost=coins(tuple(card.cost), value))
    lines = tuple(replace(ln, effects=_set_effect(ln.effects, parts[4:], value))
                  if ln.kind == key else ln for ln in card.lines)
    return replace(card, lines=lines)


def coins(cost: tuple[str, ...], count: int) -> tuple[str, ...]:
    """A cost of ``count`` coins made from ``cost``: its last coin repeated, or its first ones."""
    return cost[:count] if count <= len(cost) else cost + (cost[-1],) * (count - len(cost))


def patched(data: GameData, values: Mapping[str, int]) -> GameData:
    """A copy of ``data`` with the numbers at ``values``' paths set (paths as read by
    :func:`read_slot`; unchanged values may be given too)."""
    cards = {c.id: c for c in data.cards}
    places = dict(data.places)
    phases = list(data.phases)
    for path, value in sorted(values.items()):
        parts = path.split(".")
        if parts[0] == "cards":
            cards[parts[1]] = _card_with(cards[parts[1]], parts, value)
        elif parts[0] == "places":
            place = places[parts[1]]
            places[parts[1]] = replace(place, attrs={**place.attrs, parts[2]: value})
        else:
            number: dict[str, Any] = {parts[2]: value}
            phases = [replace(ph, **number) if ph.id == parts[1] else ph for ph in phases]
    return replace(data, cards=tuple(cards[c.id] for c in data.cards), places=places,
                   phases=tuple(phases))
