"""Typography of the board, token and player-aid texts (``card_data/components.yaml``) and
of the home-print instructions (``layouts/sheets.yaml``): the
same rule table as card text (:mod:`cardgen.wording.language`), reported at each text's line;
``cardgen check --fix`` writes the mechanical repairs, and the generators apply them when
they print (so a "v" never ends a line on the board even before the file is fixed)."""

from __future__ import annotations

from collections.abc import Iterator

from ..data.model import LANGS
from ..data.project import Project
from ..data.yamlsrc import LocList, LocMap
from ..errors import CardgenError, Finding, Location, error, warning
from ..wording.components import load_components
from ..wording.language import fix_text, typography_problems
from .lang import find_terms
from .names import strip_tokens

SEVERITY = {"warning": warning, "error": error}


def component_texts(project: Project) -> Iterator[tuple[str, str, str, Location]]:
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


def sheet_texts(project: Project) -> Iterator[tuple[str, str, str, Location]]:
    """(path, language, text, location) of the home-print instructions
    (``layouts/sheets.yaml`` ``strings: <lang>:``, plural tables included)."""
    try:
        raw = project.documents.read("layouts/sheets.yaml")
    except CardgenError:  # the build reports it
        return
    strings = raw.get("strings") if isinstance(raw, LocMap) else None
    if not isinstance(strings, LocMap):
        return
    for lang, table in strings.items():
        if lang not in LANGS or not isinstance(table, LocMap):
            continue
        for key, value in table.items():
            rows = value.items() if isinstance(value, LocMap) else [(None, value)]
            for sub, text in rows:
                if isinstance(text, str):
                    where = value.at(sub) if sub is not None else table.at(key)
                    yield f"strings.{lang}.{key}" + (f".{sub}" if sub else ""), lang, text, where


def _all_texts(project: Project) -> Iterator[tuple[str, str, str, Location]]:
    yield from component_texts(project)
    yield from sheet_texts(project)


def check_component_texts(project: Project) -> list[Finding]:
    """A typography finding per problem in a board, token, aid or sheet text, at its line;
    and the glossary's fixed phrases (:func:`check_component_terms`)."""
    out = []
    for path, lang, text, loc in _all_texts(project):
        for rule, found in typography_problems(text, lang):
            out.append(SEVERITY[rule.severity.value](
                rule.code, f"{path}: {rule.message.format(found=found)}", location=loc,
                lang=lang, hint=rule.hint))
    out.extend(check_component_terms(project))
    return out


def check_component_terms(project: Project) -> list[Finding]:
    """A glossary term of several words ("play area", "discard pile") in the English of a
    board, token or aid text needs one of its Czech forms in the Czech ("herní oblast", not
    "oblast zahraných karet"), as card text does (``lang-glossary``). One-word terms are
    left out: terse labels say "+ military" or "shield markers" for what the glossary
    words otherwise ("vojenská čísla", "štít")."""
    pairs: dict[str, dict[str, tuple[str, Location]]] = {}
    for path, lang, text, loc in component_texts(project):
        pairs.setdefault(path, {})[lang] = (text, loc)
    phrases = [t for t in project.data.glossary if any(" " in f for f in t.forms.get("en", ()))]
    out = []
    for path, texts in pairs.items():
        if "en" not in texts or "cs" not in texts:
            continue
        english = find_terms(phrases, strip_tokens(texts["en"][0]), "en")
        czech = find_terms(phrases, strip_tokens(texts["cs"][0]), "cs")
        for term in phrases:
            word = english.get(term.id)
            if word and " " in word and term.id not in czech:
                out.append(warning(
                    "lang-glossary", f"{path}: the English uses the term '{word}' but the "
                    f"Czech has no '{term.forms['cs'][0]}'", location=texts["cs"][1], lang="cs",
                    rule=term.rule, hint=f"use one of: {', '.join(term.forms['cs'])}"))
    return out


def component_fixes(project: Project) -> Iterator[tuple[Location, str, str, str]]:
    """(location, path, language, repaired text) for every text ``--fix`` would change."""
    for path, lang, text, loc in _all_texts(project):
        fixed = fix_text(text, lang)
        if fixed != text:
            yield loc, path, lang, fixed
