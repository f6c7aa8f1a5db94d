"""Hand-built game states for the engine tests."""

from __future__ import annotations

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
