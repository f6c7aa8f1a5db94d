"""Register the layout's TrueType fonts with ReportLab (embedded, subset) and check glyphs.

ReportLab silently draws a box for a character its font lacks, so every printed string is
checked with :func:`missing_glyphs` before drawing.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from .errors import CardgenError, Location, error
from .files.oserrors import check_regular
from .files.safepath import resolved

#: Resolved font file → registered ReportLab font name (one registration per process).
_REGISTERED: dict[Path, str] = {}
#: Absolute path as given → font name, so drawing a face does not resolve its fonts' paths
#: (a system call per path part) every time.
_GIVEN: dict[Path, str] = {}

#: The largest font file read: a full CJK face is about 20 MB; anything larger is no font a
#: card needs, and ReportLab would read and copy it whole (issue 38: 3 GB read).
MAX_FONT_BYTES = 32 * 1024 * 1024

#: Characters never drawn as glyphs (line breaks) or drawn as a plain space (U+00A0).
NBSP = "\u00a0"
_NOT_DRAWN = {"\n", "\r", "\t", NBSP, "\u00ad"}


def register_font(path: Path) -> str:
    """Register one TTF file (once per process) and return its ReportLab font name."""
    given = Path(path)
    name = _GIVEN.get(given)
    if name is not None:
        return name
    path = resolved(given)
    name = _REGISTERED.get(path)
    if name is not None:
        if given.is_absolute():
            _GIVEN[given] = name
        return name
    odd = check_regular(path)  # a FIFO, device or folder: never opened
    if odd is not None:
        raise CardgenError(odd)
    if not path.is_file():
        raise CardgenError(error("font-missing", f"font file not found: {path}",
                                 location=Location(str(path)),
                                 hint="check the 'fonts:' section of the layout"))
    size = path.stat().st_size
    if size > MAX_FONT_BYTES:
        raise CardgenError(error(
            "file-too-large", f"font file {path.name} is {size:,} bytes; at most "
            f"{MAX_FONT_BYTES:,} are read", location=Location(str(path)),
            hint="use the font's own TTF file (a subset or a single face)"))
    name = f"cardgen-{path.stem}"
    try:
        font = TTFont(name, str(path), subfontIndex=0)
    except Exception as exc:  # a damaged font fails in many ways (struct.error, IndexError …)
        raise CardgenError(error("font-invalid", f"cannot read font file {path.name}: "
                                 f"{exc or type(exc).__name__}", location=Location(str(path)),
                                 hint="copy the font file again from its source (it is "
                                 "truncated or damaged)")) from None
    pdfmetrics.registerFont(font)
    # ReportLab keeps one font per typeface: when other code in this process registered the
    # same face first, our name is an alias of that font, and text is set in its name
    name = pdfmetrics.getFont(name).fontName
    _REGISTERED[path] = name
    if given.is_absolute():
        _GIVEN[given] = name
    return name


def register_fonts(files: Mapping[str, Path]) -> dict[str, str]:
    """Register every role's font; return role → ReportLab font name."""
    return {role: register_font(path) for role, path in files.items()}


def missing_glyphs(font: str, text: str) -> set[str]:
    """Characters of ``text`` that the registered font ``font`` has no glyph for."""
    face = pdfmetrics.getFont(font).face
    cmap = face.charToGlyph
    return {ch for ch in set(text) if ch not in _NOT_DRAWN and ord(ch) not in cmap}


def wrap_words(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy line breaks at spaces so each line fits ``width`` points (a longer word stands
    alone on its line). A non-breaking space (U+00A0, Czech typography: "v\u00a0příštím")
    never breaks; the lines come back ready to draw, with it as a plain space. For short
    labels; card text uses the hyphenating text flow."""
    lines: list[str] = []
    line = ""
    for word in (w for w in text.split(" ") if w.strip()):
        word = word.strip()
        trial = f"{line} {word}".strip()
        if line and pdfmetrics.stringWidth(trial.replace(NBSP, " "), font, size) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return [ln.replace(NBSP, " ") for ln in lines]
