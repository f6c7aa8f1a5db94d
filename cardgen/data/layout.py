"""Card layout: load ``layouts/*.yaml`` (with ``extends:``), validate, and freeze.

All card geometry lives in the YAML file; this module only checks its shape and turns it
into a typed, frozen :class:`Layout`. Lengths are millimetres, y measured down from the
top edge of the trimmed card. :meth:`Layout.rect` converts a region to PDF points with
the origin at the lower-left corner of the bleed box, which is where :func:`draw_card`
puts its origin.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from reportlab.lib.units import mm

from ..errors import CardgenError, Finding, Location, error, has_errors, shown
from ..files.safepath import in_project, resolved
from .fields import Field, check_record, range_findings
from .project import Documents
from .yamlsrc import LocMap

#: Body text may never be set smaller than this (print legibility), whatever a layout says.
MIN_BODY_PT = 6.5
#: A print shop's safe area (1/8 in) and the narrowest border that a cut shift of 1 mm does
#: not make visibly uneven (4–5 mm, the shops' guidance), in mm from the trim.
MIN_SAFE, MIN_BORDER = 3.2, 4.0

NUM = (int, float)
HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
FONT_ROLES = ("body", "bold", "italic", "bold_italic", "display", "display_italic")
SIDES = ("luxembourg", "wittelsbach", "neutral")


@dataclass(frozen=True)
class Rect:
    """A region in mm: x from the left trim edge, y down from the top trim edge."""

    x: float
    y: float
    w: float
    h: float

    @property
    def bottom(self) -> float:
        return self.y + self.h


@dataclass(frozen=True)
class CardGeom:
    width: float
    height: float
    bleed: float
    safe: float
    frame: float


@dataclass(frozen=True)
class Colours:
    sides: Mapping[str, str]
    kinds: Mapping[str, str]
    background: str
    panel: str
    panel_opacity: float
    name_panel_opacity: float
    text: str
    text_light: str
    muted: str
    rule: str
    placeholder_light: str


@dataclass(frozen=True)
class NameBar:
    box: Rect
    font: str
    size: float
    min_size: float
    padding: float  # room left and right of the name for the value icons (2.31, 2.32)
    baseline: float
    min_scale: float = 0.85  # narrowest condensing of a name at min_size; below: an error
    plain_padding: float | None = None  # on a card without values (an event); None: padding
    two_line_baseline: float | None = None  # a long name's first baseline; None: one line only
    leading: float = 1.08  # the second line's baseline: the first + leading × size

    def area(self, has_values: bool) -> float:
        """The width (mm) a name may fill: the bar less the room on both sides."""
        room = self.padding if has_values or self.plain_padding is None else self.plain_padding
        return self.box.w - 2 * room


@dataclass(frozen=True)
class Values:
    political: Rect
    military: Rect
    font: str
    size: float
    outline: float


@dataclass(frozen=True)
class Art:
    top: float
    ratio: tuple[float, float]
    min_ppi: int
    placeholder_font: str
    placeholder_size: float
    placeholder: Mapping[str, Any] = field(default_factory=dict)  # the stand-in art's style
    #: the part of the art box no panel covers (what art/README.md and the art template show)
    window: Rect | None = None


@dataclass(frozen=True)
class CoinRow:
    centre_y: float
    diameter: float
    gap: float
    left: float
    right: float
    label_font: str
    label_size: float
    event_font: str
    event_size: float


@dataclass(frozen=True)
class TextBox:
    panel: Rect
    text: Rect
    size: float
    min_size: float
    leading: float
    paragraph_gap: float
    divider: bool
    italic_kinds: tuple[str, ...]
    hyphen_min: int
    lang_hyphen: Mapping[str, str]
    hyphen_left: int  # letters before a break at least (pyphen's left)
    hyphen_right: int  # letters after a break at least (pyphen's right)
    rag_limit: float  # while text fits, break a word only to save more of the line than this


@dataclass(frozen=True)
class BottomStrip:
    baseline: float
    font: str
    size: float
    left: float
    right: float


@dataclass(frozen=True)
class Back:
    title: Mapping[str, str]
    subtitle: Mapping[str, str]
    title_font: str
    title_size: float
    subtitle_size: float
    colour: str
    inner: str


@dataclass(frozen=True)
class Layout:
    source: str
    card: CardGeom
    fonts: Mapping[str, Path]
    colours: Colours
    name_bar: NameBar
    values: Values
    art: Art
    shield_corner: Rect
    crown_corner: Rect
    coin_row: CoinRow
    text_box: TextBox
    bottom_strip: BottomStrip
    back: Back

    # --- derived geometry -------------------------------------------------------------
    @property
    def page_size(self) -> tuple[float, float]:
        """Card plus bleed on every side, in points."""
        c = self.card
        return ((c.width + 2 * c.bleed) * mm, (c.height + 2 * c.bleed) * mm)

    @property
    def trim_box(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the trimmed card in points, relative to the bleed origin."""
        c = self.card
        return (c.bleed * mm, c.bleed * mm, (c.bleed + c.width) * mm, (c.bleed + c.height) * mm)

    @property
    def art_box(self) -> Rect:
        rw, rh = self.art.ratio
        return Rect(0.0, self.art.top, self.card.width, self.card.width * rh / rw)

    @property
    def safe_box(self) -> Rect:
        s = self.card.safe
        return Rect(s, s, self.card.width - 2 * s, self.card.height - 2 * s)

    def bleed_rect(self, r: Rect) -> Rect:
        """``r`` run out to the bleed edge on every side where it touches the trim, so a
        cut that drifts shows more of the same picture, never a sliver of another colour."""
        c, tol = self.card, 1e-6
        left = c.bleed if r.x <= tol else 0.0
        right = c.bleed if r.x + r.w >= c.width - tol else 0.0
        top = c.bleed if r.y <= tol else 0.0
        bottom = c.bleed if r.bottom >= c.height - tol else 0.0
        return Rect(r.x - left, r.y - top, r.w + left + right, r.h + top + bottom)

    def x(self, x_mm: float) -> float:
        return (self.card.bleed + x_mm) * mm

    def y(self, y_mm: float) -> float:
        """A y measured down from the trim top, as points up from the bleed origin."""
        return (self.card.bleed + self.card.height - y_mm) * mm

    def rect(self, r: Rect) -> tuple[float, float, float, float]:
        """(x, y, w, h) in points with (x, y) the lower-left corner, from the bleed origin."""
        return (self.x(r.x), self.y(r.bottom), r.w * mm, r.h * mm)

    def side_colour(self, side: str | None, kind: str) -> str:
        if kind in self.colours.kinds:
            return self.colours.kinds[kind]
        return self.colours.sides[side or "neutral"]


