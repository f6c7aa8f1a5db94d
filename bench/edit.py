"""Edit benchmark: `python bench/edit.py [--scale 1,20] [--repeat 3] [--watch]`.

Per deck size (bench/scale.py), in a temporary copy of the project, each a fresh process
as a user would start it, the median of ``--repeat`` runs of:

* cold: `cardgen build` into an empty output/
* no-change: the same build again
* one-card-cs: after one card's Czech Deed name changed (Charles IV's, a new one each run)
* check: `cardgen check` after that build
* watch (with ``--watch``): seconds from saving that edit until `cardgen watch` has
  rewritten output/cs/cards.pdf

with wall time and CPU time (user + system, of the process and all its workers), the
one-card edit as a share of the cold build, and the load average while measuring. Prints
a Markdown table and the same numbers as JSON.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.run import _env, emit_json
from bench.scale import make_scaled_project

CARD_FILE = Path("card_data/cards/luxembourg.yaml")
CS_OLD = "Otec vlasti"
CS_VARIANTS = ["Otec vlasti a říše", "Otec říše", "Otec Čech", "Otec národa"]


def cli(project: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "cardgen.cli", "--project", str(project), *args]


def timed(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system of the process tree) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run = subprocess.run(cmd, capture_output=True, text=True, env=_env())
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        raise SystemExit(f"bench: {' '.join(cmd[3:])} failed ({run.returncode}):\n"
                         f"{run.stdout[-3000:]}{run.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


class Editor:
    """Changes Charles IV's Czech Deed name to a new text each time."""

    def __init__(self, project: Path):
        self.path, self.current, self.n = project / CARD_FILE, CS_OLD, 0

    def __call__(self) -> None:
        self.n += 1
        new = CS_VARIANTS[self.n % len(CS_VARIANTS)]
        text = self.path.read_text(encoding="utf-8")
        needle = f"cs: {self.current}"
        if needle not in text:
            raise SystemExit(f"bench: {needle!r} not in {self.path}")
        self.path.write_text(text.replace(needle, f"cs: {new}", 1), encoding="utf-8")
        self.current = new


def watch_latency(project: Path, edit: Editor, repeat: int) -> list[float]:
    """Seconds from saving an edit until `cardgen watch` rewrote output/cs/cards.pdf."""
    target = project / "output" / "cs" / "cards.pdf"
    proc = subprocess.Popen(cli(project, "watch"), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=_env())
    out: list[float] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # the first build (unchanged: reused)
            if line.startswith(("built:", "build failed")):
                break
        for _ in range(repeat):
            before = target.read_bytes()
            time.sleep(0.6)  # a save the watcher sees as new
            start = time.perf_counter()
            edit()
            while target.read_bytes() == before:
                if time.perf_counter() - start > 600:
                    raise SystemExit("bench: watch did not rebuild within 600 s")
                time.sleep(0.02)
            out.append(time.perf_counter() - start)
            for line in proc.stdout:  # wait until that build is done
                if line.startswith(("built:", "build failed")):
                    break
    finally:
        proc.terminate()
        proc.wait(30)
    return out


def measure(scale: int, repeat: int, with_watch: bool) -> dict[str, float]:
    tmp = Path(tempfile.mkdtemp(prefix="cardgen-edit-"))
    try:
        project = make_scaled_project(tmp / "project", scale)
        runs: dict[str, list[tuple[float, float]]] = {}

        def run(name: str, cmd: list[str], prepare=None) -> None:
            for _ in range(repeat):
                if prepare:
                    prepare()
                runs.setdefault(name, []).append(timed(cmd))

        build = cli(project, "build", "--quiet")
        run("cold", build, lambda: shutil.rmtree(project / "output", ignore_errors=True))
        run("no_change", build)
        edit = Editor(project)
        run("one_card_cs", build, edit)
        run("check", cli(project, "check"))
        out: dict[str, float] = {"scale": scale}
        for name, values in runs.items():
            out[f"{name}_s"] = round(statistics.median(w for w, _ in values), 3)
            out[f"{name}_cpu_s"] = round(statistics.median(c for _, c in values), 3)
        out["one_card_share_wall"] = round(out["one_card_cs_s"] / out["cold_s"], 3)
        out["one_card_share_cpu"] = round(out["one_card_cs_cpu_s"] / out["cold_cpu_s"], 3)
        if with_watch:
            out["watch_s"] = round(statistics.median(watch_latency(project, edit, repeat)), 3)
        out["loadavg_1min"] = round(os.getloadavg()[0], 2)
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", default="1", help="deck sizes, e.g. 1,20")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (median)")
    ap.add_argument("--watch", action="store_true", help="also time `cardgen watch`")
    ap.add_argument("--json", type=Path, help="also write the JSON here")
    args = ap.parse_args(argv)
    results = [measure(int(s), args.repeat, args.watch) for s in args.scale.split(",")]
    names = [k for k in results[0] if k != "scale"]
    print("| measure | " + " | ".join(f"{r['scale']}×" for r in results) + " |")
    print("|---|" + "---|" * len(results))
    for name in names:
        print(f"| {name} | " + " | ".join(str(r.get(name, "")) for r in results) + " |")
    emit_json(results, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
