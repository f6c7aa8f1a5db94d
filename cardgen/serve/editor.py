"""Opening a YAML line in the designer's editor: ``--editor 'code -g {file}:{line}'``.

The template is split like a shell would split it, but no shell runs it: ``{file}`` and
``{line}`` are replaced inside the words, so a file name can never become a command.
"""

from __future__ import annotations

import shlex
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Editor:
    template: str

    def command(self, path: Path, line: int) -> list[str]:
        return [word.replace("{file}", str(path)).replace("{line}", str(line))
                for word in shlex.split(self.template)]

    def open(self, path: Path, line: int) -> str | None:
        """Start the editor at ``path`` and ``line``; None when it started, else what went
        wrong. The caller checks that a finding points there, inside card_data/."""
        try:
            proc = subprocess.Popen(self.command(path, line), stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    start_new_session=True)
        except OSError as exc:
            return f"cannot start the editor ({self.template}): {exc.strerror or exc}"
        threading.Thread(target=proc.wait, daemon=True).start()  # reap it when it exits
        return None


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
