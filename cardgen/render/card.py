"""Draw one card face (rules 2.3x) from a CardFace and a Layout; the back is :mod:`.back`.

The origin passed in is the lower-left corner of the BLEED box, so a print sheet can place
a card anywhere (also inside a form XObject). Every length comes from the layout.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import partial

from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject as Path

from ..data.layout import Layout
from ..data.memo import Memo
from ..errors import CardgenError, Finding, Location, error, warning
from ..fonts import missing_glyphs, register_fonts
from ..wording.face import CardFace, CurrencyStyle, ShieldStyle
from . import icons, textflow
from .art import (
    Emblem,
    PlaceholderStyle,
    draw_placeholder,
    flattened,
    mirrored_bleed,
    prepare_art,
    resolution_findings,
    tinted,
)
from .colour import blend, darker, hex_colour, lighter
from .namebar import NameSetting, printable, set_name
from .textflow import FitResult, IconSet, Para

GENERIC_SHIELD = ShieldStyle("unknown", "", "#8a8a8a", "blank")


@dataclass
class CardReport:
    """What drawing one face found: the text fit and any findings (warnings, overflow)."""

    card: str
    lang: str
    fit: FitResult
    findings: list[Finding] = field(default_factory=list)


# --- text of a face ---------------------------------------------------------------------

def paragraphs(face: CardFace, layout: Layout) -> list[Para]:
    """The face's text lines (2.36) in order, as paragraphs ready to set."""
    out: list[Para] = []
    for line in face.lines:
        italic = line.kind in layout.text_box.italic_kinds
        role, title_role = ("italic", "bold_italic") if italic else ("body", "bold")
        text = line.text
        if line.kind == "boost" or line.cost:
            coins = "".join(f":{c}:" for c in line.cost)
            if text.startswith(":boost:"):
                text = ":boost:" + coins + text[len(":boost:"):]
            else:
                text = f":boost:{coins}: {text}" if coins else f":boost: {text}"
        out.append(textflow.paragraph(text, role, line.title, title_role, kind=line.kind))
    return out


class _Icons:
    """Inline icons for one face: coins with the face's currency styles, its shields."""

    def __init__(self, face: CardFace):
        self.face = face
        self.currencies = {c.id: c for c in face.currencies}
        self.shields = {s.id: s for s in face.shields}
        if face.shield:
            self.shields.setdefault(face.shield.id, face.shield)
        self.unknown: set[str] = set()

    def currency(self, cid: str) -> CurrencyStyle:
        style = self.currencies.get(cid)
        if style is None:
            raise CardgenError(error(
                "render-currency", f"currency '{cid}' is used but the face carries no style for it",
                card=self.face.card_id, lang=self.face.lang,
                hint="compose must list every shown currency in CardFace.currencies"))
        return style

    def shield(self, sid: str) -> ShieldStyle:
        style = self.shields.get(sid)
        if style is None:
            self.unknown.add(sid)
            return GENERIC_SHIELD
        return style

    def width(self, token: str, size: float) -> float:
        if token.startswith("shield-"):
            return size * 1.05
        if token == "crown":
            return size * 1.45
        return size * 1.18

    def draw(self, c: Canvas, token: str, x: float, base: float, size: float) -> None:
        d = size * 1.02
        y = base - size * 0.2
        pad = (self.width(token, size) - d) / 2
        if token == "boost":
            icons.draw_boost(c, x + pad, y, d, d)
        elif token == "crown":
            icons.draw_crown(c, x + pad / 2, y, d * 1.3, d)
        elif token.startswith("shield-"):
            s = self.shield(token[len("shield-"):])
            icons.draw_heraldic_shield(c, x, y - size * 0.05, size * 1.05, size * 1.15,
                                       s.colour, s.charge)
        else:
            style = self.currency(token)
            icons.draw_coin(c, x + pad, y, d, d, style.colour, style.mark)

    def iconset(self) -> IconSet:
        return IconSet(self.width, self.draw)


def inline_icons(face: CardFace) -> IconSet:
    """How ``face``'s inline ``:token:`` symbols are measured and drawn (also for text set
    beside the card, as in the proof's tables)."""
    return _Icons(face).iconset()


