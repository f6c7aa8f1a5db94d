"""How long work shows itself: a one-line bar on a terminal, one line per step otherwise, or
nothing at all (``quiet``) for scripts. No dependency: the bar is a carriage-return line.
"""

from __future__ import annotations

import sys
from typing import TextIO

BAR_WIDTH = 28


class Progress:
    """Stages and steps of a build.

    ``mode`` is ``"bar"`` (redraw one line with ``\\r``), ``"lines"`` (one line per stage and
    step, for logs and pipes) or ``"quiet"`` (nothing). :meth:`auto` picks bar or lines from
    whether the stream is a terminal.
    """

    def __init__(self, stream: TextIO | None = None, mode: str = "lines"):
        if mode not in ("bar", "lines", "quiet"):
            raise ValueError(f"unknown progress mode {mode!r}")
        self.stream = stream if stream is not None else sys.stderr
        self.mode = mode
        self.total = 0
        self.done = 0
        self.label = ""
        self._bar_shown = False

    @classmethod
    def auto(cls, stream: TextIO | None = None, *, quiet: bool = False) -> Progress:
        stream = stream if stream is not None else sys.stderr
        if quiet:
            return cls(stream, "quiet")
        isatty = getattr(stream, "isatty", lambda: False)
        try:
            tty = bool(isatty())
        except (OSError, ValueError):
            tty = False
        return cls(stream, "bar" if tty else "lines")

    # a log function for stages: progress.stage("check")
    def stage(self, name: str) -> None:
        if self.mode == "quiet":
            return
        if self.mode == "bar":
            self._clear()
            self._write(f"{name}…")
            self._bar_shown = True  # the stage line is overwritten by the next bar
            return
        self._write(f"  {name}\n")

    __call__ = stage  # a Progress is also a plain ``log(message)``

    def start(self, total: int, label: str = "") -> None:
        self.total, self.done, self.label = total, 0, label
        if self.mode == "bar" and total:
            self._draw("")

    def step(self, what: str) -> None:
        self.done += 1
        if self.mode == "lines":
            self._write(f"  {what}\n")
        elif self.mode == "bar":
            self._draw(what)

    def finish(self) -> None:
        if self.mode == "bar":
            self._clear()

    # terminal drawing ------------------------------------------------------------------
    def _draw(self, what: str) -> None:
        total = max(self.total, 1)
        filled = round(BAR_WIDTH * min(self.done, total) / total)
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        text = f"{self.label} [{bar}] {self.done}/{self.total} {what}"
        self._clear()
        self._write(text[:100])
        self._bar_shown = True

    def _clear(self) -> None:
        if self._bar_shown:
            self._write("\r\x1b[2K")
            self._bar_shown = False

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed pipe must not stop a build
            pass
