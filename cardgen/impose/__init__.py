"""Imposition: place rendered cards on home print sheets and print-shop files.

The stage takes card faces and two drawers (``draw_front(canvas, face, origin)`` and
``draw_back(canvas, origin)``, origin = lower-left corner of the card's bleed box) and
returns file bytes; it never imports the renderer, and writing is the caller's job.
"""

from .calibration import build_calibration
from .canvas import CardForms, PrintCanvas
from .geometry import CardSize, duplex_geometry, gutterfold_geometry, outer_bleed
from .manifest import build_manifest, manifest_json, manifest_text
from .printshop import (
    build_card_images,
    build_print_shop,
    colour_findings,
    drawing_bleed,
    profile_findings,
)
from .reprint import build_reprint, changed_cards, select_reprint
from .sheets import BackSide, Page, Placement, SheetPlan, build_sheets, plan_sheets, render_plan
from .spec import Profile, SheetSpec, load_profiles, load_sheet_spec, select_profile

__all__ = [
    "BackSide",
    "CardForms",
    "CardSize",
    "Page",
    "Placement",
    "PrintCanvas",
    "Profile",
    "SheetPlan",
    "SheetSpec",
    "build_calibration",
    "build_card_images",
    "build_manifest",
    "build_print_shop",
    "build_reprint",
    "build_sheets",
    "changed_cards",
    "colour_findings",
    "drawing_bleed",
    "duplex_geometry",
    "gutterfold_geometry",
    "load_profiles",
    "load_sheet_spec",
    "manifest_json",
    "manifest_text",
    "outer_bleed",
    "plan_sheets",
    "profile_findings",
    "render_plan",
    "select_profile",
    "select_reprint",
]
