"""The one place that runs the stages in order: load → check → compose → layout → render
→ impose → write. Every other module is a stage that knows nothing of the ones after it."""

from __future__ import annotations

import errno
import json
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import CardgenError, Finding, Location, Severity, error, has_errors, strict, warning
from .face import CardFace
from .incremental import (
    CACHE_DIR,
    BuildState,
    JsonCache,
    code_digest,
    digest,
    face_key,
    file_digest,
    inputs_digest,
    snapshot_inputs,
    tree_digest,
)
from .lock import build_lock
from .model import LANGS, GameData
from .oserrors import check_regular, os_errors, os_finding, read_input
from .progress import Progress
from .safepath import inside
from .write import StagedFiles, atomic_write, make_folder, remove_stale_temps

# The stages (check, compose, render, impose, …) are imported by the functions that run
# them: a build that finds nothing changed, the usual case in `watch` and in an editor's
# build-on-save, needs none of them and starts several times faster without them.
if TYPE_CHECKING:
    from .cardcache import CardFileCache
    from .check.cache import CheckCache
    from .layout import Layout
    from .outputs import Target
    from .po import ImportReport
    from .render.facestore import FaceStore
    from .review import Earlier

CARD_LAYOUT = Path("layouts") / "card.yaml"
#: output/.cache/<prefix>…: the copy of a build's inputs, removed when the build ends
SNAPSHOT_PREFIX = "inputs-"

Log = Callable[[str], None]


@dataclass
class CheckReport:
    data: GameData | None
    findings: list[Finding]
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
    from . import check as checks
    from .cardcache import CardFileCache
    from .check.cache import CheckCache
    from .check.components import check_component_texts
    from .compose import compose_faces
    from .glossary_sheet import label_findings as glossary_label_findings
    from .layout import load_layout
    from .load import load
    from .tables import label_findings as table_label_findings
    from .translation import state_summary
    if card_cache is None:
        card_cache = CardFileCache.read(project / "output")
    try:
        data, findings = load(project, card_cache)
    except CardgenError as exc:
        return CheckReport(None, exc.findings)
    findings = list(findings)
    if check_cache is None:
        check_cache = CheckCache.from_json(JsonCache(project / "output", CHECKS_CACHE)
                                           .read(_checks_key()))
    if fit_cache is None:
        fit_cache = _read_fit_cache(JsonCache(project / "output", FIT_CACHE), _fit_key())
    findings.extend(checks.run_all(data, lang_only=lang_only, cache=check_cache))
    findings.extend(check_component_texts(project, data))  # board, token and aid texts
    report = CheckReport(data, findings)
    state_found, report.translation = state_summary(data, project)
    findings.extend(state_found)
    if report.ok:
        try:
            layout = load_layout(project / CARD_LAYOUT)
            findings.extend(art_findings(data, project, layout))
            findings.extend(f for lang in LANGS for f in glossary_label_findings(data, lang))
            findings.extend(f for lang in LANGS for f in table_label_findings(data, lang))
            if has_errors(findings):
                return report
            report.faces = {lang: compose_faces(data, lang, project) for lang in LANGS}
            report.layout = layout
            report.face_keys = _face_keys(report.faces, layout, project)
            findings.extend(fit_findings(data, report.faces, layout, fit_cache,
                                         report.face_keys))
        except CardgenError as exc:
            findings.extend(exc.findings)
    return report


#: output/.cache/<name>.json: the per-card check findings of the last build
CHECKS_CACHE = "checks"


FIT_CACHE = "fit"
#: output/.cache/<name>.json: per print file, what the preflight's page and form walks found
PREFLIGHT_CACHE = "preflight"


def _checks_key() -> str:
    return digest(code_digest(), CHECKS_CACHE)


def _fit_key() -> str:
    return digest(code_digest(), FIT_CACHE)


def _preflight_key() -> str:
    return digest(code_digest(), PREFLIGHT_CACHE)


