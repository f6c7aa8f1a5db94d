"""Images of the online table, drawn by the same code as the PDFs and rasterised by
pdftoppm (poppler-utils), as ``cardgen build --png`` does: card faces and the back at trim
size, deck sheets, the board, and each token's two faces.

PNG bytes carry no time or text chunks, so the same drawing gives the same bytes.
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..board import glyphs
from ..board.base import Ctx
from ..board.board import draw_board, sheet
from ..board.tokens import Faces, Token
from ..data.layout import Layout
from ..fonts import register_fonts
from ..render.back import draw_back
from ..render.card import draw_card
from ..render.cmyk import CmykCanvas
from ..render.pdf import rasterise
from ..wording.face import CardFace
from .plan import Sheet

Draw = Callable[[Canvas], object]  # what a drawer returns (a card's report) is not used


def png_bytes(image: Image.Image, dpi: float | None = None) -> bytes:
    buf = io.BytesIO()
    extra = {"dpi": (dpi, dpi)} if dpi else {}
    image.save(buf, "PNG", optimize=False, compress_level=6, **extra)
    return buf.getvalue()


def _pages(size_mm: tuple[float, float], draws: Sequence[Draw], pixels: tuple[int, int]
           ) -> list[Image.Image]:
    """Each drawing on its own page of ``size_mm``, rasterised to exactly ``pixels``."""
    buf = io.BytesIO()
    # a CmykCanvas without a converter: images shown as in every RGB file (CMYK art too)
    c = CmykCanvas(buf, pagesize=(size_mm[0] * mm, size_mm[1] * mm), invariant=1,
                   pageCompression=1)
    for draw in draws:
        draw(c)
        c.showPage()
    c.save()
    dpi = max(1, round(pixels[0] / (size_mm[0] / 25.4)))
    with tempfile.TemporaryDirectory(prefix="cardgen-vtt-") as tmp:
        out = []
        for path in rasterise(buf.getvalue(), dpi, Path(tmp), fmt="ppm", size=pixels):
            with Image.open(path, formats=("PPM",)) as im:
                out.append(im.convert("RGB"))
        return out


def card_pixels(layout: Layout, dpi: float) -> tuple[int, int]:
    """A card's trim size in pixels at ``dpi``."""
    return round(layout.card.width / 25.4 * dpi), round(layout.card.height / 25.4 * dpi)


def card_images(faces: Sequence[CardFace | None], layout: Layout, lang: str,
                pixels: tuple[int, int]) -> list[Image.Image]:
    """Each face (``None``: the shared back) at trim size, no bleed, as ``pixels``."""
    register_fonts(layout.fonts)
    g = layout.card
    origin = (-g.bleed * mm, -g.bleed * mm)  # the trim box's corner on the page's corner

    def draw(face: CardFace | None) -> Draw:
        if face is None:
            return lambda c: draw_back(c, layout, origin=origin, lang=lang)
        return lambda c: draw_card(c, face, layout, origin=origin)

    return _pages((g.width, g.height), [draw(f) for f in faces], pixels)


def deck_sheet(sheet_: Sheet, layout: Layout, lang: str, cell: tuple[int, int]) -> bytes:
    """The sheet image: faces left to right, top to bottom, the back as the hidden card in
    the last cell (what Tabletop Simulator shows for a card hidden from a player, 2.1)."""
    images = card_images([*sheet_.faces, None], layout, lang, cell)
    w, h = cell
    out = Image.new("RGB", (sheet_.cols * w, sheet_.rows * h), "white")
    slots = [*range(len(sheet_.faces)), sheet_.cols * sheet_.rows - 1]
    for image, slot in zip(images, slots, strict=True):
        out.paste(image, ((slot % sheet_.cols) * w, (slot // sheet_.cols) * h))
    return png_bytes(out)


def board_image(ctx: Ctx, pixels_wide: int) -> bytes:
    """The trimmed board (no bleed) ``pixels_wide`` across."""
    w, h, _bleed = sheet(ctx)
    pixels = (pixels_wide, round(pixels_wide * h / w))
    return png_bytes(_pages((w, h), [lambda c: draw_board(ctx, c)], pixels)[0])


def token_image(ctx: Ctx, token: Token, dpi: int, back: bool, coin: bool = False) -> bytes:
    """A token's front, or its back as seen when turned over, at ``dpi``. A ``coin`` (a round
    tile on the table) is the currency's coin filling the image, so the circle shows all
    of it: its value on the front, its mark on the back."""
    s = token.size
    px = round(s / 25.4 * dpi)
    draw: Draw = _coin(ctx, token, back) if coin else \
        (lambda c: Faces(ctx, c).draw(token, 0, 0, back))
    return png_bytes(_pages((s, s), [draw], (px, px))[0], dpi)


def _coin(ctx: Ctx, token: Token, back: bool) -> Draw:
    cu = ctx.data.currencies[token.key]
    s = token.size

    def draw(c: Canvas) -> None:
        c.setFillColor(HexColor(ctx.layout.data["colours"]["paper"]))
        c.rect(0, 0, s * mm, s * mm, 0, 1)
        label = None if back else str(token.value)
        glyphs.coin(c, s / 2, s / 2, s, cu.colour, cu.mark, label, ctx.font("bold"))

    return draw
