"""Where a report's numbers come from: the digest of the card data read and, in a git
checkout, the revision and whether the tree differs from it.

The digest is of the input files only (:func:`~.incremental.input_files` under
``card_data/``), so the same data gives the same digest anywhere; the revision is ``None``
outside git (or without git installed). git runs through :mod:`.tools`, never a shell, with
the repository's fsmonitor hook switched off.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import CardgenError
from . import tools
from .incremental import input_files, tree_digest

#: How much of the SHA-256 a report shows (64 bits: no two data sets of a project collide).
SHOWN = 16


@dataclass(frozen=True)
class Provenance:
    data_digest: str
    revision: str | None = None  # the commit checked out, when in git
    dirty: bool | None = None  # the project's files differ from that commit

    def line(self) -> str:
        """``data 1a2b…, git 0c1d2e3f4a5b (dirty)`` for a terminal or a text report."""
        git = "" if self.revision is None else \
            f", git {self.revision[:12]}{' (dirty)' if self.dirty else ''}"
        return f"data {self.data_digest}{git}"

    def as_json(self) -> dict[str, str | bool | None]:
        return {"data_digest": self.data_digest, "revision": self.revision, "dirty": self.dirty}


def _git(project: Path, *args: str) -> tools.Ran | None:
    if tools.find(tools.GIT) is None:
        return None
    try:
        return tools.run(tools.GIT, ["-c", "core.fsmonitor=false", "-C", project, *args],
                         needs="the report's git revision", timeout=60.0)
    except CardgenError:
        return None  # a report is written without its revision rather than not at all


def data_digest(project: Path) -> str:
    """The digest of the card data's files (paths and bytes)."""
    data = project / "card_data"
    return tree_digest([p for p in input_files(project) if p.is_relative_to(data)],
                       project)[:SHOWN]


def provenance(project: Path) -> Provenance:
    """The data's digest; in a git checkout, its revision and whether it is dirty."""
    head = _git(project, "rev-parse", "--verify", "--quiet", "HEAD")
    if head is None or head.returncode != 0:
        return Provenance(data_digest(project))
    status = _git(project, "status", "--porcelain", "--no-renames", "--", ".")
    dirty = None if status is None or status.returncode != 0 else bool(status.stdout.strip())
    return Provenance(data_digest(project), head.stdout.decode().strip(), dirty)
