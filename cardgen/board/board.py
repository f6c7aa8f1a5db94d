"""The map sheet (2.2): countries, battlegrounds, supply lines, tracks, Courts, Curia,
treasuries. Geometry from ``layouts/board.yaml``; names and values from card_data.

:func:`regions` is the board's layout model (what goes where, and which way up), used
by the drawing code and by the tests; :func:`draw_board` draws the trimmed board with
its origin at the lower-left trim corner; :func:`build_board` makes the full-size PDF.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..data.project import Project
from ..render.cmyk import CmykConverter
from ..wording.sandbox import fill_in
from . import glyphs
from .base import Ctx, make_ctx, new_canvas, saved, text, wrap


@dataclass(frozen=True)
class Region:
    """A board area: box [x, y, w, h] in mm with y down from the top trim edge."""

    id: str
    kind: str
    box: tuple[float, float, float, float]
    rotate: int = 0  # degrees, about the box centre

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return (x + w / 2, y + h / 2)


def sheet(ctx: Ctx) -> tuple[float, float, float]:
    s = ctx.layout.data["sheet"]
    return float(s["width"]), float(s["height"]), float(s["bleed"])


def regions(ctx: Ctx) -> dict[str, Region]:
    """Every board area by id, from the layout and the places in card_data."""
    lay = ctx.layout.data
    out: dict[str, Region] = {"map": Region("map", "map", tuple(lay["map"]["box"]))}
    cw, ch = lay["country"]["size"]
    for pid, place in ctx.data.places.items():
        if place.category == "country" and pid in lay["countries"]:
            x, y = lay["countries"][pid]["at"]
            out[pid] = Region(pid, "country", (x - cw / 2, y - ch / 2, cw, ch))
        elif place.category == "battleground" and pid in lay["battlegrounds"]:
            x, y = lay["battlegrounds"][pid]["at"]
            r = lay["battleground"]["radius"]
            out[pid] = Region(pid, "battleground", (x - r, y - r, 2 * r, 2 * r))
    for side, spec in lay["treasuries"].items():
        rid = f"treasury-{side}"
        out[rid] = Region(rid, "treasury", tuple(spec["box"]), int(spec.get("rotate", 0)))
    for pid, spec in lay["panels"].items():
        out[pid] = Region(pid, "panel", tuple(spec["box"]))
    out["legend"] = Region("legend", "panel", tuple(lay["legend"]["box"]))
    return out


def track_spaces(ctx: Ctx) -> dict[str, list[tuple[float, float, float, float]]]:
    """The spaces of the round, card-play and loyalty tracks (2.25, 2.27) as boxes in board
    millimetres (y down), left to right: the drawing and the online table's markers use them."""
    regions_ = regions(ctx)
    phases = sorted(ctx.data.phases, key=lambda p: min(p.rounds))
    rounds = sum(len(ph.rounds) for ph in phases)
    plays = max((p.plays for p in ctx.data.phases), default=6) + 2  # and the +1, +2 spaces
    out: dict[str, list[tuple[float, float, float, float]]] = {}
    for track, n, inset, top, height in (("round_track", rounds, 0.8, 18, 26),
                                         ("card_plays", plays, 1.2, 12, 20),
                                         ("loyalty", 5, 1.2, 12, 18)):
        x, y, w, _h = regions_[track].box
        cell = (w - 6) / max(1, n)
        out[track] = [(x + 3 + i * cell + inset, y + top, cell - 2 * inset, height)
                      for i in range(n)]
    return out


