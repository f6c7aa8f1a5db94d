"""The Jinja2 sandbox the wording templates of ``card_data/text/*.yaml`` run in.

Text files are what translators send in pull requests, so a template is untrusted input:

* it runs in Jinja2's :class:`~jinja2.sandbox.ImmutableSandboxedEnvironment` (no
  ``__class__``/``__globals__``/``mro`` … attributes, no mutation of lists and mappings);
* it may only call the wording helpers the compose stage hands it (``n``, ``cur``, ``at`` …),
  never methods of values (``'{0.__class__}'.format(x)``), ``range``, ``lipsum``, ``cycler``,
  ``joiner`` or ``namespace``;
* it is an expression with conditionals: loops, macros, ``set``, ``include`` and other
  statements are refused when it is compiled (:func:`refusals`), so its running time is
  bounded by its length;
* its source has limits checked when it is compiled (:func:`source_limits`): at most
  :data:`MAX_TEXT` characters, number literals of at most :data:`MAX_DIGITS` digits, at most
  :data:`MAX_NODES` expression parts nested at most :data:`MAX_NESTING` deep;
* a render has a budget (:data:`MAX_STEPS` operations, :data:`MAX_SECONDS` seconds, renders
  nested :data:`MAX_DEPTH` deep, :data:`MAX_TEXT` characters for any value it builds, counted
  as the text the value would print as, nested lists included): ``'x' * 10**9``,
  ``10**10**10``, ``[[['x'*5000]*5000]*5000]`` or a chain of growing ``replace`` stop with
  :class:`BudgetError` before they allocate; so does turning a value into text (output,
  ``~``, filters, helper arguments).

Every refusal is a :class:`~jinja2.sandbox.SecurityError` (a :class:`TemplateError`), which the
compose stage turns into a finding at the template's file:line.
"""

from __future__ import annotations

import functools
import operator
import re
import time
from collections.abc import Callable, Iterable, Sized
from typing import Any

from jinja2 import StrictUndefined, nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.runtime import Context
from jinja2.sandbox import (
    UNSAFE_FUNCTION_ATTRIBUTES,
    UNSAFE_METHOD_ATTRIBUTES,
    ImmutableSandboxedEnvironment,
    SecurityError,
)

#: Operations (attribute and item look-ups, calls, operators, filters) one render may do,
#: nested renders (``body(then)``) included. The longest shipped template needs about 60.
MAX_STEPS = 5_000
#: Operations all renders of one sandbox may do together: a sandbox serves one language of
#: one loaded project, so this bounds a whole command (the shipped data needs about 1,000;
#: 300 renders each just under MAX_STEPS would otherwise add up to minutes, issue 38).
MAX_TOTAL_STEPS = 250_000
#: Characters any value built by a template may have; the longest card line is ~300.
MAX_TEXT = 5_000
#: Seconds one render may take, nested renders included (a card text takes well under 1 ms).
MAX_SECONDS = 2.0
#: How deep renders may nest (a helper rendering another template: ``body(then)``).
MAX_DEPTH = 32
#: Digits a number literal in a template may have (the shipped templates use 1).
MAX_DIGITS = 30
#: Parts (names, operators, literals …) of one template, and how deep they may nest; the
#: largest shipped template has 77 parts nested 8 deep.
MAX_NODES = 1_000
MAX_NESTING = 50
#: Filters a wording template may use: each returns at most what it is given.
FILTERS = ("join", "replace", "lower", "upper", "capitalize", "title", "trim", "default", "d",
           "first", "last", "length", "count", "string")
#: Template nodes a wording template may contain: output, conditionals and expressions.
ALLOWED_NODES: tuple[type[nodes.Node], ...] = (
    nodes.Template, nodes.Output, nodes.TemplateData, nodes.If, nodes.Name, nodes.Const,
    nodes.Getattr, nodes.Getitem, nodes.Slice, nodes.Call, nodes.Keyword, nodes.Filter,
    nodes.Test, nodes.CondExpr, nodes.And, nodes.Or, nodes.Not, nodes.Compare, nodes.Operand,
    nodes.Concat, nodes.BinExpr, nodes.UnaryExpr, nodes.List, nodes.Tuple, nodes.Dict,
    nodes.Pair,
)
_UNSAFE_NAMES = UNSAFE_FUNCTION_ATTRIBUTES | UNSAFE_METHOD_ATTRIBUTES | {
    "mro", "format", "format_map", "gi_frame", "gi_code", "cr_frame", "cr_code", "ag_frame",
    "ag_code", "f_globals", "f_locals", "f_builtins", "tb_frame"}
_STATEMENT_NAMES = {"For": "loops ('for')", "Macro": "macros", "CallBlock": "call blocks",
                    "AssignBlock": "'set'", "Assign": "'set'", "FromImport": "'import'",
                    "FilterBlock": "filter blocks"}


