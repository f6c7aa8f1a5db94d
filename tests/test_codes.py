"""Every finding code is declared once, in :mod:`cardgen.codes` (issue 37, item 5).

The package's source is read with :mod:`ast`: every code written at a call that makes a
finding must be registered, with the severity it is made with and the rule it cites, and
every registered code must be made somewhere. A code that reaches such a call through a
variable is allowed only at the places listed in ``FORWARDED``, each saying where its codes
are written (and collected) instead. A function or class with a ``code`` parameter (the
``add(error, "lang-missing", …)`` helpers, ``TypoRule``, ``TextError``) makes findings too: its
calls are collected. The manual's exit-code table (docs/reference/exit-codes.md) names the
codes that exit 2.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

import cardgen
from cardgen.cli import main
from cardgen.codes import CODES, SETUP
from cardgen.errors import Finding, Severity, exit_code

ROOT = Path(cardgen.__file__).parent
#: The exit-code table with every code (the README keeps a short one without the codes).
EXIT_CODES = ROOT.parent / "docs" / "reference" / "exit-codes.md"

#: The helpers that make a finding of one severity; ``Severity.X`` names one too.
HELPERS = {"error": "error", "warning": "warning"}

#: (file, expression) of a code that is not written where the finding is made, and where its
#: codes are written instead (each of those places is collected too).
FORWARDED = {
    ("errors.py", "code"): "error() and warning(): their callers",
    ("files/oserrors.py", "code"): "the errno table of oserrors (TABLES)",
    ("check/lang.py", "rule.code"): "TypoRule(...) in wording/language.py",
    ("check/components.py", "rule.code"): "TypoRule(...) in wording/language.py",
    ("wording/templates.py", "self.code"): "TextError(..., code=...) and its default",
    ("translate/po.py", "exc.code"): "TextError(..., code=...) and its default",
    ("wording/compose.py", "exc.code"): "TextError(..., code=...) and its default",
    ("build/common.py", "raw['code']"): "a cached finding, made by a call collected here",
    ("check/cache.py", "raw['code']"): "a cached finding, made by a call collected here",
    ("sheet/importer.py", "code"): "_Sheet.problem(...): its calls",
    ("translate/values.py", "code"): "write_values(..., code=...) in balance/ and build/sheet.py",
}

#: Files whose codes stand in a table: there, every tuple that starts with a string.
TABLES = {"files/oserrors.py"}


@dataclass(frozen=True)
class Use:
    """One place where a code is written, with the severities and rules it is made with."""

    where: str
    severities: frozenset[str] | None  # None: not known at that place
    rules: frozenset[str]


def _severities(node: ast.AST) -> frozenset[str] | None:
    """The severities a helper or ``Severity.X`` expression stands for (empty: chosen at run
    time, e.g. ``SEVERITY[rule.severity]``); None when ``node`` is none of them."""
    if isinstance(node, ast.Name) and node.id in HELPERS:
        return frozenset({HELPERS[node.id]})
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id == "Severity":
        return frozenset({node.attr.lower()})
    if isinstance(node, ast.IfExp):
        body, orelse = _severities(node.body), _severities(node.orelse)
        return body | orelse if body is not None and orelse is not None else None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
            and node.value.id == "SEVERITY":
        return frozenset()
    return None


def _strings(node: ast.AST | None) -> tuple[list[str], list[ast.AST]]:
    """The string literals ``node`` can be (both sides of ``a if c else b``) and the parts
    that are not literals."""
    if node is None:
        return [], []
    if isinstance(node, ast.Constant):
        return ([node.value] if isinstance(node.value, str) else []), []
    if isinstance(node, ast.IfExp):
        (a, da), (b, db) = _strings(node.body), _strings(node.orelse)
        return a + b, da + db
    return [], [node]


@dataclass(frozen=True)
class Maker:
    """A function or class that takes a code: where its ``code`` argument stands."""

    index: int
    severity: frozenset[str] | None  # the default of its ``severity`` field, if any


def _makers(tree: ast.Module) -> dict[str, Maker]:
    """The definitions in ``tree`` that take a ``code`` (parameter or dataclass field)."""
    out: dict[str, Maker] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            params = [a.arg for a in node.args.posonlyargs + node.args.args]
            params = params[1:] if params[:1] == ["self"] else params
            if "code" in params and node.name != "__init__":
                out[node.name] = Maker(params.index("code"), None)
        elif isinstance(node, ast.ClassDef):
            fields = {s.target.id: s.value for s in node.body
                      if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}
            init = next((s for s in node.body
                         if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
            params = [a.arg for a in init.args.args[1:]] if init else list(fields)
            if "code" in params:
                default = fields.get("severity")
                out[node.name] = Maker(params.index("code"),
                                       _severities(default) if default is not None else None)
    return out


def _defaults(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, code) of every default value of a parameter named ``code``."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            args = node.args.posonlyargs + node.args.args
            for arg, default in zip(args[len(args) - len(node.args.defaults):], node.args.defaults,
                                    strict=True):
                if arg.arg == "code" and isinstance(default, ast.Constant):
                    out.append((node.lineno, default.value))
    return out


def _imported(tree: ast.Module) -> set[str]:
    return {alias.asname or alias.name for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("cardgen"))
            for alias in node.names}


def _callee(node: ast.Call, makers: dict[str, Maker]) -> tuple[Maker, frozenset[str] | None] | None:
    """The maker ``node`` calls and the severities it makes, or None for another call."""
    func = node.func
    chosen = _severities(func)
    if chosen is not None and not isinstance(func, ast.Name):  # (error if c else warning)(...)
        return Maker(0, None), chosen
    if isinstance(func, ast.Name):
        name = func.id
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        name = func.attr
    else:
        return None
    maker = makers.get(name)
    if maker is None:
        return None
    if name in HELPERS:
        return maker, frozenset({HELPERS[name]})
    given = [_severities(a) for a in [*node.args, *(k.value for k in node.keywords)]]
    return maker, next((s for s in given if s is not None), maker.severity)


def _code_argument(node: ast.Call, maker: Maker) -> ast.AST | None:
    args = node.args
    if len(args) > maker.index and not any(isinstance(a, ast.Starred) for a in args[:maker.index + 1]):
        return args[maker.index]
    return next((k.value for k in node.keywords if k.arg == "code"), None)


def _rules(node: ast.Call) -> frozenset[str]:
    value = next((k.value for k in node.keywords if k.arg == "rule"), None)
    return frozenset(_strings(value)[0])


def _sources() -> dict[str, ast.Module]:
    return {path.relative_to(ROOT).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
            for path in sorted(ROOT.rglob("*.py"))}


@cache
def collect() -> tuple[dict[str, list[Use]], list[str]]:
    """Every code written in the package → its uses; and every place where a code reaches a
    finding through a variable (``file: expression``)."""
    sources = _sources()
    defined = {file: _makers(tree) for file, tree in sources.items()}
    everywhere: dict[str, Maker] = {}
    for makers in defined.values():
        everywhere.update(makers)
    uses: dict[str, list[Use]] = defaultdict(list)
    forwarded: list[str] = []
    for file, tree in sources.items():
        makers = {name: everywhere[name] for name in _imported(tree) if name in everywhere}
        makers.update(defined[file])
        for node in ast.walk(tree):
            if file in TABLES and isinstance(node, ast.Tuple) and node.elts \
                    and isinstance(node.elts[0], ast.Constant) and isinstance(node.elts[0].value, str):
                uses[node.elts[0].value].append(Use(f"{file}:{node.lineno}", frozenset({"error"}),
                                                    frozenset()))
            if not isinstance(node, ast.Call) or (found := _callee(node, makers)) is None:
                continue
            maker, severities = found
            codes, variables = _strings(_code_argument(node, maker))
            for code in codes:
                uses[code].append(Use(f"{file}:{node.lineno}", severities or None, _rules(node)))
            forwarded += [f"{file}: {ast.unparse(v)}" for v in variables]
        for line, code in _defaults(tree):
            uses[code].append(Use(f"{file}:{line}", None, frozenset()))
    return dict(uses), forwarded



def test_every_code_made_is_registered() -> None:
    missing = {code: uses[0].where for code, uses in collect()[0].items() if code not in CODES}
    assert missing == {}, "register these codes in cardgen/codes.py"


def test_every_registered_code_is_made_somewhere() -> None:
    assert sorted(set(CODES) - set(collect()[0])) == []


def test_a_code_reaches_a_finding_through_a_variable_only_where_listed() -> None:
    listed = {f"{file}: {expr}" for file, expr in FORWARDED}
    forwards = set(collect()[1])
    assert sorted(forwards - listed) == [], \
        "write the code as a literal at the call, or list the place in FORWARDED with its source"
    assert sorted(listed - forwards) == []  # no stale entry


def test_each_code_is_made_only_with_its_registered_severities() -> None:
    wrong = [f"{use.where}: {code} as {sorted(use.severities)}, registered {sorted(CODES[code].severities)}"
             for code, uses in collect()[0].items() if code in CODES for use in uses
             if use.severities is not None and not use.severities <= CODES[code].severities]
    assert wrong == []


def test_each_rule_a_finding_cites_is_the_registered_one() -> None:
    wrong = [f"{use.where}: {code} cites rule {rule}, registered {CODES[code].cites!r}"
             for code, uses in collect()[0].items() if code in CODES for use in uses for rule in use.rules
             if rule not in re.split(r"[ ,]+", CODES[code].cites or "")]
    assert wrong == []


def test_codes_compared_with_are_registered() -> None:
    """A filter such as ``f.code == "text-overflow"`` names a registered code (a typo there
    would silently match nothing)."""
    wrong = []
    for file, tree in _sources().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute) \
                    and node.left.attr == "code":
                for right in node.comparators:
                    items = right.elts if isinstance(right, ast.Tuple | ast.Set | ast.List) else [right]
                    wrong += [f"{file}:{node.lineno}: {item.value}" for item in items
                              if isinstance(item, ast.Constant) and item.value not in CODES]
    assert wrong == []


def _readme_exit_codes() -> dict[int, str]:
    text = EXIT_CODES.read_text(encoding="utf-8")
    table = text[text.index("| exit | meaning |"):].split("\n\n", 1)[0]
    return {int(m[1]): m[2] for m in re.finditer(r"^\| (\d) \| (.*) \|$", table, re.M)}


def test_the_readme_names_exactly_the_codes_that_exit_2() -> None:
    rows = _readme_exit_codes()
    assert set(rows) == {0, 1, 2}
    named = re.findall(r"`([a-z][a-z0-9-]*(?:-…)?)`", rows[SETUP].split("; codes:", 1)[1])
    covered = {name: {code for code in CODES
                      if code == name or (name.endswith("…") and code.startswith(name[:-1]))}
               for name in named}  # `os-…`: every code that starts with os-
    assert [name for name, codes in covered.items() if not codes] == []
    assert set().union(*covered.values()) == {code for code, c in CODES.items() if c.exit == SETUP}


def test_exit_code_follows_the_registry_for_every_code() -> None:
    for code, entry in CODES.items():
        made = Finding(Severity.ERROR, code, "x")  # as made, or as --strict makes a warning
        assert exit_code([made]) == entry.exit, code
        assert exit_code([Finding(Severity.WARNING, code, "x")]) == 1  # only errors count


@pytest.mark.parametrize(("args", "made"), [
    (["--project", "{tmp}/nope", "check"], "usage"),
    (["--project", "{project}", "build", "--lang", "de"], "unknown-lang"),
])
def test_a_finding_of_an_exit_2_code_makes_the_command_exit_2(project, tmp_path, capsys, args, made):
    assert CODES[made].exit == SETUP
    code = main([a.format(tmp=tmp_path, project=project) for a in args])
    out = capsys.readouterr()
    printed = set(re.findall(r"error\[([a-z0-9-]+)\]", out.out + out.err))
    assert made in printed and all(CODES[c].exit == SETUP for c in printed)
    assert code == 2
