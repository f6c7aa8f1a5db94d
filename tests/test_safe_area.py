"""The card's border and safe area (issue 41, item 3): print shops cut within about 1 mm, so
a border narrower than 4 mm looks visibly uneven after a cut shift (and an uneven back lets
players tell cards apart in a hidden hand, 3.3); no text may come closer than 1/8 in
(3.2 mm) to the trim. Measured on the drawn cards at 300 dpi, and held by a layout rule."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from PIL import Image

from cardgen.data.layout import MIN_BORDER, MIN_SAFE, load_layout
from cardgen.errors import CardgenError
from cardgen.render.pdf import render_back_pdf, render_cards_pdf
from cardgen.wording.compose import compose_faces
from tests.conftest import ROOT, at, replace_in

DPI = 300
LAYOUT = ROOT / "layouts" / "card.yaml"


def _raster(pdf: bytes, tmp: Path, name: str) -> Image.Image:
    (tmp / f"{name}.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-singlefile", str(tmp / f"{name}.pdf"),
                    str(tmp / name)], check=True)
    return Image.open(tmp / f"{name}.png").convert("RGB")


def _border(image: Image.Image, bleed_mm: float, start: tuple[float, float],
            step: tuple[int, int]) -> float:
    """Millimetres from the trim edge, walking from ``start`` (mm from the page's top left,
    on the trim) by ``step`` pixels, to the first pixel unlike the trim's own colour."""
    px = DPI / 25.4
    x, y = round(start[0] * px), round(start[1] * px)
    ground = image.getpixel((x, y))
    walked = 0
    while 0 <= x < image.width and 0 <= y < image.height:
        pixel = image.getpixel((x, y))
        if sum(abs(a - b) for a, b in zip(pixel, ground, strict=True)) > 60:
            return walked / px
        x, y, walked = x + step[0], y + step[1], walked + 1
    raise AssertionError("no panel found")


@pytest.fixture(scope="module")
def layout():
    return load_layout(LAYOUT)


def test_every_border_is_at_least_4_mm_on_the_back(layout, tmp_path):
    image = _raster(render_back_pdf(layout, "cs"), tmp_path, "back")
    b, w, h = layout.card.bleed, layout.card.width, layout.card.height
    mid_x, mid_y = b + w / 2, b + h / 2
    borders = [_border(image, b, (b, mid_y), (1, 0)), _border(image, b, (b + w, mid_y), (-1, 0)),
               _border(image, b, (mid_x, b), (0, 1)), _border(image, b, (mid_x, b + h), (0, -1))]
    assert min(borders) >= MIN_BORDER - 0.09, borders
    assert max(borders) - min(borders) < 0.2, borders  # even: no side tells a card apart


def test_the_text_panel_keeps_the_border_on_every_front(layout, tmp_path):
    faces = compose_faces(at(ROOT).data, "en", ROOT)
    samples = [faces[0], faces[-1]]  # a starter (house colour) and an event (its kind colour)
    pdf, _ = render_cards_pdf(samples, layout, physical=False)
    (tmp_path / "f.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", str(tmp_path / "f.pdf"),
                    str(tmp_path / "f")], check=True)
    b, w, h = layout.card.bleed, layout.card.width, layout.card.height
    panel = layout.text_box.panel
    mid_y = b + panel.y + panel.h / 2
    for page in sorted(tmp_path.glob("f-*.png")):
        image = Image.open(page).convert("RGB")
        sides = [_border(image, b, (b, mid_y), (1, 0)), _border(image, b, (b + w, mid_y), (-1, 0))]
        assert min(sides) >= MIN_BORDER - 0.09, (page.name, sides)
        assert abs(sides[0] - sides[1]) < 0.2, (page.name, sides)
    assert layout.card.safe >= MIN_SAFE
    assert layout.text_box.text.x >= layout.card.safe
    assert w - layout.text_box.text.x - layout.text_box.text.w >= layout.card.safe
    assert h - panel.bottom >= MIN_BORDER


def test_a_panel_inside_the_border_is_an_error_at_its_line(project):
    line = replace_in(project / "layouts" / "card.yaml", "panel: [4.2, 44.0, 54.6, 37.0]",
                      "panel: [2.2, 44.0, 58.6, 37.0]")
    with pytest.raises(CardgenError) as exc:
        load_layout(project / "layouts" / "card.yaml")
    (found,) = [f for f in exc.value.findings if f.code == "layout-border"]
    assert found.location.line == line and "4.2 mm" in found.message


@pytest.mark.parametrize(("old", "new", "key"), [("frame: 4.2", "frame: 2.2", "frame"),
                                                 ("safe: 4 ", "safe: 2 ", "safe")])
def test_a_border_or_safe_area_below_the_shops_minimum_is_refused(project, old, new, key):
    line = replace_in(project / "layouts" / "card.yaml", old, new)
    with pytest.raises(CardgenError) as exc:
        load_layout(project / "layouts" / "card.yaml")
    assert any(f.location.line == line and key in f.message for f in exc.value.findings), \
        exc.value.findings
