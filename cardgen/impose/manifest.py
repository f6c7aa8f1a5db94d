"""``manifest.json`` and its readable ``manifest.txt`` twin: what was printed where.

For every card: id, name, copies, the hash of everything its face depends on (given by
the caller), each file's placements, and the texts it prints (for ``cardgen proof
--changed-since``, which shows word by word what changed). Pages, rows and columns are 1-based, as a
person counts them on paper; row 1 is the top row of the page as printed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import CardgenError, error
from ..wording.face import CardFace, printed_texts
from .printshop import image_names, page_sequence
from .sheets import SheetPlan
from .spec import Profile

MANIFEST_VERSION = 1


def build_manifest(faces: Sequence[CardFace], hashes: Mapping[str, str],
                   sheets: Mapping[str, SheetPlan], lang: str,
                   profile: Profile | None = None,
                   print_shop_file: str = "print-shop.pdf") -> dict[str, Any]:
    """The manifest of one language's files. ``sheets`` maps file name → its plan."""
    missing = [f.card_id for f in faces if f.card_id not in hashes]
    if missing:
        raise CardgenError([error("manifest-hash", f"no content hash for card '{cid}'",
                                  card=cid, lang=lang) for cid in missing])
    places: dict[str, dict[str, list[dict[str, Any]]]] = {f.card_id: {} for f in faces}
    files: dict[str, dict[str, Any]] = {}
    for name, plan in sheets.items():
        files[name] = {"kind": "gutterfold" if plan.flip is None else "sheets",
                       "paper": plan.paper, "paper_name": plan.geometry.paper.name,
                       "flip": plan.flip, "pages": len(plan.pages), "cards": plan.cards}
        for number, page in enumerate(plan.pages, 1):
            for p in page.placements:
                places[p.card_id].setdefault(name, []).append(
                    {"page": number, "row": p.row + 1, "col": p.col + 1, "side": p.side,
                     "copy": p.copy})
    if profile is not None and profile.page_order == "images":
        names = image_names(faces)
        files["images"] = {"kind": "images", "profile": profile.id,
                           "resolution": profile.resolution, "bleed_px": profile.bleed_px,
                           "files": names}
        for face, image in zip(faces, names, strict=False):
            places[face.card_id]["images"] = [{"file": image, "side": "front",
                                               "quantity": face.copies},
                                              {"file": "back.png", "side": "back",
                                               "quantity": face.copies}]
    elif profile is not None:
        seq = page_sequence(faces, profile.page_order)
        files[print_shop_file] = {"kind": "print-shop", "profile": profile.id,
                                  "page_order": profile.page_order, "pages": len(seq),
                                  "bleed_mm": round(profile.bleed, 3),
                                  "colour_space": profile.colour_space}
        for number, (side, face, copy) in enumerate(seq, 1):
            places[face.card_id].setdefault(print_shop_file, []).append(
                {"page": number, "side": side, "copy": copy})
    return {
        "manifest_version": MANIFEST_VERSION,
        "lang": lang,
        "cards_total": sum(f.copies for f in faces),
        "profile": profile.id if profile else None,
        "files": files,
        "cards": [{"id": f.card_id, "name": f.name, "copies": f.copies,
                   "hash": hashes[f.card_id], "placements": places[f.card_id],
                   "texts": printed_texts(f)}
                  for f in faces],
    }


def manifest_json(manifest: Mapping[str, Any]) -> bytes:
    """``manifest.json``: each top-level entry, each file and each card on a line of its
    own, so a diff shows which card changed. (json's ``indent`` would spread a card over
    dozens of lines and run json's Python encoder, five times slower at 1,600 cards.)"""
    def line(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    def block(items: list[str], open_: str, close: str) -> str:
        return open_ + "\n" + ",\n".join(f"  {item}" for item in items) + f"\n {close}"

    entries = []
    for key, value in manifest.items():
        if key == "files":
            shown = block([f"{line(k)}: {line(v)}" for k, v in value.items()], "{", "}")
        elif key == "cards":
            shown = block([line(card) for card in value], "[", "]")
        else:
            shown = line(value)
        entries.append(f" {line(key)}: {shown}")
    return ("{\n" + ",\n".join(entries) + "\n}\n").encode("utf-8")


def manifest_text(manifest: Mapping[str, Any]) -> str:
    """A readable twin of the manifest: one block per file, one line per card."""
    out = [f"Manifest ({manifest['lang']}): {manifest['cards_total']} physical cards"]
    if manifest.get("profile"):
        out.append(f"Print-shop profile: {manifest['profile']}")
    for name, info in manifest["files"].items():
        extra = ", ".join(f"{k} {v}" for k, v in info.items()
                          if k not in ("kind", "files") and v is not None)
        out += ["", f"{name} ({info['kind']}; {extra})"]
        for card in manifest["cards"]:
            spots = card["placements"].get(name, [])
            fronts = [s for s in spots if s["side"] == "front"]
            if "file" in (fronts[0] if fronts else {}):
                where = f"{fronts[0]['file']} × {fronts[0]['quantity']}"
            elif fronts and "row" in fronts[0]:
                where = "; ".join(f"p{s['page']} r{s['row']} c{s['col']}" for s in fronts)
            else:
                where = "; ".join(f"p{s['page']}" for s in fronts)
            out.append(f"  {card['id']:<24} ×{card['copies']:<2} {card['name']:<32} "
                       f"{card['hash'][:12]}  {where}")
    return "\n".join(out) + "\n"
