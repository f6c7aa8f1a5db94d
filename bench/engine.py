"""Engine benchmark: `python bench/engine.py [--games N] [--players greedy,greedy]`.

Games per second of this process's CPU time (``time.process_time``: user + system of the
process, which holds when other work shares the cores), for one pairing of players on the
shipped rules, seeds 0..N-1. Loading the rules is not counted. Also the guessed-top-card
hit rate of the information state (issue 42): with 7 market cards left, how often a side's
sampled copy has the real top card (fair: about 1 in 6).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardgen.data.load import load_or_raise  # noqa: E402
from cardgen.engine import Rules, new_game  # noqa: E402


def games_per_cpu_s(rules: Rules, kinds: tuple[str, str], games: int) -> float:
    from cardgen.engine.match import play_game
    cpu = time.process_time()
    for seed in range(games):
        play_game(rules, seed, kinds)
    return games / (time.process_time() - cpu)


def top_card_hits(rules: Rules, seeds: int = 20, samples: int = 50) -> tuple[int, int]:
    hits = tries = 0
    for seed in range(seeds):
        g = new_game(rules, seed)
        g.removed.extend(g.market[7:])
        del g.market[7:]
        info = g.observe(g.decision.side)
        rng = random.Random(seed)
        for _ in range(samples):
            hits += info.sample(rng).market[-1] == g.market[-1]
            tries += 1
    return hits, tries


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", default="greedy,greedy")
    args = ap.parse_args()
    rules = Rules.from_data(load_or_raise(ROOT))
    a, b = args.players.split(",")
    hits, tries = top_card_hits(rules)
    print(f"top card guessed: {hits}/{tries} = {hits / tries:.3f}")
    print(f"{args.players}: {games_per_cpu_s(rules, (a, b), args.games):.2f} games per CPU s "
          f"({args.games} games)")


if __name__ == "__main__":
    main()
