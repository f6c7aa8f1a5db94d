"""Card art: load an image safely, fit it (never crop) in the 3:2 art box, scale it once to
print resolution, cache it by content hash, and report its resolution at print size.

Pillow's decompression-bomb limit stays on; a malformed, truncated or oversized image is a
:class:`CardgenError` naming the file.
"""

from __future__ import annotations

import hashlib
import io
import math
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from PIL import Image, ImageCms, UnidentifiedImageError
from reportlab.lib.colors import Color
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from ..data.memo import Memo
from ..errors import CardgenError, Finding, Location, error, warning
from .colour import blend, hex_colour, lighter

MM_PER_INCH = 25.4

#: The formats art is opened as, by its content: PNG and JPEG (what art/README.md asks
#: for) and TIFF (16-bit greyscale scans). Never Pillow's other plugins: its EPS plugin
#: runs Ghostscript on the file, so a PostScript loop saved as a .png would hang a build.
ART_FORMATS = ("PNG", "JPEG", "TIFF")
#: The formats of art once prepared (:class:`PreparedArt`), what its derived images open.
PREPARED_FORMATS = ("PNG", "JPEG")
#: The first bytes of an EPS file with a binary (DOS) header.
_EPS_BINARY = b"\xc5\xd0\xd3\xc6"


@dataclass(frozen=True)
class PreparedArt:
    """An image ready to place: its bytes at print resolution and where it goes in the box."""

    data: bytes  # PNG (lossless) or JPEG (photographs) at print resolution
    digest: str  # sha256 of the source file
    w_mm: float  # placed size, fitted inside the box
    h_mm: float
    ppi: float  # source pixels per inch at the placed size
    pixels: tuple[int, int]  # source size

    def reader(self) -> ImageReader:
        return ImageReader(io.BytesIO(self.data))


#: Prepared art and its derived images kept per process: a deck's art several times over.
ART_MEMO = 1024
_CACHE: Memo[tuple[str, float, float, int], PreparedArt] = Memo(ART_MEMO)
_BLEED_CACHE: Memo[tuple[str, float, float, tuple[float, ...]], bytes] = Memo(ART_MEMO)


_FLAT_CACHE: Memo[tuple[str, tuple[int, int, int]], bytes] = Memo(ART_MEMO)
_TINT_CACHE: Memo[tuple[str, tuple[int, int, int], float], bytes] = Memo(ART_MEMO)


def srgb(img: Image.Image) -> Image.Image:
    """``img`` in sRGB: an image tagged with another RGB profile converted by LittleCMS
    (mixing it with a colour of the card, an sRGB colour, needs one colour space); CMYK art
    as Pillow converts it (what an RGB file and the screen show of it)."""
    if img.mode == "CMYK":
        return img.convert("RGB")
    icc = img.info.get("icc_profile")
    if not icc or img.mode not in ("RGB", "RGBA"):
        return img
    try:
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    except (OSError, ImageCms.PyCMSError):
        return img
    if source.profile.xcolor_space.strip() != "RGB":
        return img
    mode = img.mode
    # a new image: None only when converting in place
    out = cast(Image.Image, ImageCms.profileToProfile(img.convert("RGB"), source,
                                                      ImageCms.createProfile("sRGB"),
                                                      outputMode="RGB"))
    if mode == "RGBA":
        out.putalpha(img.getchannel("A"))
    return out


def tinted(data: bytes, colour: tuple[int, int, int], alpha: float) -> bytes:
    """An (opaque) image with ``colour`` laid over it at ``alpha``: what a see-through panel
    over the picture looks like, as pixels (so the panel itself can be opaque)."""
    key = (hashlib.sha256(data).hexdigest(), colour, round(alpha, 4))
    if key not in _TINT_CACHE:
        with Image.open(io.BytesIO(data), formats=PREPARED_FORMATS) as src:
            rgb = srgb(src).convert("RGB")
        mixed = Image.blend(rgb, Image.new("RGB", rgb.size, colour), alpha)
        buf = io.BytesIO()
        mixed.save(buf, "PNG", optimize=False)
        _TINT_CACHE[key] = buf.getvalue()
    return _TINT_CACHE[key]


