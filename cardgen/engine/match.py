"""The players by name and one game between two of them (:func:`play_game`).

Each player is given only what its side knows (:meth:`.state.Game.observe`), never the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .flow import new_game
from .ismcts import ISMCTSPlayer
from .players import GreedyPlayer, Player, RandomPlayer
from .rules import Rules
from .search import SearchPlayer
from .state import Decision, Game

PLAYERS: dict[str, Callable[[int], Player]] = {"random": RandomPlayer, "greedy": GreedyPlayer,
                                               "search": SearchPlayer, "ismcts": ISMCTSPlayer}
DEFAULT_PLAYER = "greedy"


def play_game(rules: Rules, seed: int, kinds: tuple[str, str] = (DEFAULT_PLAYER, DEFAULT_PLAYER),
              log: Any = None, watch: Callable[[Decision, Any], None] | None = None) -> Game:
    """Play one game to its end; ``kinds`` are the Luxembourg and Wittelsbach players.
    ``watch`` sees each decision with the choice made, before it is played."""
    g = new_game(rules, seed, log)
    players = [PLAYERS[k](seed * 2 + 1 + i) for i, k in enumerate(kinds)]
    while not g.over:
        d = g.decision
        if d is None:
            raise RuntimeError("the game stopped without a decision")
        choice = players[d.side].choose(g.observe(d.side))
        if watch is not None:
            watch(d, choice)
        g.step(choice)
    return g
