"""Play the seeded games of one trial: on local processes, or on a Dask distributed cluster.

A trial is a set of changed values (a patch) played on games ``0..N-1`` of a seed, the same
games for every trial (common random numbers: two trials differ by their values, not by
their luck). Games go out in fixed chunks whatever the number of workers and come back in
order, and each game is a pure function of the data, its seed and the players, so a run on
a cluster gives exactly the results of a local run.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple, Protocol

from ..data.model import GameData
from ..data.paths import patched
from ..engine import Rules
from ..engine.match import PLAYERS, play_game
from ..errors import CardgenError, Location, error
from ..playtest.run import game_seed, waiting

CHUNK = 10  # games per task: fixed, so results never depend on the workers
CONNECT_TIMEOUT = "20s"
Patch = tuple[tuple[str, int], ...]


class GameResult(NamedTuple):
    winner: int        # 0 Luxembourg, 1 Wittelsbach
    end_round: int
    crecy: bool


_RULES: dict[tuple[int, Patch], Rules] = {}  # per worker: the rules of the last few patches
_BASE: GameData | None = None  # a local worker's data, set by the pool initializer


def _rules(data: GameData, patch: Patch) -> Rules:
    key = (id(data), patch)
    rules = _RULES.get(key)
    if rules is None:
        if len(_RULES) > 8:
            _RULES.clear()
        rules = _RULES[key] = Rules.from_data(patched(data, dict(patch)))
    return rules


def play_chunk(data: GameData, patch: Patch, seed: int, start: int, stop: int,
               kinds: tuple[str, str]) -> list[GameResult]:
    """Games ``start..stop-1`` of ``seed`` on ``data`` with ``patch``: who won, when, how."""
    rules = _rules(data, patch)
    out = []
    for i in range(start, stop):
        g = play_game(rules, game_seed(seed, i), kinds)
        out.append(GameResult(g.winner if g.winner is not None else -1, g.round, bool(g.crecy_round)))
    return out


def _init(data: GameData) -> None:
    global _BASE
    _BASE = data
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it ends the pool


def _local_chunk(args: tuple[Patch, int, int, int, tuple[str, str]]) -> list[GameResult]:
    assert _BASE is not None
    return play_chunk(_BASE, *args)


def chunks(games: int, start: int = 0) -> list[tuple[int, int]]:
    """Games ``start..games-1`` in fixed chunks (a trial's second half continues its first)."""
    return [(a, min(games, a + CHUNK)) for a in range(start, games, CHUNK)]


def as_patch(values: Mapping[str, int]) -> Patch:
    return tuple(sorted(values.items()))


Tick = Callable[[int], None]


class Runner(Protocol):
    #: called with the number of games each time some finish (0: none for a while)
    on_games: Tick

    def play(self, values: Mapping[str, int], seed: int, games: int, start: int = 0
             ) -> list[GameResult]: ...

    def close(self) -> None: ...


def _none(_n: int) -> None:
    pass


def _check_players(kinds: Iterable[str]) -> None:
    for k in kinds:
        if k not in PLAYERS:
            raise ValueError(f"unknown player '{k}'; known: {', '.join(sorted(PLAYERS))}")


class LocalRunner:
    """Worker processes on this machine (forked once, holding the data); ``jobs`` 1 plays
    in this process."""

    def __init__(self, data: GameData, kinds: tuple[str, str], jobs: int = 0, wait: float = 2.0):
        _check_players(kinds)
        self.data, self.kinds, self.wait = data, kinds, wait
        self.on_games: Tick = _none
        self.jobs = jobs or os.cpu_count() or 1
        self._pool: Any = None
        if self.jobs > 1:
            ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods()
                                              else "spawn")
            self._pool = ctx.Pool(self.jobs, initializer=_init, initargs=(data,))

    def play(self, values: Mapping[str, int], seed: int, games: int, start: int = 0
             ) -> list[GameResult]:
        patch = as_patch(values)
        spans = chunks(games, start)
        tasks = [(patch, seed, a, b, self.kinds) for a, b in spans]
        out: list[GameResult] = []
        if self._pool is None:
            for a, b in spans:
                for i in range(a, b):
                    out += play_chunk(self.data, patch, seed, i, i + 1, self.kinds)
                    self.on_games(1)
            return out
        for part in waiting(self._pool.imap(_local_chunk, tasks), self.wait, self.on_games):
            out += part
            self.on_games(len(part))
        return out

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


class DaskRunner:
    """Chunks of games as tasks on a Dask distributed cluster: the data goes to every worker
    once, each task carries only the patch and its game numbers."""

    def __init__(self, data: GameData, kinds: tuple[str, str], scheduler: Any):
        _check_players(kinds)
        try:
            from distributed import Client  # the optional extra [cluster]
        except ImportError:
            raise CardgenError(error("balance-setup", "--scheduler needs Dask distributed",
                                     location=Location("cardgen"),
                                     hint="pip install -e .[cluster]")) from None
        self.kinds = kinds
        self.on_games: Tick = _none
        self._own = not isinstance(scheduler, Client)
        try:
            self.client = Client(scheduler, timeout=CONNECT_TIMEOUT) if self._own else scheduler
        except (OSError, TimeoutError, ValueError) as exc:
            raise CardgenError(error("balance-scheduler", f"cannot reach the Dask scheduler "
                                     f"{scheduler}: {exc}", location=Location(str(scheduler)),
                                     hint="start `dask scheduler` there, or check the address "
                                     "(tcp://HOST:8786)")) from None
        self._data = self.client.scatter(data, broadcast=True)

    def play(self, values: Mapping[str, int], seed: int, games: int, start: int = 0
             ) -> list[GameResult]:
        patch = as_patch(values)
        spans = chunks(games, start)
        futures = self.client.map(play_chunk, [self._data] * len(spans), [patch] * len(spans),
                                  [seed] * len(spans), [a for a, _ in spans], [b for _, b in spans],
                                  [self.kinds] * len(spans), pure=False)
        from distributed import as_completed
        for done in as_completed(futures):
            self.on_games(len(done.result()))
        return [GameResult(*r) for part in self.client.gather(futures) for r in part]

    def close(self) -> None:
        if self._own:
            self.client.close()


class Remembering:
    """A runner that plays each game of a set of values once: a game asked for again (the
    same values, seed and number) is answered from memory, only the others are played."""

    def __init__(self, runner: Runner):
        self.runner = runner
        self._known: dict[tuple[Patch, int], dict[int, GameResult]] = {}

    @property
    def on_games(self) -> Tick:
        return self.runner.on_games

    @on_games.setter
    def on_games(self, tick: Tick) -> None:
        self.runner.on_games = tick

    def play(self, values: Mapping[str, int], seed: int, games: int, start: int = 0
             ) -> list[GameResult]:
        known = self._known.setdefault((as_patch(values), seed), {})
        i = start
        while i < games:  # each run of unknown games, played as one span
            if i in known:
                i += 1
                continue
            j = i
            while j < games and j not in known:
                j += 1
            known.update(zip(range(i, j), self.runner.play(values, seed, j, i), strict=True))
            i = j
        return [known[i] for i in range(start, games)]

    def close(self) -> None:
        self.runner.close()


def runner(data: GameData, kinds: tuple[str, str], jobs: int = 0,
           scheduler: Any = None) -> Runner:
    """A Dask runner given a scheduler address (or Client), else local processes; each
    game played once (:class:`Remembering`)."""
    return Remembering(DaskRunner(data, kinds, scheduler) if scheduler
                       else LocalRunner(data, kinds, jobs))
