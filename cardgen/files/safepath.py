"""The walls: paths confirmed to stay where they belong before anything is read or written.

Card ids are checked on load (:data:`cardgen.data.fields.ID_PATTERN`); this is the second wall.
Every path under ``output/`` that is read, written, listed or deleted goes through one
function, :func:`output_path` (:func:`in_output` from the project folder): it refuses a part
that is not a plain file name, an ``output/`` that leads out of the project, a link on the
way that leads out of ``output/`` (at the link itself), and a FIFO, device or socket where a
file or folder belongs, before anything is touched. :func:`output_tree` lists a folder
under ``output/`` through the same wall, for the clean-ups that delete. :func:`inside` keeps
a name inside its folder (art paths inside ``art/``, a PNG inside its walled folder).
Inputs named by data (card files, a layout's ``extends:`` and fonts) go through
:func:`in_project`: a link inside the project works, one that leads out of it is refused at
the line that names it, and nothing of the file outside is read or echoed.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import replace
from pathlib import Path

from ..errors import CardgenError, Finding, Location, error
from .oserrors import kind_of, not_a_file, os_finding

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


def _unsafe_name(root: Path, rel: str) -> CardgenError:
    shown = rel if len(rel) <= 80 else rel[:70] + "…"
    return CardgenError(error(
        "unsafe-path", f"refusing to write {shown!r}: it is not a plain file name inside "
        f"{root.name}/", location=Location(str(root)),
        hint="card ids and names in paths are lower-case letters, digits and hyphens; "
        f"remove links in {root.name}/ that lead out of it"))


def _plain_parts(root: Path, rel: str | Path, own: bool) -> list[str]:
    """``rel``'s parts, each a plain name (``own``: the tool's own, which may be hidden);
    else a CardgenError naming ``rel``. "" (or ".") is ``root`` itself: no parts."""
    text = "" if str(rel) in ("", ".") else str(rel)
    parts = text.split("/") if text else []
    pattern = _OWN_PART if own else _PART
    if any(not pattern.fullmatch(p) for p in parts):
        raise _unsafe_name(root, text)
    return parts


def inside(root: Path, rel: str | Path, *, own: bool = False) -> Path:
    """``root / rel``, where ``rel`` is plain names joined by "/" and the result (symlinks
    resolved) lies inside ``root``; anything else is a CardgenError naming the path.
    ``own``: ``rel`` is a name of the tool's own, which may be hidden (``.cache/…``). For
    art/ and for the names in a folder already named through :func:`output_path`."""
    path = root.joinpath(*_plain_parts(root, rel, own))
    if not str(rel) or not resolved(path, Location(str(path))).is_relative_to(resolved(root)):
        raise _unsafe_name(root, str(rel))
    return path


def _link_out(shown: str, out_of: str) -> CardgenError:
    hint = (f"remove the link {shown}; to keep the outputs on another disk, put the whole "
            "project there" if out_of == "the project" else f"remove the link {shown}; "
            "cardgen makes its files under output/ itself (and a link may lead only to "
            "another place inside output/)")
    return CardgenError(error(
        "unsafe-path", f"refusing {shown}: it is a link that leads out of {out_of}",
        location=Location(shown), hint=hint))


def _not_a_folder(path: Path) -> Finding:
    """What :func:`~.write.make_folder` would say of a file where a folder belongs."""
    return os_finding(OSError(errno.EEXIST, "File exists"), "create the folder", path)


def output_path(output: Path, rel: str | Path = "", *, folder: bool = False,
                own: bool = True) -> Path:
    """``output/rel`` (``output``: a project's output folder), the one wall for every path
    under ``output/`` that is read, written, listed or deleted, checked before any of that:

    - ``rel`` is plain names joined by "/" (``own``: names of the tool's own, which may be
      hidden, ``.cache/…``; else as card ids make them);
    - ``output`` itself, when it exists, leads (through links) to a folder inside the
      project;
    - no part of the way that exists is a link leading out of ``output/`` (refused at the
      link), or a file where a folder belongs;
    - the path itself, when it exists, is a regular file (``folder``: a folder), never a
      FIFO, a device or a socket, which would hang or feed a reader for ever.

    Anything else is a CardgenError located at the part at fault.
    """
    parts = _plain_parts(output, rel, own)
    project = output.parent
    real_out = resolved(output, Location(str(output)))
    if os.path.lexists(output) and not real_out.is_relative_to(resolved(project)):
        raise _link_out(str(output), "the project")
    path = output
    for i, part in enumerate(parts):
        path = path / part
        try:
            info = os.lstat(path)
        except OSError:
            break  # not there yet (or its folder is not): nothing further to follow
        if stat.S_ISLNK(info.st_mode):
            if not resolved(path, Location(str(path))).is_relative_to(real_out):
                raise _link_out(str(path), f"{output.name}/")
            try:
                info = os.stat(path)
            except OSError:
                break  # a link to nothing (inside output/): the writer replaces it
        if i < len(parts) - 1 or folder:
            if not stat.S_ISDIR(info.st_mode):
                raise CardgenError(_not_a_folder(path))
        elif stat.S_ISDIR(info.st_mode):
            raise CardgenError(os_finding(OSError(errno.EISDIR, "Is a directory"), "write",
                                          path))
        elif not stat.S_ISREG(info.st_mode):
            raise CardgenError(not_a_file(path, kind_of(info.st_mode)))
    if not parts and folder and os.path.exists(output) and not output.is_dir():
        raise CardgenError(_not_a_folder(output))
    return output.joinpath(*parts)


def output_tree(output: Path, rel: str = "", *, deep: bool = True) -> list[Path]:
    """Every regular file under the folder ``output/rel`` (``deep``: its subfolders' too), for
    the clean-ups that delete: the folder goes through :func:`output_path`, and every link
    met on the walk is confirmed to stay inside ``output/`` and every other entry to be a
    folder or a regular file (a FIFO, device or socket is refused) before the first file is
    returned, so a clean-up deletes nothing unless all it would walk is inside. Links are
    never walked into and never listed. A folder not there yet has no files."""
    top = output_path(output, rel, folder=True)
    if not top.is_dir():
        return []
    real_out = resolved(output)
    found: list[Path] = []
    for folder, dirs, files in os.walk(top):
        for name in dirs + files:
            path = Path(folder) / name
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                if not resolved(path, Location(str(path))).is_relative_to(real_out):
                    raise _link_out(str(path), f"{output.name}/")
            elif stat.S_ISREG(info.st_mode):
                found.append(path)
            elif not stat.S_ISDIR(info.st_mode):
                raise CardgenError(not_a_file(path, kind_of(info.st_mode)))
        if not deep:
            break
    return sorted(found)


def in_output(project: Path, rel: str | Path = "", *, folder: bool = False) -> Path:
    """``project/output/rel`` through the wall (:func:`output_path`)."""
    return output_path(project / OUTPUT, rel, folder=folder)


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