class Board:
    """Draws one language's board onto a canvas whose origin is the lower-left trim corner."""

    def __init__(self, ctx: Ctx, c: Canvas):
        self.ctx, self.c = ctx, c
        self.lay = ctx.layout.data
        self.W, self.H, _ = sheet(ctx)
        self.regions = regions(ctx)
        self.sizes = self.lay["sizes"]
        self.ink = ctx.layout.colour("ink")
        self.muted = ctx.layout.colour("muted")

    # helpers ------------------------------------------------------------------------
    def y(self, y_top: float) -> float:
        """Top-down layout y → PDF y (mm)."""
        return self.H - y_top

    def col(self, key: str) -> Color:
        return self.ctx.layout.colour(key)

    def f(self, role: str) -> str:
        return self.ctx.font(role)

    def rect(self, box, fill: Color | None, stroke: Color | None = None, lw: float = 0.4,
             radius: float = 2.0, dash: list[float] | None = None) -> None:
        x, y, w, h = box
        c = self.c
        with saved(c):
            if fill is not None:
                c.setFillColor(fill)
            c.setStrokeColor(stroke or self.ink)
            c.setLineWidth(lw * mm)
            if dash:
                c.setDash([d * mm for d in dash])
            c.roundRect(x * mm, self.y(y + h) * mm, w * mm, h * mm, radius * mm,
                        1 if stroke is not None or fill is None else 0,
                        1 if fill is not None else 0)

    def panel(self, box, title: str, colour: Color | None = None) -> None:
        """A framed panel with a title band across its top."""
        x, y, w, _h = box
        self.rect(box, self.col("panel"), self.ink, 0.5)
        band = colour or self.ink
        self.rect((x, y, w, 9), band, band, 0.5)
        with saved(self.c):
            self.c.setFillColor(white)
            text(self.c, x + w / 2, self.y(y + 6.6), title, self.f("bold"),
                 self.sizes["panel_title"], "centre", width=w - 6)

    # whole board ------------------------------------------------------------------------
    def draw(self) -> None:
        c = self.c
        c.setFont(self.f("body"), 10)  # a font before anything else: no stray Helvetica
        self.background()
        self.map()
        for side in ("wittelsbach", "luxembourg"):
            self.treasury(side)
        self.courts()
        self.round_track()
        self.card_plays()
        self.curia()
        self.loyalty()
        self.title()

    def background(self) -> None:
        b = sheet(self.ctx)[2]
        with saved(self.c):
            self.c.setFillColor(self.col("background"))
            self.c.rect(-b * mm, -b * mm, (self.W + 2 * b) * mm, (self.H + 2 * b) * mm, 0, 1)

    # map ---------------------------------------------------------------------------------
    def map(self) -> None:
        c, m = self.c, self.lay["map"]
        box = m["box"]
        self.rect(box, self.col("land"), self.ink, 0.6, radius=3)
        x, y, w, h = box
        with saved(c):
            p = c.beginPath()
            p.roundRect(x * mm, self.y(y + h) * mm, w * mm, h * mm, 3 * mm)
            c.clipPath(p, 0, 0)
            c.setFillColor(self.col("sea"))
            for poly in m.get("seas", []):
                c.drawPath(self._poly(poly), 0, 1)
            c.setStrokeColor(self.col("river"))
            c.setLineWidth(1.1 * mm)
            c.setLineCap(1)
            c.setLineJoin(1)
            for line in m.get("rivers", []):
                c.drawPath(self._poly(line, close=False), 1, 0)
        lx, ly = m["label_at"]
        with saved(c):  # on a patch of land colour: no river line runs through the title
            label = " ".join(self.ctx.label("empire").upper())
            width = c.stringWidth(label, self.f("display"), 22) / mm
            c.setFillColor(self.col("land"))
            c.roundRect((lx - width / 2 - 3) * mm, (self.y(ly) - 3) * mm, (width + 6) * mm,
                        11 * mm, 2 * mm, stroke=0, fill=1)
            c.setFillColor(self.muted)
            c.setFont(self.f("display"), 22)
            c.drawCentredString(lx * mm, self.y(ly) * mm, label)
        self.supply_lines()
        for r in self.regions.values():
            if r.kind == "country":
                self.country(r)
            elif r.kind == "battleground":
                self.battleground(r)
        self.cities()
        self.legend()

    def _poly(self, pts, close: bool = True):
        p = self.c.beginPath()
        p.moveTo(pts[0][0] * mm, self.y(pts[0][1]) * mm)
        for px, py in pts[1:]:
            p.lineTo(px * mm, self.y(py) * mm)
        if close:
            p.close()
        return p

    def supply_lines(self) -> None:
        c = self.c
        spec = self.lay["supply"]
        for pid, place in self.ctx.data.places.items():
            if place.category != "battleground" or pid not in self.regions:
                continue
            start = self.regions[pid].centre
            links = [lk for lk in place.attrs.get("links", []) if lk in self.regions]
            for link in links:
                end = self.regions[link].centre
                pts = [start, *spec.get("via", {}).get(f"{pid}>{link}", []), end]
                with saved(c):
                    c.setStrokeColor(self.col("supply"))
                    c.setLineWidth(spec["width"] * mm)
                    c.setDash([d * mm for d in spec["dash"]])
                    c.drawPath(self._poly(pts, close=False), 1, 0)
                self._arrow(pts[-2], end, self.regions[link])
            if len(links) > 1:  # "Mainz or Trier": the controller chooses (8.42)
                ends = [self.regions[lk].centre for lk in links]
                mx = sum(0.6 * start[0] + 0.4 * e[0] for e in ends) / len(ends)
                my = sum(0.6 * start[1] + 0.4 * e[1] for e in ends) / len(ends)
                self._tag(mx, my, self.ctx.label("supply_or"))

    def _tag(self, x: float, y: float, s: str) -> None:
        c = self.c
        font, size = self.f("bold_italic"), 12
        w = c.stringWidth(s, font, size) / mm + 4
        self.rect((x - w / 2, y - 4, w, 8), white, self.col("supply"), 0.6, radius=4)
        with saved(c):
            c.setFillColor(self.col("supply"))
            text(c, x, self.y(y + 1.6), s, font, size, "centre")

    def _arrow(self, a, b, target: Region) -> None:
        """Arrowhead where the line from a to b enters the target's box."""
        w, h = target.box[2:]
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1
        ux, uy = dx / length, dy / length
        # distance from b back to the box edge along the line
        tx = (w / 2) / abs(ux) if ux else math.inf
        ty = (h / 2) / abs(uy) if uy else math.inf
        t = min(tx, ty) + 1.0
        px, py = b[0] - ux * t, b[1] - uy * t
        s = 5.0
        pts = [(px, py), (px - ux * s - uy * s * 0.55, py - uy * s + ux * s * 0.55),
               (px - ux * s + uy * s * 0.55, py - uy * s - ux * s * 0.55)]
        with saved(self.c):
            self.c.setFillColor(self.col("supply"))
            self.c.drawPath(self._poly(pts), 0, 1)

    def country(self, r: Region) -> None:
        c, ctx = self.c, self.ctx
        place = ctx.data.places[r.id]
        kind = place.attrs.get("kind", "secular")
        colour = self.col(kind)
        x, y, w, h = r.box
        geo = self.lay["country"]
        hh, eh = geo["header"], geo["elector"]
        # body
        self.rect(r.box, self.col("panel"), colour, 0.8)
        # header band
        self.rect((x, y, w, hh), colour, colour, 0.8)
        if kind == "ecclesiastical":
            glyphs.mitre(c, x + 6, self.y(y + hh / 2), 8, white, colour)
        else:
            glyphs.crown(c, x + 6, self.y(y + hh / 2), 8, white)
        with saved(c):
            c.setFillColor(white)
            text(c, x + 11.5, self.y(y + hh / 2 + 2), ctx.place_name(r.id), self.f("bold"),
                 self.sizes["country"], width=w - 26)
        # stability badge
        bx, by = x + w - 7.5, y + hh / 2 + 1
        with saved(c):
            c.setFillColor(white)
            c.setStrokeColor(colour)
            c.setLineWidth(0.8 * mm)
            c.circle(bx * mm, self.y(by) * mm, 6.2 * mm, 1, 1)
            c.setFillColor(self.ink)
            text(c, bx, self.y(by + 2.6), str(place.attrs.get("stability", "?")),
                 self.f("bold"), 15, "centre")
        # kind + stability captions
        with saved(c):
            c.setFillColor(colour)
            text(c, x + 2.5, self.y(y + hh + 4), ctx.label(kind), self.f("italic"),
                 self.sizes["small"], width=w - 22)
            text(c, x + w - 2.5, self.y(y + hh + 4), ctx.label("stability"), self.f("italic"),
                 self.sizes["small"], "right")
            c.setFillColor(HexColor("#b5a98f"))
            text(c, x + w / 2, self.y(y + hh + (h - hh - eh) / 2 + 4), ctx.label("influence"),
                 self.f("display_italic"), 16, "centre")
        # elector box
        self.rect((x + 3, y + h - eh - 1.5, w - 6, eh), self.col("elector"), self.ink, 0.5,
                  radius=1.5)
        with saved(c):
            c.setFillColor(self.muted)
            text(c, x + w / 2, self.y(y + h - eh / 2 - 0.5), ctx.label("elector_votes"),
                 self.f("italic"), self.sizes["small"], "centre")

    def battleground(self, r: Region) -> None:
        c, ctx = self.c, self.ctx
        place = ctx.data.places[r.id]
        cx, cy = r.centre
        rad = r.box[2] / 2
        pts = [(cx + rad * math.cos(math.pi / 8 + i * math.pi / 4),
                cy + rad * math.sin(math.pi / 8 + i * math.pi / 4)) for i in range(8)]
        with saved(c):
            c.setFillColor(self.col("battleground"))
            c.setStrokeColor(self.col("battleground_edge"))
            c.setLineWidth(1.2 * mm)
            c.drawPath(self._poly(pts), 1, 1)
        # crossed swords small above the name, never across it
        glyphs.swords(c, cx, self.y(cy - rad + 8.5), 7, HexColor("#a89f8b"))
        name = ctx.place_name(r.id)
        size = self.sizes["battleground"]
        lines = wrap(name, self.f("bold"), size, 2 * rad - 10)
        with saved(c):
            c.setFillColor(self.ink)
            top = cy - 5 - (len(lines) - 1) * 2.6
            for i, line in enumerate(lines):
                text(c, cx, self.y(top + i * 5.2), line, self.f("bold"), size, "centre",
                     width=2 * rad - 8)
            c.setFillColor(self.muted)
            text(c, cx, self.y(cy + 6), ctx.label("military"), self.f("italic"),
                 self.sizes["small"], "centre")
        bonus = place.attrs.get("bonus", "card")
        label = ctx.label(f"bonus_{bonus}")
        bw = c.stringWidth(label, self.f("bold"), self.sizes["label"]) / mm + 12
        self.rect((cx - bw / 2, cy + rad - 14, bw, 8), self.ink, self.ink, 0.4, radius=4)
        icon = glyphs.card_icon if bonus == "card" else glyphs.play_icon
        icon(c, cx - bw / 2 + 4.5, self.y(cy + rad - 10), 5, self.ink)
        with saved(c):
            c.setFillColor(white)
            text(c, cx + 3, self.y(cy + rad - 8.4), label, self.f("bold"), self.sizes["label"],
                 "centre")

    def cities(self) -> None:
        c = self.c
        for _cid, spec in self.lay["map"].get("cities", {}).items():
            place = self.ctx.data.places.get(spec["place"])
            if place is None or "city" not in place.attrs:
                continue
            x, y = spec["at"]
            with saved(c):
                c.setFillColor(self.ink)
                c.setStrokeColor(white)
                c.setLineWidth(0.5 * mm)
                c.circle(x * mm, self.y(y) * mm, 1.8 * mm, 1, 1)
                text(c, x + 3, self.y(y + 1.2), place.attrs["city"].values[self.ctx.lang],
                     self.f("italic"), 10)

    def legend(self) -> None:
        c, ctx = self.c, self.ctx
        x, y, w, h = self.regions["legend"].box
        self.rect((x, y, w, h), self.col("panel"), self.muted, 0.4)
        with saved(c):
            c.setFillColor(self.ink)
            text(c, x + 3, self.y(y + 6), ctx.label("legend"), self.f("bold"), 10)
        rows = [
            ("mitre", ctx.label("ecclesiastical")),
            ("crown", ctx.label("secular")),
            ("stab", ctx.label("legend_stability")),
            ("bonus", ctx.label("legend_bonus")),
            ("supply", ctx.label("supply_line")),
        ]
        yy = y + 13
        size = self.sizes["small"]
        for key, label in rows:
            ix, iy = x + 6, yy
            if key == "mitre":
                glyphs.mitre(c, ix, self.y(iy), 6, self.col("ecclesiastical"))
            elif key == "crown":
                glyphs.crown(c, ix, self.y(iy), 6, self.col("secular"))
            elif key == "stab":
                with saved(c):
                    c.setStrokeColor(self.ink)
                    c.setFillColor(white)
                    c.circle(ix * mm, self.y(iy) * mm, 3 * mm, 1, 1)
                    c.setFillColor(self.ink)
                    text(c, ix, self.y(iy + 1.3), "3", self.f("bold"), 9, "centre")
            elif key == "bonus":
                glyphs.card_icon(c, ix - 1.5, self.y(iy), 5, self.ink)
                glyphs.play_icon(c, ix + 2.5, self.y(iy), 5, self.ink)
            else:
                with saved(c):
                    c.setStrokeColor(self.col("supply"))
                    c.setLineWidth(1.6 * mm)
                    c.setDash([2 * mm, 1.2 * mm])
                    c.line((ix - 4) * mm, self.y(iy) * mm, (ix + 4) * mm, self.y(iy) * mm)
            lines = wrap(label, self.f("body"), size, w - 16)
            with saved(c):
                c.setFillColor(self.ink)
                for i, line in enumerate(lines):
                    text(c, x + 13, self.y(iy + 1 - (len(lines) - 1) * 1.6 + i * 3.3), line,
                         self.f("body"), size)
            yy += max(13, 4 + 3.6 * len(lines))
        foot = f"{ctx.label('prototype')} {ctx.data.game.data_version}"
        with saved(c):
            c.setFillColor(self.muted)
            text(c, x + w / 2, self.y(y + h - 3), foot, self.f("italic"), 6.5, "centre",
                 width=w - 4)

    # treasuries ------------------------------------------------------------------------------
    def treasury(self, side: str) -> None:
        c, ctx = self.c, self.ctx
        r = self.regions[f"treasury-{side}"]
        x, y, w, h = r.box
        spec = self.lay["treasuries"][side]
        colour = self.col(side)
        with saved(c):
            if r.rotate:
                cx, cy = r.centre
                c.translate(cx * mm, self.y(cy) * mm)
                c.rotate(r.rotate)
                c.translate(-cx * mm, -self.y(cy) * mm)
            self.rect(r.box, self.col("panel"), colour, 1.0)
            self.rect((x, y + h - 10, w, 10), colour, colour, 1.0)
            c.setFillColor(white)
            title = ctx.label(spec["label"])
            text(c, x + 4, self.y(y + h - 3), title, self.f("bold"), 15)
            tw = c.stringWidth(title, self.f("bold"), 15) / mm
            text(c, x + 10 + tw, self.y(y + h - 3), ctx.label("exchange"), self.f("italic"), 10)
            text(c, x + w - 4, self.y(y + h - 3), ctx.side_name(side), self.f("bold"), 12,
                 "right")
            cur = [cid for cid in ctx.data.currencies if cid != "any"]
            cell = (w - 6) / max(1, len(cur))
            for i, cid in enumerate(cur):
                cu = ctx.data.currencies[cid]
                bx = x + 3 + i * cell
                self.rect((bx + 1, y + 2, cell - 2, h - 14), white, HexColor(cu.colour), 0.8)
                glyphs.coin(c, bx + 10, self.y(y + 2 + (h - 14) / 2), 13, cu.colour, cu.mark)
                c.setFillColor(self.ink)
                name = cu.name.values[ctx.lang]
                text(c, bx + 19, self.y(y + 2 + (h - 14) / 2 + 1.8), name[:1].upper() + name[1:],
                     self.f("bold"), 12, width=cell - 22)

    # panels -------------------------------------------------------------------------------------
    def courts(self) -> None:
        for pid in ("court-louis", "court-charles"):
            place = self.ctx.data.places[pid]
            side = place.attrs.get("side", "luxembourg")
            city = place.attrs["city"].values[self.ctx.lang]
            r = self.regions[pid]
            title = f"{self.ctx.place_name(pid)} · {city}"
            self.panel(r.box, title, self.col(side))
            self._shield_slots(r.box, side)

    def _shield_slots(self, box, side: str, top: float = 9) -> None:
        x, y, w, h = box
        n = len(self.ctx.data.shields) or 6
        slot = min(24, (w - 8) / n)
        x0 = x + (w - n * slot) / 2
        for i in range(n):
            cx, cy = x0 + slot * (i + 0.5), y + top + (h - top) / 2 - 1
            with saved(self.c):
                self.c.setStrokeColor(self.col(side))
                self.c.setFillColor(white)
                self.c.setLineWidth(0.4 * mm)
                self.c.setDash([1.2 * mm, 1 * mm])
                self.c.drawPath(glyphs.shield_outline(self.c, cx, self.y(cy), slot * 0.6), 1, 1)
        with saved(self.c):
            self.c.setFillColor(self.muted)
            text(self.c, x + w / 2, self.y(y + h - 1.8), self.ctx.label("shields_here"),
                 self.f("italic"), self.sizes["small"], "centre")

    def round_track(self) -> None:
        c, ctx = self.c, self.ctx
        r = self.regions["round_track"]
        x, y, w, h = r.box
        self.panel(r.box, ctx.label("round_panel"))
        phases = sorted(ctx.data.phases, key=lambda p: min(p.rounds))
        rounds = [(n, ph) for ph in phases for n in ph.rounds]
        n = len(rounds)
        cell = (w - 6) / max(1, n)
        tints = [HexColor("#efe6cc"), HexColor("#e3d3a8"), HexColor("#d4bd86")]
        for (num, ph), box in zip(rounds, track_spaces(ctx)["round_track"], strict=True):
            tint = tints[phases.index(ph) % len(tints)]
            self.rect(box, tint, self.ink, 0.6)
            mid = box[0] + box[2] / 2
            with saved(c):
                c.setFillColor(self.ink)
                text(c, mid, self.y(y + 31), str(num), self.f("bold"), 22, "centre")
                for dy, key, n in ((37.6, "round_plays", ph.plays), (41.6, "round_hand", ph.hand)):
                    text(c, mid, self.y(y + dy), fill_in(ctx.label(key), n=n), self.f("bold"),
                         7.5, "centre", width=box[2] - 1.5)
        for ph in phases:  # phase bands above their rounds
            first = rounds.index((min(ph.rounds), ph))
            bx = x + 3 + first * cell
            bw = cell * len(ph.rounds)
            self.rect((bx + 0.8, y + 11, bw - 1.6, 6), tints[phases.index(ph) % 3], self.ink,
                      0.3, radius=1)
            with saved(c):
                c.setFillColor(self.ink)
                text(c, bx + bw / 2, self.y(y + 15.4), ctx.label(f"phase_{ph.id}"),
                     self.f("italic"), 9, "centre", width=bw - 3)
        with saved(c):
            c.setFillColor(self.muted)
            text(c, x + w / 2, self.y(y + h - 2.5), ctx.label("plays_hand"), self.f("italic"),
                 8.5, "centre")

    def card_plays(self) -> None:
        c, ctx = self.c, self.ctx
        r = self.regions["card_plays"]
        x, y, w, h = r.box
        self.panel(r.box, ctx.label("card_play_track"))
        most = max((p.plays for p in ctx.data.phases), default=6)
        spaces = [(str(i), False) for i in range(1, most + 1)] + [("+1", True), ("+2", True)]
        for (label, dashed), box in zip(spaces, track_spaces(ctx)["card_plays"], strict=True):
            self.rect(box, white, self.ink, 0.6, dash=[2, 1.4] if dashed else None)
            with saved(c):
                c.setFillColor(self.muted if dashed else self.ink)
                text(c, box[0] + box[2] / 2, self.y(y + 26), label, self.f("bold"), 18, "centre")
        with saved(c):
            c.setFillColor(self.muted)
            text(c, x + w / 2, self.y(y + h - 3), ctx.label("card_plays_note"), self.f("italic"),
                 8.5, "centre", width=w - 6)

    def curia(self) -> None:
        c, ctx = self.c, self.ctx
        r = self.regions["curia"]
        x, y, w, h = r.box
        city = ctx.data.places["curia"].attrs["city"].values[ctx.lang]
        self.panel(r.box, f"{ctx.place_name('curia')} · {city}", HexColor("#6b5a2a"))
        top = self.lay["panels"]["curia"].get("top", "wittelsbach")
        order = [top, "luxembourg" if top == "wittelsbach" else "wittelsbach"]
        half = (h - 10) / 2
        for i, side in enumerate(order):
            hy = y + 10 + i * half
            box = (x + 2, hy, w - 4, half - 1)
            self.rect(box, HexColor("#ffffff"), self.col(side), 0.8)
            with saved(c):
                c.setFillColor(self.col(side))
                text(c, x + 5, self.y(hy + 5.5), ctx.label(f"half_{side}"), self.f("bold"), 10)
            self._shield_slots((x + 2, hy + 4, w - 4, half - 5), side, top=3)

    def loyalty(self) -> None:
        c, ctx = self.c, self.ctx
        r = self.regions["loyalty"]
        x, y, w, h = r.box
        self.panel(r.box, ctx.label("loyalty_panel"))
        ludwig, charles = ctx.label("loyalty_ludwig"), ctx.label("loyalty_charles")
        spaces = [(f"{ludwig} 2", "wittelsbach"), (f"{ludwig} 1", "wittelsbach"),
                  (ctx.label("loyalty_neutral"), None), (f"{charles} 1", "luxembourg"),
                  (f"{charles} 2", "luxembourg")]
        for i, ((label, side), box) in enumerate(zip(spaces, track_spaces(ctx)["loyalty"],
                                                    strict=True)):
            colour = self.col(side) if side else self.muted
            self.rect(box, white, colour, 1.0 if i in (0, 4) else 0.6)
            with saved(c):
                c.setFillColor(colour)
                text(c, box[0] + box[2] / 2, self.y(y + 23), label, self.f("bold"), 13, "centre",
                     width=box[2] - 2.6)
        with saved(c):
            c.setFillColor(self.muted)
            text(c, x + w / 2, self.y(y + h - 3), ctx.label("loyalty_note"), self.f("italic"),
                 8.5, "centre", width=w - 6)

    def title(self) -> None:
        c, ctx = self.c, self.ctx
        x, y, w, _h = self.regions["title"].box
        with saved(c):
            c.setFillColor(self.ink)
            text(c, x + w / 2, self.y(y + 12), ctx.label("title"), self.f("display"),
                 self.sizes["title"], "centre", width=w)
            c.setFillColor(self.muted)
            text(c, x + w / 2, self.y(y + 20), ctx.label("subtitle"), self.f("display_italic"),
                 14, "centre", width=w)


def draw_board(ctx: Ctx, c: Canvas) -> None:
    """Draw the trimmed board with the origin at its lower-left trim corner (bleed outside)."""
    Board(ctx, c).draw()


def build_board(project: Project, lang: str,
                cmyk: CmykConverter | None = None) -> bytes:
    """Full-size board PDF (default A2 landscape) with bleed, TrimBox and BleedBox."""
    ctx = make_ctx(project, lang, "board")
    w, h, b = sheet(ctx)
    buf, c = new_canvas((w + 2 * b, h + 2 * b), ctx.label("title"), ctx.font("body"), cmyk)
    c.setFont(ctx.font("body"), 10)
    c.setTrimBox((b * mm, b * mm, (b + w) * mm, (b + h) * mm))
    c.setBleedBox((0, 0, (w + 2 * b) * mm, (h + 2 * b) * mm))
    c.translate(b * mm, b * mm)
    draw_board(ctx, c)
    c.showPage()
    c.save()
    return buf.getvalue()
