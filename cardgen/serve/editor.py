"""Opening a YAML line in the designer's editor: ``--editor 'code -g {file}:{line}'``.

The template is split like a shell would split it, but no shell runs it: ``{file}`` and
``{line}`` are replaced inside the words, so a file name can never become a command.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path

from ..files import tools


@dataclass(frozen=True)
class Editor:
    template: str

    def command(self, path: Path, line: int) -> list[str]:
        """The words to run; the path is absolute, so no file name reads as an option."""
        file = os.path.abspath(path)
        return [word.replace("{file}", file).replace("{line}", str(line))
                for word in shlex.split(self.template)]

    def open(self, path: Path, line: int) -> str | None:
        """Start the editor at ``path`` and ``line``; None when it started, else what went
        wrong. The caller checks that a finding points there, inside card_data/."""
        problem = tools.start(self.command(path, line))
        return None if problem is None else f"cannot start the editor ({self.template}): {problem}"


def check_template(template: str) -> str | None:
    """What is wrong with an ``--editor`` template, or None."""
    try:
        words = shlex.split(template)
    except ValueError as exc:
        return f"--editor {template!r} cannot be split into words: {exc}"
    if not words:
        return "--editor is empty"
    if not any("{file}" in w for w in words):
        return f"--editor {template!r} has no {{file}}; e.g. 'code -g {{file}}:{{line}}'"
    return None
