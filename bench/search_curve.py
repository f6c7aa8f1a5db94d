"""IS-MCTS budget curve: `python bench/search_curve.py [--pairs N] [--budget B] [--doublings D]`.

Seat-swapped pairs (seed S with A as Luxembourg, then as Wittelsbach), in this one process
(`--jobs 1`, the machine is shared): IS-MCTS at ``B`` simulations against greedy, then each
doubling ``B·2^(k+1)`` against ``B·2^k`` up to ``B·2^D``. Each row: A's win rate with a 95 %
Wilson interval, and games per CPU second of the process tree.

Goals (issue 42.4): ≥ 75 % against greedy at ≥ 1 game per CPU second; ≥ 55 % each doubling.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import resource
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardgen.data.load import load_or_raise  # noqa: E402
from cardgen.engine import Rules, match  # noqa: E402
from cardgen.engine.ismcts import SIMULATIONS, ISMCTSPlayer  # noqa: E402
from cardgen.playtest.intervals import wilson  # noqa: E402

SEED_BASE = 42_000_000


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _match(rules: Rules, a: str, b: str, pairs: int) -> tuple[int, int, float]:
    wins, cpu = 0, _cpu()
    for i in range(pairs):
        seed = SEED_BASE + i
        wins += match.play_game(rules, seed, (a, b)).winner == 0
        wins += match.play_game(rules, seed, (b, a)).winner == 1
    return wins, 2 * pairs, _cpu() - cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=20)
    ap.add_argument("--budget", type=int, default=SIMULATIONS)
    ap.add_argument("--doublings", type=int, default=3)
    ap.add_argument("--against", default="greedy")
    ap.add_argument("--rollout", type=int, default=0)
    args = ap.parse_args()
    rules = Rules.from_data(load_or_raise(ROOT))
    budgets = [args.budget * 2 ** k for k in range(args.doublings + 1)]
    for b in budgets:
        match.PLAYERS[f"ismcts{b}"] = functools.partial(ISMCTSPlayer, simulations=b,
                                                          rollout=args.rollout)
    rows = [(f"ismcts{budgets[0]}", args.against)]
    rows += [(f"ismcts{hi}", f"ismcts{lo}") for lo, hi in itertools.pairwise(budgets)]
    print("| A | B | A wins | rate | 95 % | games/CPU-s |\n|---|---|---|---|---|---|")
    for a, b in rows:
        wins, n, cpu = _match(rules, a, b, args.pairs)
        lo, hi = wilson(wins, n)
        print(f"| {a} | {b} | {wins}/{n} | {wins / n:.1%} | [{lo:.1%}, {hi:.1%}] | {n / cpu:.2f} |",
              flush=True)


if __name__ == "__main__":
    main()
