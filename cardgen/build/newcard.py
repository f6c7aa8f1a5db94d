"""``cardgen new card``: a new card record made like an existing one, in one step.

The record is a copy of the model card's source text appended to its deck's file, with its
own id, the deck's next free number and a new name (written through
:func:`~cardgen.data.yamledit.edit_yaml`, so every comment and line of the file stays as it
was). The counts in ``game.yaml`` that the card joins are derived: each one that matched
the data before grows by the card's copies. A count the rulebook itself fixes (a fact in
``rules/facts.yaml``) is not the data's to change: it is named by file:line as a fact to
confirm, and written only with ``rules_change`` (its quote, the rulebook's own words, still
has to be updated by hand).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from copy import deepcopy
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..check.invariants import next_free_number
from ..data.model import INVENTORY_GROUPS, Card
from ..data.project import Project, load_project
from ..data.yamledit import TextEdit, edit_yaml
from ..data.yamlsrc import LocMap
from ..errors import CardgenError, Location, error
from ..files.oserrors import os_errors, read_input
from ..files.safepath import in_project
from ..files.write import rewrite_file

GAME_FILE = "card_data/game.yaml"
FACTS_FILE = "card_data/rules/facts.yaml"
CARDS_DIR = "card_data/cards"
ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass
class NewCard:
    """What :func:`new_card` wrote and what is left to confirm."""

    id: str
    number: int
    at: Location
    changed: list[str] = field(default_factory=list)   # "file:line: what changed"
    confirm: list[str] = field(default_factory=list)   # facts the rulebook must confirm

    def lines(self) -> list[str]:
        return [f"wrote {self.at}: {self.id}, number {self.number}",
                *(f"changed {c}" for c in self.changed),
                *(f"to confirm: {c}" for c in self.confirm),
                f"next: give it its own name, values, cost and Deed at {self.at}, "
                "then run `cardgen check`"]


def _usage(message: str, hint: str) -> CardgenError:
    return CardgenError(error("usage", message, hint=hint))


def _picks() -> dict[str, Callable[[Card], bool]]:
    """Each count of game.yaml a card can be counted in, with who is counted (as the
    checks count, :func:`~cardgen.check.invariants.check_counts`)."""
    return {"physical_cards": lambda c: True, **{k: v[1] for k, v in INVENTORY_GROUPS.items()},
            "counter_cards": lambda c: c.line("counter") is not None}


def _items(root: Node | None, file: str) -> SequenceNode:
    if isinstance(root, MappingNode):
        for key, value in root.value:
            if isinstance(key, ScalarNode) and key.value == "cards" and \
                    isinstance(value, SequenceNode) and not value.flow_style and value.value:
                return value
    raise CardgenError(error("yaml-edit", f"{file} has no block list `cards:` to add to",
                             location=Location(file)))


def _end(node: Node) -> int:
    """Where the last character of ``node``'s content ends (a block mapping's own end
    mark lies past the blank lines and comments after it)."""
    if isinstance(node, ScalarNode) or getattr(node, "flow_style", False):
        return node.end_mark.index
    children = [c for kv in node.value for c in kv] if isinstance(node, MappingNode) else node.value
    return max((_end(c) for c in children), default=node.end_mark.index)


def _record(text: str, file: str, card_id: str) -> tuple[str, str]:
    """The source of ``card_id``'s record (from its ``- `` line to its last value) and the
    indentation of the list's dashes."""
    for item in _items(yaml.compose(text, Loader=yaml.SafeLoader), file).value:
        if isinstance(item, MappingNode) and any(
                isinstance(k, ScalarNode) and k.value == "id" and v.value == card_id
                for k, v in item.value):
            start = text.rfind("\n", 0, item.start_mark.index) + 1
            return text[start:_end(item)], text[start:text.index("-", start)]
    raise CardgenError(error("yaml-edit", f"cannot find the record of {card_id} in {file}",
                             location=Location(file)))


