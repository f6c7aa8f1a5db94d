"""``cardgen check --fix``: repair mechanical typography in the card YAML files themselves.

The repair itself is :func:`cardgen.language.fix_text` (the same rule table the language
check reports from); the files are written through the surgical editor of
:mod:`cardgen.yamledit`, so comments, quoting and everything else stay as they were.
"""

from __future__ import annotations

from pathlib import Path

from .check.lang import all_texts
from .language import fix_text
from .load import load
from .yamledit import TextEdit, apply_edits

# --------------------------------------------------------------------------------------
# The fixer
# --------------------------------------------------------------------------------------


def fix_project(project: Path) -> list[str]:
    """Repair mechanical typography in every card text; return one line per repaired text."""
    data, findings = load(project)
    cut = {f.location for f in findings if f.code == "text-overflow"}  # the model has a part
    edits, report = [], []
    for t in all_texts(data):
        for lang, value in t.text.values.items():
            if t.text.at(lang) in cut:
                continue
            fixed = fix_text(value, lang)
            if fixed != value:
                loc = t.text.at(lang)
                edits.append(TextEdit(loc, fixed))
                report.append(f"{loc}: {t.card.id} {t.key} ({lang}): {value!r} -> {fixed!r}")
    apply_edits(project, edits)
    return report