def _read_preflight_cache(cache: JsonCache) -> dict[str, dict[str, list]]:
    """Output path → the walk entries its last preflight used; all or nothing."""
    from .preflight import walk_entries
    payload = cache.read(_preflight_key())
    if not isinstance(payload, dict):
        return {}
    out = {}
    for rel, raw in payload.items():
        entries = walk_entries(raw)
        if entries != raw:  # not as written: trust none of it
            return {}
        out[rel] = entries
    return out


def _write_preflight_cache(cache: JsonCache, old: dict[str, dict[str, list]],
                           used: dict[str, dict[str, list]], targets: list[Target]) -> None:
    """Keep the entries of every print file this build has: those its preflight used now,
    or, for a file not made again, those of the last build."""
    live = {t.rel for t in targets if t.preflight is not None}
    payload = {rel: used.get(rel, old.get(rel, {})) for rel in sorted(live)
               if rel in used or rel in old}
    cache.write(_preflight_key(), payload)


ART_STEM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def art_findings(data: GameData, project: Path, layout: Layout) -> list[Finding]:
    """Every card's art must name a file inside art/ and, when present, be a readable image.

    ``art:`` is a file stem under art/ (compose adds .png/.jpg), never a path: ``..``,
    slashes, absolute paths and symlinks leading out of art/ are errors at the card's line.
    Images are opened here (and cached for the renderer), so a build with a damaged image
    stops before it writes anything.
    """
    from .render.art import prepare_art, resolution_findings
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

    With a ``cache`` (face key → findings) and the faces' ``keys`` (:func:`_face_keys`),
    only faces missing from the cache are fitted.
    """
    from .check.lang import longest_text_at
    from .render.card import check_face
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


def _clean(findings: list[Finding]) -> bool:
    return not any(f.severity is Severity.WARNING for f in findings)


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
    jobs: int = 0  # worker processes; 0: one per available core, 1: serial
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm: shifts every backs page
    icc: Path | None = None  # the shop's CMYK profile (implies CMYK)
    pdfx: bool = False  # print-shop.pdf as PDF/X-1a:2003 (implies CMYK)
    vtt: bool = False  # output/<lang>/vtt/: Tabletop Simulator table and generic image set
    vtt_base_url: str = ""  # where the vtt images will be hosted; "" for local file URLs
    strict: bool = False  # warnings are errors: nothing is written while there are any


@dataclass
class BuildReport:
    written: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    reprinted: dict[str, list[str]] = field(default_factory=dict)
    #: True when nothing changed since the last build and the check itself was skipped
    unchanged: bool = False
    #: what the check made (empty when ``unchanged``): the data, every face by language, the layout
    data: GameData | None = None
    faces: dict[str, list[CardFace]] = field(default_factory=dict)
    layout: Layout | None = None
    #: language → card id → face key of every face the check made (empty when ``unchanged``)
    face_keys: dict[str, dict[str, str]] = field(default_factory=dict)


def _keys(project: Path) -> tuple[str, str]:
    """(card key, base key): what cards and the shared components use."""
    code = code_digest()
    fonts = tree_digest((project / "fonts").glob("*.ttf"), project)
    layouts = tree_digest((project / "layouts").glob("*.yaml"), project)
    card_key = digest(code, fonts, layouts)
    data_dir = project / "card_data"
    shared = [p for p in data_dir.rglob("*.yaml") if "cards" not in p.relative_to(data_dir).parts]
    base_key = digest(card_key, tree_digest(shared, project))
    return card_key, base_key


def _options_key(options: BuildOptions, manifest: bytes | None) -> str:
    """The build options, with the bytes of the --changed-since manifest and --icc profile
    actually read."""
    manifest_key = digest(manifest) if manifest is not None else ""
    icc_key = digest(read_input(options.icc)) if options.icc is not None else ""
    return json.dumps([list(options.langs), options.png, list(options.cards), manifest_key,
                       options.profile, options.cmyk, options.gutterfold, options.flip,
                       list(options.back_offset), icc_key, options.pdfx, options.vtt,
                       options.vtt_base_url])


def check_options(options: BuildOptions) -> None:
    """Option values a build cannot start with: usage errors (exit 2), all at once."""
    found = []
    if not options.langs:
        found.append(error("usage", "no language given", hint=f"use --lang {','.join(LANGS)}"))
    for lang in options.langs:
        if lang not in LANGS:
            found.append(error("unknown-lang", f"unknown language '{lang[:40]}'",
                               hint=f"use one of: {', '.join(LANGS)}"))
    if options.vtt_base_url:
        from .vtt.links import check_base_url  # the table's modules load only for --vtt

        found += check_base_url(options.vtt_base_url, LANGS)
    if options.jobs < 0:
        found.append(error("usage", f"--jobs must be 0 (one per core) or more, not {options.jobs}",
                           hint="use --jobs 0"))
    if found:
        raise CardgenError(found)


def read_manifest(path: Path) -> tuple[bytes, dict]:
    """A --changed-since manifest: its bytes (for the inputs key) and its cards, checked for
    the shape a build writes (``{"cards": [{"id": …, "hash": …}, …]}``)."""
    raw = read_input(path)
    hint = "pass the manifest.json an earlier build wrote (output/<lang>/manifest.json)"
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise CardgenError(error("manifest-read", f"not a JSON manifest: {exc}",
                                 location=Location(str(path)), hint=hint)) from None
    cards = doc.get("cards") if isinstance(doc, dict) else None
    if not isinstance(cards, list) or not all(
            isinstance(c, dict) and isinstance(c.get("id"), str)
            and isinstance(c.get("hash", ""), str) for c in cards):
        raise CardgenError(error("manifest-shape", "the manifest needs 'cards': a list of "
                                 "{id: text, hash: text} entries", location=Location(str(path)),
                                 hint=hint))
    return raw, doc


def finding_from_json(raw: dict) -> Finding:
    """The inverse of :meth:`Finding.to_json` (for cached findings)."""
    loc = Location(raw["file"], raw.get("line") or 0, raw.get("column") or 0) if raw.get("file") else None
    return Finding(Severity(raw["severity"]), raw["code"], raw["message"], loc, raw.get("card"),
                   raw.get("lang"), raw.get("rule"), raw.get("hint"), dict(raw.get("extra") or {}))


def _read_findings(payload: object) -> list[Finding] | None:
    if not isinstance(payload, list):
        return None
    try:
        return [finding_from_json(f) for f in payload]
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _read_fit_cache(cache: JsonCache, key: str) -> dict[str, list[Finding]]:
    payload = cache.read(key)
    if not isinstance(payload, dict):
        return {}
    out: dict[str, list[Finding]] = {}
    for key, raw in payload.items():
        found = _read_findings(raw)
        if found is None:
            return {}
        out[key] = found
    return out


def build(project: Path, options: BuildOptions, log: Log = lambda _msg: None,
          progress: Progress | None = None) -> BuildReport:
    """Check, then write every output of every language; skip outputs whose inputs did not change.

    A build that finds errors writes nothing. Every file is written atomically, by this
    process only; worker processes (``options.jobs``) only make bytes.

    When no input file, option or line of code changed since the last build and every
    output it wrote is intact, the check is not run again: its findings come from the cache.
    Otherwise the inputs are copied once (:func:`snapshot_inputs`) and everything is read
    from that copy, so the key recorded is the key of exactly the bytes built from.
    """
    progress = progress or Progress(mode="quiet")
    check_options(options)
    manifest = read_manifest(options.changed_since) if options.changed_since else None
    output = project / "output"
    options_key = _options_key(options, manifest[0] if manifest else None)
    with build_lock(output):
        for lang in options.langs:  # a file or a dead link in the way: said now, not at the end
            make_folder(output / lang)
        cache_dir = output / CACHE_DIR
        for old in cache_dir.glob(f"{SNAPSHOT_PREFIX}*"):
            shutil.rmtree(old, ignore_errors=True)  # a killed build's copy of the inputs
        remove_stale_temps([output / lang for lang in LANGS] + [cache_dir], top=output)
        state = BuildState.read(output)
        with os_errors("read the inputs of", project):
            inputs = inputs_digest(project, options_key)
        findings_cache = JsonCache(output, "findings")
        if not options.png and state.unchanged(inputs, output):
            cached = _read_findings(findings_cache.read(inputs))
            if cached is not None and options.strict and not _clean(cached):
                raise CardgenError(strict(cached))
            if cached is not None:
                log("unchanged")
                return BuildReport(skipped=[output / rel for rel in state.outputs],
                                   findings=cached, unchanged=True)
        _check_profile(project, options.profile)
        make_folder(cache_dir)
        with os_errors("copy the inputs to", cache_dir):
            snapshot = Path(tempfile.mkdtemp(prefix=SNAPSHOT_PREFIX, dir=cache_dir)).resolve()
        try:
            try:
                inputs = snapshot_inputs(project, snapshot, options_key)
            except OSError as exc:
                raise CardgenError(os_finding(exc, "read", exc.filename)) from None
            result = _build_from(snapshot, output, options, manifest[1] if manifest else None,
                                 state, inputs, log, progress)
            return _relocate_report(result, snapshot, project)
        except CardgenError as exc:
            raise CardgenError(_relocate(exc.findings, snapshot, project)) from None
        finally:
            shutil.rmtree(snapshot, ignore_errors=True)


def _check_profile(project: Path, name: str) -> None:
    """A print-shop profile name that is not in layouts/profiles.yaml is said before the
    long part of a build (an unchanged build used the same name last time: it was there)."""
    from .impose import load_profiles, select_profile
    try:
        profiles = load_profiles(project)
    except CardgenError:
        return  # the build reports a damaged profiles file with its other findings
    select_profile(profiles, name)


def _preflight(output: Path, targets: list[Target]) -> None:
    """Before the long part of a build: every output folder can be made and no folder sits
    where an output file goes, so such a problem is reported at once, all of them together."""
    found = []
    for folder in sorted({(output / t.rel).parent for t in targets}):
        try:
            make_folder(folder)
        except CardgenError as exc:
            found += [f for f in exc.findings if f not in found]
    for target in targets:
        path = output / target.rel
        if path.is_dir() and not path.is_symlink():
            found.append(os_finding(IsADirectoryError(errno.EISDIR, "Is a directory"), "write", path))
    if found:
        raise CardgenError(found)


def _stage(staged: StagedFiles, output: Path, target: Target, data: bytes,
           state: BuildState) -> None:
    """Stage a made target's file in ``output`` and record it in the build state."""
    staged.add(inside(output, target.rel), data)
    state.record(target.rel, target.key, data)


