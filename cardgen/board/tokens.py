"""Token sheets: shield markers, round, loyalty and card-play markers, vote markers,
influence and military counters, currency stand-ins and reminder tokens (3.24, 11.0).

Quantities and denominations come from ``card_data/components.yaml``, sizes from
``layouts/tokens.yaml``. :func:`token_list` and :func:`pack` are the layout model; the
back of a token sits at the mirror of its front for the duplex flip (:func:`back_xy`).
Every face is painted ``bleed`` mm beyond its cut; the crop marks start beyond that bleed.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import HexColor, white
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..data.project import Project
from ..errors import CardgenError, error
from ..render import icons
from ..render.cmyk import CmykConverter
from ..wording.components import token_inventory
from . import glyphs
from .base import PAPERS, Ctx, display_name, make_ctx, new_canvas, saved, text


@dataclass(frozen=True)
class Token:
    kind: str  # shield | round | loyalty | card_play | vote | influence | military | currency | reminder
    key: str  # shield id, side, currency id or reminder id
    size: float  # mm, square
    value: int | None = None


@dataclass(frozen=True)
class Placed:
    token: Token
    page: int  # sheet index (front page 2·page, back page 2·page + 1)
    x: float  # lower-left corner, mm, PDF coordinates
    y: float


def token_list(ctx: Ctx) -> list[Token]:
    """Every token to print, in sheet order (the inventory of components.yaml), each with
    its size from the token layout."""
    size = ctx.layout.data["sizes"]
    return [Token(t.kind, t.key, size[t.kind], t.value) for t in token_inventory(ctx.data, ctx.comp)]


def pack(tokens: list[Token], paper: tuple[float, float], margin: float, gutter: float,
         margin_y: float | None = None) -> list[Placed]:
    """Shelf packing, top-left first; a new row whenever the token size changes.
    ``margin_y``: the top and bottom margin, when it differs from the sides'."""
    pw, ph = paper
    my = margin if margin_y is None else margin_y
    out: list[Placed] = []
    page, x, top, row_h = 0, margin, ph - my, 0.0
    last_size: float | None = None
    for t in tokens:
        if t.size > min(pw, ph) - 2 * margin:
            raise CardgenError(error("token-size", f"a {t.kind} token of {t.size} mm does not "
                                     "fit the page"))
        if x + t.size > pw - margin + 1e-6 or (last_size is not None and t.size != last_size):
            if x > margin:
                top -= row_h + gutter
            x, row_h = margin, 0.0
        if top - t.size < my - 1e-6:
            page, x, top, row_h = page + 1, margin, ph - my, 0.0
        out.append(Placed(t, page, x, top - t.size))
        x += t.size + gutter
        row_h = max(row_h, t.size)
        last_size = t.size
    return out


def back_x(p: Placed, paper_w: float) -> float:
    """Where the back of a token goes: mirrored across the page's vertical axis, so a
    long-edge duplex flip puts it behind its front."""
    return paper_w - p.x - p.token.size


def back_xy(p: Placed, paper: tuple[float, float], flip: str) -> tuple[float, float]:
    """The back's lower-left corner: long-edge flips mirror x, short-edge flips mirror y."""
    if flip == "short":
        return p.x, paper[1] - p.y - p.token.size
    return back_x(p, paper[0]), p.y


# --- drawing ------------------------------------------------------------------------------

