"""Issue 12 item 2: managed CMYK through an ICC profile, in every file a build writes."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from conftest import copy_project
from PIL import Image, ImageCms

from cardgen.cli import main
from cardgen.errors import CardgenError
from cardgen.press.pagewalk import inspect, inspect_document
from cardgen.render.cmyk import CmykConverter, converter_for

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
