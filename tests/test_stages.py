"""The code's stages import downward only (docs/architecture.md, "The stages").

Every import inside ``cardgen/`` is resolved to the package it names and checked against
the documented order; an import that runs upward, or sideways between two packages of one
level, fails with the line that makes it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import cardgen

ROOT = Path(cardgen.__file__).parent

#: The order of the stage table (docs/architecture.md), lowest first. A package may import
#: its own modules and any package of an earlier level, never a later one nor another
#: package of its own level.
LEVELS: tuple[tuple[str, ...], ...] = (
    ("codes", "messages"),  # the codes' registry and the terminal's catalogues, read by errors
    ("errors", "progress"),
    ("files",),
    ("fonts",),
    ("data",),
    ("report",),
    ("wording",),
    ("engine",),
    ("check",),
    ("render",),
    ("impose", "board", "press"),
    ("tables", "vtt"),
    ("translate",),
    ("sheet",),  # spreadsheets: call translate's value writer; run by build's command
    ("build",),
    ("serve", "playtest"),
    ("balance",),
    ("cli",),
)
RANK = {name: i for i, level in enumerate(LEVELS) for name in level}
TOP_LEVEL_MODULES = {"__init__", "cli", "codes", "errors", "progress", "report", "fonts",
                     "messages"}


def _unit(path: Path) -> str:
    """The stage a file belongs to: its package, or the top-level module's name."""
    rel = path.relative_to(ROOT)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, stage) for every cardgen import of ``path``, relative ones resolved."""
    rel = path.relative_to(ROOT.parent).with_suffix("")
    package = list(rel.parts[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1] + (node.module or "").split(".")
            else:
                base = (node.module or "").split(".")
            base = [part for part in base if part]
            if base[:1] != ["cardgen"]:
                continue
            if len(base) > 1:
                out.append((node.lineno, base[1]))
            else:  # from cardgen import x / from .. import x
                out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            out += [(node.lineno, alias.name.split(".")[1]) for alias in node.names
                    if alias.name.startswith("cardgen.")]
    return out


def test_every_import_runs_down_the_stages() -> None:
    wrong = []
    for path in sorted(ROOT.rglob("*.py")):
        unit = _unit(path)
        if unit == "__init__":
            continue
        for line, target in _imports(path):
            if target == unit or (target not in RANK and not (ROOT / f"{target}.py").exists()):
                continue  # its own package, or a name of cardgen/__init__ (the version)
            if RANK[target] >= RANK[unit]:
                wrong.append(f"{path.relative_to(ROOT.parent)}:{line}: {unit} imports {target}")
    assert wrong == []


def test_every_package_is_a_documented_stage() -> None:
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert packages <= set(RANK), packages - set(RANK)


def test_only_the_shared_ground_lies_at_the_top() -> None:
    assert {p.stem for p in ROOT.glob("*.py")} == TOP_LEVEL_MODULES


def test_each_stage_says_what_it_takes_and_gives() -> None:
    for init in ROOT.glob("*/__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc.split()) >= 12, f"{init.relative_to(ROOT.parent)} has no docstring"
