"""Component sufficiency: how much of each printed marker, token and currency stand-in a game
needs at once, against the inventory of card_data/components.yaml (2.1, 3.24).

A :class:`Usage` watches one game (every decision a player faces, each round's vote count
and the end) and keeps, per component kind, the peak amount on the table and whether the
printed pieces could not show some moment of it. Token kinds with denominations (influence,
military, currency) run short when no split of the printed pieces makes every location's
amount at once; players may make change, so only the counts of each value limit them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from ..engine.rules import CURRENCIES, LUX, SIDES, WIT
from ..engine.state import Game

Amounts = Callable[[Game], tuple[int, ...]]


@dataclass(frozen=True)
class Kind:
    """One kind of component: ``pieces`` maps a piece's value to its printed count (a plain
    marker is ``{1: count}``); ``amounts`` reads the amount at each location it is used."""

    key: str             # e.g. "vote_markers:luxembourg", "reminder:blocked"
    group: str           # vote_markers, influence, military, currency, reminder
    owner: str           # a side, a currency or a reminder id
    pieces: tuple[tuple[int, int], ...]   # (value, count), largest value first
    amounts: Amounts

    @property
    def printed(self) -> int:
        """The largest total the printed pieces can show."""
        return sum(v * c for v, c in self.pieces)

    @property
    def surely_fits(self) -> int:
        """A total up to which any split fits: the smallest pieces alone show it."""
        value, count = self.pieces[-1]
        return count if value == 1 else 0


@lru_cache(maxsize=65536)
def fits(amounts: tuple[int, ...], pieces: tuple[tuple[int, int], ...]) -> bool:
    """Whether the printed ``pieces`` can show every amount at once (each location its own)."""
    if sum(amounts) > sum(v * c for v, c in pieces):
        return False
    # states: pieces used of every value but the smallest → fewest smallest ones used
    *big, (small, small_count) = pieces
    states: dict[tuple[int, ...], int] = {tuple(0 for _ in big): 0}
    for a in sorted(amounts, reverse=True):
        if a == 0:
            continue
        nxt: dict[tuple[int, ...], int] = {}
        for used, smalls in states.items():
            _splits(a, big, used, 0, smalls, small, small_count, nxt)
        if not nxt:
            return False
        states = nxt
    return True


def _splits(left: int, big: list[tuple[int, int]], used: tuple[int, ...], i: int, smalls: int,
            small: int, small_count: int, out: dict[tuple[int, ...], int]) -> None:
    """Every way to make ``left`` from the unused pieces, from value ``big[i]`` down."""
    if i == len(big):
        if left % small == 0 and smalls + left // small <= small_count:
            s = smalls + left // small
            if out.get(used, small_count + 1) > s:
                out[used] = s
        return
    value, count = big[i]
    for k in range(min(count - used[i], left // value) + 1):
        _splits(left - k * value, big, (*used[:i], used[i] + k, *used[i + 1:]), i + 1,
                smalls, small, small_count, out)


def _pieces(spec: Any) -> tuple[tuple[int, int], ...]:
    if isinstance(spec, Mapping):
        return tuple(sorted(((int(v), int(c)) for v, c in spec.items()), reverse=True))
    return ((1, int(spec)),)


#: How the engine's state shows each reminder token of components.yaml (by its id).
REMINDERS: dict[str, Callable[[Game], int]] = {
    "blocked": lambda g: len(g.blocked),
    "favor": lambda g: sum(1 for s in (LUX, WIT) for _a, wild in g.discounts[s] if not wild),
    "wool": lambda g: sum(1 for s in (LUX, WIT) for _a, wild in g.discounts[s] if wild),
    "political-bonus": lambda g: sum(1 for b in g.bonuses if b[2] == "political"),
    "military-bonus": lambda g: sum(1 for b in g.bonuses if b[2] == "military"),
    "kicker": lambda g: len(g.kickers),
}


def kinds(tokens: Mapping[str, Any]) -> tuple[Kind, ...]:
    """Every measured kind, from components.yaml's ``tokens`` table; a reminder the engine
    does not model is left out (the report lists it as not measured)."""
    out: list[Kind] = []
    for s, side in enumerate(SIDES):
        out.append(Kind(f"vote_markers:{side}", "vote_markers", side,
                        _pieces(tokens.get("vote_markers", 0)),
                        partial(lambda g, s: (sum(g.votes[s]),), s=s)))
    for group in ("influence", "military"):
        for s, side in enumerate(SIDES):
            out.append(Kind(f"{group}:{side}", group, side, _pieces(tokens.get(group) or {}),
                            partial(lambda g, s, group: tuple(getattr(g, group)[s]), s=s, group=group)))
    for i, cur in enumerate(CURRENCIES):  # one set of stand-ins per currency, both treasuries
        out.append(Kind(f"currency:{cur}", "currency", cur, _pieces(tokens.get("currency") or {}),
                        partial(lambda g, i: (g.wallet[LUX][i], g.wallet[WIT][i]), i=i)))
    for rem in tokens.get("reminders") or ():
        count = REMINDERS.get(rem["id"])
        if count is not None:
            out.append(Kind(f"reminder:{rem['id']}", "reminder", rem["id"],
                            _pieces(rem.get("count", 1)), partial(lambda g, f: (f(g),), f=count)))
    return tuple(out)


def unmeasured(tokens: Mapping[str, Any]) -> list[str]:
    """Reminder ids of components.yaml the engine has no state for."""
    return sorted(r["id"] for r in tokens.get("reminders") or () if r["id"] not in REMINDERS)


class Usage:
    """The peak of every kind in one game, and whether the printed pieces ran short."""

    def __init__(self, measured: tuple[Kind, ...]):
        self.measured = measured
        self.peak = [0] * len(measured)
        self.short = [False] * len(measured)
        # (index, amounts, surely fits up to, pieces): unpacked once, read hundreds of times
        rows = [(i, k.amounts, k.surely_fits, k.pieces) for i, k in enumerate(measured)]
        self._board = [r for r, k in zip(rows, measured, strict=True) if k.group != "reminder"]
        self._reminders = [r for r, k in zip(rows, measured, strict=True) if k.group == "reminder"]

    def observe(self, g: Game) -> None:
        peak, short = self.peak, self.short
        rows = self._board
        if g.blocked or g.bonuses or g.kickers or g.discounts[0] or g.discounts[1]:
            rows = rows + self._reminders  # else no reminder is on the table: none can peak
        for i, amounts_of, surely, pieces in rows:
            amounts = amounts_of(g)
            total = sum(amounts)
            if total > peak[i]:
                peak[i] = total
            if total > surely and not short[i] and not fits(amounts, pieces):
                short[i] = True

    def record(self) -> dict[str, list[int]]:
        """``{kind key: [peak, 1 if short else 0]}``."""
        return {k.key: [self.peak[i], int(self.short[i])] for i, k in enumerate(self.measured)}