def flattened(data: bytes, behind: tuple[int, int, int]) -> bytes:
    """An image with transparency composited on the colour actually behind it (so no
    soft mask reaches a print file); images without transparency are returned as they are."""
    key = (hashlib.sha256(data).hexdigest(), behind)
    if key not in _FLAT_CACHE:
        with Image.open(io.BytesIO(data), formats=PREPARED_FORMATS) as src:
            if src.mode not in ("RGBA", "LA", "PA") and "transparency" not in src.info:
                _FLAT_CACHE[key] = data
                return data
            rgba = srgb(src).convert("RGBA")
        flat = Image.alpha_composite(Image.new("RGBA", rgba.size, (*behind, 255)), rgba)
        buf = io.BytesIO()
        flat.convert("RGB").save(buf, "PNG", optimize=False)
        _FLAT_CACHE[key] = buf.getvalue()
    return _FLAT_CACHE[key]


def mirrored_bleed(art: PreparedArt, bleed_mm: tuple[float, float, float, float]) -> bytes:
    """``art`` grown by (left, right, top, bottom) mm of its own edge, mirrored: bleed that
    is real picture (a cut that drifts shows more of it), not a stretched edge row."""
    key = (art.digest, round(art.w_mm, 3), round(art.h_mm, 3), tuple(round(b, 3) for b in bleed_mm))
    if key in _BLEED_CACHE:
        return _BLEED_CACHE[key]
    with Image.open(io.BytesIO(art.data), formats=PREPARED_FORMATS) as src:
        img = src.copy()
        icc = src.info.get("icc_profile")
    px_per_mm = img.width / art.w_mm
    left, right, top, bottom = (min(round(b * px_per_mm), n) for b, n in zip(
        bleed_mm, (img.width, img.width, img.height, img.height), strict=True))
    wide = Image.new(img.mode, (img.width + left + right, img.height))
    wide.paste(img, (left, 0))
    flip_lr, flip_tb = Image.Transpose.FLIP_LEFT_RIGHT, Image.Transpose.FLIP_TOP_BOTTOM
    if left:
        wide.paste(img.crop((0, 0, left, img.height)).transpose(flip_lr), (0, 0))
    if right:
        wide.paste(img.crop((img.width - right, 0, img.width, img.height)).transpose(flip_lr),
                   (left + img.width, 0))
    out = Image.new(img.mode, (wide.width, img.height + top + bottom))
    out.paste(wide, (0, top))
    if top:
        out.paste(wide.crop((0, 0, wide.width, top)).transpose(flip_tb), (0, 0))
    if bottom:
        out.paste(wide.crop((0, img.height - bottom, wide.width, img.height)).transpose(flip_tb),
                  (0, top + img.height))
    buf = io.BytesIO()
    keep = {"icc_profile": icc} if icc else {}
    if out.mode in ("RGBA", "LA"):
        out.save(buf, "PNG", optimize=False, **keep)
    else:
        out.save(buf, "JPEG", quality=92, subsampling=0, optimize=False, **keep)
    _BLEED_CACHE[key] = buf.getvalue()
    return _BLEED_CACHE[key]


def fitted_size(img_w: int, img_h: int, box_w: float, box_h: float) -> tuple[float, float]:
    """The largest size with the image's proportions that fits in the box (no cropping)."""
    scale = min(box_w / img_w, box_h / img_h)
    return img_w * scale, img_h * scale


