"""Print-shop files: one card per page with the profile's bleed, or one PNG per card.

Pages carry a TrimBox (the profile's trim) and a BleedBox (the whole page). A profile whose
trim differs from the layout's card (DriveThruCards' 2.5 × 3.5 in against 63 × 88 mm) gets
the card scaled about its centre to fill that trim; the card is drawn with enough bleed of
its own (:func:`drawing_bleed`) that the scaled drawing covers the profile's bleed with real
artwork. :func:`profile_findings` says what scaling does and refuses what it cannot do.
"""

from __future__ import annotations

import io
import math
import tempfile
from collections.abc import Sequence
from pathlib import Path

from PIL import Image
from reportlab.lib.units import mm

from ..errors import CardgenError, Finding, Severity, error, warning
from ..files import tools
from ..render.cmyk import CmykConverter, converter_for
from ..wording.face import CardFace
from .canvas import CardForms, DrawBack, DrawFront, FormSource, PrintCanvas, converter
from .geometry import CardSize
from .sheets import _check_faces, physical_cards
from .spec import Profile


def drawing_bleed(profile: Profile, card: CardSize) -> float:
    """Bleed (mm, 0.01 steps) the card must be drawn with so that, scaled to the profile's
    trim, it still covers the profile's bleed; never less than the layout's own."""
    sx, sy = profile.scale(card.width, card.height)
    need = math.ceil(profile.bleed / min(sx, sy) * 100 - 1e-6) / 100
    return max(card.bleed, need)


def profile_findings(profile: Profile, card: CardSize, safe: float | None = None
                     ) -> list[Finding]:
    """What using ``profile`` does to cards of ``card``'s size drawn with ``card.bleed``
    and a ``safe`` margin (mm): errors when the card cannot be fitted."""
    out: list[Finding] = []
    sx, sy = profile.scale(card.width, card.height)
    where = profile.loc
    if abs(sx / sy - 1) > profile.max_aspect_change + 1e-9:
        out.append(error(
            "profile-card-size",
            f"profile '{profile.id}' is for {profile.card_width:g} × {profile.card_height:g} mm "
            f"cards, the layout's are {card.width:g} × {card.height:g} mm: scaling would "
            f"distort the card by {abs(sx / sy - 1) * 100:.1f} %", location=where,
            hint="lay the card out for that size in layouts/card.yaml, or fix the profile's "
            "'card:'"))
    elif abs(sx - 1) > 1e-6 or abs(sy - 1) > 1e-6:
        out.append(warning(
            "profile-scaled",
            f"profile '{profile.id}': cards scaled {sx * 100:.1f} % × {sy * 100:.1f} % about "
            f"their centre to the shop's {profile.card_width:g} × {profile.card_height:g} mm "
            "trim", location=where))
    if safe is not None and min(safe * sx, safe * sy) < profile.min_safe - 1e-9:
        out.append(error(
            "profile-safe-area",
            f"profile '{profile.id}': scaled to the shop's trim, text comes "
            f"{min(safe * sx, safe * sy):.2f} mm from the cut; at least {profile.min_safe:g} mm "
            "is needed", location=where, hint="raise card.safe in layouts/card.yaml"))
    if card.bleed * min(sx, sy) < profile.bleed - 1e-6:
        out.append(error(
            "profile-bleed",
            f"profile '{profile.id}' needs {profile.bleed:.3f} mm bleed; the card is drawn "
            f"with {card.bleed:g} mm", location=where,
            hint=f"draw the card with {drawing_bleed(profile, card):.2f} mm bleed"))
    return out


def colour_findings(profile: Profile, cmyk: bool) -> list[Finding]:
    """What print-shop.pdf's colour means at a press: an RGB file (``cmyk`` false, for a
    profile that prints a PDF) is said in one line, as a press prints CMYK and separates
    RGB its own way (dark text in four inks, near 290 % with an ordinary profile)."""
    if cmyk or profile.colour_space == "cmyk" or profile.page_order == "images":
        return []
    return [Finding(Severity.INFO, "press-rgb", f"print-shop.pdf ({profile.id}) is RGB, for "
                    "screens and home printers: a press prints CMYK, so build for one with "
                    "--cmyk (--icc SHOP.icc for the shop's own profile) or --pdfx",
                    location=profile.loc)]


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


def _fail_on_errors(profile: Profile, card: CardSize) -> None:
    found = [f for f in profile_findings(profile, card) if f.severity.value == "error"]
    if found:
        raise CardgenError(found)