def _relocate(findings: list[Finding], snapshot: Path, project: Path) -> list[Finding]:
    """Findings about the copy of the inputs, pointed at the project's own files."""
    def fix(text: str | None) -> str | None:
        return text.replace(str(snapshot), str(project)) if text else text

    return [replace(f, message=fix(f.message) or "", hint=fix(f.hint),
                    location=replace(f.location, file=fix(f.location.file) or "")
                    if f.location else None) for f in findings]


def _relocate_report(report: BuildReport, snapshot: Path, project: Path) -> BuildReport:
    """A build's report with every path into the (soon removed) copy of the inputs pointed at
    the project itself: its warnings, the faces' art, the layout and its fonts, the data's files."""
    def move(path: Path) -> Path:
        return project / path.relative_to(snapshot) if path.is_relative_to(snapshot) else path

    faces = {lang: [replace(f, art=move(f.art)) if f.art else f for f in fs]
             for lang, fs in report.faces.items()}
    layout = (replace(report.layout, source=str(move(Path(report.layout.source))),
                      fonts={k: move(v) for k, v in report.layout.fonts.items()})
              if report.layout else None)
    data = (replace(report.data, root=move(report.data.root),
                    files=tuple(move(f) for f in report.data.files)) if report.data else None)
    return replace(report, findings=_relocate(report.findings, snapshot, project), faces=faces,
                   layout=layout, data=data)


