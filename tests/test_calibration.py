"""Issue 12 item 6: the duplex calibration sheet and --back-offset, measured on the pages."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import at
from test_home_print import PX, mask, pages

from cardgen.cli import main
from cardgen.impose import build_calibration, load_sheet_spec

ROOT = Path(__file__).resolve().parent.parent
TARGET = (0xC0, 0x39, 0x2B)


def centre(img) -> tuple[float, float]:
    x0, y0, x1, y1 = mask(img, TARGET, 60).getbbox()
    return (x0 + x1) / 2 / PX, (y0 + y1) / 2 / PX  # mm from the top-left corner


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_back_target_lies_behind_the_front_one_and_moves_with_the_offset(tmp_path, paper):
    spec = load_sheet_spec(at(ROOT))
    front, back = pages(build_calibration(spec, paper, "en"), tmp_path, 1, 2, "a")
    width_mm = front.width / PX
    fx, fy = centre(front)
    bx, by = centre(back)
    assert (fx, fy) == pytest.approx((width_mm / 2, front.height / PX / 2), abs=0.15)
    assert (width_mm - bx, by) == pytest.approx((fx, fy), abs=0.15)  # long-edge mirror
    _f, moved = pages(build_calibration(spec, paper, "en", offset=(2.0, -1.5)), tmp_path, 1,
                      2, "b")
    mx, my = centre(moved)
    assert (mx - bx, my - by) == pytest.approx((2.0, 1.5), abs=0.15)  # right 2, up −1.5


def test_build_writes_calibration_sheets_and_rejects_a_bad_offset(project, capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        main(["build", "--project", str(project), "--back-offset", "two"])
    assert exc.value.code == 2
    assert "--back-offset" in capsys.readouterr().err
    assert main(["build", "--quiet", "--lang", "cs", "--project", str(project),
                 "--back-offset", "1.5,-0.5"]) == 0
    pdf = project / "output" / "cs" / "calibration-letter.pdf"
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True,
                          check=True).stdout
    assert "Pages:           2" in info
    raw = pdf.read_bytes()
    assert b"/PrintScaling /None" in raw and b"/Duplex /DuplexFlipLongEdge" in raw
    text = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(pdf), "-"],
                          capture_output=True, text=True, check=True).stdout
    assert '--back-offset "X;Y"' in text and "oboustranně" in text
