"""The static side of the game: the loaded card data turned into the tables the engine reads.

Built once per data set (:func:`Rules.from_data`); never mutated, shared by every game and
every look-ahead copy. Side 0 is Luxembourg, side 1 Wittelsbach (3.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from ..data.model import Card, Effect, GameData, walk
from ..errors import Location

SIDES: tuple[str, str] = ("luxembourg", "wittelsbach")
LUX, WIT = 0, 1
#: Currencies a wallet holds (2.4); "any" is a cost or yield wildcard, never a cube.
CURRENCIES: tuple[str, ...] = ("church", "german", "western", "eastern")
CUR = {c: i for i, c in enumerate(CURRENCIES)}
#: The rulebook names the late-entry card itself (3.44, 6.45); no data field marks it.
LATE_ENTRY = "arnost-of-pardubice"
#: Where each side's shields lie (11.2); "curia" (either half) is resolved at check time.
COURT = ("court-charles", "court-louis")
CURIA = ("curia-luxembourg", "curia-wittelsbach")
LOCATION_SIDE = {"court-charles": LUX, "court-louis": WIT,
                 "curia-luxembourg": LUX, "curia-wittelsbach": WIT}
ROUNDS = 9
JOHN_COST = 3  # 10.2, also the loyalty purchase (9.4)


class RulesError(Exception):
    """The data cannot be played (an op without a resolver, a missing place…), with the
    data's location where it is known."""

    def __init__(self, message: str, location: Location | None = None):
        super().__init__(message)
        self.location = location


class EffectError(RulesError):
    """An effect of ``card`` failed while it resolved."""

    def __init__(self, card: str, op: str, cause: Exception):
        super().__init__(f"{card}: {op}: {type(cause).__name__}: {cause}")
        self.card = card


@dataclass(frozen=True)
class CardInfo:
    """What the engine needs of one card, pre-digested for speed."""

    id: str
    kind: str
    deck: str
    political: int
    military: int
    yields: tuple[str, ...]
    types: tuple[str, ...]
    cost: tuple[str, ...]
    use_cost: int
    shield: str | None
    deed: tuple[Effect, ...]
    boost: tuple[Effect, ...]
    boost_cost: tuple[str, ...]
    boost_replaces: bool
    counter: tuple[Effect, ...]
    writing_history: bool
    acquire: tuple[Effect, ...]
    passive: tuple[Effect, ...]
    event: tuple[Effect, ...]
    uncounterable: bool
    card: Card = field(repr=False, compare=False)

    @property
    def is_event(self) -> bool:
        return self.card.is_event

    @property
    def prestige(self) -> bool:
        """Counts for Court Prestige (12.21): market cards, not starters, Retinues, John."""
        return self.deck == "market" and self.kind == "card"


Defaults = dict[str, dict[str, Any]]


def schema_defaults(schema: dict[str, Any]) -> Defaults:
    """Each op's parameter defaults as the rule schema states them."""
    out: Defaults = {}
    for op, spec in (schema.get("ops") or {}).items():
        params = (spec or {}).get("params") or {}
        out[op] = {name: tuple(p["default"]) if isinstance(p["default"], list) else p["default"]
                   for name, p in params.items() if isinstance(p, dict) and "default" in p}
    return out


def _filled(effects: tuple[Effect, ...], defaults: Defaults) -> tuple[Effect, ...]:
    """The effects with every parameter they leave out set to the schema's default, nested
    effects too, so the resolvers read each parameter from one place."""
    out = []
    for e in effects:
        params = {**defaults.get(e.op, {}), **e.params}
        for key, inner in e.nested():
            params[key] = _filled(inner, defaults)
        out.append(e if params == e.params else replace(e, params=params))
    return tuple(out)


def _info(card: Card, uncounterable: set[str], defaults: Defaults) -> CardInfo:
    boost = card.line("boost")
    event = card.line("event")

    def _effects(kind: str) -> tuple[Effect, ...]:
        line = card.line(kind)
        return _filled(line.effects, defaults) if line else ()

    return CardInfo(
        id=card.id, kind=card.kind, deck=card.deck,
        political=card.political or 0, military=card.military or 0,
        yields=tuple(card.yields), types=card.types, cost=tuple(card.cost),
        use_cost=card.use_cost or 0, shield=card.shield,
        deed=_effects("deed"),
        boost=_effects("boost"),
        boost_cost=tuple(boost.cost) if boost else (),
        boost_replaces=bool(boost and boost.attrs.get("mode") == "replaces"),
        counter=_effects("counter"),
        writing_history=card.line("writing_history") is not None,
        acquire=_effects("acquire"),
        passive=_effects("passive"),
        event=_effects("event"),
        uncounterable=card.id in uncounterable or bool(event and event.attrs.get("uncounterable")),
        card=card,
    )