# --- schema ---------------------------------------------------------------------------

SPEC: dict[str, dict[str, Field]] = {
    "card": {k: Field(NUM, True) for k in ("width", "height", "bleed", "safe", "frame")},
    "fonts": {k: Field(str, True) for k in FONT_ROLES},
    "colours": {
        "sides": Field(dict, True), "kinds": Field(dict), "background": Field(str, True),
        "panel": Field(str, True), "panel_opacity": Field(NUM, True),
        "name_panel_opacity": Field(NUM, True), "text": Field(str, True),
        "text_light": Field(str, True), "muted": Field(str, True), "rule": Field(str, True),
        "placeholder_light": Field(str, True),
    },
    "name_bar": {
        "box": Field(list, True), "font": Field(str, True, FONT_ROLES),
        "size": Field(NUM, True), "min_size": Field(NUM, True),
        "padding": Field(NUM, True), "baseline": Field(NUM, True), "min_scale": Field(NUM),
        "plain_padding": Field(NUM), "two_line_baseline": Field(NUM), "leading": Field(NUM),
    },
    "values": {
        "political": Field(list, True), "military": Field(list, True),
        "font": Field(str, True, FONT_ROLES), "size": Field(NUM, True),
        "outline": Field(NUM, True),
    },
    "art": {
        "top": Field(NUM, True), "ratio": Field(list, True), "min_ppi": Field(int, True),
        "placeholder_font": Field(str, True, FONT_ROLES), "placeholder_size": Field(NUM, True),
        "placeholder": Field(dict), "window": Field(list),
    },
    "coin_row": {
        "centre_y": Field(NUM, True), "diameter": Field(NUM, True), "gap": Field(NUM, True),
        "left": Field(NUM, True), "right": Field(NUM, True),
        "label_font": Field(str, True, FONT_ROLES), "label_size": Field(NUM, True),
        "event_font": Field(str, True, FONT_ROLES), "event_size": Field(NUM, True),
    },
    "text_box": {
        "panel": Field(list, True), "text": Field(list, True), "size": Field(NUM, True),
        "min_size": Field(NUM, True), "leading": Field(NUM, True),
        "paragraph_gap": Field(NUM, True), "divider": Field(bool, True),
        "italic_kinds": Field(list, True), "hyphen_min": Field(int, True),
        "lang_hyphen": Field(dict, True), "hyphen_left": Field(int, True),
        "hyphen_right": Field(int, True), "rag_limit": Field(NUM, True),
    },
    "bottom_strip": {
        "baseline": Field(NUM, True), "font": Field(str, True, FONT_ROLES),
        "size": Field(NUM, True), "left": Field(NUM, True), "right": Field(NUM, True),
    },
    "back": {
        "title": Field(dict, True), "subtitle": Field(dict, True),
        "title_font": Field(str, True, FONT_ROLES), "title_size": Field(NUM, True),
        "subtitle_size": Field(NUM, True), "colour": Field(str, True), "inner": Field(str, True),
    },
}
RECT_KEYS = {("name_bar", "box"), ("values", "political"), ("values", "military"),
             ("text_box", "panel"), ("text_box", "text")}
