"""Card PDFs and PNGs: one page per physical card, page = card + bleed, deterministic bytes.

Every page carries TrimBox (the card) and BleedBox (the whole page). The same inputs give
byte-identical files (ReportLab ``invariant`` mode: fixed dates and document id).
"""

from __future__ import annotations

import io
import os
import tempfile
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from ..data.layout import Layout
from ..errors import CardgenError, Finding, error
from ..files import tools
from ..files.safepath import inside
from ..files.write import atomic_move, atomic_write
from ..fonts import register_fonts
from ..wording.face import CardFace
from .back import draw_back
from .card import CardReport
from .cmyk import CmykCanvas, CmykConverter
from .faceforms import FaceLibrary


@dataclass
class RenderReport:
    pages: int = 0
    cards: list[CardReport] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        return [f for r in self.cards for f in r.findings]


def _canvas(buf: io.BytesIO, layout: Layout, title: str, cmyk: CmykConverter | None = None
            ) -> Canvas:
    fonts = register_fonts(layout.fonts)
    w, h = layout.page_size
    c = CmykCanvas(buf, pagesize=(w, h), invariant=1, pageCompression=1,
                   initialFontName=fonts["body"], initialFontSize=8,
                   trimBox=layout.trim_box, bleedBox=(0, 0, w, h), cmyk=cmyk)
    c.setTitle(title)
    c.setCreator("cardgen")
    c.setProducer("cardgen (ReportLab)")
    return c


def render_cards_pdf(faces: Iterable[CardFace], layout: Layout, *, physical: bool = True,
                     cmyk: CmykConverter | None = None, library: FaceLibrary | None = None
                     ) -> tuple[bytes, RenderReport]:
    """Draw the faces (each ``copies`` times when ``physical``) and return the PDF bytes.

    Each face is one form placed on each of its pages, taken from ``library`` (faces drawn
    once for every file of the language; it must be for ``layout`` and ``cmyk``). The report
    has the fit of every face drawn for it, not of faces the library kept from an earlier
    build (the check fits every face).
    """
    faces = list(faces)
    if library is None:
        library = FaceLibrary(layout, faces[0].lang if faces else "en", cmyk)
    elif library.layout is not layout or library.cmyk is not cmyk:
        raise ValueError("the face library was drawn for another layout or colour conversion")
    library.prepare(faces, back=False)
    buf = io.BytesIO()
    c = _canvas(buf, layout, "cards", cmyk)
    forms = library.bind(c)
    names: dict[CardFace, str] = {}
    report = RenderReport()
    for face in faces:
        if face not in names:
            # named by the card, so that preflight names the card of a page (press.pagewalk)
            name = f"front-{face.card_id}"
            if name in names.values():  # the same card twice, drawn differently
                name = f"front-{face.card_id}-{len(names) + 1}"
            names[face] = forms.define(name, face)
        card_report = library.report(face)
        if card_report is not None:
            report.cards.append(card_report)
        for _copy in range(face.copies if physical else 1):
            c.doForm(names[face])
            c.showPage()
            report.pages += 1
    if report.pages == 0:
        c.showPage()  # an empty document is still a valid PDF
    c.save()
    return buf.getvalue(), report


def write_cards_pdf(faces: Iterable[CardFace], layout: Layout, path: Path | str) -> RenderReport:
    """One page per physical card, in the order given; written atomically."""
    data, report = render_cards_pdf(faces, layout)
    atomic_write(path, data)
    return report


def render_back_pdf(layout: Layout, lang: str = "en", cmyk: CmykConverter | None = None
                    ) -> bytes:
    """The shared card back as PDF bytes, one page (card + bleed)."""
    buf = io.BytesIO()
    c = _canvas(buf, layout, "card back", cmyk)
    draw_back(c, layout, lang=lang)
    c.showPage()
    c.save()
    return buf.getvalue()


def write_back_pdf(layout: Layout, path: Path | str, lang: str = "en") -> None:
    """The shared card back, written atomically."""
    atomic_write(path, render_back_pdf(layout, lang))


def png_name(face: CardFace) -> str:
    """``<deck>-<number>-<id>.png``: numbers count within a deck, so the deck comes first
    and a folder listing keeps each deck together in printed order (the language is the
    folder)."""
    stem = f"{face.number:03d}-{face.card_id}.png"
    return f"{face.deck}-{stem}" if face.deck else stem


