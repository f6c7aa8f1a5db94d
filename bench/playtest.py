"""Playtest benchmark: `python bench/playtest.py [--games N] [--jobs J] [--sample K]`.

* games per second on one core, for random and greedy players (in this process, K games);
* the same per second of CPU time, which holds when other work shares the cores;
* wall time, CPU time and peak memory of `cardgen playtest --games N --jobs J` run as a user would
  (a fresh process in a copy of the project; peak = sampled sum of the RSS of the process
  tree, and getrusage RUSAGE_CHILDREN maxrss, the largest single process);
* the load average before and after, since the machine may be shared.

Goal (issue 11): 2,000 greedy games in under 60 s on 2 cores, under 300 MB.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.measure import print_result, tree_memory  # noqa: E402
from bench.run import PARTS  # noqa: E402  (the repository root is on the path now)
from cardgen.data.load import load_or_raise  # noqa: E402
from cardgen.engine import Rules  # noqa: E402
from cardgen.engine.match import play_game  # noqa: E402


def per_core(rules: Rules, kinds: tuple[str, str], games: int) -> tuple[float, float]:
    """Games per second of wall time and per second of CPU time (the latter holds on a
    shared machine)."""
    start, cpu = time.perf_counter(), time.process_time()
    for seed in range(games):
        play_game(rules, seed, kinds)
    return (round(games / (time.perf_counter() - start), 1),
            round(games / (time.process_time() - cpu), 1))


def playtest_run(games: int, jobs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-") as tmp:
        project = Path(tmp)
        for part in PARTS:
            if (ROOT / part).is_dir():
                shutil.copytree(ROOT / part, project / part)
        cmd = [sys.executable, "-c", "import sys; from cardgen.cli import main; sys.exit(main())",
               "--project", str(project), "playtest", "--games", str(games), "--jobs", str(jobs),
               "--quiet"]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        peak = [0]
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL)
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                peak[0] = max(peak[0], tree_memory(proc.pid)[0])
                time.sleep(0.05)

        t = threading.Thread(target=sample)
        t.start()
        code = proc.wait()
        done.set()
        t.join()
        wall = time.perf_counter() - start
        if code:
            raise SystemExit(f"cardgen playtest failed with exit code {code}")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    return {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "wall_if_cores_free_s": round(cpu / jobs, 1),
            "peak_tree_mb": round(peak[0] / 2**20, 1),
            "max_process_mb": round(usage.ru_maxrss / 2**10, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--sample", type=int, default=100, help="games per per-core measurement")
    args = ap.parse_args()
    load_before = os.getloadavg()
    rules = Rules.from_data(load_or_raise(ROOT))
    rand = per_core(rules, ("random", "random"), args.sample * 4)
    greedy = per_core(rules, ("greedy", "greedy"), args.sample)
    result = {
        "random_games_per_s_per_core": rand[0], "random_games_per_cpu_s": rand[1],
        "greedy_games_per_s_per_core": greedy[0], "greedy_games_per_cpu_s": greedy[1],
        **{f"playtest_{k}": v for k, v in playtest_run(args.games, args.jobs).items()},
        "games": args.games, "jobs": args.jobs, "cores": os.cpu_count(),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }
    print_result(result)


if __name__ == "__main__":
    main()