# --- checks -----------------------------------------------------------------------------

def _glyph_findings(face: CardFace, layout: Layout, fonts: dict[str, str],
                    paras: list[Para]) -> list[Finding]:
    strings: list[tuple[str, str, str]] = [
        ("name", layout.name_bar.font, face.name),
        ("deck label", layout.bottom_strip.font, face.deck_label),
        ("version", layout.bottom_strip.font, face.version),
        ("number", layout.bottom_strip.font, str(face.number)),
    ]
    if face.kind_label:
        strings.append(("kind label", layout.coin_row.event_font, face.kind_label))
    if face.use_cost_label:
        strings += [("use cost", a.role, a.text)
                    for a in textflow.parse(face.use_cost_label, layout.coin_row.label_font)]
    for i, p in enumerate(paras):
        strings += [(f"text line {i + 1}", a.role, a.text) for a in p.atoms if a.text]
    out = []
    for what, role, text in strings:
        for ch in sorted(missing_glyphs(fonts[role], text)):
            out.append(error(
                "missing-glyph",
                f"{what}: character {ch!r} (U+{ord(ch):04X}) is not in font "
                f"'{layout.fonts[role].name}' and would print as a box",
                card=face.card_id, lang=face.lang, location=Location(layout.source),
                hint="replace the character or choose a font that has it"))
    return out


#: In-process memo of fitted text: (face, id(layout)) -> (layout, result). A FitResult is
#: immutable and depends only on the face, the layout and its fonts, so every copy of a card
#: on every sheet reuses the one fit instead of setting the text again.
_FIT_MEMO: Memo[tuple[CardFace, int], tuple[Layout, FitResult]] = Memo(1024)


def _fit(face: CardFace, layout: Layout, fonts: dict[str, str], paras: list[Para],
         iconset: IconSet) -> FitResult:
    key = (face, id(layout))
    hit = _FIT_MEMO.get(key)
    if hit is not None and hit[0] is layout:
        return hit[1]
    result = _fit_uncached(face, layout, fonts, paras, iconset)
    _FIT_MEMO[key] = (layout, result)
    return result


def _fit_uncached(face: CardFace, layout: Layout, fonts: dict[str, str], paras: list[Para],
                  iconset: IconSet) -> FitResult:
    tb = layout.text_box
    return textflow.fit(paras, tb.text.w * mm, tb.text.h * mm, fonts=fonts, icons=iconset,
                        size=tb.size, min_size=tb.min_size, leading=tb.leading,
                        para_gap=tb.paragraph_gap, lang=tb.lang_hyphen.get(face.lang),
                        hyphenation=textflow.Hyphenation(tb.hyphen_left, tb.hyphen_right,
                                                         tb.hyphen_min, tb.rag_limit))


def _name_area(face: CardFace, layout: Layout) -> float:
    """The width (points) the face's name may fill: between the value icons, or nearly the
    whole bar on a card that shows no values."""
    return layout.name_bar.area(face.political is not None or face.military is not None) * mm


def _name_setting(face: CardFace, layout: Layout, fonts: dict[str, str]
                  ) -> NameSetting | None:
    nb = layout.name_bar
    return set_name(face.name, fonts[nb.font], nb.size, nb.min_size, nb.min_scale,
                    _name_area(face, layout), 1 if nb.two_line_baseline is None else 2)


def _name_findings(face: CardFace, layout: Layout, fonts: dict[str, str]) -> list[Finding]:
    """A name that does not fit its bar even at min_size, condensed to min_scale, on as
    many lines as the layout allows (2.35)."""
    nb = layout.name_bar
    if _name_setting(face, layout, fonts) is not None:
        return []
    area = _name_area(face, layout)
    width = stringWidth(face.name, fonts[nb.font], nb.min_size)
    lines = "one line" if nb.two_line_baseline is None else "two lines"
    return [error("name-overflow", f"the name does not fit its bar: {width / mm:.0f} mm at "
                  f"{nb.min_size:g} pt, the bar holds {area / mm:.1f} mm on {lines} even "
                  f"condensed to {nb.min_scale:.0%}", card=face.card_id, lang=face.lang,
                  rule="2.35", hint="shorten the name")]


