"""Print-shop files: one card per page with the profile's bleed, or one PNG per card.

Pages carry a TrimBox (the card) and a BleedBox (the whole page). When a profile asks for
more bleed than the drawer paints (DriveThruCards' 1/8 in against a 3 mm layout), the
missing band is filled with the card scaled up about its centre, clipped to that band
only, so the trim area is never touched; :func:`profile_findings` reports it.
"""

from __future__ import annotations

import io
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from PIL import Image
from reportlab.lib.units import mm

from ..errors import CardgenError, Finding, error, warning
from ..face import CardFace
from .canvas import CardForms, DrawBack, DrawFront, PrintCanvas
from .geometry import CardSize
from .sheets import _check_faces, physical_cards
from .spec import Profile

SIZE_TOLERANCE = 0.05  # mm


def profile_findings(profile: Profile, card: CardSize) -> list[Finding]:
    """Problems of using ``profile`` for cards of ``card``'s size and painted bleed."""
    out: list[Finding] = []
    if (abs(profile.card_width - card.width) > SIZE_TOLERANCE
            or abs(profile.card_height - card.height) > SIZE_TOLERANCE):
        out.append(error(
            "profile-card-size",
            f"profile '{profile.id}' is for {profile.card_width:g} × {profile.card_height:g} mm "
            f"cards, the layout's are {card.width:g} × {card.height:g} mm",
            location=profile.loc, hint="make the profile's 'card:' match layouts/card.yaml"))
    if profile.bleed > card.bleed + 1e-9:
        out.append(warning(
            "profile-bleed",
            f"profile '{profile.id}' needs {profile.bleed:.3f} mm bleed, the layout paints "
            f"{card.bleed:g} mm; the outer {profile.bleed - card.bleed:.3f} mm is filled by "
            "stretching the card edge", location=profile.loc,
            hint=f"set card.bleed to at least {profile.bleed:.2f} in layouts/card.yaml"))
    return out


def page_sequence(faces: Sequence[CardFace], order: str) -> list[tuple[str, CardFace, int]]:
    """(side, face, copy) per page, every physical card, in the profile's page order."""
    cards = physical_cards(faces)
    if order == "fronts-then-backs":
        return [("front", f, n) for f, n in cards] + [("back", f, n) for f, n in cards]
    if order == "front-back":
        return [p for f, n in cards for p in (("front", f, n), ("back", f, n))]
    if order == "back-front":
        return [p for f, n in cards for p in (("back", f, n), ("front", f, n))]
    if order == "images":
        return [("front", f, 1) for f in faces]
    raise ValueError(f"unknown page order {order!r}")


def _place_with_bleed(c: PrintCanvas, forms: CardForms, name: str, card: CardSize,
                      bleed: float) -> None:
    """Place form ``name`` on a page of trim + ``bleed`` on each side."""
    pw, ph = card.width + 2 * bleed, card.height + 2 * bleed
    extra = bleed - card.bleed
    if extra > 1e-9:  # fill the band the drawer does not paint
        sx, sy = pw / card.bleed_width, ph / card.bleed_height
        c.saveState()
        path = c.beginPath()
        path.rect(0, 0, pw * mm, ph * mm)
        path.rect(extra * mm, extra * mm, card.bleed_width * mm, card.bleed_height * mm)
        c.clipPath(path, stroke=0, fill=0, fillMode=0)  # even-odd: the band only
        c.scale(sx, sy)
        c.doForm(name)
        c.restoreState()
    c.saveState()
    if extra < 0:  # the drawer paints more bleed than the page has room for
        path = c.beginPath()
        path.rect(0, 0, pw * mm, ph * mm)
        c.clipPath(path, stroke=0, fill=0)
    c.translate(extra * mm, extra * mm)
    c.doForm(name)
    c.restoreState()


