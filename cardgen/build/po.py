"""`cardgen po export` and `po import`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..data.model import LANGS, GameData
from ..errors import CardgenError, Finding, has_errors
from ..wording.face import CardFace
from .check import run_check
from .common import CARD_LAYOUT

if TYPE_CHECKING:
    from ..translate.po import ImportReport


def po_export(project: Path, *, pot: bool = False) -> Path:
    """`cardgen po export`: output/po/cs.po with every translatable string, its state and
    its length budget from the fit engine; with ``pot``, output/po/cards.pot for msgmerge."""
    from ..check.text import check_templates
    from ..data.load import load
    from ..translate.po import export_po
    from ..wording.compose import compose_faces
    data, findings = load(project)
    findings += check_templates(data)  # the export renders canonical text through them
    if has_errors(findings):
        raise CardgenError(findings)
    faces = {}
    for lang in LANGS:  # labels too: a template the sandbox refuses stops the export
        try:
            faces[lang] = compose_faces(data, lang, project)
        except CardgenError as exc:
            if any(f.code == "template-unsafe" for f in exc.findings):
                raise
    budgets = po_budgets(data, faces.get("cs", []), project)
    path = project / "output" / "po" / ("cards.pot" if pot else "cs.po")
    path.parent.mkdir(parents=True, exist_ok=True)
    return export_po(data, path, project=project, budgets=budgets, pot=pot)


def po_budgets(data: GameData, faces: list[CardFace], project: Path) -> dict[str, tuple[int, float]]:
    """PO context -> (characters that still fit at the minimum size, that size): the text
    box budget for a card's lines and Deed name, the name bar's for its name."""
    from ..check.lang import card_texts
    from ..data.layout import load_layout
    from ..render.card import spare_characters
    try:
        layout = load_layout(project / CARD_LAYOUT)
    except CardgenError:
        return {}
    out: dict[str, tuple[int, float]] = {}
    for face in faces:
        card = data.card(face.card_id)
        if card is None:
            continue
        text, name = spare_characters(face, layout)
        for t in card_texts(card):
            out[t.context] = ((name, layout.name_bar.min_size) if t.key == "name"
                              else (text, layout.text_box.min_size))
    return out


def po_check(project: Path) -> list[Finding]:
    """What `cardgen check` finds, and the board's label findings: the QA a PO import's
    texts go through before anything is written."""
    from ..wording.components import load_components
    findings = run_check(project).findings
    findings += load_components(project)[1]
    return findings


def po_import(project: Path, file: Path) -> ImportReport:
    from ..translate.po import import_po
    return import_po(project, file, check=po_check)