def _fit_finding(face: CardFace, fit: FitResult) -> list[Finding]:
    if fit.fits:
        return []
    if fit.too_wide:
        what = f"word(s) too wide for the text box: {', '.join(fit.too_wide)}"
    else:
        what = (f"text needs {fit.height / mm:.1f} mm at {fit.size:.1f} pt but the box has "
                f"{fit.available / mm:.1f} mm")
    return [error("text-overflow", f"card text does not fit: {what}", card=face.card_id,
                  lang=face.lang, hint="shorten the text or split a line", rule="2.36")]


def check_face(face: CardFace, layout: Layout) -> tuple[FitResult, list[Finding]]:
    """Fit and glyph checks for one face without drawing (for a `check` command)."""
    fonts = register_fonts(layout.fonts)
    paras = paragraphs(face, layout)
    findings = _glyph_findings(face, layout, fonts, paras) + _name_findings(face, layout, fonts)
    fit = _fit(face, layout, fonts, paras, _Icons(face).iconset())
    return fit, findings + _fit_finding(face, fit)


def _fits_at_min(face: CardFace, layout: Layout, fonts: dict[str, str], paras: list[Para],
                 extra: str) -> bool:
    """Whether the face's text with ``extra`` appended fits its box at the minimum size."""
    if extra:
        last = paras[-1] if paras else textflow.paragraph("")
        role = next((a.role for a in reversed(last.atoms) if not a.icon), "body")
        paras = [*paras[:-1], Para((*last.atoms, *textflow.parse(" " + extra, role)), last.kind)]
    tb = layout.text_box
    return textflow.fit(paras, tb.text.w * mm, tb.text.h * mm, fonts=fonts,
                        icons=_Icons(face).iconset(), size=tb.min_size, min_size=tb.min_size,
                        leading=tb.leading, para_gap=tb.paragraph_gap,
                        lang=tb.lang_hyphen.get(face.lang), hyphen_min=tb.hyphen_min).fits