def build_print_shop(faces: Sequence[CardFace], draw_front: DrawFront, draw_back: DrawBack,
                     card: CardSize, profile: Profile, cmyk: bool | None = None,
                     order: str | None = None, font: str | None = None) -> bytes:
    """``print-shop.pdf``: one card per page (trim + the profile's bleed), TrimBox and
    BleedBox set, pages in the profile's order. ``cmyk=None`` follows the profile."""
    _check_faces(faces)
    found = [f for f in profile_findings(profile, card) if f.severity.value == "error"]
    if found:
        raise CardgenError(found)
    order = order or profile.page_order
    if order == "images":
        order = "fronts-then-backs"
    use_cmyk = profile.colour_space == "cmyk" if cmyk is None else cmyk
    bleed = profile.bleed
    pw, ph = card.width + 2 * bleed, card.height + 2 * bleed
    buf = io.BytesIO()
    c = PrintCanvas(buf, (pw, ph), cmyk=use_cmyk, title=f"print shop: {profile.id}", font=font)
    c.set_print_preferences(None)
    c.setTrimBox((bleed * mm, bleed * mm, (pw - bleed) * mm, (ph - bleed) * mm))
    c.setBleedBox((0, 0, pw * mm, ph * mm))
    forms = CardForms(c, card, draw_front, draw_back)
    for side, face, _copy in page_sequence(faces, order):
        name = forms.front(face) if side == "front" else forms.back()
        _place_with_bleed(c, forms, name, card, bleed)
        c.showPage()
    c.save()
    return buf.getvalue()


def image_names(faces: Sequence[CardFace]) -> list[str]:
    """PNG file names, in page order: one per card front, then ``back.png``."""
    width = max(3, len(str(len(faces))))
    return [f"{i:0{width}d}-{f.card_id}.png" for i, f in enumerate(faces, 1)] + ["back.png"]


def build_card_images(faces: Sequence[CardFace], draw_front: DrawFront, draw_back: DrawBack,
                      card: CardSize, profile: Profile) -> dict[str, bytes]:
    """One PNG per card front plus one back at the profile's resolution and pixel bleed
    (MakePlayingCards); returns file name → PNG bytes. Copies are in the manifest."""
    _check_faces(faces)
    found = [f for f in profile_findings(profile, card) if f.severity.value == "error"]
    if found:
        raise CardgenError(found)
    res = profile.resolution
    bleed_px = profile.bleed_px if profile.bleed_px is not None else round(
        profile.bleed / 25.4 * res)
    width_px = round(card.width / 25.4 * res) + 2 * bleed_px
    height_px = round(card.height / 25.4 * res) + 2 * bleed_px
    bleed = bleed_px * 25.4 / res
    pw, ph = card.width + 2 * bleed, card.height + 2 * bleed
    buf = io.BytesIO()
    c = PrintCanvas(buf, (pw, ph), cmyk=False)
    forms = CardForms(c, card, draw_front, draw_back)
    for face in faces:
        _place_with_bleed(c, forms, forms.front(face), card, bleed)
        c.showPage()
    _place_with_bleed(c, forms, forms.back(), card, bleed)
    c.showPage()
    c.save()
    names = image_names(faces)
    out: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="cardgen-png-") as tmp:
        pdf = Path(tmp) / "cards.pdf"
        pdf.write_bytes(buf.getvalue())
        cmd = ["pdftoppm", "-png", "-r", str(res), "-scale-to-x", str(width_px),
               "-scale-to-y", str(height_px), str(pdf), str(Path(tmp) / "p")]
        try:
            subprocess.run(cmd, check=True, capture_output=True, timeout=600)
        except (OSError, subprocess.CalledProcessError) as exc:
            raise CardgenError(error(
                "pdftoppm", f"pdftoppm failed: {exc}",
                hint="install poppler-utils (apt-get install poppler-utils)")) from None
        pages = sorted(Path(tmp).glob("p-*.png"))
        for name, page in zip(names, pages, strict=True):
            with Image.open(page) as im:
                png = io.BytesIO()
                im.convert("RGB").save(png, "PNG", dpi=(res, res), optimize=False)
                out[name] = png.getvalue()
    return out
