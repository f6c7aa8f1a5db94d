"""`cardgen build`: check, then make every output that changed, staged and put in place together."""

from __future__ import annotations

import errno
import json
import shutil
import tempfile
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..data.model import LANGS, GameData
from ..errors import CardgenError, Finding, Severity, has_errors, strict
from ..files.incremental import (
    CACHE_DIR,
    BuildState,
    JsonCache,
    code_digest,
    digest,
    inputs_digest,
    odd_inputs,
    snapshot_inputs,
)
from ..files.lock import build_lock
from ..files.oserrors import os_errors, os_finding, read_input
from ..files.safepath import output_path
from ..files.write import StagedFiles, make_folder, remove_stale_temps, stale_temps
from ..progress import Progress
from ..wording.face import CardFace
from .check import CHECKS_CACHE, FIT_CACHE, checks_key, fit_key, read_fit_cache, run_check
from .common import Log, project_keys, read_findings, stage
from .options import BuildOptions, check_options, read_manifest

# The stages (check, compose, render, impose, …) are imported by the functions that run
# them: a build that finds nothing changed, the usual case in `watch` and in an editor's
# build-on-save, needs none of them and starts several times faster without them.
if TYPE_CHECKING:
    from ..data.layout import Layout
    from ..data.project import Project
    from ..render.facestore import FaceStore
    from .outputs import Target


#: output/.cache/<prefix>…: the copy of a build's inputs, removed when the build ends
SNAPSHOT_PREFIX = "inputs-"


#: output/.cache/<name>.json: per print file, what the preflight's page and form walks found
PREFLIGHT_CACHE = "preflight"


def _preflight_key() -> str:
    return digest(code_digest(), PREFLIGHT_CACHE)


def _read_preflight_cache(cache: JsonCache) -> dict[str, dict[str, list]]:
    """Output path → the walk entries its last preflight used; all or nothing."""
    from ..press.pdfread import walk_entries
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


def _clean(findings: list[Finding]) -> bool:
    return not any(f.severity is Severity.WARNING for f in findings)


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


def _options_key(options: BuildOptions, manifest: bytes | None) -> str:
    """The build options, with the bytes of the --changed-since manifest and --icc profile
    actually read."""
    manifest_key = digest(manifest) if manifest is not None else ""
    icc_key = digest(read_input(options.icc)) if options.icc is not None else ""
    return json.dumps([list(options.langs), options.png, list(options.cards), manifest_key,
                       options.profile, options.cmyk, options.gutterfold, options.flip,
                       list(options.back_offset), icc_key, options.pdfx, options.vtt,
                       options.vtt_base_url])


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
        _clean_up(output, options.langs)
        cache_dir = output / CACHE_DIR
        state = BuildState.read(output)
        with os_errors("read the inputs of", project):
            odd = odd_inputs(project)
            if odd:
                raise CardgenError(odd)
            inputs = inputs_digest(project, options_key)
        findings_cache = JsonCache(output, "findings")
        if not options.png and state.unchanged(inputs, output):
            cached = read_findings(findings_cache.read(inputs))
            if cached is not None and options.strict and not _clean(cached):
                raise CardgenError(strict(cached))
            if cached is not None:
                log("unchanged")
                return BuildReport(skipped=[output / rel for rel in state.outputs],
                                   findings=cached, unchanged=True)
        make_folder(output_path(output, CACHE_DIR, folder=True))
        with os_errors("copy the inputs to", cache_dir):
            made = Path(tempfile.mkdtemp(prefix=SNAPSHOT_PREFIX, dir=cache_dir))
        snapshot = output_path(output, f"{CACHE_DIR}/{made.name}", folder=True).resolve()
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


def _clean_up(output: Path, langs: tuple[str, ...]) -> None:
    """Before anything else of a build: every folder the build writes, lists or cleans is
    named through the output wall (a link out of output/ or a FIFO there is refused before
    anything is touched); then the language folders are made, and what a killed build left
    is removed: its copy of the inputs (output/.cache/inputs-*, real folders only, never
    through a link) and its temporary files."""
    folders = [*dict.fromkeys([*LANGS, *langs])]
    # every folder walked, all of it, before the first thing is made or removed
    temps = stale_temps(output, folders, shallow=("", CACHE_DIR))
    cache = output_path(output, CACHE_DIR, folder=True)
    old = sorted(cache.glob(f"{SNAPSHOT_PREFIX}*")) if cache.is_dir() else []
    for path in old:  # a link among them: refused before any is removed
        output_path(output, f"{CACHE_DIR}/{path.name}", folder=True)
    for lang in langs:  # a file or a dead link in the way: said now, not at the end
        make_folder(output / lang)
    for path in old:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)  # rmtree never follows a link inside
    remove_stale_temps(temps)


def _check_profile(project: Project, name: str) -> None:
    """A print-shop profile name that is not in layouts/profiles.yaml is said before the
    long part of a build (an unchanged build used the same name last time: it was there)."""
    from ..impose import load_profiles, select_profile
    try:
        profiles = load_profiles(project)
    except CardgenError:
        return  # the check reports a damaged profiles file with its other findings
    select_profile(profiles, name)


