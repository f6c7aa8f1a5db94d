"""The engine compiled with mypyc: `python bench/compiled.py [--games N] [--repeat R]`.

A measurement, not a build: the project's files (tracked and untracked, not ignored) are
copied to a temporary folder, the engine's hot modules compiled there with mypyc (it ships
with mypy, of the ``test`` extra; a C compiler is needed) and ``bench/engine.py`` run in the
copy, so its figures and its digest of the games compare with the interpreted engine's.
``state.py`` stays interpreted: :meth:`.state.Game.clone` copies the instance dictionary,
which a compiled (native) class has not.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULES = ("evaluate", "players", "flow", "payment", "ops", "knowledge")


def copy_project(to: Path) -> None:
    files = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard"],
                           check=True, capture_output=True, text=True).stdout.splitlines()
    for rel in files:
        src = ROOT / rel
        if src.is_file():
            (to / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, to / rel)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--players", default="greedy,greedy")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardgen-mypyc-") as tmp:
        where = Path(tmp)
        copy_project(where)
        paths = [f"cardgen/engine/{m}.py" for m in MODULES]
        built = subprocess.run([sys.executable, "-m", "mypyc", *paths], cwd=where,
                               capture_output=True, text=True)
        if built.returncode:
            raise SystemExit(built.stdout[-4000:] + built.stderr[-4000:])
        print(f"compiled with mypyc: {', '.join(paths)}")
        subprocess.run([sys.executable, "bench/engine.py", "--games", str(args.games),
                        "--repeat", str(args.repeat), "--players", args.players],
                       cwd=where, check=True)


if __name__ == "__main__":
    main()
