"""The IS-MCTS player (issue 42.4): seeded, legal, its work grows with its budget, and it
is given only what its side knows."""

from __future__ import annotations

from cardgen.engine import Game, new_game
from cardgen.engine.ismcts import ISMCTSPlayer
from cardgen.engine.knowledge import InfoState
from cardgen.engine.players import RandomPlayer
from cardgen.engine.rules import LUX, WIT
from tests.engine_helpers import hidden_reshuffled, rules


def _midgame(seed: int, plays: int = 6) -> Game:
    g = new_game(rules(), seed)
    pick = RandomPlayer(seed)
    while True:
        d = g.decision
        if d.kind == "play" and d.side == LUX and len(d.options) > 1 \
                and g.plays_made[LUX] + g.plays_made[WIT] >= plays:
            return g
        g.step(pick.choose(g.observe(d.side)))


def test_same_seed_same_choice_and_legal():
    for seed in range(3):
        g = _midgame(seed)
        a = ISMCTSPlayer(5, simulations=8).choose(g.observe(LUX))
        assert a == ISMCTSPlayer(5, simulations=8).choose(g.observe(LUX))
        assert a in g.decision.options


def test_more_simulations_more_work():
    g = _midgame(1)
    small, big = ISMCTSPlayer(3, simulations=4), ISMCTSPlayer(3, simulations=16)
    small.choose(g.observe(LUX))
    big.choose(g.observe(LUX))
    assert small.steps >= 4 and big.steps >= 3 * small.steps


def test_given_only_the_information_state():
    """It is handed an InfoState, and rearranging what Luxembourg can't see never changes
    its choice."""
    g = _midgame(2)
    seen: list[object] = []
    p = ISMCTSPlayer(7, simulations=6)
    info = g.observe(LUX)
    seen.append(info)
    choice = p.choose(info)
    assert all(isinstance(x, InfoState) for x in seen)
    h = hidden_reshuffled(g, LUX, 101)
    assert ISMCTSPlayer(7, simulations=6).choose(h.observe(LUX)) == choice
