"""`cardgen tables`: the rulebook's tables alone, with the build's targets and keys."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..data.model import LANGS
from ..errors import CardgenError, Finding, Severity, has_errors
from ..files.incremental import BuildState
from ..files.lock import build_lock
from ..files.safepath import output_path
from ..files.write import StagedFiles, make_folder
from .common import project_keys, stage
from .options import BuildOptions, check_options


@dataclass
class TablesReport:
    written: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def tables(project: Path, langs: tuple[str, ...] = LANGS) -> TablesReport:
    """`cardgen tables`: check the data, then write output/<lang>/rules-tables.pdf, .md
    and .html that changed (the same targets, keys and files as `cardgen build`)."""
    from .. import check as checks
    from ..data.project import load_project
    from ..tables import label_findings as table_label_findings
    from .outputs import table_targets
    check_options(BuildOptions(langs=langs))
    gathered, findings = load_project(project)
    data = gathered.data
    if not has_errors(findings):
        findings = [*findings, *checks.run_all(data),
                    *(f for lang in LANGS for f in table_label_findings(data, lang))]
    if has_errors(findings):
        raise CardgenError(findings)
    output = project / "output"
    make_folder(output)
    report = TablesReport(findings=[f for f in findings if f.severity is Severity.WARNING])
    card_key = project_keys(project)[0]
    with build_lock(output):
        state = BuildState.read(output)
        targets = [t for lang in langs for t in table_targets(gathered, lang, card_key)]
        stale = [t for t in targets if not state.fresh(t.rel, t.key, output)]
        for target in stale:  # through the output wall before the first is made
            output_path(output, target.rel, own=False)
        report.skipped = [output / t.rel for t in targets if t not in stale]
        with StagedFiles() as staged:
            for target in stale:
                stage(staged, output, target, target.make(), state)
            report.written = staged.commit()
        state.save()
    return report
