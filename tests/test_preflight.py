"""Issue 12 item 3 (preflight): what `cardgen preflight` reads from a PDF, per page."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from reportlab.lib.units import inch, mm
from reportlab.pdfgen.canvas import Canvas

from cardgen.cli import main
from cardgen.preflight import Rules, findings, inspect

FONT = Path(__file__).resolve().parent.parent / "fonts" / "CharisSIL-Regular.ttf"


def pdf(tmp_path: Path, draw, name: str = "t.pdf", boxes: bool = True) -> Path:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    pdfmetrics.registerFont(TTFont("PreflightCharis", str(FONT)))
    buf = io.BytesIO()
    extra = {"trimBox": (9, 9, 189, 261), "bleedBox": (0, 0, 198, 270)} if boxes else {}
    c = Canvas(buf, pagesize=(198, 270), invariant=1, initialFontName="PreflightCharis",
               **extra)
    draw(c)
    c.showPage()
    c.save()
    path = tmp_path / name
    path.write_bytes(buf.getvalue())
    return path


def test_each_measure_is_read_from_the_page(tmp_path):
    def draw(c):
        c.setFillColorCMYK(0.8, 0.7, 0.6, 0.9)  # 300 % ink
        c.rect(10, 10, 50, 50, stroke=0, fill=1)
        c.setFillColorCMYK(0, 0, 0, 1)
        c.setFont("PreflightCharis", 4)
        c.drawString(20, 100, "small print")
        img = Image.new("RGB", (100, 100), (200, 40, 40))
        c.drawImage(img_reader(img), 20, 120, inch, inch)  # 100 px over 1 in: 100 ppi
        c.setFillAlpha(0.5)
        c.setFillColorRGB(0.2, 0.4, 0.6)
        c.rect(100, 100, 20, 20, stroke=0, fill=1)

    (page,) = inspect(pdf(tmp_path, draw))
    assert page.ink_max == pytest.approx(300, abs=0.5)
    assert page.min_text_pt == pytest.approx(4, abs=0.01)
    assert page.min_image_ppi == pytest.approx(100, abs=1)
    assert page.rgb >= 2  # the image and the rg operator
    assert page.transparency >= 1
    assert page.trim_box and page.bleed_box
    assert page.fonts_not_embedded == set()
    codes = {f.code for f in findings(Path("t.pdf"), [page], Rules(cmyk=True, ink_limit=240,
                                                                    boxes=True))}
    assert {"preflight-rgb", "preflight-ink", "preflight-text", "preflight-image",
            "preflight-transparency"} <= codes
    assert "preflight-boxes" not in codes


def img_reader(img):
    from reportlab.lib.utils import ImageReader

    return ImageReader(img)


def test_text_size_follows_the_page_scale(tmp_path):
    def draw(c):
        c.scale(0.5, 0.5)  # 10 pt text drawn at half size is 5 pt on paper
        c.setFont("PreflightCharis", 10)
        c.drawString(20, 100, "scaled")

    (page,) = inspect(pdf(tmp_path, draw))
    assert page.min_text_pt == pytest.approx(5, abs=0.01)


def test_cli_fails_a_file_without_boxes_or_embedded_fonts(tmp_path, capsys):
    def draw(c):
        c.setFont("Helvetica", 9)  # a base-14 font: never embedded
        c.drawString(20, 100, "not embedded")
        c.setFillColorCMYK(0, 0, 0, 1)
        c.rect(10, 10, 10 * mm, 10 * mm, stroke=0, fill=1)

    bad = pdf(tmp_path, draw, "bad.pdf", boxes=False)
    assert main(["preflight", str(bad), "--print-shop"]) == 1
    out = capsys.readouterr().out
    assert "page 1: ink max 100 %, smallest text 9.0 pt" in out
    assert "error[preflight-boxes]" in out and "error[preflight-fonts]" in out
    assert "Helvetica" in out


def test_cli_passes_a_clean_cmyk_file(tmp_path, capsys):
    def draw(c):
        c.setFillColorCMYK(0, 0, 0, 1)
        c.setFont("PreflightCharis", 9)
        c.drawString(20, 100, "clean")

    good = pdf(tmp_path, draw)
    assert main(["preflight", str(good), "--print-shop", "--ink-limit", "240"]) == 0
    assert "fonts embedded" in capsys.readouterr().out