@dataclass(frozen=True)
class Rules:
    data: GameData
    cards: dict[str, CardInfo]
    countries: tuple[str, ...]
    stability: tuple[int, ...]
    battlegrounds: tuple[str, ...]
    bonus: tuple[str, ...]            # "card" or "play" per battleground (8.3)
    links: tuple[tuple[int, ...], ...]  # country indices per battleground (8.4)
    plays: tuple[int, ...]            # per round 1..9 (index 0 unused)
    hand: tuple[int, ...]
    starters: tuple[tuple[str, ...], tuple[str, ...]]
    johns: tuple[str, str]            # the Luxembourg and the Wittelsbach John card
    market: tuple[str, ...]           # the shuffled market cards (3.42), late entry excluded
    events: tuple[str, ...]           # historical and battle events (3.43)
    crecy: str
    late_entry: str | None
    extra: tuple[str, ...]            # cards that enter with an event (6.42), set aside
    shield_card: dict[str, str]       # shield → the card that places it
    prestige: frozenset[str] = frozenset()  # cards counted for Court Prestige (12.21)

    @cached_property
    def defaults(self) -> Defaults:
        return schema_defaults(self.data.schema)

    def filled(self, effects: tuple[Effect, ...]) -> tuple[Effect, ...]:
        """``effects`` with the schema's defaults filled in, as the cards' effects are."""
        return _filled(effects, self.defaults)

    @cached_property
    def inventory(self) -> list[str]:
        """Every card in the game, sorted: a game holds exactly these at all times (made
        once per rules; Game.broken_invariants compares with it after every probed line)."""
        return sorted((*self.starters[0], *self.starters[1], self.johns[0], *self.market,
                       *self.events, self.crecy, *self.extra,
                       *([self.late_entry] if self.late_entry else [])))

    @classmethod
    def from_data(cls, data: GameData) -> Rules:
        unc = set(data.game.uncounterable_events)
        defaults = schema_defaults(data.schema)
        cards = {c.id: _info(c, unc, defaults) for c in data.cards}
        places = data.places
        countries = tuple(p for p, v in places.items() if v.category == "country")
        bgs = tuple(p for p, v in places.items() if v.category == "battleground")
        cidx = {c: i for i, c in enumerate(countries)}
        try:
            stability = tuple(int(places[c].attrs["stability"]) for c in countries)
            bonus = tuple(str(places[b].attrs["bonus"]) for b in bgs)
            links = tuple(tuple(cidx[x] for x in places[b].attrs.get("links") or ()) for b in bgs)
        except (KeyError, TypeError, ValueError) as exc:
            raise RulesError(f"places.yaml lacks a playable value: {exc}") from None
        plays = [0] * (ROUNDS + 1)
        hand = [0] * (ROUNDS + 1)
        for ph in data.phases:
            for r in ph.rounds:
                if 1 <= r <= ROUNDS:
                    plays[r], hand[r] = ph.plays, ph.hand
        if 0 in plays[1:]:
            gap = plays.index(0, 1)
            before = next((ph for ph in data.phases if gap - 1 in ph.rounds), None)
            raise RulesError(f"game.yaml phases do not cover round {gap} (rounds 1-{ROUNDS})",
                             before.locs.get("rounds", before.loc) if before else None)
        starters: list[list[str]] = [[], []]
        johns = ["", ""]
        for c in data.cards:
            if c.deck in ("luxembourg", "wittelsbach"):
                s = 0 if c.deck == "luxembourg" else 1
                if c.kind == "john":
                    johns[s] = c.id
                else:
                    starters[s].extend([c.id] * c.copies)
        starters[1].append(johns[1])  # 3.32: Wittelsbach starts with John
        extra = tuple(e.params["card"] for c in data.cards for e in walk(cards[c.id].event)
                      if e.op == "enter_market")
        crecy = next((c.id for c in data.cards if c.kind == "end_event"), "")
        late = LATE_ENTRY if LATE_ENTRY in cards else None
        market = tuple(c.id for c in data.cards for _ in range(c.copies)
                       if c.deck == "market" and not c.is_event and c.id not in extra and c.id != late)
        events = tuple(c.id for c in data.cards if c.kind in ("event", "battle_event"))
        if not all(johns) or not crecy:
            raise RulesError("the data lacks a John card per side or the Battle of Crécy")
        shield_card = {sid: sh.holder for sid, sh in data.shields.items()}
        return cls(data, cards, countries, stability, bgs, bonus, links, tuple(plays), tuple(hand),
                   (tuple(starters[0]), tuple(starters[1])), (johns[0], johns[1]), market, events,
                   crecy, late, extra, shield_card,
                   frozenset(c for c, i in cards.items() if i.prestige))

    def country(self, cid: str) -> int:
        return self.countries.index(cid)

    def battleground(self, bid: str) -> int:
        return self.battlegrounds.index(bid)
