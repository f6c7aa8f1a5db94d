"""`cardgen build`: parallel = serial bytes, errors write nothing, the lock, art paths, data
that looks like a template stays data."""

from __future__ import annotations

import os
import shutil
import time
from collections import Counter
from pathlib import Path
from unittest import mock

import pytest

from cardgen.build.build import build
from cardgen.build.check import run_check
from cardgen.build.making import make_targets
from cardgen.build.options import BuildOptions
from cardgen.build.outputs import Target
from cardgen.data import yamlsrc
from cardgen.errors import CardgenError
from cardgen.files.lock import build_lock
from cardgen.progress import Progress
from tests.conftest import copy_project, replace_in

LUX = Path("card_data/cards/luxembourg.yaml")
EN_ONLY = BuildOptions(langs=("en",))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """One full build (both languages), shared read-only by the tests of this module."""
    project = copy_project(tmp_path_factory.mktemp("built") / "project")
    build(project, BuildOptions())
    return project


def _outputs(output: Path) -> dict[str, bytes]:
    return {str(p.relative_to(output)): p.read_bytes() for p in sorted(output.rglob("*"))
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(output).parts)}


@pytest.fixture(scope="module")
def serial(tmp_path_factory) -> tuple[Path, Counter[str]]:
    """A cold build in this process (``--jobs 1``), and how often it parsed each YAML file."""
    project = copy_project(tmp_path_factory.mktemp("serial") / "project")
    parsed: Counter[str] = Counter()
    real = yamlsrc.load_yaml_text

    def counted(text: str, name: str):
        parsed[name] += 1
        return real(text, name)

    with mock.patch.object(yamlsrc, "load_yaml_text", counted):
        report = build(project, BuildOptions(jobs=1))
    assert report.written and not report.skipped
    return project, parsed


def test_parallel_build_is_byte_identical_to_serial(built, serial):
    parallel = _outputs(built / "output")
    made = _outputs(serial[0] / "output")
    assert parallel.keys() == made.keys()
    assert [k for k in parallel if parallel[k] != made[k]] == []


def test_a_cold_build_parses_each_input_file_once(serial):
    """Issue 37: the gathered project (cardgen/data/project.py) reads every YAML file of the
    project once, for the check and every target; before it, one build parsed 76 times
    over 19 files (components.yaml 24 times)."""
    parsed = serial[1]
    inputs = {n for n in parsed if n.startswith(("card_data/", "layouts/"))}
    assert {"card_data/components.yaml", "layouts/board.yaml", "layouts/card.yaml",
            "layouts/sheets.yaml", "layouts/profiles.yaml", "layouts/vtt.yaml",
            "card_data/text/cs-state.yaml"} <= inputs
    assert {n: k for n, k in parsed.items() if k > 1} == {}
    assert len(parsed) == len(inputs)  # every name the project's own, none absolute


def test_make_targets_yields_every_target_once_in_any_mode():
    targets = [Target(f"t{i}", str(i), lambda i=i: f"bytes {i}".encode()) for i in range(5)]
    for jobs in (1, 2):
        made = dict((t.rel, data) for t, data in make_targets(targets, jobs))
        assert made == {f"t{i}": f"bytes {i}".encode() for i in range(5)}


def test_worker_error_reaches_the_caller_as_cardgen_error():
    def boom() -> bytes:
        from cardgen.errors import error
        raise CardgenError(error("x-fail", "worker failed"))

    targets = [Target("a", "1", boom), Target("b", "2", lambda: b"ok")]
    with pytest.raises(CardgenError) as exc:
        list(make_targets(targets, 2))
    assert exc.value.findings[0].code == "x-fail"


def _in_helper(action, parent: int = os.getpid()):
    """A target's make that runs ``action`` in a forked helper and gives bytes in the build
    process itself (which also makes targets)."""
    def make() -> bytes:
        if os.getpid() != parent:
            action()
        time.sleep(0.2)  # the build process is slow: the helper surely takes one target
        return b"made here"
    return make


def test_a_helper_that_dies_is_an_error_naming_what_to_do():
    targets = [Target(f"t{i}", "k", _in_helper(lambda: os._exit(9))) for i in range(4)]
    with pytest.raises(CardgenError) as exc:
        list(make_targets(targets, 2))
    finding = exc.value.findings[0]
    assert finding.code == "helper-ended" and "exit codes 9" in finding.message
    assert "--jobs 1" in (finding.hint or "")


