"""Issue 12 item 2: managed CMYK through an ICC profile, in every file a build writes."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import copy_project
from PIL import Image, ImageCms

from cardgen.cli import main
from cardgen.errors import CardgenError
from cardgen.press.pagewalk import inspect, inspect_document
from cardgen.render.cmyk import ICC_DIR, CmykConverter, converter_for

ART_CARD = "charles-iv"


def test_black_and_text_ink_are_black_only_colours_go_through_the_profile():
    conv = converter_for(None, 300)
    assert conv.description.startswith("cardgen CMYK FOGRA39")
    for ink in ("#000000", "#1d1a16", "#2b2118", "#808080"):
        c = conv.colour(ink)
        assert (c.cyan, c.magenta, c.yellow) == (0, 0, 0), ink
    red = conv.colour("#8e1c1f")
    naive_k = 1 - 0x8E / 255  # the old formula's black for this red
    assert red.black != pytest.approx(naive_k, abs=0.02)  # the profile's black generation
    assert red.magenta > 0.8


def test_the_ink_limit_holds_for_colours():
    for limit in (240, 300):
        conv = converter_for(None, limit)
        for colour in ("#101030", "#301010", "#0a2a0a", "#3b2f22"):
            c = conv.colour(colour)
            assert (c.cyan + c.magenta + c.yellow + c.black) * 100 <= limit + 0.5


def test_a_profile_that_is_not_cmyk_is_a_clear_error(tmp_path, project, capsys):
    rgb = tmp_path / "srgb.icc"
    rgb.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    with pytest.raises(CardgenError) as exc:
        CmykConverter(rgb)
    assert exc.value.findings[0].code == "icc-profile"
    assert main(["build", "--quiet", "--lang", "en", "--project", str(project),
                 "--icc", str(rgb)]) == 1
    assert "not a CMYK output profile" in capsys.readouterr().err


@pytest.fixture(scope="module")
def cmyk_build(tmp_path_factory):
    project = copy_project(tmp_path_factory.mktemp("cmyk") / "project")
    art = Image.new("RGBA", (900, 600), (0, 0, 0, 0))  # see-through left half
    art.paste((40, 120, 200, 255), (450, 0, 900, 600))
    art.save(project / "art" / f"{ART_CARD}.png")
    assert main(["build", "--quiet", "--lang", "en", "--project", str(project), "--cmyk",
                 "--pdfx", "--profile", "drivethrucards"]) == 0
    return project / "output" / "en"


@pytest.mark.parametrize("profile", ["drivethrucards", "generic"])
def test_print_shop_files_are_pdfx_1a_and_pass_preflight(cmyk_build, tmp_path, profile,
                                                         capsys):
    if profile == "drivethrucards":
        pdf = cmyk_build / "print-shop.pdf"  # built with --cmyk --pdfx
    else:
        project = copy_project(tmp_path / "project")
        assert main(["build", "--quiet", "--lang", "cs", "--project", str(project),
                     "--pdfx", "--profile", profile]) == 0
        pdf = project / "output" / "cs" / "print-shop.pdf"
    capsys.readouterr()
    limit = "240" if profile == "drivethrucards" else "300"
    assert main(["preflight", str(pdf), "--pdfx", "--ink-limit", limit]) == 0
    out = capsys.readouterr().out
    assert "error" not in out and "transparency 0" in out
    doc = inspect_document(pdf)
    assert (doc.pdfx_version, doc.pdfx_conformance) == ("PDF/X-1:2003", "PDF/X-1a:2003")
    assert doc.trapped == "/False"
    assert doc.output_intent and doc.pdf_version == "1.4"


def test_preflight_pdfx_refuses_a_plain_file(cmyk_build, capsys):
    assert main(["preflight", str(cmyk_build / "cards.pdf"), "--pdfx",
                 "--ink-limit", "240"]) == 1
    assert "error[preflight-pdfx]" in capsys.readouterr().out


def test_no_rgb_and_no_ink_over_the_limit_in_any_file(cmyk_build):
    files = sorted(cmyk_build.glob("*.pdf"))
    assert {"cards.pdf", "back.pdf", "sheets-a4.pdf", "print-shop.pdf", "board.pdf",
            "board-a4.pdf", "tokens.pdf", "player-aid.pdf", "glossary.pdf",
            "calibration-a4.pdf"} <= {f.name for f in files}
    assert "rules-tables.pdf" in {f.name for f in files}  # every PDF, the tables too
    for file in files:
        pages = inspect(file)
        assert sum(p.rgb for p in pages) == 0, file.name
        assert max(p.ink_max for p in pages) <= 240.5, file.name  # DriveThruCards: 240 %
        assert all(not p.fonts_not_embedded for p in pages), file.name
        assert sum(p.transparency for p in pages) == 0, file.name  # panels are pre-mixed
    cards = inspect(cmyk_build / "cards.pdf")
    assert sum(p.text_not_k_only for p in cards) == 0  # body text is black ink only


def test_images_are_cmyk_and_transparency_is_flattened_on_the_art_background(cmyk_build,
                                                                             tmp_path):
    listing = subprocess.run(["pdfimages", "-list", str(cmyk_build / "cards.pdf")],
                             check=True, capture_output=True, text=True).stdout.splitlines()[2:]
    assert listing and {line.split()[5] for line in listing} == {"cmyk"}
    assert not [line for line in listing if line.split()[2] == "smask"]
    subprocess.run(["pdftoppm", "-r", "100", "-png", "-f", "1", "-l", "1",
                    str(cmyk_build / "cards.pdf"), str(tmp_path / "c")], check=True)
    img = Image.open(next(tmp_path.glob("c-*.png"))).convert("RGB")
    px = 100 / 25.4
    # the see-through half of the art shows the dark art background, not white paper
    r, g, b = img.getpixel((round((3 + 15) * px), round((3 + 30) * px)))
    assert max(r, g, b) < 120


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (gs) is not installed")
def test_ghostscript_converts_the_print_file_without_rasterising(cmyk_build, tmp_path):
    src = cmyk_build / "print-shop.pdf"
    out = tmp_path / "gs.pdf"
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=pdfwrite",
                    "-dPDFSETTINGS=/prepress", f"-sOutputFile={out}", str(src)], check=True)
    assert out.stat().st_size <= 2 * src.stat().st_size


def test_jpeg_art_in_a_cmyk_build_is_ink_checked(tmp_path):
    """A build converts JPEG art through the profile; the page that shows it measures the
    art's ink (a dark picture: more ink than anything else on the cards)."""
    project = copy_project(tmp_path / "project")
    dark = (20, 10, 30)
    Image.new("RGB", (400, 300), dark).save(project / "art" / f"{ART_CARD}.jpg")
    assert main(["build", "--quiet", "--lang", "en", "--project", str(project), "--cmyk"]) == 0
    pages = inspect(project / "output" / "en" / "cards.pdf")
    shown = [p for p in pages if p.min_image_ppi is not None]
    assert len(shown) == 1  # the one card with art
    art_ink = sum(converter_for(None).image(Image.new("RGB", (1, 1), dark)).getpixel((0, 0)))
    assert shown[0].ink_max == pytest.approx(art_ink / 255 * 100, abs=3)  # about 244 %
    assert shown[0].ink_max > max(p.ink_max for p in pages if p is not shown[0]) + 10