class BudgetError(SecurityError):
    """A render did more work, or built a longer value, than any card text needs."""


def refusals(tree: nodes.Template, helpers: Iterable[str]) -> list[str]:
    """Why a parsed template may not run (empty when it may): statements other than ``if``,
    internal attributes, calls of anything but a wording helper."""
    allowed = set(helpers)
    out: list[str] = []
    for node in tree.find_all(nodes.Node):
        name = type(node).__name__
        if not isinstance(node, ALLOWED_NODES):
            what = _STATEMENT_NAMES.get(name, f"'{name.lower()}'")
            out.append(f"line {node.lineno}: a wording template may not use {what}")
        elif isinstance(node, nodes.Getattr) and _unsafe(node.attr):
            out.append(f"line {node.lineno}: the attribute '{node.attr}' is internal")
        elif (isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Const)
              and isinstance(node.arg.value, str) and _unsafe(node.arg.value)):
            out.append(f"line {node.lineno}: the item '{node.arg.value}' is internal")
        elif isinstance(node, nodes.Call) and not (
                isinstance(node.node, nodes.Name) and node.node.name in allowed):
            out.append(f"line {node.lineno}: only the wording helpers can be called "
                       f"({', '.join(sorted(allowed))}), not methods or other functions"
                       if allowed else f"line {node.lineno}: this text may call nothing")
    return list(dict.fromkeys(out))


_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")


def source_limits(source: str) -> list[str]:
    """Why ``source`` is too large to parse (empty when it is not): its length and its number
    literals (Python refuses to read an integer of more than 4,300 digits)."""
    if len(source) > MAX_TEXT:
        return [f"it is {len(source):,} characters long, more than the {MAX_TEXT:,} any card "
                "text needs"]
    long = _NUMBER.search(source)
    if long:
        line = source.count("\n", 0, long.start()) + 1
        return [f"line {line}: a number of {len(long.group()):,} digits; at most {MAX_DIGITS} "
                "are allowed"]
    return []


def tree_limits(tree: nodes.Template) -> list[str]:
    """Why a parsed template is too large to check or run (empty when it is not): more than
    :data:`MAX_NODES` parts or nesting deeper than :data:`MAX_NESTING` (a 1,200-term ``+``
    chain). Walked without recursion, so a deep tree cannot exhaust the stack here."""
    stack: list[tuple[nodes.Node, int]] = [(tree, 1)]
    count = 0
    while stack:
        node, depth = stack.pop()
        count += 1
        if depth > MAX_NESTING:
            return [f"line {node.lineno}: the expression nests more than {MAX_NESTING} deep"]
        if count > MAX_NODES:
            return [f"the template has more than {MAX_NODES} parts"]
        stack.extend((child, depth + 1) for child in node.iter_child_nodes())
    return []


def _unsafe(attr: str) -> bool:
    return attr.startswith("_") or attr in _UNSAFE_NAMES


def _size(value: Any) -> int:
    return len(value) if isinstance(value, Sized) else 0


def text_weight(value: Any, limit: int = MAX_TEXT) -> int:
    """About how many characters ``value`` prints as, nested lists and mappings included;
    counting stops once it passes ``limit``, so it costs O(limit) however large the value
    would print (``[['x' * 5000] * 5000] * 5000`` is small in memory but gigabytes as text)."""
    total = 0
    stack = [value]
    while stack and total <= limit:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item) + 2
        elif isinstance(item, dict):
            total += 2 + 2 * len(item)
            if total <= limit:
                stack.extend(item.keys())
                stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            total += 2 + 2 * len(item)
            if total <= limit:
                stack.extend(item)
        elif isinstance(item, int):
            total += item.bit_length() // 3 + 1
        else:
            total += max(_size(item), 1)
    return total


