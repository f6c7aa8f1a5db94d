"""Print-shop files: one card per page with boxes, page orders, CMYK, MPC images."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path

import pytest
from conftest import at
from PIL import Image

from cardgen.errors import CardgenError
from cardgen.impose import (
    CardSize,
    build_card_images,
    build_print_shop,
    drawing_bleed,
    load_profiles,
    profile_findings,
    select_profile,
)
from cardgen.impose.fakes import fake_drawers, fake_faces
from cardgen.impose.printshop import page_sequence
from cardgen.press.pdfscan import rgb_usage

ROOT = Path(__file__).resolve().parent.parent
CARD = CardSize(63, 88, 3)
PT = 72 / 25.4


@pytest.fixture(scope="module")
def profiles():
    return load_profiles(at(ROOT))


@pytest.fixture(scope="module")
def faces():
    return fake_faces([2, 1, 1])


@pytest.fixture(scope="module")
def drawers():
    return fake_drawers(CARD)


def shop_card(profile) -> CardSize:
    """The card as the build draws it for ``profile``: with the bleed the profile needs."""
    return CardSize(63, 88, drawing_bleed(profile, CARD))


def shop(faces, profile, **kw) -> bytes:
    card = shop_card(profile)
    return build_print_shop(faces, *fake_drawers(card), card, profile, **kw)


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


@pytest.mark.parametrize(("pid", "page_in", "trim_in"), [
    ("generic", ((63 + 6) / 25.4, (88 + 6) / 25.4), (63 / 25.4, 88 / 25.4)),
    ("drivethrucards", (2.75, 3.75), (2.5, 3.5)),  # DriveThruCards' poker card
])
def test_trim_and_bleed_boxes_on_every_page(profiles, faces, tmp_path, pid, page_in, trim_in):
    pdf = shop(faces, profiles[pid])
    w, h = page_in[0] * 72, page_in[1] * 72
    bx, by = (w - trim_in[0] * 72) / 2, (h - trim_in[1] * 72) / 2
    found = boxes(pdf, tmp_path)
    for page in (1, 2, 3):
        assert found[(page, "MediaBox")] == pytest.approx((0, 0, w, h), abs=0.01)
        assert found[(page, "BleedBox")] == pytest.approx((0, 0, w, h), abs=0.01)
        assert found[(page, "TrimBox")] == pytest.approx((bx, by, w - bx, h - by), abs=0.01)


def test_page_orders_cover_every_physical_card(faces):
    ftb = page_sequence(faces, "fronts-then-backs")
    assert [s for s, _, _ in ftb] == ["front"] * 4 + ["back"] * 4
    alt = page_sequence(faces, "back-front")
    assert [s for s, _, _ in alt] == ["back", "front"] * 4
    assert [(f.card_id, n) for s, f, n in alt if s == "front"] == [
        ("c01", 1), ("c01", 2), ("c02", 1), ("c03", 1)]


def test_drivethrucards_is_cmyk_and_pages_alternate(profiles, faces, drawers, tmp_path):
    pdf = shop(faces, profiles["drivethrucards"])
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


def test_shop_trim_scales_the_card_and_its_own_bleed_fills_the_page(profiles, faces,
                                                                    tmp_path):
    dtc = profiles["drivethrucards"]
    card = shop_card(dtc)
    assert card.bleed > 3  # drawn with more bleed than the layout's 3 mm
    codes = [f.code for f in profile_findings(dtc, card, safe=4)]
    assert codes == ["profile-scaled"]  # a warning the build shows
    # drawn with only the layout's bleed, the page could not be covered: refused
    assert "profile-bleed" in [f.code for f in profile_findings(dtc, CARD)]
    with pytest.raises(CardgenError):
        build_print_shop(faces, *fake_drawers(CARD), CARD, dtc)
    pdf = shop(faces[:1], dtc, order="front-back")
    path = tmp_path / "x.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "300", "-png", "-f", "1", "-l", "1", str(path),
                    str(tmp_path / "x")], check=True)
    img = Image.open(next(tmp_path.glob("x-*.png"))).convert("RGB")
    assert img.size == (825, 1125)  # 2.75 × 3.75 in at 300 dpi
    # the fake drawer paints its bleed red and the trim pale: the page corner is the card's
    # own bleed; 1/8 in (37.5 px) in, the trim starts
    assert img.getpixel((0, 0)) == pytest.approx((0xc0, 0x39, 0x2b), abs=25)
    assert img.getpixel((34, 600)) == pytest.approx((0xc0, 0x39, 0x2b), abs=25)
    assert img.getpixel((41, 600)) != pytest.approx((0xc0, 0x39, 0x2b), abs=25)


def test_safe_area_and_distortion_limits(profiles):
    dtc = profiles["drivethrucards"]
    squat = CardSize(70, 88, 4)  # 63.5 / 70 against 88.9 / 88: 10 % distortion
    assert "profile-card-size" in [f.code for f in profile_findings(dtc, squat)]
    big = CardSize(70, 98, 4)  # shrunk to 63.5 × 88.9: 4 mm of safe area becomes 3.6 mm
    assert [f.code for f in profile_findings(dtc, big, safe=4)] == ["profile-scaled"]
    found = profile_findings(dtc, big, safe=3.5)
    assert "profile-safe-area" in [f.code for f in found]


def test_mpc_images_are_822_by_1122_px_at_300_dpi(profiles, faces):
    mpc = profiles["makeplayingcards"]
    card = shop_card(mpc)
    images = build_card_images(faces, *fake_drawers(card), card, mpc)
    assert list(images) == ["001-c01.png", "002-c02.png", "003-c03.png", "back.png"]
    for data in images.values():
        im = Image.open(io.BytesIO(data))
        assert im.size == (822, 1122)  # 750 × 1050 trim + 36 px a side
        assert im.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    again = build_card_images(faces, *fake_drawers(card), card, mpc)
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
        load_profiles(at(tmp_path))
    assert any("exactly one of 'bleed'" in f.message for f in info.value.findings)


def test_art_ppi_is_reported_at_the_shops_scaled_size(tmp_path):
    """Issue 30: art at the minimum art/README.md states (745 px over the 63 mm box, 300.4
    ppi on our card) is 298.2 ppi once DriveThruCards' trim scales the card 100.8 %: said
    as it is, not rounded up to the 300 the shop asks."""
    from PIL import Image

    from cardgen.render.art import prepare_art, resolution_findings

    path = tmp_path / "art.png"
    Image.new("RGB", (745, 497), (120, 90, 60)).save(path)
    art = prepare_art(path, 63, 42)
    assert resolution_findings(art, 300, path, "c") == []  # 300.4 ppi on our card
    (found,) = resolution_findings(art, 300, path, "c", scale=63.5 / 63, where="print-shop.pdf")
    assert "298.2 ppi at print-shop.pdf's size (scaled 100.8 %)" in found.message
    assert "at least 750 px wide" in found.hint
