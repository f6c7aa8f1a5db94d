"""Art in every image mode prints like its 8-bit RGB version (issue 17, item 7).

16-bit greyscale art used to print white: Pillow clips wide greyscale at 255 when it
converts to RGB. Each mode's card is rendered, rasterised with pdftoppm and compared pixel
by pixel with the same card drawn from the 8-bit RGB image.
"""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest
from PIL import Image, ImageChops, ImageStat

from cardgen.data.layout import load_layout
from cardgen.data.load import load
from cardgen.render.pdf import rasterise, render_cards_pdf
from cardgen.wording.compose import compose_faces
from tests.conftest import ROOT

W, H = 120, 80
GREYS = [24 + (200 * x) // (W - 1) for x in range(W)]  # a dark-to-light ramp, 24…224


def _ramp(mode: str, scale: int = 1) -> Image.Image:
    img = Image.new(mode, (W, H))
    img.putdata([GREYS[i % W] * scale for i in range(W * H)])
    return img


def _images() -> dict[str, tuple[Image.Image, str]]:
    """Mode name → (image, file format); every one shows the grey ramp."""
    grey = _ramp("L")
    palette = _ramp("L").convert("P")
    palette.putpalette([v for i in range(256) for v in (i, i, i)])
    palette.putdata([GREYS[i % W] for i in range(W * H)])
    palette.info["transparency"] = 0  # index 0 is transparent; the ramp never uses it
    cmyk = Image.merge("CMYK", [Image.new("L", (W, H), 0)] * 3
                       + [grey.point(lambda v: 255 - v)])
    return {
        "RGB": (grey.convert("RGB"), "PNG"),
        "L": (grey, "PNG"),
        "LA": (Image.merge("LA", [grey, Image.new("L", (W, H), 255)]), "PNG"),
        "P-transparency": (palette, "PNG"),
        "I;16": (_ramp("I;16", 257), "PNG"),
        "I;16B": (_ramp("I;16B", 257), "TIFF"),
        "I": (_ramp("I", 257), "TIFF"),
        "CMYK": (cmyk, "JPEG"),
    }


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) missing")
def test_every_image_mode_prints_like_its_8_bit_rgb_version(tmp_path):
    data, _ = load(ROOT)
    layout = load_layout(ROOT / "layouts" / "card.yaml")
    face = compose_faces(data, "en", ROOT)[0]
    images = _images()
    faces = []
    for name, (img, fmt) in images.items():
        path = tmp_path / f"{name.replace(';', '-').lower()}.png"  # content decides, not name
        img.save(path, fmt, **({"quality": 100} if fmt == "JPEG" else {}))
        faces.append(replace(face, art=path))
    bw = Image.new("1", (W, H))
    bw.putdata([255 * (x % W >= W // 2) for x in range(W * H)])
    bw.save(tmp_path / "one-bit.png")
    bw.convert("RGB").save(tmp_path / "one-bit-rgb.png")
    faces += [replace(face, art=tmp_path / "one-bit.png"),
              replace(face, art=tmp_path / "one-bit-rgb.png")]
    pdf, _report = render_cards_pdf(faces, layout, physical=False)
    pages = [Image.open(p).convert("RGB") for p in rasterise(pdf, 40, tmp_path)]
    reference = pages[0]
    x, y, w, h = (v / 72 * 40 for v in layout.rect(layout.art_box))
    top = reference.height - y - h  # PDF y goes up, pixels go down
    art_area = (round(x + 2), round(top + 2), round(x + w - 2), round(top + h - 2))
    ramp = ImageStat.Stat(reference.crop(art_area).convert("L")).mean[0]
    assert 80 < ramp < 200  # the ramp's mean grey, not white
    for name, page in zip([*images, "1"], pages[:-1], strict=False):
        if name == "1":
            page, reference = pages[-2], pages[-1]
        diff = ImageStat.Stat(ImageChops.difference(page, reference).crop(art_area)).mean
        assert max(diff) < 3, (name, diff)
