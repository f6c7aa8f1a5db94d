"""Managed CMYK: colours and images go through an ICC output profile with LittleCMS
(Pillow's ImageCms), not a formula.

* Neutral colours (greys) and near-black inks (dark, barely tinted: the text colours)
  become black ink only, so text and thin lines never need four plates in register.
* Every other colour and every image is converted sRGB → the profile, relative
  colorimetric with black-point compensation; the profile brings its own black
  generation. A colour whose total ink would pass ``ink_limit`` has its C, M and Y scaled
  down (K kept); images keep the profile's own limit (the shipped profiles are built with
  it, see ``cardgen/icc/README.md``).
* :class:`CmykCanvas` is a ReportLab canvas that applies a converter to every colour,
  gradient and image drawn on it (and gives its forms complete resources).
"""

from __future__ import annotations

import functools
import hashlib
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image, ImageCms
from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfdoc import PDFResourceDictionary
from reportlab.pdfgen.canvas import Canvas

from ..errors import CardgenError, Location, error
from ..files.oserrors import read_input
from .pdfpage import speed_up_last_page

ICC_DIR = Path(__file__).resolve().parent.parent / "icc"
DEFAULT_ICC = ICC_DIR / "cardgen-fogra39-300.icc"
DEFAULT_INK_LIMIT = 300.0
#: Channels closer than this (0–1) count as a neutral colour, printed with black ink only.
NEUTRAL_CHROMA = 10 / 255
#: Darker than this and tinted no more than DARK_CHROMA: a text ink, black ink only.
DARK_LUMINANCE = 0.2
DARK_CHROMA = 0.08


#: The largest ICC profile read (print shops' profiles are a few MB).
MAX_ICC = 32 * 1024 * 1024


