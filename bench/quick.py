"""Quick runs: `python bench/quick.py [--repeat 3] [--jobs 2]`.

Wall and CPU seconds (the process tree: `cardgen` and its worker processes) of
`cardgen playtest --quick` and `cardgen balance --quick` as a user runs them, each in a
fresh copy of the project (so balance starts a new study), the median of ``--repeat``
runs, with the load average before and after (the machine may be shared). Goal (issue
40.4): each answers in about a minute, at most 90 s on an idle 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.balance import _cardgen  # noqa: E402
from bench.run import PARTS  # noqa: E402


def _copy(dest: Path) -> Path:
    for part in PARTS:
        src = ROOT / part
        if src.is_dir():
            shutil.copytree(src, dest / part)
        elif src.is_file():
            shutil.copy2(src, dest / part)
    return dest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    for command in ("playtest", "balance"):
        walls, cpus = [], []
        load = os.getloadavg()[0]
        for i in range(args.repeat):
            with tempfile.TemporaryDirectory(prefix="cardgen-quick-") as tmp:
                project = _copy(Path(tmp) / "project")
                wall, cpu, out = _cardgen(project, command, "--quick", "--quiet",
                                          "--jobs", str(args.jobs))
            walls.append(wall)
            cpus.append(cpu)
            print(f"{command} --quick run {i + 1}: {wall:.1f} s wall, {cpu:.1f} s CPU", flush=True)
            if i == 0:
                print("  " + "\n  ".join(out.splitlines()[:8]), flush=True)
        print(f"{command} --quick: median {statistics.median(walls):.1f} s wall, "
              f"{statistics.median(cpus):.1f} s CPU of {args.repeat} (load average "
              f"{load:.1f} before, {os.getloadavg()[0]:.1f} after)", flush=True)


if __name__ == "__main__":
    main()
