"""What a side knows: a copy of the game with everything else it can't see resampled.

A side sees the board, both play areas and discard piles, the market row, its own hand and
the size of the opponent's hand. It doesn't see the opponent's hand (only which cards are in
hand or draw pile together), the order of any draw pile, or the market deck's order (only
that Crécy lies among its bottom 6, 3.45). :func:`determinize` puts the unseen cards back in
a random arrangement drawn from the caller's generator. Each unseen group is sorted before
it is shuffled, so the copy is a function of what the side knows and of the generator only:
two games that differ in hidden order only give the same copy.
"""

from __future__ import annotations

import random
from dataclasses import replace

from .state import Game, Snapshot

CRECY_DEPTH = 6  # 3.45: the Battle of Crécy is shuffled among the bottom 6 of the market deck


def _shuffled(cards: list[str], rng: random.Random) -> list[str]:
    out = sorted(cards)
    rng.shuffle(out)
    return out


def determinize(g: Game, side: int, rng: random.Random) -> Game:
    """A look-ahead copy of ``g`` consistent with what ``side`` knows."""
    c = g.clone()
    o = 1 - side
    n = len(c.hand[o])
    pool = _shuffled(c.hand[o] + c.draw[o], rng)
    c.hand[o], c.draw[o] = pool[:n], pool[n:]
    c.draw[side] = _shuffled(c.draw[side], rng)
    m = c.market
    c.market = _shuffled(m[:CRECY_DEPTH], rng) + _shuffled(m[CRECY_DEPTH:], rng)
    c.rng = random.Random(rng.getrandbits(32))  # the copy's own reshuffles
    _hide_snapshots(c, side, rng)
    return c


def _hide(ctx: object, side: int, rng: random.Random) -> object:
    if isinstance(ctx, Snapshot):  # the table before an announced Deed (5.61): resampled too
        return Snapshot(determinize(ctx.game, side, rng))
    if isinstance(ctx, tuple) and any(isinstance(x, Snapshot) for x in ctx):
        return tuple(_hide(x, side, rng) for x in ctx)
    return ctx


def _hide_snapshots(c: Game, side: int, rng: random.Random) -> None:
    """A saved table held by a pending frame or decision is resampled the same way, so a
    look-ahead that returns to it learns nothing either."""
    c.stack = [(fn, _hide(ctx, side, rng)) for fn, ctx in c.stack]
    if c.decision is not None:
        c.decision = replace(c.decision, ctx=_hide(c.decision.ctx, side, rng))