def prepare_art(path: Path, box_w_mm: float, box_h_mm: float, *, ppi: int = 300,
                card: str | None = None) -> PreparedArt:
    """Load and fit one image; cached in-process by (content hash, box, ppi)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CardgenError(error("art-read", f"cannot read art file: {exc.strerror}",
                                 location=Location(str(path)), card=card)) from None
    digest = hashlib.sha256(raw).hexdigest()
    key = (digest, round(box_w_mm, 3), round(box_h_mm, 3), ppi)
    if key in _CACHE:
        return _CACHE[key]
    img = _open(raw, path, card)
    w_mm, h_mm = fitted_size(img.width, img.height, box_w_mm, box_h_mm)
    source_ppi = img.width / (w_mm / MM_PER_INCH)
    # at least ``ppi`` as placed: 63 mm at 300 ppi is 744.09 px, so 745 (744 is 299.97 ppi,
    # which a print shop's preflight warns about)
    target = (min_pixels(w_mm, ppi), min_pixels(h_mm, ppi))
    source_px = (img.width, img.height)
    has_alpha = img.mode in ("RGBA", "LA", "PA") or "transparency" in img.info
    icc = img.info.get("icc_profile") or None  # converted from it, never as if sRGB
    grey = img.mode in _GREY_MODES
    # CMYK art keeps its inks: a CMYK file prints them (render.cmyk), never separated
    # again from an RGB guess at them; an RGB file converts it where it is drawn (srgb)
    cmyk = img.mode == "CMYK" and not has_alpha
    try:
        img = _eight_bit(img).convert(("LA" if has_alpha else "L") if grey else "CMYK" if cmyk
                                      else "RGBA" if has_alpha else "RGB")
    except (ValueError, OSError) as exc:
        raise CardgenError(error(
            "art-invalid", f"image mode {img.mode} cannot be printed: {exc}",
            location=Location(str(path)), card=card,
            hint="save the art as 8-bit RGB or greyscale PNG or JPEG")) from None
    if img.width > target[0]:  # only ever scale down; upscaling invents no detail
        img = img.resize(target, Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    keep = {"icc_profile": icc} if icc and not grey else {}
    if has_alpha:
        img.save(buf, "PNG", optimize=False, **keep)
    else:
        img.save(buf, "JPEG", quality=92, subsampling=0, optimize=False, **keep)
    art = PreparedArt(buf.getvalue(), digest, w_mm, h_mm, source_ppi, source_px)
    _CACHE[key] = art
    return art


#: Greyscale modes: such art stays greyscale (black ink only in a CMYK file).
_GREY_MODES = ("1", "L", "LA", "I;16", "I;16L", "I;16B", "I;16N", "I", "F")


#: Greyscale modes wider than 8 bits. Pillow's convert("RGB") clips them at 255, so a
#: 16-bit mid-grey would print white; they are scaled to 8 bits first.
_WIDE_GREY = ("I;16", "I;16L", "I;16B", "I;16N", "I", "F")


def _eight_bit(img: Image.Image) -> Image.Image:
    """``img`` with 16-bit, 32-bit and float greyscale scaled to 8-bit "L"; other modes as
    they are (Pillow converts 1, L, LA, P, CMYK … to RGB correctly).

    16-bit modes are divided by 256. A 32-bit "I" image is taken as 16-bit when a value
    exceeds 255 (PNG and TIFF greyscale), else as 8-bit; a float "F" image as 0-1 when no
    value exceeds 1, else as 0-255."""
    if img.mode not in _WIDE_GREY:
        return img
    if img.mode == "F":
        high = cast("tuple[float, float]", img.getextrema())[1]  # one band: (low, high)
        scale = 255.0 if high <= 1.0 else 1.0
        return img.point(lambda v: v * scale).convert("L")
    wide = img.convert("I")
    high = cast("tuple[int, int]", wide.getextrema())[1]  # one band: (low, high)
    scale = 1 / 256 if img.mode != "I" or high > 255 else 1.0
    return wide.point(lambda v: v * scale).convert("L")


def _open(raw: bytes, path: Path, card: str | None) -> Image.Image:
    def fail(message: str, hint: str | None = None) -> CardgenError:
        return CardgenError(error("art-invalid", message, location=Location(str(path)),
                                  card=card, hint=hint))

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(raw), formats=ART_FORMATS)
            img.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise fail(f"image is too large to load safely: {exc}",
                   "scale the image down to about 2000 pixels wide") from None
    except UnidentifiedImageError:
        kind = "a PostScript (EPS) file" if raw.lstrip()[:2] == b"%!" or raw[:4] == _EPS_BINARY \
            else "not a PNG or JPEG image"
        raise fail(f"{kind}: art is read as PNG or JPEG only (its content decides, not the "
                   f"name {path.suffix or 'without a suffix'})",
                   "save the art as PNG or JPEG (e.g. export it again from the drawing "
                   "program)") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise fail(f"image is damaged or truncated: {exc}", "export the image again") from None
    return img


def min_pixels(mm: float, ppi: float) -> int:
    """The fewest pixels that print ``mm`` at ``ppi`` or more: 745 for 63 mm at 300 ppi
    (744 is 299.97 ppi, below what a print shop's preflight asks). ``art/README.md``
    states this minimum for the art box (tests/test_art_template.py holds it to it)."""
    return max(1, math.ceil(mm / MM_PER_INCH * ppi - 1e-6))


def ppi_text(ppi: float) -> str:
    """A resolution as what it is, never rounded up: whole when it is whole, else cut to a
    tenth (299.97 ppi is 299.9, never 300; 297.6 never 298)."""
    whole = round(ppi)
    return f"{whole}" if abs(ppi - whole) < 0.005 else f"{math.floor(ppi * 10) / 10:.1f}"


def resolution_findings(art: PreparedArt, min_ppi: float, path: Path, card: str | None,
                        lang: str | None = None, scale: float = 1.0, where: str = ""
                        ) -> list[Finding]:
    """A warning when the art is below ``min_ppi`` at its printed size: the layout's, or
    ``scale`` times it (a print shop's trim; ``where`` names that file)."""
    ppi = art.ppi / scale
    need = min_pixels(art.w_mm * scale, min_ppi)
    if art.pixels[0] >= need:
        return []
    size = ("print size" if scale == 1 else
            f"{where}'s size (scaled {scale * 100:.1f} %)")
    return [warning("art-low-resolution",
                    f"art is {ppi_text(ppi)} ppi at {size} ({art.pixels[0]}×{art.pixels[1]} px "
                    f"over {art.w_mm * scale:.1f} mm); {min_ppi:g} ppi wanted",
                    location=Location(str(path)), card=card, lang=lang,
                    hint=f"use an image at least {need} px wide")]


#: Draws an emblem fitted in the box (x, y, w, h), points.
Emblem = Callable[[Canvas, float, float, float, float], None]


@dataclass(frozen=True)
class PlaceholderStyle:
    """The stand-in art's look (``art.placeholder`` in layouts/card.yaml)."""

    ground_mix: float = 0.16
    emblem_height: float = 0.42
    emblem_centre: float = 0.53
    name_base: float = 0.19
    name_width: float = 0.6

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> PlaceholderStyle:
        return cls(**{k: float(data[k]) for k in cls.__dataclass_fields__ if k in data})


def draw_placeholder(c: Canvas, x: float, y: float, w: float, h: float, *, colour: str,
                     light: str, name: str, font: str, size: float,
                     style: PlaceholderStyle = PlaceholderStyle(), emblem: Emblem | None = None,
                     area: tuple[float, float, float, float] | None = None,
                     tint: tuple[Color, float] | None = None) -> None:
    """Stand-in art that helps play until there is a picture: the card's emblem large
    (its shield, its house's arms or its kind's glyph) on a ground washed with the house
    colour, and the card's name under it; laid out for the box (x, y, w, h) and painted
    over ``area`` (default the box), so the bleed continues the ground.

    With ``tint`` (colour, alpha: a see-through panel lies over this part) only the ground
    is drawn, pre-mixed and opaque: the emblem and the name sit clear of the panels."""

    def ink(colour_: Color) -> Color:
        return blend(tint[0], tint[1], colour_) if tint else colour_

    ax, ay, aw, ah = area or (x, y, w, h)
    top = blend(hex_colour(colour), style.ground_mix, lighter(light, 0.25))
    bottom = blend(hex_colour(colour), style.ground_mix * 1.6, hex_colour(light))
    c.saveState()
    p = c.beginPath()
    p.rect(ax, ay, aw, ah)
    c.clipPath(p, stroke=0, fill=0)
    c.linearGradient(x, y + h, x, y, (ink(top), ink(bottom)), (0, 1), extend=True)
    if tint is None:
        eh = h * style.emblem_height
        if emblem is not None:
            emblem(c, x + (w - eh) / 2, y + h * style.emblem_centre - eh / 2, eh, eh)
        c.setFillColor(blend(hex_colour(colour), 0.85, bottom))
        c.setFont(font, size)
        text_w = c.stringWidth(name, font, size)
        scale = min(1.0, (w * style.name_width) / text_w) if text_w else 1.0
        c.translate(x + w / 2, y + h * style.name_base)
        c.scale(scale, scale)
        c.drawCentredString(0, 0, name.replace("\u00a0", " "))
    c.restoreState()