class Faces:
    def __init__(self, ctx: Ctx, c: Canvas):
        self.ctx, self.c = ctx, c
        self.cols = ctx.layout.data["colours"]
        self.bleed = float(ctx.layout.data["sheet"]["bleed"])
        self._forms: dict[tuple[Token, bool], str] = {}

    def place(self, t: Token, x: float, y: float, back: bool) -> None:
        """Draw token face ``t`` with its lower-left corner at (x, y) mm: each distinct face
        is drawn once per file as a form (with its bleed) and placed by reference."""
        key = (t, back and t.kind == "card_play")  # only a card-play token's back differs
        name = self._forms.get(key)
        c, b, s = self.c, self.bleed, t.size
        if name is None:
            name = self._forms[key] = f"token-{len(self._forms) + 1}"
            c.beginForm(name, -b * mm, -b * mm, (s + b) * mm, (s + b) * mm)
            self.draw(t, 0.0, 0.0, back)
            c.endForm()
        with saved(c):
            c.translate(x * mm, y * mm)
            c.doForm(name)

    def col(self, key: str) -> HexColor:
        return HexColor(self.cols[key])

    def tile(self, x: float, y: float, s: float, fill: HexColor) -> None:
        """The face's ground, run out ``bleed`` mm beyond the cut on every side."""
        b = self.bleed
        with saved(self.c):
            self.c.setFillColor(fill)
            self.c.rect((x - b) * mm, (y - b) * mm, (s + 2 * b) * mm, (s + 2 * b) * mm, 0, 1)

    def draw(self, t: Token, x: float, y: float, back: bool) -> None:
        c, ctx, s = self.c, self.ctx, t.size
        cx, cy = x + s / 2, y + s / 2
        bold = ctx.font("bold")
        if t.kind == "shield":
            sh = ctx.data.shields[t.key]
            self.tile(x, y, s, self.col("paper"))
            glyphs.shield(c, cx, cy + 1.2, s * 0.62, sh.colour, sh.charge)
            with saved(c):
                c.setFillColor(self.col("ink"))
                name = display_name(sh.name.values[ctx.lang], ctx.lang)  # a caption: capital
                text(c, cx, y + 1.6, name, ctx.font("bold"), 6, "centre", width=s - 1.5)
        elif t.kind in ("round", "loyalty"):
            self.tile(x, y, s, self.col("marker"))
            if t.kind == "round":
                icons.draw_crown(c, (cx - 5) * mm, (cy - 1) * mm, 10 * mm, 7 * mm)
            else:
                icons.draw_house_arms(c, (cx - 4) * mm, (cy - 2) * mm, 8 * mm, 9 * mm,
                                      "luxembourg")
            with saved(c):
                c.setFillColor(self.col("ink"))
                label = ctx.label("token_round" if t.kind == "round" else "token_john")
                text(c, cx, y + 2.6, label, bold, 8, "centre", width=s - 2)
        elif t.kind == "card_play":
            side = "wittelsbach" if back else "luxembourg"
            self.side_face(t, x, y, side, ctx.label("token_play"), arms=True)
        elif t.kind == "vote":
            self.side_face(t, x, y, t.key, ctx.label("token_vote"), arms=True)
        elif t.kind in ("influence", "military"):
            self.tile(x, y, s, self.col(t.key))
            emblem = icons.draw_scroll if t.kind == "influence" else icons.draw_steel_shield
            emblem(c, (x + 1) * mm, (y + s - 6) * mm, 5 * mm, 5 * mm)
            value = self.label("value")
            with saved(c):
                c.setFillColor(white)
                text(c, cx + 1.5, cy - 3, str(t.value), value[0], value[1], "centre")
        elif t.kind == "currency":
            cu = ctx.data.currencies[t.key]
            self.tile(x, y, s, self.col("paper"))
            glyphs.coin(c, cx, cy + 0.8, s * 0.7, cu.colour, cu.mark)
            with saved(c):
                c.setFillColor(self.col("ink"))
                text(c, x + s - 1, y + 1.2, str(t.value), bold, 7, "right")
        elif t.kind == "reminder":
            rem = next(r for r in ctx.comp.tokens["reminders"] if r["id"] == t.key)
            self.tile(x, y, s, self.col("neutral"))
            with saved(c):
                c.setFillColor(self.col("ink"))
                text(c, cx, cy + 1.5, rem["text"][ctx.lang], bold, 8, "centre", width=s - 2)
                text(c, cx, cy - 3.5, rem["note"][ctx.lang], ctx.font("italic"), 6, "centre",
                     width=s - 2)
                text(c, cx, y + 1.6, rem.get("rule", ""), ctx.font("body"), 5, "centre")

    def side_face(self, t: Token, x: float, y: float, side: str, label: str,
                  arms: bool) -> None:
        c, s = self.c, t.size
        self.tile(x, y, s, self.col(side))
        if arms:
            # above the two labels (the 6 pt bold house name reaches 0.4 of a 16 mm token)
            icons.draw_house_arms(c, (x + s / 2 - s * 0.19) * mm, (y + s * 0.42) * mm,
                                  s * 0.38 * mm, s * 0.43 * mm, side)
        (label_font, label_size), (name_font, name_size) = (self.label("side_label"),
                                                            self.label("side_name"))
        with saved(c):
            c.setFillColor(white)
            text(c, x + s / 2, y + 2.6, label, label_font, label_size, "centre", width=s - 2)
            text(c, x + s / 2, y + 2.6 + label_size * 0.3528 + 0.4, self.ctx.side_name(side),
                 name_font, name_size, "centre", width=s - 2)

    def label(self, name: str) -> tuple[str, float]:
        """(font, size) of a token label in layouts/tokens.yaml ``labels``."""
        spec = self.ctx.layout.data["labels"][name]
        return self.ctx.font(spec["font"]), float(spec["size"])


