"""The walls: paths confirmed to stay where they belong before anything is read or written.

Card ids are checked on load (:data:`cardgen.data.fields.ID_PATTERN`); this is the second wall:
every output path goes through :func:`inside` (:func:`in_output` for ``output/``), which
refuses a part that is not a plain file name and a result that, once symlinks are resolved,
is not inside its folder (``output/``, ``art/``). Inputs named by data (card files, a
layout's ``extends:`` and fonts) go through :func:`in_project`: a link inside the project
works, one that leads out of it is refused at the line that names it, and nothing of the
file outside is read or echoed.
"""

from __future__ import annotations

import errno
import re
from dataclasses import replace
from pathlib import Path

from ..errors import CardgenError, Location, error
from .oserrors import os_finding

OUTPUT = "output"

#: One path part: letters, digits, dot, hyphen, underscore; not starting with a dot run
#: such as "." or "..".
_PART = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}")
#: A part of a name the tool itself chooses: may be hidden (".cache"), never "." or "..".
_OWN_PART = re.compile(r"(?!\.\.?$)[A-Za-z0-9._-]{1,200}")


def resolved(path: Path, where: Location | None = None, name: str | None = None) -> Path:
    """``path`` with its links resolved; a loop of links (which :meth:`Path.resolve` meets
    as a RuntimeError, or an OSError) is an error at ``where`` naming ``name`` (default:
    the path), not a traceback."""
    try:
        return path.resolve()
    except (RuntimeError, OSError) as exc:
        cause = exc if isinstance(exc, OSError) else OSError(errno.ELOOP, str(exc))
        found = os_finding(cause, "follow the link", name or str(path))
        raise CardgenError(replace(found, location=where or found.location)) from None


def inside(root: Path, rel: str | Path, *, own: bool = False) -> Path:
    """``root / rel``, where ``rel`` is plain names joined by "/" and the result (symlinks
    resolved) lies inside ``root``; anything else is a CardgenError naming the path.
    ``own``: ``rel`` is a name of the tool's own, which may be hidden (``.cache/…``)."""
    parts = str(rel).split("/")
    pattern = _OWN_PART if own else _PART
    bad = [p for p in parts if not pattern.fullmatch(p)]
    path = root.joinpath(*parts)
    if bad or not resolved(path, Location(str(path))).is_relative_to(resolved(root)):
        shown = str(rel) if len(str(rel)) <= 80 else str(rel)[:70] + "…"
        raise CardgenError(error(
            "unsafe-path", f"refusing to write {shown!r}: it is not a plain file name inside "
            f"{root.name}/", location=Location(str(root)),
            hint="card ids and names in paths are lower-case letters, digits and hyphens; "
            f"remove links in {root.name}/ that lead out of it"))
    return path


def in_output(project: Path, rel: str | Path) -> Path:
    """``project/output/rel``, confirmed inside ``output/`` (links resolved): the one way
    every writer and cache reader names a file under ``output/``."""
    return inside(project / OUTPUT, rel, own=True)


def in_project(path: Path, project: Path, where: Location | None = None,
               what: str = "file") -> Path:
    """``path`` resolved, when it (through any links) lies inside ``project``; else a
    CardgenError at ``where`` (or the path as given, relative to the project)."""
    try:
        shown = str(path.relative_to(project))
    except ValueError:
        shown = path.name
    real = resolved(path, where or Location(shown), shown)
    if real.is_relative_to(resolved(project)):
        return real
    raise CardgenError(error(
        "outside-project", f"the {what} {shown} is outside the project (through a link or "
        "a path); cardgen reads only files inside the project", location=where or
        Location(shown), hint="copy the file into the project instead of linking or "
        "naming it"))
