"""Issue 12 item 5: home sheets that forgive a real printer, measured on rendered pages.

The stand-in drawers paint a card's bleed red and its trim pale, so the red band around
a full page of cards is the outer bleed as printed; marks are the dark pixels outside it.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import at
from PIL import Image

from cardgen.impose import BackSide, CardSize, build_sheets, load_sheet_spec
from cardgen.impose.fakes import fake_drawers, fake_faces

ROOT = Path(__file__).resolve().parent.parent
CARD = CardSize(63, 88, 3)
DPI = 254  # 10 px per mm
PX = DPI / 25.4
RED = (0xC0, 0x39, 0x2B)
BACK = "#3b2f22"
MARGIN = 6  # mm a home printer may leave blank


@pytest.fixture(scope="module")
def spec():
    return load_sheet_spec(at(ROOT))


def pages(pdf: bytes, tmp_path: Path, first: int, last: int, name: str = "p"
          ) -> list[Image.Image]:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-f", str(first), "-l", str(last),
                    str(path), str(tmp_path / name)], check=True)
    return [Image.open(p).convert("RGB") for p in sorted(tmp_path.glob(f"{name}-*.png"))]


def mask(img: Image.Image, colour: tuple[int, int, int], tol: int = 30) -> Image.Image:
    """A 1-bit image of the pixels within ``tol`` of ``colour`` on every channel."""
    bands = [b.point(lambda v, c=c: 255 if abs(v - c) <= tol else 0)
             for b, c in zip(img.split(), colour, strict=True)]
    out = bands[0]
    for b in bands[1:]:
        out = Image.composite(out, b.point(lambda _v: 0), b)
    return out.convert("1")


def sheet(spec, paper: str, flip: str = "long",
          backs: BackSide = BackSide(colour=BACK)) -> bytes:  # noqa: B008
    return build_sheets(fake_faces([9]), *fake_drawers(CARD), CARD, spec, paper, "en",
                        flip=flip, backs=backs)


@pytest.mark.parametrize(("paper", "bleed"), [("a4", (3.0, 3.0, 3.0)),
                                               ("letter", (3.0, 1.7, 1.7))])
def test_outer_bleed_is_chosen_per_paper(spec, tmp_path, paper, bleed):
    """(sides, below, above): Letter's grid is centred, so every edge has bleed (issue 41:
    a drift shows back colour or art, never paper, on every side)."""
    (front,) = pages(sheet(spec, paper), tmp_path, 3, 3)
    x0, y0, x1, y1 = mask(front, RED).getbbox()
    assert (x1 - x0) / PX == pytest.approx(3 * 63 + 2 * bleed[0], abs=0.25)
    assert (y1 - y0) / PX == pytest.approx(3 * 88 + bleed[1] + bleed[2], abs=0.25)
    # and it stays inside the printer margin
    assert min(x0, y0, front.width - x1, front.height - y1) / PX >= MARGIN - 0.15


def _trim_box(img: Image.Image) -> tuple[int, int, int, int]:
    """The grid's trim: the red band's outer box less the band's width, measured across
    the middle of the first row and column (where no mark lies)."""
    red = mask(img, RED)
    x0, y0, x1, y1 = red.getbbox()
    row, col = (y0 + y1) // 2 - round(30 * PX), (x0 + x1) // 2 - round(30 * PX)

    def run(points) -> int:
        n = 0
        for p in points:
            if not red.getpixel(p):
                break
            n += 1
        return n

    return (x0 + run((x, row) for x in range(x0, x1)),
            y0 + run((col, y) for y in range(y0, y1)),
            x1 - run((x, row) for x in range(x1 - 1, x0, -1)),
            y1 - run((col, y) for y in range(y1 - 1, y0, -1)))


def _mark_runs(img: Image.Image) -> dict[str, list[float]]:
    """Per side of the page: for every crop mark, how many mm of it lie beyond the printer
    margin (dark pixels between the margin and the grid's trim, over the bleed too)."""
    dark = mask(img, (0, 0, 0), 90)
    x0, y0, x1, y1 = _trim_box(img)
    x0, y0, x1, y1 = x0 - 2, y0 - 2, x1 + 2, y1 + 2  # clear of the cards' own edge pixels
    m = round(MARGIN * PX)
    w, h = img.size
    strips = {"top": (x0 - 5, m, x1 + 5, y0), "bottom": (x0 - 5, y1, x1 + 5, h - m),
              "left": (m, y0 - 5, x0, y1 + 5), "right": (x1, y0 - 5, w - m, y1 + 5)}
    out: dict[str, list[float]] = {}
    for side, box in strips.items():
        if box[2] <= box[0] or box[3] <= box[1]:  # no room on that side at all
            out[side] = []
            continue
        part = dark.crop(box)
        vertical = side in ("top", "bottom")
        lines: dict[int, set[int]] = {}
        for x in range(part.width):
            for y in range(part.height):
                if part.getpixel((x, y)):
                    key, along = (x, y) if vertical else (y, x)
                    lines.setdefault(key, set()).add(along)
        groups: list[set[int]] = []  # neighbouring pixel lines are one mark
        last = None
        for key in sorted(lines):
            if last is None or key - last > 2:
                groups.append(set())
            groups[-1] |= lines[key]
            last = key
        out[side] = [len(g) / PX for g in groups]
    return out


def test_crop_marks_print_at_least_3_mm_beyond_a_6_mm_margin_on_a4(spec, tmp_path):
    (front,) = pages(sheet(spec, "a4"), tmp_path, 3, 3)
    runs = _mark_runs(front)
    assert [len(runs[s]) for s in ("top", "bottom", "left", "right")] == [4, 4, 4, 4]
    assert min(min(v) for v in runs.values()) >= 3 - 0.2


@pytest.mark.parametrize("flip", ["long", "short"])
def test_every_cut_on_letter_has_a_mark_at_both_ends_or_3_mm_at_one(spec, tmp_path, flip):
    """Letter leaves 279.4 − 3 × 88 = 15.4 mm above and below the grid together. Centred
    (so every edge has 1.7 mm of bleed, issue 41), each column cut has a 1.3 mm mark at
    both ends, which sets a ruler as well as one long mark; the row cuts keep 3 mm (the
    backs pages' marks: tests/test_impose.py)."""
    (front,) = pages(sheet(spec, "letter", flip), tmp_path, 3, 3)
    runs = _mark_runs(front)
    assert len(runs["bottom"]) == len(runs["top"]) == 4, runs
    assert min(runs["bottom"] + runs["top"]) >= spec.marks.min_printable_each - 0.2, runs
    assert len(runs["left"]) == len(runs["right"]) == 4
    assert min(runs["left"] + runs["right"]) >= 3 - 0.2


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_back_colour_runs_out_to_the_printer_margin(spec, tmp_path, paper):
    _front, back = pages(sheet(spec, paper), tmp_path, 3, 4)
    x0, y0, x1, y1 = mask(back, (0x3B, 0x2F, 0x22)).getbbox()
    for gap in (x0, y0, back.width - x1, back.height - y1):
        assert gap / PX == pytest.approx(MARGIN, abs=0.15)


def test_back_offset_shifts_every_backs_page(spec, tmp_path):
    plain_pdf = sheet(spec, "a4")
    moved_pdf = sheet(spec, "a4", backs=BackSide(colour=BACK, offset=(1.5, -1.0)))
    plain_front, plain_back = pages(plain_pdf, tmp_path, 3, 4, "a")
    moved_front, moved_back = pages(moved_pdf, tmp_path, 3, 4, "b")
    blue = (0x1F, 0x4B, 0x8A)  # the stand-in back's centre disc
    a, b = mask(plain_back, blue).getbbox(), mask(moved_back, blue).getbbox()
    assert (b[0] - a[0]) / PX == pytest.approx(1.5, abs=0.15)  # right
    assert (b[1] - a[1]) / PX == pytest.approx(1.0, abs=0.15)  # down the raster = up −1 mm
    assert mask(plain_front, RED).getbbox() == mask(moved_front, RED).getbbox()  # fronts stay


def test_the_blank_reverse_of_the_instructions_carries_a_line(spec, tmp_path):
    path = tmp_path / "s.pdf"
    path.write_bytes(sheet(spec, "a4"))
    text = subprocess.run(["pdftotext", "-f", "2", "-l", "2", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout
    assert "left blank on purpose" in text


def _ink_box(img: Image.Image) -> tuple[int, int, int, int]:
    """Bounding box of everything printed (any pixel visibly darker than white)."""
    return img.convert("L").point(lambda v: 255 if v < 245 else 0).getbbox()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_player_aid_stays_inside_the_printer_margin(tmp_path, paper):
    from test_board_helpers import shipped

    from cardgen.board import build_player_aid

    (page,) = pages(build_player_aid(shipped(), "en", paper), tmp_path, 1, 1)
    x0, y0, x1, y1 = _ink_box(page)
    assert min(x0, y0, page.width - x1, page.height - y1) / PX >= MARGIN - 0.15


def test_board_tile_labels_keep_5_mm_from_the_paper_edge(tmp_path):
    from test_board_helpers import shipped

    from cardgen.board import build_board_tiles

    (tile,) = pages(build_board_tiles(shipped(), "cs", "letter"), tmp_path, 2, 2)
    strip = tile.crop((0, tile.height - round(10 * PX), tile.width, tile.height))
    bottom = _ink_box(strip)[3]  # of the label, below the board window
    assert (strip.height - bottom) / PX >= 5


def test_token_backs_move_by_the_back_offset(tmp_path):
    """--back-offset moves the tokens' backs pages like the card sheets' (issue 30): every
    back face by exactly the offset, the fronts not at all."""
    from test_board_helpers import shipped

    from cardgen.board import build_tokens

    plain = build_tokens(shipped(), "en", "a4")
    moved = build_tokens(shipped(), "en", "a4", back_offset=(1.5, -1.0))
    plain_front, plain_back = pages(plain, tmp_path, 1, 2, "a")
    moved_front, moved_back = pages(moved, tmp_path, 1, 2, "b")
    gold = (0xC9, 0x9A, 0x2E)  # the round and loyalty markers' tiles
    a, b = mask(plain_back, gold, 12).getbbox(), mask(moved_back, gold, 12).getbbox()
    assert (b[0] - a[0]) / PX == pytest.approx(1.5, abs=0.15)  # right
    assert (b[1] - a[1]) / PX == pytest.approx(1.0, abs=0.15)  # down the raster = up −1 mm
    assert (b[2] - a[2], b[3] - a[3]) == (b[0] - a[0], b[1] - a[1])  # moved, not resized
    assert mask(plain_front, gold, 12).getbbox() == mask(moved_front, gold, 12).getbbox()