def test_a_helper_bug_reaches_the_build_with_its_traceback():
    def bug() -> None:
        raise ZeroDivisionError("a bug in a helper")

    targets = [Target(f"t{i}", "k", _in_helper(bug)) for i in range(4)]
    with pytest.raises(RuntimeError, match="ZeroDivisionError: a bug in a helper"):
        list(make_targets(targets, 2))


def test_build_with_errors_writes_nothing_and_says_so(tmp_path):
    project = copy_project(tmp_path / "p")
    replace_in(project / LUX, "political: 3", "political: lots")
    with pytest.raises(CardgenError) as exc:
        build(project, EN_ONLY)
    assert any(f.severity == "error" and f.location for f in exc.value.findings)
    assert not [p for p in (project / "output").rglob("*") if p.suffix in (".pdf", ".json")]


def test_a_build_failing_after_some_files_are_made_leaves_every_output_as_it_was(
        tmp_path, monkeypatch):
    """Files made before the failure are staged beside their outputs, never put in place,
    and their temporary files are gone."""
    import cardgen.build.making

    project = copy_project(tmp_path / "p")
    options = BuildOptions(langs=("en",), jobs=1)
    build(project, options)
    before = _outputs(project / "output")
    replace_in(project / LUX, "political: 3", "political: 2")
    make_targets = cardgen.build.making.make_targets

    def fails_after_two(*args, **kwargs):
        for count, made in enumerate(make_targets(*args, **kwargs)):
            if count == 2:
                from cardgen.errors import error
                raise CardgenError(error("x-fail", "the disk filled up"))
            yield made

    monkeypatch.setattr(cardgen.build.making, "make_targets", fails_after_two)
    with pytest.raises(CardgenError):
        build(project, options)
    assert _outputs(project / "output") == before
    assert list((project / "output").rglob("*.tmp")) == []


def test_second_build_meets_the_lock_with_a_clear_message(built):
    with build_lock(built / "output"), pytest.raises(CardgenError) as exc:
        build(built, EN_ONLY)
    assert exc.value.findings[0].code == "build-running"
    assert "another cardgen build" in exc.value.findings[0].message


@pytest.mark.parametrize("art", ["../../etc/passwd", "/etc/passwd", "sub/dir", ".."])
def test_art_outside_art_folder_is_an_error_at_the_card(tmp_path, art):
    project = copy_project(tmp_path / "p")
    line = replace_in(project / LUX, "    crown: true\n", f"    crown: true\n    art: '{art}'\n")
    report = run_check(project)
    found = [f for f in report.findings if f.code == "art-path"]
    assert len(found) == 1 and found[0].card == "charles-iv"
    assert found[0].location.file.endswith("luxembourg.yaml") and found[0].location.line == line + 1


def test_art_symlink_leading_out_of_art_is_an_error(tmp_path):
    project = copy_project(tmp_path / "p")
    (project / "art").mkdir(exist_ok=True)
    outside = tmp_path / "secret.png"
    shutil.copy(project / "fonts" / next(p.name for p in (project / "fonts").glob("*.ttf")), outside)
    (project / "art" / "charles-iv.png").symlink_to(outside)
    codes = {f.code for f in run_check(project).findings if f.card == "charles-iv"}
    assert "art-path" in codes


def test_template_syntax_in_card_text_is_printed_as_is(tmp_path):
    project = copy_project(tmp_path / "p")
    replace_in(project / LUX, "en: Father of the Country,", "en: 'Father {{ x }} {% if x %}',")
    report = run_check(project)
    assert report.ok, [f.format() for f in report.findings if f.severity == "error"]
    face = next(f for f in report.faces["en"] if f.card_id == "charles-iv")
    assert "Father {{ x }} {% if x %}" in repr(face)


def test_progress_modes(capsys):
    import io

    lines = io.StringIO()
    p = Progress(lines, "lines")
    p.stage("check")
    p.start(2, "build")
    p.step("en/cards.pdf")
    p.step("en/back.pdf")
    p.finish()
    assert lines.getvalue() == "  check\n  en/cards.pdf\n  en/back.pdf\n"
    bar = io.StringIO()
    p = Progress(bar, "bar")
    p.start(2, "build")
    p.step("en/cards.pdf")
    p.finish()
    assert "\r" in bar.getvalue() and "[" in bar.getvalue() and "1/2" in bar.getvalue()
    quiet = io.StringIO()
    p = Progress.auto(quiet, quiet=True)
    p.stage("check")
    p.start(1)
    p.step("x")
    assert quiet.getvalue() == ""
    assert Progress.auto(io.StringIO()).mode == "lines"  # not a terminal
