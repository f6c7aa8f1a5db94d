"""Golden images: every page of representative cards, rasterised, against tests/golden/.

Refresh deliberately with ``CARDGEN_UPDATE_GOLDEN=1 python3 -m pytest tests/test_render_golden.py``
and look at the new images before committing them.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from test_render_samples import LAYOUT, long_czech, samples

from cardgen.data.layout import load_layout
from cardgen.render.pdf import rasterise, render_back_pdf, render_cards_pdf

GOLDEN = Path(__file__).parent / "golden"
DPI = 50
#: a pixel "differs" when any channel moves more than this; a page fails above MAX_SHARE
CHANNEL_TOLERANCE = 40
MAX_SHARE = 0.002
UPDATE = os.environ.get("CARDGEN_UPDATE_GOLDEN") == "1"


def pages() -> list[tuple[str, Image.Image]]:
    layout = load_layout(LAYOUT)
    faces = [*samples(), long_czech()]
    pdf, _ = render_cards_pdf(faces, layout, physical=False)
    names = [f"{f.card_id}-{f.lang}" for f in faces]
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        files = rasterise(pdf, DPI, Path(tmp))
        back_dir = Path(tmp) / "back"
        back_dir.mkdir()
        files += rasterise(render_back_pdf(layout, "en"), DPI, back_dir)
        for name, file in zip([*names, "back-en"], files, strict=True):
            with Image.open(file) as im:
                out.append((name, im.convert("RGB")))
    return out


def differing_share(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a, b).convert("L").point(
        lambda v: 255 if v > CHANNEL_TOLERANCE else 0)
    return diff.histogram()[255] / (a.width * a.height)


def test_golden_pages() -> None:
    rendered = pages()
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        for name, im in rendered:
            im.save(GOLDEN / f"{name}.png", optimize=True)
        pytest.skip("golden images refreshed")
    failures = []
    expected = sorted(p.stem for p in GOLDEN.glob("*.png"))
    assert expected == sorted(n for n, _ in rendered), "golden set differs from rendered pages"
    for name, im in rendered:
        with Image.open(GOLDEN / f"{name}.png") as gold:
            gold = gold.convert("RGB")
            if gold.size != im.size:
                failures.append(f"{name}: size {im.size} != golden {gold.size}")
                continue
            share = differing_share(im, gold)
            if share > MAX_SHARE:
                failures.append(f"{name}: {share:.2%} of pixels differ")
    assert not failures, "pages differ from tests/golden (CARDGEN_UPDATE_GOLDEN=1 refreshes): " \
        + "; ".join(failures)


def test_comparison_catches_a_changed_page() -> None:
    a = Image.new("RGB", (100, 100), "white")
    b = a.copy()
    b.paste((0, 0, 0), (0, 0, 10, 10))
    assert differing_share(a, a) == 0
    assert differing_share(a, b) == pytest.approx(0.01) and MAX_SHARE < 0.01
