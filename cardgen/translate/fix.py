"""``cardgen check --fix``: repair mechanical typography in the card YAML files themselves.

The repair itself is :func:`cardgen.wording.language.fix_text` (the same rule table the language
check reports from); the files are written through the surgical editor of
:mod:`cardgen.data.yamledit`, so comments, quoting and everything else stay as they were.
"""

from __future__ import annotations

from pathlib import Path

from ..check.components import component_fixes
from ..check.lang import all_texts
from ..data.project import load_project
from ..data.yamledit import TextEdit, edit_files
from ..errors import Finding, quoted
from ..wording.language import fix_text

# --------------------------------------------------------------------------------------
# The fixer
# --------------------------------------------------------------------------------------


def fix_project(project: Path) -> tuple[list[str], list[Finding]]:
    """Repair mechanical typography in every card text and board, token and aid text.

    Returns one line per repaired text actually written, and the findings of the files that
    could not be edited (left as they were; the other files are still repaired).
    """
    gathered, findings = load_project(project)
    data = gathered.data
    cut = {f.location for f in findings if f.code == "text-overflow"}  # the model has a part
    lines: dict[TextEdit, str] = {}
    for t in all_texts(data):
        for lang, value in t.text.values.items():
            if t.text.at(lang) in cut:
                continue
            fixed = fix_text(value, lang)
            if fixed != value:
                loc = t.text.at(lang)
                lines[TextEdit(loc, fixed)] = (f"{loc}: {t.card.id} {t.key} ({lang}): "
                                               f"{quoted(value)} -> {quoted(fixed)}")
    for loc, path, lang, fixed in component_fixes(gathered):  # board, token and aid texts
        lines[TextEdit(loc, fixed)] = f"{loc}: {path} ({lang}): -> {quoted(fixed)}"
    outcome = edit_files(project, lines)
    done = set(outcome.applied)
    return [line for edit, line in lines.items() if edit in done], outcome.findings
