"""What a rebuild redoes: exactly the outputs and faces whose inputs changed; corrupt state
or cache entries are rebuilt, never trusted."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardgen import pipeline
from cardgen.incremental import CACHE_DIR, STATE_NAME, BuildState, JsonCache
from tests.conftest import copy_project, replace_in

LUX = Path("card_data/cards/luxembourg.yaml")


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    project = copy_project(tmp_path_factory.mktemp("inc") / "project")
    # the shipped data is clean: a doubled space gives the build a warning to keep
    replace_in(project / LUX, 'en: "Place 3 influence in Bohemia."',
               'en: "Place 3  influence in Bohemia."')
    pipeline.build(project, pipeline.BuildOptions())
    return project


@pytest.fixture
def proj(base, tmp_path) -> Path:
    dest = tmp_path / "project"
    shutil.copytree(base, dest, symlinks=True)
    return dest


def _rels(paths: list[Path], project: Path) -> set[str]:
    return {str(p.relative_to(project / "output")) for p in paths}


def test_no_change_rebuild_skips_the_check_and_keeps_warnings(proj):
    first = json.loads((proj / "output" / STATE_NAME).read_text())
    report = pipeline.build(proj, pipeline.BuildOptions())
    assert report.unchanged and not report.written
    assert len(report.skipped) == len(first["outputs"])
    assert report.findings and all(f.severity != "error" for f in report.findings)
    assert any(f.location and f.location.line for f in report.findings)


def test_czech_text_change_rebuilds_exactly_the_czech_card_outputs(proj):
    before = (proj / "output" / "en" / "cards.pdf").read_bytes()
    replace_in(proj / LUX, "cs: Otec vlasti}", "cs: Otec říše}")
    report = pipeline.build(proj, pipeline.BuildOptions())
    assert _rels(report.written, proj) == {
        "cs/cards.pdf", "cs/sheets-a4.pdf", "cs/sheets-letter.pdf", "cs/print-shop.pdf",
        "cs/manifest.json", "cs/manifest.txt", "cs/glossary.pdf", "en/glossary.pdf"}
    assert (proj / "output" / "en" / "cards.pdf").read_bytes() == before


def test_layout_change_rebuilds_every_card_output(proj):
    replace_in(proj / "layouts" / "card.yaml", "panel_opacity: 0.92", "panel_opacity: 0.9")
    report = pipeline.build(proj, pipeline.BuildOptions())
    written = _rels(report.written, proj)
    for lang in ("en", "cs"):
        assert {f"{lang}/cards.pdf", f"{lang}/sheets-a4.pdf", f"{lang}/print-shop.pdf"} <= written


def test_one_card_change_refits_only_that_card(proj, monkeypatch):
    calls: list[tuple[str, str]] = []
    real = pipeline.check_face

    def spy(face, layout):
        calls.append((face.card_id, face.lang))
        return real(face, layout)

    monkeypatch.setattr(pipeline, "check_face", spy)
    replace_in(proj / LUX, "cs: Otec vlasti}", "cs: Otec říše}")
    pipeline.build(proj, pipeline.BuildOptions())
    assert calls == [("charles-iv", "cs")]


def test_corrupt_fit_cache_is_rebuilt_not_used(proj, monkeypatch):
    cache = proj / "output" / CACHE_DIR / "fit.json"
    raw = json.loads(cache.read_text())
    first = next(iter(raw["payload"]))
    raw["payload"][first] = [{"severity": "error"}]  # edited: the checksum no longer matches
    cache.write_text(json.dumps(raw))
    calls = []
    real = pipeline.check_face
    monkeypatch.setattr(pipeline, "check_face", lambda f, lay: calls.append(f) or real(f, lay))
    replace_in(proj / LUX, "cs: Otec vlasti}", "cs: Otec říše}")
    pipeline.build(proj, pipeline.BuildOptions())
    assert len(calls) > 100  # whole cache distrusted: every face fitted again
    assert JsonCache(proj / "output", "fit").read(raw["key"]) is not None


def test_edited_output_and_truncated_state_are_rebuilt(proj):
    (proj / "output" / "en" / "back.pdf").write_bytes(b"%PDF-1.4 garbage")
    report = pipeline.build(proj, pipeline.BuildOptions())
    assert not report.unchanged and _rels(report.written, proj) == {"en/back.pdf"}
    (proj / "output" / STATE_NAME).write_text('{"version": 2, "entries": {"en/ca')
    assert BuildState.read(proj / "output").entries == {}  # nothing trusted: all rebuilt


def test_corrupt_findings_cache_runs_the_check_again(proj):
    (proj / "output" / CACHE_DIR / "findings.json").write_text("{not json")
    report = pipeline.build(proj, pipeline.BuildOptions())
    assert not report.unchanged and not report.written and report.findings