TOP_RECTS = ("shield_corner", "crown_corner")
TOP_SPEC = {**{k: Field(dict, True) for k in SPEC}, **{k: Field(list, True) for k in TOP_RECTS},
            "extends": Field((str, list))}


#: Sane ranges of a layout's numbers (mm; points for text sizes): a slip of a few digits is
#: an error at its line, never a page or an image of absurd size.
CARD_RANGES = {"width": (20, 300), "height": (20, 300), "bleed": (0, 10),
               "safe": (MIN_SAFE, 30), "frame": (MIN_BORDER, 30)}
SIZE_RANGE = (1.0, 200.0)


# --- loading with extends -------------------------------------------------------------

def _merge(base: LocMap, over: LocMap) -> LocMap:
    """Deep-merge two located mappings; ``over`` wins, locations follow the winning value."""
    out = LocMap()
    out.loc = over.loc
    out.locs = dict(base.locs)
    out.key_locs = dict(base.key_locs)
    out.update(base)
    for key, value in over.items():
        if isinstance(value, LocMap) and isinstance(out.get(key), LocMap):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
        out.locs[key] = over.locs[key]
        out.key_locs[key] = over.key_locs[key]
    return out


#: Per command (one project's :class:`~.project.Documents`): the most layouts ``extends:``
#: may load, repeats counted. A real chain is a handful; a diamond of 17 levels was 10^5.
MAX_EXTENDS_LOADS = 256


