"""Seeded players: a uniformly random legal player and a greedy one-ply look-ahead player.

Both draw every random choice from their own ``random.Random(seed)``, so a game is a pure
function of its seeds.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any, Protocol

from .flow import new_game
from .rules import LUX, Rules
from .state import Game


class Player(Protocol):
    def choose(self, g: Game) -> Hashable: ...


class RandomPlayer:
    """Any legal option, uniformly."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, g: Game) -> Hashable:
        assert g.decision is not None
        return self.rng.choice(g.decision.options)


#: Weights of the greedy evaluation: what one more of each is worth to a side.
WEIGHTS = {"elector": 6.0, "vote": 2.0, "lead": 1.2, "military": 0.6, "control": 1.0,
           "currency": 0.3, "market_card": 1.2, "hand": 0.4, "loyalty": 0.8, "won": 1000.0}


def evaluate(g: Game, side: int) -> float:
    """How good the position is for ``side``: votes, electors, influence leads, military,
    currency, deck quality (market cards owned) and John's loyalty."""
    w = WEIGHTS
    o = 1 - side
    if g.over:
        return w["won"] if g.winner == side else -w["won"]
    vs, vo = g.votes[side], g.votes[o]
    score = w["elector"] * (sum(1 for x in vs if x) - sum(1 for x in vo if x))
    score += w["vote"] * (sum(vs) - sum(vo))
    lead_w = w["lead"]
    for a, b in zip(g.influence[side], g.influence[o], strict=True):
        lead = a - b
        score += lead_w * (3 if lead > 3 else -3 if lead < -3 else lead) + 0.1 * lead
    mil_w, ctl_w = w["military"], w["control"]
    for a, b in zip(g.military[side], g.military[o], strict=True):
        d = a - b
        score += mil_w * (4 if d > 4 else -4 if d < -4 else d) + ctl_w * ((d > 0) - (d < 0))
    # currency is worth what it can still buy: less every round, nothing at the final vote
    score += w["currency"] * (10 - g.round) / 9 * (sum(g.wallet[side]) - sum(g.wallet[o]))
    score += w["market_card"] * (g.owned[side] - g.owned[o])
    score += w["hand"] * (len(g.hand[side]) - len(g.hand[o]))
    score += w["loyalty"] * (g.loyalty if side == LUX else -g.loyalty)
    return score


class GreedyPlayer:
    """Tries every legal option on a copy of the game and keeps the best evaluation;
    equal scores are broken by the seeded generator."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, g: Game) -> Hashable:
        d = g.decision
        assert d is not None
        best: list[Hashable] = []
        top = float("-inf")
        for opt in d.options:
            c = g.clone()
            c.step(opt, settle=False)  # the next decision's options aren't needed to score
            s = evaluate(c, d.side)
            if s > top + 1e-9:
                top, best = s, [opt]
            elif s > top - 1e-9:
                best.append(opt)
        return best[0] if len(best) == 1 else self.rng.choice(best)


PLAYERS = {"random": RandomPlayer, "greedy": GreedyPlayer}


def play_game(rules: Rules, seed: int, kinds: tuple[str, str] = ("greedy", "greedy"),
              log: Any = None) -> Game:
    """Play one game to its end; ``kinds`` are the Luxembourg and Wittelsbach players."""
    g = new_game(rules, seed, log)
    players = [PLAYERS[k](seed * 2 + 1 + i) for i, k in enumerate(kinds)]
    while not g.over:
        d = g.decision
        if d is None:
            raise RuntimeError("the game stopped without a decision")
        g.step(players[d.side].choose(g))
    return g
