"""Property tests: no state reached by legal moves breaks an invariant (2.4, 7.3, 8.1, 10.0),
and a game is a pure function of its seed."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.engine import new_game
from cardgen.engine.flow import prestige_count
from cardgen.engine.match import play_game
from tests.engine_helpers import rules


@settings(max_examples=25, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), choices=st.integers(0, 10**6))
def test_every_legal_move_keeps_the_invariants(seed, choices):
    """Wallets ≥ 0, one side's military per battleground, one side's votes per elector box,
    every card somewhere exactly once, John in exactly one place."""
    g = new_game(rules(), seed)
    pick = random.Random(choices)
    while not g.over:
        assert g.decision is not None
        assert g.decision.options, "a decision without legal options"
        g.step(pick.choice(g.decision.options))
        assert g.broken_invariants() == []
        assert g.owned == [prestige_count(g, 0), prestige_count(g, 1)]
    assert g.winner in (0, 1) and 1 <= g.result["round"] <= 9


def test_look_ahead_copies_never_touch_the_game():
    g = new_game(rules(), 5)
    before = (repr(g.hand), repr(g.draw), repr(g.influence), g.rng.getstate())
    for opt in g.decision.options:
        c = g.clone()
        c.step(opt)
    assert (repr(g.hand), repr(g.draw), repr(g.influence), g.rng.getstate()) == before


def test_same_seed_same_game():
    for kinds in (("random", "random"), ("greedy", "random")):
        a = play_game(rules(), 11, kinds)
        b = play_game(rules(), 11, kinds)
        assert (a.result, a.winner, a.removed) == (b.result, b.winner, b.removed)
