"""`cardgen watch` rebuilds on save, reports broken data and keeps going."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from cardgen.build.options import BuildOptions
from cardgen.build.watch import changed, snapshot, watch
from tests.conftest import copy_project, replace_in

LUX = Path("card_data/cards/luxembourg.yaml")


def _wait_for(log: list[str], text: str, count: int = 1, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while sum(text in line for line in log) < count:
        assert time.monotonic() < deadline, f"no {text!r} in log:\n" + "\n".join(log)
        time.sleep(0.05)


def test_snapshot_sees_saves_and_ignores_hidden_files(tmp_path):
    project = copy_project(tmp_path / "p")
    before = snapshot(project)
    (project / "card_data" / ".cards.yaml.swp").write_text("x")
    assert changed(before, snapshot(project)) == []
    replace_in(project / LUX, "political: 3", "political: 4")
    assert changed(before, snapshot(project)) == [str(LUX)]


def test_watch_rebuilds_reports_errors_and_keeps_running(tmp_path):
    project = copy_project(tmp_path / "p")
    log: list[str] = []
    stop = threading.Event()
    opts = BuildOptions(langs=("en",))
    thread = threading.Thread(target=watch, args=(project, opts, log.append, stop),
                              kwargs={"interval": 0.05, "settle": 0.05})
    thread.start()
    try:
        _wait_for(log, "built:")
        replace_in(project / LUX, "political: 3", "political: lots")  # broken data
        _wait_for(log, "build failed")
        assert any("luxembourg.yaml" in line and "error" in line for line in log)
        replace_in(project / LUX, "political: lots", "political: 3")  # fixed again
        _wait_for(log, "built:", 2)
    finally:
        stop.set()
        thread.join(timeout=30)
    assert not thread.is_alive()
    assert (project / "output" / "en" / "cards.pdf").is_file()
