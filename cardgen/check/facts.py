"""The data against the facts the rulebook fixes (card_data/rules/facts.yaml).

Each fact names a rule, quotes it, and says one thing of a card, a place or the game
(see the head of facts.yaml). A disagreement is one ``rule-fact`` error at the data's
file:line, naming the fact's file:line, its rule and its quote; a fact the checker cannot
read is a ``fact-shape`` error at the fact.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

from ..compose import normalize
from ..errors import Finding, Location, error
from ..model import LANGS, Card, CardLine, Effect, GameData, Place

FACTS_FILE = "card_data/rules/facts.yaml"
META = ("rule", "quote", "line")
CARD_KEYS = ("year", "kind", "side", "types", "name", "line_name", "effect", "uncounterable")
PLACE_KEYS = ("stability", "bonus", "links", "supply_links", "name", "city", "side", "kind")
GAME_KEYS = ("counts", "phase_changes_after", "rules_version", "set_aside")
#: The ``extra`` key of a rule-fact finding about an effect: "<card id>:<line kind>".
EFFECT_OF = "effect_of"


class _Fact:
    """One fact as read: its location, rule and quote, for the findings about it."""

    def __init__(self, rec: Any, where: Location):
        self.rec = rec
        self.where = where
        self.rule = str(rec.get("rule") or "")
        quote = rec.get("quote")
        self.quote = " / ".join(str(v) for v in quote.values()) if isinstance(quote, dict) \
            else str(quote or "")

    def at(self, key: str) -> Location:
        return self.rec.at(key) if hasattr(self.rec, "at") else self.where

    def differs(self, what: str, data_has: Any, location: Location, card: str | None = None,
                hint: str | None = None, extra: dict[str, str] | None = None) -> Finding:
        return error("rule-fact", f"{what}: the data has {_show(data_has)}, but rule "
                     f"{self.rule} fixes {_show(self.value(what))} (fact at {self.where}: "
                     f"\"{self.quote}\")", location=location, card=card, rule=self.rule,
                     hint=hint or f"change the data, or, if the rules changed, the fact in "
                     f"{FACTS_FILE} with the rulebook version", extra=extra or {})

    def value(self, what: str) -> Any:
        """The fact's value for ``what`` ("stability", "counts.market_cards", "name cs")."""
        node: Any = self.rec
        for key in what.split(" ", 1)[0].split("."):
            node = node.get(key) if isinstance(node, dict) else None
        return node


