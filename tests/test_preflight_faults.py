"""Issue 30: preflight catches each fault a print shop sends a file back for. Every test
file is written here object by object: a clean PDF/X-1a:2003 file, then the same file with
one fault planted, so each finding is the planted fault and nothing else."""

from __future__ import annotations

import subprocess
import zlib
from pathlib import Path

import pytest
from PIL import ImageCms

from cardgen.cli import main
from cardgen.render.cmyk import DEFAULT_ICC

CMYK_ICC = DEFAULT_ICC.read_bytes()
SRGB_ICC = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
CLEAN_INFO = ("/Title (test) /CreationDate (D:20000101000000Z) /ModDate (D:20000101000000Z) "
              "/GTS_PDFXVersion (PDF/X-1:2003) /GTS_PDFXConformance (PDF/X-1a:2003) "
              "/Trapped /False")


def stream(head: str, data: bytes) -> bytes:
    body = zlib.compress(data)
    return (f"<< {head} /Filter /FlateDecode /Length {len(body)} >>\nstream\n".encode()
            + body + b"\nendstream")


def write_pdf(path: Path, *, content: bytes = b"0 0 0 1 k 20 20 50 50 re f",
              resources: str = "", page_extra: str = "", catalog_extra: str = "",
              info: str = CLEAN_INFO, intent_icc: bytes = CMYK_ICC, intent_n: int = 4,
              trim: str | None = "[9 9 189 261]", extra: tuple[bytes, ...] = ()) -> Path:
    """A one-page PDF 1.4; object 6 is the OutputIntent's profile, 7 on are ``extra``;
    ``trim=None``: no TrimBox."""
    objects = [
        f"<< /Type /Catalog /Pages 2 0 R /OutputIntents [<< /Type /OutputIntent /S /GTS_PDFX "
        f"/OutputConditionIdentifier (FOGRA39) /RegistryName (http://www.color.org) "
        f"/Info (test) /DestOutputProfile 6 0 R >>] {catalog_extra} >>".encode(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 198 270] "
         f"{'' if trim is None else f'/TrimBox {trim} '}"
         f"/BleedBox [0 0 198 270] /Resources << {resources} >> /Contents 4 0 R "
         f"{page_extra} >>").encode(),
        stream("", content),
        f"<< {info} >>".encode(),
        stream(f"/N {intent_n}", intent_icc),
        *extra,
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 5 0 R "
            f"/ID [<{'ab' * 16}><{'ab' * 16}>] >>\nstartxref\n{xref}\n%%EOF\n").encode()
    path.write_bytes(bytes(out))
    return path


def preflight(path: Path, capsys, *options: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["preflight", str(path), "--pdfx", "--ink-limit", "240", *options])
    return code, capsys.readouterr().out


def test_the_clean_file_passes(tmp_path, capsys):
    code, out = preflight(write_pdf(tmp_path / "clean.pdf"), capsys)
    assert code == 0, out
    assert "error" not in out and "warning" not in out
    assert ": 1 page\n" in out  # one page, not "1 pages"


ICC_RGB = stream("/N 3", SRGB_ICC)
FAULTS = {
    "encryption": ({}, "preflight-encrypted"),
    "javascript": ({"catalog_extra": "/OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >>"},
                   "preflight-javascript"),
    "annotation": ({"page_extra": "/Annots [<< /Type /Annot /Subtype /Text "
                                  "/Rect [10 10 20 20] /Contents (note) >>]"},
                   "preflight-annotations"),
    "page transparency group": ({"page_extra": "/Group << /S /Transparency /CS /DeviceCMYK >>"},
                                "preflight-transparency"),
    "ICC-based RGB fill": ({"resources": "/ColorSpace << /C0 [/ICCBased 7 0 R] >>",
                            "content": b"/C0 cs 0.8 0.2 0.1 sc 20 20 50 50 re f",
                            "extra": (ICC_RGB,)}, "preflight-rgb"),
    "Lab fill": ({"resources": "/ColorSpace << /L0 [/Lab << /WhitePoint [0.9505 1 1.089] >>] >>",
                  "content": b"/L0 cs 50 20 10 sc 20 20 50 50 re f"}, "preflight-lab"),
    "TrimBox larger than the page": ({"trim": "[0 0 300 300]"}, "preflight-boxes"),
    "RGB output intent": ({"intent_icc": SRGB_ICC, "intent_n": 3}, "preflight-pdfx"),
    "missing Title": ({"info": CLEAN_INFO.replace("/Title (test) ", "")}, "preflight-pdfx"),
}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_each_planted_fault_is_an_error(tmp_path, capsys, fault):
    options, code = FAULTS[fault]
    path = write_pdf(tmp_path / "f.pdf", **options)
    if fault == "encryption":  # opens without a password, but is encrypted all the same
        locked = tmp_path / "locked.pdf"
        subprocess.run(["qpdf", "--encrypt", "", "owner", "256", "--", str(path), str(locked)],
                       check=True)
        path = locked
    status, out = preflight(path, capsys)
    assert status == 1, out
    assert f"error[{code}]" in out, out
    if fault == "missing Title":
        assert "no /Title" in out
    if fault == "RGB output intent":
        assert "OutputIntent's profile is RGB" in out


