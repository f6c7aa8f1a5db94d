"""Where things lie on Tabletop Simulator's table, in table units, from the constants of
``layouts/vtt.yaml`` (``tts:``, with the saves they were measured in).

Board millimetres (x from the board's left trim edge, y down from its top edge) become
table units with the board centred on the table's origin: x to the right, z towards the
Wittelsbach edge (the top of the board, 2.24). Heights follow the resting rules the public
saves show: a Custom_Tile's ``posY`` is its top face (its bottom lies ``thickness`` lower),
a deck's ``posY`` stands ``deck_base + per_card × cards`` above what it lies on, a bag's
``posY`` is its bottom. Every loose piece spawns ``drop`` above where it would rest, so it
settles onto the table or the board and never starts inside either.

:class:`Footprint` is what an object covers seen from above, with its bottom and the height
it rests on; the tests and the README's check list are written against it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

BOX, CIRCLE = "box", "circle"


@dataclass(frozen=True)
class Footprint:
    """An object's outline on the table (centre, extent along x and z), its lowest point and
    the height of what it rests on."""

    id: str
    shape: str  # BOX or CIRCLE (a circle's width and depth are its diameter)
    x: float
    z: float
    width: float
    depth: float
    bottom: float
    rests_on: float

    def gap(self, other: Footprint) -> float:
        """Distance between the two outlines; negative where they overlap. Two circles are
        measured as circles, anything else by its bounding box (never less than the truth)."""
        if self.shape == other.shape == CIRCLE:
            return math.hypot(self.x - other.x, self.z - other.z) - (self.width + other.width) / 2
        dx = abs(self.x - other.x) - (self.width + other.width) / 2
        dz = abs(self.z - other.z) - (self.depth + other.depth) / 2
        if dx >= 0 and dz >= 0:
            return math.hypot(dx, dz)
        return max(dx, dz)

    def contains(self, x: float, z: float) -> bool:
        return abs(x - self.x) <= self.width / 2 and abs(z - self.z) <= self.depth / 2


class TableGeometry:
    """The ``tts:`` constants of vtt.yaml applied to a board of ``board_mm``."""

    def __init__(self, tts: dict[str, Any], board_mm: tuple[float, float]):
        self.tts = tts
        self.board_mm = board_mm

    # --- plan ------------------------------------------------------------------------

    def units(self, mm: float) -> float:
        return mm / self.tts["unit_mm"]

    def xz(self, at: Sequence[float]) -> tuple[float, float]:
        """Table x and z of the board point ``at`` (mm)."""
        w, h = self.board_mm
        return round(self.units(at[0] - w / 2), 4), round(self.units(h / 2 - at[1]), 4)

    def board_size(self) -> tuple[float, float]:
        return self.units(self.board_mm[0]), self.units(self.board_mm[1])

    def board_footprint(self) -> Footprint:
        w, d = self.board_size()
        return Footprint("board", BOX, 0.0, 0.0, w, d, self.surface, self.surface)

    # --- sizes ------------------------------------------------------------------------

    @property
    def surface(self) -> float:
        return float(self.tts["surface_y"])

    @property
    def board_top(self) -> float:
        return self.surface + self.tts["board"]["thickness"]

    def tile_scale(self, size_units: float) -> float:
        """Transform scale that gives a Custom_Tile ``size_units`` along z (and along x for a
        square or stretched image)."""
        return size_units / self.tts["tile"]["units_at_scale_1"]

    def card_size(self) -> tuple[float, float]:
        w, d = self.tts["card"]["units_at_scale_1"]
        return float(w), float(d)

    def bag_diameter(self) -> float:
        return float(self.tts["bag"]["units_at_scale_1"])

    def bag_pitch(self) -> float:
        """Centre to centre of two neighbouring bags: a bag and the least gap."""
        return self.bag_diameter() + self.tts["gap"]

    # --- heights ----------------------------------------------------------------------

    def rests_on(self, x: float, z: float) -> float:
        """The height under the point (x, z): the board's top face on the board, else the
        table's surface."""
        return self.board_top if self.board_footprint().contains(x, z) else self.surface

    def tile_y(self, support: float, thickness: float) -> float:
        return round(support + thickness + self.tts["drop"], 4)

    def deck_height(self, cards: int) -> float:
        card = self.tts["card"]
        return card["deck_base"] + card["per_card"] * cards

    def deck_y(self, support: float, cards: int) -> float:
        return round(support + self.deck_height(cards) + self.tts["drop"], 4)

    def bag_y(self, support: float) -> float:
        return round(support + self.tts["drop"], 4)

    def board_y(self) -> float:
        """The locked board lies with its bottom on the surface: ``posY`` is its top face."""
        return round(self.board_top, 4)

    # --- reading a saved object back ----------------------------------------------------

    def footprint_of(self, state: dict[str, Any], aspect: float = 1.0) -> Footprint:
        """The footprint of one object this package writes (board, deck, card, tile, bag).
        ``aspect`` is the width / height of the image of a tile that keeps it (``Stretch``
        off: the board); a stretched tile is square."""
        t, name = state["Transform"], state["Name"]
        x, z = t["posX"], t["posZ"]
        support = self.surface if state.get("Locked") else self.rests_on(x, z)
        if name in ("Deck", "Card"):
            w, d = self.card_size()
            w, d = w * t["scaleX"], d * t["scaleZ"]
            if round(t["rotY"]) % 180 == 90:
                w, d = d, w
            cards = len(state.get("ContainedObjects", ())) or 1
            return Footprint(state["GUID"], BOX, x, z, w, d, t["posY"] - self.deck_height(cards),
                             support)
        if name == "Infinite_Bag":
            size = self.bag_diameter() * t["scaleX"]
            return Footprint(state["GUID"], CIRCLE, x, z, size, size, t["posY"], support)
        if name == "Custom_Tile":
            tile = state["CustomImage"]["CustomTile"]
            base = self.tts["tile"]["units_at_scale_1"]
            shape = CIRCLE if tile["Type"] == TILE_TYPES["circle"] else BOX
            wide = 1.0 if tile["Stretch"] else aspect
            return Footprint(state["GUID"], shape, x, z, base * t["scaleX"] * wide,
                             base * t["scaleZ"], t["posY"] - tile["Thickness"] * t["scaleY"],
                             support)
        raise ValueError(f"no footprint for a {name}")


# Custom_Tile "Type" (Tabletop Simulator API, custom-game-objects.md: 0 square/rectangle,
# 1 hex, 2 circle, 3 rounded square).
TILE_TYPES = {"square": 0, "hex": 1, "circle": 2, "rounded": 3}
