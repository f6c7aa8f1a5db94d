"""The shapes of card_data's files as the loader reads them: a card's and a line's fields,
the rule schema's and the wording files' structure, rule numbers."""

from __future__ import annotations

import re

from . import model as m
from .fields import Field

LINE_SPEC = {
    "name": Field(dict),
    "effects": Field(list),
    "text": Field(dict),
    "cost": Field(list),
    "mode": Field(str, choices=("adds", "replaces")),
    "uncounterable": Field(bool),
    "wording_exception": Field(dict),
}


CARD_SPEC = {
    "id": Field(str, required=True),
    "number": Field(int, required=True),
    "deck": Field(str, required=True, choices=m.DECKS),
    "kind": Field(str, required=True, choices=m.KINDS),
    "side": Field(str, choices=("luxembourg", "wittelsbach")),
    "copies": Field(int),
    "name": Field(dict, required=True),
    "name_forms": Field(dict),
    "political": Field(int),
    "military": Field(int),
    "yield": Field(list),
    "cost": Field(list),
    "use_cost": Field(int),
    "shield": Field(str),
    "crown": Field(bool),
    "year": Field(int),
    "art": Field(str),
    "prototype": Field(bool),
    "exceptions": Field(list),
    "note": Field(str),
    **{kind: Field(dict) for kind in m.LINE_KINDS},
}


#: One range of the schema's ``ranges`` (cardgen.data.ranges): inclusive bounds, the rule.
RANGE_SHAPE = {"min": "int", "max": "int", "rule?": "string", "doc?": "string"}


#: The shape of card_data/rules/schema.yaml (see cardgen.data.shape): what the checks and the
#: compose stage read from it.
SCHEMA_SHAPE = {
    "default_lines": ["string"],
    "types": {"*": "mapping"},
    "values": {"*": ["string"]},
    "ranges?": {"*": {"*": RANGE_SHAPE}},
    "ops": {"*": {
        "lines?": ["string"],
        "rule?": "string",
        "doc?": "string",
        "params?": {"*": {"type": "string", "required?": "bool", "default?": "any",
                          "values?": ["any"], "min?": "int", "max?": "int"}},
    }},
}


#: A rule number as the rulebook writes it: section.rule or section.rule+case ("5.3", "11.5").
RULE_NUMBER = re.compile(r"\d{1,2}\.\d{1,3}")


#: A glossary term's rules: one number, or several with commas ("5.6, 6.46").
RULE_NUMBERS = re.compile(rf"{RULE_NUMBER.pattern}(?:, {RULE_NUMBER.pattern})*")


#: The shape of card_data/text/<lang>.yaml: tables of wording (the compose stage reads them).
TEXT_SHAPE = {
    "labels": {"*": "words"},
    "ops": {"*": "string"},
    **{f"{table}?": {"*": "string"} for table in ("pile_phrase", "numbers_adj", "directions",
                                                  "deed_ops")},
    **{f"{table}?": {"*": {"*": "string"}} for table in ("types", "nouns", "subjects", "verbs")},
    "clauses?": ["string"],
    "*": "mapping",
}


EXCEPTION_SPEC = {
    "line": Field(str, required=True, choices=m.LINE_KINDS),
    "lang": Field(str, required=True, choices=m.LANGS),
    "reason": Field(str, required=True),
}