def _load_raw(path: Path, chain: tuple[Path, ...], documents: Documents) -> LocMap:
    path = resolved(path)  # a loop of links: an error at the file
    if path in chain:
        cycle = " → ".join(p.name for p in (*chain[chain.index(path):], path))
        raise CardgenError(error("layout-extends-cycle", f"layout 'extends' cycle: {cycle}",
                                 location=Location(documents.rel(path)),
                                 hint="remove one of the 'extends:' entries in this cycle"))
    data = documents.read(path)
    if not isinstance(data, LocMap):
        raise CardgenError(error("shape", "a layout file must be a mapping of sections",
                                 location=Location(documents.rel(path))))
    parents = data.get("extends")
    if parents is None:
        return data
    where = data.at("extends")
    names: list[str] = [parents] if isinstance(parents, str) else list(parents)
    merged: LocMap | None = None
    for name in names:
        if not isinstance(name, str):
            raise CardgenError(error("wrong-type", "'extends' takes layout file names",
                                     location=where))
        parent_path = path.parent / name
        in_project(parent_path, documents.root, where, "layout named in 'extends'")
        if not parent_path.is_file():
            raise CardgenError(error("layout-extends-missing",
                                     f"layout '{name}' named in 'extends' does not exist",
                                     location=where, hint=f"looked for {parent_path}"))
        documents.extends_loads += 1
        if documents.extends_loads > MAX_EXTENDS_LOADS:
            raise CardgenError(error(
                "layout-extends-budget", f"layouts were loaded through 'extends:' more than "
                f"{MAX_EXTENDS_LOADS:,} times in this command (each repeat counted); the "
                f"budget of extends loads is spent here, at '{shown(name[:80])}'", location=where,
                hint="extend each base layout once: a layout that several of your layouts "
                "extend, and that they extend again, is loaded once per path to it"))
        parent = _load_raw(parent_path, (*chain, path), documents)
        merged = parent if merged is None else _merge(merged, parent)
    assert merged is not None
    child = LocMap({k: v for k, v in data.items() if k != "extends"})
    child.loc, child.locs, child.key_locs = data.loc, data.locs, data.key_locs
    out = _merge(merged, child)
    out.pop("extends", None)
    return out


def load_layout(path: Path | str, project: Path | None = None,
                documents: Documents | None = None) -> Layout:
    """Load, merge and validate a card layout; raise CardgenError with every finding.
    ``extends:`` and font paths must stay inside ``project`` (by default the folder that
    holds the layout's folder); ``documents`` are the project's parsed files, when it has
    been gathered (:mod:`cardgen.data.project`)."""
    path = Path(path)
    if documents is None:
        project = project if project is not None else path.absolute().parent.parent
        documents = Documents(project)
    raw = _load_raw(path if path.is_absolute() else documents.root / path, (), documents)
    findings = validate(raw, path.resolve().parent, documents.root)
    if has_errors(findings):
        raise CardgenError(findings)
    return _build(raw, path)


def _rect(value: Any, where: Location, what: str, findings: list[Finding]) -> Rect | None:
    if (not isinstance(value, list) or len(value) != 4
            or not all(isinstance(v, NUM) and not isinstance(v, bool) for v in value)):
        findings.append(error("layout-rect", f"{what} must be [x, y, width, height] in mm, "
                              f"got {value!r}", location=where))
        return None
    rect = Rect(*(float(v) for v in value))
    if rect.w <= 0 or rect.h <= 0:
        findings.append(error("layout-rect", f"{what} must have a positive width and height",
                              location=where))
    return rect


def _within(r: Rect, outer: Rect) -> bool:
    eps = 1e-6
    return (r.x >= outer.x - eps and r.y >= outer.y - eps
            and r.x + r.w <= outer.x + outer.w + eps and r.bottom <= outer.bottom + eps)


