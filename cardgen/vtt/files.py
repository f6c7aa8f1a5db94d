"""Every file of ``output/<lang>/vtt/``, with what its bytes depend on and how to make them."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from ..board.base import make_ctx
from ..board.board import sheet as board_sheet
from ..board.tokens import token_list
from ..data.layout import Layout
from ..data.project import Project
from ..render.pdf import png_name
from ..wording.face import CardFace
from . import raster
from .generic import generic_csv
from .geometry import TableGeometry
from .links import image_links
from .pieces import distinct_tokens, table_tokens, token_stem
from .plan import load_config, plan_piles, plan_sheets
from .tts import saved_object


@dataclass(frozen=True)
class VttFile:
    name: str  # path under output/<lang>/vtt/
    key: tuple[str, ...]  # what the bytes depend on besides ``shared``
    shared: bool  # also depends on the shared game data (board, tokens, names, positions)
    make: Callable[[], bytes]


def vtt_files(project: Project, lang: str, faces: Sequence[CardFace], layout: Layout,
              face_hashes: Mapping[str, str], folder: Path, base_url: str = ""
              ) -> list[VttFile]:
    """Every file of ``folder`` (``output/<lang>/vtt/``, where local image links point;
    ``base_url``: the web folder holding each language's copy, see :mod:`.links`); raises
    one CardgenError for a bad vtt.yaml."""
    config = load_config(project)
    piles = plan_piles(config, faces, project.data)
    sheets = plan_sheets(piles)
    cell = config.cell
    url = image_links(base_url, lang, folder)

    out: list[VttFile] = []
    for sheet in sheets:
        out.append(VttFile(
            f"sheets/{sheet.name}.png",
            ("sheet", lang, sheet.name, str(sheet.cols), str(sheet.rows), str(cell),
             *(face_hashes[f.card_id] for f in sheet.faces)),
            False, partial(lambda sheet: raster.deck_sheet(sheet, layout, lang, cell), sheet)))
    back = lambda px: raster.png_bytes(raster.card_images([None], layout, lang, px)[0])  # noqa: E731
    out.append(VttFile("back.png", ("back", lang, str(cell)), True, lambda: back(cell)))
    out.append(VttFile("hidden.png", ("hidden", lang, str(cell)), True, lambda: back(cell)))

    ctx = make_ctx(project, lang, "tokens")
    board_ctx = make_ctx(project, lang, "board")
    tokens = distinct_tokens(token_list(ctx))
    px = config.data["board"]["pixels_wide"]
    out.append(VttFile("board.png", ("board", lang, str(px)), True,
                       lambda: raster.board_image(board_ctx, px)))
    dpi, round_kinds = config.data["tokens"]["dpi"], config.data["tokens"]["round"]
    for token in tokens:
        stem, coin = token_stem(token), token.kind in round_kinds
        for side in ("front", "back"):
            out.append(VttFile(f"{stem}-{side}.png",
                               ("token", lang, stem, side, str(dpi), "coin" if coin else ""),
                               True, partial(lambda token, side, coin: raster.token_image(
                                   ctx, token, dpi, side == "back", coin), token, side, coin)))

    title = board_ctx.label("title")
    w, h, _b = board_sheet(board_ctx)

    def save() -> bytes:
        table = TableGeometry(config.data["tts"], (w, h))
        objects = saved_object(title, (title, board_ctx.label("subtitle")), piles, sheets,
                               table_tokens(board_ctx, config, tokens, table), url, table)
        return (json.dumps(objects, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode()

    out.append(VttFile(f"{config.data['save_file']}.json",
                       ("save", lang, url(""), *(face_hashes[f.card_id] for f in faces)),
                       True, save))

    gdpi = config.data["generic"]["dpi"]
    gpx = raster.card_pixels(layout, gdpi)
    for face in faces:
        out.append(VttFile(
            f"generic/{png_name(face)}", ("generic", lang, str(gdpi), face_hashes[face.card_id]),
            False, partial(lambda face: raster.png_bytes(
                raster.card_images([face], layout, lang, gpx)[0], gdpi), face)))
    out.append(VttFile("generic/back.png", ("generic-back", lang, str(gdpi)), True,
                       lambda: raster.png_bytes(raster.card_images([None], layout, lang, gpx)[0],
                                                gdpi)))
    out.append(VttFile("generic/cards.csv", ("csv", lang, *(face_hashes[f.card_id] for f in faces)),
                       True, lambda: generic_csv(piles)))
    return out
