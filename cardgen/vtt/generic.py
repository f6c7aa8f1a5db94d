"""The generic image set's index for virtual tables that import images by hand."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from ..render.pdf import png_name
from .plan import Pile


def generic_csv(piles: Sequence[Pile]) -> bytes:
    """``cards.csv``: id, name, deck (the setup pile), count, file; then the back."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["id", "name", "deck", "count", "file"])
    for pile in piles:
        for face in dict.fromkeys(pile.cards):
            w.writerow([face.card_id, face.name, pile.id, face.copies, png_name(face)])
    w.writerow(["back", "", "", sum(len(p.cards) for p in piles), "back.png"])
    return buf.getvalue().encode("utf-8")
