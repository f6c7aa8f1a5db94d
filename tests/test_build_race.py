"""A build and the world around it (issue 17, items 3 and 5): an edit saved while a build
runs is seen by the next build, a killed build leaves no temporary files, workers and lock
behind."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from cardgen.build import build as building
from cardgen.build.options import BuildOptions
from cardgen.files.lock import build_lock
from tests.conftest import ROOT, copy_project, replace_in

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext")

OPTIONS = BuildOptions(langs=("en",))
TITLE = "title: {en: Player aid,"


@pytest.fixture(scope="module")
def built_en(tmp_path_factory) -> Path:
    """One English build, copied (with its output/) by each test that builds again."""
    project = copy_project(tmp_path_factory.mktemp("race") / "project")
    building.build(project, OPTIONS)
    return project


@pytest.fixture
def rebuilt(built_en, tmp_path) -> Path:
    project = tmp_path / "project"
    shutil.copytree(built_en, project, symlinks=True)
    return project


def aid_title(project: Path) -> str:
    text = subprocess.run(["pdftotext", "-l", "1", str(project / "output" / "en" / "player-aid.pdf"),
                           "-"], capture_output=True, text=True, check=True).stdout
    return text.split("·")[0].strip()


@pytest.mark.parametrize("moment", ["while the data is read", "after the inputs key"])
def test_an_edit_saved_during_a_build_is_seen_by_the_next_build(rebuilt, monkeypatch, moment):
    """A build of A runs; the user saves B at ``moment``. The build's outputs and the key it
    records describe one version, so the next build is right: while the data is read, the
    build used A (copied before the save), and once B is undone "nothing changed" is true,
    with A's outputs; just after the key, the build used B and records B's key."""
    project = rebuilt
    components = project / "card_data" / "components.yaml"
    replace_in(components, TITLE, "title: {en: Aid A,")
    hooked = "run_check" if moment == "while the data is read" else "inputs_digest"
    real = getattr(building, hooked)

    def save_during_build(*args, **kw):
        if hooked == "inputs_digest":
            key = real(*args, **kw)
            replace_in(components, "Aid A", "Aid B")
            return key
        replace_in(components, "Aid A", "Aid B")
        return real(*args, **kw)

    monkeypatch.setattr(building, hooked, save_during_build)
    assert not building.build(project, OPTIONS).unchanged
    monkeypatch.undo()
    if moment == "while the data is read":
        assert aid_title(project) == "Aid A"
        replace_in(components, "Aid B", "Aid A")  # the user undoes the save
        assert building.build(project, OPTIONS).unchanged
        assert aid_title(project) == "Aid A"
    else:
        assert aid_title(project) == "Aid B"
        assert building.build(project, OPTIONS).unchanged  # B is built and B is on disk


def test_a_killed_builds_temporary_files_are_removed_at_the_next_start(rebuilt):
    project = rebuilt
    out = project / "output"
    stale = [out / "en" / ".cards.pdf.a1b2c3d4.tmp", out / ".cardgen-state.json.zz99yy88.tmp",
             out / ".cache" / ".fit.json.qwertyui.tmp",
             out / ".cache" / "inputs-k1ll3d00" / "card_data" / "game.yaml"]
    kept = [out / "en" / "notes.tmp", out / "proof" / ".cs-en.pdf.a1b2c3d4.tmp"]
    for path in stale + kept:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"half")
    report = building.build(project, OPTIONS)
    assert report.unchanged
    assert [p for p in stale if p.exists()] == []
    assert not (out / ".cache" / "inputs-k1ll3d00").exists()
    assert all(p.exists() for p in kept)  # not a build's own temp file, or not its folder


WORKERS = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    from cardgen.files.lock import build_lock
    from cardgen.build.making import make_targets
    from cardgen.build.outputs import Target

    out = Path(sys.argv[1])

    def slow():
        (out / f"worker-{os.getpid()}").write_text("")
        time.sleep(120)
        return b""

    with build_lock(out):
        for _ in make_targets([Target(f"t{i}", "k", slow) for i in range(2)], jobs=2):
            pass
""")


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in state and "\nState:\tX" not in state


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux")
def test_workers_die_with_a_killed_build_and_free_the_lock(tmp_path):
    out = tmp_path / "output"
    out.mkdir()
    script = tmp_path / "workers.py"
    script.write_text(WORKERS, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    build = subprocess.Popen([sys.executable, str(script), str(out)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while len(list(out.glob("worker-*"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = [int(p.name.split("-")[1]) for p in out.glob("worker-*")]
    assert len(workers) == 2, build.stderr.read() if build.poll() is not None else "no workers"
    build.send_signal(signal.SIGKILL)
    build.wait()
    deadline = time.monotonic() + 30
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in workers)
    with build_lock(out):  # free again: no orphan holds it
        pass
    err = build.stderr.read().decode()
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_a_builds_warnings_and_faces_point_at_the_project_not_its_copy(project):
    """The build reads a copy of its inputs; what it reports must name the designer's files
    (rule 2.36's line order gives a warning with a location) and faces the preview can draw."""
    path = project / "card_data" / "cards" / "luxembourg.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("  - id: charles-iv")
    block = text[start:text.index("\n\n", start)]
    deed = block[block.index("    deed:"):block.index("    boost:")]
    boost = block[block.index("    boost:"):] + "\n"
    path.write_text(text.replace(block, block.replace(deed, "").replace(
        boost.rstrip("\n"), boost + deed.rstrip("\n"))), encoding="utf-8")
    report = building.build(project, OPTIONS)
    hit = next(f for f in report.findings if f.code == "line-order")
    assert hit.location is not None and hit.location.file == "card_data/cards/luxembourg.yaml"
    assert ".cache" not in hit.message + (hit.hint or "")
    assert report.layout is not None and all(p.is_file() for p in report.layout.fonts.values())
    assert Path(report.layout.source).resolve().is_relative_to(project.resolve())