def _preflight(output: Path, targets: list[Target]) -> None:
    """Before the long part of a build: every output folder can be made and no folder sits
    where an output file goes, so such a problem is reported at once, all of them together."""
    found: list[Finding] = []
    for target in targets:  # through the wall: no link out, FIFO or device on the way
        try:
            output_path(output, target.rel, own=False)
        except CardgenError as exc:
            found += [f for f in exc.findings if f not in found]
    if found:
        raise CardgenError(found)
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
    from ..check.cache import CheckCache
    from ..data.cardcache import CardFileCache
    from ..render.facestore import FaceStore
    from ..render.pdf import write_pngs
    from .making import Preflights, make_targets
    from .outputs import art_template_target, colour_findings, print_shop_findings
    log("check")
    progress.stage("check")
    findings_cache = JsonCache(output, "findings")
    fit_cache_file = JsonCache(output, FIT_CACHE)
    fit_cache_key = fit_key()
    fit_cache = read_fit_cache(fit_cache_file, fit_cache_key)
    checks_file = JsonCache(output, CHECKS_CACHE)
    check_cache = CheckCache.from_json(checks_file.read(checks_key()))
    card_cache = CardFileCache.read(output, keep=True)
    report = run_check(project, fit_cache=fit_cache, check_cache=check_cache,
                       card_cache=card_cache)
    if report.project is not None:
        _check_profile(report.project, options.profile)
    if not report.ok:
        raise CardgenError(report.findings)
    assert report.project is not None and report.data is not None and report.layout is not None
    gathered, data, layout = report.project, report.data, report.layout
    card_key, base_key = project_keys(project)
    result = BuildReport(findings=[f for f in report.findings if f.severity is not Severity.ERROR],
                         data=data, faces=report.faces, layout=layout)
    if options.strict and not _clean(result.findings):
        raise CardgenError(strict(result.findings))
    shop = print_shop_findings(gathered, layout, options.profile,
                               [f for lang in options.langs for f in report.faces[lang]])
    if has_errors(shop):
        raise CardgenError(shop)
    shop += colour_findings(gathered, options.profile, options.cmyk or options.icc is not None,
                            options.pdfx)
    result.findings += shop
    result.face_keys = report.face_keys
    faces_kept = FaceStore(output / CACHE_DIR)
    targets: list[Target] = []
    for lang in options.langs:
        targets += _lang_targets(gathered, output, layout, report.faces[lang], lang, options,
                                 manifest, (card_key, base_key), result, faces_kept)
    targets.append(art_template_target(layout, base_key))
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
            stage(staged, output, target, data_bytes, state)
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
        progress.start(sum(len(report.faces[lang]) + 1 for lang in options.langs), "png")
        for lang in options.langs:
            log(f"{lang}/png")
            paths, _ = write_pngs(report.faces[lang], layout,
                                  output_path(output, f"{lang}/png", folder=True),
                                  lang=lang,
                                  step=partial(lambda name, lang: progress.step(f"{lang}/png/{name}"),
                                               lang=lang))
            result.written.extend(paths)
        progress.finish()
    live = fit_cache.keys() & {k for keys in result.face_keys.values() for k in keys.values()}
    fit_cache_file.write(fit_cache_key, {k: [f.to_json() for f in fit_cache[k]] for k in sorted(live)})
    checks_file.write(checks_key(), check_cache.to_json())
    card_cache.write(output)
    _write_preflight_cache(preflight_file, walks, preflights.used, targets)
    findings_cache.write(inputs, [f.to_json() for f in result.findings])
    state.inputs, state.outputs = inputs, [t.rel for t in targets]
    state.save()
    return result


def _lang_targets(project: Project, output: Path, layout: Layout,
                  faces: list[CardFace], lang: str, options: BuildOptions,
                  manifest: dict | None, keys: tuple[str, str],
                  result: BuildReport, faces_kept: FaceStore | None = None) -> list[Target]:
    from ..impose import select_reprint
    from .outputs import (
        LangContext,
        card_targets,
        converter,
        game_targets,
        table_targets,
        vtt_targets,
        wants_pdfx,
    )
    card_key, base_key = keys
    pdfx = wants_pdfx(project, options.profile, options.pdfx)
    hashes = {card_id: key[:16] for card_id, key in result.face_keys[lang].items()}
    reprint: tuple[str, ...] = ()
    if options.cards or manifest is not None:
        reprint = tuple(select_reprint(faces, options.cards, manifest, hashes))
        result.reprinted[lang] = list(reprint)
    ctx = LangContext(project, lang, faces, layout, base_key, card_key,
                      flip=options.flip, gutterfold=options.gutterfold,
                      cmyk=converter(project, options.profile, options.cmyk or pdfx,
                                     options.icc),
                      pdfx=pdfx,
                      profile=options.profile, reprint=reprint, face_hashes=hashes,
                      back_offset=options.back_offset,
                      vtt=options.vtt, vtt_base_url=options.vtt_base_url, output=output,
                      faces_kept=faces_kept)
    return card_targets(ctx) + game_targets(ctx) + vtt_targets(ctx) + table_targets(
        project, lang, card_key, ctx.cmyk)