class _BoundedCodeGenerator(CodeGenerator):
    """Jinja's code generator, with ``~`` joining through the budget (Jinja joins with
    ``str`` directly, outside any sandbox hook)."""

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.join_text((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")


class WordingSandbox(ImmutableSandboxedEnvironment):
    """An immutable sandbox that calls only ``helpers`` and counts every operation.

    The budget is per top-level render: :meth:`render` resets it, nested renders (a helper
    rendering another template) share it.
    """

    intercepted_binops = frozenset({"*", "**", "%", "+"})
    code_generator_class = _BoundedCodeGenerator

    def __init__(self, helpers: dict[str, Callable[..., Any]], values: dict[str, Any]):
        super().__init__(autoescape=False, undefined=StrictUndefined,
                         keep_trailing_newline=False, finalize=self._finalize)
        self.filters = {name: self._budgeted(self.filters[name]) for name in FILTERS}
        self.filters["replace"] = self._budgeted(_replace)
        self.globals.clear()
        self.globals.update(helpers)
        self.globals.update(values)
        self.helpers = dict(helpers)
        self._callables = tuple(helpers.values())
        self.steps = 0
        self.total = 0  # every render's operations together (MAX_TOTAL_STEPS)
        self.depth = 0
        self.deadline = 0.0

    # budget ------------------------------------------------------------------------------

    def step(self) -> None:
        self.steps += 1
        self.total += 1
        if self.steps > MAX_STEPS:
            raise BudgetError(f"the template needs more than {MAX_STEPS} operations")
        if self.total > MAX_TOTAL_STEPS:
            raise BudgetError(f"the templates need more than {MAX_TOTAL_STEPS:,} operations "
                              "together in one command (each one near its own budget)")
        if time.monotonic() > self.deadline:
            raise BudgetError(f"the template runs longer than {MAX_SECONDS:g} s")

    def bounded(self, value: Any) -> Any:
        """``value``, if the text it prints as stays within :data:`MAX_TEXT` characters."""
        weight = len(value) if type(value) is str else text_weight(value)  # the common case
        if weight > MAX_TEXT:
            raise BudgetError(f"the template builds a value of more than {MAX_TEXT} characters "
                              "(as text), more than any card text needs")
        return value

    def _finalize(self, value: Any) -> Any:
        """What ``{{ … }}`` prints: refused before conversion when it would be too long."""
        return self.bounded(value)

    def join_text(self, parts: tuple[Any, ...]) -> str:
        """``a ~ b``: the parts as text, refused before conversion when too long."""
        return "".join(str(part) for part in self.bounded(parts))

    def render(self, template: Any, values: dict[str, Any]) -> str:
        """Render a compiled template within the budget; the text is bounded too."""
        if self.depth == 0:
            self.steps = 0
            self.deadline = time.monotonic() + MAX_SECONDS
        elif self.depth >= MAX_DEPTH:
            raise BudgetError(f"templates render each other more than {MAX_DEPTH} deep")
        self.depth += 1
        try:
            return self.bounded(template.render(**values))
        finally:
            self.depth -= 1

    def _budgeted(self, func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            self.step()
            self.bounded((args, kwargs))  # a filter turns its arguments into text
            return self.bounded(func(*args, **kwargs))
        return wrapper

    # the sandbox's hooks -------------------------------------------------------------

    def getattr(self, obj: Any, attribute: str) -> Any:
        self.step()
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        self.step()
        return super().getitem(obj, argument)

    def call(__self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        __self.step()
        if not any(__obj is f for f in __self._callables):
            raise SecurityError(f"only the wording helpers can be called, not {__obj!r}")
        __self.bounded((args, kwargs))  # a helper may turn its arguments into text
        return __self.bounded(__context.call(__obj, *args, **kwargs))

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        self.step()
        if operator == "%" and isinstance(left, str):
            raise SecurityError("string formatting with '%' is not allowed; write the text")
        if operator == "**":
            _check_power(left, right)
        elif operator == "*":
            for seq, times in ((left, right), (right, left)):
                if (_size(seq) and isinstance(times, int)
                        and text_weight(seq) * times > MAX_TEXT):
                    raise BudgetError(f"the template repeats a value {times} times, more than "
                                      f"the {MAX_TEXT} characters any card text needs")
            if isinstance(left, int) and isinstance(right, int) and (
                    left.bit_length() + right.bit_length() > 256):
                raise BudgetError("the template multiplies numbers larger than a card needs")
        elif operator == "+" and text_weight(left) + text_weight(right) > MAX_TEXT:
            raise BudgetError(f"the template builds a value longer than the {MAX_TEXT} "
                              "characters any card text needs")
        return self.bounded(_BINOPS[operator](left, right))


_BINOPS = {"*": operator.mul, "**": operator.pow, "%": operator.mod, "+": operator.add}


def _check_power(base: Any, exponent: Any) -> None:
    if isinstance(exponent, (int, float)) and abs(exponent) > 64:
        raise BudgetError(f"the exponent {exponent} is larger than a card needs")
    if isinstance(base, int) and isinstance(exponent, int) and (
            base.bit_length() * max(exponent, 0) > 256):
        raise BudgetError("the template raises a number to a power larger than a card needs")


def _replace(s: Any, old: str, new: str, count: int | None = None) -> str:
    """Jinja's ``replace`` filter, refused before it would build a text too long for a card."""
    text = str(s)
    hits = text.count(str(old)) if count is None else min(count, text.count(str(old)))
    if len(text) + hits * max(len(str(new)) - len(str(old)), 0) > MAX_TEXT:
        raise BudgetError(f"'replace' would build more than the {MAX_TEXT} characters any "
                          "card text needs")
    return text.replace(str(old), str(new), -1 if count is None else count)


_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def fill_in(text: str, **values: Any) -> str:
    """``text`` with each ``{name}`` of ``values`` replaced: the safe stand-in for
    ``str.format`` on strings from data files (no ``{n.__class__}``, no format specs);
    other braces are left as they are."""
    return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values
                            else m.group(0), text)
