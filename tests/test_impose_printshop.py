"""Print-shop files: one card per page with boxes, page orders, CMYK, MPC images."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from cardgen.errors import CardgenError
from cardgen.impose import (
    CardSize,
    build_card_images,
    build_print_shop,
    load_profiles,
    profile_findings,
    select_profile,
)
from cardgen.impose.fakes import fake_drawers, fake_faces
from cardgen.impose.pdfscan import rgb_usage
from cardgen.impose.printshop import page_sequence

ROOT = Path(__file__).resolve().parent.parent
CARD = CardSize(63, 88, 3)
PT = 72 / 25.4


@pytest.fixture(scope="module")
def profiles():
    return load_profiles(ROOT)


@pytest.fixture(scope="module")
def faces():
    return fake_faces([2, 1, 1])


@pytest.fixture(scope="module")
def drawers():
    return fake_drawers(CARD)


def boxes(pdf: bytes, tmp_path: Path) -> dict[tuple[int, str], tuple[float, ...]]:
    path = tmp_path / "p.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdfinfo", "-box", "-f", "1", "-l", "3", str(path)], check=True,
                         capture_output=True, text=True).stdout
    found = {}
    for m in re.finditer(r"Page\s+(\d+) (\w+Box):\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)",
                         out):
        found[(int(m.group(1)), m.group(2))] = tuple(float(v) for v in m.groups()[2:])
    return found


def test_profiles_load_with_their_numbers(profiles):
    assert set(profiles) >= {"generic", "drivethrucards", "makeplayingcards"}
    assert profiles["generic"].bleed == 3
    assert profiles["drivethrucards"].bleed == pytest.approx(25.4 / 8)
    assert profiles["makeplayingcards"].bleed_px == 36
    assert profiles["makeplayingcards"].bleed == pytest.approx(36 / 300 * 25.4)


def test_unknown_profile_names_the_choices(profiles):
    with pytest.raises(CardgenError) as exc:
        select_profile(profiles, "drivethru")
    finding = exc.value.findings[0]
    assert "expected one of: generic, drivethrucards, makeplayingcards" in finding.message
    assert finding.hint == "did you mean 'drivethrucards'?"


@pytest.mark.parametrize("pid", ["generic", "drivethrucards"])
def test_trim_and_bleed_boxes_on_every_page(profiles, faces, drawers, tmp_path, pid):
    profile = profiles[pid]
    pdf = build_print_shop(faces, *drawers, CARD, profile)
    b = profile.bleed * PT
    w, h = (63 + 2 * profile.bleed) * PT, (88 + 2 * profile.bleed) * PT
    found = boxes(pdf, tmp_path)
    for page in (1, 2, 3):
        assert found[(page, "MediaBox")] == pytest.approx((0, 0, w, h), abs=0.01)
        assert found[(page, "BleedBox")] == pytest.approx((0, 0, w, h), abs=0.01)
        assert found[(page, "TrimBox")] == pytest.approx((b, b, w - b, h - b), abs=0.01)


def test_page_orders_cover_every_physical_card(faces):
    ftb = page_sequence(faces, "fronts-then-backs")
    assert [s for s, _, _ in ftb] == ["front"] * 4 + ["back"] * 4
    alt = page_sequence(faces, "back-front")
    assert [s for s, _, _ in alt] == ["back", "front"] * 4
    assert [(f.card_id, n) for s, f, n in alt if s == "front"] == [
        ("c01", 1), ("c01", 2), ("c02", 1), ("c03", 1)]


def test_drivethrucards_is_cmyk_and_pages_alternate(profiles, faces, drawers, tmp_path):
    pdf = build_print_shop(faces, *drawers, CARD, profiles["drivethrucards"])
    assert rgb_usage(pdf) == []
    path = tmp_path / "d.pdf"
    path.write_bytes(pdf)
    listing = subprocess.run(["pdfimages", "-list", str(path)], check=True,
                             capture_output=True, text=True).stdout.splitlines()[2:]
    assert sorted({int(line.split()[0]) for line in listing}) == [2, 4, 6, 8]  # fronts second
    assert {line.split()[5] for line in listing} == {"cmyk"}


def test_cmyk_flag_overrides_an_rgb_profile(profiles, faces, drawers):
    generic = profiles["generic"]
    assert rgb_usage(build_print_shop(faces, *drawers, CARD, generic))
    assert rgb_usage(build_print_shop(faces, *drawers, CARD, generic, cmyk=True)) == []


def test_bleed_wider_than_painted_is_filled_and_reported(profiles, faces, drawers, tmp_path):
    dtc = profiles["drivethrucards"]
    assert [f.code for f in profile_findings(dtc, CARD)] == ["profile-bleed"]
    pdf = build_print_shop(faces[:1], *drawers, CARD, dtc, order="front-back")
    path = tmp_path / "x.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "300", "-png", "-f", "1", "-l", "1", str(path),
                    str(tmp_path / "x")], check=True)
    img = Image.open(next(tmp_path.glob("x-*.png"))).convert("RGB")
    # the corner pixel (in the extra 0.175 mm band) is the card's bleed colour, not paper
    assert img.getpixel((0, 0)) != (255, 255, 255)
    assert img.getpixel((0, 0)) == pytest.approx(img.getpixel((20, 20)), abs=12)


def test_card_size_mismatch_is_an_error(profiles, faces, drawers):
    with pytest.raises(CardgenError) as exc:
        build_print_shop(faces, *drawers, CardSize(63.5, 88.9, 3), profiles["generic"])
    assert exc.value.findings[0].code == "profile-card-size"


def test_mpc_images_are_300_dpi_with_36_px_bleed(profiles, faces, drawers):
    images = build_card_images(faces, *drawers, CARD, profiles["makeplayingcards"])
    assert list(images) == ["001-c01.png", "002-c02.png", "003-c03.png", "back.png"]
    trim_w, trim_h = round(63 / 25.4 * 300), round(88 / 25.4 * 300)
    for data in images.values():
        im = Image.open(io.BytesIO(data))
        assert im.size == (trim_w + 72, trim_h + 72)
        assert im.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    again = build_card_images(faces, *drawers, CARD, profiles["makeplayingcards"])
    assert again == images


def test_print_shop_bytes_are_deterministic(profiles, faces, drawers):
    one = build_print_shop(faces, *drawers, CARD, profiles["generic"])
    assert one == build_print_shop(faces, *drawers, CARD, profiles["generic"])


def test_a_profile_with_an_empty_bleed_is_a_finding(tmp_path):
    import shutil

    from cardgen.errors import CardgenError

    shutil.copytree(ROOT / "layouts", tmp_path / "layouts")
    path = tmp_path / "layouts" / "profiles.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    bleed: 3\n", "    bleed:\n", 1), encoding="utf-8")
    with pytest.raises(CardgenError) as info:
        load_profiles(tmp_path)
    assert any("exactly one of 'bleed'" in f.message for f in info.value.findings)
