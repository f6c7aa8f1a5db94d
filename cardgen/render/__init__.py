"""Render stage: one card face → drawing.

Takes the wording stage's faces and the card layout; gives vector icons, set text, art,
a drawn card with its fit report, and card PDFs and PNGs.
"""

from .back import draw_back
from .card import CardReport, check_face, draw_card
from .pdf import RenderReport, write_back_pdf, write_cards_pdf, write_pngs
from .textflow import FitResult

__all__ = [
    "CardReport",
    "FitResult",
    "RenderReport",
    "check_face",
    "draw_back",
    "draw_card",
    "write_back_pdf",
    "write_cards_pdf",
    "write_pngs",
]