GS_ICC = Path("/usr/share/color/icc/ghostscript")


def test_text_black_is_solid_k_and_only_large_fills_get_the_rich_black(tmp_path):
    """Issue 30: body text (#1d1a16) is 0/0/0/100; a fill of it at least rich_black.min_size
    (layouts/profiles.yaml, 25 mm) on both sides prints as the rich black."""
    from reportlab.lib.units import mm

    from cardgen.render.cmyk import CmykCanvas, RichBlack

    conv = CmykConverter(ICC_DIR / "cardgen-fogra39-240.icc", 240, RichBlack((0.4, 0.3, 0.3, 1), 25))
    assert tuple(conv.colour("#1d1a16").cmyk()) == (0, 0, 0, 1)
    buf = io.BytesIO()
    c = CmykCanvas(buf, pagesize=(200 * mm, 200 * mm), cmyk=conv, pageCompression=0,
                   invariant=1)
    c.setFillColor("#1d1a16")
    c.rect(0, 0, 30 * mm, 30 * mm, stroke=0, fill=1)  # large: rich black
    c.rect(0, 0, 30 * mm, 2 * mm, stroke=0, fill=1)  # a thin bar: solid black
    c.drawString(100, 100, "text")
    c.showPage()
    c.save()
    content = buf.getvalue()
    page = content[content.index(b"0 0 0 1 k"):content.rindex(b"ET")]
    # solid black set first; the rich black only inside q … Q around the large rectangle;
    # the bar and the text after it are in the solid black again
    large, rest = page.split(b"Q", 1)
    assert large.count(b".4 .3 .3 1 k") == 1 and large.count(b" re") == 1
    assert b" k" not in rest and b" re" in rest and b"Tj" in rest


