"""The files `cardgen build` writes for one language, each as a :class:`Target`.

A target names its output, the content key of what its bytes depend on, and how to make
them. The stages it calls (compose, render, impose, board, glossary) return bytes; only
the pipeline writes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from .. import impose
from ..board import build_board, build_board_tiles, build_player_aid, build_tokens
from ..data.layout import Layout
from ..data.model import GameData
from ..data.project import Project
from ..errors import Finding
from ..files.incremental import digest
from ..fonts import register_fonts
from ..press.preflight import Rules
from ..render.art import prepare_art, resolution_findings
from ..render.arttemplate import art_template_png
from ..render.back import draw_back
from ..render.card import draw_card
from ..render.cmyk import CmykConverter, converter_for
from ..render.faceforms import FaceLibrary
from ..render.facestore import FaceStore
from ..render.pdf import render_back_pdf, render_cards_pdf
from ..tables import drawing_inputs, tables_document, writers
from ..tables.glossary import build_glossary_sheet, glossary_card_inputs
from ..vtt import vtt_files
from ..wording.face import CardFace

PAPERS = ("a4", "letter")


@dataclass(frozen=True)
class Target:
    rel: str  # path under output/
    key: str
    make: Callable[[], bytes]
    #: print files: checked by the process that makes them, before anything is written
    preflight: Rules | None = None
    #: run once in the building process before any target is made (in workers too): draws
    #: what several targets share, so each worker inherits it instead of drawing it again
    prepare: Callable[[], object] | None = None


@dataclass
class LangContext:
    """Everything the targets of one language are made from."""

    project: Project
    lang: str
    faces: list[CardFace]
    layout: Layout
    base_key: str  # code, fonts, layouts and shared card_data
    card_key: str  # code, fonts, card layout
    flip: str = "long"
    cmyk: CmykConverter | None = None  # every file converted through this ICC profile
    gutterfold: bool = False
    profile: str = "generic"
    reprint: tuple[str, ...] = ()
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm, every backs page (calibration)
    pdfx: bool = False  # print-shop.pdf as PDF/X-1a:2003
    face_hashes: dict[str, str] = field(default_factory=dict)
    vtt: bool = False
    vtt_base_url: str = ""
    #: the project's own output/ (a build reads a copy of the project, so not project/output)
    output: Path | None = None
    #: the last build's face drawings, and where this build's go (None: every face drawn)
    faces_kept: FaceStore | None = None

    @property
    def data(self) -> GameData:
        return self.project.data


def _drawers(ctx: LangContext, layout: Layout | None = None) -> tuple[Callable, Callable]:
    layout = layout or ctx.layout

    def front(canvas, face, origin):
        draw_card(canvas, face, layout, origin=origin)

    def back(canvas, origin):
        draw_back(canvas, layout, origin=origin, lang=ctx.lang)

    return front, back


def _card_size(layout: Layout) -> impose.CardSize:
    g = layout.card
    return impose.CardSize(g.width, g.height, g.bleed)


def print_shop_findings(project: Project, layout: Layout, profile_id: str,
                        faces: Sequence[CardFace] = ()) -> list[Finding]:
    """What the chosen print-shop profile does to the layout's card (scaling, bleed) and to
    the art of ``faces`` (its resolution at the shop's scaled size)."""
    profile = impose.select_profile(impose.load_profiles(project), profile_id)
    card = _card_size(layout)
    card = impose.CardSize(card.width, card.height, impose.drawing_bleed(profile, card))
    out = impose.profile_findings(profile, card, layout.card.safe)
    scale = max(profile.scale(card.width, card.height))
    if abs(scale - 1) < 1e-6 or profile.page_order == "images":
        return out
    box, seen = layout.art_box, set()
    for face in faces:
        if face.art is None or face.art in seen:
            continue
        seen.add(face.art)
        art = prepare_art(face.art, box.w, box.h, ppi=layout.art.min_ppi, card=face.card_id)
        out += resolution_findings(art, profile.resolution, Path("art") / Path(face.art).name,
                                   face.card_id, scale=scale, where="print-shop.pdf")
    return out


def _shop_layout(ctx: LangContext, profile: impose.Profile) -> Layout:
    """The layout print-shop files are drawn with: the card with the bleed the profile's
    trim and bleed need (real artwork, not a stretched edge), and art kept at the layout's
    ppi at the shop's (scaled) size."""
    card = _card_size(ctx.layout)
    bleed = impose.drawing_bleed(profile, card)
    # the card is scaled up to the shop's trim: art keeps the layout's ppi at that size
    ppi = math.ceil(ctx.layout.art.min_ppi * max(profile.scale(card.width, card.height)) - 1e-6)
    return replace(ctx.layout, card=replace(ctx.layout.card, bleed=bleed),
                   art=replace(ctx.layout.art, min_ppi=max(ppi, ctx.layout.art.min_ppi)))


def _shop_drawing(ctx: LangContext, profile: impose.Profile
                  ) -> tuple[impose.CardSize, Callable, Callable]:
    """The card size and drawers for print-shop files (:func:`_shop_layout`)."""
    layout = _shop_layout(ctx, profile)
    card = _card_size(ctx.layout)
    return (impose.CardSize(card.width, card.height, layout.card.bleed),
            *_drawers(ctx, layout))


def _cmyk_key(ctx: LangContext) -> str:
    return ctx.cmyk.key if ctx.cmyk else "rgb"


def converter(project: Project, profile_id: str, cmyk: bool, icc: Path | None
              ) -> CmykConverter | None:
    """The build's CMYK converter: ``--icc FILE`` or the shipped profile, at the print-shop
    profile's ink limit; None for an RGB build (``--icc`` alone means CMYK)."""
    if not cmyk and icc is None:
        return None
    profile = impose.select_profile(impose.load_profiles(project), profile_id)
    return converter_for(icc.resolve() if icc else profile.icc, profile.ink_limit,
                         profile.rich_black)


def wants_pdfx(project: Project, profile_id: str, pdfx: bool | None) -> bool:
    """Whether print-shop.pdf is PDF/X-1a: ``--pdfx`` / ``--no-pdfx`` when given, else what
    the print-shop profile asks (DriveThruCards does)."""
    if pdfx is not None:
        return pdfx
    return impose.select_profile(impose.load_profiles(project), profile_id).pdfx


def colour_findings(project: Project, profile_id: str, cmyk: bool, pdfx: bool | None
                    ) -> list[Finding]:
    """Whether print-shop.pdf will be RGB, said (``cmyk``: --cmyk or --icc)."""
    profile = impose.select_profile(impose.load_profiles(project), profile_id)
    return impose.colour_findings(profile, cmyk or wants_pdfx(project, profile_id, pdfx))


def _shop_rules(ctx: LangContext, profile: impose.Profile) -> Rules:
    """What print-shop.pdf must meet: boxes and embedded fonts; CMYK files no RGB and no
    more ink than the converter's limit and no transparency (panels are pre-mixed)."""
    limit = ctx.cmyk.ink_limit if ctx.cmyk else (
        profile.ink_limit if profile.colour_space == "cmyk" or ctx.pdfx else None)
    return Rules(cmyk=limit is not None, ink_limit=limit, boxes=True,
                 transparency="off" if limit is None else "error", pdfx=ctx.pdfx,
                 min_image_ppi=profile.resolution)


def _faces_key(ctx: LangContext, *extra: str) -> str:
    hashes = [ctx.face_hashes[f.card_id] for f in ctx.faces]
    return digest(ctx.card_key, ctx.lang, *hashes, *extra)


def _library(ctx: LangContext, layout: Layout, cmyk: CmykConverter | None) -> FaceLibrary:
    """The language's face library for ``layout`` and ``cmyk``, taking what it can from the
    last build's drawings (``ctx.faces_kept``) and kept for the next."""
    if ctx.faces_kept is None:
        return FaceLibrary(layout, ctx.lang, cmyk)
    key = digest(ctx.card_key, "faces", ctx.lang, cmyk.key if cmyk else "rgb",
                 repr(layout.card), repr(layout.art))
    library = FaceLibrary(layout, ctx.lang, cmyk, kept=ctx.faces_kept.kept(ctx.lang, key),
                          key=lambda face: ctx.face_hashes.get(face.card_id))
    ctx.faces_kept.track(ctx.lang, key, library)
    return library


def card_targets(ctx: LangContext) -> list[Target]:
    lang, faces = ctx.lang, ctx.faces
    front, back = _drawers(ctx)
    card = _card_size(ctx.layout)
    spec = impose.load_sheet_spec(ctx.project)
    profile = impose.select_profile(impose.load_profiles(ctx.project), ctx.profile)
    options = (f"flip={ctx.flip};cmyk={_cmyk_key(ctx)};profile={ctx.profile};"
               f"offset={ctx.back_offset};pdfx={ctx.pdfx}")
    sheet_key = digest(_faces_key(ctx, options), ctx.base_key)
    backs = impose.BackSide(ctx.layout.back.colour, ctx.back_offset)
    # every face drawn once for cards.pdf and the sheets, once more for print-shop.pdf only
    # when the shop's bleed or colours differ
    shop_card, shop_front, shop_back = _shop_drawing(ctx, profile)
    shop_cmyk = impose.printshop.shop_converter(profile, ctx.cmyk, ctx.pdfx)
    library = _library(ctx, ctx.layout, ctx.cmyk)
    shop_layout = _shop_layout(ctx, profile)
    shop_library = (library if shop_layout == ctx.layout and shop_cmyk is ctx.cmyk
                    else _library(ctx, shop_layout, shop_cmyk))

    def drawn() -> FaceLibrary:
        return library.prepare(faces)

    out = [
        Target(f"{lang}/cards.pdf", _faces_key(ctx, _cmyk_key(ctx)),
               lambda: render_cards_pdf(faces, ctx.layout, cmyk=ctx.cmyk, library=library)[0],
               prepare=drawn),
        Target(f"{lang}/back.pdf", digest(ctx.card_key, lang, "back", _cmyk_key(ctx)),
               lambda: render_back_pdf(ctx.layout, lang, ctx.cmyk)),
    ]
    plans = {}
    for paper in PAPERS:
        plans[f"sheets-{paper}.pdf"] = impose.plan_sheets(faces, card, spec, paper, ctx.flip)
        out.append(Target(
            f"{lang}/sheets-{paper}.pdf", digest(sheet_key, paper),
            partial(lambda paper: impose.build_sheets(faces, front, back, card, spec, paper, lang,
                                                    flip=ctx.flip, cmyk=ctx.cmyk, backs=backs,
                                                    source=library), paper),
            prepare=drawn))
        out.append(Target(
            f"{lang}/calibration-{paper}.pdf", digest(ctx.base_key, lang, paper, options),
            partial(lambda paper: impose.build_calibration(spec, paper, lang, ctx.flip,
                                                         ctx.back_offset, ctx.cmyk), paper)))
        if ctx.gutterfold:
            out.append(Target(
                f"{lang}/sheets-{paper}-gutterfold.pdf", digest(sheet_key, paper, "gutterfold"),
                partial(lambda paper: impose.build_sheets(faces, front, back, card, spec, paper,
                                                        lang, gutterfold=True, cmyk=ctx.cmyk,
                                                        source=library), paper),
                prepare=drawn))
        if ctx.reprint:
            out.append(Target(
                f"{lang}/reprint-{paper}.pdf", digest(sheet_key, paper, "reprint", *ctx.reprint),
                partial(lambda paper: impose.build_reprint(faces, ctx.reprint, front, back, card,
                                                         spec, paper, lang, flip=ctx.flip,
                                                         cmyk=ctx.cmyk, backs=backs,
                                                         source=library) or b"", paper),
                prepare=drawn))
    if profile.page_order == "images":
        images = impose.build_card_images  # one PNG per card, written as a folder

        def image_files() -> dict[str, bytes]:
            return images(faces, shop_front, shop_back, shop_card, profile)

        out.extend(_image_targets(ctx, sheet_key, image_files))
    else:
        out.append(Target(
            f"{lang}/print-shop.pdf", digest(sheet_key, "print-shop"),
            lambda: impose.build_print_shop(faces, shop_front, shop_back, shop_card, profile,
                                            cmyk=ctx.cmyk,
                                            font=register_fonts(ctx.layout.fonts)["body"],
                                            pdfx=ctx.pdfx, source=shop_library),
            preflight=_shop_rules(ctx, profile), prepare=lambda: shop_library.prepare(faces)))
    manifest = lambda: impose.build_manifest(faces, ctx.face_hashes, plans, lang, profile)  # noqa: E731
    out.append(Target(f"{lang}/manifest.json", digest(sheet_key, "manifest"),
                      lambda: impose.manifest_json(manifest())))
    out.append(Target(f"{lang}/manifest.txt", digest(sheet_key, "manifest.txt"),
                      lambda: impose.manifest_text(manifest()).encode("utf-8")))
    return out


def _image_targets(ctx: LangContext, key: str, make_all: Callable[[], dict[str, bytes]]
                   ) -> list[Target]:
    cache: dict[str, bytes] = {}

    def one(name: str) -> bytes:
        if not cache:
            cache.update(make_all())
        return cache[name]

    names = impose.printshop.image_names(ctx.faces)
    return [Target(f"{ctx.lang}/print-shop-{ctx.profile}/{name}", digest(key, name),
                   partial(one, name)) for name in names]


def art_template_target(layout: Layout, base_key: str) -> Target:
    """``output/art-template.png``: the art box with its visible window and the panels over
    it marked (one for every language: the art is shared)."""
    return Target("art-template.png", digest(base_key, "art-template"),
                  partial(art_template_png, layout))


def game_targets(ctx: LangContext) -> list[Target]:
    """Board, tokens, player aid and glossary: they depend on shared data, not on faces."""
    data, lang, project, cmyk = ctx.data, ctx.lang, ctx.project, ctx.cmyk
    key = digest(ctx.base_key, lang, _cmyk_key(ctx))
    out = [Target(f"{lang}/board.pdf", digest(key, "board"),
                  lambda: build_board(project, lang, cmyk))]
    for paper in PAPERS:
        suffix = "" if paper == "a4" else "-letter"
        out += [
            Target(f"{lang}/board-{paper}.pdf", digest(key, "tiles", paper),
                   partial(lambda paper: build_board_tiles(project, lang, paper, cmyk), paper)),
            Target(f"{lang}/tokens{suffix}.pdf",
                   digest(key, "tokens", paper, ctx.flip, repr(ctx.back_offset)),
                   partial(lambda paper: build_tokens(project, lang, paper, ctx.flip, cmyk,
                                                    ctx.back_offset), paper)),
        ]
    out.append(Target(f"{lang}/player-aid.pdf", digest(key, "aid"),
                      lambda: build_player_aid(project, lang, cmyk=cmyk)))
    out.append(Target(f"{lang}/glossary.pdf", digest(key, "glossary", *glossary_card_inputs(data)),
                      lambda: build_glossary_sheet(data, lang, ctx.layout.fonts, cmyk)))
    return out


def table_targets(project: Project, lang: str, card_key: str,
                  cmyk: CmykConverter | None = None) -> list[Target]:
    """output/<lang>/rules-tables.pdf, .md and .html. The tables' words are made here (it
    is quick) and are their key, with ``card_key`` (code, fonts, layouts): a card change
    that no table shows rebuilds none of them. The PDF is CMYK in a CMYK build (``cmyk``)."""
    doc = tables_document(project, lang)
    key = digest(card_key, lang, "tables", repr(doc), drawing_inputs(project.data))
    pdf_key = digest(key, cmyk.key if cmyk else "rgb")
    return [Target(f"{lang}/rules-tables.{ext}", digest(pdf_key if ext == "pdf" else key, ext),
                   make)
            for ext, make in writers(doc, project, cmyk).items()]


def vtt_targets(ctx: LangContext) -> list[Target]:
    """``<lang>/vtt/``: each deck sheet, image and the saved object, keyed by what it shows
    (a sheet by its cards' face hashes), so a changed card rewrites only its own sheet."""
    if not ctx.vtt:
        return []
    output = ctx.output or ctx.project.root / "output"
    files = vtt_files(ctx.project, ctx.lang, ctx.faces, ctx.layout, ctx.face_hashes,
                      output / ctx.lang / "vtt", ctx.vtt_base_url)
    return [Target(f"{ctx.lang}/vtt/{f.name}",
                   digest(ctx.base_key if f.shared else "", "vtt", *f.key), f.make)
            for f in files]