def spare_characters(face: CardFace, layout: Layout, limit: int = 600) -> tuple[int, int]:
    """The translator's length budget: how many more characters of the face's own kind of
    text fit in its text box at the minimum size, and in its name bar (condensed as far as
    allowed); 0 where the text already does not fit."""
    fonts = register_fonts(layout.fonts)
    paras = paragraphs(face, layout)
    plain = " ".join(textflow.TOKEN.sub("", ln.text) for ln in face.lines).split()
    filler = (" ".join(plain or face.name.split() or ["text"]) + " ") * (limit // 4 + 1)
    lo, hi = 0, limit
    if not _fits_at_min(face, layout, fonts, paras, ""):
        hi = 0
    while lo < hi:  # the largest n whose filler still fits
        mid = (lo + hi + 1) // 2
        if _fits_at_min(face, layout, fonts, paras, filler[:mid].strip()):
            lo = mid
        else:
            hi = mid - 1
    nb = layout.name_bar
    area = _name_area(face, layout) * (1 if nb.two_line_baseline is None else 2)
    width = stringWidth(face.name, fonts[nb.font], nb.min_size) * nb.min_scale
    per_char = width / max(len(face.name), 1)
    name = max(0, int((area - width) / per_char)) if per_char else 0
    return lo, name


# --- drawing ----------------------------------------------------------------------------

def draw_card(c: Canvas, face: CardFace, layout: Layout, origin: tuple[float, float] = (0, 0)
              ) -> CardReport:
    """Draw one face with the lower-left corner of its bleed box at ``origin`` (points)."""
    fonts = register_fonts(layout.fonts)
    paras = paragraphs(face, layout)
    glyphs = _glyph_findings(face, layout, fonts, paras)
    if glyphs:
        raise CardgenError(glyphs)
    ic = _Icons(face)
    fit = _fit(face, layout, fonts, paras, ic.iconset())
    report = CardReport(face.card_id, face.lang, fit,
                        _name_findings(face, layout, fonts) + _fit_finding(face, fit))
    side = layout.side_colour(face.side, face.kind)

    c.saveState()
    c.translate(*origin)
    w, h = layout.page_size
    c.setFillColor(hex_colour(side))
    c.rect(0, 0, w, h, fill=1, stroke=0)
    report.findings += _draw_art(c, face, layout, fonts, side)
    _draw_name_bar(c, face, layout, fonts, side, report)
    _draw_values(c, face, layout, fonts)
    _draw_text_panel(c, face, layout, fonts, ic, fit, side)
    _draw_coin_row(c, face, layout, fonts, ic, side)
    if face.shield:
        icons.draw_heraldic_shield(c, *layout.rect(layout.shield_corner), face.shield.colour,
                                   face.shield.charge)
    if face.crown:
        icons.draw_crown(c, *layout.rect(layout.crown_corner))
    _draw_bottom_strip(c, face, layout, fonts)
    c.restoreState()
    for sid in sorted(ic.unknown):
        report.findings.append(warning(
            "render-shield-style", f"the face carries no style for inline shield '{sid}'; "
            "drawn as a plain grey shield", card=face.card_id, lang=face.lang,
            hint="compose lists every inline shield in CardFace.shields"))
    return report


def _draw_art(c: Canvas, face: CardFace, layout: Layout, fonts: dict[str, str],
              side: str, tint: tuple[Color, float] | None = None) -> list[Finding]:
    """The art box; where it touches the trim, background and picture run on into the
    bleed (the picture mirrored at its edge), so the trim shows exactly the fitted art.

    ``tint`` (colour, alpha) draws the art as seen through a panel of that colour: the
    panels call this inside their own outline, so they need no transparency.
    """

    def ink(colour: Color) -> Color:
        return blend(tint[0], tint[1], colour) if tint else colour

    box = layout.art_box
    x, y, bw, bh = layout.rect(box)
    area = layout.rect(layout.bleed_rect(box))
    ground = darker(layout.colours.background, 0.55)
    c.setFillColor(ink(ground))
    c.rect(*area, fill=1, stroke=0)
    if face.art is None:
        draw_placeholder(c, x, y, bw, bh, colour=side, light=layout.colours.placeholder_light,
                         name=face.name, font=fonts[layout.art.placeholder_font],
                         size=layout.art.placeholder_size,
                         style=PlaceholderStyle.of(layout.art.placeholder),
                         emblem=_emblem(face, layout), area=area, tint=tint)
        return [warning("art-placeholder", "no art: a placeholder is printed",
                        card=face.card_id, lang=face.lang)]
    art = prepare_art(face.art, box.w, box.h, ppi=layout.art.min_ppi, card=face.card_id)
    aw, ah = art.w_mm * mm, art.h_mm * mm
    ix, iy = x + (bw - aw) / 2, y + (bh - ah) / 2
    # run the picture on only where it reaches the box's edge and the box has bleed there
    tol = 0.01 * mm
    grow = (x - area[0] if ix <= x + tol else 0.0,
            area[0] + area[2] - (x + bw) if ix + aw >= x + bw - tol else 0.0,
            area[1] + area[3] - (y + bh) if iy + ah >= y + bh - tol else 0.0,
            y - area[1] if iy <= y + tol else 0.0)
    left, right, top, bottom = grow if any(g > tol for g in grow) else (0.0, 0.0, 0.0, 0.0)
    data = (mirrored_bleed(art, tuple(g / mm for g in grow)) if left + right + top + bottom
            else art.data)
    # transparency is flattened here, on the art's own ground, never on white paper
    data = flattened(data, _rgb(ground))
    if tint:  # CMYK art under a panel is mixed in the press's inks (render.cmyk)
        cmyk = getattr(c, "cmyk", None)
        data = (tinted if cmyk is None else cmyk.tinted)(data, _rgb(tint[0]), tint[1])
    c.drawImage(ImageReader(io.BytesIO(data)), ix - left, iy - bottom,
                aw + left + right, ah + top + bottom)
    return resolution_findings(art, layout.art.min_ppi, face.art, face.card_id, face.lang)


def _emblem(face: CardFace, layout: Layout) -> Emblem | None:
    """What the stand-in art shows large: the card's own shield (11.1), else its house's
    arms, else the glyph of its kind (``art.placeholder.kind_emblems``)."""
    if face.shield is not None:
        return partial(icons.draw_heraldic_shield, colour=face.shield.colour,
                       charge=face.shield.charge)
    if face.side is not None:
        return partial(icons.draw_house_arms, house=face.side)
    glyph = (layout.art.placeholder.get("kind_emblems") or {}).get(face.kind)
    if glyph == "coin" and face.yields:
        style = _Icons(face).currency(face.yields[0])
        return partial(icons.draw_coin, colour=style.colour, mark=style.mark)
    return {"scroll": icons.draw_scroll, "steel_shield": icons.draw_steel_shield,
            "crown": icons.draw_crown}.get(glyph or "")


def _rgb(colour: Color) -> tuple[int, int, int]:
    return (round(colour.red * 255), round(colour.green * 255), round(colour.blue * 255))


def _panel(c: Canvas, face: CardFace, layout: Layout, fonts: dict[str, str], side: str,
           outline: Path, colour: Color, alpha: float) -> None:
    """A see-through panel, pre-mixed: inside ``outline``, the card's ground and the art as
    they look through ``colour`` at ``alpha``, all opaque."""
    c.saveState()
    c.clipPath(outline, stroke=0, fill=0)
    c.setFillColor(blend(colour, alpha, hex_colour(side)))  # over the card's own ground
    c.rect(0, 0, *layout.page_size, fill=1, stroke=0)
    art = c.beginPath()
    art.rect(*layout.rect(layout.bleed_rect(layout.art_box)))
    c.clipPath(art, stroke=0, fill=0)
    _draw_art(c, face, layout, fonts, side, tint=(colour, alpha))
    c.restoreState()


def _draw_name_bar(c: Canvas, face: CardFace, layout: Layout, fonts: dict[str, str], side: str,
                   report: CardReport) -> None:
    nb, col = layout.name_bar, layout.colours
    y = layout.rect(nb.box)[1]
    bx, by, bbw, bbh = layout.rect(layout.bleed_rect(nb.box))  # runs on into the bleed
    bar = c.beginPath()
    bar.rect(bx, by, bbw, bbh)
    _panel(c, face, layout, fonts, side, bar, hex_colour(side), col.name_panel_opacity)
    c.setStrokeColor(lighter(side, 0.45))
    c.setLineWidth(0.5)
    c.line(bx, y + 0.6, bx + bbw, y + 0.6)
    font = fonts[nb.font]
    setting = _name_setting(face, layout, fonts)
    if setting is None:  # reported as name-overflow: printed condensed on one line
        area = _name_area(face, layout)
        width = c.stringWidth(face.name, font, nb.min_size)
        setting = NameSetting((face.name,), nb.min_size, min(1.0, area / width))
    cx = layout.x(nb.box.x + nb.box.w / 2)
    if len(setting.lines) == 1:
        bases = [layout.y(nb.box.y + nb.baseline)]
    else:
        first = nb.box.y + (nb.two_line_baseline or nb.baseline)
        bases = [layout.y(first), layout.y(first) - setting.size * nb.leading]
    c.setFillColor(hex_colour(col.text_light))
    c.setFont(font, setting.size)
    for line, base in zip(setting.lines, bases, strict=True):
        c.saveState()
        c.translate(cx, base)
        c.scale(setting.scale, 1)
        c.drawCentredString(0, 0, printable(line))
        c.restoreState()


def _halo_text(c: Canvas, x: float, y: float, text: str, font: str, size: float,
               fill: str, halo: str | None, width: float) -> None:
    """A centred figure, optionally with an outline (halo) so it reads over any emblem."""
    tw = c.stringWidth(text, font, size)
    if halo:
        c.saveState()  # the text render mode is graphics state: Q restores fill-only text
        c.setStrokeColor(hex_colour(halo))
        c.setLineWidth(width * 2)
        c.setLineJoin(1)
        t = c.beginText(x - tw / 2, y)
        t.setFont(font, size)
        t.setTextRenderMode(1)
        t.textOut(text)
        c.drawText(t)
        c.restoreState()
    c.setFillColor(hex_colour(fill))
    c.setFont(font, size)
    c.drawString(x - tw / 2, y, text)


def _draw_values(c: Canvas, face: CardFace, layout: Layout, fonts: dict[str, str]) -> None:
    """2.31 political on the scroll (dark figure), 2.32 military on steel (light figure)."""
    v, col = layout.values, layout.colours
    font = fonts[v.font]
    if face.political is not None:
        x, y, w, h = layout.rect(v.political)
        icons.draw_scroll(c, x, y, w, h)
        _halo_text(c, x + w * 0.46, y + h / 2 - v.size * 0.34, str(face.political), font,
                   v.size, col.text, None, v.outline)
    if face.military is not None:
        x, y, w, h = layout.rect(v.military)
        icons.draw_steel_shield(c, x, y, w, h)
        _halo_text(c, x + w / 2, y + h / 2 - v.size * 0.3, str(face.military), font,
                   v.size, col.text_light, col.text, v.outline)


#: The body text's ink as drawn, as shares of the size (Charis SIL, measured at 400 dpi):
#: ascenders reach 0.75 above the baseline, descenders (y, p, j) 0.27 below; inline
#: icons (_Icons.draw) 0.95 (a shield, with its outline) or 0.82 above and 0.25 below.
ASCENT, DESCENT, ICON_UP, SHIELD_UP, ICON_DOWN = 0.75, 0.27, 0.82, 0.95, 0.25
DESCENDERS = frozenset("gjpqyý,;()[]{}/|")
#: the baseline's depth below a line's top, as textflow.draw sets it (share of the size)
BASELINE = 0.86


def _divider_shift(above: textflow.Line, below: textflow.Line, leading: float) -> float:
    """How far up (share of the size) the Deed's divider moves from the middle of the
    paragraph gap to the middle of the clear space between the ink of the line above and
    that of the line below (``leading``: the line pitch, share of the size). The gap's
    middle lay near the descenders and touched them (issue 41, no. 17)."""
    depth = max((ICON_DOWN if p.atom.icon else DESCENT if DESCENDERS & set(p.atom.text)
                 else 0.0 for p in above.items), default=0.0)
    height = max((SHIELD_UP if (p.atom.icon or "").startswith("shield-")
                  else ICON_UP if p.atom.icon else ASCENT for p in below.items),
                 default=ASCENT)
    # ink bottom above: gap middle + gap/2 + (leading - BASELINE) - depth; ink top below:
    # gap middle - gap/2 - BASELINE + height; the rule goes halfway between the two
    return (leading - 2 * BASELINE + height - depth) / 2


def _draw_text_panel(c: Canvas, face: CardFace, layout: Layout, fonts: dict[str, str],
                     ic: _Icons, fit: FitResult, side: str) -> None:
    tb, col = layout.text_box, layout.colours
    x, y, w, h = layout.rect(tb.panel)
    outline = c.beginPath()
    outline.roundRect(x, y, w, h, 1.2 * mm)
    _panel(c, face, layout, fonts, side, outline, hex_colour(col.panel), col.panel_opacity)
    c.setStrokeColor(hex_colour(col.rule))
    c.setLineWidth(0.6)
    c.roundRect(x, y, w, h, 1.2 * mm, fill=0, stroke=1)
    tx, ty, tw, th = layout.rect(tb.text)
    if not fit.paras:
        _ornament(c, tx + tw / 2, ty + th * 0.45, side, col.rule)
        return
    top = ty + th - max(0.0, th - fit.height) * 0.12  # nearer the top than the bottom
    c.saveState()
    p = c.beginPath()
    p.rect(tx, ty, tw, th)
    c.clipPath(p, stroke=0, fill=0)  # never outside the text box (and so the safe zone)

    def between(yy: float, i: int) -> None:
        if tb.divider and fit.paras[i - 1].kind == "deed":
            c.setStrokeColor(hex_colour(col.rule))
            c.setLineWidth(0.4)
            yy += fit.size * _divider_shift(fit.paras[i - 1].lines[-1], fit.paras[i].lines[0],
                                            fit.leading / fit.size)
            c.line(tx + tw * 0.2, yy, tx + tw * 0.8, yy)

    textflow.draw(c, fit, tx, top, fonts=fonts, icons=ic.iconset(), colour=hex_colour(col.text),
                  para_gap=tb.paragraph_gap, between=between)
    c.restoreState()


def _ornament(c: Canvas, cx: float, cy: float, side: str, rule: str) -> None:
    """A quiet centre piece for cards without text (Retinues, 2.37)."""
    c.setStrokeColor(hex_colour(rule))
    c.setLineWidth(0.5)
    c.line(cx - 16 * mm, cy, cx - 2.6 * mm, cy)
    c.line(cx + 2.6 * mm, cy, cx + 16 * mm, cy)
    c.setFillColor(hex_colour(side))
    p = c.beginPath()
    d = 1.8 * mm
    p.moveTo(cx, cy + d)
    p.lineTo(cx + d, cy)
    p.lineTo(cx, cy - d)
    p.lineTo(cx - d, cy)
    p.close()
    c.drawPath(p, fill=1, stroke=0)


def _draw_coin_row(c: Canvas, face: CardFace, layout: Layout, fonts: dict[str, str],
                   ic: _Icons, side: str) -> None:
    cr, col = layout.coin_row, layout.colours
    d, step = cr.diameter * mm, (cr.diameter + cr.gap) * mm
    cy = layout.y(cr.centre_y)
    x = layout.x(cr.left)
    for cid in face.yields:
        s = ic.currency(cid)
        icons.draw_coin(c, x, cy - d / 2, d, d, s.colour, s.mark)
        x += step
    if face.use_cost_label:
        para = textflow.paragraph(face.use_cost_label, cr.label_font)
        textflow.draw_inline(c, para, layout.x(cr.left), cy - cr.label_size * 0.33,
                             fonts=fonts, icons=ic.iconset(), size=cr.label_size,
                             colour=hex_colour(col.text))
    x = layout.x(cr.right) - d
    for cid in reversed(face.cost):
        s = ic.currency(cid)
        icons.draw_coin(c, x, cy - d / 2, d, d, s.colour, s.mark)
        x -= step
    if face.kind_label or face.year is not None:
        font, size = fonts[cr.event_font], cr.event_size
        if face.kind_label:
            _label_pill(c, layout.x(cr.left), cy, face.kind_label.upper(), font, size,
                        col.text_light, side, side, align="left", tracking=0.6)
        if face.year is not None:
            _label_pill(c, layout.x(cr.right), cy, str(face.year), font, size + 1,
                        col.text_light, side, side, align="right")


def _label_pill(c: Canvas, x: float, cy: float, text: str, font: str, size: float, ink: str,
                fill: str, stroke: str, *, align: str, tracking: float = 0.0) -> None:
    tw = c.stringWidth(text, font, size) + tracking * max(0, len(text) - 1)
    pad, h = size * 0.7, size * 1.75
    left = x if align == "left" else x - tw - 2 * pad
    c.setFillColor(hex_colour(fill))
    c.setStrokeColor(darker(stroke, 0.3))
    c.setLineWidth(0.5)
    c.roundRect(left, cy - h / 2, tw + 2 * pad, h, h / 2, fill=1, stroke=1)
    t = c.beginText(left + pad, cy - size * 0.33)
    t.setFont(font, size)
    t.setCharSpace(tracking)
    t.setFillColor(hex_colour(ink))
    t.textOut(text)
    c.drawText(t)


def _draw_bottom_strip(c: Canvas, face: CardFace, layout: Layout, fonts: dict[str, str]) -> None:
    bs, col = layout.bottom_strip, layout.colours
    font = fonts[bs.font]
    y = layout.y(bs.baseline)
    c.setFillColor(hex_colour(col.text_light))
    c.setFont(font, bs.size)
    c.drawString(layout.x(bs.left), y, f"{face.deck_label} · {face.number}")
    c.drawRightString(layout.x(bs.right), y, face.version)


# --- the back ----------------------------------------------------------------------------
