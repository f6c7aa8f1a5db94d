"""Games done against games planned, shown at least every :data:`EVERY` seconds: the games
played, games per second and the time left (``playtest`` and ``balance``).

The players call :meth:`Meter.add` when games finish and :meth:`Meter.beat` while they wait
for them (a pool's results are awaited with a timeout of :attr:`Meter.every`), so the line
is redrawn even while a slow chunk of games runs. The line goes through a
:class:`~cardgen.progress.Progress`: one redrawn line on a terminal, one line each time
in a log, nothing when quiet.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..progress import Progress

#: The longest time between two progress lines, in seconds.
EVERY = 2.0


def duration(seconds: float) -> str:
    """"45 s", "3 min 05 s", "1 h 02 min"."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


class Meter:
    """A count of games toward a planned total, with its rate and the time left."""

    def __init__(self, progress: Progress, label: str, total: int = 0, every: float = EVERY,
                 clock: Callable[[], float] = time.monotonic):
        self.progress, self.label, self.total, self.every = progress, label, total, every
        self.clock = clock
        self.done = 0
        self.what = ""
        self.start = self.shown = clock()

    def plan(self, games: int) -> None:
        """``games`` more games will be played (a stage whose size is now known)."""
        self.total += games

    def add(self, games: int) -> None:
        self.done += games
        self.total = max(self.total, self.done)
        self.beat()

    def beat(self) -> None:
        """Show the line if the last one is :attr:`every` seconds old."""
        if self.clock() - self.shown >= self.every:
            self.show()

    def rate(self) -> float:
        elapsed = self.clock() - self.start
        return self.done / elapsed if elapsed > 0 else 0.0

    def line(self) -> str:
        rate = self.rate()
        left = (f"about {duration((self.total - self.done) / rate)} left" if rate > 0
                else "time left not known yet")
        what = f" {self.what}:" if self.what else ""
        return (f"{self.label}:{what} {self.done:,}/{self.total:,} games, "
                f"{rate:.1f} games/s, {left}")

    def close(self) -> None:
        """The last line: the games played, how long they took and their rate."""
        self.progress.stage(f"{self.label}: {self.done:,} games in "
                            f"{duration(self.clock() - self.start)}, {self.rate():.1f} games/s")

    def show(self) -> None:
        self.shown = self.clock()
        self.progress.stage(self.line())
