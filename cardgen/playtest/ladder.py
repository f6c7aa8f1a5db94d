"""The players as a ladder (the report's appendix): each stronger player against the next
weaker one in seat-swapped pairs of games, so neither profits from a house's own edge.

Pair ``i`` is game ``i`` of the run's seed played twice: the stronger player as Luxembourg,
then as Wittelsbach (the same deal, the same draws). The figure is the stronger player's
share of the games it wins, with a Wilson interval.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..engine import Rules
from .intervals import rnd, wilson
from .run import play_many

#: (stronger, weaker): the rungs, strongest first.
RUNGS: tuple[tuple[str, str], ...] = (("search", "greedy"), ("greedy", "random"))
#: Seeds of the ladder's games stand apart from the main run's (the same seed, another game).
LADDER_SEED_OFFSET = 500_009


def ladder(rules: Rules, pairs: int, seed: int, jobs: int = 0,
           tokens: Mapping[str, Any] | None = None,
           on_chunk: Callable[[int], None] = lambda _n: None) -> list[dict[str, Any]]:
    """Each rung's result: players, games, the stronger player's wins, share and interval."""
    out = []
    for strong, weak in RUNGS:
        runs = [play_many(rules, pairs, seed + LADDER_SEED_OFFSET, seats, jobs, on_chunk, tokens)
                for seats in ((strong, weak), (weak, strong))]
        wins = (sum(r["winner"] == 0 for r in runs[0])
                + sum(r["winner"] == 1 for r in runs[1]))
        games = 2 * pairs
        out.append({"players": [strong, weak], "games": games, "wins": wins,
                    "rate": rnd(wins / games), "ci95": wilson(wins, games)})
    return out
