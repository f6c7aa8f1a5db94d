"""Making a build's targets: in this process and, beside it, in forked helper processes.

The building process is one of the makers: with ``jobs`` = N it forks N - 1 helpers, and
every maker takes the next target, longest first, from one shared counter until none is
left. A maker with nothing to wait for never idles, and the build holds one process's
working memory less than a pool of N workers beside an idle parent would (issue 14's
memory goal). Helpers inherit the targets and what they share (the data, the faces, their drawings)
through the fork, never pickled; they send back each target's bytes, never write files.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import gc
import multiprocessing
import os
import queue
import signal
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import CardgenError, Finding, error
from ..press.pdfread import WalkCache
from ..press.preflight import check_bytes

if TYPE_CHECKING:
    from .outputs import Target

#: Guess of a target's cost (seconds) when no earlier build timed it: cards first.
_DEFAULT_COST = {"cards.pdf": 0.3, "print-shop.pdf": 0.3, "tokens": 0.25, "sheets-": 0.3,
                 "board.png": 1.0}

@dataclass
class Preflights:
    """The print files' preflights of one build, each run where its file is made, so
    they overlap with the other targets instead of running one after another at the end.

    ``walks`` is the walk cache the build read (helpers inherit it, never write it); what
    each file's preflight found and the walk entries it used come back with its bytes."""

    walks: dict[str, list] = field(default_factory=dict)
    findings: dict[str, list[Finding]] = field(default_factory=dict)  # rel → findings
    used: dict[str, dict[str, list]] = field(default_factory=dict)  # rel → walk entries


#: what one target's preflight gives back: its findings and the walk entries it used
Checked = tuple[list[Finding], dict[str, list]]
#: what making one target gives back: its index, bytes or error findings, seconds, preflight
Made = tuple[int, "bytes | None", "list[Finding] | None", float, "Checked | None"]


def _check(target: Target, data: bytes, walks: dict[str, list]) -> Checked:
    assert target.preflight is not None
    cache = WalkCache(walks)
    return check_bytes(data, target.preflight, f"output/{target.rel}", cache), cache.used


def _cost(target: Target, timings: dict[str, float]) -> float:
    if target.rel in timings:
        return timings[target.rel]
    if "/vtt/sheets/" in target.rel:  # a deck sheet draws up to 69 cards
        return 1.0
    name = target.rel.rsplit("/", 1)[-1]
    return next((v for k, v in _DEFAULT_COST.items() if name.startswith(k)), 0.05)


def _make(targets: list[Target], walks: dict[str, list] | None, index: int) -> Made:
    """Make a target and, when it is a print file and the build preflights (``walks``: the
    walk cache it read), check it."""
    start = time.perf_counter()
    target = targets[index]
    try:
        data = target.make()
        _release()  # the made file's drawing, before the preflight reads the file
        checked = (_check(target, data, walks)
                   if walks is not None and target.preflight else None)
    except CardgenError as exc:  # findings pickle; the exception itself does not round-trip
        return index, None, exc.findings, 0.0, None
    return index, data, None, time.perf_counter() - start, checked


def _release() -> None:
    """Give back what making a file left behind: ReportLab's documents hold reference
    cycles, and freed heap stays with the process until it is trimmed."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # not glibc: nothing to trim
        ctypes.CDLL(None).malloc_trim(0)


_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _helper_start(parent: int) -> None:
    """Tie a forked helper's life to the build: it is killed (SIGKILL, so it prints nothing)
    when the build process dies, and ignores Ctrl-C, which the build handles for it. A
    helper thus never outlives a killed build, never holds its lock, and never prints a
    BrokenPipe traceback into a finished terminal."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        libc = ctypes.CDLL(None, use_errno=True)  # this process's own symbols: libc's prctl
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - not Linux: the build's own cleanup
        pass
    if os.getppid() != parent:  # the build died before the line above took effect
        os._exit(0)


def _helper(parent: int, make: Callable[[int], Made], order: list[int], taken: Any,
            results: Any) -> None:
    """A helper's life: make the next untaken target until none is left, sending each
    result; then say it is done. A failure that is not a finding goes back as its traceback."""
    _helper_start(parent)
    try:
        while (index := _take(order, taken)) is not None:
            results.put(("made", make(index)))
        results.put(("done", None))
    except BaseException:
        results.put(("failed", traceback.format_exc()))
    results.close()
    results.join_thread()  # every result is in the pipe before the helper ends


def _take(order: list[int], taken: Any) -> int | None:
    """The next target no maker has taken (a counter shared by every maker), or None."""
    with taken.get_lock():
        position = taken.value
        taken.value += 1
    return order[position] if position < len(order) else None


