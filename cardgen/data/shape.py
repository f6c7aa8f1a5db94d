"""Check a YAML tree against a shape spec: known keys, required keys, value kinds.

Used for the layouts and data files whose structure the drawing code reads directly (board,
tokens, player aid, components), so a designer's typo is a finding at file:line, never a
KeyError in the middle of a build. A spec mirrors the file: mappings of keys to specs,
``"*"`` for a mapping with free keys, a one-item list for "a list of these", and leaf kinds:

``number`` (finite), ``int``, ``string``, ``colour`` (``#rrggbb``), ``bool``, ``pair`` and
``box`` (2 and 4 numbers), ``numbers`` (any count), ``points`` (a list of pairs),
``mapping`` (any mapping, e.g. ``{en: …, cs: …}`` checked elsewhere), ``words`` (a text,
or a list or mapping of texts), ``any``.
A key written ``name?`` is optional.
"""

from __future__ import annotations

import math
import re
from typing import Any

from ..errors import Finding, Location, error
from .fields import suggest
from .yamlsrc import LocList, LocMap

COLOUR = re.compile(r"#[0-9a-fA-F]{6}")

KIND_NAMES = {
    "number": "a number", "int": "a whole number", "string": "a text", "bool": "true or false",
    "colour": "a colour like \"#a0522d\"", "pair": "two numbers [x, y]",
    "box": "four numbers [x, y, width, height]", "numbers": "a list of numbers",
    "mapping": "a mapping such as {en: …, cs: …}",
    "words": "a text, a list of texts or a mapping of texts",
    "points": "a list of points [[x, y], …]", "any": "a value",
}


def _number(value: Any) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value))


def _numbers(value: Any, count: int | None = None) -> bool:
    return (isinstance(value, list) and bool(value) and all(_number(v) for v in value)
            and (count is None or len(value) == count))


LEAVES = {
    "number": _number,
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "bool": lambda v: isinstance(v, bool),
    "colour": lambda v: isinstance(v, str) and COLOUR.fullmatch(v) is not None,
    "pair": lambda v: _numbers(v, 2),
    "box": lambda v: _numbers(v, 4),
    "numbers": _numbers,
    "points": lambda v: isinstance(v, list) and bool(v) and all(_numbers(p, 2) for p in v),
    "mapping": lambda v: isinstance(v, dict),
    "words": lambda v: isinstance(v, str) or (
        isinstance(v, list | dict) and bool(v)
        and all(isinstance(x, str) for x in (v.values() if isinstance(v, dict) else v))),
    "any": lambda v: True,
}


def check_shape(value: Any, spec: Any, where: Location, path: str) -> list[Finding]:
    """Every way ``value`` (loaded by :mod:`cardgen.data.yamlsrc`) departs from ``spec``."""
    if isinstance(spec, dict):
        if not isinstance(value, LocMap):
            return [error("shape", f"'{path}' must be a mapping of keys to values",
                          location=where)]
        out: list[Finding] = []
        free = spec.get("*")
        fields = {k.removesuffix("?"): (sub, k.endswith("?")) for k, sub in spec.items() if k != "*"}
        for key in value:
            if key in fields:
                continue
            if free is None:
                near = suggest(key, fields)
                out.append(error("unknown-key", f"unknown key '{key}' in '{path}'",
                                 location=value.key_locs.get(key, value.loc),
                                 hint=f"did you mean '{near}'?" if near else
                                 f"valid keys: {', '.join(sorted(fields))}"))
                continue
            out += check_shape(value[key], free, value.at(key), f"{path}.{key}")
        for key, (sub, optional) in fields.items():
            if key in value:
                out += check_shape(value[key], sub, value.at(key), f"{path}.{key}")
            elif not optional:
                out.append(error("missing-key", f"'{path}' needs '{key}' ({_describe(sub)})",
                                 location=value.loc, hint=f"add '{key}:'"))
        return out
    if isinstance(spec, list):
        if not isinstance(value, LocList):
            return [error("shape", f"'{path}' must be a list", location=where)]
        out = []
        for i, item in enumerate(value):
            out += check_shape(item, spec[0], value.at(i), f"{path}[{i}]")
        return out
    if LEAVES[spec](value):
        return []
    return [error("wrong-type", f"'{path}' must be {KIND_NAMES[spec]}, not {value!r}",
                  location=where)]


def _describe(spec: Any) -> str:
    if isinstance(spec, dict):
        return "a mapping"
    if isinstance(spec, list):
        return "a list"
    return KIND_NAMES[spec]
