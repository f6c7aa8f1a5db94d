"""Quick runs and their progress (issue 40.4): `playtest --quick` states the interval its
budget gives before it plays; the progress line comes at least every 2 s, with games per
second and the time left, also while a slow chunk of games runs."""

from __future__ import annotations

import io
import multiprocessing

from cardgen.cli import main
from cardgen.playtest.meter import Meter, duration
from cardgen.playtest.run import waiting
from cardgen.progress import Progress


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_line_comes_every_two_seconds_with_the_rate_and_the_time_left():
    out, clock = io.StringIO(), _Clock()
    meter = Meter(Progress(out, "lines"), "playtest", 600, clock=clock)
    meter.add(10)  # at once: too soon for a line
    assert out.getvalue() == ""
    clock.now += 2.0
    meter.add(30)  # 40 games in 2 s
    assert out.getvalue() == "  playtest: 40/600 games, 20.0 games/s, about 28 s left\n"
    clock.now += 1.0
    meter.beat()  # nothing finished, and only 1 s since the last line
    clock.now += 1.0
    meter.beat()  # 2 s: the line again, though no game finished
    assert out.getvalue().splitlines()[-1] == "  playtest: 40/600 games, 10.0 games/s, about 56 s left"
    assert len(out.getvalue().splitlines()) == 2
    meter.plan(400)
    meter.what = "search"
    clock.now += 2.0
    meter.beat()
    assert "playtest: search: 40/1,000 games" in out.getvalue().splitlines()[-1]
    assert duration(75) == "1 min 15 s" and duration(3720) == "1 h 02 min"


class _Slow:
    """A pool's results: none for two waits, then one chunk."""

    def __init__(self) -> None:
        self.calls = 0

    def next(self, timeout: float) -> list[int]:
        self.calls += 1
        if self.calls <= 2:
            raise multiprocessing.TimeoutError
        if self.calls == 3:
            return [1, 2, 3]
        raise StopIteration


def test_waiting_for_a_slow_chunk_beats_each_wait():
    beats: list[int] = []
    assert list(waiting(_Slow(), 2.0, beats.append)) == [[1, 2, 3]]
    assert beats == [0, 0]


def test_playtest_quick_says_its_interval_before_it_plays(project, capsys, monkeypatch):
    import cardgen.playtest as pt
    monkeypatch.setattr(pt, "QUICK_GAMES", 4)
    assert main(["--project", str(project), "playtest", "--quick", "--players",
                 "random,random", "--jobs", "1", "--lang", "en"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    # a log (not a terminal) gets the last line with the rate
    assert captured.err.splitlines()[-1].startswith("  playtest: 4 games in ")
    assert captured.err.rstrip().endswith("games/s")
    assert lines[0] == ("quick playtest: 4 games, each house's win rate to within about ±49.0 pp "
                        "(95 % interval)")
    assert lines[1].startswith("4 games: Luxembourg ")