class CmykConverter:
    """sRGB → CMYK through one ICC output profile, with a total ink limit (percent)."""

    def __init__(self, icc: Path = DEFAULT_ICC, ink_limit: float = DEFAULT_INK_LIMIT):
        self.icc = Path(icc)
        self.ink_limit = float(ink_limit)
        raw = read_input(self.icc, str(icc), limit=MAX_ICC)  # regular files, capped size
        try:
            profile = ImageCms.ImageCmsProfile(io.BytesIO(raw))
        except (OSError, ImageCms.PyCMSError) as exc:
            raise CardgenError(error("icc-profile", f"cannot read ICC profile: {exc}",
                                     location=Location(str(icc)),
                                     hint="pass a CMYK output profile (.icc) with --icc")) from None
        if profile.profile.xcolor_space.strip() != "CMYK":
            raise CardgenError(error(
                "icc-profile", f"{self.icc.name} is a {profile.profile.xcolor_space.strip()} "
                "profile, not a CMYK output profile", location=Location(str(icc)),
                hint="ask the print shop for its CMYK profile (.icc)"))
        self.raw = raw
        self.description = ImageCms.getProfileDescription(profile).strip()
        self._transform = ImageCms.buildTransform(
            ImageCms.createProfile("sRGB"), profile, "RGB", "CMYK",
            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
            flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
        self._colours: dict[tuple[float, float, float], tuple[float, float, float, float]] = {}

    @property
    def key(self) -> str:
        """What converted output depends on: the profile's bytes and the ink limit."""
        return hashlib.sha256(self.raw + repr(self.ink_limit).encode()).hexdigest()[:16]

    def _cmyk(self, r: float, g: float, b: float) -> tuple[float, float, float, float]:
        key = (round(r, 4), round(g, 4), round(b, 4))
        if key not in self._colours:
            chroma, lum = max(r, g, b) - min(r, g, b), 0.2126 * r + 0.7152 * g + 0.0722 * b
            if chroma <= NEUTRAL_CHROMA or (lum < DARK_LUMINANCE and chroma <= DARK_CHROMA):
                k = 1 - lum
                self._colours[key] = (0.0, 0.0, 0.0, round(k, 4))
            else:
                px = Image.new("RGB", (1, 1), tuple(round(v * 255) for v in (r, g, b)))
                c, m, y, k = (v / 255 for v in ImageCms.applyTransform(px, self._transform)
                              .getpixel((0, 0)))
                limit = self.ink_limit / 100
                if c + m + y + k > limit:
                    scale = max(0.0, limit - k) / (c + m + y)
                    c, m, y = c * scale, m * scale, y * scale
                self._colours[key] = tuple(round(v, 4) for v in (c, m, y, k))  # type: ignore[assignment]
        return self._colours[key]

    def colour(self, colour: Any) -> CMYKColor:
        """Any ReportLab colour (``#rrggbb``, RGB tuple, Color) as CMYK; alpha is kept."""
        if isinstance(colour, (tuple, list)) and len(colour) == 4:
            return CMYKColor(*colour)
        if isinstance(colour, (tuple, list)) and len(colour) == 3:
            colour = Color(*colour)
        tc = toColor(colour) if not isinstance(colour, Color) else colour
        if isinstance(tc, CMYKColor):
            out = tc.clone()
            out.__class__ = CMYKColor
            return out
        return CMYKColor(*self._cmyk(tc.red, tc.green, tc.blue), alpha=getattr(tc, "alpha", 1))

    def image(self, pil: Image.Image, behind: tuple[int, int, int] = (255, 255, 255)
              ) -> Image.Image:
        """``pil`` as a CMYK image; transparency is flattened on ``behind`` first."""
        if pil.mode == "CMYK":
            return pil
        if pil.mode in ("RGBA", "LA", "PA") or (pil.mode == "P" and "transparency" in pil.info):
            rgba = pil.convert("RGBA")
            pil = Image.alpha_composite(Image.new("RGBA", rgba.size, (*behind, 255)), rgba)
        return ImageCms.applyTransform(pil.convert("RGB"), self._transform)


@functools.cache
def default_converter() -> CmykConverter:
    """The shipped FOGRA39-based profile at 300 % total ink."""
    return CmykConverter(DEFAULT_ICC, DEFAULT_INK_LIMIT)


@functools.cache
def converter_for(icc: Path | None, ink_limit: float = DEFAULT_INK_LIMIT) -> CmykConverter:
    """The converter for ``icc`` (a user's profile) or, without one, the shipped profile
    built for the ink limit (240 % or 300 %)."""
    if icc is None:
        icc = ICC_DIR / "cardgen-fogra39-240.icc" if ink_limit <= 240 else DEFAULT_ICC
    return CmykConverter(icc, ink_limit)


def _pil(image: Any) -> Image.Image:
    if isinstance(image, ImageReader):
        pil = getattr(image, "_image", None)
        if pil is not None:
            return pil
        name = getattr(image, "fileName", None)
        if isinstance(name, (str, Path)):
            return Image.open(name)
        image.fp.seek(0)
        return Image.open(io.BytesIO(image.fp.read()))
    if isinstance(image, Image.Image):
        return image
    return Image.open(Path(image))


def form_resources(canvas: Canvas) -> PDFResourceDictionary:
    """The resource dictionary a page of ``canvas`` would get, for a form XObject: its
    fonts, forms, transparency states, gradients and colour spaces."""
    res = PDFResourceDictionary()
    res.basicFonts()
    res.allProcs()
    if canvas._formsinuse:
        res.XObject = canvas._doc.xobjDict(canvas._formsinuse)
    states = canvas._extgstate.getState()
    if states:
        res.ExtGState = states
    res.setShading(canvas._shadingUsed)
    res.setColorSpace(canvas._colorsUsed)
    return res


class CmykCanvas(Canvas):
    """A ReportLab canvas whose colours, gradients and images all go through ``cmyk``
    (when given); otherwise a plain canvas."""

    def __init__(self, *args: Any, cmyk: CmykConverter | None = None, **kwargs: Any):
        if cmyk is not None:
            kwargs["enforceColorSpace"] = cmyk.colour
        super().__init__(*args, **kwargs)
        self.cmyk = cmyk
        #: id(original) -> (original, CMYK reader); the original is kept so ids stay unique
        self._cmyk_images: dict[int, tuple[Any, ImageReader]] = {}

    def drawImage(self, image: Any, *args: Any, **kwargs: Any) -> Any:
        if self.cmyk is not None:
            key = id(image)
            if key not in self._cmyk_images:
                self._cmyk_images[key] = (image, ImageReader(self.cmyk.image(_pil(image))))
            image = self._cmyk_images[key][1]
            if kwargs.get("mask") == "auto":
                kwargs["mask"] = None
        return super().drawImage(image, *args, **kwargs)

    def showPage(self) -> None:
        super().showPage()
        speed_up_last_page(self._doc)  # every file's pages, written quickly (issue 14)

    def endForm(self, **extra_attributes: Any) -> None:
        """Close a form with complete resources.

        ReportLab's form XObjects list only fonts and XObjects, so transparency (ExtGState),
        gradients (Shading) and separation colours drawn inside a form would be lost; this
        gives the form the same resource dictionary a page gets.
        """
        super().endForm(Resources=form_resources(self), **extra_attributes)

    def linearGradient(self, x0, y0, x1, y1, colors, positions=None, extend=True):
        if self.cmyk is not None:
            colors = [self.cmyk.colour(col) for col in colors]
        return super().linearGradient(x0, y0, x1, y1, colors, positions, extend)

    def radialGradient(self, x, y, radius, colors, positions=None, extend=True):
        if self.cmyk is not None:
            colors = [self.cmyk.colour(col) for col in colors]
        return super().radialGradient(x, y, radius, colors, positions, extend)


def canvas_maker(cmyk: CmykConverter | None) -> Callable[..., Canvas]:
    """A ``canvasmaker`` for platypus documents (the glossary)."""
    return functools.partial(CmykCanvas, cmyk=cmyk)
