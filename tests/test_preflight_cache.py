"""Issue 14: the print-shop preflight reuses what walking unchanged pages and forms found
(output/.cache/preflight.json), and still reports exactly what a cold build reports."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from conftest import copy_project, replace_in
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from cardgen.build import build as building
from cardgen.build.build import BuildReport
from cardgen.build.options import BuildOptions
from cardgen.errors import Finding
from cardgen.files.incremental import JsonCache
from cardgen.press.pagewalk import inspect
from cardgen.press.pdfread import WalkCache
from cardgen.press.preflight import Rules, check_bytes

CACHE = Path("output") / ".cache" / "preflight.json"
LOW_RES_CARD = "blanche-de-valois"


def forms_pdf(sizes: list[float], word: str = "card") -> bytes:
    """One page per form, as print-shop.pdf places each card: form i's text in sizes[i] pt."""
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(200, 270), invariant=1)
    for i, size in enumerate(sizes):
        c.beginForm(f"card{i}")
        c.setFillColorCMYK(0, 0, 0, 1)
        c.setFont("Helvetica", size)
        c.drawString(20, 100, f"{word} {i}")
        c.endForm()
    for i in range(len(sizes)):
        c.doForm(f"card{i}")
        c.showPage()
    c.save()
    return buf.getvalue()


def test_a_changed_form_is_walked_again_the_others_come_from_the_cache(tmp_path):
    first, second = tmp_path / "first.pdf", tmp_path / "second.pdf"
    first.write_bytes(forms_pdf([9, 9, 9]))
    second.write_bytes(forms_pdf([9, 4, 9]))  # the middle card's text shrank
    walks = WalkCache()
    assert inspect(first, walks) == inspect(first)
    warm = WalkCache(dict(walks.used))
    pages = inspect(second, warm)
    assert pages == inspect(second)
    assert [p.min_text_pt for p in pages] == pytest.approx([9, 4, 9])
    assert len(warm.used.keys() - walks.used.keys()) == 2  # page 2 and its form only
    assert inspect(first, WalkCache(dict(walks.used))) == inspect(first)
    rules = Rules(min_text_pt=5)
    assert ([f.code for f in check_bytes(second.read_bytes(), rules, "x", WalkCache(warm.used))]
            == ["preflight-fonts", "preflight-text"])


def test_forms_whose_characters_changed_keep_their_walks(tmp_path):
    """A walk reads text's size and place, not its characters: a new glyph in one card
    shifts the font subset's codes in every later card, and those are not walked again."""
    first, second = tmp_path / "first.pdf", tmp_path / "second.pdf"
    first.write_bytes(forms_pdf([9, 9]))
    second.write_bytes(forms_pdf([9, 9], word="karta"))
    walks = WalkCache()
    inspect(first, walks)
    warm = WalkCache(dict(walks.used))
    assert inspect(second, warm) == inspect(second)
    assert warm.used.keys() == walks.used.keys()


def preflight_findings(report: BuildReport) -> list[Finding]:
    return [f for f in report.findings if f.code.startswith("preflight")]


def low_res_art(project: Path) -> None:
    Image.new("RGB", (120, 160), (200, 30, 30)).save(project / "art" / f"{LOW_RES_CARD}.jpg")


def edit(project: Path, old: str, new: str) -> None:
    """An edit of one card (Charles IV's deed name) that no preflight finding is about."""
    replace_in(project / "card_data" / "cards" / "luxembourg.yaml", f"en: {old}", f"en: {new}")


def build(project: Path, jobs: int = 0) -> list[Finding]:
    report = building.build(project, BuildOptions(langs=("en",), cmyk=True, jobs=jobs))
    assert project / "output" / "en" / "print-shop.pdf" in report.written
    return preflight_findings(report)


def cold(project: Path, tmp_path: Path) -> list[Finding]:
    """What a first build of the same inputs reports (a copy, no cache)."""
    fresh = tmp_path / "fresh"
    shutil.rmtree(fresh, ignore_errors=True)
    for part in ("card_data", "layouts", "fonts", "art"):
        shutil.copytree(project / part, fresh / part)
    return build(fresh)


@pytest.mark.parametrize("jobs", [0, 1])
def test_an_unrelated_edit_still_reports_the_print_files_findings(tmp_path, jobs):
    project = copy_project(tmp_path / "project")
    low_res_art(project)
    first = build(project, jobs)
    # the 97 ppi art; black text is solid black ink since issue 30, so no text-ink warning
    assert "preflight-image" in {f.code for f in first}
    assert (project / CACHE).is_file()
    edit(project, "Father of the Country", "Father of the Nation")
    assert build(project, jobs) == first


def test_an_edit_that_brings_a_problem_is_caught_among_cached_forms(tmp_path):
    project = copy_project(tmp_path / "project")
    assert "preflight-image" not in {f.code for f in build(project)}
    low_res_art(project)  # one card's form now holds a 97 ppi image
    found = build(project)
    assert "preflight-image" in {f.code for f in found}
    assert found == cold(project, tmp_path)


def test_a_damaged_cache_is_ignored(tmp_path):
    project = copy_project(tmp_path / "project")
    low_res_art(project)
    first = build(project)
    cache = project / CACHE
    doc = json.loads(cache.read_text(encoding="utf-8"))
    names = iter(["Father of the Nation", "Father of the Land", "Father of the Country"])
    old = "Father of the Country"

    def lying(entries: dict) -> dict:  # every page and form claims 999 ppi images
        return {rel: {k: [*v[:2], 999.0, *v[3:]] for k, v in walks.items()}
                for rel, walks in entries.items()}

    tampered = dict(doc, payload=lying(doc["payload"]))  # checksum no longer matches
    # well-formed and sealed with the project's own key, but of the wrong shape
    JsonCache(project / "output", "preflight").write(doc["key"], {
        rel: {k: v[:3] for k, v in walks.items()} for rel, walks in doc["payload"].items()})
    misshapen = cache.read_text(encoding="utf-8")
    for damaged in (json.dumps(tampered), misshapen, '{"version": 3, "payl'):
        cache.write_text(damaged, encoding="utf-8")
        new = next(names)
        edit(project, old, new)
        old = new
        assert build(project) == first


def test_a_cached_walk_never_hides_cmyk_jpeg_ink(tmp_path, monkeypatch):
    """The keys cover the image's stored bytes and the code: a walk kept from other art, or
    from a preflight that could not read CMYK JPEGs (0 %), is not lent to this one."""
    from test_preflight import jpeg_pdf

    from cardgen.press import pdfread

    under = jpeg_pdf(tmp_path, (100, 50, 0, 30), "under.pdf")
    over = jpeg_pdf(tmp_path, (255, 255, 255, 255), "over.pdf")
    walks = WalkCache()
    inspect(under, walks)
    pages = inspect(over, WalkCache(dict(walks.used)))
    assert pages == inspect(over) and pages[1].ink_max == pytest.approx(400, abs=1)
    monkeypatch.setattr(pdfread, "code_digest", lambda: "the code before")
    old = WalkCache()
    inspect(over, old)
    blind = {k: [0.0, *v[1:]] for k, v in old.used.items()}  # what that code found
    monkeypatch.undo()
    assert inspect(over, WalkCache(blind))[1].ink_max == pytest.approx(400, abs=1)
