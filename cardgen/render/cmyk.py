"""Managed CMYK: colours and images go through an ICC output profile with LittleCMS
(Pillow's ImageCms), not a formula.

* Dark, barely tinted inks (the text colours, thin rules) are solid black ink, 0/0/0/100,
  so text and thin lines never need four plates in register; a fill in such an ink larger
  than ``rich_black.min_size_mm`` (``layouts/profiles.yaml``) gets the rich black instead.
* Other neutral colours (greys) and greyscale images are black ink only, by the profile's
  own black curve (LittleCMS measures it), black-point compensated: sRGB black is 100 % K.
* Every other colour and every image is converted from its ICC profile (an image's
  embedded one, sRGB when untagged) to the output profile, relative colorimetric with
  black-point compensation; the profile brings its own black generation. A colour or
  pixel whose total ink would pass ``ink_limit`` has its C, M and Y scaled down (K kept).
* :class:`CmykCanvas` is a ReportLab canvas that applies a converter to every colour,
  gradient and image drawn on it (and gives its forms complete resources).
"""

from __future__ import annotations

import functools
import hashlib
import io
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from PIL import Image, ImageChops, ImageCms, ImageMath
from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfdoc import PDFResourceDictionary
from reportlab.pdfgen.canvas import Canvas

from ..data.memo import Memo
from ..errors import CardgenError, Location, error
from ..files.oserrors import read_input
from .art import ART_MEMO, PREPARED_FORMATS, srgb, tinted
from .pdfid import with_content_id
from .pdfpage import speed_up_last_page

ICC_DIR = Path(__file__).resolve().parent.parent / "icc"
DEFAULT_ICC = ICC_DIR / "cardgen-fogra39-300.icc"
DEFAULT_INK_LIMIT = 300.0
#: Channels closer than this (0–1) count as a neutral colour, printed with black ink only.
NEUTRAL_CHROMA = 10 / 255
#: Darker than this and tinted no more than DARK_CHROMA: a text ink, solid black ink.
DARK_LUMINANCE = 0.2
DARK_CHROMA = 0.08
TEXT_BLACK = (0.0, 0.0, 0.0, 1.0)
#: ICC device classes a CMYK output profile may have (ICC.1 7.2.5): output, and the
#: colour-space class some RIP vendors use for press conditions.
OUTPUT_CLASSES = {"prtr": "output", "spac": "colour space"}
CLASS_NAMES = {"scnr": "an input (scanner) profile", "mntr": "a display profile",
               "link": "a device link", "abst": "an abstract profile",
               "nmcl": "a named-colour profile"}


@dataclass(frozen=True)
class RichBlack:
    """A black fill at least ``min_size_mm`` on both sides prints as ``cmyk`` (0–1 each):
    solid K alone looks grey over a large area (layouts/profiles.yaml ``rich_black``)."""

    cmyk: tuple[float, float, float, float] = (0.4, 0.3, 0.3, 1.0)
    min_size_mm: float = 25.0


def _icc_problem(raw: bytes) -> str | None:
    """Why ``raw`` is not an ICC profile at all, or None when it has the ICC header."""
    if len(raw) < 128 or raw[36:40] != b"acsp":
        return "not an ICC profile (no 'acsp' signature in its header)"
    return None


def apply_transform(transform: ImageCms.ImageCmsTransform, img: Image.Image) -> Image.Image:
    """``img`` through ``transform``. Pillow's own ``applyTransform`` also writes the output
    profile back into the image, which LittleCMS cannot serialise for some valid ICC v4
    profiles ("Could not determine profile size"); the pixels are all we need."""
    out = Image.new(transform.output_mode, img.size)
    transform.transform.apply(img.getim(), out.getim())
    return out


