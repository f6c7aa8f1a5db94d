"""The Tabletop Simulator saved object: board, the setup piles face down, the markers on
their starting spaces and the supply beside the board (rule 3).

Positions are worked out in board millimetres (``layouts/vtt.yaml``, y down from the top
edge) and turned into table units with the board centred on the table's origin: x to the
right, z towards the Wittelsbach edge (the top of the board, 2.24). GUIDs are derived from
each object's id, so the same table gives the same file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .plan import Pile, Sheet, VttConfig, sheet_of

Url = Callable[[str], str]


@dataclass(frozen=True)
class TokenObject:
    """One token (or one endless bag of a kind of token) for the table."""

    id: str
    name: str
    note: str
    size: float  # mm
    front: str  # file under vtt/
    back: str
    at: tuple[float, float]  # board mm
    bag: bool = False


def guid(*parts: str) -> str:
    return hashlib.sha1("/".join(parts).encode()).hexdigest()[:6]


class Table:
    def __init__(self, config: VttConfig, board_mm: tuple[float, float]):
        self.tts = config.data["tts"]
        self.board_mm = board_mm

    def position(self, at: Sequence[float], height: float = 0.0) -> dict[str, float]:
        w, h = self.board_mm
        unit = self.tts["unit_mm"]
        return {"posX": round((at[0] - w / 2) / unit, 4),
                "posY": round(self.tts["lift"] + height, 4),
                "posZ": round((h / 2 - at[1]) / unit, 4)}

    def transform(self, at: Sequence[float], *, face_down: bool = False, rotate: float = 0,
                  scale: float = 1.0, height: float = 0.0) -> dict[str, float]:
        return {**self.position(at, height), "rotX": 0, "rotY": rotate,
                "rotZ": 180 if face_down else 0,
                "scaleX": round(scale, 4), "scaleY": 1, "scaleZ": round(scale, 4)}


def custom_deck(sheet: Sheet, url: Url) -> dict[str, Any]:
    return {str(sheet.deck_id): {"FaceURL": url(f"sheets/{sheet.name}.png"),
                                 "BackURL": url("back.png"), "NumWidth": sheet.cols,
                                 "NumHeight": sheet.rows, "BackIsHidden": True,
                                 "UniqueBack": False, "Type": 0}}


def _card(pile: Pile, sheets: Sequence[Sheet], index: int, url: Url, table: Table
          ) -> dict[str, Any]:
    face = pile.cards[index]
    sheet = sheet_of(sheets, face)
    return {"Name": "Card", "GUID": guid("card", pile.id, str(index)),
            "Nickname": face.name,
            "Description": f"{face.kind_label or face.deck_label} · {face.number}",
            "CardID": sheet.card_id(face), "CustomDeck": custom_deck(sheet, url),
            "Transform": table.transform(pile.at, face_down=True, rotate=pile.rotate),
            "Hands": True, "HideWhenFaceDown": True}


def pile_object(pile: Pile, sheets: Sequence[Sheet], url: Url, table: Table) -> dict[str, Any]:
    """A face-down deck, or a single face-down card for a pile of one."""
    cards = [_card(pile, sheets, i, url, table) for i in range(len(pile.cards))]
    if len(cards) == 1:
        return {**cards[0], "GUID": guid("pile", pile.id), "Nickname": pile.name,
                "Description": pile.note}
    decks: dict[str, Any] = {}
    for card in cards:
        decks.update(card["CustomDeck"])
    return {"Name": "Deck", "GUID": guid("pile", pile.id), "Nickname": pile.name,
            "Description": pile.note, "DeckIDs": [c["CardID"] for c in cards],
            "CustomDeck": decks, "ContainedObjects": cards,
            "Transform": table.transform(pile.at, face_down=True, rotate=pile.rotate),
            "Hands": False, "HideWhenFaceDown": True}


def board_object(name: str, note: str, url: Url, table: Table) -> dict[str, Any]:
    w, _h = table.board_mm
    scale = w / table.tts["unit_mm"] / table.tts["board_units_at_scale_1"]
    return {"Name": "Custom_Board", "GUID": guid("board"), "Nickname": name,
            "Description": note, "Locked": True,
            "Transform": table.transform((w / 2, table.board_mm[1] / 2), scale=scale, height=-0.9),
            "CustomImage": {"ImageURL": url("board.png"), "ImageSecondaryURL": "",
                            "ImageScalar": 1.0, "WidthScale": 0.0}}


def token_object(token: TokenObject, url: Url, table: Table) -> dict[str, Any]:
    scale = token.size / table.tts["unit_mm"] / table.tts["tile_units_at_scale_1"]
    tile = {"Name": "Custom_Tile", "GUID": guid("token", token.id), "Nickname": token.name,
            "Description": token.note, "Transform": table.transform(token.at, scale=scale),
            "CustomImage": {"ImageURL": url(token.front), "ImageSecondaryURL": url(token.back),
                            "ImageScalar": 1.0, "WidthScale": 0.0,
                            "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": True,
                                           "Stretch": True}}}
    if not token.bag:
        return tile
    return {"Name": "Infinite_Bag", "GUID": guid("bag", token.id), "Nickname": token.name,
            "Description": token.note, "Transform": table.transform(token.at),
            "ContainedObjects": [tile]}


def saved_object(title: str, board: tuple[str, str], piles: Sequence[Pile],
                 sheets: Sequence[Sheet], tokens: Sequence[TokenObject], url: Url,
                 config: VttConfig, board_mm: tuple[float, float]) -> dict[str, Any]:
    """The whole table as Tabletop Simulator's save structure (``ObjectStates``)."""
    table = Table(config, board_mm)
    objects = [board_object(board[0], board[1], url, table)]
    objects += [pile_object(p, sheets, url, table) for p in piles]
    objects += [token_object(t, url, table) for t in tokens]
    note = "\n".join(f"{p.name}: {p.note}" for p in piles)
    return {"SaveName": title, "GameMode": title, "Date": "", "VersionNumber": "",
            "Table": "", "Sky": "", "Note": note, "Rules": "", "LuaScript": "",
            "LuaScriptState": "", "XmlUI": "", "ObjectStates": objects}
