"""Issue 12 item 4: token faces bleed, their marks stay outside it, --flip and print hints.

Measured on rendered pages: a Luxembourg-red token is a red square whose side is the cut
size plus the bleed on both sides."""

from __future__ import annotations

from collections import Counter

import pytest
from test_board_helpers import shipped
from test_home_print import PX, mask, pages

from cardgen.board import build_tokens
from cardgen.board.base import PAPERS
from cardgen.board.tokens import Placed, Token, back_xy
from cardgen.data.project import load_project

LUX = (0x9B, 0x1C, 0x1C)


@pytest.fixture(scope="module")
def tokens_pdf():
    return build_tokens(shipped(), "en", "a4")


def _runs(red, dark, length: int, along_x: bool) -> tuple[Counter[float], int]:
    """Red runs longer than 10 mm on every 7th line (mm, to 0.5) that end at a face's edge
    (no red for 3.7 mm past either end: a run cut short by a light label is not a face's
    extent), and how many of them have a dark pixel within 0.3 mm past either end (a mark
    touching the bleed)."""
    runs: Counter[float] = Counter()
    touching = 0
    lines = red.height if along_x else red.width
    clear = round(3.7 * PX)  # the paper between two faces is 4 mm; a label stack less

    def paper(line: int, start: int, stop: int) -> bool:
        return not any(red.getpixel((j, line) if along_x else (line, j))
                       for j in range(max(0, start), min(length, stop)))

    for line in range(0, lines, 7):
        n = 0
        for i in range(length + 1):
            xy = (i, line) if along_x else (line, i)
            if i < length and red.getpixel(xy):
                n += 1
                continue
            if n > 10 * PX and paper(line, i - n - clear, i - n) and paper(line, i, i + clear):
                runs[round(n / PX * 2) / 2] += 1
                ends = [*range(i - n - 3, i - n), *range(i, i + 3)]
                touching += any(0 <= e < length and dark.getpixel(
                    (e, line) if along_x else (line, e)) for e in ends)
            n = 0
    return runs, touching


def test_every_face_bleeds_2_mm_and_marks_stay_outside_it(tokens_pdf, tmp_path):
    widths: set[float] = set()
    for page in pages(tokens_pdf, tmp_path, 1, 4):  # the first two sheets, fronts and backs
        red, dark = mask(page, LUX, 25), mask(page, (0, 0, 0), 20)  # marks are pure black
        across, touch_x = _runs(red, dark, page.width, True)
        down, touch_y = _runs(red, dark, page.height, False)
        widths |= set(across) & set(down)
        # never just the cut (across: a run down a column may stop at a label's letters)
        assert not {15.0, 18.0} & set(across)
        assert touch_x == touch_y == 0  # every mark starts clear of the bleed
    # influence and military counters are cut at 15 mm, vote markers at 18 mm: painted 19
    # and 22 mm wide
    assert {19.0, 22.0} <= widths


def test_short_edge_flip_mirrors_the_backs_vertically():
    p = Placed(Token("vote", "luxembourg", 16), 0, 20.0, 30.0)
    pw, ph = PAPERS["a4"]
    assert back_xy(p, (pw, ph), "long") == pytest.approx((pw - 36, 30))
    assert back_xy(p, (pw, ph), "short") == pytest.approx((20, ph - 46))


@pytest.mark.parametrize(("flip", "duplex", "words"), [
    ("long", b"/DuplexFlipLongEdge", "flip on the long edge"),
    ("short", b"/DuplexFlipShortEdge", "flip on the short edge")])
def test_tokens_carry_the_print_hints(tmp_path, flip, duplex, words):
    import subprocess

    pdf = build_tokens(shipped(), "en", "letter", flip)
    assert b"/PrintScaling /None" in pdf and duplex in pdf
    path = tmp_path / "t.pdf"
    path.write_bytes(pdf)
    text = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout
    assert "actual size (100 %)" in text and words in text


def test_a_gutter_too_narrow_for_bleed_and_marks_is_a_located_error(project):
    from conftest import replace_in

    from cardgen.errors import CardgenError

    line = replace_in(project / "layouts" / "tokens.yaml", "gutter: 8", "gutter: 5")
    with pytest.raises(CardgenError) as exc:
        build_tokens(load_project(project)[0], "en", "a4")
    (f,) = exc.value.findings
    assert f.code == "token-marks" and f.location.file.endswith("tokens.yaml")
    assert f.location.line == line
