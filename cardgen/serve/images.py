"""The pictures `cardgen serve` shows, made by the same drawing as the PDFs and `--png`.

Card faces are drawn with :func:`render_cards_pdf` and rasterised with pdftoppm at screen
size, cropped to the trimmed card, and kept under ``output/serve/cards/`` named by face key:
a face whose key did not change is never drawn again, so a one-card edit rasterises one card.
The board, tokens and player aid are rasterised from the PDFs the build wrote, named by the
PDF's content hash. Every path is named through the output wall
(:func:`~cardgen.files.safepath.output_path`): nothing outside ``output/serve/`` is ever
written, listed or deleted, and nothing but a regular file under ``output/`` is read.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ..data.layout import Layout
from ..files.incremental import file_digest
from ..files.oserrors import read_input
from ..files.safepath import output_path, output_tree
from ..files.write import atomic_move
from ..render.pdf import rasterise, render_cards_pdf
from ..wording.face import CardFace

#: Under output/: everything the preview writes (the only folder the server reads images from).
SERVE_DIR = "serve"
#: Its folders of images, each listed and pruned through the output wall.
IMAGE_FOLDERS = ("cards", "game", "full")
#: Card images: 150 dpi shows a 63 mm card about 370 px wide, sharp at twice CSS size.
CARD_DPI = 150
#: A face opened full size: print resolution, bleed included (the overlay marks the trim).
FULL_DPI = 300
#: The game's other components: (file under output/<lang>/, label, dpi).
GAME_PDFS = (("board.pdf", "Board", 40), ("tokens.pdf", "Tokens", 50),
             ("player-aid.pdf", "Player aid", 60))
#: pdftoppm runs in this many processes at once.
RASTER_JOBS = 2
#: JPEG: encoded five times faster than PNG (a cold start draws 164 faces), sharp at 92 %.
FORMAT = "jpg"


@dataclass(frozen=True)
class GameImages:
    lang: str
    label: str
    pages: tuple[str, ...]  # image names under the serve folder, page order


class ImageCache:
    """Images under ``folder`` (output/serve), each named by what its pixels depend on."""

    def __init__(self, folder: Path):
        self.folder = folder

    def _path(self, name: str, *, folder: bool = False) -> Path:
        """Where image ``name`` goes: through the output wall (a planted link is refused)."""
        return output_path(self.folder.parent, f"{self.folder.name}/{name}", folder=folder)

    def _files(self, sub: str) -> list[Path]:
        return output_tree(self.folder.parent, f"{self.folder.name}/{sub}", deep=False)

    @staticmethod
    def card_name(key: str) -> str:
        return f"cards/{key[:32]}.{FORMAT}"

    @staticmethod
    def full_name(key: str) -> str:
        return f"full/{key[:32]}.png"

    def draw_full(self, face: CardFace, key: str, layout: Layout) -> Path:
        """The face at :data:`FULL_DPI` with its bleed, drawn once per face key."""
        path = self._path(self.full_name(key))
        if not path.is_file():
            self._path("full", folder=True).mkdir(parents=True, exist_ok=True)
            pdf = render_cards_pdf([face], layout, physical=False)[0]
            with tempfile.TemporaryDirectory(dir=self.folder, prefix=".draw-") as tmp:
                [page] = rasterise(pdf, FULL_DPI, Path(tmp), fmt="png")
                atomic_move(page, self._path(self.full_name(key)))
        return path

    def draw_cards(self, faces: Iterable[CardFace], keys: dict[str, str], layout: Layout) -> list[str]:
        """Rasterise every face whose image is missing; return their card ids."""
        missing = [f for f in faces if not self._path(self.card_name(keys[f.card_id])).is_file()]
        if not missing:
            return []
        self._path("cards", folder=True).mkdir(parents=True, exist_ok=True)
        size = -(-len(missing) // RASTER_JOBS)
        chunks = [missing[i:i + size] for i in range(0, len(missing), size)]
        # ReportLab draws in this thread; only the pdftoppm processes run side by side
        pdfs = [render_cards_pdf(chunk, layout, physical=False)[0] for chunk in chunks]
        crop = _trim_pixels(layout)
        with ThreadPoolExecutor(len(chunks)) as pool:
            list(pool.map(lambda job: self._store(job[0], job[1], keys, crop),
                          zip(chunks, pdfs, strict=True)))
        return [f.card_id for f in missing]

    def _store(self, faces: list[CardFace], pdf: bytes, keys: dict[str, str],
               crop: tuple[int, int, int, int]) -> None:
        with tempfile.TemporaryDirectory(dir=self.folder, prefix=".draw-") as tmp:
            pages = rasterise(pdf, CARD_DPI, Path(tmp), crop=crop, fmt=FORMAT)
            for face, page in zip(faces, pages, strict=True):
                atomic_move(page, self._path(self.card_name(keys[face.card_id])))

    def draw_game(self, output: Path, langs: Iterable[str]) -> list[GameImages]:
        """Board, tokens and player aid of each language, rasterised when their PDF changed."""
        out: list[GameImages] = []
        for lang in langs:
            for file, label, dpi in GAME_PDFS:
                pdf = output_path(output, f"{lang}/{file}")
                if pdf.is_file():
                    out.append(GameImages(lang, label, self._game_pages(pdf, lang, dpi)))
        return out

    def _game_pages(self, pdf: Path, lang: str, dpi: int) -> tuple[str, ...]:
        stem = f"game/{lang}-{pdf.stem}-{file_digest(pdf)[:16]}"
        prefix = f"{stem.removeprefix('game/')}-"
        cached = sorted((p for p in self._files("game") if p.name.startswith(prefix)
                         and p.suffix == f".{FORMAT}" and p.stem[len(prefix):].isdigit()),
                        key=_page_number)
        if cached:
            return tuple(f"{stem}-{_page_number(p)}.{FORMAT}" for p in cached)
        self._path("game", folder=True).mkdir(parents=True, exist_ok=True)
        names = []
        with tempfile.TemporaryDirectory(dir=self.folder, prefix=".draw-") as tmp:
            pages = rasterise(read_input(pdf), dpi, Path(tmp), fmt=FORMAT)
            for number, page in enumerate(pages, start=1):
                names.append(f"{stem}-{number}.{FORMAT}")
                atomic_move(page, self._path(names[-1]))
        return tuple(names)

    def prune(self, keep: set[str]) -> None:
        """Delete images no longer shown (``keep``: names under the folder)."""
        for sub in IMAGE_FOLDERS:
            for path in self._files(sub):
                if f"{sub}/{path.name}" not in keep:
                    path.unlink(missing_ok=True)


def _page_number(path: Path) -> int:
    return int(path.stem.rsplit("-", 1)[1])


def _trim_pixels(layout: Layout) -> tuple[int, int, int, int]:
    """The trimmed card inside a page with bleed, as pdftoppm's crop (x, y, w, h) in pixels."""
    _w, h = layout.page_size
    x0, y0, x1, y1 = layout.trim_box
    px = CARD_DPI / 72
    return round(x0 * px), round((h - y1) * px), round((x1 - x0) * px), round((y1 - y0) * px)
