"""`cardgen po export` and `po import`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..data.model import LANGS
from ..errors import CardgenError, Finding, has_errors
from ..files.safepath import in_output
from ..wording.face import CardFace
from .check import run_check

if TYPE_CHECKING:
    from ..data.project import Project
    from ..translate.po import ImportReport


def po_export(project: Path, *, pot: bool = False) -> Path:
    """`cardgen po export`: output/po/cs.po with every translatable string, its state and
    its length budget from the fit engine; with ``pot``, output/po/cards.pot for msgmerge."""
    from ..check.text import check_templates
    from ..data.project import load_project
    from ..translate.po import export_po
    from ..wording.compose import compose_faces
    gathered, findings = load_project(project)
    data = gathered.data
    findings += check_templates(data)  # the export renders canonical text through them
    if has_errors(findings):
        raise CardgenError(findings)
    faces = {}
    for lang in LANGS:  # labels too: a template the sandbox refuses stops the export
        try:
            faces[lang] = compose_faces(data, lang, project)
        except CardgenError as exc:
            if any(f.code in ("template-unsafe", "template-error") for f in exc.findings):
                raise
    budgets = po_budgets(gathered, faces.get("cs", []))
    path = in_output(project, "po/" + ("cards.pot" if pot else "cs.po"))
    return export_po(data, path, project=gathered, budgets=budgets, pot=pot)


def po_budgets(project: Project, faces: list[CardFace]) -> dict[str, tuple[int, float]]:
    """PO context -> (characters that still fit at the minimum size, that size): the text
    box budget for a card's lines and Deed name, the name bar's for its name."""
    from ..check.lang import card_texts
    from ..render.card import spare_characters
    data = project.data
    try:
        layout = project.card_layout()
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
    report = run_check(project)
    if report.project is not None:
        report.findings += load_components(report.project)[1]
    return report.findings


def po_import(project: Path, file: Path) -> ImportReport:
    from ..translate.po import import_po
    return import_po(project, file, check=po_check)
