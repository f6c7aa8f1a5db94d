"""Every input a build reads besides the cards, read and validated by `check` as well.

`cardgen check` used to read only the card data, the card layout, the components and the
translation state; the board, token, aid, sheet, profile and VTT layouts were read only
by the targets that draw them, so a fault there passed `check` and failed `build` after
other targets were made (issue 37). :func:`input_findings` runs each of those loaders and
the sheet geometry once, and returns every finding they raise, at its file:line.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from ..data.model import LANGS
from ..data.project import Project
from ..errors import CardgenError, Finding

if TYPE_CHECKING:
    from ..data.layout import Layout

#: The board-side layouts (layouts/<name>.yaml), each drawn by one generator.
BOARD_LAYOUTS = ("board", "tokens", "aid")


def _found(load: Callable[[], Any], out: list[Finding]) -> Any:
    """``load()``, or None with its findings added to ``out``."""
    try:
        return load()
    except CardgenError as exc:
        out += [f for f in exc.findings if f not in out]
        return None


def input_findings(project: Project, layout: Layout) -> list[Finding]:
    """What a build would refuse in layouts/board, tokens, aid, sheets, profiles and vtt."""
    from ..board.base import make_ctx
    from ..impose import CardSize, duplex_geometry, gutterfold_geometry, load_profiles, load_sheet_spec
    from ..vtt import load_config
    out: list[Finding] = []
    for name in BOARD_LAYOUTS:
        _found(partial(lambda name: make_ctx(project, LANGS[0], name), name), out)
    _found(lambda: load_profiles(project), out)
    _found(lambda: load_config(project), out)
    spec = _found(lambda: load_sheet_spec(project), out)
    if spec is not None:
        card = CardSize(layout.card.width, layout.card.height, layout.card.bleed)
        for paper in spec.papers:
            _found(partial(lambda paper: duplex_geometry(spec, card, paper), paper), out)
            _found(partial(lambda paper: gutterfold_geometry(spec, card, paper), paper), out)
    return out
