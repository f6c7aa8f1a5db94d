"""Look inside a finished PDF: colour operators and colour spaces (needs qpdf).

Used by the tests and available to the pipeline to prove a ``--cmyk`` file holds no RGB.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from ..errors import CardgenError, error
from ..files import tools

#: Three numbers then an RGB colour operator (fill ``rg`` / stroke ``RG``).
RGB_OPERATOR = re.compile(rb"(?:^|\s)(?:-?[\d.]+\s+){3}(rg|RG)(?=\s|$)", re.MULTILINE)


def uncompressed(pdf: bytes) -> bytes:
    """The PDF with every stream uncompressed (qpdf QDF mode)."""
    with tempfile.TemporaryDirectory(prefix="cardgen-scan-") as tmp:
        src, dst = Path(tmp) / "in.pdf", Path(tmp) / "out.pdf"
        src.write_bytes(pdf)
        ran = tools.run(tools.QPDF, ["--qdf", "--object-streams=disable"], [src, dst],
                        needs="reading a PDF's colours")
        if ran.returncode not in (0, 3):  # 3: warnings
            raise CardgenError(error("tool-failed", f"qpdf cannot read the PDF: "
                                     f"{ran.last_word()}", hint="write the PDF again"))
        return dst.read_bytes()


def rgb_usage(pdf: bytes) -> list[str]:
    """Every trace of RGB in ``pdf``: ``rg``/``RG`` operators and ``/DeviceRGB`` spaces."""
    text = uncompressed(pdf)
    found = [m.group(0).strip().decode("latin-1") for m in RGB_OPERATOR.finditer(text)]
    found += ["/DeviceRGB"] * text.count(b"/DeviceRGB")
    return found
