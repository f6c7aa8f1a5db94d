"""``output/art-template.png``: the art box at the smallest size that prints at the layout's
ppi, with the visible window (``art.window``) and what lies over the art marked: the
see-through name bar and text panel, the corner shield and crown (on the cards that have
them), the coin row. An artist
draws on it as a layer; art/README.md explains it.
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

from ..data.layout import Layout, Rect
from .art import min_pixels

#: Colours of the marks (RGBA): the window, the panels over the art, smaller marks, text.
WINDOW = (40, 170, 70, 255)
PANEL = (235, 120, 40, 90)
PANEL_EDGE = (200, 90, 20, 255)
MARK = (120, 60, 160, 255)
INK = (30, 26, 22, 255)
GROUND = (238, 234, 226, 255)
GRID = (214, 208, 196, 255)


def template_size(layout: Layout) -> tuple[int, int]:
    """The art box in pixels at ``art.min_ppi``: the documented minimum (745 × 497)."""
    box = layout.art_box
    return min_pixels(box.w, layout.art.min_ppi), min_pixels(box.h, layout.art.min_ppi)


def art_template_png(layout: Layout) -> bytes:
    """The template as PNG bytes (deterministic: the same layout, the same bytes)."""
    box = layout.art_box
    size = template_size(layout)
    scale = size[0] / box.w

    def px(r: Rect) -> tuple[float, float, float, float]:
        return ((r.x - box.x) * scale, (r.y - box.y) * scale,
                (r.x + r.w - box.x) * scale - 1, (r.bottom - box.y) * scale - 1)

    img = Image.new("RGB", size, GROUND[:3])  # RGB: the marks' alpha blends over it
    draw = ImageDraw.Draw(img, "RGBA")
    for mm in range(5, int(box.w) + 1, 5):  # a 5 mm grid
        draw.line([(mm * scale, 0), (mm * scale, size[1])], fill=GRID)
    for mm in range(5, int(box.h) + 1, 5):
        draw.line([(0, mm * scale), (size[0], mm * scale)], fill=GRID)
    label_px = round(size[1] / 30)
    font = _font(layout, label_px)
    small = _font(layout, round(size[1] / 40))
    over = (("name bar (see-through)", layout.name_bar.box),
            ("text panel (see-through)", layout.text_box.panel))
    for label, r in over:
        draw.rectangle(px(r), fill=PANEL, outline=PANEL_EDGE, width=2)
        x0, y0, _x1, y1 = px(r)
        y = y0 + 4 if y0 > 0 else max(y1 - label_px - 6, 2)
        draw.text((x0 + 6, y), label, fill=INK, font=font)
    coins = layout.coin_row
    radius = coins.diameter / 2
    for x in (coins.left, coins.right):
        draw.ellipse(px(Rect(x - radius, coins.centre_y - radius, 2 * radius, 2 * radius)),
                     outline=MARK, width=2)
    for label, corner in (("shield (cards with one)", layout.shield_corner),
                          ("crown (Charles IV)", layout.crown_corner)):
        draw.rectangle(px(corner), outline=MARK, width=2)
        draw.text((px(corner)[0] + 3, px(corner)[1] + 2), label, fill=MARK, font=small)
    window = layout.art.window
    if window is not None:
        draw.rectangle(px(window), outline=WINDOW, width=3)
        draw.text((px(window)[0] + 6, px(window)[1] + 6),
                  f"visible window {window.w:g} × {window.h:g} mm: no panel over it",
                  fill=WINDOW, font=font)
    draw.text((6, 4), f"art box {box.w:g} × {box.h:g} mm = {size[0]} × {size[1]} px at "
              f"{layout.art.min_ppi} ppi, the least that prints at {layout.art.min_ppi} ppi",
              fill=INK, font=small)
    out = io.BytesIO()
    img.save(out, "PNG", optimize=False)
    return out.getvalue()


def _font(layout: Layout, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype(str(layout.fonts["body"]), max(size, 8))
    except OSError:  # the layout's checks name a missing font; the template still draws
        return ImageFont.load_default()
