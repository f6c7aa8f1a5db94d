"""Typography of the board, token and player-aid texts (``card_data/components.yaml``): the
same rule table as card text (:mod:`cardgen.language`), reported at each text's line;
``cardgen check --fix`` writes the mechanical repairs, and the generators apply them when
they print (so a "v" never ends a line on the board even before the file is fixed)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ..board.base import load_components
from ..errors import Finding, Location, error, warning
from ..language import fix_text, typography_problems
from ..model import LANGS
from ..yamlsrc import LocList, LocMap

SEVERITY = {"warning": warning, "error": error}


def component_texts(project: Path) -> Iterator[tuple[str, str, str, Location]]:
    """(path, language, text, location) of every {en, cs} text in components.yaml, as
    written (before the typography the generators apply)."""
    comp, _ = load_components(project)
    if comp is None:  # the build reports why
        return

    def walk(node: object, path: str) -> Iterator[tuple[str, str, str, Location]]:
        if isinstance(node, LocMap):
            for key, value in node.items():
                if key in LANGS and isinstance(value, str):
                    yield path, key, value, node.at(key)
                else:
                    yield from walk(value, f"{path}.{key}" if path else str(key))
        elif isinstance(node, LocList):
            for i, value in enumerate(node):
                yield from walk(value, f"{path}[{i}]")

    yield from walk(comp.source.raw, "")


def check_component_texts(project: Path) -> list[Finding]:
    """A typography finding per problem in a board, token or aid text, at its line."""
    out = []
    for path, lang, text, loc in component_texts(project):
        for rule, found in typography_problems(text, lang):
            out.append(SEVERITY[rule.severity.value](
                rule.code, f"{path}: {rule.message.format(found=found)}", location=loc,
                lang=lang, hint=rule.hint))
    return out


def component_fixes(project: Path) -> Iterator[tuple[Location, str, str, str]]:
    """(location, path, language, repaired text) for every text ``--fix`` would change."""
    for path, lang, text, loc in component_texts(project):
        fixed = fix_text(text, lang)
        if fixed != text:
            yield loc, path, lang, fixed