def _build_from(project: Path, output: Path, options: BuildOptions, manifest: dict | None,
                state: BuildState, inputs: str, log: Log, progress: Progress) -> BuildReport:
    """The build proper, reading only ``project`` (the copy of the inputs)."""
    from .cardcache import CardFileCache
    from .check.cache import CheckCache
    from .making import Preflights, make_targets
    from .outputs import print_shop_findings
    from .render.facestore import FaceStore
    from .render.pdf import write_pngs
    log("check")
    progress.stage("check")
    findings_cache = JsonCache(output, "findings")
    fit_cache_file = JsonCache(output, FIT_CACHE)
    fit_key = _fit_key()
    fit_cache = _read_fit_cache(fit_cache_file, fit_key)
    checks_file = JsonCache(output, CHECKS_CACHE)
    check_cache = CheckCache.from_json(checks_file.read(_checks_key()))
    card_cache = CardFileCache.read(output, keep=True)
    report = run_check(project, fit_cache=fit_cache, check_cache=check_cache,
                       card_cache=card_cache)
    if not report.ok:
        raise CardgenError(report.findings)
    assert report.data is not None and report.layout is not None
    data, layout = report.data, report.layout
    card_key, base_key = _keys(project)
    result = BuildReport(findings=[f for f in report.findings if f.severity is not Severity.ERROR],
                         data=data, faces=report.faces, layout=layout)
    result.findings += placeholder_findings(report.faces.get(options.langs[0], []))
    if options.strict and not _clean(result.findings):
        raise CardgenError(strict(result.findings))
    shop = print_shop_findings(project, layout, options.profile)
    if has_errors(shop):
        raise CardgenError(shop)
    result.findings += shop
    result.face_keys = report.face_keys
    faces_kept = FaceStore(output / CACHE_DIR)
    targets: list[Target] = []
    for lang in options.langs:
        targets += _lang_targets(project, output, data, layout, report.faces[lang], lang, options,
                                 manifest, (card_key, base_key), result, faces_kept)
    stale = [t for t in targets if not state.fresh(t.rel, t.key, output)]
    result.skipped = [output / t.rel for t in targets if t not in stale]
    _preflight(output, stale)
    progress.start(len(stale), "build")
    preflight_file = JsonCache(output, PREFLIGHT_CACHE)
    walks = _read_preflight_cache(preflight_file)
    # each print file is preflighted by the process that made it; findings in made order
    preflights = Preflights({k: v for entries in walks.values() for k, v in entries.items()})
    # every file is made before the first is put in place: an error while making any of
    # them leaves all outputs as they were
    with StagedFiles() as staged:
        for target, data_bytes in make_targets(stale, options.jobs, state.timings, preflights):
            _stage(staged, output, target, data_bytes, state)
            if target.preflight is not None:
                result.findings += preflights.findings[target.rel]
            log(target.rel)
            progress.step(target.rel)
        progress.finish()
        if has_errors(result.findings):
            raise CardgenError(result.findings)
        result.written += staged.commit()
    faces_kept.save()
    if options.png:
        for lang in options.langs:
            log(f"{lang}/png")
            paths, _ = write_pngs(report.faces[lang], layout, inside(output, f"{lang}/png"))
            result.written.extend(paths)
    live = fit_cache.keys() & {k for keys in result.face_keys.values() for k in keys.values()}
    fit_cache_file.write(fit_key, {k: [f.to_json() for f in fit_cache[k]] for k in sorted(live)})
    checks_file.write(_checks_key(), check_cache.to_json())
    card_cache.write(output)
    _write_preflight_cache(preflight_file, walks, preflights.used, targets)
    findings_cache.write(inputs, [f.to_json() for f in result.findings])
    state.inputs, state.outputs = inputs, [t.rel for t in targets]
    state.save()
    return result


