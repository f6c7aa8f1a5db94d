"""What a rebuild redoes: exactly the outputs and faces whose inputs changed; corrupt state
or cache entries are rebuilt, never trusted."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardgen.build.build import build
from cardgen.build.options import BuildOptions
from cardgen.files.incremental import CACHE_DIR, STATE_NAME, BuildState, JsonCache
from cardgen.render import card as render_card
from tests.conftest import copy_project, replace_in

LUX = Path("card_data/cards/luxembourg.yaml")


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    project = copy_project(tmp_path_factory.mktemp("inc") / "project")
    # the shipped data is clean: a doubled space gives the build a warning to keep
    replace_in(project / LUX, 'en: "Place 3 influence in Bohemia."',
               'en: "Place 3  influence in Bohemia."')
    build(project, BuildOptions())
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
    report = build(proj, BuildOptions())
    assert report.unchanged and not report.written
    assert len(report.skipped) == len(first["outputs"])
    assert report.findings and all(f.severity != "error" for f in report.findings)
    assert any(f.location and f.location.line for f in report.findings)


def _outputs(project: Path) -> dict[str, bytes]:
    out = project / "output"
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and not p.relative_to(out).parts[0].startswith(".")}


def test_czech_text_change_rewrites_exactly_the_files_holding_the_card(proj, tmp_path):
    before = _outputs(proj)
    replace_in(proj / LUX, "cs: Otec vlasti}", "cs: Otec říše}")
    report = build(proj, BuildOptions())
    # Charles IV's Czech face is on these files only, and the glossaries list Deed names
    assert _rels(report.written, proj) == {
        "cs/cards.pdf", "cs/sheets-a4.pdf", "cs/sheets-letter.pdf", "cs/print-shop.pdf",
        "cs/manifest.json", "cs/manifest.txt", "cs/glossary.pdf", "en/glossary.pdf"}
    after = _outputs(proj)
    assert {rel for rel in after if after[rel] != before.get(rel)} == _rels(report.written, proj)
    # and they equal a cold build of the edited data, byte for byte
    cold = copy_project(tmp_path / "cold")
    shutil.copy(proj / LUX, cold / LUX)
    build(cold, BuildOptions())
    assert _outputs(cold) == after


def test_renaming_a_card_rewrites_the_glossaries_too(proj):
    replace_in(proj / Path("card_data/cards/market.yaml"), "name: {en: Walram of Jülich,",
               "name: {en: Walram of Juliers,")
    report = build(proj, BuildOptions())
    assert {"cs/glossary.pdf", "en/glossary.pdf", "en/cards.pdf"} <= _rels(report.written, proj)
    assert "cs/cards.pdf" not in _rels(report.written, proj)


def test_layout_change_rebuilds_every_card_output(proj):
    replace_in(proj / "layouts" / "card.yaml", "panel_opacity: 0.92", "panel_opacity: 0.9")
    report = build(proj, BuildOptions())
    written = _rels(report.written, proj)
    for lang in ("en", "cs"):
        assert {f"{lang}/cards.pdf", f"{lang}/sheets-a4.pdf", f"{lang}/print-shop.pdf"} <= written


def test_one_card_change_refits_only_that_card(proj, monkeypatch):
    calls: list[tuple[str, str]] = []
    real = render_card.check_face

    def spy(face, layout):
        calls.append((face.card_id, face.lang))
        return real(face, layout)

    monkeypatch.setattr(render_card, "check_face", spy)
    replace_in(proj / LUX, "cs: Otec vlasti}", "cs: Otec říše}")
    build(proj, BuildOptions())
    assert calls == [("charles-iv", "cs")]


def test_corrupt_fit_cache_is_rebuilt_not_used(proj, monkeypatch):
    cache = proj / "output" / CACHE_DIR / "fit.json"
    raw = json.loads(cache.read_text())
    first = next(iter(raw["payload"]))
    raw["payload"][first] = [{"severity": "error"}]  # edited: the checksum no longer matches
    cache.write_text(json.dumps(raw))
    calls = []
    real = render_card.check_face
    monkeypatch.setattr(render_card, "check_face", lambda f, lay: calls.append(f) or real(f, lay))
    replace_in(proj / LUX, "cs: Otec vlasti}", "cs: Otec říše}")
    build(proj, BuildOptions())
    assert len(calls) > 100  # whole cache distrusted: every face fitted again
    assert JsonCache(proj / "output", "fit").read(raw["key"]) is not None


def test_edited_output_and_truncated_state_are_rebuilt(proj):
    (proj / "output" / "en" / "back.pdf").write_bytes(b"%PDF-1.4 garbage")
    report = build(proj, BuildOptions())
    assert not report.unchanged and _rels(report.written, proj) == {"en/back.pdf"}
    (proj / "output" / STATE_NAME).write_text('{"version": 2, "entries": {"en/ca')
    assert BuildState.read(proj / "output").entries == {}  # nothing trusted: all rebuilt


def test_corrupt_findings_cache_runs_the_check_again(proj):
    (proj / "output" / CACHE_DIR / "findings.json").write_text("{not json")
    report = build(proj, BuildOptions())
    assert not report.unchanged and not report.written and report.findings
