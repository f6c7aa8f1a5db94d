"""The generic image set's index for virtual tables that import images by hand."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from ..render.pdf import png_name
from .plan import Pile

BACK = "back.png"


def generic_csv(piles: Sequence[Pile]) -> bytes:
    """``cards.csv``: one row per card face (id, name, deck = the setup pile, count, file,
    back). Every row is a card, so an importer that sums ``count`` gets the 82 cards; the
    shared back is a column, not a row."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["id", "name", "deck", "count", "file", "back"])
    for pile in piles:
        for face in dict.fromkeys(pile.cards):
            w.writerow([face.card_id, face.name, pile.id, face.copies, png_name(face), BACK])
    return buf.getvalue().encode("utf-8")