def _show(value: Any) -> str:
    if isinstance(value, Effect):
        return _effect_text(value)
    if isinstance(value, dict):
        if "op" in value:
            return _pattern_text(value)
        return ", ".join(f"{k}: {_show(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if value is None:
        return "nothing"
    return repr(value) if isinstance(value, str) else str(value)


def _pattern_text(pattern: dict) -> str:
    params = ", ".join(f"{k}: {_show(v)}" for k, v in pattern.items() if k != "op")
    return f"{{op: {pattern['op']}{', ' + params if params else ''}}}"


def _effect_text(effect: Effect) -> str:
    return _pattern_text({"op": effect.op, **effect.params})


# --- effects ------------------------------------------------------------------------


def _all_effects(effects: Iterable[Effect]) -> Iterator[Effect]:
    for effect in effects:
        yield effect
        for value in effect.params.values():
            if isinstance(value, tuple) and all(isinstance(e, Effect) for e in value):
                yield from _all_effects(value)


def _param(data: GameData, effect: Effect, name: str) -> Any:
    if name in effect.params:
        return effect.params[name]
    spec = ((data.schema.get("ops") or {}).get(effect.op) or {}).get("params") or {}
    return (spec.get(name) or {}).get("default")


def _same_name(a: str | None, b: Any) -> bool:
    """Names compare with plain and non-breaking spaces alike."""
    return a is not None and isinstance(b, str) and normalize(a) == normalize(b)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _matches(data: GameData, effect: Effect, pattern: dict) -> bool:
    if effect.op != pattern.get("op"):
        return False
    for key, want in pattern.items():
        if key == "op":
            continue
        have = _param(data, effect, key)
        if isinstance(want, list) and want and all(isinstance(w, dict) for w in want):
            nested = have if isinstance(have, tuple) else ()
            if not all(any(_matches(data, e, w) for e in _all_effects(nested)) for w in want):
                return False
        elif not _same(have, want):
            return False
    return True


def _where_differs(data: GameData, effect: Effect, pattern: dict) -> Location:
    """The location of the first parameter of ``effect`` that ``pattern`` does not match,
    looking into nested effects: where the fix belongs."""
    for key, want in pattern.items():
        if key == "op":
            continue
        have = _param(data, effect, key)
        if isinstance(want, list) and want and all(isinstance(w, dict) for w in want):
            nested = list(_all_effects(have if isinstance(have, tuple) else ()))
            for w in want:
                if any(_matches(data, e, w) for e in nested):
                    continue
                same_op = [e for e in nested if e.op == w.get("op")]
                return _where_differs(data, same_op[0], w) if same_op else effect.at(key)
        elif not _same(have, want):
            return effect.at(key)
    return effect.loc


def _swap(effects: tuple[Effect, ...], old: Effect, new: Effect) -> tuple[Effect, ...]:
    """``effects`` with ``old`` (found by identity, at any depth) replaced by ``new``."""
    out = []
    for effect in effects:
        if effect is old:
            out.append(new)
            continue
        params = {k: _swap(v, old, new) if isinstance(v, tuple) and all(
            isinstance(e, Effect) for e in v) else v for k, v in effect.params.items()}
        out.append(effect if params == effect.params else replace(effect, params=params))
    return tuple(out)


def _put_right(data: GameData, effect: Effect, pattern: dict) -> Effect | None:
    """``effect`` with every parameter ``pattern`` fixes set as it fixes it (None when a
    nested effect the pattern names is missing: nothing to put right)."""
    params = dict(effect.params)
    for key, want in pattern.items():
        if key == "op":
            continue
        if isinstance(want, list) and want and all(isinstance(w, dict) for w in want):
            nested = params.get(key) if isinstance(params.get(key), tuple) else ()
            for w in want:
                if any(_matches(data, e, w) for e in _all_effects(nested)):
                    continue
                same = next((e for e in _all_effects(nested) if e.op == w.get("op")), None)
                right = _put_right(data, same, w) if same is not None else None
                if right is None:
                    return None
                nested = _swap(nested, same, right)
            params[key] = nested
        elif not _same(_param(data, effect, key), want):
            params[key] = list(want) if isinstance(want, list) else want
    return replace(effect, params=params)


def rulebook_line(data: GameData, card: Card, line: CardLine) -> tuple[CardLine, list[str]] | None:
    """``line`` with its effects as the rulebook facts fix them, and the rules of the facts
    it breaks; None when it breaks none, or one whose effect is missing (nothing to put
    right). The text check compares the written text with this line's canonical text, so
    an effect changed against the rulebook is one ``rule-fact``, not a text finding too."""
    raw = data.rule_facts
    facts = raw.get("facts") if isinstance(raw, dict) else None
    effects, rules = line.effects, []
    for rec in facts if isinstance(facts, list) else ():
        if not (isinstance(rec, dict) and rec.get("card") == card.id
                and isinstance(rec.get("effect"), dict) and rec.get("line") in (None, line.kind)):
            continue
        want = rec["effect"]
        if any(_matches(data, e, want) for ln in card.lines if rec.get("line") in (None, ln.kind)
               for e in _all_effects(ln.effects)):
            continue
        near = next((e for e in _all_effects(effects) if e.op == want.get("op")), None)
        if near is None:
            if any(e.op == want.get("op") for ln in card.lines for e in _all_effects(ln.effects)):
                continue  # the broken effect is on another line
            return None
        right = _put_right(data, near, want)
        if right is None:
            return None
        effects = _swap(effects, near, right)
        rules.append(str(rec.get("rule")))
    return (replace(line, effects=effects), rules) if rules else None


# --- subjects -----------------------------------------------------------------------


def _card_fact(data: GameData, fact: _Fact, card: Card) -> Iterator[Finding]:
    rec = fact.rec
    kind = rec.get("line")
    lines = [ln for ln in card.lines if kind is None or ln.kind == kind]
    for key in CARD_KEYS:
        if key not in rec:
            continue
        want = rec[key]
        if key == "effect":
            if not isinstance(want, dict) or "op" not in want:
                yield _shape(fact, "'effect' must be an op with parameters: {op: ..., ...}")
                continue
            if any(_matches(data, e, want) for ln in lines for e in _all_effects(ln.effects)):
                continue
            near = [(ln, e) for ln in lines for e in _all_effects(ln.effects)
                    if e.op == want["op"]]
            where = _where_differs(data, near[0][1], want) if near else (
                lines[0].at("effects") if lines else card.loc)
            has = near[0][1] if near else f"no '{want['op']}' effect" + (
                f" on the {kind} line" if kind else "")
            on = near[0][0] if near else (lines[0] if lines else None)
            yield fact.differs("effect", has, where, card.id,
                               f"the effect must be {_pattern_text(want)}",
                               {EFFECT_OF: f"{card.id}:{on.kind}"} if on else None)
        elif key in ("name", "line_name"):
            text = card.name if key == "name" else next(
                (ln.name for ln in card.lines if ln.kind == (kind or "deed")), None)
            for lang in LANGS:
                have = text.get(lang) if text else None
                if not _same_name(have, (want or {}).get(lang)):
                    yield error("rule-fact", f"{'name' if key == 'name' else 'Deed name'} "
                                f"({lang}): the data has {_show(have)}, the rulebook names it "
                                f"{_show((want or {}).get(lang))} (rule {fact.rule}, fact at "
                                f"{fact.where}: \"{fact.quote}\")",
                                location=text.at(lang) if text else card.loc, card=card.id,
                                lang=lang, rule=fact.rule,
                                hint="use the rulebook's name in both languages")
        elif key == "types":
            if list(card.types) != list(want or []):
                yield fact.differs("types", list(card.types), card.at("yield"), card.id,
                                   "a card's type is its printed yield (5.5)")
        elif key == "uncounterable":
            event = card.line("event")
            have = bool(event and event.attrs.get("uncounterable"))
            if have != bool(want):
                yield fact.differs("uncounterable", have, event.loc if event else card.loc,
                                   card.id)
        else:
            have = getattr(card, key, None)
            if have != want:
                yield fact.differs(key, have, card.at(key), card.id)


def _place_fact(data: GameData, fact: _Fact, place: Place) -> Iterator[Finding]:
    rec = fact.rec
    for key in PLACE_KEYS:
        if key not in rec:
            continue
        want = rec[key]
        if key == "supply_links":
            feeding = [p for p in data.places.values()
                       if place.id in (p.attrs.get("links") or [])]
            if len(feeding) != want:
                wrong = feeding[want:] if len(feeding) > want else []
                where = wrong[0].locs.get("links", wrong[0].loc) if wrong else place.loc
                fed = ", ".join(f"{p.id} at {p.locs.get('links', p.loc)}" for p in feeding) or "none"
                yield fact.differs("supply_links", f"{len(feeding)} ({fed})", where,
                                   hint=f"battlegrounds' `links:` in places.yaml: {place.id} "
                                   f"is fed by {want} (8.41)")
        elif key in ("name", "city"):
            text = place.name if key == "name" else place.attrs.get("city")
            for lang in LANGS:
                have = text.get(lang) if text else None
                if not _same_name(have, (want or {}).get(lang)):
                    yield error("rule-fact", f"{key} ({lang}) of {place.id}: the data has "
                                f"{_show(have)}, the rulebook says {_show((want or {}).get(lang))} "
                                f"(rule {fact.rule}, fact at {fact.where}: \"{fact.quote}\")",
                                location=text.at(lang) if text else place.loc, lang=lang,
                                rule=fact.rule, hint="use the rulebook's name in both languages")
        else:
            have = place.attrs.get(key)
            if not _same(have, want):
                yield fact.differs(key, have, place.locs.get(key, place.loc))


def _game_fact(data: GameData, fact: _Fact) -> Iterator[Finding]:
    rec = fact.rec
    for name, want in (rec.get("counts") or {}).items():
        have = data.game.counts.get(name)
        if have != want:
            yield fact.differs(f"counts.{name}", have,
                               data.game.locs.get(name, data.game.loc),
                               hint=f"counts.{name} in game.yaml is what the rulebook says")
    if "phase_changes_after" in rec:
        have = [p.rounds[-1] for p in data.phases[:-1] if p.rounds]
        if have != list(rec["phase_changes_after"]):
            bad = next((p for p, r in zip(data.phases, rec["phase_changes_after"], strict=False)
                        if p.rounds and p.rounds[-1] != r), data.phases[0] if data.phases
                       else None)
            yield fact.differs("phase_changes_after", have,
                               bad.locs.get("rounds", bad.loc) if bad else data.game.loc,
                               hint="the phases' `rounds` in game.yaml")
    if "set_aside" in rec and sorted(data.game.set_aside) != sorted(rec["set_aside"]):
        yield fact.differs("set_aside", list(data.game.set_aside),
                           data.game.locs.get("set_aside", data.game.loc),
                           hint="`set_aside:` in game.yaml")
    if "rules_version" in rec and data.game.rules_version != rec["rules_version"]:
        yield fact.differs("rules_version", data.game.rules_version,
                           data.game.locs.get("rules_version", data.game.loc))


def _shape(fact: _Fact, problem: str) -> Finding:
    return error("fact-shape", f"rule fact: {problem}", location=fact.where, rule=fact.rule or None,
                 hint=f"see the head of {FACTS_FILE}")


Subject = Callable[[GameData, _Fact], Iterable[Finding]]


def _one(data: GameData, fact: _Fact) -> Iterable[Finding]:
    rec = fact.rec
    if not isinstance(rec, dict):
        return [_shape(fact, "each fact is a mapping")]
    if not fact.rule or not fact.quote:
        return [_shape(fact, "a fact needs its 'rule' and the quoted rule text ('quote')")]
    subjects = [k for k in ("card", "place", "game") if k in rec]
    if len(subjects) != 1:
        return [_shape(fact, "a fact names exactly one of: card, place, game")]
    subject = subjects[0]
    allowed = {"card": CARD_KEYS, "place": PLACE_KEYS, "game": GAME_KEYS}[subject]
    unknown = [k for k in rec if k not in (*META, subject, *allowed)]
    if unknown:
        return [_shape(fact, f"unknown key '{unknown[0]}' for a {subject} fact "
                       f"(use: {', '.join(allowed)})")]
    if subject == "card":
        card = data.card(str(rec["card"]))
        if card is None:
            return [error("rule-fact", f"the rulebook's card '{rec['card']}' is not in the "
                          f"data (rule {fact.rule}: \"{fact.quote}\")", location=fact.at("card"),
                          rule=fact.rule, hint="add the card, or correct the id in the fact")]
        return _card_fact(data, fact, card)
    if subject == "place":
        place = data.places.get(str(rec["place"]))
        if place is None:
            return [error("rule-fact", f"the rulebook's place '{rec['place']}' is not in "
                          f"places.yaml (rule {fact.rule}: \"{fact.quote}\")",
                          location=fact.at("place"), rule=fact.rule)]
        return _place_fact(data, fact, place)
    return _game_fact(data, fact)


def check_rule_facts(data: GameData) -> list[Finding]:
    """Every fact of card_data/rules/facts.yaml against the data."""
    raw = data.rule_facts
    if raw is None:
        return []
    where = getattr(raw, "loc", Location(FACTS_FILE))
    if not isinstance(raw, dict) or not isinstance(raw.get("facts"), list):
        return [error("fact-shape", "facts.yaml needs 'rulebook: <version>' and a 'facts:' "
                      "list", location=where, hint=f"see the head of {FACTS_FILE}")]
    out: list[Finding] = []
    if str(raw.get("rulebook")) != data.game.rules_version:
        out.append(error("rule-fact", f"facts.yaml is for rulebook {raw.get('rulebook')}, "
                         f"game.yaml for {data.game.rules_version}",
                         location=raw.at("rulebook") if hasattr(raw, "at") else where,
                         hint="re-read the facts against the new rulebook, then update "
                         "'rulebook:'"))
    facts = raw["facts"]
    for i, rec in enumerate(facts):
        loc = facts.at(i) if hasattr(facts, "at") else where
        out.extend(_one(data, _Fact(rec, loc)))
    return out