def _scalar_edits(node: Node, file: str, old: dict[str, Any], new_id: str, number: int,
                  deck: str, names: dict[str, str]) -> list[TextEdit]:
    """The edits that turn the copied record (``node``) into the new card's."""
    def loc(n: Node) -> Location:
        return Location(file, n.start_mark.line + 1, n.start_mark.column + 1)

    edits: list[TextEdit] = []
    assert isinstance(node, MappingNode)
    for key, value in node.value:
        k = key.value if isinstance(key, ScalarNode) else None
        if k == "number" and isinstance(value, ScalarNode):
            edits.append(TextEdit(loc(value), number))
        elif k == "deck" and isinstance(value, ScalarNode):
            edits.append(TextEdit(loc(value), deck))
        elif k == "name" and isinstance(value, MappingNode):
            edits += [TextEdit(loc(v), names[lk.value]) for lk, v in value.value
                      if isinstance(v, ScalarNode) and lk.value in names]
    old_names = {lang: str(n) for lang, n in (old.get("name") or {}).items()}
    stack: list[Node] = [node]
    while stack:  # the card's own id where its effects name it, its name in its texts
        n = stack.pop()
        if isinstance(n, MappingNode):
            for key, value in n.value:
                if isinstance(value, ScalarNode) and value.tag.endswith(":str"):
                    if value.value == old["id"]:
                        edits.append(TextEdit(loc(value), new_id))
                    elif isinstance(key, ScalarNode) and key.value in names and \
                            n is not node and old_names.get(key.value, "") and \
                            old_names[key.value] in value.value and \
                            value.value != old_names[key.value]:
                        edits.append(TextEdit(loc(value), value.value.replace(
                            old_names[key.value], names[key.value])))
                else:
                    stack.append(value)
        elif isinstance(n, SequenceNode):
            for v in n.value:
                if isinstance(v, ScalarNode) and v.value == old["id"]:
                    edits.append(TextEdit(loc(v), new_id))
                else:
                    stack.append(v)
    return edits


def _append(project: Project, file: str, like: Card, new_id: str, number: int, deck: str,
            names: dict[str, str]) -> tuple[str, Location]:
    """Append the new record to the cards file ``file``; where it is."""
    path = project.root / file
    text = read_input(path, file).decode("utf-8")
    like_file = like.loc.file
    like_text = text if like_file == file else read_input(project.root / like_file,
                                                          like_file).decode("utf-8")
    source, dash = _record(like_text, like_file, like.id)
    _, own_dash = _record(text, file, _last_id(text, file))
    if dash != own_dash:  # re-indent to this file's list
        source = "\n".join(own_dash + ln[len(dash):] if ln.startswith(dash) else ln
                           for ln in source.split("\n"))
    last = _items(yaml.compose(text, Loader=yaml.SafeLoader), file).value[-1]
    at = _end(last)
    nl = text.find("\n", at)
    at = len(text) if nl < 0 else nl - (nl > 0 and text[nl - 1] == "\r")
    eol = "\r\n" if "\r\n" in text else "\n"
    grown = text[:at] + eol + eol + source.replace("\r\n", "\n").replace("\n", eol) + text[at:]
    if not grown.endswith("\n"):
        grown += eol
    record = _items(yaml.compose(grown, Loader=yaml.SafeLoader), file).value[-1]
    old = _loaded_record(like_text, like.id)
    edits = _scalar_edits(record, file, old, new_id, number, deck, names)
    edited = edit_yaml(grown, edits, file)
    want = yaml.safe_load(text)
    expected = deepcopy(old)
    _retarget(expected, old, new_id, names)
    expected.update(id=new_id, number=number, **({"deck": deck} if "deck" in old else {}),
                    **({"name": {**old["name"], **names}} if "name" in old else {}))
    want["cards"].append(expected)
    if yaml.safe_load(edited) != want:
        raise CardgenError(error("yaml-edit", f"adding the card to {file} would change other "
                                 "values; nothing was written", location=Location(file),
                                 hint=f"copy the record of {like.id} by hand"))
    with os_errors("write", file):
        rewrite_file(path, edited.encode("utf-8"))
    return file, Location(file, record.start_mark.line + 1, record.start_mark.column + 1)


def _last_id(text: str, file: str) -> str:
    last = _items(yaml.compose(text, Loader=yaml.SafeLoader), file).value[-1]
    for k, v in last.value if isinstance(last, MappingNode) else ():
        if k.value == "id":
            return str(v.value)
    raise CardgenError(error("yaml-edit", f"the last record of {file} has no id",
                             location=Location(file)))


def _loaded_record(text: str, card_id: str) -> dict[str, Any]:
    return next(c for c in yaml.safe_load(text)["cards"] if c.get("id") == card_id)


def _retarget(value: Any, old: dict[str, Any], new_id: str, names: dict[str, str]) -> Any:
    """``value`` (the copied record, changed in place) naming the new card where the old
    named itself: what :func:`_scalar_edits` does to the source, done to the values."""
    old_names = old.get("name") or {}
    if isinstance(value, dict):
        for k, v in value.items():
            if v == old["id"]:
                value[k] = new_id
            elif isinstance(v, str) and k in names and value is not old and \
                    old_names.get(k) and old_names[k] in v and v != old_names[k]:
                value[k] = v.replace(old_names[k], names[k])
            else:
                _retarget(v, old, new_id, names)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            if v == old["id"]:
                value[i] = new_id
            else:
                _retarget(v, old, new_id, names)
    return value