def test_black_text_and_lines_overprint_in_cmyk_and_nothing_else_does():
    """Issue 41, item 4: 0/0/0/100 text and lines overprint (with overprint mode 1), so a
    drifting plate shows no paper beside them; a colour, and every RGB file, knock out."""
    from reportlab.lib.units import mm

    from cardgen.render.cmyk import CmykCanvas, RichBlack

    conv = CmykConverter(ICC_DIR / "cardgen-fogra39-240.icc", 240, RichBlack((0.4, 0.3, 0.3, 1), 25))

    def drawn(cmyk: CmykConverter | None) -> bytes:
        buf = io.BytesIO()
        c = CmykCanvas(buf, pagesize=(100 * mm, 100 * mm), cmyk=cmyk, pageCompression=0,
                       invariant=1)
        c.setFillColor("#1d1a16")
        c.drawString(10, 10, "black")
        c.setFillColor("#8e1c1f")
        c.drawString(10, 30, "red")
        c.setStrokeColor("#1d1a16")
        c.line(0, 0, 50, 50)
        c.showPage()
        c.save()
        return buf.getvalue()

    pdf = drawn(conv)
    assert b"/op true" in pdf and b"/OP true" in pdf and b"/OPM 1" in pdf
    page = pdf[pdf.index(b"0 0 0 1 k"):]
    black, red = page.split(b"(black)")[0], page.split(b"(black)")[1].split(b"(red)")[0]
    assert b" gs" in black and b" gs" in red  # overprint on for black, off again for red
    assert b"/op" not in drawn(None) and b"/OP" not in drawn(None)


@pytest.mark.skipif(not (GS_ICC / "ps_cmyk.icc").is_file(), reason="no ICC v4 profile here")
def test_an_icc_v4_output_profile_builds(tmp_path, capsys):
    v4 = GS_ICC / "ps_cmyk.icc"
    assert v4.read_bytes()[8] == 4  # version 4
    conv = CmykConverter(v4, 300)
    assert conv.colour("#c0392b").magenta > 0.5
    assert conv.image(Image.new("RGB", (2, 2), (200, 40, 40))).mode == "CMYK"
    project = copy_project(tmp_path / "project")
    assert main(["build", "--quiet", "--lang", "en", "--project", str(project), "--icc",
                 str(v4), "--no-pdfx"]) == 0, capsys.readouterr()


def test_a_file_that_is_no_icc_profile_says_so(tmp_path):
    fake = tmp_path / "shop.icc"
    fake.write_bytes(b"<html>not found</html>" * 10)
    with pytest.raises(CardgenError) as exc:
        CmykConverter(fake)
    assert "not an ICC profile" in str(exc.value) and "os-error" not in str(exc.value)


def test_greyscale_art_is_black_ink_only():
    conv = converter_for(None, 240)
    grey = Image.linear_gradient("L").resize((64, 64))
    c, m, y, k = conv.image(grey).split()
    assert c.getextrema() == m.getextrema() == y.getextrema() == (0, 0)
    assert k.getextrema()[1] > 200  # the dark end is near-solid black
    rgb_grey = Image.merge("RGB", (grey, grey, grey))  # grey saved as RGB: the same
    assert conv.image(rgb_grey).split()[0].getextrema() == (0, 0)


@pytest.mark.skipif(not (GS_ICC / "a98.icc").is_file(), reason="no Adobe RGB profile here")
def test_art_is_converted_from_its_embedded_profile(tmp_path):
    """Adobe RGB (1998) art: converted from that profile, not as if it were sRGB; the
    profile survives the preparation of the art (scaling, bleed)."""
    from cardgen.render.art import mirrored_bleed, prepare_art

    a98 = (GS_ICC / "a98.icc").read_bytes()
    green = Image.new("RGB", (900, 600), (30, 200, 60))
    conv = converter_for(None, 300)
    untagged = conv.image(green).getpixel((0, 0))
    tagged_img = green.copy()
    tagged_img.info["icc_profile"] = a98
    tagged = conv.image(tagged_img).getpixel((0, 0))
    expected = ImageCms.profileToProfile(
        green, ImageCms.ImageCmsProfile(io.BytesIO(a98)), conv.profile,
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, outputMode="CMYK",
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION).getpixel((0, 0))
    assert tagged != untagged
    assert max(abs(a - b) for a, b in zip(tagged, expected, strict=True)) <= 1
    path = tmp_path / "art.png"
    green.save(path, icc_profile=a98)
    art = prepare_art(path, 63, 42)
    assert Image.open(io.BytesIO(art.data)).info.get("icc_profile") == a98
    grown = mirrored_bleed(art, (3, 3, 3, 0))
    assert Image.open(io.BytesIO(grown)).info.get("icc_profile") == a98


