"""The test suite's cost: wall time, CPU time of the whole process tree and its peak memory.

    python3 bench/tests.py [--repeat N] [--json FILE] [PYTEST ARGS…]

Runs ``python -m pytest -q -p no:cacheprovider --durations=15`` (this checkout first on the
path) ``--repeat`` times and prints each run and the medians. The goal (issue 32): at most
6 minutes wall and under 1 GB peak (PSS sum of the tree) on an idle 2-core machine. The
machine is shared: compare the CPU seconds, which other load hardly changes, and take the
wall time from a quiet moment. The slowest tests of the last run are printed after it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.measure import run_measured

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs of the suite (default 1)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args, pytest_args = parser.parse_known_args()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--durations=15",
           *pytest_args]
    runs = []
    for i in range(args.repeat):
        run = run_measured(cmd, env, every=0.2)
        tail = run.out.decode(errors="replace").strip().splitlines()
        print(f"run {i + 1}: {run.seconds:.0f} s wall, {run.cpu:.0f} s CPU (process tree), "
              f"peak {run.peak_pss / 2**20:.0f} MB PSS / {run.peak_rss / 2**20:.0f} MB RSS, "
              f"exit {run.code}: {tail[-1] if tail else ''}", flush=True)
        runs.append(run)
        for cmd, _rss, pss in sorted(run.peak_parts, key=lambda p: -p[2])[:8]:
            print(f"  at the peak: {pss / 2**20:5.0f} MB PSS  {cmd[:110]}")
    if tail:
        start = next((i for i, line in enumerate(tail) if "slowest" in line), len(tail))
        print("\n".join(tail[start:start + 17]))
        print("\n".join(line for line in tail if line.startswith(("FAILED", "ERROR"))))
    figures = {"runs": len(runs),
               "wall_s": round(statistics.median(r.seconds for r in runs), 1),
               "cpu_s": round(statistics.median(r.cpu for r in runs), 1),
               "peak_pss_mb": round(statistics.median(r.peak_pss for r in runs) / 2**20),
               "peak_rss_mb": round(statistics.median(r.peak_rss for r in runs) / 2**20),
               "load_1min": round(os.getloadavg()[0], 2)}
    print(f"median of {len(runs)}: {figures['wall_s']} s wall, {figures['cpu_s']} s CPU, peak "
          f"{figures['peak_pss_mb']} MB PSS ({figures['peak_rss_mb']} MB RSS); load now "
          f"{figures['load_1min']}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    if any(r.code for r in runs):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
