"""Pure sheet geometry in millimetres: grids, outer bleed, crop marks, duplex mirroring.

Coordinates follow PDF: origin at the lower-left corner of the page, y up. Nothing here
draws; :mod:`.sheets` turns these numbers into pages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import CardgenError, error
from .spec import Paper, SheetSpec

FLIPS = ("long", "short")


@dataclass(frozen=True)
class CardSize:
    """A card's trim size and the bleed its drawer paints around the trim (mm)."""

    width: float
    height: float
    bleed: float

    @property
    def bleed_width(self) -> float:
        return self.width + 2 * self.bleed

    @property
    def bleed_height(self) -> float:
        return self.height + 2 * self.bleed


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def grow(self, left: float = 0, bottom: float = 0, right: float = 0, top: float = 0) -> Box:
        return Box(self.x - left, self.y - bottom, self.w + left + right, self.h + bottom + top)

    def contains(self, other: Box, tol: float = 1e-9) -> bool:
        return (other.x >= self.x - tol and other.y >= self.y - tol
                and other.right <= self.right + tol and other.top <= self.top + tol)

    def overlaps(self, other: Box, tol: float = 1e-9) -> bool:
        return (other.x < self.right - tol and self.x < other.right - tol
                and other.y < self.top - tol and self.y < other.top - tol)


