"""Measuring a command as the benchmarks report it: wall time, CPU time of its whole
process tree, and the peak memory of that tree (RSS and PSS sums, sampled)."""

from __future__ import annotations

import json
import resource
import subprocess
import threading
import time
from dataclasses import dataclass


def tree_memory(pid: int) -> tuple[int, int]:
    """(RSS, PSS) in bytes, summed over pid and all its descendants. RSS counts a page
    shared by forked workers once in each of them; PSS splits it between them, so the PSS
    sum is the memory the tree really holds."""
    return totals(tree_parts(pid))


def totals(parts: list[tuple[str, int, int]]) -> tuple[int, int]:
    """(RSS, PSS) summed over the processes of :func:`tree_parts`."""
    return sum(p[1] for p in parts), sum(p[2] for p in parts)


def tree_parts(pid: int) -> list[tuple[str, int, int]]:
    """(command line, RSS, PSS) of pid and of each of its descendants, in bytes.

    A child between ``vfork`` and ``exec`` (how Python's subprocess starts a program) is its
    parent's very memory, and a process that execs while it is read is half one program and
    half another: both are left out, or the tree's memory would be counted twice."""
    parts: list[tuple[str, int, int]] = []
    todo: list[tuple[int, tuple[str, int, int] | None]] = [(pid, None)]
    while todo:
        p, parent = todo.pop()
        try:
            cmd = _cmdline(p)
            rss, pss = _smaps(p)
            with open(f"/proc/{p}/task/{p}/children") as fh:
                children = [int(c) for c in fh.read().split()]
            if _cmdline(p) != cmd or (cmd, rss, pss) == parent:
                continue
            parts.append((cmd, rss, pss))
            todo += [(c, parts[-1]) for c in children]
        except (OSError, ValueError):
            continue
    return parts


def _cmdline(pid: int) -> str:
    with open(f"/proc/{pid}/cmdline", "rb") as fh:
        return fh.read().replace(b"\0", b" ").decode(errors="replace").strip()


def _smaps(pid: int) -> tuple[int, int]:
    rss = pss = 0
    with open(f"/proc/{pid}/smaps_rollup") as fh:
        for line in fh:
            if line.startswith(("Rss:", "Pss:")):
                kb = int(line.split()[1]) * 1024
                if line.startswith("Rss:"):
                    rss += kb
                else:
                    pss += kb
    return rss, pss


def children_cpu() -> float:
    """CPU seconds (user + system) of every finished child process of this one and of
    their own waited-for children: a command's whole process tree once it has ended."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


@dataclass(frozen=True)
class Run:
    seconds: float  # wall
    cpu: float  # user + system of the whole tree
    peak_rss: int  # bytes, summed over the tree
    peak_pss: int
    code: int
    out: bytes
    err: bytes
    peak_parts: tuple[tuple[str, int, int], ...] = ()  # the tree at its PSS peak


def run_measured(cmd: list[str], env: dict[str, str], every: float = 0.02) -> Run:
    """Run ``cmd`` to its end, sampling its tree's memory every ``every`` seconds."""
    peak = [0, 0]
    at_peak: list[tuple[str, int, int]] = []
    cpu = children_cpu()
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            parts = tree_parts(proc.pid)
            rss, pss = totals(parts)
            if pss > peak[1]:
                at_peak[:] = parts
            peak[0], peak[1] = max(peak[0], rss), max(peak[1], pss)
            done.wait(every)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate()
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    return Run(seconds, children_cpu() - cpu, peak[0], peak[1], proc.returncode, out, err,
               tuple(at_peak))


def print_result(result: dict[str, object]) -> None:
    """A benchmark's figures as a Markdown table (for the README), then as one JSON line."""
    print("| measure | value |\n|---|---|")
    for k, v in result.items():
        print(f"| {k} | {v} |")
    print(json.dumps(result, sort_keys=True))