def test_both_correctly_keyed_pdfx_1a_forms_pass_and_the_old_keying_does_not(tmp_path, capsys):
    x2001 = CLEAN_INFO.replace("1:2003", "1:2001").replace("1a:2003", "1a:2001")
    old = CLEAN_INFO.replace("/GTS_PDFXVersion (PDF/X-1:2003) /GTS_PDFXConformance "
                             "(PDF/X-1a:2003)", "/GTS_PDFXVersion (PDF/X-1a:2003)")
    code, out = preflight(write_pdf(tmp_path / "a.pdf"), capsys)
    assert code == 0, out
    code, out = preflight(write_pdf(tmp_path / "b.pdf", info=x2001), capsys)
    assert "error[preflight-pdfx]" in out and "1.3 or earlier" in out  # 2001 is PDF 1.3
    code, out = preflight(write_pdf(tmp_path / "c.pdf", info=old), capsys)
    assert code == 1 and "GTS_PDFXConformance (missing)" in out


def test_images_below_the_shops_300_ppi_are_reported(tmp_path, capsys):
    """A 280 ppi image: under what the shops ask (300), above the old 250 threshold."""
    pixels = bytes(280 * 280 * 4)
    image = stream("/Type /XObject /Subtype /Image /Width 280 /Height 280 "
                   "/ColorSpace /DeviceCMYK /BitsPerComponent 8", pixels)
    path = write_pdf(tmp_path / "i.pdf", resources="/XObject << /Im0 7 0 R >>",
                     content=b"q 72 0 0 72 20 20 cm /Im0 Do Q", extra=(image,))
    code, out = preflight(path, capsys)
    assert "warning[preflight-image]" in out and "below 300 ppi" in out
    assert code == 0  # a warning: the shop may take it


def test_an_rgb_page_says_its_ink_was_not_measured(tmp_path, capsys):
    path = write_pdf(tmp_path / "rgb.pdf", content=b"0.2 0.4 0.6 rg 20 20 50 50 re f")
    _code, out = preflight(path, capsys)
    assert "ink: RGB page, not measured" in out and "ink max 0 %" not in out


