"""Balance benchmark: `python bench/balance.py [--trials T] [--games G] [--confirm-games C]
[--jobs J]`.

In a copy of the project, as a user would: `cardgen balance` with the budget given, then
`cardgen balance --apply`, then a fresh `cardgen playtest` of the applied data (a seed the
search never played) and `cardgen check`. Records the wall and CPU time of each step (the
process tree), trials per hour, the win rate today, found and confirmed, and whether the
fresh playtest's 95 % interval lies inside the target band (issue 33: 50 % ± 3 pp).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.measure import print_result  # noqa: E402  (the repository root is on the path now)
from bench.run import PARTS  # noqa: E402

FRESH_SEED = 101  # the fresh playtest: never a seed of the search (1) or its confirmation (2)


def _cardgen(project: Path, *args: str) -> tuple[float, float, str]:
    """Wall and CPU seconds (children included) and stdout of one cardgen command."""
    cmd = [sys.executable, "-c", "import sys; from cardgen.cli import main; sys.exit(main())",
           "--project", str(project), *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                          text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise SystemExit(f"cardgen {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return round(wall, 1), round(cpu, 1), proc.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=50)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--confirm-games", type=int, default=4000)
    ap.add_argument("--fresh-games", type=int, default=4000,
                    help="games of the fresh playtest of the applied data")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-") as tmp:
        project = Path(tmp)
        for part in PARTS:
            if (ROOT / part).is_dir():
                shutil.copytree(ROOT / part, project / part)
        wall, cpu, out = _cardgen(project, "balance", "--trials", str(args.trials), "--games",
                                  str(args.games), "--confirm-games", str(args.confirm_games),
                                  "--jobs", str(args.jobs), "--quiet")
        print(out, end="", file=sys.stderr)
        proposal = yaml.safe_load((project / "output/balance/proposal.yaml").read_text("utf-8"))
        if proposal.get("verdict", "proposal") == "proposal":  # else --apply refuses it
            _aw, _ac, applied = _cardgen(project, "balance", "--apply")
            print(applied, end="", file=sys.stderr)
        pw, pc, _ = _cardgen(project, "playtest", "--games", str(args.fresh_games), "--seed",
                             str(FRESH_SEED), "--jobs", str(args.jobs), "--quiet")
        fresh = json.loads((project / "output/playtest/report.json").read_text("utf-8"))
        _cw, _cc, _ = _cardgen(project, "check")
    lux = fresh["houses"]["luxembourg"]
    target = next(t for t in proposal["targets"] if t["measure"] == "win_rate")
    band = (target["value"] - target["tolerance"], target["value"] + target["tolerance"])
    result = {
        "trials": args.trials, "games_per_trial": args.games, "jobs": args.jobs,
        "cores": os.cpu_count(),
        "balance_wall_s": wall, "balance_cpu_s": cpu,
        "trials_per_hour": round(args.trials * 3600 / wall, 1),
        "trials_per_hour_if_cores_free": round(args.trials * 3600 / (cpu / args.jobs), 1),
        "verdict": proposal.get("verdict", "proposal"),
        "values_changed": len(proposal["changes"]),
        "win_rate_today": proposal["search_result"]["today"]["win_rate"],
        "win_rate_found": proposal["search_result"]["proposed"]["win_rate"],
        "fresh_playtest_games": args.fresh_games, "fresh_playtest_seed": FRESH_SEED,
        "fresh_win_rate": lux["rate"], "fresh_ci95": lux["ci95"],
        "fresh_interval_inside_band": band[0] <= lux["ci95"][0] and lux["ci95"][1] <= band[1],
        "confirmation_in_balance": proposal["confirmation"],
        "fresh_playtest_wall_s": pw, "fresh_playtest_cpu_s": pc,
        "check_after_apply": "passed",
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }
    print_result(result)


if __name__ == "__main__":
    main()
