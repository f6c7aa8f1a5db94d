"""What a side knows: the information state a player is given instead of the game.

A side sees the board, both play areas and discard piles, the market row, its own hand and
the size of the opponent's hand. It knows which cards are in the opponent's hand, draw pile
and looked-at cards together, but not where, except what it saw: a card acquired goes to the
bottom of its owner's draw pile in view of both (6.11), so it is known there and, once drawn,
known in hand. It knows its own draw pile's cards but not their order, except the cards it put
back itself (5.92). Of the market deck it knows the cards and where setup may have put the
Battle of Crécy (3.45) and the late entry (3.44), and the top cards it looked at (6.5) until
they are revealed. The game keeps what each side saw (:attr:`.state.Game.market_seen` and
the rest); :func:`observe` reads it.

An :class:`InfoState` holds the table with every unseen group in one canonical arrangement
(:attr:`InfoState.view`) and, for each group, the cards and the places they may be in.
:meth:`InfoState.sample` draws an arrangement from exactly the distribution the side's
knowledge leaves (the setup's shuffles, conditioned on what it saw), with the caller's
generator. Everything it gives is a function of what the side knows: two games that differ
in hidden order only give equal :meth:`InfoState.key`, views and samples.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import Any

from .flow import setup_depths
from .state import UNSEEN, Decision, Game, Snapshot

Run = tuple[str, int, int, int]  # (pile, side, first, end): places first..end-1 of a pile
MARKET = -1  # the side of the market deck's runs


@dataclass(frozen=True)
class Pool:
    """Cards a side can't tell apart and the places they fill: runs of a pile's indices,
    counted from the bottom, in a fixed order. In the market deck the Battle of Crécy lies in
    the bottom ``crecy_depth`` places and the late entry in the bottom ``late_depth + 1``
    (3.44, 3.45), when they are among the cards."""

    cards: tuple[str, ...]
    runs: tuple[Run, ...]
    crecy: str | None = None
    late: str | None = None
    crecy_depth: int = 0
    late_depth: int = 0

    @property
    def depth(self) -> int:
        """How many bottom places of the market deck the pool fills (its one run)."""
        (_, _, first, end), = self.runs
        assert first == 0, "the unseen market cards are its bottom ones"
        return end


def _special(pool: Pool, rng: random.Random | None) -> dict[int, str]:
    """Places (indices from the bottom of the market deck) for the Battle of Crécy and the
    late entry.

    Setup puts the late entry at j of the bottom ``late_depth`` and then Crécy at c of the
    bottom ``crecy_depth``, lifting the late entry by one when c <= j (3.44, 3.45): every
    pair (c, j') with j' != c, and j' < late_depth when c >= late_depth, is equally likely.
    Conditioned on the places still unseen, the pair is uniform over the pairs left: Crécy's
    place is drawn weighted by how many late-entry places go with it, then the late entry's.
    Without ``rng``, the first pair. Empty when what the side saw contradicts setup."""
    end, low = pool.depth, pool.late_depth
    cs = range(min(pool.crecy_depth, end)) if pool.crecy else range(0)
    ls = range(min(low + 1, end)) if pool.late else range(0)
    if not pool.late:
        return {(rng.choice(cs) if rng else cs[0]): pool.crecy} if cs and pool.crecy else {}
    if not pool.crecy:
        return {(rng.choice(ls) if rng else ls[0]): pool.late} if ls else {}
    weights = [len(ls) - (c < len(ls)) if c < low else min(len(ls), low) for c in cs]
    if not sum(weights):
        return {}
    c = rng.choices(cs, weights)[0] if rng else cs[next(i for i, w in enumerate(weights) if w)]
    partners = [j for j in ls if j != c and (c < low or j < low)]
    return {c: pool.crecy, (rng.choice(partners) if rng else partners[0]): pool.late}


def _arrange(pool: Pool, rng: random.Random | None) -> list[str]:
    """A card for every place: uniformly at random with ``rng``, else canonically."""
    plain = list(pool.cards)
    fixed = _special(pool, rng) if pool.crecy or pool.late else {}
    for card in fixed.values():
        plain.remove(card)
    if rng is not None:
        rng.shuffle(plain)
    for i in sorted(fixed):
        plain.insert(i, fixed[i])
    return plain


def _pile(g: Game, pile: str, side: int) -> list[str]:
    return g.market if side == MARKET else getattr(g, pile)[side]


def _fill(g: Game, pool: Pool, rng: random.Random | None) -> None:
    cards = _arrange(pool, rng)
    at = 0
    for pile, side, a, b in pool.runs:
        _pile(g, pile, side)[a:b] = cards[at:at + b - a]
        at += b - a


def _runs(pile: str, side: int, size: int, seen: tuple[int, ...], bit: int, top: int) -> list[Run]:
    """The runs of a draw pile's indices the side doesn't know: below ``top``, and not under
    the pile with the side's ``bit`` in ``seen``."""
    out: list[Run] = []
    start = None
    low = min(len(seen), size)
    for i in range(low):
        if seen[i] & bit or i >= top:
            if start is not None:
                out.append((pile, side, start, i))
                start = None
        elif start is None:
            start = i
    end = min(size, top)
    if start is None:
        start = low
    if start < end:
        out.append((pile, side, start, end))
    return out


def _cards(g: Game, runs: list[Run]) -> tuple[str, ...]:
    out: list[str] = []
    for pile, side, a, b in runs:
        out += _pile(g, pile, side)[a:b]
    out.sort()
    return tuple(out)


def _pools(g: Game, side: int) -> tuple[Pool, ...]:
    """The groups of cards ``side`` can't place, read from the real game ``g``."""
    o, bit = 1 - side, 1 << side
    runs: list[Run] = []
    # the opponent's hand, looked-at cards and draw pile: one pool
    known = list(g.hand_seen[o])
    hand = g.hand[o]
    rest = list(hand)
    pinned = []
    for c in known:
        if c in rest:
            rest.remove(c)
            pinned.append(c)
    hand[:] = pinned + sorted(rest)  # the known cards first, then the places to fill
    if len(pinned) < len(hand):
        runs.append(("hand", o, len(pinned), len(hand)))
    if g.looking[o]:
        runs.append(("looking", o, 0, len(g.looking[o])))
    seen = g.bottom_seen[o]
    runs += _runs("draw", o, len(g.draw[o]), seen, bit, UNSEEN)
    out = [Pool(_cards(g, runs), tuple(runs))]
    # the side's own draw pile
    runs = _runs("draw", side, len(g.draw[side]), g.bottom_seen[side], bit, g.top_seen[side])
    out.append(Pool(_cards(g, runs), tuple(runs)))
    # the market deck
    end = min(len(g.market), g.market_seen[side])
    runs = [("market", MARKET, 0, end)] if end else []
    cards = _cards(g, runs)
    r = g.rules
    late, crecy = setup_depths(r)
    out.append(Pool(cards, tuple(runs), r.crecy if r.crecy in cards else None,
                    r.late_entry if r.late_entry and r.late_entry in cards else None, crecy, late))
    return tuple(p for p in out if p.cards)


class InfoState:
    """What ``side`` knows at a moment of the game, and nothing more."""

    def __init__(self, g: Game, side: int):
        self.side = side
        v = g.clone()
        v.rng = None
        for s in (0, 1):  # a mark past a pile's end says nothing
            if v.market_seen[s] >= len(v.market):
                v.market_seen[s] = UNSEEN
            if v.top_seen[s] >= len(v.draw[s]):
                v.top_seen[s] = UNSEEN
        self.pools = _pools(v, side)
        for pool in self.pools:
            _fill(v, pool, None)
        self._inner: dict[int, InfoState] = {}
        v.stack = [(fn, self._hide(ctx)) for fn, ctx in v.stack]
        d = v.decision
        if d is not None:
            ctx = self._hide(d.ctx)
            if ctx is not d.ctx:
                v.decision = replace(d, ctx=ctx)
        self.view = v

    def _hide(self, ctx: Any) -> Any:
        """A saved table (a Deed's Counter window, 5.61) is known the same way."""
        if isinstance(ctx, Snapshot):
            inner = InfoState(ctx.game, self.side)
            snap = Snapshot(inner.view)
            self._inner[id(snap)] = inner
            return snap
        if isinstance(ctx, tuple):  # a loop, not any(): this runs for every frame of every decision
            for x in ctx:
                if isinstance(x, Snapshot):
                    return tuple(self._hide(x) for x in ctx)
        return ctx

    def _resample(self, ctx: Any, rng: random.Random) -> Any:
        if isinstance(ctx, Snapshot) and id(ctx) in self._inner:
            return Snapshot(self._inner[id(ctx)].sample(rng))
        if isinstance(ctx, tuple) and any(isinstance(x, Snapshot) for x in ctx):
            return tuple(self._resample(x, rng) for x in ctx)
        return ctx

    @property
    def decision(self) -> Decision:
        d = self.view.decision
        assert d is not None, "no decision is pending"
        return d

    def sample(self, rng: random.Random) -> Game:
        """A game the side can't tell from the real one, drawn with ``rng``: each unseen
        group dealt to its places as setup's shuffles and what the side saw allow."""
        c = self.view.clone()
        for pool in self.pools:
            _fill(c, pool, rng)
        c.rng = random.Random(rng.getrandbits(32))  # the copy's own reshuffles
        if self._inner:
            c.stack = [(fn, self._resample(ctx, rng)) for fn, ctx in c.stack]
            if c.decision is not None:
                c.decision = replace(c.decision, ctx=self._resample(c.decision.ctx, rng))
        return c

    def key(self) -> Hashable:
        """Everything the side knows, as one hashable value."""
        return (self.side, _freeze(self.view))


def observe(g: Game, side: int) -> InfoState:
    return InfoState(g, side)


_SKIP = frozenset({"rules", "rng", "log"})


def _freeze(x: Any, depth: int = 0) -> Hashable:
    if x is None or isinstance(x, (str, int, float)):
        return x
    if isinstance(x, Game):
        return ("Game", tuple((k, _freeze(v, depth)) for k, v in sorted(vars(x).items())
                              if k not in _SKIP))
    if isinstance(x, (list, tuple)):
        return tuple(_freeze(v, depth) for v in x)
    if isinstance(x, dict):
        return tuple(sorted((repr(k), _freeze(v, depth)) for k, v in x.items()))
    if isinstance(x, (set, frozenset)):
        return tuple(sorted(repr(_freeze(v, depth)) for v in x))
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__,
                tuple(_freeze(getattr(x, f.name), depth) for f in dataclasses.fields(x)))
    if callable(x) and hasattr(x, "__qualname__"):
        cells = () if depth else tuple(_freeze(c.cell_contents, 1) for c in x.__closure__ or ())
        return (x.__module__, x.__qualname__, cells)
    return repr(x)
