"""Issue 12 item 3 (preflight): what `cardgen preflight` reads from a PDF, per page."""

from __future__ import annotations

import base64
import io
import zlib
from pathlib import Path

import pytest
from PIL import Image
from reportlab.lib.units import inch, mm
from reportlab.pdfgen.canvas import Canvas

from cardgen.cli import main
from cardgen.press.pagewalk import inspect
from cardgen.press.preflight import Rules, findings

FONT = Path(__file__).resolve().parent.parent / "fonts" / "CharisSIL-Regular.ttf"


def charis() -> str:
    """An embedded font's name for the test files (ReportLab's default is never embedded)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    pdfmetrics.registerFont(TTFont("PreflightCharis", str(FONT)))
    return "PreflightCharis"


def pdf(tmp_path: Path, draw, name: str = "t.pdf", boxes: bool = True) -> Path:
    charis()
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


def cmyk_jpeg(ink: tuple[int, int, int, int]) -> bytes:
    """A small CMYK JPEG of one ink (0-255 per plate), as Pillow writes it: Adobe's
    inverted convention, with the APP14 marker."""
    buf = io.BytesIO()
    Image.new("CMYK", (40, 30), ink).save(buf, "JPEG", quality=95)
    return buf.getvalue()


def jpeg_pdf(tmp_path: Path, ink: tuple[int, int, int, int], name: str = "art.pdf") -> Path:
    """Two pages, the JPEG art on page 2, placed as ReportLab places a JPEG: the file's
    bytes under /Filter [/ASCII85Decode /DCTDecode], /Decode [1 0 1 0 1 0 1 0]."""
    from reportlab.lib.utils import ImageReader

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(198, 270), invariant=1, initialFontName=charis())
    c.setFillColorCMYK(0, 0, 0, 1)
    c.rect(10, 10, 50, 50, stroke=0, fill=1)
    c.showPage()
    c.drawImage(ImageReader(io.BytesIO(cmyk_jpeg(ink))), 20, 20, 40, 30)
    c.showPage()
    c.save()
    path = tmp_path / name
    path.write_bytes(buf.getvalue())
    return path


def test_cmyk_jpeg_art_is_ink_checked(tmp_path, capsys):
    over = jpeg_pdf(tmp_path, (255, 255, 255, 255), "over.pdf")  # 400 %
    assert b"/ASCII85Decode /DCTDecode" in over.read_bytes()
    assert [p.ink_max for p in inspect(over)] == pytest.approx([100, 400], abs=1)
    assert main(["preflight", str(over), "--ink-limit", "300"]) == 1
    out = capsys.readouterr().out
    assert "page 2: ink max 400 %" in out
    assert "error[preflight-ink]" in out
    assert "total ink over the limit of 300 % (--ink-limit): 400 % on page 2" in out
    under = jpeg_pdf(tmp_path, (100, 50, 0, 30), "under.pdf")  # 180/255: 71 %
    assert [p.ink_max for p in inspect(under)] == pytest.approx([100, 71], abs=1)
    assert main(["preflight", str(under), "--ink-limit", "300"]) == 0


def test_the_decode_array_decides_whether_adobe_jpeg_samples_are_inverted():
    """Pillow reads CMYK JPEGs inverted (Adobe's convention) and PDF readers take the
    stored samples through /Decode: the ink is what a reader prints, not Pillow's pixels."""
    from cardgen.press.pdfstreams import cmyk_max

    full, empty = cmyk_jpeg((255, 255, 255, 255)), cmyk_jpeg((0, 0, 0, 0))
    info = {"/Filter": "/DCTDecode", "/Width": 40, "/Height": 30}
    adobe = dict(info, **{"/Decode": [1, 0] * 4})  # as ReportLab places Adobe JPEGs
    assert cmyk_max(full, adobe) == pytest.approx(400, abs=1)
    assert cmyk_max(empty, adobe) == pytest.approx(0, abs=1)
    assert cmyk_max(full, info) == pytest.approx(0, abs=1)  # stored samples are inverted
    assert cmyk_max(empty, info) == pytest.approx(400, abs=1)
    a85 = base64.a85encode(full, adobe=True)
    assert cmyk_max(a85, dict(adobe, **{"/Filter": ["/ASCII85Decode", "/DCTDecode"]})
                     ) == pytest.approx(400, abs=1)
    hex_flate = zlib.compress(full).hex().encode()
    chain = ["/ASCIIHexDecode", "/FlateDecode", "/DCTDecode"]
    assert cmyk_max(hex_flate, dict(adobe, **{"/Filter": chain})) == pytest.approx(400, abs=1)


def test_preflight_pdfx_reads_each_file_once(tmp_path, monkeypatch, capsys):
    from cardgen.press import pdfread
    from cardgen.press.pagewalk import inspect_document
    from cardgen.press.preflight import pdfx_findings

    plain = jpeg_pdf(tmp_path, (100, 50, 0, 30))
    expected = [f.format() for f in pdfx_findings(inspect_document(plain), str(plain))]
    assert expected  # a plain ReportLab file is no PDF/X
    runs = []
    real = pdfread.run_qpdf

    def counting(path, *options):
        runs.append(path)
        return real(path, *options)

    monkeypatch.setattr(pdfread, "run_qpdf", counting)
    assert main(["preflight", str(plain), "--pdfx", "--ink-limit", "300"]) == 1
    assert runs == [plain]
    out = capsys.readouterr().out
    assert out.count("error[preflight-pdfx]") == len(expected)
    assert all(f in out for f in expected)


def test_files_qpdf_rewrote_read_the_same_as_reportlabs(tmp_path, monkeypatch):
    """Stream data is taken from the file where its cross-reference table says (qpdf runs
    once); a file with a cross-reference stream (object streams), or whose table points
    elsewhere, is read through qpdf alone (a second run), with the same result."""
    import subprocess

    from cardgen.press import pdfread

    def draw(c):
        c.setFillColorCMYK(0.8, 0.7, 0.6, 0.9)
        c.rect(10, 10, 50, 50, stroke=0, fill=1)
        c.setFont("PreflightCharis", 4)
        c.drawString(20, 100, "small print")

    original = pdf(tmp_path, draw)
    packed = tmp_path / "packed.pdf"
    subprocess.run(["qpdf", "--object-streams=generate", str(original), str(packed)], check=True)
    assert b"/XRef" in packed.read_bytes()  # no classic table to read
    shifted = tmp_path / "shifted.pdf"  # every offset now points 7 bytes too early
    data = original.read_bytes()
    shifted.write_bytes(data.replace(b"%PDF-1.4", b"%PDF-1.4\n%extra", 1)
                        if data.startswith(b"%PDF-1.4") else b"%extra\n" + data)
    runs = []
    real = pdfread.run_qpdf
    monkeypatch.setattr(pdfread, "run_qpdf", lambda path, *o: runs.append(path) or real(path, *o))
    expected = [p.to_json() for p in inspect(original)]
    assert runs == [original]
    assert expected[0]["ink_max"] == pytest.approx(300, abs=0.5)
    assert expected[0]["min_text_pt"] == pytest.approx(4, abs=0.01)
    for other in (packed, shifted):
        runs.clear()
        assert [p.to_json() for p in inspect(other)] == expected, other.name
        assert runs == [other, other], other.name


def test_icc_based_images_are_read_by_their_profiles_components(tmp_path):
    """A CMYK image in an ICCBased colour space (/N 4) is ink-checked like a DeviceCMYK
    one; an ICCBased RGB image (/N 3) counts as RGB."""
    from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFStream

    def placed(ink, n, name):
        buf = io.BytesIO()
        c = Canvas(buf, pagesize=(198, 270), invariant=1, initialFontName=charis(),
                   pageCompression=0)
        c._doc.Reference(PDFStream(PDFDictionary({"N": n}), b"profile", filters=[]), "Profile")
        img = Image.new("CMYK", (4, 4), ink) if n == 4 else Image.new("RGB", (4, 4), ink)
        c.drawImage(img_reader(img), 20, 20, 40, 30)
        c.showPage()
        c.save()
        data = buf.getvalue()
        number = data.split(b"/N %d" % n)[0].rsplit(b" 0 obj", 1)[0].rsplit(b"\n", 1)[1]
        device = b"/DeviceCMYK" if n == 4 else b"/DeviceRGB"
        assert data.count(b"/ColorSpace " + device) == 1
        path = tmp_path / name  # the image's space swapped for the profile (qpdf mends the table)
        path.write_bytes(data.replace(b"/ColorSpace " + device,
                                      b"/ColorSpace [ /ICCBased " + number + b" 0 R ]"))
        return path

    (cmyk,) = inspect(placed((255, 255, 255, 255), 4, "cmyk.pdf"))
    assert cmyk.ink_max == pytest.approx(400, abs=1) and cmyk.rgb == 0
    (rgb,) = inspect(placed((200, 40, 40), 3, "rgb.pdf"))
    assert rgb.rgb == 1 and rgb.ink_max == 0
