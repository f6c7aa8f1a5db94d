"""output/balance/: every file `cardgen balance` reads or writes there, named through the walls.

Each path goes through :func:`~cardgen.files.safepath.in_output`, so the folder or a file in
it that leads out of output/ (a link) is refused; a file there must be a regular file (a
FIFO or a device is refused, never opened). The study journal, which Optuna appends to in
place, may not be a link at all, and its lock (Optuna's link to the journal while a run
writes) may only be that link. :func:`check_outputs` runs all of it before the search and
before ``--apply``: a planted file costs no trial and nothing outside is read or touched.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import CardgenError, Location, error
from ..files.safepath import OUTPUT, in_output, output_tree

FOLDER = "balance"
OUT = Path(OUTPUT) / FOLDER
JOURNAL = "study.journal"
#: Optuna's JournalFileSymlinkLock: a link named so, to the journal, while a run appends.
LOCK = JOURNAL + ".lock"
PROPOSAL_NAME = "proposal.yaml"
#: The playtests of today's and the proposed data, as `cardgen playtest` writes them.
REPORTS = ("current", "proposed")
#: The largest journal handed to Optuna (a trial of 26 tunables is about 3 kB).
MAX_JOURNAL = 1024 * 1024 * 1024


def shown(rel: str) -> str:
    return f"{OUT.as_posix()}/{rel}"


def _inside(project: Path, rel: str, *, folder: bool = False) -> Path:
    """``output/balance[/<rel>]`` through the output wall: a link out of output/ on the way
    is refused at the link itself, a FIFO or device at the file."""
    return in_output(project, "/".join([FOLDER, *(rel.split("/") if rel else [])]),
                     folder=folder)


def out_path(project: Path, rel: str) -> Path:
    """``output/balance/<rel>``: inside output/ (links resolved), and a regular file or
    nothing yet; else a CardgenError at the file."""
    return _inside(project, rel)


def out_folder(project: Path, rel: str = "") -> Path:
    """``output/balance[/<rel>]`` as a folder inside output/ (or not made yet)."""
    return _inside(project, rel, folder=True)


def journal_path(project: Path) -> Path:
    """The study journal: a regular file of its own (never a link) of at most
    :data:`MAX_JOURNAL` bytes, or nothing yet; its lock absent or Optuna's own."""
    path = out_path(project, JOURNAL)
    if path.is_symlink():
        raise CardgenError(error(
            "unsafe-path", f"{shown(JOURNAL)} is a link; Optuna appends to the journal in "
            "place, so it must be a file of its own", location=Location(shown(JOURNAL)),
            hint="remove the link; the next run starts the study afresh"))
    if path.is_file() and path.stat().st_size > MAX_JOURNAL:
        raise CardgenError(error(
            "file-too-large", f"the study journal is {path.stat().st_size} bytes; at most "
            f"{MAX_JOURNAL} are read", location=Location(shown(JOURNAL)),
            hint="delete it to start the study afresh"))
    lock = _inside(project, LOCK)
    if os.path.lexists(lock) and not (lock.is_symlink() and lock.resolve() == path.resolve()):
        raise CardgenError(error(
            "unsafe-path", f"{shown(LOCK)} is not the study's lock (a link to the journal "
            "that a run makes and removes)", location=Location(shown(LOCK)),
            hint="remove it, then run the command again"))
    return path


def _scan(project: Path, rel: str) -> None:
    """Every entry already under ``output/balance/<rel>/``, which a run replaces: none
    leads out of output/ or is other than a folder or a regular file."""
    output_tree(project / OUTPUT, f"{FOLDER}/{rel}")


def check_outputs(project: Path) -> None:
    """Every path of output/balance/ a run reads or writes, checked before it starts."""
    out_folder(project)
    journal_path(project)
    out_path(project, PROPOSAL_NAME)
    for rel in REPORTS:
        _scan(project, rel)

