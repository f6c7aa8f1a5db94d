"""Declarative checks for the shape of YAML records: known keys, types, required fields.

Each problem becomes a Finding with the value's file:line:col and, for an unknown key,
the nearest valid key.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import Finding, Location, error
from .yamlsrc import LocList, LocMap

TYPE_NAMES = {
    int: "a whole number",
    str: "a text",
    bool: "true or false",
    list: "a list",
    dict: "a mapping",
}


#: The one pattern of ids (cards, places, currencies, shields, glossary terms): lower-case
#: ASCII letters, digits and single hyphens, starting with a letter. Ids name files
#: (art/<id>.png, output PNGs), PO contexts and text tokens (:shield-<id>:), so nothing else
#: may reach them: no "/", "..", spaces, capitals or control characters.
ID_PATTERN = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
ID_MAX = 64


def id_findings(value: Any, where: Location, what: str) -> list[Finding]:
    """An error at ``where`` unless ``value`` is a valid id (:data:`ID_PATTERN`)."""
    if isinstance(value, str) and len(value) <= ID_MAX and ID_PATTERN.fullmatch(value):
        return []
    shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:50] + f"… ({len(value)} characters)"
    return [error("bad-id", f"the {what} id {shown} is not a valid id", location=where,
                  hint=f"ids are lower-case letters a-z, digits and single hyphens, start with a "
                  f"letter and have at most {ID_MAX} characters, e.g. '{id_like(value)}'")]


def id_like(value: Any) -> str:
    """A valid id close to ``value`` (for the fix hint)."""
    text = re.sub(r"[^a-z0-9]+", "-", str(value).lower()).strip("-")
    text = text if text[:1].isalpha() else f"id-{text}".rstrip("-")
    return text[:ID_MAX].rstrip("-")


#: Characters no printed name or text may hold: C0 and C1 controls (newline and tab
#: included: a card line is one paragraph and they print as missing-glyph boxes), DEL and
#: the Unicode line and paragraph separators.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


#: Characters of one printed text beyond which it cannot be on a card: the largest text
#: box holds about 600 at the minimum size. Longer texts are refused on load and cut to
#: this length in the model, so the checks after it stay quick on any input.
MAX_PRINTED = 2_000


def printable_findings(text: str, where: Location, what: str, lang: str,
                       card: str | None = None) -> list[Finding]:
    """Errors for a printed text longer than any card holds, a control character in it,
    and an empty name."""
    out = []
    if len(text) > MAX_PRINTED:
        out.append(error("text-overflow", f"the {what} is {len(text):,} characters long; no "
                         f"card holds more than {MAX_PRINTED:,}", location=where, card=card,
                         lang=lang, rule="2.36", hint="shorten the text"))
        text = text[:MAX_PRINTED]
    out += control_findings(text, where, what, lang, card)
    if what.endswith("name") and not text.strip():
        out.append(error("empty-name", f"the {what} is empty: its bar would print blank",
                         location=where, card=card, lang=lang, rule="2.35",
                         hint="write the name"))
    return out


def control_findings(text: str, where: Location, what: str, lang: str,
                     card: str | None = None) -> list[Finding]:
    """An error when a printed text holds a control character (:data:`CONTROL`)."""
    bad = sorted(set(CONTROL.findall(text)))
    if not bad:
        return []
    shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in bad)
    return [error("control-character", f"the {what} holds the control character(s) {shown}, "
                  "which would print as boxes", location=where, card=card, lang=lang,
                  hint="write the text on one line without tabs; for a long text use a "
                  "folded block (>-), whose line breaks become spaces")]


@dataclass(frozen=True)
class Field:
    type: type | tuple[type, ...]
    required: bool = False
    choices: tuple[str, ...] | None = None


def suggest(word: str, options: Iterable[str]) -> str | None:
    match = difflib.get_close_matches(str(word), list(options), n=1, cutoff=0.6)
    return match[0] if match else None


def type_name(t: type | tuple[type, ...]) -> str:
    if isinstance(t, tuple):
        return " or ".join(TYPE_NAMES.get(x, x.__name__) for x in t)
    return TYPE_NAMES.get(t, t.__name__)


def is_type(value: Any, t: type | tuple[type, ...]) -> bool:
    types = t if isinstance(t, tuple) else (t,)
    if isinstance(value, bool) and bool not in types:
        return False
    return isinstance(value, types)


def check_record(
    record: Any,
    spec: dict[str, Field],
    where: Location,
    what: str,
    card: str | None = None,
) -> list[Finding]:
    """Check one mapping against ``spec``; return findings (empty when the shape is right)."""
    if not isinstance(record, LocMap):
        return [error("shape", f"{what} must be a mapping of keys to values", location=where, card=card)]
    findings: list[Finding] = []
    for key in record:
        if key not in spec:
            near = suggest(key, spec)
            hint = f"did you mean '{near}'?" if near else f"valid keys: {', '.join(sorted(spec))}"
            findings.append(
                error("unknown-key", f"unknown key '{key}' in {what}",
                      location=record.key_locs.get(key, record.loc), card=card, hint=hint)
            )
    for key, field in spec.items():
        if key not in record:
            if field.required:
                findings.append(
                    error("missing-key", f"{what} needs '{key}' ({type_name(field.type)})",
                          location=record.loc, card=card, hint=f"add '{key}:'")
                )
            continue
        value = record[key]
        if value is None and not field.required:
            continue
        if not is_type(value, field.type):
            findings.append(
                error("wrong-type",
                      f"'{key}' in {what} must be {type_name(field.type)}, not {value!r}",
                      location=record.at(key), card=card)
            )
        elif field.choices is not None and value not in field.choices:
            near = suggest(value, field.choices)
            findings.append(
                error("bad-value",
                      f"'{key}' must be one of: {', '.join(field.choices)}; got '{value}'",
                      location=record.at(key), card=card,
                      hint=f"did you mean '{near}'?" if near else None)
            )
    return findings


def range_findings(record: Any, ranges: Mapping[str, tuple[float, float]], what: str
                   ) -> list[Finding]:
    """Each number of ``record`` named in ``ranges`` lies in its (inclusive) range: a layout
    or profile number far outside what any print needs (``bleed_px: 10000000``) is an error
    at its line, before it sizes an image or a page."""
    out = []
    for key, (low, high) in ranges.items():
        value = record.get(key) if isinstance(record, dict) else None
        if isinstance(value, int | float) and not isinstance(value, bool) and not (
                low <= value <= high):
            out.append(error("bad-value", f"'{key}' in {what} must be from {low:g} to {high:g}, "
                             f"not {value:g}", location=record.at(key)
                             if hasattr(record, "at") else None,
                             hint="check the unit (millimetres, points, pixels)"))
    return out


def bilingual_shape(value: Any, where: Location, what: str, langs: tuple[str, ...],
                    card: str | None = None) -> list[Finding]:
    """A {en: ..., cs: ...} mapping of strings; a missing language is reported elsewhere."""
    spec = {lang: Field(str) for lang in langs}
    return check_record(value, spec, where, what, card)


def items(value: Any) -> list[tuple[Any, Location]]:
    """(item, location) pairs of a LocList, or of nothing."""
    if isinstance(value, LocList):
        return list(zip(value, value.locs, strict=True))
    return []
