"""Player ladder: `python bench/ladder.py [--pairs N] [--jobs J] [--speed K] [--match A:B ...]`.

For every match A:B, N seat-swapped pairs of games: seed S once with A as Luxembourg and B
as Wittelsbach, once the other way round, so neither player profits from a side's edge.
Reports A's win rate with a 95 % Wilson interval, then the speed of each player on its own
(K games of it against itself): games per CPU second of the process tree beside wall time.

Goals (issue 27): search beats greedy and greedy beats random, each ≥ 60 % over ≥ 400
games; greedy ≥ 10 and search ≥ 0.5 games per CPU second.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardgen.data.load import load_or_raise  # noqa: E402
from cardgen.engine import Rules  # noqa: E402  (the repository root is on the path now)
from cardgen.engine.match import play_game  # noqa: E402
from cardgen.playtest.intervals import wilson  # noqa: E402

SEED_BASE = 27_000_000
_RULES: Rules | None = None


def _init() -> None:
    global _RULES
    _RULES = Rules.from_data(load_or_raise(ROOT))


def _pair(job: tuple[str, str, int]) -> int:
    """A's wins (0-2) in the seat-swapped pair of games of seed ``seed``."""
    a, b, seed = job
    assert _RULES is not None
    first = play_game(_RULES, seed, (a, b)).winner == 0
    second = play_game(_RULES, seed, (b, a)).winner == 1
    return int(first) + int(second)


def _game(job: tuple[str, int]) -> int:
    kind, seed = job
    assert _RULES is not None
    return play_game(_RULES, seed, (kind, kind)).winner or 0


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _timed(fn, jobs: list, workers: int) -> tuple[list, float, float]:
    """Results of ``fn`` over ``jobs`` on a fresh pool, with its wall and CPU seconds (the
    pool's workers are reaped before the CPU is read, so their time is counted)."""
    wall, cpu = time.perf_counter(), _cpu()
    with multiprocessing.get_context("fork").Pool(workers, initializer=_init) as pool:
        out = pool.map(fn, jobs, chunksize=1)
        pool.close()
        pool.join()
    return out, time.perf_counter() - wall, _cpu() - cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=200, help="seat-swapped pairs per match")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--speed", type=int, default=40, help="games per speed measurement")
    ap.add_argument("--match", nargs="*", default=["search:greedy", "greedy:random"])
    args = ap.parse_args()
    load_before = os.getloadavg()
    result: dict = {"pairs": args.pairs, "jobs": args.jobs, "matches": {}, "speed": {}}
    print("| match | games | A wins | 95 % interval | wall s | CPU s |\n|---|---|---|---|---|---|")
    for match in args.match:
        a, b = match.split(":")
        jobs = [(a, b, SEED_BASE + i) for i in range(args.pairs)]
        wins, wall, cpu = _timed(_pair, jobs, args.jobs)
        n, w = 2 * args.pairs, sum(wins)
        lo, hi = wilson(w, n)
        result["matches"][match] = {"games": n, "wins": w, "rate": round(w / n, 3),
                                    "interval": [round(lo, 3), round(hi, 3)],
                                    "wall_s": round(wall, 1), "cpu_s": round(cpu, 1)}
        print(f"| {a} vs {b} | {n} | {w / n:.1%} | {lo:.1%}–{hi:.1%} | {wall:.1f} | {cpu:.1f} |")
    print("\n| player (against itself) | games | games per CPU s | games per wall s |\n|---|---|---|---|")
    for kind in sorted({k for m in args.match for k in m.split(":")}):
        jobs = [(kind, SEED_BASE + i) for i in range(args.speed)]
        _, wall, cpu = _timed(_game, jobs, args.jobs)
        result["speed"][kind] = {"games": args.speed, "per_cpu_s": round(args.speed / cpu, 2),
                                 "per_wall_s": round(args.speed / wall, 2)}
        print(f"| {kind} | {args.speed} | {args.speed / cpu:.2f} | {args.speed / wall:.2f} |")
    result["load_before"] = [round(x, 2) for x in load_before]
    result["load_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