def crop_marks(c: Canvas, x: float, y: float, s: float, length: float, offset: float) -> None:
    with saved(c):
        c.setStrokeColor(HexColor("#000000"))
        c.setLineWidth(0.2 * mm)
        for px in (x, x + s):
            for py in (y, y + s):
                dy = -1 if py == y else 1
                dx = -1 if px == x else 1
                c.line(px * mm, (py + dy * offset) * mm, px * mm, (py + dy * (offset + length)) * mm)
                c.line((px + dx * offset) * mm, py * mm, (px + dx * (offset + length)) * mm, py * mm)


def sheet_findings(ctx: Ctx) -> list:
    """The marks must clear the bleed of their own token and of its neighbour."""
    sheet, src = ctx.layout.data["sheet"], ctx.layout.source
    out = []
    if sheet["crop_offset"] <= sheet["bleed"]:
        out.append(error("token-marks", f"tokens.yaml sheet.crop_offset ({sheet['crop_offset']} "
                         f"mm) must exceed sheet.bleed ({sheet['bleed']} mm): marks start "
                         "beyond the bleed", location=src.at("sheet", "crop_offset")))
    if sheet["crop_offset"] + sheet["crop"] > sheet["gutter"] - sheet["bleed"] + 1e-9:
        out.append(error("token-marks", "tokens.yaml sheet.gutter is too narrow: a mark "
                         "(crop_offset + crop) would reach the next token's bleed",
                         location=src.at("sheet", "gutter"),
                         hint="gutter ≥ crop_offset + crop + bleed"))
    return out


def build_tokens(project: Project, lang: str, paper: str = "a4",
                 flip: str = "long", cmyk: CmykConverter | None = None,
                 back_offset: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """Token sheets on A4 (or Letter): each front page followed by its back page, mirrored
    for the duplex ``flip`` (long or short edge); every back page's faces and marks moved
    by ``back_offset`` (mm right and up as seen on the back, as the card sheets' backs)."""
    if paper not in PAPERS:
        raise CardgenError(error("bad-paper", f"unknown paper '{paper}'",
                                 hint=f"use one of: {', '.join(PAPERS)}"))
    ctx = make_ctx(project, lang, "tokens")
    found = sheet_findings(ctx)
    if found:
        raise CardgenError(found)
    pw, ph = PAPERS[paper]
    sheet = ctx.layout.data["sheet"]
    placed = pack(token_list(ctx), (pw, ph), sheet["margin"], sheet["gutter"],
                  sheet["margin_y"])
    buf, c = new_canvas((pw, ph), ctx.label("title"), ctx.font("body"), cmyk)
    c.setViewerPreference("PrintScaling", "None")
    c.setViewerPreference("Duplex", "DuplexFlipShortEdge" if flip == "short"
                          else "DuplexFlipLongEdge")
    hint = ctx.label("tokens_hint_short" if flip == "short" else "tokens_hint_long")
    faces = Faces(ctx, c)
    pages = max((p.page for p in placed), default=0) + 1
    for page in range(pages):
        for back in (False, True):
            c.setFont(ctx.font("body"), 8)
            on = [p for p in placed if p.page == page]
            dx, dy = back_offset if back else (0.0, 0.0)
            for p in on:
                x, y = back_xy(p, (pw, ph), flip) if back else (p.x, p.y)
                faces.place(p.token, x + dx, y + dy, back)
            for p in on:  # after every face, so no neighbour's bleed covers a mark
                x, y = back_xy(p, (pw, ph), flip) if back else (p.x, p.y)
                crop_marks(c, x + dx, y + dy, p.token.size, sheet["crop"], sheet["crop_offset"])
            head = ctx.label("tokens_back" if back else "tokens_front")
            mark_reach = sheet["crop_offset"] + sheet["crop"]  # beyond the outermost cut
            text(c, pw / 2, ph - sheet["margin_y"] + mark_reach + 2,
                 f"{ctx.label('title')} · {head} · {page + 1}/{pages}", ctx.font("italic"), 7,
                 "centre")
            text(c, pw / 2, sheet["margin_y"] - mark_reach - 4, hint, ctx.font("italic"), 7,
                 "centre")
            c.showPage()
    c.save()
    return buf.getvalue()