def validate(raw: LocMap, base_dir: Path, project: Path | None = None) -> list[Finding]:
    """Every shape and sanity problem of a merged layout, each with file:line."""
    findings = check_record(raw, TOP_SPEC, raw.loc, "the layout")
    for section, spec in SPEC.items():
        if isinstance(raw.get(section), LocMap):
            findings += check_record(raw[section], spec, raw.at(section), f"layout '{section}'")
    if has_errors(findings):
        return findings
    findings += range_findings(raw["card"], CARD_RANGES, "layout 'card'")
    findings += range_findings(raw["art"], {"min_ppi": (50, 2400)}, "layout 'art'")
    for section in SPEC:
        if isinstance(raw.get(section), LocMap):
            sizes = {k: SIZE_RANGE for k in raw[section] if k == "size" or k.endswith("_size")}
            findings += range_findings(raw[section], sizes, f"layout '{section}'")
    if has_errors(findings):
        return findings
    for section, key in RECT_KEYS:
        _rect(raw[section][key], raw[section].at(key), f"{section}.{key}", findings)
    for key in TOP_RECTS:
        _rect(raw[key], raw.at(key), key, findings)
    colours = raw["colours"]
    for name, value, where in _colour_items(colours):
        if not isinstance(value, str) or not HEX.match(value):
            findings.append(error("layout-colour", f"colour '{name}' must be '#rrggbb', "
                                  f"got {value!r}", location=where))
    for side in SIDES:
        if side not in colours["sides"]:
            findings.append(error("missing-key", f"colours.sides needs '{side}'",
                                  location=colours.at("sides"), hint=f"add '{side}: \"#rrggbb\"'"))
    for key in ("panel_opacity", "name_panel_opacity"):
        if not 0 <= colours[key] <= 1:
            findings.append(error("layout-range", f"colours.{key} must be between 0 and 1",
                                  location=colours.at(key)))
    fonts = raw["fonts"]
    for role in FONT_ROLES:
        if role in fonts and project is not None:
            try:
                in_project(base_dir / fonts[role], project, fonts.at(role), f"font for '{role}'")
            except CardgenError as exc:
                findings += exc.findings
                continue
        if role in fonts and not (base_dir / fonts[role]).is_file():
            findings.append(error("font-missing", f"font file for '{role}' not found: "
                                  f"{fonts[role]}", location=fonts.at(role),
                                  hint=f"paths are relative to {base_dir}"))
    tb = raw["text_box"]
    if tb["min_size"] < MIN_BODY_PT:
        findings.append(error("layout-min-size",
                              f"text_box.min_size {tb['min_size']} pt is below the legible "
                              f"minimum of {MIN_BODY_PT} pt", location=tb.at("min_size")))
    if tb["size"] < tb["min_size"]:
        findings.append(error("layout-min-size", "text_box.size is smaller than its min_size",
                              location=tb.at("size")))
    nb = raw["name_bar"]
    if nb["size"] < nb["min_size"]:
        findings.append(error("layout-min-size", "name_bar.size is smaller than its min_size",
                              location=nb.at("size")))
    ratio = raw["art"]["ratio"]
    if (not isinstance(ratio, list) or len(ratio) != 2
            or not all(isinstance(v, NUM) and v > 0 for v in ratio)):
        findings.append(error("layout-ratio", "art.ratio must be [width, height], e.g. [3, 2]",
                              location=raw["art"].at("ratio")))
    if has_errors(findings):
        return findings
    card = raw["card"]
    safe = Rect(card["safe"], card["safe"], card["width"] - 2 * card["safe"],
                card["height"] - 2 * card["safe"])
    text = _rect(tb["text"], tb.at("text"), "text_box.text", [])
    if text and not _within(text, safe):
        findings.append(error("layout-safe-zone", "text_box.text reaches outside the safe zone "
                              f"({card['safe']} mm from the trim)", location=tb.at("text")))
    nbox = _rect(nb["box"], nb.at("box"), "name_bar.box", [])
    for key in ("padding", "plain_padding"):
        if nbox and key in nb:
            name_area = Rect(nbox.x + nb[key], nbox.y, nbox.w - 2 * nb[key], nbox.h)
            if not _within(name_area, safe) or name_area.w <= 0:
                findings.append(error("layout-safe-zone", f"the name area (name_bar.box less "
                                      f"its {key}) reaches outside the safe zone",
                                      location=nb.at(key)))
    panel = _rect(tb["panel"], tb.at("panel"), "text_box.panel", [])
    border = card["frame"]
    inside_border = Rect(border, 0, card["width"] - 2 * border, card["height"] - border)
    if panel and not _within(panel, inside_border):
        findings.append(error("layout-border", f"text_box.panel comes closer than the border "
                              f"(card.frame, {border} mm) to the trim: a cut shift would show "
                              "uneven borders", location=tb.at("panel"),
                              hint=f"keep the panel at least {border} mm from the left, right "
                                   "and bottom trim edges"))
    findings += _window_findings(raw, nbox, panel)
    bs = raw["bottom_strip"]
    if not (safe.x <= bs["left"] < bs["right"] <= safe.x + safe.w
            and bs["baseline"] <= safe.bottom):
        findings.append(error("layout-safe-zone", "bottom_strip lies outside the safe zone",
                              location=raw.at("bottom_strip")))
    return findings