def _place_scaled(c: PrintCanvas, name: str, card: CardSize, profile: Profile,
                  bleed: float) -> None:
    """Place form ``name`` (``card`` with its bleed) centred on a page of the profile's trim
    plus ``bleed`` on each side, scaled so its trim fills the profile's trim exactly."""
    pw, ph = profile.card_width + 2 * bleed, profile.card_height + 2 * bleed
    sx, sy = profile.scale(card.width, card.height)
    c.saveState()
    path = c.beginPath()
    path.rect(0, 0, pw * mm, ph * mm)
    c.clipPath(path, stroke=0, fill=0)
    c.translate(pw / 2 * mm, ph / 2 * mm)
    c.scale(sx, sy)
    c.translate(-card.bleed_width / 2 * mm, -card.bleed_height / 2 * mm)
    c.doForm(name)
    c.restoreState()


def shop_converter(profile: Profile, cmyk: CmykConverter | bool | None = None,
                   pdfx: bool = False) -> CmykConverter | None:
    """The colour conversion of print-shop.pdf: ``cmyk`` as given, else the profile's own
    (its ICC profile and ink limit) when it prints CMYK or ``pdfx`` asks for PDF/X."""
    if (cmyk is None and profile.colour_space == "cmyk") or (pdfx and not cmyk):
        return converter_for(profile.icc, profile.ink_limit, profile.rich_black)
    return converter(cmyk)


def build_print_shop(faces: Sequence[CardFace], draw_front: DrawFront, draw_back: DrawBack,
                     card: CardSize, profile: Profile, cmyk: CmykConverter | bool | None = None,
                     order: str | None = None, font: str | None = None,
                     pdfx: bool = False, source: FormSource | None = None) -> bytes:
    """``print-shop.pdf``: one card per page (the profile's trim + bleed), TrimBox and
    BleedBox set, pages in the profile's order. ``card`` is the size the drawers paint
    (bleed at least :func:`drawing_bleed`). ``cmyk=None`` follows the profile (its ICC
    profile and ink limit). ``pdfx`` writes PDF/X-1a:2003 (CMYK, with the OutputIntent).
    ``source``: faces drawn once with that size and :func:`shop_converter`'s colours."""
    _check_faces(faces)
    _fail_on_errors(profile, card)
    order = order or profile.page_order
    if order == "images":
        order = "fronts-then-backs"
    use_cmyk = shop_converter(profile, cmyk, pdfx)
    bleed = profile.bleed
    pw, ph = profile.card_width + 2 * bleed, profile.card_height + 2 * bleed
    buf = io.BytesIO()
    c = PrintCanvas(buf, (pw, ph), cmyk=use_cmyk, title=f"print shop: {profile.id}", font=font)
    c.set_print_preferences(None)
    if pdfx:
        assert c.cmyk is not None
        c.make_pdfx(c.cmyk)
    c.setTrimBox((bleed * mm, bleed * mm, (pw - bleed) * mm, (ph - bleed) * mm))
    c.setBleedBox((0, 0, pw * mm, ph * mm))
    forms = CardForms(c, card, draw_front, draw_back, source)
    for side, face, _copy in page_sequence(faces, order):
        name = forms.front(face) if side == "front" else forms.back()
        _place_scaled(c, name, card, profile, bleed)
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
    _fail_on_errors(profile, card)
    res = profile.resolution
    bleed_px = profile.bleed_px if profile.bleed_px is not None else round(
        profile.bleed / 25.4 * res)
    width_px = round(profile.card_width / 25.4 * res) + 2 * bleed_px
    height_px = round(profile.card_height / 25.4 * res) + 2 * bleed_px
    bleed = bleed_px * 25.4 / res
    pw, ph = profile.card_width + 2 * bleed, profile.card_height + 2 * bleed
    buf = io.BytesIO()
    c = PrintCanvas(buf, (pw, ph), cmyk=False)
    forms = CardForms(c, card, draw_front, draw_back)
    for face in faces:
        _place_scaled(c, forms.front(face), card, profile, bleed)
        c.showPage()
    _place_scaled(c, forms.back(), card, profile, bleed)
    c.showPage()
    c.save()
    names = image_names(faces)
    out: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="cardgen-png-") as tmp:
        pdf = Path(tmp) / "cards.pdf"
        pdf.write_bytes(buf.getvalue())
        ran = tools.run(tools.PDFTOPPM, ["-png", "-r", str(res), "-scale-to-x", str(width_px),
                                         "-scale-to-y", str(height_px)],
                        [pdf, Path(tmp) / "p"], needs=f"the {profile.id} card images")
        if ran.returncode != 0:
            raise CardgenError(error(
                "tool-failed", f"pdftoppm failed: {ran.last_word()}",
                hint=f"check that poppler-utils works: {tools.PDFTOPPM.probe}"))
        pages = sorted(Path(tmp).glob("p-*.png"))
        for name, page in zip(names, pages, strict=True):
            with Image.open(page, formats=("PNG",)) as im:
                png = io.BytesIO()
                im.convert("RGB").save(png, "PNG", dpi=(res, res), optimize=False)
                out[name] = png.getvalue()
    return out
