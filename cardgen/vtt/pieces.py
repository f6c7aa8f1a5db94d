"""The tokens of the online table: one image pair per kind of token, the markers on their
starting spaces (3.21, 3.22), the shields and an endless bag of each other kind in the
supply beside the board (3.24), with names in the build's language.

Shape and stacking come from ``tokens:`` in vtt.yaml (round coins are circle tiles; the
pieces the rules pile up stack); the shields and the bags stand in grids whose pitch is a
piece's footprint plus the least gap of ``tts.gap``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from ..board.base import Ctx
from ..board.board import track_spaces
from ..board.tokens import Token
from .geometry import TableGeometry
from .plan import VttConfig
from .tts import TokenObject


class _Look(TypedDict):
    """How a token lies on the table: TokenObject's shape and stackable."""

    shape: str
    stackable: bool


def token_stem(token: Token) -> str:
    value = f"-{token.value}" if token.value is not None else ""
    return f"tokens/{token.kind}-{token.key}{value}"


def distinct_tokens(tokens: Sequence[Token]) -> list[Token]:
    seen: dict[tuple, Token] = {}
    for t in tokens:
        seen.setdefault((t.kind, t.key, t.value), t)
    return list(seen.values())


def token_name(ctx: Ctx, token: Token) -> str:
    name = _token_words(ctx, token)
    return name[:1].upper() + name[1:]


def _token_words(ctx: Ctx, token: Token) -> str:
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


def grid_at(spec: dict, index: int, pitch_mm: float) -> tuple[float, float]:
    """The ``index``-th place of a grid that starts at ``spec['at']`` (board mm), fills a
    column of ``spec['rows']`` downwards, then starts the next column to its left."""
    col, row = divmod(index, spec["rows"])
    return spec["at"][0] - col * pitch_mm, spec["at"][1] + row * pitch_mm


def table_tokens(ctx: Ctx, config: VttConfig, tokens: Sequence[Token], table: TableGeometry
                 ) -> list[TokenObject]:
    """Markers on their starting spaces (3.21, 3.22), shields and one endless bag per other
    kind of token in the supply beside the board (3.24)."""
    markers, looks = config.data["markers"], config.data["tokens"]
    spaces = track_spaces(ctx)
    lang, unit, gap = ctx.lang, table.tts["unit_mm"], table.tts["gap"]
    out: list[TokenObject] = []
    shields = supply = 0
    for t in tokens:
        stem = token_stem(t)
        kind: _Look = {"shape": "circle" if t.kind in looks["round"] else "square",
                       "stackable": t.kind in looks["stackable"]}
        files = (f"{stem}-front.png", f"{stem}-back.png")
        name = token_name(ctx, t)
        if t.kind in ("round", "loyalty"):
            x, y, w, h = spaces["round_track" if t.kind == "round" else "loyalty"][
                markers[t.kind]["space"]]
            out.append(TokenObject(stem, name, markers[t.kind]["note"][lang], t.size, *files,
                                   (x + w / 2, y + h / 2), **kind))
        elif t.kind == "card_play":
            out.append(TokenObject(stem, name, markers["card_play"]["note"][lang], t.size, *files,
                                   tuple(markers["card_play"]["at"]), **kind))
        elif t.kind == "shield":
            spec = markers["shields"]
            at = grid_at(spec, shields, t.size + gap * unit)
            out.append(TokenObject(stem, name, spec["note"][lang], t.size, *files, at, **kind))
            shields += 1
        else:
            spec = markers["supply"]
            at = grid_at(spec, supply, table.bag_pitch() * unit)
            out.append(TokenObject(stem, name, spec["note"][lang], t.size, *files, at, **kind,
                                   bag=True))
            supply += 1
    return out