#: Millimetres two edges may differ by and still meet (14.4 is 4.2 + 10.2 in decimals).
EPS = 1e-6


def _window_findings(raw: LocMap, bar: Rect | None, panel: Rect | None) -> list[Finding]:
    """``art.window`` must lie in the art box, clear of the name bar and the text panel: the
    art a designer is told is fully seen must be."""
    art = raw["art"]
    if "window" not in art:
        return []
    where = art.at("window")
    found: list[Finding] = []
    window = _rect(art["window"], where, "art.window", found)
    if window is None or found:
        return found
    rw, rh = (float(v) for v in art["ratio"])
    width = float(raw["card"]["width"])
    box = Rect(0.0, float(art["top"]), width, width * rh / rw)
    covered = [name for name, r in (("name_bar.box", bar), ("text_box.panel", panel))
               if r is not None and window.y < r.bottom - EPS and r.y < window.bottom - EPS
               and window.x < r.x + r.w - EPS and r.x < window.x + window.w - EPS]
    if _within(window, box) and not covered:
        return []
    top = max(box.y, bar.bottom if bar else box.y)
    bottom = min(box.bottom, panel.y if panel else box.bottom)
    why = f"lies under {' and '.join(covered)}" if covered else "reaches outside the art box"
    return [error("layout-art-window", f"art.window {why}", location=where,
                  hint=f"the art no panel covers is [0, {top:g}, {width:g}, {bottom - top:g}]")]


def _colour_items(colours: LocMap) -> list[tuple[str, Any, Location]]:
    out: list[tuple[str, Any, Location]] = []
    for key, value in colours.items():
        if key in ("panel_opacity", "name_panel_opacity"):
            continue
        if isinstance(value, LocMap):
            out += [(f"{key}.{k}", v, value.at(k)) for k, v in value.items()]
        else:
            out.append((key, value, colours.at(key)))
    return out


def _build(raw: LocMap, path: Path) -> Layout:
    base_dir = path.resolve().parent

    def r(v: Any) -> Rect:
        return Rect(*(float(x) for x in v))

    def f(section: str, cls: type, rects: tuple[str, ...] = ()) -> Any:
        data = dict(raw[section])
        for key in rects:
            data[key] = r(data[key])
        return cls(**data)

    def frozen(m: Any) -> Mapping[str, Any]:
        return MappingProxyType(dict(m))

    colours = dict(raw["colours"])
    colours["sides"] = frozen(colours["sides"])
    colours["kinds"] = frozen(colours.get("kinds") or {})
    tb = dict(raw["text_box"])
    tb.update(panel=r(tb["panel"]), text=r(tb["text"]), italic_kinds=tuple(tb["italic_kinds"]),
              lang_hyphen=frozen(tb["lang_hyphen"]))
    art = dict(raw["art"])
    art["ratio"] = tuple(float(v) for v in art["ratio"])
    art["placeholder"] = frozen(art.get("placeholder") or {})
    if "window" in art:
        art["window"] = r(art["window"])
    back = dict(raw["back"])
    back.update(title=frozen(back["title"]), subtitle=frozen(back["subtitle"]))
    return Layout(
        source=str(path),
        card=f("card", CardGeom),
        fonts=frozen({role: base_dir / file for role, file in raw["fonts"].items()}),
        colours=Colours(**colours),
        name_bar=f("name_bar", NameBar, ("box",)),
        values=f("values", Values, ("political", "military")),
        art=Art(**art),
        shield_corner=r(raw["shield_corner"]),
        crown_corner=r(raw["crown_corner"]),
        coin_row=f("coin_row", CoinRow),
        text_box=TextBox(**tb),
        bottom_strip=f("bottom_strip", BottomStrip),
        back=Back(**back),
    )

