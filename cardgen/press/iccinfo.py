"""What preflight reads from an OutputIntent's ICC profile: its version, its name, and the
most ink it separates any colour to (the press condition's total ink limit)."""

from __future__ import annotations

import io

from PIL import Image, ImageCms

#: The Lab samples (Pillow's 8-bit Lab) the darkest separation is looked for among: every
#: hue and chroma at the dark end, L* 0 to 25, where a profile puts its most ink.
_DARK = [(lightness, a, b) for lightness in range(0, 66, 3)
         for a in range(0, 256, 8) for b in range(0, 256, 8)]


def icc_version(raw: bytes) -> tuple[int, int] | None:
    """(major, minor) from an ICC profile's header (bytes 8 and 9, ICC.1 7.2.4), or None
    when ``raw`` has no ICC header."""
    if len(raw) < 128 or raw[36:40] != b"acsp":
        return None
    return raw[8], raw[9] >> 4


def icc_name(raw: bytes) -> str:
    """The profile's description, as LittleCMS reads it ("" when it cannot)."""
    try:
        return ImageCms.getProfileDescription(ImageCms.ImageCmsProfile(io.BytesIO(raw))).strip()
    except (OSError, ImageCms.PyCMSError):
        return ""


def darkest_ink(raw: bytes) -> float | None:
    """The most total ink (C+M+Y+K, percent) a CMYK output profile separates a dark colour
    to, relative colorimetric: the ink limit the profile was built for (a profile made for
    240 % gives 240 %, ISO Coated at 300 % about 293 %). None when LittleCMS cannot use it
    as a CMYK output profile."""
    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(raw))
        if profile.profile.xcolor_space.strip() != "CMYK":
            return None
        to_cmyk = ImageCms.buildTransform(ImageCms.createProfile("LAB"), profile, "LAB", "CMYK",
                                          renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    except (OSError, ImageCms.PyCMSError):
        return None
    samples = Image.new("LAB", (len(_DARK), 1))
    samples.putdata(_DARK)
    out = Image.new("CMYK", samples.size)
    to_cmyk.transform.apply(samples.getim(), out.getim())
    data = out.tobytes()
    return max(sum(data[i:i + 4]) for i in range(0, len(data), 4)) / 255 * 100