@dataclass(frozen=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def length(self) -> float:
        return math.hypot(self.x2 - self.x1, self.y2 - self.y1)

    def box(self) -> Box:
        return Box(min(self.x1, self.x2), min(self.y1, self.y2),
                   abs(self.x2 - self.x1), abs(self.y2 - self.y1))


@dataclass(frozen=True)
class Slot:
    """One card position: grid row/column (0-based, row 0 at the top) and its trim box."""

    row: int
    col: int
    trim: Box


@dataclass(frozen=True)
class SheetGeometry:
    """Where fronts and backs go on one paper, and the marks that guide the cuts."""

    paper: Paper
    page_w: float
    page_h: float
    bleed_x: float  # outer bleed left and right of the grid (mm)
    bleed_y: float  # outer bleed above and below it
    fronts: tuple[Slot, ...]  # fill order
    backs: tuple[Slot, ...]  # backs[i] lies exactly behind fronts[i]
    marks: tuple[Segment, ...]  # for the fronts' page
    back_marks: tuple[Segment, ...]  # for the backs' page (same page when gutterfolded)
    fold: Segment | None = None
    gutterfold: bool = False
    #: outer bleed above the grid on the fronts page, when it differs from ``bleed_y``
    #: (below it): Letter has room for crop marks on one side only (:func:`grid_bottom`)
    bleed_top: float | None = None
    flip: str = "long"

    def outer(self, side: str) -> tuple[float, float, float]:
        """(left/right, below, above) outer bleed on the ``side`` ("front" or "back")
        page: a short-edge flip turns the backs page upside down."""
        above = self.bleed_y if self.bleed_top is None else self.bleed_top
        if side == "back" and self.flip == "short" and not self.gutterfold:
            return self.bleed_x, above, self.bleed_y
        return self.bleed_x, self.bleed_y, above


def _floor(value: float, step: float = 0.1) -> float:
    return math.floor(value / step + 1e-9) * step


def grid_bottom(spec: SheetSpec, card: CardSize, paper_id: str) -> float:
    """Where the duplex grid's lowest trim lies (mm from the paper's bottom edge): centred
    when both sides leave a crop mark ``min_printable`` mm beyond the printer margin (A4),
    or, failing that, when both still get ``min_bleed`` of printed bleed and a short mark
    at each end of every column cut (Letter: 3 × 88 mm leaves 7.7 mm a side, 1.7 mm of
    bleed and 1.3 mm of mark); else as low as leaves the marks below the grid
    ``min_printable``, the top row's trim inside the margin."""
    paper = spec.paper(paper_id)
    m = spec.marks
    free = paper.height - spec.rows * card.height
    need = spec.printer_margin + m.offset + m.min_printable
    if free / 2 >= need - 1e-9:
        return free / 2
    # centred, each edge keeps min_bleed and each column cut a short mark at both ends
    if (free / 2 - spec.printer_margin >= spec.min_bleed - 1e-9
            and free / 2 - spec.printer_margin - m.offset >= m.min_printable_each - 1e-9):
        return free / 2
    if free - need < spec.printer_margin - 1e-9:
        raise _too_small(spec, card, paper.name, "height", "use fewer rows, or a smaller margin")
    return need


def _too_small(spec: SheetSpec, card: CardSize, paper: str, dimension: str,
               hint: str) -> CardgenError:
    return CardgenError(error(
        "sheet-too-small",
        f"the card grid does not fit the {paper} {dimension} with a {spec.printer_margin} mm "
        f"printer margin and room for crop marks ({card.width} × {card.height} mm cards)",
        location=spec.loc, hint=hint))


def outer_bleed(spec: SheetSpec, card: CardSize, paper_id: str, gutterfold: bool = False
                ) -> tuple[float, float, float]:
    """(left/right, below, above) outer bleed for one paper and arrangement (0.1 mm steps),
    on the fronts page.

    The bleed runs from the grid out to the printer margin (a printer prints nothing
    beyond it), at most ``max_outer_bleed`` and the bleed the card drawer paints. Crop
    marks start ``offset`` beyond the trim and run over the bleed, so the bleed costs them
    no room: every cut has a mark that prints ``min_printable`` mm beyond the printer
    margin (else the grid does not fit the paper).
    """
    paper = spec.paper(paper_id)
    m = spec.marks
    if gutterfold:
        long_, short = max(paper.width, paper.height), min(paper.width, paper.height)
        side = (long_ - 2 * (spec.fold_columns * card.width + spec.fold_gap)) / 2
        frees: tuple[float, ...] = (side, (short - spec.fold_rows * card.height) / 2)
    else:
        side = (paper.width - spec.columns * card.width) / 2
        below = grid_bottom(spec, card, paper_id)
        frees = (side, below, paper.height - spec.rows * card.height - below)
    checked = (("width", frees[0]), ("height", frees[1])) if gutterfold else (("width", frees[0]),)
    for label, free in checked:  # the duplex height: grid_bottom
        if free - spec.printer_margin - m.offset < m.min_printable - 1e-9:
            raise _too_small(spec, card, paper.name, label,
                             "use fewer rows or columns, or a smaller margin")
    out = []
    for i, free in enumerate(frees):
        limits = [spec.max_outer_bleed, card.bleed, free - spec.printer_margin]
        if gutterfold and i == 0:
            limits.append(spec.fold_gap - m.offset)  # the two halves' bleeds never meet
        out.append(round(_floor(max(0.0, min(limits))), 1))
    if gutterfold:
        return out[0], out[1], out[1]
    return out[0], out[1], out[2]


def _grid(origin_x: float, top: float, card: CardSize, cols: int, rows: int) -> list[Slot]:
    return [Slot(r, c, Box(origin_x + c * card.width, top - (r + 1) * card.height,
                           card.width, card.height))
            for r in range(rows) for c in range(cols)]


def mirror_box(box: Box, page_w: float, page_h: float, flip: str) -> Box:
    """Where the reverse side of ``box`` lies on the back page of a duplex sheet.

    Long-edge flip (portrait) turns the sheet about a vertical axis: x mirrors.
    Short-edge flip turns it about a horizontal axis: y mirrors.
    """
    if flip == "long":
        return Box(page_w - box.x - box.w, box.y, box.w, box.h)
    if flip == "short":
        return Box(box.x, page_h - box.y - box.h, box.w, box.h)
    raise ValueError(f"flip must be one of {FLIPS}, not {flip!r}")


def mirror_segment(seg: Segment, page_w: float, page_h: float, flip: str) -> Segment:
    if flip == "long":
        return Segment(page_w - seg.x1, seg.y1, page_w - seg.x2, seg.y2)
    return Segment(seg.x1, page_h - seg.y1, seg.x2, page_h - seg.y2)


def _marks(spec: SheetSpec, page_w: float, page_h: float, xs: list[float],
           ys_left: list[float], ys_right: list[float], bottom: float, top: float,
           left: float, right: float) -> list[Segment]:
    """Crop marks on the cut lines ``xs`` (above and below) and ``ys`` (left and right).

    Each mark starts ``offset`` beyond the trim (over the outer bleed, which is cut away)
    and runs outward for ``length``, stopping ``edge_clearance`` short of the paper edge.
    """
    m = spec.marks
    gap = m.offset
    cuts: list[tuple[Segment, ...]] = []  # the marks of one cut line, at its two ends
    for x in xs:
        y_top, y_bottom = top + gap, bottom - gap
        cuts.append((Segment(x, y_top, x, min(y_top + m.length, page_h - m.edge_clearance)),
                     Segment(x, y_bottom, x, max(y_bottom - m.length, m.edge_clearance))))
    lefts = [Segment(left - gap, y, max(left - gap - m.length, m.edge_clearance), y)
             for y in ys_left]
    rights = [Segment(right + gap, y, min(right + gap + m.length, page_w - m.edge_clearance), y)
              for y in ys_right]
    cuts += list(zip(lefts, rights, strict=True)) if ys_left == ys_right else \
        [(s,) for s in lefts + rights]
    # a mark with no room beyond the printer margin is left out (the other end of its cut
    # has one): it would not print, or print cut off at the paper's edge; a cut whose two
    # ends both have a little room keeps both short marks (two points set the ruler)
    area = printable_area(page_w, page_h, spec.printer_margin)
    kept = []
    for cut in cuts:
        printed = [_printed(s, area) for s in cut]
        both = len(cut) == 2 and min(printed) >= m.min_printable_each - 1e-6
        kept += [s for s, length in zip(cut, printed, strict=True)
                 if length >= m.min_printable - 1e-6 or both]
    return kept


def _printed(seg: Segment, area: Box) -> float:
    """How much of ``seg`` (a horizontal or vertical mark) lies inside ``area``."""
    box = seg.box()
    return max(0.0, min(box.right, area.right) - max(box.x, area.x)
               + min(box.top, area.top) - max(box.y, area.y))


def duplex_geometry(spec: SheetSpec, card: CardSize, paper_id: str, flip: str = "long"
                    ) -> SheetGeometry:
    """Portrait sheets: a centred grid of fronts; the next page holds the mirrored backs."""
    if flip not in FLIPS:
        raise CardgenError(error("bad-value", f"flip must be one of: {', '.join(FLIPS)}; "
                                 f"got '{flip}'"))
    paper = spec.paper(paper_id)
    bx, by, above = outer_bleed(spec, card, paper_id)
    pw, ph = paper.width, paper.height
    gw, gh = spec.columns * card.width, spec.rows * card.height
    left, bottom = (pw - gw) / 2, grid_bottom(spec, card, paper_id)
    fronts = _grid(left, bottom + gh, card, spec.columns, spec.rows)
    backs = []
    for slot in fronts:
        box = mirror_box(slot.trim, pw, ph, flip)
        row, col = ((slot.row, spec.columns - 1 - slot.col) if flip == "long"
                    else (spec.rows - 1 - slot.row, slot.col))
        backs.append(Slot(row, col, box))
    xs = [left + c * card.width for c in range(spec.columns + 1)]
    ys = [bottom + r * card.height for r in range(spec.rows + 1)]
    marks = _marks(spec, pw, ph, xs, ys, ys, bottom, bottom + gh, left, left + gw)
    back_marks = [mirror_segment(s, pw, ph, flip) for s in marks]
    return SheetGeometry(paper, pw, ph, bx, by, tuple(fronts), tuple(backs), tuple(marks),
                         tuple(back_marks), bleed_top=above, flip=flip)


def gutterfold_geometry(spec: SheetSpec, card: CardSize, paper_id: str) -> SheetGeometry:
    """Landscape sheets: fronts left of a vertical fold line, their backs mirrored right."""
    paper = spec.paper(paper_id)
    bx, by, _above = outer_bleed(spec, card, paper_id, gutterfold=True)
    pw, ph = max(paper.width, paper.height), min(paper.width, paper.height)
    cols, rows = spec.fold_columns, spec.fold_rows
    fold_x = pw / 2
    block_w, gh = cols * card.width, rows * card.height
    left, bottom = fold_x - spec.fold_gap - block_w, (ph - gh) / 2
    fronts = _grid(left, bottom + gh, card, cols, rows)
    backs = [Slot(s.row, cols - 1 - s.col, mirror_box(s.trim, pw, ph, "long")) for s in fronts]
    right0 = fold_x + spec.fold_gap
    xs = ([left + c * card.width for c in range(cols + 1)]
          + [right0 + c * card.width for c in range(cols + 1)])
    ys = [bottom + r * card.height for r in range(rows + 1)]
    marks = _marks(spec, pw, ph, xs, ys, ys, bottom, bottom + gh, left, right0 + block_w)
    m = spec.marks
    fold = Segment(fold_x, m.edge_clearance, fold_x, ph - m.edge_clearance)
    paper_l = Paper(paper.id, paper.name, pw, ph)
    return SheetGeometry(paper_l, pw, ph, bx, by, tuple(fronts), tuple(backs), tuple(marks),
                         tuple(marks), fold, gutterfold=True)


def visible_box(slot: Slot, occupied: set[tuple[int, int]], bleed_x: float, bleed_y: float,
                bleed_top: float | None = None) -> Box:
    """The part of a card printed on a sheet: its trim, plus the outer bleed on each side
    where no card of the same page is its neighbour (shared cut lines need none);
    ``bleed_y`` below the grid, ``bleed_top`` above it (default the same)."""
    r, c = slot.row, slot.col
    above = bleed_y if bleed_top is None else bleed_top

    def free(dr: int, dc: int) -> float:
        if (r + dr, c + dc) in occupied:
            return 0.0
        return above if dr < 0 else bleed_y if dr else bleed_x

    return slot.trim.grow(left=free(0, -1), right=free(0, 1), top=free(-1, 0), bottom=free(1, 0))


def printable_area(page_w: float, page_h: float, margin: float) -> Box:
    return Box(margin, margin, page_w - 2 * margin, page_h - 2 * margin)
