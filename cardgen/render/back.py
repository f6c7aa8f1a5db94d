"""The one back all cards share (2.1): both houses' arms, the crown and the game's title,
its lines broken between phrases."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..data.layout import Layout, Rect
from ..errors import CardgenError, Location, error
from ..fonts import missing_glyphs, register_fonts, wrap_words
from ..wording.language import NBSP, fix_text
from . import icons
from .colour import hex_colour

#: The gold line around the back's inner panel, in points.
GOLD_LINE = 1.2


def draw_back(c: Canvas, layout: Layout, origin: tuple[float, float] = (0, 0),
              lang: str = "en") -> None:
    """The one back all cards share (2.1): both houses and the title."""
    fonts = register_fonts(layout.fonts)
    b = layout.back
    title = b.title.get(lang)
    if title is None:
        raise CardgenError(error("render-back-lang", f"layout has no back title for '{lang}'",
                                 location=Location(layout.source), lang=lang,
                                 hint=f"add '{lang}:' under back.title"))
    title, subtitle = fix_text(title, lang), fix_text(b.subtitle.get(lang, ""), lang)
    font = fonts[b.title_font]
    for what, text in (("back title", title), ("back subtitle", subtitle)):
        bad = missing_glyphs(font, text)
        if bad:
            raise CardgenError(error("missing-glyph", f"{what}: characters {sorted(bad)} are "
                                     "missing from the font", lang=lang))
    w, h = layout.page_size
    card = layout.card
    c.saveState()
    c.translate(*origin)
    c.setFillColor(hex_colour(b.colour))
    c.rect(0, 0, w, h, fill=1, stroke=0)
    edge = card.frame + GOLD_LINE / 2 / mm  # the gold line's outer edge on the border
    inner = Rect(edge, edge, card.width - 2 * edge, card.height - 2 * edge)
    x, y, iw, ih = layout.rect(inner)
    c.setFillColor(hex_colour(b.inner))
    c.setStrokeColor(hex_colour(icons.GOLD))
    c.setLineWidth(GOLD_LINE)
    c.roundRect(x, y, iw, ih, 2 * mm, fill=1, stroke=1)
    c.setLineWidth(0.4)
    c.roundRect(x + 1.2 * mm, y + 1.2 * mm, iw - 2.4 * mm, ih - 2.4 * mm, 1.4 * mm,
                fill=0, stroke=1)
    cx = x + iw / 2
    icons.draw_crown(c, cx - 7 * mm, layout.y(25), 14 * mm, 10 * mm)
    sw, sh = 17 * mm, 20 * mm
    icons.draw_house_arms(c, cx - sw - 2 * mm, layout.y(50), sw, sh, "luxembourg")
    icons.draw_house_arms(c, cx + 2 * mm, layout.y(50), sw, sh, "wittelsbach")
    c.setFillColor(hex_colour(b.colour))
    _centred_lines(c, cx, layout.y(59), title, font, b.title_size, iw - 8 * mm)
    c.setFont(fonts["display_italic"], b.subtitle_size)
    c.drawCentredString(cx, layout.y(77), subtitle.replace(NBSP, " "))
    c.restoreState()


def _centred_lines(c: Canvas, cx: float, top_base: float, text: str, font: str, size: float,
                   width: float) -> None:
    """Break a title into centred lines no wider than ``width``, between its phrases: a
    " | " in the title marks where a line may break ("A Vote for the King | of the Romans");
    a phrase wider than the line wraps at its spaces."""
    lines: list[str] = []
    for phrase in text.split(" | "):
        joined = f"{lines[-1]} {phrase}" if lines else phrase
        if lines and c.stringWidth(joined.replace(NBSP, " "), font, size) <= width:
            lines[-1] = joined
        else:
            lines += wrap_words(phrase, font, size, width)
    lines = [line.replace(NBSP, " ") for line in lines]
    c.setFont(font, size)
    for i, line in enumerate(lines):
        c.drawCentredString(cx, top_base - i * size * 1.15, line)
