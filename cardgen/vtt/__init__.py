"""The online table (issue 15): Tabletop Simulator deck sheets, board and token images and a
saved object in the setup position of rule 3, plus a generic image set (one PNG per card
face at 300 dpi and a CSV) for virtual tables that import images by hand.

:func:`vtt_files` lists every file of ``output/<lang>/vtt/`` with what its bytes depend on
and how to make them; the caller (``outputs.py``) turns them into build targets, so only
files whose inputs changed are made again.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..board.base import make_ctx
from ..board.board import sheet as board_sheet
from ..board.board import track_spaces
from ..board.tokens import Token, token_list
from ..face import CardFace
from ..layout import Layout
from ..model import GameData
from ..render.pdf import png_name
from . import raster
from .plan import Pile, Sheet, VttConfig, load_config, plan_piles, plan_sheets
from .tts import TokenObject, saved_object

__all__ = ["VttFile", "load_config", "plan_piles", "plan_sheets", "vtt_files"]


@dataclass(frozen=True)
class VttFile:
    name: str  # path under output/<lang>/vtt/
    key: tuple[str, ...]  # what the bytes depend on besides ``shared``
    shared: bool  # also depends on the shared game data (board, tokens, names, positions)
    make: Callable[[], bytes]


def token_stem(token: Token) -> str:
    value = f"-{token.value}" if token.value is not None else ""
    return f"tokens/{token.kind}-{token.key}{value}"


def _distinct(tokens: Sequence[Token]) -> list[Token]:
    seen: dict[tuple, Token] = {}
    for t in tokens:
        seen.setdefault((t.kind, t.key, t.value), t)
    return list(seen.values())


def _token_name(ctx, token: Token) -> str:
    name = _token_words(ctx, token)
    return name[:1].upper() + name[1:]


def _token_words(ctx, token: Token) -> str:
    side = ctx.side_name(token.key) if token.key in ctx.data.sides else ""
    if token.kind == "shield":
        return ctx.data.shields[token.key].name.values[ctx.lang]
    if token.kind == "round":
        return ctx.label("round_track")
    if token.kind == "loyalty":
        return ctx.label("loyalty")
    if token.kind == "card_play":
        return ctx.label("card_plays")
    if token.kind == "vote":
        return f"{ctx.label('token_vote')} · {side}"
    if token.kind in ("influence", "military"):
        return f"{ctx.label(token.kind)} {token.value} · {side}"
    if token.kind == "currency":
        return f"{ctx.data.currencies[token.key].name.values[ctx.lang]} {token.value}"
    rem = next(r for r in ctx.comp.tokens["reminders"] if r["id"] == token.key)
    return f"{rem['text'][ctx.lang]} ({rem['note'][ctx.lang]})"


def table_tokens(ctx, config: VttConfig, tokens: Sequence[Token]) -> list[TokenObject]:
    """Markers on their starting spaces (3.21, 3.22), shields and one endless bag per other
    kind of token in the supply beside the board (3.24)."""
    markers = config.data["markers"]
    spaces = track_spaces(ctx)
    lang = ctx.lang
    out: list[TokenObject] = []
    shields = supply = 0
    for t in tokens:
        stem = token_stem(t)
        files = (f"{stem}-front.png", f"{stem}-back.png")
        name = _token_name(ctx, t)
        if t.kind in ("round", "loyalty"):
            x, y, w, h = spaces["round_track" if t.kind == "round" else "loyalty"][
                markers[t.kind]["space"]]
            out.append(TokenObject(stem, name, markers[t.kind]["note"][lang], t.size, *files,
                                   (x + w / 2, y + h / 2)))
        elif t.kind == "card_play":
            out.append(TokenObject(stem, name, markers["card_play"]["note"][lang], t.size, *files,
                                   tuple(markers["card_play"]["at"])))
        elif t.kind == "shield":
            spec = markers["shields"]
            at = (spec["at"][0] + shields * spec["step"][0], spec["at"][1] + shields * spec["step"][1])
            out.append(TokenObject(stem, name, spec["note"][lang], t.size, *files, at))
            shields += 1
        else:
            spec = markers["supply"]
            col, row = divmod(supply, spec["rows"])
            at = (spec["at"][0] + col * spec["step"][0], spec["at"][1] + row * spec["step"][1])
            out.append(TokenObject(stem, name, spec["note"][lang], t.size, *files, at, bag=True))
            supply += 1
    return out


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


def vtt_files(data: GameData, lang: str, faces: Sequence[CardFace], layout: Layout,
              project: Path, face_hashes: Mapping[str, str], base_url: str = ""
              ) -> list[VttFile]:
    """Every file of ``output/<lang>/vtt/``; raises one CardgenError for a bad vtt.yaml."""
    config = load_config(project)
    piles = plan_piles(config, faces, data)
    sheets = plan_sheets(piles)
    cell = config.cell
    folder = project / "output" / lang / "vtt"

    def url(name: str) -> str:
        return f"{base_url.rstrip('/')}/{name}" if base_url else (folder / name).resolve().as_uri()

    out: list[VttFile] = []
    for sheet in sheets:
        out.append(VttFile(
            f"sheets/{sheet.name}.png",
            ("sheet", lang, sheet.name, str(sheet.cols), str(sheet.rows), str(cell),
             *(face_hashes[f.card_id] for f in sheet.faces)),
            False, lambda sheet=sheet: raster.deck_sheet(sheet, layout, lang, cell)))
    back = lambda px: raster.png_bytes(raster.card_images([None], layout, lang, px)[0])  # noqa: E731
    out.append(VttFile("back.png", ("back", lang, str(cell)), True, lambda: back(cell)))
    out.append(VttFile("hidden.png", ("hidden", lang, str(cell)), True, lambda: back(cell)))

    ctx = make_ctx(data, lang, project, "tokens")
    board_ctx = make_ctx(data, lang, project, "board")
    tokens = _distinct(token_list(ctx))
    px = config.data["board"]["pixels_wide"]
    out.append(VttFile("board.png", ("board", lang, str(px)), True,
                       lambda: raster.board_image(board_ctx, px)))
    dpi = config.data["tokens"]["dpi"]
    for token in tokens:
        stem = token_stem(token)
        for side in ("front", "back"):
            out.append(VttFile(f"{stem}-{side}.png", ("token", lang, stem, side, str(dpi)), True,
                               lambda token=token, side=side: raster.token_image(
                                   ctx, token, dpi, side == "back")))

    title = board_ctx.label("title")
    w, h, _b = board_sheet(board_ctx)

    def save() -> bytes:
        objects = saved_object(title, (title, board_ctx.label("subtitle")), piles, sheets,
                               table_tokens(board_ctx, config, tokens), url, config, (w, h))
        return (json.dumps(objects, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode()

    out.append(VttFile(f"{config.data['save_file']}.json",
                       ("save", lang, base_url or folder.resolve().as_uri(),
                        *(face_hashes[f.card_id] for f in faces)), True, save))

    gdpi = config.data["generic"]["dpi"]
    gpx = raster.card_pixels(layout, gdpi)
    for face in faces:
        out.append(VttFile(
            f"generic/{png_name(face)}", ("generic", lang, str(gdpi), face_hashes[face.card_id]),
            False, lambda face=face: raster.png_bytes(
                raster.card_images([face], layout, lang, gpx)[0], gdpi)))
    out.append(VttFile("generic/back.png", ("generic-back", lang, str(gdpi)), True,
                       lambda: raster.png_bytes(raster.card_images([None], layout, lang, gpx)[0],
                                                gdpi)))
    out.append(VttFile("generic/cards.csv", ("csv", lang, *(face_hashes[f.card_id] for f in faces)),
                       True, lambda: generic_csv(piles)))
    return out


__all__ += ["Sheet", "raster"]
