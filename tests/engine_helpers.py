"""Hand-built game states for the engine tests."""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

from cardgen.data.load import load_or_raise
from cardgen.engine import Game, Rules
from cardgen.engine.flow import play_turn
from cardgen.engine.ops import Ctx, resolve

ROOT = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=1)
def rules() -> Rules:
    return Rules.from_data(load_or_raise(ROOT))


def blank(round_: int = 3) -> Game:
    """An empty table: no cards anywhere, nothing scheduled. Tests put in what they need."""
    g = Game(rules(), 0)
    g.round = round_
    return g


def idx(name: str) -> int:
    r = rules()
    return r.countries.index(name) if name in r.countries else r.battlegrounds.index(name)


def start_play(g: Game, side: int, hand: list[str], plays: int = 1) -> None:
    """``side`` is about to make its play with ``hand``. The other side then waits with two
    Retinues to play, so the engine stops right after the play (and its buy)."""
    g.hand[side] = list(hand)
    g.hand[1 - side] = ["royal-retinue", "ducal-retinue"]
    g.plays_left = [0, 0]
    g.plays_left[side] = plays
    g.plays_left[1 - side] = 1
    g.turn = side
    g.push((play_turn, None))
    g.run()


def drive(g: Game, *choices) -> None:
    for choice in choices:
        assert g.decision is not None, f"no decision pending for {choice!r}"
        g.step(choice)


def resolve_deed(g: Game, side: int, card: str) -> None:
    """``side`` resolves ``card``'s Deed on the table as it stands, until a decision or the end."""
    resolve(g, rules().cards[card].deed, Ctx(side, card))
    g.run()


def _mix(places: list[tuple[list[str], int]], rng: random.Random) -> None:
    cards = [pile[i] for pile, i in places]
    rng.shuffle(cards)
    for (pile, i), card in zip(places, cards, strict=True):
        pile[i] = card


def hidden_reshuffled(g: Game, side: int, seed: int) -> Game:
    """The same game as ``side`` sees it, with what it can't see arranged anew: the
    opponent's hand and draw pile mixed, the side's draw order and the market deck
    shuffled. Kept: what the side saw (cards acquired to the bottom of a draw pile in view
    of both, 6.11, and those of them drawn since; the cards it put on top of its draw pile,
    5.92; the market cards it looked at, 6.5) and where Crécy and the late entry lie (3.44,
    3.45)."""
    h = g.clone()
    h.rng = random.Random(seed)
    rng = random.Random(seed)
    o = 1 - side
    known = list(h.hand_seen[o])
    hand = []
    for i, c in enumerate(h.hand[o]):
        if c in known:
            known.remove(c)
        else:
            hand.append(i)
    low = len(h.bottom_seen[o])
    _mix([(h.hand[o], i) for i in hand] + [(h.draw[o], i) for i in range(low, len(h.draw[o]))], rng)
    low = len(h.bottom_seen[side])
    _mix([(h.draw[side], i) for i in range(low, min(len(h.draw[side]), h.top_seen[side]))], rng)
    fixed = {rules().crecy, rules().late_entry}
    _mix([(h.market, i) for i, c in enumerate(h.market[:h.market_seen[side]]) if c not in fixed], rng)
    return h
