"""`cardgen check --fix` and `--fill`: edits of card_data/ in place."""

from __future__ import annotations

from pathlib import Path

from ..errors import CardgenError, Finding, has_errors


def fix(project: Path) -> tuple[list[str], list[Finding]]:
    """`cardgen check --fix`: mechanical typography repairs in card_data/ itself (the repairs
    written, and the findings of files that could not be edited)."""
    from ..translate.fix import fix_project
    return fix_project(project)


def fill(project: Path) -> tuple[list, list[Finding]]:
    """`cardgen check --fill`: canonical text into lines that have none yet (the texts
    written, and the findings of files that could not be edited)."""
    from ..data.load import load
    from ..wording.compose import fill_texts
    data, findings = load(project)
    if has_errors(findings):
        raise CardgenError(findings)
    problems: list[Finding] = []
    return fill_texts(data, project, problems), problems
