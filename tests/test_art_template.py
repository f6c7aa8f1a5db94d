"""Art guidance that holds (issue 40.3): the visible window is data in layouts/card.yaml and
checked against the panels, art/README.md states the window and a pixel minimum that
passes the ppi checks, and the art template marks the window."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

from cardgen.data.layout import load_layout
from cardgen.errors import CardgenError
from cardgen.render.art import MM_PER_INCH, min_pixels, prepare_art, resolution_findings
from cardgen.render.arttemplate import WINDOW, art_template_png, template_size
from tests.conftest import ROOT
from tests.test_layout import variant

LAYOUT = ROOT / "layouts" / "card.yaml"
README = (ROOT / "art" / "README.md").read_text(encoding="utf-8")


def test_the_documented_minimum_is_computed_and_passes_both_ppi_checks(tmp_path: Path) -> None:
    layout = load_layout(LAYOUT)
    box = layout.art_box
    want = (min_pixels(box.w, 300), min_pixels(box.h, 300))
    assert want == template_size(layout) == (745, 497)
    assert f"**{want[0]} × {want[1]} pixels**" in README
    path = tmp_path / "art.png"
    Image.new("RGB", want, (120, 90, 60)).save(path)
    art = prepare_art(path, box.w, box.h, ppi=300)
    assert resolution_findings(art, 300, path, "c") == []  # the build's check
    placed = Image.open(io.BytesIO(art.data)).size
    assert placed[0] / (art.w_mm / MM_PER_INCH) >= 300  # what preflight measures in the PDF
    # one pixel less (744 px: 299.97 ppi) is said as it is, never as 300, with the width to use
    Image.new("RGB", (want[0] - 1, want[1] - 1), (120, 90, 60)).save(path)
    [low] = resolution_findings(prepare_art(path, box.w, box.h, ppi=300), 300, path, "c")
    assert "art is 299.9 ppi" in low.message and "at least 745 px wide" in (low.hint or "")


def test_the_window_in_the_layout_is_what_the_readme_states_and_no_panel_covers() -> None:
    layout = load_layout(LAYOUT)
    window, box = layout.art.window, layout.art_box
    assert window is not None
    assert window.y == pytest.approx(layout.name_bar.box.bottom)
    assert window.bottom == pytest.approx(layout.text_box.panel.y)
    top, bottom = window.y - box.y, window.bottom - box.y
    assert f"| {top:g} – {bottom:g} | nothing: the **visible window**, {window.w:g} × {window.h:g} mm" \
        in README


@pytest.mark.parametrize("window, says", [
    ("[0, 12, 63, 29.6]", "art.window lies under name_bar.box"),
    ("[0, 14.4, 63, 33]", "art.window lies under text_box.panel"),
    ("[0, 14.4, 70, 29.6]", "art.window reaches outside the art box"),
])
def test_a_window_under_a_panel_is_refused_at_its_line(tmp_path: Path, window: str, says: str
                                                      ) -> None:
    path = variant(tmp_path, f"extends: base.yaml\nart:\n  window: {window}\n")
    with pytest.raises(CardgenError) as exc:
        load_layout(path)
    [found] = [f for f in exc.value.findings if f.code == "layout-art-window"]
    assert found.message == says and found.location is not None and found.location.line == 3
    assert "[0, 14.4, 63, 29.6]" in (found.hint or "")


def test_the_template_marks_the_window() -> None:
    layout = load_layout(LAYOUT)
    img = Image.open(io.BytesIO(art_template_png(layout))).convert("RGB")
    assert img.size == (745, 497)
    window = layout.art.window
    assert window is not None
    scale = img.width / layout.art_box.w
    row = round((window.y - layout.art_box.y) * scale) + 1  # the window's top edge
    greens = sum(1 for x in range(img.width) if img.getpixel((x, row)) == WINDOW[:3])
    assert greens > 0.9 * img.width
    assert art_template_png(layout) == art_template_png(layout)  # the same bytes each build
    assert re.search(r"output/art-template\.png", README)


def test_a_cards_pdf_page_names_its_card_for_preflight(project: Path, tmp_path: Path) -> None:
    """`cardgen preflight output/en/cards.pdf` says "page 25 (philip-vi)", not a number."""
    from cardgen.build.check import run_check
    from cardgen.press.pagewalk import inspect_file
    from cardgen.render.pdf import render_cards_pdf

    report = run_check(project)
    assert report.layout is not None
    faces = [f for f in report.faces["en"] if f.card_id in ("philip-vi", "charles-iv")]
    pdf = tmp_path / "cards.pdf"
    pdf.write_bytes(render_cards_pdf(faces, report.layout, physical=False)[0])
    pages, _ = inspect_file(pdf)
    assert [p.cards for p in pages] == [(f.card_id,) for f in faces]
