"""Reprints: choose the cards to print again and lay out just those.

Cards come from a list of ids, from a previous manifest (every card whose content hash
changed or that is new), or both. The reprint sheets use the same marks, bleed and
duplex backs as the full sheets; every copy of a chosen card is reprinted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..data.fields import suggest
from ..errors import CardgenError, Finding, error
from ..render.cmyk import CmykConverter
from ..wording.face import CardFace
from .canvas import DrawBack, DrawFront, FormSource
from .geometry import CardSize
from .sheets import BackSide, build_sheets
from .spec import SheetSpec


def changed_cards(previous: Mapping[str, Any], hashes: Mapping[str, str]) -> list[str]:
    """Ids whose hash differs from ``previous`` manifest's, or that it does not list."""
    before = {c["id"]: c.get("hash") for c in previous.get("cards", [])}
    return [cid for cid, digest in hashes.items() if before.get(cid) != digest]


def select_reprint(faces: Sequence[CardFace], ids: Sequence[str] = (),
                   previous: Mapping[str, Any] | None = None,
                   hashes: Mapping[str, str] | None = None) -> list[str]:
    """The card ids to reprint, in deck order; unknown ids are all reported at once."""
    known = [f.card_id for f in faces]
    findings: list[Finding] = []
    for cid in ids:
        if cid not in known:
            near = suggest(cid, known)
            findings.append(error("unknown-card", f"cannot reprint '{cid}': no such card",
                                  card=cid, hint=f"did you mean '{near}'?" if near else
                                  "give card ids from card_data/cards/, comma-separated"))
    if previous is not None and hashes is None:
        findings.append(error("reprint-hashes", "reprinting changed cards needs the current "
                              "content hashes"))
    if findings:
        raise CardgenError(findings)
    wanted = set(ids)
    if previous is not None and hashes is not None:
        wanted |= set(changed_cards(previous, hashes))
    return [cid for cid in known if cid in wanted]


def build_reprint(faces: Sequence[CardFace], ids: Sequence[str], draw_front: DrawFront,
                  draw_back: DrawBack, card: CardSize, spec: SheetSpec, paper: str,
                  lang: str, flip: str = "long", cmyk: CmykConverter | bool | None = None,
                  backs: BackSide | None = None, source: FormSource | None = None
                  ) -> bytes | None:
    """``reprint-<paper>.pdf`` bytes with only ``ids`` (all copies); None when empty."""
    chosen = [f for f in faces if f.card_id in set(ids)]
    if not chosen:
        return None
    return build_sheets(chosen, draw_front, draw_back, card, spec, paper, lang, flip=flip,
                        cmyk=cmyk, backs=backs or BackSide(), source=source)
