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
* a render has a budget (:data:`MAX_STEPS` operations, :data:`MAX_TEXT` characters for any
  value it builds): ``'x' * 10**9``, ``10**10**10`` or a chain of growing ``replace`` stop
  with :class:`BudgetError` before they allocate.

Every refusal is a :class:`~jinja2.sandbox.SecurityError` (a :class:`TemplateError`), which the
compose stage turns into a finding at the template's file:line.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable, Iterable, Sized
from typing import Any

from jinja2 import StrictUndefined, nodes
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
#: Characters any value built by a template may have; the longest card line is ~300.
MAX_TEXT = 5_000
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


def _unsafe(attr: str) -> bool:
    return attr.startswith("_") or attr in _UNSAFE_NAMES


def _size(value: Any) -> int:
    return len(value) if isinstance(value, Sized) else 0


class WordingSandbox(ImmutableSandboxedEnvironment):
    """An immutable sandbox that calls only ``helpers`` and counts every operation.

    The budget is per top-level render: :meth:`render` resets it, nested renders (a helper
    rendering another template) share it.
    """

    intercepted_binops = frozenset({"*", "**", "%", "+"})

    def __init__(self, helpers: dict[str, Callable[..., Any]], values: dict[str, Any]):
        super().__init__(autoescape=False, undefined=StrictUndefined,
                         keep_trailing_newline=False)
        self.filters = {name: self._budgeted(self.filters[name]) for name in FILTERS}
        self.filters["replace"] = self._budgeted(_replace)
        self.globals.clear()
        self.globals.update(helpers)
        self.globals.update(values)
        self.helpers = dict(helpers)
        self._callables = tuple(helpers.values())
        self.steps = 0
        self.depth = 0

    # budget ------------------------------------------------------------------------------

    def step(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise BudgetError(f"the template needs more than {MAX_STEPS} operations")

    def bounded(self, value: Any) -> Any:
        if _size(value) > MAX_TEXT:
            raise BudgetError(f"the template builds a value of {_size(value)} items or "
                              f"characters, more than the {MAX_TEXT} any card text needs")
        return value

    def render(self, template: Any, values: dict[str, Any]) -> str:
        """Render a compiled template within the budget; the text is bounded too."""
        if self.depth == 0:
            self.steps = 0
        self.depth += 1
        try:
            return self.bounded(template.render(**values))
        finally:
            self.depth -= 1

    def _budgeted(self, func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            self.step()
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
        return __context.call(__obj, *args, **kwargs)

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        self.step()
        if operator == "%" and isinstance(left, str):
            raise SecurityError("string formatting with '%' is not allowed; write the text")
        if operator == "**":
            _check_power(left, right)
        elif operator == "*":
            for seq, times in ((left, right), (right, left)):
                if _size(seq) and isinstance(times, int) and _size(seq) * times > MAX_TEXT:
                    raise BudgetError(f"the template repeats a value {times} times, more than "
                                      f"the {MAX_TEXT} characters any card text needs")
            if isinstance(left, int) and isinstance(right, int) and (
                    left.bit_length() + right.bit_length() > 256):
                raise BudgetError("the template multiplies numbers larger than a card needs")
        elif operator == "+" and _size(left) + _size(right) > MAX_TEXT:
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
