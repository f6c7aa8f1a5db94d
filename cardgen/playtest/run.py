"""Play N seeded games, on one or more worker processes, and return their records in order.

Game ``i`` of a run with seed ``S`` is seeded ``S * GAME_STRIDE + i`` whatever the number of
workers, so a report is a pure function of the data, the seed, N and the players.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ..engine import Rules
from ..engine.match import PLAYERS, play_game
from ..engine.stats import GameLog
from .supply import Kind, Usage, kinds

GAME_STRIDE = 1_000_003
CHUNKS = 100  # progress steps per run

# the worker's rules and measured component kinds, set by the pool initializer
_RULES: Rules | None = None
_KINDS: tuple[Kind, ...] = ()


def game_seed(seed: int, index: int) -> int:
    return seed * GAME_STRIDE + index


def play_one(rules: Rules, seed: int, players: tuple[str, str],
             measured: tuple[Kind, ...] = ()) -> dict[str, Any]:
    """One game's record, with the seed it was played from and its component peaks."""
    usage = Usage(measured)
    log = GameLog(usage.observe)
    g = play_game(rules, seed, players, log)
    return {**log.record(g), "seed": seed, "components": usage.record()}


def _init(rules: Rules, tokens: Mapping[str, Any]) -> None:
    global _RULES, _KINDS
    _RULES, _KINDS = rules, kinds(tokens)


def _chunk(args: tuple[int, int, int, tuple[str, str]]) -> list[dict[str, Any]]:
    seed, start, stop, players = args
    assert _RULES is not None
    return [play_one(_RULES, game_seed(seed, i), players, _KINDS) for i in range(start, stop)]


def _chunks(games: int, seed: int, players: tuple[str, str]) -> list[tuple[int, int, int, tuple[str, str]]]:
    size = max(1, -(-games // CHUNKS))
    return [(seed, a, min(games, a + size), players) for a in range(0, games, size)]


def play_many(rules: Rules, games: int, seed: int, players: tuple[str, str], jobs: int = 0,
              on_chunk: Callable[[int], None] = lambda _n: None,
              tokens: Mapping[str, Any] | None = None, wait: float = 2.0) -> list[dict[str, Any]]:
    """Every game's record, in game order; ``on_chunk(n)`` after each ``n`` finished games
    (one by one in this process), and ``on_chunk(0)`` after ``wait`` seconds with none;
    ``tokens`` (components.yaml's table) names the components to measure."""
    for k in players:
        if k not in PLAYERS:
            raise ValueError(f"unknown player '{k}'")
    jobs = jobs or os.cpu_count() or 1
    chunks = _chunks(games, seed, players)
    records: list[dict[str, Any]] = []
    init_args = (rules, dict(tokens or {}))
    if jobs <= 1 or len(chunks) <= 1:
        _init(*init_args)
        for s, a, b, kinds in chunks:
            for i in range(a, b):
                records.extend(_chunk((s, i, i + 1, kinds)))
                on_chunk(1)
        return records
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods()
                                      else "spawn")
    with ctx.Pool(min(jobs, len(chunks)), initializer=_init, initargs=init_args) as pool:
        for part in waiting(pool.imap(_chunk, chunks), wait, on_chunk):
            records.extend(part)
            on_chunk(len(part))
    return records


def waiting(results: Any, wait: float, beat: Callable[[int], None]) -> Iterator[Any]:
    """A pool's ``imap`` results in order, calling ``beat(0)`` every ``wait`` seconds that
    none comes."""
    while True:
        try:
            yield results.next(timeout=wait)
        except multiprocessing.TimeoutError:
            beat(0)
        except StopIteration:
            return