def test_images_keep_the_ink_limit_with_a_profile_that_allows_more():
    conv = CmykConverter(ICC_DIR / "cardgen-fogra39-300.icc", 240)
    dark = conv.image(Image.new("RGB", (8, 8), (20, 10, 30)))
    assert sum(dark.getpixel((0, 0))) / 255 * 100 <= 240 + 1  # one colour: every pixel


def _first_pixels(pdf: bytes, tmp_path: Path) -> list[tuple[str, tuple[int, ...]]]:
    """(colour space, first pixel) of each image in ``pdf``, in object order."""
    from cardgen.press.pdfread import read_pdf

    path = tmp_path / "art.pdf"
    path.write_bytes(pdf)
    doc = read_pdf(path)
    out = []
    for ref, obj in doc.objects.items():
        if obj.get("stream", {}).get("dict", {}).get("/Subtype") == "/Image":
            data, info = doc.stream(ref)
            out.append((info["/ColorSpace"], tuple(data[:4 if "CMYK" in info["/ColorSpace"] else 3])))
    return out


def test_cmyk_art_keeps_its_inks_in_a_cmyk_file_and_is_converted_only_from_its_own_tag(tmp_path):
    """Issue 41 item 7: press-ready CMYK art (a JPEG of 20/40/60/10) prints those inks in a
    CMYK file, not separated again from Pillow's RGB guess at them; art tagged with another
    CMYK profile is converted from it, CMYK to CMYK; an RGB file shows it as before."""
    from dataclasses import replace

    from cardgen.data.layout import load_layout
    from cardgen.data.load import load
    from cardgen.render.pdf import render_cards_pdf
    from cardgen.wording.compose import compose_faces
    from tests.conftest import ROOT

    data, _ = load(ROOT)
    layout = load_layout(ROOT / "layouts" / "card.yaml")
    face = next(f for f in compose_faces(data, "en", ROOT) if f.card_id == ART_CARD)
    inks = (51, 102, 153, 26)
    art = Image.new("CMYK", (900, 600), inks)
    untagged, tagged = tmp_path / "untagged.jpg", tmp_path / "tagged.jpg"
    art.save(untagged, "JPEG", quality=95)
    fogra300 = (ICC_DIR / "cardgen-fogra39-300.icc").read_bytes()
    art.save(tagged, "JPEG", quality=95, icc_profile=fogra300)
    conv = converter_for(None, 240)  # the 240 % profile: another press condition than the tag's
    shown = {}
    for name, path in (("untagged", untagged), ("tagged", tagged)):
        pdf, _ = render_cards_pdf([replace(face, art=path)], layout, physical=False, cmyk=conv)
        shown[name] = _first_pixels(pdf, tmp_path)[0]  # the picture itself (then its tints)
    assert shown["untagged"] == ("/DeviceCMYK", inks)
    expected = ImageCms.profileToProfile(
        art, ImageCms.ImageCmsProfile(io.BytesIO(fogra300)), conv.profile, outputMode="CMYK",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION).getpixel((0, 0))
    space, pixel = shown["tagged"]
    assert space == "/DeviceCMYK" and pixel != inks
    assert max(abs(a - b) for a, b in zip(pixel, expected, strict=True)) <= 2
    rgb, _ = render_cards_pdf([replace(face, art=untagged)], layout, physical=False)
    assert _first_pixels(rgb, tmp_path)[0] == ("/DeviceRGB", art.convert("RGB").getpixel((0, 0)))


def test_cmyk_art_under_a_see_through_panel_is_mixed_in_inks():
    """The panels show the art through their colour: CMYK art is mixed with the panel's
    inks (half and half at alpha 0.5), not taken through RGB; RGB art as before."""
    from cardgen.render.art import tinted

    conv = converter_for(None, 300)
    buf = io.BytesIO()
    Image.new("CMYK", (60, 40), (51, 102, 153, 26)).save(buf, "JPEG", quality=95)
    panel = conv.colour((0.2, 0.4, 0.6)).cmyk()
    mixed = Image.open(io.BytesIO(conv.tinted(buf.getvalue(), (51, 102, 153), 0.5)))
    assert mixed.mode == "CMYK"
    expected = [(a + round(p * 255)) / 2 for a, p in zip((51, 102, 153, 26), panel, strict=True)]
    assert max(abs(v - e) for v, e in zip(mixed.getpixel((0, 0)), expected, strict=True)) <= 2
    rgb = io.BytesIO()
    Image.new("RGB", (60, 40), (200, 40, 40)).save(rgb, "PNG")
    assert conv.tinted(rgb.getvalue(), (51, 102, 153), 0.5) == tinted(rgb.getvalue(),
                                                                      (51, 102, 153), 0.5)
