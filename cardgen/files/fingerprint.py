"""The generator's own fingerprint: what every cache key and build key starts from.

A cached check finding, fitted face, pickled drawing or built PDF is only as good as the
code and libraries that made it. The fingerprint covers

* every file of the installed ``cardgen`` package, of every kind (modules, the shapes
  spec, the preview's static files, the ICC profiles), not only one folder's ``.py``;
* the Python version and the installed versions of the libraries that shape output
  (read from their ``*.dist-info`` folder names: no import, no metadata scan);
* the external tools whose output is kept (qpdf for the preflight, pdftoppm for PNGs):
  the resolved binary's path, size and modification time, which
  an upgrade changes, so no ``--version`` process runs on a build that changed nothing.

So upgrading cardgen or one of these invalidates every cache: an old entry is never read
under a new key (each key is a different string).
"""

from __future__ import annotations

import os
import re
import sys
from functools import cache
from pathlib import Path

from .tools import PDFTOPPM, QPDF, find

#: Distributions whose code shapes what a build writes or a check finds.
LIBRARIES = ("reportlab", "rl_accel", "pillow", "babel", "pyphen", "regex", "jinja2", "pyyaml")
#: External programs whose output a build keeps (in a PNG or a cached preflight finding).
TOOLS = (QPDF, PDFTOPPM)

_DIST_INFO = re.compile(r"(?P<name>[A-Za-z0-9_.-]+?)-(?P<version>[^-]+)\.(?:dist|egg)-info")


def package_files(package: Path) -> list[Path]:
    """Every file of the package folder, byte-compiled caches aside."""
    return sorted(p for p in package.rglob("*") if p.is_file()
                  and "__pycache__" not in p.relative_to(package).parts
                  and p.suffix not in (".pyc", ".pyo"))


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def library_versions(path: list[str] | None = None) -> dict[str, str]:
    """Distribution name → version, for :data:`LIBRARIES` found on ``path`` (sys.path);
    the first found wins, as for an import. A library that is missing reads ``"-"``."""
    wanted = {_normal(n): n for n in LIBRARIES}
    found: dict[str, str] = {}
    for entry in path if path is not None else sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in sorted(names):
            match = _DIST_INFO.fullmatch(name)
            if match and (key := _normal(match["name"])) in wanted:
                found.setdefault(wanted[key], match["version"])
    return {n: found.get(n, "-") for n in LIBRARIES}


def tool_identities() -> dict[str, str]:
    """Tool → resolved path, size and modification time of its binary (``"-"`` if absent)."""
    out = {}
    for tool in TOOLS:
        exe = find(tool)
        try:
            real = os.path.realpath(exe) if exe else None
            st = os.stat(real) if real else None
        except OSError:
            st = None
        out[tool.program] = f"{real}:{st.st_size}:{st.st_mtime_ns}" if st and real else "-"
    return out


def fingerprint_parts(package: Path) -> list[str]:
    """What the fingerprint hashes, in order: each package file with its digest, then the
    interpreter, the libraries and the tools (for a message that says what changed)."""
    from .incremental import file_digest
    parts = [f"{p.relative_to(package).as_posix()}:{file_digest(p)}" for p in package_files(package)]
    parts.append(f"python:{sys.implementation.name}-{sys.version_info[:3]}")
    parts += [f"lib:{k}={v}" for k, v in library_versions().items()]
    parts += [f"tool:{k}={v}" for k, v in tool_identities().items()]
    return parts


@cache
def code_digest() -> str:
    """The fingerprint of the running generator (computed once per process)."""
    from .incremental import digest
    return digest("cardgen-fingerprint", *fingerprint_parts(Path(__file__).resolve().parent.parent))
