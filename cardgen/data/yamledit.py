"""Surgical YAML editing: change the card files' text scalars (and the numbers `cardgen
balance --apply` proposes) and nothing else.

:func:`edit_yaml` replaces only the characters of the scalars it is asked to change (found
by their file:line:col) and can add a missing key to a mapping, with a scalar or a mapping of
scalars as its value; comments, key order, quoting and formatting of everything else stay
byte for byte, and the edited document must load back to the same values with only the edits
changed. ``cardgen check --fix`` (:mod:`cardgen.translate.fix`), ``cardgen check --fill``
(:func:`cardgen.wording.compose.fill_texts`) and the PO import (:mod:`cardgen.translate.po`)
all write through it.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..errors import CardgenError, Finding, Location, error
from ..files.oserrors import os_errors, read_input
from ..files.safepath import in_project
from ..files.write import rewrite_file

STR_TAG = "tag:yaml.org,2002:str"
INT_TAG = "tag:yaml.org,2002:int"


@dataclass(frozen=True)
class TextEdit:
    """Set the string at ``loc`` to ``value`` (an int sets an integer scalar; a tuple of
    strings replaces a flow sequence of strings, e.g. a cost ``[church, german]``).

    ``loc`` is the location of the scalar to replace; with ``key`` set, it is the location
    of a mapping that gets ``key: value`` added (a language missing so far, or a whole
    ``text:`` mapping when ``value`` is a mapping of strings). ``style`` is the quoting of
    new scalars: ``'"'`` double-quotes them; by default they are plain where YAML allows.
    """

    loc: Location
    value: str | int | tuple[str, ...] | Mapping[str, str]
    key: str | None = None
    style: str | None = None


# --------------------------------------------------------------------------------------
# Reading the node tree with positions
# --------------------------------------------------------------------------------------


def _compose(text: str, file: str) -> Node | None:
    try:
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise CardgenError(error("yaml-syntax", f"cannot edit {file}: {exc}",
                                 location=Location(file))) from None


def _walk(node: Node | None, flow: bool = False) -> Iterator[tuple[Node, bool]]:
    """Every node in document order with whether it sits inside a flow collection."""
    if node is None:
        return
    yield node, flow
    if isinstance(node, SequenceNode):
        for child in node.value:
            yield from _walk(child, flow or bool(node.flow_style))
    elif isinstance(node, MappingNode):
        for key, value in node.value:
            yield from _walk(key, flow or bool(node.flow_style))
            yield from _walk(value, flow or bool(node.flow_style))


def _pos(node: Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _scalars(text: str, file: str) -> list[tuple[str, str]]:
    return [(n.tag, n.value) for n, _ in _walk(_compose(text, file)) if isinstance(n, ScalarNode)]


# --------------------------------------------------------------------------------------
# Writing one scalar
# --------------------------------------------------------------------------------------


def _double(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # JSON strings are YAML double-quoted scalars


def _single(value: str) -> str | None:
    return None if "\n" in value else "'" + value.replace("'", "''") + "'"


def _plain(value: str) -> str | None:
    return value if value and "\n" not in value and value == value.strip() else None


def _block(value: str, original: str) -> str | None:
    """Re-emit a literal or folded block scalar with its header and indentation."""
    header, _, body = original.partition("\n")
    lines = [ln for ln in body.split("\n") if ln.strip()]
    if not lines:
        return None
    indent = cast(re.Match[str], re.match(r"[ ]*", lines[0])).group()  # matches "" at least
    tail = original[len(original.rstrip()):]
    content = value.rstrip("\n")
    if header.lstrip().startswith("|"):
        out = content.split("\n")
    else:
        if "\n" in content or "  " in content:
            return None
        width = max(len(ln) for ln in lines)
        out = textwrap.wrap(content, width=max(width - len(indent), 20), break_long_words=False,
                            break_on_hyphens=False) or [""]
    return header + "\n" + "\n".join(indent + ln for ln in out) + tail


def _valid(rendered: str, value: str, flow: bool, block: bool) -> bool:
    doc = "- [" + rendered + "]" if flow else "k: " + rendered
    try:
        node = yaml.compose(doc, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return False
    if flow:
        node = node.value[0] if isinstance(node, SequenceNode) and node.value else None
        inner = node.value if isinstance(node, SequenceNode) else []
        if len(inner) != 1:
            return False
        node = inner[0]
    else:
        node = node.value[0][1] if isinstance(node, MappingNode) and len(node.value) == 1 else None
    if not isinstance(node, ScalarNode) or node.tag != STR_TAG:
        return False
    got = node.value.rstrip("\n") if block else node.value
    return got == (value.rstrip("\n") if block else value)


def render_scalar(value: str, node: ScalarNode | None, original: str, flow: bool,
                  new_style: str | None = None) -> str:
    """``value`` as YAML source in the original scalar's style (``new_style`` for a new one)
    where possible."""
    style = node.style if node is not None else new_style
    candidates: list[tuple[str | None, bool]] = []
    if style in ("|", ">"):
        candidates.append((_block(value, original), True))
    elif style == "'":
        candidates.append((_single(value), False))
    elif style is None:
        candidates.append((_plain(value), False))
    candidates.append((_double(value), False))
    for rendered, block in candidates:
        if rendered is not None and _valid(rendered, value, flow, block):
            if block:
                return rendered
            if style in ("|", ">"):  # a block scalar replaced inline keeps its line end
                return rendered + original[len(original.rstrip()):]
            return rendered
    return _double(value)


# --------------------------------------------------------------------------------------
# Editing a file
# --------------------------------------------------------------------------------------


def edit_yaml(text: str, edits: Iterable[TextEdit], file: str) -> str:
    """``text`` with every edit applied and nothing else changed.

    Raises CardgenError when an edit's location names no scalar (or mapping), or when the
    edited document would not load back to the same values with only the edits changed.
    """
    root = _compose(text, file)
    nodes = {(_pos(n), isinstance(n, MappingNode)): (n, flow) for n, flow in _walk(root)}
    before = _scalars(text, file)
    patches: list[tuple[int, int, str]] = []  # (start, end, new source)
    changes: list[tuple[str, str]] = []  # (old value or "" for a new key, new value)
    tagged: list[tuple[list[tuple[str, str]], list[tuple[str, str]]]] = []  # (removed, added)
    for edit in edits:
        pos = (edit.loc.line, edit.loc.col)
        if edit.key is None and not isinstance(edit.value, str | Mapping):
            patch = _number_or_list(text, nodes, edit)
            if patch is not None:
                patches.append(patch[0])
                tagged.append(patch[1])
            continue
        if edit.key is None:
            if not isinstance(edit.value, str):
                raise CardgenError(error("yaml-edit", "only a new key can take a mapping",
                                         location=edit.loc))
            found = nodes.get((pos, False))
            if found is None or not isinstance(found[0], ScalarNode):
                raise CardgenError(error("yaml-edit", "no text to replace here",
                                         location=edit.loc))
            node, flow = cast("tuple[ScalarNode, bool]", found)  # a scalar: checked above
            if node.value == edit.value:
                continue
            start, end = node.start_mark.index, node.end_mark.index
            new = render_scalar(edit.value, node, text[start:end], flow)
            patches.append((start, end, new))
            changes.append((node.value, edit.value))
        else:
            found = nodes.get((pos, True))
            if found is None:
                raise CardgenError(error("yaml-edit", "no mapping to add a text to here",
                                         location=edit.loc))
            patches.append(_insertion(text, cast(MappingNode, found[0]), edit))  # (pos, True): a mapping
            changes.append(("", edit.key))
            if isinstance(edit.value, str):
                changes.append(("", edit.value))
            else:
                changes += [("", s) for item in cast("Mapping[str, str]", edit.value).items() for s in item]
    if not patches:
        return text
    for start, end, new in sorted(patches, reverse=True):
        text = text[:start] + new + text[end:]
    _verify(before, _scalars(text, file), changes, file, tagged)
    return text


def _number_or_list(text: str, nodes: dict, edit: TextEdit
                    ) -> tuple[tuple[int, int, str], tuple[list, list]] | None:
    """The patch of an integer scalar or a flow sequence of strings, with the tagged
    scalars it removes and adds; None when the value is already there."""
    found = nodes.get(((edit.loc.line, edit.loc.col), False))
    node = found[0] if found else None
    if isinstance(edit.value, int) and not isinstance(edit.value, bool):
        if not isinstance(node, ScalarNode) or node.tag != INT_TAG:
            raise CardgenError(error("yaml-edit", "no whole number to replace here",
                                     location=edit.loc))
        if int(node.value) == edit.value:
            return None
        new = str(edit.value)
        return ((node.start_mark.index, node.end_mark.index, new),
                ([(INT_TAG, node.value)], [(INT_TAG, new)]))
    if not isinstance(node, SequenceNode) or not node.flow_style or not all(
            isinstance(n, ScalarNode) and n.tag == STR_TAG for n in node.value):
        raise CardgenError(error("yaml-edit", "no list of words written [a, b] to replace here",
                                 location=edit.loc))
    old = [n.value for n in node.value]
    values = [str(v) for v in cast("tuple[str, ...]", edit.value)]  # not a number: a list
    if old == values:
        return None
    new = "[" + ", ".join(render_scalar(v, None, "", True) for v in values) + "]"
    return ((node.start_mark.index, node.end_mark.index, new),
            ([(STR_TAG, v) for v in old], [(STR_TAG, v) for v in values]))


def _insertion(text: str, mapping: MappingNode, edit: TextEdit) -> tuple[int, int, str]:
    # an added value is a string or a mapping of strings (TextEdit)
    key, value, style = edit.key, cast("str | Mapping[str, str]", edit.value), edit.style

    def flow_value() -> str:
        if isinstance(value, str):
            return render_scalar(value, None, "", True, style)
        return "{" + ", ".join(f"{k}: {render_scalar(v, None, '', True, style)}"
                               for k, v in value.items()) + "}"

    if mapping.flow_style:
        if mapping.value:
            at = mapping.value[-1][1].end_mark.index
            return at, at, f", {key}: {flow_value()}"
        at = mapping.start_mark.index + 1
        return at, at, f"{key}: {flow_value()}"
    first_key = mapping.value[0][0]
    indent = " " * first_key.start_mark.column
    end = mapping.value[-1][1].end_mark.index
    while end > 0 and text[end - 1] in " \t\r\n":
        end -= 1
    nl = text.find("\n", end)
    at = len(text) if nl < 0 else nl
    if nl > 0 and text[nl - 1] == "\r":
        at = nl - 1
    eol = "\r\n" if "\r\n" in text else "\n"
    if isinstance(value, str):
        return at, at, f"{eol}{indent}{key}: {render_scalar(value, None, '', False, style)}"
    block = "".join(f"{eol}{indent}  {k}: {render_scalar(v, None, '', False, style)}"
                    for k, v in value.items())
    return at, at, f"{eol}{indent}{key}:{block}"


def _verify(before: list[tuple[str, str]], after: list[tuple[str, str]],
            changes: list[tuple[str, str]], file: str,
            tagged: Iterable[tuple[list[tuple[str, str]], list[tuple[str, str]]]] = ()) -> None:
    """``after`` must hold ``before``'s values with exactly ``changes`` (old → new) made,
    and the ``tagged`` scalars (removed, added) of numbers and lists."""
    want = Counter(before)
    for old, new in changes:
        if old:
            want[(STR_TAG, old)] -= 1
        want[(STR_TAG, new)] += 1
    for removed, added in tagged:
        want.subtract(removed)
        want.update(added)
    if +want != Counter(after) or len(after) != sum(want.values()):
        raise CardgenError(error("yaml-edit", "editing this file would change other values; "
                                 "nothing was written", location=Location(file),
                                 hint="edit the text by hand"))


@dataclass
class EditOutcome:
    """What :func:`edit_files` did: the files written and the edits in them, and the files
    left as they were with the findings that say why."""

    changed: list[Path] = field(default_factory=list)
    applied: list[TextEdit] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def edit_files(project: Path, edits: Iterable[TextEdit]) -> EditOutcome:
    """Apply text edits file by file; a file that cannot be edited is reported and left as
    it was, the others are still written (each in place, see :func:`rewrite_file`)."""
    by_file: dict[str, list[TextEdit]] = defaultdict(list)
    for edit in edits:
        by_file[edit.loc.file].append(edit)
    outcome = EditOutcome()
    for file, file_edits in sorted(by_file.items()):
        path = Path(file) if Path(file).is_absolute() else project / file
        try:
            in_project(path, project, what="file to edit")
            text = read_input(path, file).decode("utf-8")
            new = edit_yaml(text, file_edits, file)
            if new != text:
                with os_errors("write", file):
                    rewrite_file(path, new.encode("utf-8"))
                outcome.changed.append(path)
        except CardgenError as exc:
            outcome.findings.extend(exc.findings)
            continue
        except UnicodeDecodeError:
            outcome.findings.append(error("file-encoding", "file is not UTF-8; nothing was written",
                                          location=Location(file), hint="save the file as UTF-8"))
            continue
        outcome.applied.extend(file_edits)
    return outcome


def apply_edits(project: Path, edits: Iterable[TextEdit]) -> list[Path]:
    """Apply text edits to the files under ``project``; return the files that changed.

    Raises with every file's findings when any file could not be edited (the others are
    written all the same)."""
    outcome = edit_files(project, edits)
    if outcome.findings:
        raise CardgenError(outcome.findings)
    return outcome.changed