def _limit_ink(img: Image.Image, limit: float) -> Image.Image:
    """A CMYK image with C, M and Y scaled down wherever C+M+Y+K passes ``limit`` (0–1)."""
    top = limit * 255
    c, m, y, k = img.split()
    total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"],
                                  c=c, m=m, y=y, k=k)
    if total.getextrema()[1] <= top:
        return img
    bands = [ImageMath.lambda_eval(
        lambda a: a["min"](a["v"], a["v"] * a["max"](top - a["k"], 0.0)
                           / a["max"](a["c"] + a["m"] + a["y"], 1.0)),
        v=band.convert("F"), c=c.convert("F"), m=m.convert("F"), y=y.convert("F"),
        k=k.convert("F")).convert("L") for band in (c, m, y)]
    return Image.merge("CMYK", (*bands, k))


#: The largest ICC profile read (print shops' profiles are a few MB).
MAX_ICC = 32 * 1024 * 1024


class CmykConverter:
    """sRGB (or an image's own profile) → CMYK through one ICC output profile, with a
    total ink limit (percent)."""

    def __init__(self, icc: Path = DEFAULT_ICC, ink_limit: float = DEFAULT_INK_LIMIT,
                 rich_black: RichBlack | None = None):
        self.icc = Path(icc)
        self.ink_limit = float(ink_limit)
        self.rich_black = rich_black or RichBlack()
        hint = "pass a CMYK output profile (.icc, ICC v2 or v4) with --icc"

        def fail(message: str) -> CardgenError:
            return CardgenError(error("icc-profile", message, location=Location(str(icc)),
                                      hint=hint))

        raw = read_input(self.icc, str(icc), limit=MAX_ICC)  # regular files, capped size
        problem = _icc_problem(raw)
        if problem is not None:
            raise fail(f"{self.icc.name} is {problem}")
        try:
            profile = ImageCms.ImageCmsProfile(io.BytesIO(raw))
        except (OSError, ImageCms.PyCMSError) as exc:
            raise fail(f"LittleCMS cannot read {self.icc.name} as an ICC profile: {exc}") from None
        space = profile.profile.xcolor_space.strip()
        kind = profile.profile.device_class
        if space != "CMYK":
            raise CardgenError(error(
                "icc-profile", f"{self.icc.name} is a {space} profile, not a CMYK output "
                "profile", location=Location(str(icc)),
                hint="ask the print shop for its CMYK profile (.icc)"))
        if kind not in OUTPUT_CLASSES:
            raise fail(f"{self.icc.name} is {CLASS_NAMES.get(kind, repr(kind))}, not a CMYK "
                       "output profile")
        self.raw = raw
        self.profile = profile
        self.description = ImageCms.getProfileDescription(profile).strip()
        self._transforms: dict[bytes, ImageCms.ImageCmsTransform] = {}
        self._cmyk_transforms: dict[bytes, ImageCms.ImageCmsTransform] = {}  # CMYK → CMYK
        self._transform = self._from(b"")
        self._k_curve = _black_curve(profile)
        self._colours: dict[tuple[float, float, float], tuple[float, float, float, float]] = {}
        self._tinted: Memo[tuple[str, tuple[int, ...], float], bytes] = Memo(ART_MEMO)

    @property
    def key(self) -> str:
        """What converted output depends on: the profile's bytes, the ink limit and the
        rich black."""
        return hashlib.sha256(self.raw + repr((self.ink_limit, self.rich_black)).encode()
                              ).hexdigest()[:16]

    def _from(self, source_icc: bytes) -> ImageCms.ImageCmsTransform:
        """The transform from ``source_icc`` (an RGB profile; b"": sRGB) to the output."""
        if source_icc not in self._transforms:
            source: ImageCms.ImageCmsProfile | ImageCms.core.CmsProfile = ImageCms.createProfile("sRGB")
            if source_icc:
                try:
                    tagged = ImageCms.ImageCmsProfile(io.BytesIO(source_icc))
                    if tagged.profile.xcolor_space.strip() == "RGB":
                        source = tagged
                except (OSError, ImageCms.PyCMSError):
                    pass  # an unreadable embedded profile: the image is taken as sRGB
            self._transforms[source_icc] = ImageCms.buildTransform(
                source, self.profile, "RGB", "CMYK",
                renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
        return self._transforms[source_icc]

    def _from_cmyk(self, source_icc: bytes) -> ImageCms.ImageCmsTransform | None:
        """The transform from another CMYK profile to the output; None for none, this
        profile itself, or one that is not a readable CMYK profile (the inks are kept)."""
        if not source_icc or source_icc == self.raw:
            return None
        if source_icc not in self._cmyk_transforms:
            try:
                tagged = ImageCms.ImageCmsProfile(io.BytesIO(source_icc))
                if tagged.profile.xcolor_space.strip() != "CMYK":
                    return None
                self._cmyk_transforms[source_icc] = ImageCms.buildTransform(
                    tagged, self.profile, "CMYK", "CMYK",
                    renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                    flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
            except (OSError, ImageCms.PyCMSError):
                return None
        return self._cmyk_transforms[source_icc]

    def black(self, grey: int) -> int:
        """The black ink (0–255) printing the sRGB grey ``grey`` (0–255), K only."""
        return self._k_curve[grey]

    def _cmyk(self, r: float, g: float, b: float) -> tuple[float, float, float, float]:
        key = (round(r, 4), round(g, 4), round(b, 4))
        if key not in self._colours:
            chroma, lum = max(r, g, b) - min(r, g, b), 0.2126 * r + 0.7152 * g + 0.0722 * b
            if lum < DARK_LUMINANCE and chroma <= DARK_CHROMA:
                self._colours[key] = TEXT_BLACK
            elif chroma <= NEUTRAL_CHROMA:
                self._colours[key] = (0.0, 0.0, 0.0, round(self.black(round(lum * 255)) / 255, 4))
            else:
                px = Image.new("RGB", (1, 1), tuple(round(v * 255) for v in (r, g, b)))
                c, m, y, k = (v / 255 for v in cast("tuple[int, ...]",  # a CMYK pixel
                                                    apply_transform(self._transform, px).getpixel((0, 0))))
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
        """``pil`` as a CMYK image under the ink limit: transparency flattened on
        ``behind`` first; greyscale as black ink only; colour from its embedded profile.
        CMYK keeps its inks (untagged: they are meant for this press) unless it is tagged
        with another CMYK profile, from which it is converted, CMYK to CMYK."""
        if pil.mode == "CMYK":
            transform = self._from_cmyk(pil.info.get("icc_profile") or b"")
            out = pil if transform is None else apply_transform(transform, pil)
            return _limit_ink(out, self.ink_limit / 100)
        icc = pil.info.get("icc_profile") or b""
        if pil.mode in ("RGBA", "LA", "PA") or (pil.mode == "P" and "transparency" in pil.info):
            rgba = pil.convert("RGBA")
            pil = Image.alpha_composite(Image.new("RGBA", rgba.size, (*behind, 255)), rgba)
        grey = _greyscale(pil)
        if grey is not None:
            zero = Image.new("L", grey.size, 0)
            return Image.merge("CMYK", (zero, zero, zero, grey.point(self._k_curve)))
        out = apply_transform(self._from(icc), pil.convert("RGB"))
        return _limit_ink(out, self.ink_limit / 100)


    def tinted(self, data: bytes, colour: tuple[int, int, int], alpha: float) -> bytes:
        """Art seen through a panel of the sRGB ``colour`` at ``alpha`` (:func:`.art.tinted`):
        CMYK art mixed with the panel's inks, in this press's CMYK (never through RGB); other
        art mixed in sRGB, as for an RGB file."""
        with Image.open(io.BytesIO(data), formats=PREPARED_FORMATS) as src:
            if src.mode != "CMYK":
                return tinted(data, colour, alpha)
            inks = tuple(round(v * 255) for v in self.colour(tuple(v / 255 for v in colour)).cmyk())
            key = (hashlib.sha256(data).hexdigest(), inks, round(alpha, 4))
            if key not in self._tinted:
                art = self.image(src)  # its inks for this press, converted from its own tag
                panel = Image.new("CMYK", art.size, cast("tuple[int, int, int, int]", inks))
                buf = io.BytesIO()
                Image.blend(art, panel, alpha).save(buf, "JPEG", quality=95, subsampling=0,
                                                    optimize=False)
                self._tinted[key] = buf.getvalue()
        return self._tinted[key]


def _greyscale(img: Image.Image) -> Image.Image | None:
    """The image as "L" when it is greyscale (a grey mode, or RGB with R = G = B within
    one level), else None."""
    if img.mode in ("L", "1", "I", "I;16", "F"):
        return img.convert("L")
    if img.mode == "LA":
        return img.convert("L")
    rgb = img.convert("RGB")
    r, g, b = rgb.split()
    if max(cast("tuple[int, int]", ImageChops.difference(r, g).getextrema())[1],  # one band
           cast("tuple[int, int]", ImageChops.difference(g, b).getextrema())[1]) <= 1:
        return g
    return None


def _black_curve(profile: ImageCms.ImageCmsProfile) -> list[int]:
    """For each sRGB grey level (0–255), the black ink alone (0–255) that prints the same
    lightness, black-point compensated (sRGB black → 100 % K, white → no ink): measured
    with LittleCMS on the profile's own K ramp."""
    lab = ImageCms.createProfile("LAB")
    ramp = Image.new("CMYK", (256, 1))
    ramp.putdata([(0, 0, 0, k) for k in range(256)])
    to_lab = ImageCms.buildTransform(profile, lab, "CMYK", "LAB",
                                     renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    ink_lab = apply_transform(to_lab, ramp)
    ink_l = [cast("tuple[int, ...]", ink_lab.getpixel((k, 0)))[0] for k in range(256)]  # Lab pixels
    greys = Image.new("RGB", (256, 1))
    greys.putdata([(v, v, v) for v in range(256)])
    grey_lab = apply_transform(ImageCms.buildTransform(ImageCms.createProfile("sRGB"), lab,
                                                       "RGB", "LAB"), greys)
    srgb_l = [cast("tuple[int, ...]", grey_lab.getpixel((v, 0)))[0] for v in range(256)]
    black, white = ink_l[-1], ink_l[0]
    rising = [-v for v in ink_l]  # K up: lightness down; bisect wants it ascending
    out = []
    for v in range(256):
        target = black + (srgb_l[v] - srgb_l[0]) * (white - black) / max(1, srgb_l[-1] - srgb_l[0])
        out.append(min(255, bisect_left(rising, -target)))
    return out


@functools.cache
def default_converter() -> CmykConverter:
    """The shipped FOGRA39-based profile at 300 % total ink."""
    return CmykConverter(DEFAULT_ICC, DEFAULT_INK_LIMIT)


@functools.cache
def converter_for(icc: Path | None, ink_limit: float = DEFAULT_INK_LIMIT,
                  rich_black: RichBlack | None = None) -> CmykConverter:
    """The converter for ``icc`` (a user's profile) or, without one, the shipped profile
    built for the ink limit (240 % or 300 %)."""
    if icc is None:
        icc = ICC_DIR / "cardgen-fogra39-240.icc" if ink_limit <= 240 else DEFAULT_ICC
    return CmykConverter(icc, ink_limit, rich_black)


#: What the renderer hands ReportLab: its own PNG and JPEG (art as prepared), never a
#: format whose Pillow plugin runs a program (EPS: Ghostscript).
OWN_FORMATS = ("PNG", "JPEG")


def _pil(image: Any) -> Image.Image:
    if isinstance(image, ImageReader):
        pil = getattr(image, "_image", None)
        if pil is not None:
            return pil
        name = getattr(image, "fileName", None)
        if isinstance(name, (str, Path)):
            return Image.open(name, formats=OWN_FORMATS)
        image.fp.seek(0)
        return Image.open(io.BytesIO(image.fp.read()), formats=OWN_FORMATS)
    if isinstance(image, Image.Image):
        return image
    return Image.open(Path(image), formats=OWN_FORMATS)


def _path_size(path: Any) -> tuple[float, float]:
    """Width and height (pt, in the path's own coordinates) of a ReportLab path's points."""
    xs: list[float] = []
    ys: list[float] = []
    for op in getattr(path, "_code", []):
        parts = op.split()
        nums = []
        for part in parts[:-1]:
            try:
                nums.append(float(part))
            except ValueError:
                break
        if parts and parts[-1] == "re" and len(nums) == 4:
            xs += [nums[0], nums[0] + nums[2]]
            ys += [nums[1], nums[1] + nums[3]]
        else:
            xs += nums[0::2]
            ys += nums[1::2]
    return (max(xs) - min(xs), max(ys) - min(ys)) if xs and ys else (0.0, 0.0)


def _as_srgb(image: Any) -> Any:
    """An image tagged with an RGB profile other than sRGB, converted to sRGB (an RGB PDF
    shows image samples as sRGB); any other image as it is."""
    pil = _pil(image)
    converted = srgb(pil)
    return image if converted is pil else ImageReader(converted)


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
        if self.cmyk is None:
            image = _as_srgb(image)
        else:
            key = id(image)
            if key not in self._cmyk_images:
                self._cmyk_images[key] = (image, ImageReader(self.cmyk.image(_pil(image))))
            image = self._cmyk_images[key][1]
            if kwargs.get("mask") == "auto":
                kwargs["mask"] = None
        return super().drawImage(image, *args, **kwargs)

    def save(self) -> None:
        """Write the file with a /ID of its own content (:mod:`.pdfid`)."""
        super().save()
        out = self._filename
        if isinstance(out, io.BytesIO):
            data = with_content_id(out.getvalue())
            out.seek(0)
            out.truncate()
            out.write(data)

    def setFillColor(self, aColor: Any, alpha: Any = None) -> None:
        super().setFillColor(aColor, alpha)
        self._overprint(self._fillColorObj, self.setFillOverprint)

    def setStrokeColor(self, aColor: Any, alpha: Any = None) -> None:
        super().setStrokeColor(aColor, alpha)
        self._overprint(self._strokeColorObj, self.setStrokeOverprint)

    def _overprint(self, colour: Any, overprint: Callable[[bool], None]) -> None:
        """Black text and lines (0/0/0/100) overprint in a CMYK file, as a press expects:
        a plate drifting by a hair shows no paper beside them. Only the black plate is
        printed for them (overprint mode 1 keeps the other inks beneath)."""
        if self.cmyk is None:
            return
        black = isinstance(colour, CMYKColor) and (
            colour.cyan, colour.magenta, colour.yellow, colour.black) == TEXT_BLACK
        if black:
            self.setOverprintMask(1)
        overprint(black)

    def _large_black(self, w: float, h: float) -> bool:
        """Whether a fill ``w`` × ``h`` pt in the current colour gets the rich black."""
        if self.cmyk is None:
            return False
        fill = self._fillColorObj
        side = self.cmyk.rich_black.min_size_mm * 72 / 25.4
        return (isinstance(fill, CMYKColor) and abs(w) >= side and abs(h) >= side
                and (fill.cyan, fill.magenta, fill.yellow, fill.black) == TEXT_BLACK)

    def _rich(self, draw: Callable[[], Any]) -> Any:
        self.saveState()
        self.setFillColor(CMYKColor(*self.cmyk.rich_black.cmyk))  # type: ignore[union-attr]
        try:
            return draw()
        finally:
            self.restoreState()

    def rect(self, x, y, width, height, stroke=1, fill=0):
        if fill and self._large_black(width, height):
            return self._rich(lambda: super(CmykCanvas, self).rect(x, y, width, height,
                                                                    stroke, fill))
        return super().rect(x, y, width, height, stroke, fill)

    def roundRect(self, x, y, width, height, radius, stroke=1, fill=0):
        if fill and self._large_black(width, height):
            return self._rich(lambda: super(CmykCanvas, self).roundRect(
                x, y, width, height, radius, stroke, fill))
        return super().roundRect(x, y, width, height, radius, stroke, fill)

    def drawPath(self, aPath, stroke=1, fill=0, fillMode=None):
        if fill and self._large_black(*_path_size(aPath)):
            return self._rich(lambda: super(CmykCanvas, self).drawPath(aPath, stroke, fill,
                                                                        fillMode))
        return super().drawPath(aPath, stroke, fill, fillMode)

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