@pytest.mark.parametrize("content", [b"hello", b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog"])
def test_a_damaged_or_foreign_file_is_an_error_at_the_file_saying_how_to_fix_it(
        tmp_path, capsys, content):
    """Not a PDF, or one cut short: exit 1 (the file checked is preflight's data, DECISIONS
    "Exit code 2 …"), one error naming the file and qpdf's reason, a fix line, no traceback."""
    path = tmp_path / "shop.pdf"
    path.write_bytes(content)
    assert main(["preflight", str(path)]) == 1
    err = capsys.readouterr()
    text = err.out + err.err
    assert f"{path}: error[preflight-read]: cannot read the PDF: qpdf:" in text
    assert "fix: a PDF cut short" in text and "Traceback" not in text


def image(ppi: float) -> dict:
    """A CMYK image placed 1 inch square with ``ppi`` pixels a side (2 % black)."""
    side = round(ppi)
    pixels = bytes([0, 0, 0, 5]) * side * side
    head = (f"/Type /XObject /Subtype /Image /Width {side} /Height {side} "
            "/ColorSpace /DeviceCMYK /BitsPerComponent 8")
    return {"resources": "/XObject << /Im0 7 0 R >>", "content": b"q 72 0 0 72 20 20 cm /Im0 Do Q",
            "extra": (stream(head, pixels),)}


#: A Type 3 font (drawn by the file itself, so nothing to embed) with one glyph, "a".
TYPE3 = (b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix "
         b"[0.001 0 0 0.001 0 0] /CharProcs << /a 8 0 R >> /Encoding << /Type /Encoding "
         b"/Differences [97 /a] >> /FirstChar 97 /LastChar 97 /Widths [1000] >>")
GLYPH = stream("", b"1000 0 0 0 1000 1000 d1 0 0 1000 1000 re f")


def text(size: float) -> dict:
    """A line of solid black text at ``size`` pt."""
    return {"resources": "/Font << /T0 7 0 R >>", "extra": (TYPE3, GLYPH),
            "content": f"0 0 0 1 k BT /T0 {size:g} Tf 20 20 Td (aaa) Tj ET".encode()}


#: Issue 41 item 6: the six faults that passed `--print-shop` and `--pdfx` (72 ppi art,
#: 4 pt text, transparency, RGB or Lab colour, 400 % ink, a missing TrimBox), each with
#: what preflight must now say: the measured value on the page, and a fix.
SHOP_FAULTS = {
    "72 ppi image": (image(72), "preflight-image", "below 150 ppi, which a print shop "
                     "refuses: 72 ppi on page 1"),
    "4 pt text": (text(4), "preflight-text", "smaller than 5 pt, which a print shop refuses: "
                  "4.0 pt on page 1"),
    "transparency": ({"resources": "/ExtGState << /G0 << /ca 0.5 >> >>",
                      "content": b"/G0 gs 0 0 0 1 k 20 20 50 50 re f"},
                     "preflight-transparency", "1 place on page 1"),
    "RGB fill": ({"content": b"0.2 0.4 0.6 rg 20 20 50 50 re f"}, "preflight-rgb",
                 "where a press needs CMYK: 1 use on page 1"),
    "Lab fill": (FAULTS["Lab fill"][0], "preflight-lab", "where a press needs CMYK: 1 use on page 1"),
    "400 % ink": ({"content": b"1 1 1 1 k 20 20 50 50 re f"}, "preflight-ink",
                  "400 % on page 1"),
    "no TrimBox": ({"trim": None}, "preflight-boxes", "page boxes missing: no TrimBox on page 1"),
}


@pytest.mark.parametrize("mode", [["--print-shop"], ["--pdfx"]])
@pytest.mark.parametrize("fault", list(SHOP_FAULTS))
def test_each_fault_a_shop_refuses_fails_print_shop_and_pdfx_with_its_value_and_fix(
        tmp_path, capsys, fault, mode):
    options, code, said = SHOP_FAULTS[fault]
    path = write_pdf(tmp_path / "f.pdf", **options)
    capsys.readouterr()
    status = main(["preflight", str(path), *mode])
    out = capsys.readouterr().out
    assert status == 1, out
    errors = [line for line in out.splitlines() if ": error[" in line]
    assert len(errors) == 1 and f"error[{code}]" in errors[0], out  # the fault, nothing else
    assert said in errors[0]
    assert "\n    fix: " in out.split(f"error[{code}]")[1].split("error[")[0]
    if fault == "400 % ink":  # no --ink-limit: the OutputIntent's profile says how much
        assert "the most the OutputIntent's profile (cardgen CMYK FOGRA39 300%) separates to" in out
    if fault == "no TrimBox":
        assert "BleedBox" not in errors[0]


def test_at_the_shops_own_thresholds_a_file_passes(tmp_path, capsys):
    """150 ppi, 5 pt and exactly the ink limit are what the shop takes (300 ppi is what it
    asks: a warning); one step past any of them is an error."""
    for options, warned in ((image(150), "warning[preflight-image]"), (text(5), None),
                            ({"content": b"0.6 0.4 0.4 1 k 20 20 50 50 re f"}, None)):
        code, out = preflight(write_pdf(tmp_path / "f.pdf", **options), capsys)
        assert code == 0, out
        assert "error" not in out and (warned is None or warned in out), out
    for options in (image(149), text(4.9), {"content": b"0.6 0.4 0.41 1 k 20 20 50 50 re f"}):
        code, out = preflight(write_pdf(tmp_path / "f.pdf", **options), capsys)
        assert code == 1, out


def test_a_version_4_output_intent_profile_is_a_warning_with_the_reason(tmp_path, capsys):
    v4 = bytearray(CMYK_ICC)
    v4[8:10] = bytes([4, 0x20])
    code, out = preflight(write_pdf(tmp_path / "v4.pdf", intent_icc=bytes(v4)), capsys)
    assert code == 0 and "warning[preflight-icc-version]" in out, out
    assert "is version 4.2: PDF/X-1a is PDF 1.3 or 1.4" in out


@pytest.mark.parametrize(("profile", "cmyk", "pdfx", "said"), [
    ("generic", False, None, True), ("generic", True, None, False),
    ("generic", False, True, False), ("drivethrucards", False, None, False),
    ("drivethrucards", False, False, False),  # --no-pdfx: the profile prints CMYK all the same
    ("makeplayingcards", False, None, False)])  # PNGs, which that shop takes in RGB
def test_only_a_build_whose_print_shop_file_is_rgb_says_what_a_press_needs(
        profile, cmyk, pdfx, said):
    from cardgen.build.outputs import colour_findings
    from tests.conftest import ROOT, at

    found = colour_findings(at(ROOT), profile, cmyk, pdfx)
    assert [f.code for f in found] == (["press-rgb"] if said else [])
    assert all(f.severity == "info" for f in found)  # --strict builds are not refused for it


def test_a_pdfx_print_file_made_with_a_version_4_profile_warns_why(tmp_path):
    """Issue 41 item 7: the build embeds the --icc profile as the OutputIntent; a version 4
    one is a warning with the reason (PDF/X-1a is PDF 1.4: ICC version 2), the shipped
    version 2 profile none."""
    from cardgen.impose import CardSize, build_print_shop, drawing_bleed, load_profiles, select_profile
    from cardgen.impose.fakes import fake_drawers, fake_faces
    from cardgen.press.preflight import Rules, check_bytes
    from cardgen.render.cmyk import CmykConverter
    from tests.conftest import ROOT, at

    v4 = bytearray(CMYK_ICC)
    v4[8:10] = bytes([4, 0x20])  # the shipped profile, declared version 4.2
    (tmp_path / "v4.icc").write_bytes(bytes(v4))
    profile = select_profile(load_profiles(at(ROOT)), "drivethrucards")
    card = CardSize(63, 88, drawing_bleed(profile, CardSize(63, 88, 3)))
    rules = Rules(cmyk=True, ink_limit=300, boxes=True, transparency="off", pdfx=True)
    warned = {}
    for name, icc in (("v4", tmp_path / "v4.icc"), ("v2", DEFAULT_ICC)):
        pdf = build_print_shop(fake_faces([1]), *fake_drawers(card), card, profile,
                               cmyk=CmykConverter(icc, 300), pdfx=True)
        warned[name] = [f for f in check_bytes(pdf, rules, "output/en/print-shop.pdf")
                        if f.code == "preflight-icc-version"]
    assert warned["v2"] == []
    (found,) = warned["v4"]
    assert found.severity == "warning" and found.location.file == "output/en/print-shop.pdf"
    assert "(cardgen CMYK FOGRA39 300%) is version 4.2" in found.message
    assert "version 2 profile" in found.hint


def test_a_finding_names_the_card_cardgen_placed_on_the_page(tmp_path, capsys):
    """cardgen's print files draw each card as a form named after it (front-<id>, back):
    a finding says which card a page holds, and is that card's finding."""
    form = stream("/Type /XObject /Subtype /Form /BBox [0 0 100 100]",
                  b"1 1 1 1 k 0 0 10 10 re f")
    path = write_pdf(tmp_path / "card.pdf", resources="/XObject << /FormXob.front-market-58 7 0 R >>",
                     content=b"q 1 0 0 1 20 20 cm /FormXob.front-market-58 Do Q", extra=(form,))
    code, out = preflight(path, capsys)
    assert code == 1
    assert "  page 1 (market-58): ink max 400 %" in out and "== card market-58 ==" in out
    assert ("error[preflight-ink] card market-58: total ink over the limit of 240 % "
            "(--ink-limit): 400 % on page 1 (market-58)") in out, out
