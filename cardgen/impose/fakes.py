"""Stand-in card drawers for tests and imposition previews (no layout, no fonts needed).

The front paints its bleed band red, the trim area a pale colour derived from the card id,
an embedded image, and the id in black; the back is dark with a light centre.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from PIL import Image
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..wording.face import CardFace
from .geometry import CardSize

_ART: dict[str, Image.Image] = {}


def fake_art() -> Image.Image:
    """A small RGB gradient image (one object, so ReportLab embeds it once per file)."""
    if "art" not in _ART:
        img = Image.new("RGB", (60, 40))
        img.putdata([(x * 4, y * 6, 128) for y in range(40) for x in range(60)])
        _ART["art"] = img
    return _ART["art"]


def fake_drawers(card: CardSize):
    """(draw_front, draw_back) painting ``card``'s bleed box from the origin."""
    bw, bh, b = card.bleed_width * mm, card.bleed_height * mm, card.bleed * mm

    def draw_front(c: Canvas, face: CardFace, origin: tuple[float, float]) -> None:
        x, y = origin
        digest = hashlib.sha256(face.card_id.encode()).digest()
        tint = "#" + "".join(f"{150 + v % 100:02x}" for v in digest[:3])
        c.setFillColor("#c0392b")
        c.rect(x, y, bw, bh, stroke=0, fill=1)
        c.setFillColor(tint)
        c.rect(x + b, y + b, bw - 2 * b, bh - 2 * b, stroke=0, fill=1)
        c.drawImage(ImageHolder.reader(), x + b + 4 * mm, y + bh / 2, 55 * mm, 36 * mm)
        c.saveState()  # a gradient and a see-through panel, as the real cards have
        path = c.beginPath()
        path.rect(x + b, y + b + 4 * mm, bw - 2 * b, 8 * mm)
        c.clipPath(path, stroke=0, fill=0)
        c.linearGradient(x, y, x + bw, y, ("#1f4b8a", "#efe6cf"))
        c.restoreState()
        c.setFillColor("#ffffff", alpha=0.6)
        c.rect(x + b, y + b + 14 * mm, bw - 2 * b, 12 * mm, stroke=0, fill=1)
        c.setFillColor("#000000", alpha=1)
        c.setFont("Helvetica", 9)
        c.drawCentredString(x + bw / 2, y + b + 20 * mm, face.card_id)

    def draw_back(c: Canvas, origin: tuple[float, float]) -> None:
        x, y = origin
        c.setFillColor("#3b2f22")
        c.rect(x, y, bw, bh, stroke=0, fill=1)
        c.setFillColor("#efe6cf")
        c.rect(x + b + 4 * mm, y + b + 4 * mm, bw - 2 * b - 8 * mm, bh - 2 * b - 8 * mm,
               stroke=0, fill=1)
        c.setFillColor("#1f4b8a")
        c.circle(x + bw / 2, y + bh / 2, 10 * mm, stroke=0, fill=1)

    return draw_front, draw_back


class ImageHolder:
    _reader = None

    @classmethod
    def reader(cls):
        from reportlab.lib.utils import ImageReader
        if cls._reader is None:
            cls._reader = ImageReader(fake_art())
        return cls._reader


def fake_faces(counts: list[int], lang: str = "en") -> list[CardFace]:
    """Faces numbered c01, c02 … with the given copies each."""
    base = CardFace(card_id="c00", lang=lang, kind="card", side=None, name="Card",
                    political=1, military=1, yields=(), cost=(), use_cost=None,
                    use_cost_label=None, shield=None, crown=False, year=None, lines=(),
                    deck_label="Market", number=0, version="0", art=None, currencies=())
    return [replace(base, card_id=f"c{i:02d}", name=f"Card {i}", number=i, copies=n)
            for i, n in enumerate(counts, 1)]


def game_counts() -> list[int]:
    """Copies per card that add up to the shipped game's 82 physical cards."""
    return [4, 4] + [1] * 74