@dataclass
class Preview:
    """What `cardgen serve` shows after a build: its report and every face with its key."""

    report: BuildReport
    data: GameData
    faces: dict[str, list[CardFace]]
    layout: Layout
    #: language → card id → face key: what the card's drawing depends on (names its image)
    keys: dict[str, dict[str, str]]


def preview_build(project: Path, options: BuildOptions, progress: Progress | None = None) -> Preview:
    """A build, plus the faces to show even when nothing changed and the check was skipped."""
    report = build(project, options, progress=progress)
    data, faces, layout, keys = report.data, report.faces, report.layout, report.face_keys
    if data is None or layout is None:
        check = run_check(project)
        if not check.ok or check.data is None or check.layout is None:
            raise CardgenError(check.findings)
        data, faces, layout, keys = check.data, check.faces, check.layout, check.face_keys
    return Preview(report, data, {lang: faces[lang] for lang in options.langs}, layout, keys)


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


def _face_keys(faces: dict[str, list[CardFace]], layout: Layout, project: Path
               ) -> dict[str, dict[str, str]]:
    """Language → card id → face key: names the fit cache's entries, the manifest's hashes
    and the preview's images."""
    card_key = _card_key(layout, project)
    return {lang: {f.card_id: face_key(f, card_key, project) for f in fs}
            for lang, fs in faces.items()}


