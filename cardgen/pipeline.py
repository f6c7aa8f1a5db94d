"""The one place that runs the stages in order: load → check → compose → layout → render
→ impose → write. Every other module is a stage that knows nothing of the ones after it."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import check as checks
from .compose import compose_faces, fill_texts
from .errors import CardgenError, Finding, Severity, error, has_errors
from .face import CardFace
from .fix import fix_project
from .impose import select_reprint
from .incremental import BuildState, code_digest, digest, tree_digest
from .layout import Layout, load_layout
from .load import load
from .lock import build_lock
from .model import LANGS, GameData
from .outputs import LangContext, card_targets, face_hash, game_targets
from .po import ImportReport, export_po, import_po
from .proof import build_proof
from .render.card import check_face, draw_card
from .render.pdf import write_pngs
from .write import atomic_write

CARD_LAYOUT = Path("layouts") / "card.yaml"

Log = Callable[[str], None]


@dataclass
class CheckReport:
    data: GameData | None
    findings: list[Finding]
    faces: dict[str, list[CardFace]] = field(default_factory=dict)
    layout: Layout | None = None

    @property
    def ok(self) -> bool:
        return not has_errors(self.findings)

    @property
    def exceptions(self) -> int:
        return sum(len(c.exceptions) for c in self.data.cards) if self.data else 0

    @property
    def cards(self) -> int:
        return len(self.data.cards) if self.data else 0


def run_check(project: Path, *, lang_only: bool = False) -> CheckReport:
    """Load and check everything, fit included; never raises for bad data, only reports."""
    try:
        data, findings = load(project)
    except CardgenError as exc:
        return CheckReport(None, exc.findings)
    findings = list(findings)
    findings.extend(checks.run_all(data, lang_only=lang_only))
    report = CheckReport(data, findings)
    if report.ok:
        try:
            layout = load_layout(project / CARD_LAYOUT)
            report.faces = {lang: compose_faces(data, lang, project) for lang in LANGS}
            report.layout = layout
            findings.extend(fit_findings(data, report.faces, layout))
        except CardgenError as exc:
            findings.extend(exc.findings)
    return report


def fit_findings(data: GameData, faces_by_lang: dict[str, list[CardFace]], layout: Layout
                 ) -> list[Finding]:
    """Fit and glyph findings of every face (the text box of rule 2.36), located at the card."""
    out: list[Finding] = []
    for faces in faces_by_lang.values():
        for face in faces:
            _fit, found = check_face(face, layout)
            card = data.card(face.card_id)
            out.extend(f if f.location or card is None else replace(f, location=card.loc)
                       for f in found)
    return out


@dataclass
class BuildOptions:
    langs: tuple[str, ...] = ("en", "cs")
    png: bool = False
    cards: tuple[str, ...] = ()
    changed_since: Path | None = None
    profile: str = "generic"
    cmyk: bool = False
    gutterfold: bool = False
    flip: str = "long"


@dataclass
class BuildReport:
    written: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    reprinted: dict[str, list[str]] = field(default_factory=dict)




def _keys(project: Path) -> tuple[str, str, str]:
    """(card key, base key, all-data key): what cards, shared components and glossary use."""
    code = code_digest()
    fonts = tree_digest((project / "fonts").glob("*.ttf"), project)
    layouts = tree_digest((project / "layouts").glob("*.yaml"), project)
    card_key = digest(code, fonts, layouts)
    data_dir = project / "card_data"
    shared = [p for p in data_dir.rglob("*.yaml") if "cards" not in p.relative_to(data_dir).parts]
    base_key = digest(card_key, tree_digest(shared, project))
    all_key = digest(card_key, tree_digest(data_dir.rglob("*.yaml"), project))
    return card_key, base_key, all_key


def build(project: Path, options: BuildOptions, log: Log = lambda _msg: None) -> BuildReport:
    """Check, then write every output of every language; skip outputs whose inputs did not change.

    A build that finds errors writes nothing. Every file is written atomically.
    """
    output = project / "output"
    output.mkdir(exist_ok=True)
    with build_lock(output):
        log("check")
        report = run_check(project)
        if not report.ok:
            raise CardgenError(report.findings)
        assert report.data is not None and report.layout is not None
        data, layout = report.data, report.layout
        card_key, base_key, all_key = _keys(project)
        state = BuildState.read(output)
        result = BuildReport(findings=[f for f in report.findings if f.severity is not Severity.ERROR])
        for lang in options.langs:
            if lang not in LANGS:
                raise CardgenError(error("unknown-lang", f"unknown language '{lang}'",
                                         hint=f"use one of: {', '.join(LANGS)}"))
            faces = report.faces[lang]
            hashes = {f.card_id: face_hash(f, card_key) for f in faces}
            reprint: tuple[str, ...] = ()
            if options.cards or options.changed_since:
                previous = None
                if options.changed_since:
                    try:
                        previous = json.loads(options.changed_since.read_text(encoding="utf-8"))
                    except (OSError, ValueError) as exc:
                        raise CardgenError(error("manifest-read", f"cannot read manifest: {exc}",
                                                 hint="pass a manifest.json from an earlier build")) from None
                reprint = tuple(select_reprint(faces, options.cards, previous, hashes))
                result.reprinted[lang] = list(reprint)
            ctx = LangContext(project, data, lang, faces, layout, base_key, card_key,
                              flip=options.flip, cmyk=options.cmyk, gutterfold=options.gutterfold,
                              profile=options.profile, reprint=reprint, face_hashes=hashes)
            targets = card_targets(ctx) + game_targets(ctx)
            for target in targets:
                if target.rel.endswith("glossary.pdf"):
                    target = replace(target, key=digest(target.key, all_key))
                if state.fresh(target.rel, target.key, output):
                    result.skipped.append(output / target.rel)
                    continue
                log(f"{target.rel}")
                data_bytes = target.make()
                path = output / target.rel
                path.parent.mkdir(parents=True, exist_ok=True)
                atomic_write(path, data_bytes)
                state.record(target.rel, target.key, data_bytes)
                result.written.append(path)
            if options.png:
                log(f"{lang}/png")
                paths, _ = write_pngs(faces, layout, output / lang / "png")
                result.written.extend(paths)
        state.save()
        return result


def fix(project: Path) -> list[str]:
    """`cardgen check --fix`: mechanical typography repairs in card_data/ itself."""
    return fix_project(project)


def fill(project: Path) -> list:
    """`cardgen check --fill`: canonical text into lines that have none yet."""
    data, findings = load(project)
    if has_errors(findings):
        raise CardgenError(findings)
    return fill_texts(data, project)


def proof(project: Path, *, only_problems: bool = False) -> Path:
    """`cardgen proof`: output/proof/cs-en.pdf with every card in both languages."""
    report = run_check(project)
    if report.data is None or report.layout is None:
        raise CardgenError([f for f in report.findings if f.severity is Severity.ERROR])
    layout = report.layout

    def draw(canvas, face, origin=(0.0, 0.0)):
        return draw_card(canvas, face, layout, origin=origin)

    pdf = build_proof(report.data, report.faces["en"], report.faces["cs"], report.findings,
                      draw, layout, only_problems=only_problems)
    path = project / "output" / "proof" / "cs-en.pdf"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, pdf)
    return path


def po_export(project: Path) -> Path:
    data, findings = load(project)
    if has_errors(findings):
        raise CardgenError(findings)
    path = project / "output" / "po" / "cs.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    return export_po(data, path)


def po_import(project: Path, file: Path) -> ImportReport:
    return import_po(project, file)
