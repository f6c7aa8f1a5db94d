"""Paths built from data, confirmed to stay where they belong before anything is written.

Card ids are checked on load (:data:`cardgen.data.fields.ID_PATTERN`); this is the second wall:
every output path made from an id, a profile name or a language goes through
:func:`inside`, which refuses a part that is not a plain file name and a result that, once
symlinks are resolved, is not inside its folder (``output/``, ``art/``).
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import CardgenError, Location, error

#: One path part: letters, digits, dot, hyphen, underscore; not starting with a dot run
#: such as "." or "..".
_PART = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}")


def inside(root: Path, rel: str | Path) -> Path:
    """``root / rel``, where ``rel`` is plain names joined by "/" and the result (symlinks
    resolved) lies inside ``root``; anything else is a CardgenError naming the path."""
    parts = str(rel).split("/")
    bad = [p for p in parts if not _PART.fullmatch(p)]
    path = root.joinpath(*parts)
    if bad or not path.resolve().is_relative_to(root.resolve()):
        shown = str(rel) if len(str(rel)) <= 80 else str(rel)[:70] + "…"
        raise CardgenError(error(
            "unsafe-path", f"refusing to write {shown!r}: it is not a plain file name inside "
            f"{root.name}/", location=Location(str(root)),
            hint="card ids and names in paths are lower-case letters, digits and hyphens; "
            f"remove links in {root.name}/ that lead out of it"))
    return path