def _lang_targets(project: Path, output: Path, data: GameData, layout: Layout,
                  faces: list[CardFace], lang: str, options: BuildOptions,
                  manifest: dict | None, keys: tuple[str, str],
                  result: BuildReport, faces_kept: FaceStore | None = None) -> list[Target]:
    from .impose import select_reprint
    from .outputs import LangContext, card_targets, converter, game_targets, table_targets, vtt_targets
    card_key, base_key = keys
    hashes = {card_id: key[:16] for card_id, key in result.face_keys[lang].items()}
    reprint: tuple[str, ...] = ()
    if options.cards or manifest is not None:
        reprint = tuple(select_reprint(faces, options.cards, manifest, hashes))
        result.reprinted[lang] = list(reprint)
    ctx = LangContext(project, data, lang, faces, layout, base_key, card_key,
                      flip=options.flip, gutterfold=options.gutterfold,
                      cmyk=converter(project, options.profile, options.cmyk or options.pdfx,
                                     options.icc),
                      pdfx=options.pdfx,
                      profile=options.profile, reprint=reprint, face_hashes=hashes,
                      back_offset=options.back_offset,
                      vtt=options.vtt, vtt_base_url=options.vtt_base_url, output=output,
                      faces_kept=faces_kept)
    return card_targets(ctx) + game_targets(ctx) + vtt_targets(ctx) + table_targets(
        data, lang, project, card_key)


@dataclass
class TablesReport:
    written: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def tables(project: Path, langs: tuple[str, ...] = LANGS) -> TablesReport:
    """`cardgen tables`: check the data, then write output/<lang>/rules-tables.pdf, .md
    and .html that changed (the same targets, keys and files as `cardgen build`)."""
    from . import check as checks
    from .load import load
    from .outputs import table_targets
    from .tables import label_findings as table_label_findings
    check_options(BuildOptions(langs=langs))
    data, findings = load(project)
    if not has_errors(findings):
        findings = [*findings, *checks.run_all(data),
                    *(f for lang in LANGS for f in table_label_findings(data, lang))]
    if has_errors(findings):
        raise CardgenError(findings)
    output = project / "output"
    make_folder(output)
    report = TablesReport(findings=[f for f in findings if f.severity is Severity.WARNING])
    card_key = _keys(project)[0]
    with build_lock(output):
        state = BuildState.read(output)
        targets = [t for lang in langs for t in table_targets(data, lang, project, card_key)]
        stale = [t for t in targets if not state.fresh(t.rel, t.key, output)]
        report.skipped = [output / t.rel for t in targets if t not in stale]
        with StagedFiles() as staged:
            for target in stale:
                _stage(staged, output, target, target.make(), state)
            report.written = staged.commit()
        state.save()
    return report


