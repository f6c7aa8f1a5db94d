"""Reversed type: text printed light on a dark ground (the card's name bar, value numbers,
event pills and bottom strip; the tokens' house labels and value numbers). Print shops ask
for at least 7 pt and a bold face there: thin strokes of paper showing through ink fill
in when the plates drift. A check rule, so a layout change cannot bring it back."""

from __future__ import annotations

from typing import Any

from ..data.layout import Layout
from ..data.project import Project
from ..data.sidefiles import read_source
from ..data.yamlsrc import LocMap
from ..errors import CardgenError, Finding, Location, error

#: The smallest reversed type a print shop takes, in points, and the faces it may use.
MIN_REVERSED_PT = 7.0
REVERSED_FONTS = ("bold", "bold_italic")

#: Card texts set light on a dark ground: (block of layouts/card.yaml, font key, size keys).
CARD_REVERSED = (("name_bar", "font", ("size", "min_size")),
                 ("values", "font", ("size",)),
                 ("coin_row", "event_font", ("event_size",)),
                 ("bottom_strip", "font", ("size",)))


def _finding(where: Location, what: str, font: str, size: float) -> Finding | None:
    if size >= MIN_REVERSED_PT - 1e-9 and font in REVERSED_FONTS:
        return None
    return error("reversed-text", f"{what}: {size:g} pt {font} in light ink on a dark ground; "
                 f"a print shop needs at least {MIN_REVERSED_PT:g} pt bold for reversed type",
                 location=where, hint=f"set it in the bold face at {MIN_REVERSED_PT:g} pt or more")


def card_findings(project: Project, layout: Layout) -> list[Finding]:
    """Reversed card texts too small or not bold, each at its line of the layout file."""
    shown = project.documents.rel(layout.source)
    try:
        raw = project.documents.read(shown)
    except CardgenError:
        raw = None
    out = []
    for block, font_key, size_keys in CARD_REVERSED:
        spec: Any = getattr(layout, block)
        node = raw.get(block) if isinstance(raw, LocMap) else None
        for key in size_keys:
            where = (node.at(key) if isinstance(node, LocMap) and key in node
                     else Location(shown))
            found = _finding(where, f"{block}.{key}", getattr(spec, font_key),
                             float(getattr(spec, key)))
            if found is not None:
                out.append(found)
    return out


def token_findings(project: Project) -> list[Finding]:
    """Reversed token labels (``labels:`` of layouts/tokens.yaml) too small or not bold."""
    problems: list[Finding] = []
    source = read_source(project.documents, "layouts/tokens.yaml", problems)
    if source is None:
        return problems
    out = []
    for name, spec in (source.data.get("labels") or {}).items():
        if not isinstance(spec, dict) or not spec.get("reversed"):
            continue
        found = _finding(source.at("labels", name), f"token label '{name}'",
                         str(spec.get("font")), float(spec.get("size", 0)))
        if found is not None:
            out.append(found)
    return out
