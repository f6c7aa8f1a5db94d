"""Card art: load an image safely, fit it (never crop) in the 3:2 art box, scale it once to
print resolution, cache it by content hash, and report its resolution at print size.

Pillow's decompression-bomb limit stays on; a malformed, truncated or oversized image is a
:class:`CardgenError` naming the file.
"""

from __future__ import annotations

import hashlib
import io
import warnings
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, UnidentifiedImageError
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from ..errors import CardgenError, Finding, Location, error, warning
from .colour import hex_colour, lighter

MM_PER_INCH = 25.4


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


_CACHE: dict[tuple[str, float, float, int], PreparedArt] = {}


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
    target = (max(1, round(w_mm / MM_PER_INCH * ppi)), max(1, round(h_mm / MM_PER_INCH * ppi)))
    source_px = (img.width, img.height)
    has_alpha = img.mode in ("RGBA", "LA", "PA") or "transparency" in img.info
    try:
        img = _eight_bit(img).convert("RGBA" if has_alpha else "RGB")
    except (ValueError, OSError) as exc:
        raise CardgenError(error(
            "art-invalid", f"image mode {img.mode} cannot be printed: {exc}",
            location=Location(str(path)), card=card,
            hint="save the art as 8-bit RGB or greyscale PNG or JPEG")) from None
    if img.width > target[0]:  # only ever scale down; upscaling invents no detail
        img = img.resize(target, Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    if has_alpha:
        img.save(buf, "PNG", optimize=False)
    else:
        img.save(buf, "JPEG", quality=92, subsampling=0, optimize=False)
    art = PreparedArt(buf.getvalue(), digest, w_mm, h_mm, source_ppi, source_px)
    _CACHE[key] = art
    return art


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
        high = img.getextrema()[1]
        scale = 255.0 if high <= 1.0 else 1.0
        return img.point(lambda v: v * scale).convert("L")
    wide = img.convert("I")
    high = wide.getextrema()[1]
    scale = 1 / 256 if img.mode != "I" or high > 255 else 1.0
    return wide.point(lambda v: v * scale).convert("L")


def _open(raw: bytes, path: Path, card: str | None) -> Image.Image:
    def fail(message: str, hint: str | None = None) -> CardgenError:
        return CardgenError(error("art-invalid", message, location=Location(str(path)),
                                  card=card, hint=hint))

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(raw))
            img.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise fail(f"image is too large to load safely: {exc}",
                   "scale the image down to about 2000 pixels wide") from None
    except UnidentifiedImageError:
        raise fail("not an image file Pillow can read",
                   "save the art as PNG or JPEG") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise fail(f"image is damaged or truncated: {exc}", "export the image again") from None
    return img


def resolution_findings(art: PreparedArt, min_ppi: int, path: Path, card: str | None,
                        lang: str | None = None) -> list[Finding]:
    """A warning when the art is below ``min_ppi`` at its printed size."""
    if art.ppi + 0.5 >= min_ppi:
        return []
    need = round(art.w_mm / MM_PER_INCH * min_ppi)
    return [warning("art-low-resolution",
                    f"art is {art.ppi:.0f} ppi at print size ({art.pixels[0]}×{art.pixels[1]} px "
                    f"over {art.w_mm:.1f} mm); {min_ppi} ppi wanted",
                    location=Location(str(path)), card=card, lang=lang,
                    hint=f"use an image at least {need} px wide")]


def draw_placeholder(c: Canvas, x: float, y: float, w: float, h: float, *, colour: str,
                     light: str, name: str, font: str, size: float) -> None:
    """Stand-in art: diagonal bands in the side's colours with the card's name."""
    c.saveState()
    p = c.beginPath()
    p.rect(x, y, w, h)
    c.clipPath(p, stroke=0, fill=0)
    c.linearGradient(x, y + h, x + w, y, (lighter(light, 0.2), hex_colour(light)), (0, 1),
                     extend=True)
    c.setFillColor(hex_colour(colour, 0.13))
    band = h / 5
    k = -h
    while k < w + h:
        q = c.beginPath()
        q.moveTo(x + k, y)
        q.lineTo(x + k + band, y)
        q.lineTo(x + k + band + h, y + h)
        q.lineTo(x + k + h, y + h)
        q.close()
        c.drawPath(q, fill=1, stroke=0)
        k += 2 * band
    c.setFillColor(hex_colour(colour, 0.75))
    c.setFont(font, size)
    text_w = c.stringWidth(name, font, size)
    scale = min(1.0, (w * 0.86) / text_w) if text_w else 1.0
    c.translate(x + w / 2, y + h * 0.47)
    c.scale(scale, scale)
    c.drawCentredString(0, 0, name)
    c.restoreState()
