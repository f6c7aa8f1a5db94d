"""Safe YAML loading that remembers where every value came from.

Mappings load as :class:`LocMap` and sequences as :class:`LocList`; both keep the
:class:`Location` of each child value, so any later stage can point at file:line:col.
Duplicate keys (which PyYAML accepts silently) and alias bombs are errors.
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..errors import CardgenError, Location, error
from ..files.oserrors import read_input

#: libyaml's parser when PyYAML was built with it (same nodes and marks, several times faster).
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: Upper bound on the number of values a document may expand to through aliases.
MAX_EXPANDED_NODES = 200_000
#: Digits a number in a data file may have (a seed or a year needs a handful).
MAX_DIGITS = 15


class Source:
    """The text of one YAML file as lines, for keys over the part a mapping was read from.

    ``keyed`` is False when a mapping's lines alone may not determine its values: the file
    has anchors (an alias reads text elsewhere), directives (``%TAG`` changes what a tag
    means) or line breaks other than ``\\n`` (the parser's line numbers might not be
    ``str.split``'s).
    """

    def __init__(self, text: str, file: str):
        self.file = file
        self.keyed = not ("&" in text or text.startswith("%") or "\n%" in text
                          or any(c in text for c in "\r\x85\u2028\u2029"))
        self.lines = text.split("\n") if self.keyed else []

    def key(self, first: int, column: int, last: int) -> str | None:
        """A digest of the file name, where the mapping starts (line and column: two
        mappings may share a line) and the text of the lines ``first``..``last`` (0-based,
        inclusive), or None when the lines are not enough."""
        if not self.keyed:
            return None
        h = hashlib.sha256(f"{self.file}\0{first}\0{column}\0".encode())
        h.update("\n".join(self.lines[first:last + 1]).encode("utf-8", "surrogatepass"))
        return h.hexdigest()


class LocMap(dict):
    """A mapping that knows its own location and the location of each value and key."""

    loc: Location
    locs: dict[Any, Location]
    key_locs: dict[Any, Location]
    #: the file it was read from; where it starts there (line, column) and its last line
    source: Source | None = None
    span: tuple[int, int, int] = (0, 0, 0)

    def at(self, key: Any) -> Location:
        return self.locs.get(key, self.loc)

    def source_key(self) -> str | None:
        """A key over everything this mapping was read from (its values, their file:line):
        the same key, the same mapping. None when not known (built in code, or see
        :class:`Source`)."""
        return self.source.key(*self.span) if self.source is not None else None


class LocList(list):
    """A sequence that knows its own location and the location of each item."""

    loc: Location
    locs: list[Location]

    def at(self, index: int) -> Location:
        return self.locs[index] if 0 <= index < len(self.locs) else self.loc


def _loc(file: str, node: Node) -> Location:
    mark = node.start_mark
    return Location(file, mark.line + 1, mark.column + 1)


def _check_expansion(root: Node, file: str) -> None:
    """Reject documents whose aliases expand to an unbounded number of values."""
    sizes: dict[int, int] = {}

    def size(node: Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        sizes[key] = 1  # guards against recursive aliases
        total = 1
        if isinstance(node, SequenceNode):
            total += sum(size(child) for child in node.value)
        elif isinstance(node, MappingNode):
            total += sum(size(k) + size(v) for k, v in node.value)
        sizes[key] = total
        if total > MAX_EXPANDED_NODES:
            raise CardgenError(
                error(
                    "yaml-alias-bomb",
                    f"aliases in this document expand to more than {MAX_EXPANDED_NODES} values",
                    location=_loc(file, node),
                    hint="remove the nested anchors (&name) and aliases (*name); "
                    "write the values out instead",
                )
            )
        return total

    size(root)


_STR_TAG = "tag:yaml.org,2002:str"
_PLAIN_TAGS = frozenset({"tag:yaml.org,2002:seq", "tag:yaml.org,2002:map", "tag:yaml.org,2002:omap"})


class _Constructor:
    """Turns a composed node tree into LocMap/LocList/scalars."""

    def __init__(self, file: str, loader: yaml.SafeLoader, source: Source):  # or CSafeLoader
        self.file = file
        self.loader = loader
        self.source = source
        self.active: set[int] = set()

    def build(self, node: Node) -> Any:
        if isinstance(node, ScalarNode):
            if node.tag == _STR_TAG:  # most values: the text itself, as the loader makes it
                return node.value
            return self._scalar(node)
        if id(node) in self.active:
            raise CardgenError(
                error("yaml-recursive", "a recursive alias refers to itself",
                      location=_loc(self.file, node), hint="remove the recursive alias")
            )
        if node.tag not in _PLAIN_TAGS:
            raise CardgenError(
                error("yaml-tag", f"the tag {node.tag} is not allowed in card data",
                      location=_loc(self.file, node), hint="remove the !tag")
            )
        self.active.add(id(node))
        try:
            if isinstance(node, SequenceNode):
                out = LocList()
                out.loc = _loc(self.file, node)
                out.locs = []
                for child in node.value:
                    out.append(self.build(child))
                    out.locs.append(_loc(self.file, child))
                return out
            if isinstance(node, MappingNode):
                return self._mapping(node)
        finally:
            self.active.discard(id(node))
        raise CardgenError(error("yaml-node", "unsupported YAML node", location=_loc(self.file, node)))

    def _scalar(self, node: ScalarNode) -> Any:
        """A number, boolean, null or date; a number no card, layout or profile needs (more
        than :data:`MAX_DIGITS` digits, infinite, not a number) is an error at its line."""
        shown = (node.value if len(node.value) <= 20
                 else f"{node.value[:17]}… ({len(node.value):,} characters)")
        try:
            value = self.loader.construct_object(node, deep=True)
        except ValueError as exc:  # e.g. Python's 4,300-digit limit for integers, a bad date
            raise CardgenError(error(
                "yaml-value", f"{shown} cannot be read: {str(exc)[:120]}",
                location=_loc(self.file, node), hint="write the value in quotes if it is text")
            ) from None
        if (isinstance(value, int) and abs(value) >= 10**MAX_DIGITS) or (
                isinstance(value, float) and not math.isfinite(value)):
            raise CardgenError(error(
                "yaml-number", f"{shown} is not a number any card data needs: numbers are "
                f"finite, with at most {MAX_DIGITS} digits", location=_loc(self.file, node),
                hint="write the number the rulebook gives"))
        return value

    def _mapping(self, node: MappingNode) -> LocMap:
        self.loader.flatten_mapping(node)
        out = LocMap()
        out.loc = _loc(self.file, node)
        out.locs = {}
        out.key_locs = {}
        start = node.start_mark
        out.source, out.span = self.source, (start.line, start.column, node.end_mark.line)
        for key_node, value_node in node.value:
            key = self.build(key_node)
            key_loc = _loc(self.file, key_node)
            try:
                hash(key)
            except TypeError:
                raise CardgenError(
                    error("yaml-key", "a mapping key must be a plain value", location=key_loc)
                ) from None
            if key in out:
                first = out.key_locs[key]
                raise CardgenError(
                    error(
                        "yaml-duplicate-key",
                        f"duplicate key '{key}' (first defined at line {first.line})",
                        location=key_loc,
                        hint=f"remove or rename one of the two '{key}' entries",
                    )
                )
            out[key] = self.build(value_node)
            out.locs[key] = _loc(self.file, value_node)
            out.key_locs[key] = key_loc
        return out


#: How deeply a document may nest: project files nest about ten deep. libyaml's composer
#: recurses in C and crashes the process (no Python exception) near 100,000 levels.
MAX_NESTING = 1000


def nests_deeper(text: str, limit: int) -> bool:
    """Whether the document nests more than ``limit`` deep, found from the parser's events
    (without composing: libyaml's composer would exhaust its stack). A syntax error is left
    to the loader, which locates it."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=SafeLoader):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > limit:
                    return True
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        pass
    return False


def _too_deep(text: str) -> bool:
    """Whether the document nests more than :data:`MAX_NESTING` deep. Nesting needs a
    bracket or a column of indentation per level, so a file with few brackets and short
    lines (every project file) is passed without reading its events."""
    if text.count("[") + text.count("{") <= MAX_NESTING and max(
            map(len, text.splitlines()), default=0) <= MAX_NESTING:
        return False
    return nests_deeper(text, MAX_NESTING)


def load_yaml_text(text: str, file: str) -> Any:
    """Parse one YAML document safely; raise CardgenError with a location on any problem."""
    if _too_deep(text):
        raise CardgenError(error(
            "yaml-too-deep", f"the document nests more than {MAX_NESTING} levels deep",
            location=Location(file), hint="data files nest a few levels: look for a run of "
            "'[' or '{' or of indentation"))
    loader = SafeLoader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return None
        if "&" in text:  # without an anchor (&name) there is no alias to expand
            _check_expansion(root, file)
        return _Constructor(file, loader, Source(text, file)).build(root)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Location(file, mark.line + 1, mark.column + 1) if mark else Location(file)
        problem = exc.problem or exc.context or "invalid YAML"
        raise CardgenError(
            error("yaml-syntax", f"YAML syntax error: {problem}", location=where,
                  hint="check indentation, colons and quotes around this line")
        ) from None
    except yaml.YAMLError as exc:
        raise CardgenError(error("yaml-syntax", f"YAML error: {exc}", location=Location(file))) from None
    except RecursionError:
        raise CardgenError(
            error("yaml-too-deep", "the document is nested too deeply", location=Location(file))
        ) from None
    finally:
        loader.dispose()


def load_yaml_file(path: Path, display: str | None = None) -> Any:
    name = display or str(path)
    return load_yaml_bytes(read_input(path, name), name)


def load_yaml_bytes(raw: bytes, name: str) -> Any:
    """:func:`load_yaml_text` of a file's bytes, which must be UTF-8."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CardgenError(
            error("file-encoding", f"file is not UTF-8 ({exc.reason} at byte {exc.start})",
                  location=Location(name), hint="save the file as UTF-8")
        ) from None
    return load_yaml_text(text, name)
