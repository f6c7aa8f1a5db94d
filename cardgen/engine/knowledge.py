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
from functools import cached_property
from typing import Any

from .flow import setup_depths
from .state import UNSEEN, Decision, Game, Snapshot

Place = tuple[str, int, int]  # (pile, side, index from the bottom); market: side -1


@dataclass(frozen=True)
class Pool:
    """Cards a side can't tell apart and the places they fill (in a fixed order). In the
    market deck the Battle of Crécy lies in the bottom ``crecy_depth`` places and the late
    entry in the bottom ``late_depth + 1`` (3.44, 3.45), when they are among the cards."""

    cards: tuple[str, ...]
    places: tuple[Place, ...]
    crecy: str | None = None
    late: str | None = None
    crecy_depth: int = 0
    late_depth: int = 0

    @cached_property
    def special_places(self) -> tuple[list[int], list[int], list[int]]:
        """The index of every place, and the places Crécy and the late entry may take."""
        idx = [p[2] for p in self.places]
        cs = [i for i, x in enumerate(idx) if x < self.crecy_depth] if self.crecy else []
        ls = [i for i, x in enumerate(idx) if x <= self.late_depth] if self.late else []
        return idx, cs, ls


def _special(pool: Pool, rng: random.Random | None) -> dict[int, str]:
    """Places (numbers into ``pool.places``) for the Battle of Crécy and the late entry.

    Setup puts the late entry at j of the bottom ``late_depth`` and then Crécy at c of the
    bottom ``crecy_depth``, lifting the late entry by one when c <= j (3.44, 3.45): every
    pair (c, j') with j' != c, and j' < late_depth when c >= late_depth, is equally likely.
    Conditioned on the places still unseen, the pair is uniform over the pairs left: Crécy's
    place is drawn weighted by how many late-entry places go with it, then the late entry's.
    Without ``rng``, the first pair. Empty when what the side saw contradicts setup."""
    idx, cs, ls = pool.special_places
    depth = pool.late_depth

    def partners(c: int) -> list[int]:
        return [j for j in ls if j != c and (idx[c] < depth or idx[j] < depth)]

    if not pool.late:
        return {(rng.choice(cs) if rng else cs[0]): pool.crecy} if cs and pool.crecy else {}
    if not pool.crecy:
        return {(rng.choice(ls) if rng else ls[0]): pool.late} if ls else {}
    weights = [len(ls) - (c in ls) if idx[c] < depth else sum(idx[j] < depth for j in ls)
               for c in cs]
    if not sum(weights):
        return {}
    if rng is None:
        c = cs[next(i for i, w in enumerate(weights) if w)]
        j = partners(c)[0]
    else:
        c = rng.choices(cs, weights)[0]
        j = rng.choice(partners(c))
    return {c: pool.crecy, j: pool.late}


def _arrange(pool: Pool, rng: random.Random | None) -> list[str]:
    """A card for every place: uniformly at random with ``rng``, else canonically."""
    plain = list(pool.cards)
    fixed = _special(pool, rng) if pool.crecy or pool.late else {}
    for card in fixed.values():
        plain.remove(card)
    if rng is not None:
        rng.shuffle(plain)
    if not fixed:
        return plain
    it = iter(plain)
    return [fixed[i] if i in fixed else next(it) for i in range(len(pool.places))]


def _pile(g: Game, pile: str, side: int) -> list[str]:
    return g.market if pile == "market" else getattr(g, pile)[side]


def _fill(g: Game, pool: Pool, rng: random.Random | None) -> None:
    piles = {"hand": g.hand, "draw": g.draw, "looking": g.looking}
    m = g.market
    for (pile, side, i), card in zip(pool.places, _arrange(pool, rng), strict=True):
        (m if side < 0 else piles[pile][side])[i] = card


def _pools(g: Game, side: int) -> tuple[Pool, ...]:
    """The groups of cards ``side`` can't place, read from the real game ``g``."""
    o, bit = 1 - side, 1 << side
    pools = []
    # the opponent's hand, looked-at cards and draw pile: one pool
    places: list[Place] = []
    known = list(g.hand_seen[o])
    hand = g.hand[o]
    rest = list(hand)
    pinned = []
    for c in known:
        if c in rest:
            rest.remove(c)
            pinned.append(c)
    hand[:] = pinned + sorted(rest)  # the known cards first, then the places to fill
    places += [("hand", o, i) for i in range(len(pinned), len(hand))]
    places += [("looking", o, i) for i in range(len(g.looking[o]))]
    seen = g.bottom_seen[o]
    places += [("draw", o, i) for i in range(len(g.draw[o])) if not (i < len(seen) and seen[i] & bit)]
    pools.append(places)
    # the side's own draw pile
    seen, top = g.bottom_seen[side], g.top_seen[side]
    pools.append([("draw", side, i) for i in range(len(g.draw[side]))
                  if i < top and not (i < len(seen) and seen[i] & bit)])
    out = [Pool(tuple(sorted(_pile(g, p, s)[i] for p, s, i in ps)), tuple(ps)) for ps in pools]
    # the market deck
    m = g.market
    places = [("market", -1, i) for i in range(min(len(m), g.market_seen[side]))]
    cards = tuple(sorted(m[i] for _, _, i in places))
    r = g.rules
    late, crecy = setup_depths(r)
    out.append(Pool(cards, tuple(places), r.crecy if r.crecy in cards else None,
                    r.late_entry if r.late_entry and r.late_entry in cards else None, crecy, late))
    return tuple(p for p in out if p.places)


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
        if v.decision is not None:
            v.decision = replace(v.decision, ctx=self._hide(v.decision.ctx))
        self.view = v

    def _hide(self, ctx: Any) -> Any:
        """A saved table (a Deed's Counter window, 5.61) is known the same way."""
        if isinstance(ctx, Snapshot):
            inner = InfoState(ctx.game, self.side)
            snap = Snapshot(inner.view)
            self._inner[id(snap)] = inner
            return snap
        if isinstance(ctx, tuple) and any(isinstance(x, Snapshot) for x in ctx):
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
