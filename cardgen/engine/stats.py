"""What a playtest wants to know about one game, recorded as the game runs.

Only the real game carries a :class:`GameLog`; look-ahead copies carry none. :meth:`record`
turns it into a plain JSON-able dict, the unit that :mod:`cardgen.playtest` aggregates.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from .rules import CURRENCIES, LUX, WIT
from .state import Game


class GameLog:
    """``observe`` (optional) sees the real game at every decision a player faces, at each
    round's vote count (9.2, influence and military at their peak) and at the game's end."""

    def __init__(self, observe: Callable[[Game], None] | None = None) -> None:
        self._observe = observe
        self.gained: list[Counter[str]] = [Counter(), Counter()]
        self.spent_total = [0, 0]
        self.bought_cards: list[tuple[int, str, int]] = []   # side, card, round
        self.free_cards: list[tuple[int, str]] = []
        self.uses: dict[str, Counter] = defaultdict(Counter)  # card → mode → count
        self.played: list[Counter] = [Counter(), Counter()]   # side → card → plays
        self.deed_ok: Counter = Counter()
        self.deed_blocked: Counter = Counter()
        self.countered_deeds: Counter = Counter()
        self.counters_used: Counter = Counter()
        self.events: list[tuple[str, int]] = []
        self.events_countered: list[str] = []
        self.firsts: list[int] = []
        self.passes = [0, 0]
        self.flips = 0
        self.loyalty_buys = [0, 0]
        self.removed_cards: list[str] = []
        self.control_rounds = [0, 0]

    # -- hooks the engine calls -------------------------------------------------------------
    def currency(self, side: int, currency: str, amount: int) -> None:
        self.gained[side][currency] += amount

    def spent(self, side: int, amount: int) -> None:
        self.spent_total[side] += amount

    def bought(self, side: int, card: str, round_: int) -> None:
        self.bought_cards.append((side, card, round_))

    def free(self, side: int, card: str) -> None:
        self.free_cards.append((side, card))

    def play(self, side: int, card: str, mode: str) -> None:
        self.uses[card][mode] += 1
        self.played[side][card] += 1

    def deed_check(self, card: str, ok: bool) -> None:
        (self.deed_ok if ok else self.deed_blocked)[card] += 1

    def countered(self, side: int, card: str, counter: str) -> None:
        self.countered_deeds[card] += 1
        self.counters_used[counter] += 1

    def event(self, card: str, round_: int) -> None:
        self.events.append((card, round_))

    def countered_event(self, card: str) -> None:
        self.events_countered.append(card)

    def first_player(self, round_: int, side: int) -> None:
        self.firsts.append(side)

    def passed(self, side: int) -> None:
        self.passes[side] += 1

    def flip(self, side: int) -> None:
        self.flips += 1

    def loyalty_bought(self, side: int) -> None:
        self.loyalty_buys[side] += 1

    def removed(self, side: int, card: str) -> None:
        self.removed_cards.append(card)

    def round_started(self, g: Game) -> None:
        pass

    def observe(self, g: Game) -> None:
        if self._observe is not None:
            self._observe(g)

    def control(self, g: Game) -> None:
        for side in (LUX, WIT):
            self.control_rounds[side] += sum(1 for b in range(len(g.rules.battlegrounds))
                                             if g.controller(b) == side)
        self.observe(g)

    def game_over(self, g: Game) -> None:
        self.observe(g)

    # -- the record ---------------------------------------------------------------------------
    def record(self, g: Game) -> dict[str, Any]:
        owners: dict[str, list[int]] = {}
        for side in (LUX, WIT):
            for pile in g.piles(side):
                for c in pile:
                    if g.rules.cards[c].deck == "market":
                        owners.setdefault(c, [0, 0])[side] += 1
        r = g.result
        return {
            "winner": g.winner,
            "electors": r["electors"],
            "tie": r["tie"],
            "end_round": r["round"],
            "crecy": r["crecy"],
            "loyalty": r["loyalty"],
            "prestige_votes": r["prestige_votes"],
            "firsts": self.firsts,
            "gained": [[self.gained[s][c] for c in CURRENCIES] for s in (LUX, WIT)],
            "spent": self.spent_total,
            "bought": self.bought_cards,
            "free": self.free_cards,
            "uses": {c: dict(m) for c, m in self.uses.items()},
            "played": [dict(sorted(p.items())) for p in self.played],
            "votes": [list(g.votes[LUX]), list(g.votes[WIT])],
            "deed_ok": dict(self.deed_ok),
            "deed_blocked": dict(self.deed_blocked),
            "countered": dict(self.countered_deeds),
            "counters_used": dict(self.counters_used),
            "events": self.events,
            "events_countered": self.events_countered,
            "owners": {c: (LUX if v[0] > v[1] else WIT) for c, v in owners.items()},
            "passes": self.passes,
            "flips": self.flips,
            "loyalty_buys": self.loyalty_buys,
            "plays": list(g.plays_made),
            "control_rounds": self.control_rounds,
        }