def new_card(root: Path, deck: str | None, like: str, card_id: str | None = None,
             names: dict[str, str] | None = None, rules_change: bool = False,
             number: int | None = None) -> NewCard:
    """Add a card like ``like`` to ``deck`` (its deck by default), numbered ``number`` (the
    deck's next free one by default): see the module."""
    project, _findings = load_project(root)  # a card can be added to data with errors
    data = project.data
    model = next((c for c in data.cards if c.id == like), None)
    if model is None:
        raise _usage(f"--like {like}: no card has this id",
                     "name an existing card's id, e.g. --like prague-burghers")
    deck = deck or model.deck
    decks = sorted({c.deck for c in data.cards if isinstance(c.deck, str)})
    if deck not in decks:
        raise _usage(f"--deck {deck}: no such deck", f"one of: {', '.join(decks)}")
    number = number if number is not None else next_free_number(data.cards, deck)
    new_id = card_id or f"new-card-{number}"
    if not ID_RE.match(new_id) or any(c.id == new_id for c in data.cards):
        raise _usage(f"--id {new_id}: " + ("another card has this id" if ID_RE.match(new_id)
                     else "ids are lower-case words joined by hyphens"),
                     "e.g. --id wenceslas-of-luxembourg")
    names = {"en": f"New Card {number}", "cs": f"Nová karta {number}", **(names or {})}
    file = model.loc.file if model.deck == deck else f"{CARDS_DIR}/{deck}.yaml"
    if not (root / file).is_file():
        raise _usage(f"--deck {deck}: {file} not found", "add the card to an existing deck")
    in_project(root / file, root, what="file to edit")
    file, at = _append(project, file, model, new_id, number, deck, names)
    out = NewCard(new_id, number, at)
    _counts(project, replace(model, deck=deck), out, rules_change)
    return out


def _counts(project: Project, card: Card, out: NewCard, rules_change: bool) -> None:
    """Grow the game.yaml counts the card joins; name (or write) the rulebook's facts."""
    data, game = project.data, project.data.game
    edits: list[TextEdit] = []
    picks = _picks()
    grown: dict[str, tuple[int, int]] = {}
    for name, pick in picks.items():
        if name not in game.counts or not pick(card):
            continue
        have = sum(c.copies for c in data.cards if picks[name](c))
        loc = game.locs.get(name, game.loc)
        if have != game.counts[name]:
            out.confirm.append(f"{loc}: counts.{name} is {game.counts[name]} but the data "
                               f"had {have} before this card: left as it is")
            continue
        grown[name] = (have, have + card.copies)
        edits.append(TextEdit(loc, have + card.copies))
        out.changed.append(f"{loc}: counts.{name} {have} → {have + card.copies}")
    if edits:
        _write(project.root, GAME_FILE, edits)
    fact_edits = []
    for fact in _count_facts(project):
        for name, (loc, value) in fact["counts"].items():
            if name not in grown or value != grown[name][0]:
                continue
            said = f"rule {fact['rule']} fixes {name} {value} (\"{fact['quote']}\")"
            if rules_change:
                fact_edits.append(TextEdit(loc, grown[name][1]))
                out.changed.append(f"{loc}: {said} → {grown[name][1]}")
                out.confirm.append(f"{fact['at']}: the quote of rule {fact['rule']} is the old "
                                   "rulebook's: quote the new one")
            else:
                out.confirm.append(f"{loc}: {said}; if the rulebook now has "
                                   f"{grown[name][1]}, change it there with its quote (or run "
                                   "again with --rules-change)")
    if fact_edits:
        _write(project.root, FACTS_FILE, fact_edits)


def _count_facts(project: Project) -> list[dict[str, Any]]:
    """The count facts of rules/facts.yaml, each count with the location of its number."""
    try:
        raw = project.documents.read(FACTS_FILE)
    except CardgenError:
        return []
    out = []
    for rec in (raw.get("facts") or []) if isinstance(raw, dict) else []:
        counts = rec.get("counts") if isinstance(rec, LocMap) else None
        if not isinstance(counts, LocMap) or rec.get("game") != "counts":
            continue
        quote = rec.get("quote")
        out.append({"rule": rec.get("rule"), "at": rec.loc,
                    "quote": " / ".join(map(str, quote.values())) if isinstance(quote, dict)
                    else quote, "counts": {k: (counts.locs[k], v) for k, v in counts.items()
                                           if isinstance(v, int)}})
    return out


def _write(root: Path, file: str, edits: list[TextEdit]) -> None:
    path = root / file
    text = read_input(path, file).decode("utf-8")
    with os_errors("write", file):
        rewrite_file(path, edit_yaml(text, edits, file).encode("utf-8"))
