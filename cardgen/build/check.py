"""`cardgen check`: load, check, compose and fit everything; the per-card caches of fit and checks."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..data.model import LANGS, GameData
from ..errors import CardgenError, Finding, Location, Severity, error, has_errors, warning
from ..files.incremental import JsonCache, code_digest, digest, file_digest
from ..files.oserrors import check_regular
from ..files.safepath import inside
from ..wording.face import CardFace, face_key
from .common import read_findings

# The stages (check, compose, render, impose, …) are imported by the functions that run
# them: a build that finds nothing changed, the usual case in `watch` and in an editor's
# build-on-save, needs none of them and starts several times faster without them.
if TYPE_CHECKING:
    from ..check.cache import CheckCache
    from ..data.cardcache import CardFileCache
    from ..data.layout import Layout
    from ..data.project import Project


@dataclass
class CheckReport:
    data: GameData | None
    findings: list[Finding]
    #: every input as loaded (None when there was no card data to load)
    project: Project | None = None
    faces: dict[str, list[CardFace]] = field(default_factory=dict)
    layout: Layout | None = None
    translation: list[str] = field(default_factory=list)  # state counts, fuzzy texts
    #: language → card id → face key (what each face's drawing and fit depend on)
    face_keys: dict[str, dict[str, str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not has_errors(self.findings)

    @property
    def exceptions(self) -> int:
        return sum(len(c.exceptions) for c in self.data.cards) if self.data else 0

    @property
    def cards(self) -> int:
        return len(self.data.cards) if self.data else 0


def run_check(project: Path, *, lang_only: bool = False,
              fit_cache: dict[str, list[Finding]] | None = None,
              check_cache: CheckCache | None = None,
              card_cache: CardFileCache | None = None) -> CheckReport:
    """Load and check everything, fit included; never raises for bad data, only reports.

    ``fit_cache`` (face hash → that face's fit and glyph findings) lets a build re-fit only
    the cards whose face changed; it is read and filled in place. ``check_cache`` does the
    same for the per-card checks, ``card_cache`` for the loaded card files; without them,
    the last build's are read (never written).
    """
    from .. import check as checks
    from ..check.cache import CheckCache
    from ..check.coinrow import coin_row_findings
    from ..check.components import check_component_texts
    from ..check.reminders import check_reminders
    from ..check.restated import check_restated
    from ..check.reversed import card_findings as reversed_card_findings
    from ..check.reversed import token_findings as reversed_token_findings
    from ..data.cardcache import CardFileCache
    from ..data.project import load_project
    from ..tables import label_findings as table_label_findings
    from ..tables.glossary import label_findings as glossary_label_findings
    from ..translate.translation import state_summary
    from ..wording.compose import compose_faces
    from .inputs import input_findings
    if card_cache is None:
        card_cache = CardFileCache.read(project / "output")
    try:
        gathered, findings = load_project(project, card_cache)
    except CardgenError as exc:
        return CheckReport(None, exc.findings)
    data, findings = gathered.data, list(findings)
    if check_cache is None:
        check_cache = CheckCache.from_json(JsonCache(project / "output", CHECKS_CACHE)
                                           .read(checks_key()))
    if fit_cache is None:
        fit_cache = read_fit_cache(JsonCache(project / "output", FIT_CACHE), fit_key())
    findings.extend(checks.run_all(data, lang_only=lang_only, cache=check_cache))
    findings.extend(check_component_texts(gathered))  # board, token and aid texts
    findings.extend(check_reminders(gathered))  # next-purchase tokens (6.22)
    findings.extend(check_restated(gathered))  # … and what they restate
    report = CheckReport(data, findings, gathered)
    state_found, report.translation = state_summary(data, gathered)
    findings.extend(state_found)
    if report.ok:
        try:
            layout = gathered.card_layout()
            findings.extend(reversed_card_findings(gathered, layout)
                            + reversed_token_findings(gathered))
            findings.extend(coin_row_findings(data, layout))  # yield and cost coins (2.33, 2.34)
            if not lang_only:  # every other layout, as the build reads it
                findings.extend(f for f in input_findings(gathered, layout)
                                if f not in findings)
            findings.extend(art_findings(data, project, layout))
            findings.extend(f for lang in LANGS for f in glossary_label_findings(data, lang))
            findings.extend(f for lang in LANGS for f in table_label_findings(data, lang))
            if has_errors(findings):
                return report
            report.faces = {lang: compose_faces(data, lang, project) for lang in LANGS}
            report.layout = layout
            report.face_keys = face_keys_of(report.faces, layout, project)
            findings.extend(fit_findings(data, report.faces, layout, fit_cache,
                                         report.face_keys))
            if not lang_only:  # art is no translation matter
                findings.extend(placeholder_findings(report.faces[LANGS[0]]))
        except CardgenError as exc:
            findings.extend(exc.findings)
    return report


#: output/.cache/<name>.json: the per-card check findings of the last build
CHECKS_CACHE = "checks"


FIT_CACHE = "fit"


def checks_key() -> str:
    return digest(code_digest(), CHECKS_CACHE)


def fit_key() -> str:
    return digest(code_digest(), FIT_CACHE)


def read_fit_cache(cache: JsonCache, key: str) -> dict[str, list[Finding]]:
    payload = cache.read(key)
    if not isinstance(payload, dict):
        return {}
    out: dict[str, list[Finding]] = {}
    for key, raw in payload.items():
        found = read_findings(raw)
        if found is None:
            return {}
        out[key] = found
    return out


ART_STEM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def art_findings(data: GameData, project: Path, layout: Layout) -> list[Finding]:
    """Every card's art must name a file inside art/ and, when present, be a readable image.

    ``art:`` is a file stem under art/ (compose adds .png/.jpg), never a path: ``..``,
    slashes, absolute paths and symlinks leading out of art/ are errors at the card's line.
    Images are opened here (and cached for the renderer), so a build with a damaged image
    stops before it writes anything.
    """
    from ..render.art import prepare_art, resolution_findings
    out: list[Finding] = []
    art_dir = project / "art"
    box = layout.art_box
    for card in data.cards:
        where = card.locs.get("art", card.loc)
        stem = card.art if card.art is not None else card.id
        if not isinstance(stem, str) or not ART_STEM.fullmatch(stem) or ".." in stem:
            out.append(error(
                "art-path", f"art {stem!r} is not a file name in art/", location=where,
                card=card.id, hint="give the image's name without folders, e.g. "
                f"'{card.id}' for art/{card.id}.png"))
            continue
        for ext in ("png", "jpg", "jpeg"):
            path = project / "art" / f"{stem}.{ext}"
            if not path.is_file():
                odd = check_regular(path, f"art/{path.name}")  # a FIFO, device or folder
                if odd is not None:
                    out.append(replace(odd, card=card.id))
                    break
                continue
            try:
                inside(art_dir, path.name)
            except CardgenError:
                out.append(error("art-path", f"art/{path.name} links outside art/",
                                 location=where, card=card.id,
                                 hint="copy the image into art/ instead of linking it"))
            else:
                try:
                    art = prepare_art(path, box.w, box.h, ppi=layout.art.min_ppi, card=card.id)
                except CardgenError as exc:
                    out.extend(exc.findings)
                else:
                    shown = Path("art") / path.name
                    low = resolution_findings(art, layout.art.min_ppi, shown, card.id)
                    out.extend(low or [Finding(
                        Severity.INFO, "art-resolution",
                        f"{art.ppi:.0f} ppi at print size ({art.pixels[0]}×{art.pixels[1]} px)",
                        location=Location(str(shown)), card=card.id)])
            break
    return out


def fit_findings(data: GameData, faces_by_lang: dict[str, list[CardFace]], layout: Layout,
                 cache: dict[str, list[Finding]] | None = None,
                 keys: dict[str, dict[str, str]] | None = None) -> list[Finding]:
    """Fit and glyph findings of every face (the text box of rule 2.36), located at the card.

    With a ``cache`` (face key → findings) and the faces' ``keys`` (:func:`face_keys_of`),
    only faces missing from the cache are fitted.
    """
    from ..check.lang import longest_text_at
    from ..render.card import check_face
    out: list[Finding] = []
    for lang, faces in faces_by_lang.items():
        for face in faces:
            if cache is None or keys is None:
                _fit, found = check_face(face, layout)
            else:
                key = keys[lang][face.card_id]
                if key not in cache:
                    cache[key] = check_face(face, layout)[1]
                found = cache[key]
            card = data.card(face.card_id)
            out.extend(f if f.location or card is None
                       else replace(f, location=card.name.at(face.lang)) if f.code == "name-overflow"
                       else replace(f, location=longest_text_at(card, face.lang))
                       for f in found)
    return out


def _card_key(layout: Layout, project: Path) -> str:
    """Code, fonts and card layout: what a face's fit depends on besides the face itself.

    Paths are taken relative to the project, so a copied project keeps its cache.
    """
    fonts = []
    for path in sorted({str(p) for p in layout.fonts.values()}):
        try:
            fonts.append(file_digest(Path(path)))
        except OSError:
            fonts.append("missing")
    return digest(code_digest(), repr(layout).replace(str(project), "<project>"), *fonts)


def face_keys_of(faces: dict[str, list[CardFace]], layout: Layout, project: Path
               ) -> dict[str, dict[str, str]]:
    """Language → card id → face key: names the fit cache's entries, the manifest's hashes
    and the preview's images."""
    card_key = _card_key(layout, project)
    return {lang: {f.card_id: face_key(f, card_key, project) for f in fs}
            for lang, fs in faces.items()}


def placeholder_findings(faces: list[CardFace]) -> list[Finding]:
    """One warning naming every card drawn with placeholder art (issue: art/ is optional)."""
    missing = [f.card_id for f in faces if f.art is None]
    if not missing:
        return []
    shown = ", ".join(missing[:6]) + (" …" if len(missing) > 6 else "")
    return [warning("art-placeholder",
                    f"{len(missing)} of {len(faces)} cards have no art yet and get a placeholder: "
                    f"{shown}", location=Location("art"),
                    hint="add art/<card id>.png or .jpg (see art/README.md)")]
