"""The Tabletop Simulator save: the board, the setup piles face down, the markers on their
starting spaces and the supply beside the board (rule 3), laid out by :mod:`.geometry`.

The structure follows saves Tabletop Simulator itself writes (``ObjectStates``, one
``Transform`` per object, a deck's cards in ``ContainedObjects`` with ``CardID`` = deck
number × 100 + cell, an endless bag holding the one object it hands out; the test compares
with such a save in ``tests/fixtures/``). GUIDs are derived from each object's id, so the
same table gives the same file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .geometry import TILE_TYPES, TableGeometry
from .plan import Pile, Sheet, sheet_of

Url = Callable[[str], str]


@dataclass(frozen=True)
class TokenObject:
    """One token (or one endless bag of a kind of token) for the table."""

    id: str
    name: str
    note: str
    size: float  # mm, the printed token's side (a round one's diameter)
    front: str  # file under vtt/
    back: str
    at: tuple[float, float]  # board mm
    shape: str = "square"  # a key of TILE_TYPES
    stackable: bool = False
    bag: bool = False


def guid(*parts: str) -> str:
    return hashlib.sha1("/".join(parts).encode()).hexdigest()[:6]


def transform(xz: tuple[float, float], y: float, *, face_down: bool = False, rotate: float = 0,
              scale: float = 1.0) -> dict[str, float]:
    """Position, rotation and scale as the saves write them: every value a float."""
    values = {"posX": xz[0], "posY": y, "posZ": xz[1], "rotX": 0, "rotY": rotate,
              "rotZ": 180 if face_down else 0,
              "scaleX": round(scale, 4), "scaleY": 1, "scaleZ": round(scale, 4)}
    return {k: float(v) for k, v in values.items()}


def custom_deck(sheet: Sheet, url: Url) -> dict[str, Any]:
    return {str(sheet.deck_id): {"FaceURL": url(f"sheets/{sheet.name}.png"),
                                 "BackURL": url("back.png"), "NumWidth": sheet.cols,
                                 "NumHeight": sheet.rows, "BackIsHidden": True,
                                 "UniqueBack": False, "Type": 0}}


def _card(pile: Pile, sheets: Sequence[Sheet], index: int, url: Url, place: dict[str, float]
          ) -> dict[str, Any]:
    face = pile.cards[index]
    sheet = sheet_of(sheets, face)
    return {"Name": "Card", "GUID": guid("card", pile.id, str(index)),
            "Nickname": face.name,
            "Description": f"{face.kind_label or face.deck_label} · {face.number}",
            "CardID": sheet.card_id(face), "CustomDeck": custom_deck(sheet, url),
            "Transform": place, "Hands": True, "HideWhenFaceDown": True}


def pile_object(pile: Pile, sheets: Sequence[Sheet], url: Url, table: TableGeometry
                ) -> dict[str, Any]:
    """A face-down deck, or a single face-down card for a pile of one."""
    xz = table.xz(pile.at)
    place = transform(xz, table.deck_y(table.rests_on(*xz), len(pile.cards)), face_down=True,
                      rotate=pile.rotate)
    cards = [_card(pile, sheets, i, url, place) for i in range(len(pile.cards))]
    if len(cards) == 1:
        return {**cards[0], "GUID": guid("pile", pile.id), "Nickname": pile.name,
                "Description": pile.note}
    decks: dict[str, Any] = {}
    for card in cards:
        decks.update(card["CustomDeck"])
    return {"Name": "Deck", "GUID": guid("pile", pile.id), "Nickname": pile.name,
            "Description": pile.note, "DeckIDs": [c["CardID"] for c in cards],
            "CustomDeck": decks, "ContainedObjects": cards, "Transform": place,
            "Hands": False, "HideWhenFaceDown": True}


def _image(front: str, back: str, tile: dict[str, Any]) -> dict[str, Any]:
    """A CustomImage as the saves write it: ImageScalar 1 and WidthScale 0 (Tabletop Simulator
    fills in the image's aspect when it loads the image)."""
    return {"ImageURL": front, "ImageSecondaryURL": back, "ImageScalar": 1.0,
            "WidthScale": 0.0, "CustomTile": tile}


def board_object(name: str, note: str, url: Url, table: TableGeometry) -> dict[str, Any]:
    """The board: a locked Custom_Tile that keeps its image's aspect (``Stretch`` off), its
    bottom on the table's surface."""
    scale = table.tile_scale(table.board_size()[1])
    tile = {"Type": TILE_TYPES["square"], "Thickness": table.tts["board"]["thickness"],
            "Stackable": False, "Stretch": False}
    return {"Name": "Custom_Tile", "GUID": guid("board"), "Nickname": name,
            "Description": note, "Locked": True,
            "Transform": transform((0.0, 0.0), table.board_y(), scale=scale),
            "CustomImage": _image(url("board.png"), url("board.png"), tile)}


def token_object(token: TokenObject, url: Url, table: TableGeometry) -> dict[str, Any]:
    """A token as a Custom_Tile of its shape lying on the board or the table, or an endless
    bag (resting beside the board) that hands out copies of it."""
    xz = table.xz(token.at)
    support = table.rests_on(*xz)
    thickness = table.tts["tile"]["thickness"]
    place = transform(xz, table.tile_y(support, thickness),
                      scale=table.tile_scale(table.units(token.size)))
    tile = {"Name": "Custom_Tile", "GUID": guid("token", token.id), "Nickname": token.name,
            "Description": token.note, "Transform": place,
            "CustomImage": _image(url(token.front), url(token.back),
                                  {"Type": TILE_TYPES[token.shape], "Thickness": thickness,
                                   "Stackable": token.stackable, "Stretch": True})}
    if not token.bag:
        return tile
    return {"Name": "Infinite_Bag", "GUID": guid("bag", token.id), "Nickname": token.name,
            "Description": token.note, "Transform": transform(xz, table.bag_y(support)),
            "ContainedObjects": [tile]}


def saved_object(title: str, board: tuple[str, str], piles: Sequence[Pile],
                 sheets: Sequence[Sheet], tokens: Sequence[TokenObject], url: Url,
                 table: TableGeometry) -> dict[str, Any]:
    """The whole table as Tabletop Simulator's save structure (``ObjectStates``) on the
    default table named in vtt.yaml."""
    objects = [board_object(board[0], board[1], url, table)]
    objects += [pile_object(p, sheets, url, table) for p in piles]
    objects += [token_object(t, url, table) for t in tokens]
    note = "\n".join(f"{p.name}: {p.note}" for p in piles)
    return {"SaveName": title, "GameMode": title, "Date": "", "VersionNumber": "",
            "Table": table.tts["table"], "Sky": "", "Note": note, "Rules": "",
            "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "ObjectStates": objects}