class _Helpers:
    """Forked helpers that make targets from the same counter as this process."""

    def __init__(self, count: int, make: Callable[[int], Made], order: list[int]) -> None:
        ctx = multiprocessing.get_context("fork")
        self.order = order
        self.taken = ctx.Value("i", 0)
        self.results = ctx.Queue()
        # a forked process inherits its arguments: ``make`` (the targets) is never pickled
        self.procs = [ctx.Process(target=_helper, daemon=True,
                                  args=(os.getpid(), make, order, self.taken, self.results))
                      for _ in range(count)]
        self.working = count  # helpers that have not said they are done

    def take(self) -> int | None:
        return _take(self.order, self.taken)

    def arrived(self, block: bool) -> Iterator[Made]:
        """The results that have arrived; with ``block``, every result until each helper
        is done. A helper that failed, or ended without saying it was done, is an error."""
        while self.working:
            got = self._next(block)
            if got is None:
                if not block:
                    return
                continue
            kind, value = got
            if kind == "done":
                self.working -= 1
            elif kind == "failed":
                raise RuntimeError(f"a build helper process failed:\n{value}")
            else:
                yield value

    def _next(self, block: bool) -> tuple[str, Any] | None:
        """The next message from a helper, or None (none yet; blocking waits 0.5 s)."""
        try:
            return self.results.get(timeout=0.5) if block else self.results.get_nowait()
        except queue.Empty:
            if not block or any(p.exitcode is None for p in self.procs):
                return None
        try:  # every helper has ended: what they sent is in the pipe already (join_thread)
            return self.results.get(timeout=1.0)
        except queue.Empty:
            codes = ", ".join(str(p.exitcode) for p in self.procs)
            raise CardgenError(error(
                "helper-ended", f"a build helper process ended before its work was done "
                f"(exit codes {codes}); nothing was written",
                hint="it may have been killed or run out of memory: build again, or with "
                     "--jobs 1")) from None

    def close(self) -> None:
        for proc in self.procs:
            if proc.is_alive():
                proc.kill()
            proc.join()
        self.results.close()


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def make_targets(targets: list[Target], jobs: int = 0, timings: dict[str, float] | None = None,
                 preflights: Preflights | None = None) -> Iterator[tuple[Target, bytes]]:
    """Make every target's bytes; yield (target, bytes) as each is done.

    ``jobs`` processes make them: this one and ``jobs - 1`` forked helpers, longest first;
    each target's bytes depend only on its inputs, so they equal a serial build's.
    ``timings`` (rel → seconds) is read for scheduling and updated with this run's times.
    With ``preflights``, each target that has preflight rules is checked by the process that
    made it, and its findings and walk entries are recorded there before it is yielded.
    """
    timings = timings if timings is not None else {}
    jobs = jobs or default_jobs()
    order = sorted(range(len(targets)), key=lambda i: -_cost(targets[i], timings))
    for i in order:  # before forking: every helper inherits what the targets share
        prepare = targets[i].prepare
        if prepare is not None:
            prepare()
    make = functools.partial(_make, targets, preflights.walks if preflights else None)
    for index, data, findings, seconds, checked in _made(order, targets, jobs, make):
        if findings is not None:
            raise CardgenError(findings)
        assert data is not None
        rel = targets[index].rel
        timings[rel] = seconds
        if preflights is not None and checked is not None:
            preflights.findings[rel], preflights.used[rel] = checked
        yield targets[index], data


def _made(order: list[int], targets: list[Target], jobs: int, make: Callable[[int], Made]
          ) -> Iterator[Made]:
    """Every target made, in the order they are done."""
    # the objects made so far (data, faces, their drawings) go to the permanent generation:
    # a collection after each target (_release) then reads only what that target made, and a
    # helper's collections never write to the pages it shares with this process, so they
    # stay shared instead of being copied into every helper
    gc.freeze()
    try:
        yield from _made_frozen(order, targets, jobs, make)
    finally:
        gc.unfreeze()


def _made_frozen(order: list[int], targets: list[Target], jobs: int,
                 make: Callable[[int], Made]) -> Iterator[Made]:
    # targets that share an in-process cache (a print-shop image folder) stay in this process
    own = [i for i in order if "/print-shop-" in targets[i].rel]
    shared = [i for i in order if "/print-shop-" not in targets[i].rel]
    count = min(jobs - 1, len(shared) - 1)
    if count < 1 or "fork" not in multiprocessing.get_all_start_methods():
        yield from map(make, order)
        return
    helpers = _Helpers(count, make, shared)
    try:
        for proc in helpers.procs:
            proc.start()
        yield from map(make, own)
        while (index := helpers.take()) is not None:
            yield from helpers.arrived(block=False)
            yield make(index)
        yield from helpers.arrived(block=True)
    finally:
        helpers.close()
