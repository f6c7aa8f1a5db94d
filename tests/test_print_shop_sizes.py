"""Issue 12 item 1: shop trim sizes measured from the files, and bleed that is real artwork."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from test_render_samples import LAYOUT, face

from cardgen.cli import main
from cardgen.data.layout import load_layout
from cardgen.render.pdf import rasterise, render_cards_pdf

BLUE, YELLOW, GREEN = (20, 40, 200), (230, 200, 40), (30, 160, 60)


def test_art_runs_on_into_the_bleed_mirrored(tmp_path):
    art = Image.new("RGB", (600, 400), YELLOW)
    art.paste(BLUE, (0, 0, 60, 400))
    art.paste(GREEN, (540, 0, 600, 400))
    path = tmp_path / "art.png"
    art.save(path)
    layout = load_layout(LAYOUT)
    pdf, _ = render_cards_pdf([face(card_id="a", art=path)], layout, physical=False)
    (page,) = rasterise(pdf, 100, tmp_path)
    img = Image.open(page).convert("RGB")
    px = 100 / 25.4
    row = round((3 + 6 + 42 / 2) * px)  # middle of the art box (top 6 mm, 42 mm high)
    # the leftmost and rightmost 0.5 mm of the page, in the 3 mm bleed, are the picture's own
    # edge colours, not the side colour of the card's background
    assert img.getpixel((1, row)) == pytest.approx(BLUE, abs=20)
    assert img.getpixel((img.width - 2, row)) == pytest.approx(GREEN, abs=20)
    assert img.getpixel((round(6 * px), row)) == pytest.approx(BLUE, abs=20)  # trim unchanged
    assert img.getpixel((round(12 * px), row)) == pytest.approx(YELLOW, abs=20)


def _build(project: Path, *args: str) -> tuple[int, str]:
    out = subprocess.run([sys.executable, "-c", "import sys; from cardgen.cli import main; "
                          "sys.exit(main())", "build", "--lang", "en", "--project", str(project),
                          *args], capture_output=True, text=True)
    return out.returncode, out.stdout + out.stderr


def test_drivethrucards_pages_are_2_75_by_3_75_in_with_a_2_5_by_3_5_in_trim(project):
    code, out = _build(project, "--profile", "drivethrucards")
    assert code == 0, out
    assert "warning[profile-scaled]" in out and "layouts/profiles.yaml:" in out
    info = subprocess.run(["pdfinfo", "-box", "-f", "1", "-l", "2",
                           str(project / "output" / "en" / "print-shop.pdf")],
                          capture_output=True, text=True, check=True).stdout
    sizes = re.findall(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts", info)
    assert {(float(w), float(h)) for w, h in sizes} == {(198.0, 270.0)}  # 2.75 × 3.75 in
    trims = re.findall(r"TrimBox:\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", info)
    for box in trims:
        x0, y0, x1, y1 = map(float, box)
        assert (x1 - x0, y1 - y0) == pytest.approx((180, 252), abs=0.01)  # 2.5 × 3.5 in
        assert (x0, y0) == pytest.approx((9, 9), abs=0.01)  # 1/8 in bleed


def test_makeplayingcards_pngs_are_822_by_1122_px(project):
    code, out = _build(project, "--profile", "makeplayingcards")
    assert code == 0, out
    files = sorted((project / "output" / "en" / "print-shop-makeplayingcards").glob("*.png"))
    assert len(files) > 10
    for file in (files[0], files[-1]):
        with Image.open(file) as im:
            assert im.size == (822, 1122)


def test_a_profile_that_would_eat_the_safe_area_stops_the_build(project, capsys):
    path = project / "layouts" / "profiles.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("min_safe: 3.2", "min_safe: 4.5"), encoding="utf-8")
    assert main(["build", "--lang", "en", "--project", str(project),
                 "--profile", "drivethrucards"]) == 1
    err = capsys.readouterr().err
    assert "error[profile-safe-area]" in err and "layouts/profiles.yaml:" in err
    assert not (project / "output" / "en" / "print-shop.pdf").exists()
