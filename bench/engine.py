"""Engine benchmark: `python bench/engine.py [--games N] [--players greedy,greedy] [--repeat R]`.

Games per CPU second of the process tree, fixed costs subtracted: each run is a fresh
process (``--child``) that starts Python, imports the engine, loads the shipped rules and
plays seeds 0..N-1; the floor is the same process with no game (``--games 0``). A run's CPU
(user + system of the tree, ``bench/measure.py``) minus the floor's median is what the
games cost. Each figure is the median of ``--repeat`` runs, wall time beside it, with a
digest of every decision and choice of the games (a speed change must leave it as it was:
same seed, same game). Also the guessed-top-card hit rate of the information state (issue
42): with 7 market cards left, how often a side's sampled copy has the real top card (fair:
about 1 in 6).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.measure import run_measured  # noqa: E402
from cardgen.data.load import load_or_raise  # noqa: E402
from cardgen.engine import Rules, new_game  # noqa: E402


def play(rules: Rules, kinds: tuple[str, str], games: int) -> str:
    """Play seeds 0..games-1; the digest of every decision, choice and result."""
    from cardgen.engine.match import play_game
    h = hashlib.sha256()

    def watch(d: object, choice: object) -> None:
        h.update(repr((d.side, d.kind, d.options, d.amount, d.card, choice)).encode())  # type: ignore[attr-defined]

    for seed in range(games):
        g = play_game(rules, seed, kinds, watch=watch)
        h.update(repr((g.winner, g.result, g.votes, g.influence)).encode())
    return h.hexdigest()[:16]


def top_card_hits(rules: Rules, seeds: int = 20, samples: int = 50) -> tuple[int, int]:
    hits = tries = 0
    for seed in range(seeds):
        g = new_game(rules, seed)
        g.removed.extend(g.market[7:])
        del g.market[7:]
        assert g.decision is not None
        info = g.observe(g.decision.side)
        rng = random.Random(seed)
        for _ in range(samples):
            hits += info.sample(rng).market[-1] == g.market[-1]
            tries += 1
    return hits, tries


def child(games: int, players: str) -> None:
    """One measured process: load the rules, play the games, print the digest."""
    rules = Rules.from_data(load_or_raise(ROOT))
    a, b = players.split(",")
    print(play(rules, (a, b), games) if games else "-")


def measure(games: int, players: str, repeat: int) -> tuple[list[float], list[float], set[str]]:
    """(CPU seconds, wall seconds, digests) of ``repeat`` fresh child processes."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "--games", str(games),
           "--players", players]
    cpu, wall, digests = [], [], set()
    for _ in range(repeat):
        run = run_measured(cmd, env)
        if run.code:
            raise SystemExit(run.err.decode())
        cpu.append(run.cpu)
        wall.append(run.seconds)
        digests.add(run.out.decode().strip())
    return cpu, wall, digests


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", default="greedy,greedy")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.games, args.players)
        return
    rules = Rules.from_data(load_or_raise(ROOT))
    hits, tries = top_card_hits(rules)
    print(f"top card guessed: {hits}/{tries} = {hits / tries:.3f}")
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    floor_cpu, floor_wall, _ = measure(0, args.players, args.repeat)
    cpu, wall, digests = measure(args.games, args.players, args.repeat)
    f_cpu, f_wall = statistics.median(floor_cpu), statistics.median(floor_wall)
    m_cpu, m_wall = statistics.median(cpu), statistics.median(wall)
    print(f"floor (start, import, load rules; no game): {f_cpu:.2f} CPU s, {f_wall:.2f} wall s")
    print(f"{args.players}, {args.games} games: {m_cpu:.2f} CPU s, {m_wall:.2f} wall s "
          f"(medians of {args.repeat}; CPU runs {', '.join(f'{c:.2f}' for c in cpu)})")
    print(f"{args.players}: {args.games / (m_cpu - f_cpu):.2f} games per CPU s, "
          f"{args.games / (m_wall - f_wall):.2f} per wall s (floor subtracted)")
    print(f"digest of the games: {', '.join(sorted(digests))}")
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