#: The card back's image beside the faces' in ``output/<lang>/png/``.
BACK_PNG = "back.png"


#: pdftoppm's options per image format: PNG is lossless; JPEG is about five times faster to
#: encode, which suits screen previews; PPM is uncompressed, for a caller that encodes the
#: pages itself (about three times faster than pdftoppm's own PNG compression).
IMAGE_FORMATS = {"png": ["-png"], "jpg": ["-jpeg", "-jpegopt", "quality=92"], "ppm": []}

#: Pages one pdftoppm draws when a PDF's pages are drawn side by side (:func:`rasterise`).
CHUNK = 8


def rasterise(pdf: bytes, dpi: int, workdir: Path,
              crop: tuple[int, int, int, int] | None = None, fmt: str = "png",
              size: tuple[int, int] | None = None, *, pages: int = 0,
              done: Callable[[int], None] | None = None) -> list[Path]:
    """Pages of a PDF as image files (pdftoppm from poppler-utils), in page order.

    ``crop`` keeps only (x, y, width, height) pixels of each page, measured from its top left;
    ``size`` (width, height in pixels) scales every page to exactly that many pixels;
    ``fmt`` is a key of :data:`IMAGE_FORMATS`. Given the number of ``pages``, runs of
    :data:`CHUNK` pages are drawn by one pdftoppm each, one per core at a time, and ``done``
    is called with each page's index (from 0) as its run ends.
    """
    if tools.find(tools.PDFTOPPM) is None:  # said once, before any run starts
        raise CardgenError(tools.missing(tools.PDFTOPPM, "writing images"))
    workdir.mkdir(parents=True, exist_ok=True)
    src = workdir / "in.pdf"
    src.write_bytes(pdf)
    area = ([arg for flag, n in zip("xyWH", crop, strict=True) for arg in (f"-{flag}", str(n))]
            if crop else [])
    scale = ["-scale-to-x", str(size[0]), "-scale-to-y", str(size[1])] if size else []
    options = ["-r", str(dpi), *IMAGE_FORMATS[fmt], *scale, *area]
    lock = threading.Lock()
    runs = [(first, min(first + CHUNK - 1, pages)) for first in range(1, pages + 1, CHUNK)]

    def draw(run: tuple[int, int] | None) -> None:
        pick = ["-f", str(run[0]), "-l", str(run[1])] if run else []
        ran = tools.run(tools.PDFTOPPM, [*options, *pick], [src, workdir / "page"],
                        needs="writing images")
        if ran.returncode != 0:
            raise CardgenError(error("tool-failed", f"pdftoppm failed: {ran.last_word()}",
                                     hint=f"check that poppler-utils works: {tools.PDFTOPPM.probe}"))
        if run and done:
            with lock:  # ``done`` may print: one run at a time
                for page in range(run[0] - 1, run[1]):
                    done(page)

    if not runs:
        draw(None)
    else:
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            list(pool.map(draw, runs))  # re-raises a run's error
    return sorted(workdir.glob(f"page-*.{fmt}"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))


def write_pngs(faces: Iterable[CardFace], layout: Layout, folder: Path | str, dpi: int = 300,
               lang: str = "en", step: Callable[[str], None] = lambda _name: None
               ) -> tuple[list[Path], RenderReport]:
    """One PNG (with bleed) per face (:func:`png_name`) and the back (:data:`BACK_PNG`), each
    moved in atomically; ``step`` is called with each file's name as it is placed."""
    faces = list(faces)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    pdf, report = render_cards_pdf(faces, layout, physical=False)
    out: list[Path] = []
    with tempfile.TemporaryDirectory(dir=folder, prefix=".png-") as tmp:
        names = [png_name(face) for face in faces]
        pages = rasterise(pdf, dpi, Path(tmp) / "faces", pages=len(faces),
                          done=lambda i: step(names[i]))
        back = rasterise(render_back_pdf(layout, lang), dpi, Path(tmp) / "back")
        for name, page in zip([*names, BACK_PNG], [*pages, *back], strict=True):
            target = inside(folder, name)
            atomic_move(page, target)
            out.append(target)
    step(BACK_PNG)
    return out, report
