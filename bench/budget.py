"""Template budget benchmark: `python bench/budget.py [--repeat N]`.

The CPU and wall time of each hostile template of tests/test_budget.py (bombs and failures):
refused or failing through the renderer (in this process, the data loaded once), and through
a whole `cardgen check` of a copy of the project (in this process, caches cold). The tests
bound the same cases by memory and counted work (sandbox operations, renders); the seconds
depend on the machine, so they are measured here, with the load average beside them.
Each figure is the median of N runs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not bench/, whose tests.py would hide the tests folder

from bench.measure import print_result  # noqa: E402
from cardgen.cli import main  # noqa: E402
from cardgen.data.load import load  # noqa: E402
from cardgen.wording.templates import Renderer, TextError  # noqa: E402
from tests.conftest import copy_project, replace_in  # noqa: E402
from tests.test_budget import BOMBS, EN, FAILURES, OP  # noqa: E402


def timed(run: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds of ``run``."""
    wall, cpu = [], []
    for _ in range(repeat):
        start, used = time.perf_counter(), time.process_time()
        run()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - used)
    return round(1000 * statistics.median(wall), 1), round(1000 * statistics.median(cpu), 1)


def hostile(tmp: Path, name: str) -> Path:
    project = copy_project(tmp / name)
    replace_in(project / EN, OP, f'  draw: "{({**BOMBS, **FAILURES})[name][0]}"')
    return project


def through_the_renderer(project: Path) -> Callable[[], object]:
    data, _ = load(project)
    effect = next(e for c in data.cards for ln in c.lines for e in ln.effects if e.op == "draw")

    def run() -> None:
        with contextlib.suppress(TextError):
            Renderer(data, "en").clause(effect)
    return run


def through_check(project: Path) -> Callable[[], object]:
    def run() -> None:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main(["--project", str(project), "check"])
    return run


def main_() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    result: dict[str, object] = {"load_before": round(os.getloadavg()[0], 2)}
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-") as tmp:
        for name in {**BOMBS, **FAILURES}:
            project = hostile(Path(tmp), name)
            wall, cpu = timed(through_the_renderer(project), args.repeat)
            result[f"{name}: renderer wall/CPU ms"] = f"{wall} / {cpu}"
            wall, cpu = timed(through_check(project), args.repeat)
            result[f"{name}: check wall/CPU ms"] = f"{wall} / {cpu}"
    result["load_after"] = round(os.getloadavg()[0], 2)
    print_result(result)


if __name__ == "__main__":
    main_()