def fix(project: Path) -> tuple[list[str], list[Finding]]:
    """`cardgen check --fix`: mechanical typography repairs in card_data/ itself (the repairs
    written, and the findings of files that could not be edited)."""
    from .fix import fix_project
    return fix_project(project)


def fill(project: Path) -> tuple[list, list[Finding]]:
    """`cardgen check --fill`: canonical text into lines that have none yet (the texts
    written, and the findings of files that could not be edited)."""
    from .compose import fill_texts
    from .load import load
    data, findings = load(project)
    if has_errors(findings):
        raise CardgenError(findings)
    problems: list[Finding] = []
    return fill_texts(data, project, problems), problems


def proof(project: Path, *, only_problems: bool = False, changed_since: str | None = None
          ) -> Path:
    """`cardgen proof`: output/proof/cs-en.pdf with every card in both languages, or with
    ``changed_since`` (an earlier manifest.json or a git revision) only the changed cards."""
    from .compose import compose_faces
    from .layout import load_layout
    from .proof import build_proof
    from .render.card import draw_card
    report = run_check(project)
    data = report.data
    if data is None:
        raise CardgenError([f for f in report.findings if f.severity is Severity.ERROR])
    # a proof is most useful when the texts have errors: compose even then
    layout = report.layout or load_layout(project / CARD_LAYOUT)
    faces = report.faces or {lang: compose_faces(data, lang, project) for lang in LANGS}
    earlier, hashes = None, None
    if changed_since is not None:
        earlier = _earlier(project, changed_since)
        keys = report.face_keys or _face_keys(faces, layout, project)
        hashes = {lang: {card: key[:16] for card, key in keys[lang].items()} for lang in LANGS}
    pdf = build_proof(data, faces["en"], faces["cs"], report.findings, draw_card, layout,
                      only_problems=only_problems, earlier=earlier, hashes=hashes)
    path = project / "output" / "proof" / "cs-en.pdf"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, pdf)
    return path


def _earlier(project: Path, since: str) -> Earlier:
    """What `proof --changed-since` compares with: an earlier build's manifest.json (and the
    other languages' manifests beside it), or card_data/ at a git revision, composed again."""
    from .review import Earlier, git_card_data, manifest_earlier, texts_of
    path = Path(since)
    if path.exists():
        docs = {}
        for lang in LANGS:
            other = path.parent.parent / lang / path.name
            if other != path and other.is_file():
                doc = read_manifest(other)[1]
                docs[str(doc.get("lang") or lang)] = doc
        doc = read_manifest(path)[1]
        docs[str(doc.get("lang") or path.parent.name)] = doc
        return manifest_earlier(str(path), docs)
    from .compose import compose_faces
    from .load import load
    with tempfile.TemporaryDirectory(prefix="cardgen-proof-") as tmp:
        git_card_data(project, since, Path(tmp))
        try:
            data, _ = load(Path(tmp))
            return Earlier(f"git {since}", {lang: texts_of(compose_faces(data, lang, Path(tmp)))
                                            for lang in LANGS})
        except CardgenError as exc:
            raise CardgenError([error("usage", f"--changed-since {since}: the card data of that "
                                      "revision cannot be composed (its problems follow)",
                                      hint="compare with a later revision or a manifest"),
                                *(replace(f, message=f"at {since}: {f.message}")
                                  for f in exc.findings)]) from None


def po_export(project: Path, *, pot: bool = False) -> Path:
    """`cardgen po export`: output/po/cs.po with every translatable string, its state and
    its length budget from the fit engine; with ``pot``, output/po/cards.pot for msgmerge."""
    from .check.text import check_templates
    from .compose import compose_faces
    from .load import load
    from .po import export_po
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
    from .check.lang import card_texts
    from .layout import load_layout
    from .render.card import spare_characters
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
    from .board.base import load_components
    findings = run_check(project).findings
    findings += load_components(project)[1]
    return findings


def po_import(project: Path, file: Path) -> ImportReport:
    from .po import import_po
    return import_po(project, file, check=po_check)
