"""The data against the facts the rulebook fixes (card_data/rules/facts.yaml).

Each fact names a rule, quotes it, and says one thing of a card, a place or the game
(see the head of facts.yaml). A disagreement is one ``rule-fact`` error at the data's
file:line, naming the fact's file:line, its rule and its quote; a fact the checker cannot
read is a ``fact-shape`` error at the fact.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any, NamedTuple, cast

from ..data.model import LANGS, Card, CardLine, Effect, GameData, Place, walk
from ..errors import Finding, Location, error
from ..wording.templates import TextError, normalize, renderer

FACTS_FILE = "card_data/rules/facts.yaml"
META = ("rule", "quote", "line")
CARD_KEYS = ("year", "kind", "side", "types", "name", "line_name", "effect", "uncounterable")
PLACE_KEYS = ("stability", "bonus", "links", "supply_links", "name", "city", "side", "kind")
GAME_KEYS = ("counts", "phase_changes_after", "rules_version", "set_aside", "years",
             # what board, token and aid texts restate (cardgen/check/restated.py)
             "values", "words", "labels", "tokens")
#: The ``extra`` key of a rule-fact finding that a card text may follow from: what it
#: fixes, "<card id>:<line kind>" for an effect, "<id>:name" for a name, "<place id>:links"
#: for supply lines.
FIXES = "fixes"
#: The ``extra`` key of a rule-fact finding on a value written in several places (a name in
#: both languages; an effect missing from a line, and the line): the other locations,
#: space-separated, where another check's finding only repeats it.
ALSO_AT = "also_at"


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
                hint: str | None = None, extra: dict[str, str] | None = None,
                shown: str | None = None) -> Finding:
        return error("rule-fact", f"{what}: the data has {shown or _show(data_has)}, but rule "
                     f"{self.rule} fixes {_show(self.value(what))} (fact at {self.where}: "
                     f"\"{self.quote}\")", location=location, card=card, rule=self.rule,
                     hint=hint or f"change the data, or, if the rules changed, the fact in "
                     f"{FACTS_FILE} with the rulebook version", extra=extra or {})

    def names_differ(self, what: str, text: Any, want: Any, owner: Location,
                     card: str | None = None, key: str | None = None) -> Iterator[Finding]:
        """One finding for a name the rulebook fixes, however many languages differ."""
        wrong = [lang for lang in LANGS if not _same_name(text.get(lang) if text else None,
                                                          (want or {}).get(lang))]
        if not wrong:
            return

        def listed(get: Callable[[str], Any]) -> str:
            return ", ".join(f"{_show(get(lang))} ({lang})" for lang in wrong)
        yield error("rule-fact", f"{what}: the data has "
                    f"{listed(lambda lang: text.get(lang) if text else None)}, the rulebook "
                    f"names it {listed(lambda lang: (want or {}).get(lang))} (rule {self.rule}, "
                    f"fact at {self.where}: \"{self.quote}\")",
                    location=text.at(wrong[0]) if text else owner, card=card,
                    lang=wrong[0] if len(wrong) == 1 else None, rule=self.rule,
                    hint="use the rulebook's name in both languages",
                    extra={**({FIXES: key} if key else {}), **({ALSO_AT: " ".join(
                        str(text.at(lang)) for lang in wrong[1:])} if text and wrong[1:]
                        else {})})

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


def _ops(value: Any) -> bool:
    """Whether a fact's parameter is a list of ops (nested effects: ``then`` …)."""
    return isinstance(value, list) and bool(value) and all(isinstance(w, dict) for w in value)


def _built(pattern: dict, loc: Location) -> Effect:
    """The effect ``pattern`` states, for a line that lacks it outright."""
    return Effect(str(pattern["op"]), {k: tuple(_built(w, loc) for w in v) if _ops(v) else v
                                       for k, v in pattern.items() if k != "op"}, loc)


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
        if _ops(want):
            nested = have if isinstance(have, tuple) else ()
            if not all(any(_matches(data, e, w) for e in walk(nested)) for w in want):
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
        if _ops(want):
            nested = list(walk(have if isinstance(have, tuple) else ()))
            for w in want:
                if any(_matches(data, e, w) for e in nested):
                    continue
                same_op = [e for e in nested if e.op == w.get("op")]
                return _where_differs(data, same_op[0], w) if same_op else effect.at(key)
        elif not _same(have, want):
            return effect.at(key)
    return effect.loc


def swap_effect(effects: tuple[Effect, ...], old: Effect, new: Effect) -> tuple[Effect, ...]:
    """``effects`` with ``old`` (found by identity, at any depth) replaced by ``new``."""
    out = []
    for effect in effects:
        if effect is old:
            out.append(new)
            continue
        params = {k: swap_effect(v, old, new) if isinstance(v, tuple) and all(
            isinstance(e, Effect) for e in v) else v for k, v in effect.params.items()}
        out.append(effect if params == effect.params else replace(effect, params=params))
    return tuple(out)


def _put_right(data: GameData, effect: Effect, pattern: dict) -> Effect:
    """``effect`` with every parameter ``pattern`` fixes set as it fixes it (a nested
    effect the pattern names and ``effect`` lacks added at the end of its list)."""
    params = dict(effect.params)
    for key, want in pattern.items():
        if key == "op":
            continue
        if _ops(want):
            nested: tuple[Effect, ...] = (cast("tuple[Effect, ...]", params.get(key))
                                          if isinstance(params.get(key), tuple) else ())
            for w in want:
                if any(_matches(data, e, w) for e in walk(nested)):
                    continue
                same = next((e for e in walk(nested) if e.op == w.get("op")), None)
                nested = swap_effect(nested, same, _put_right(data, same, w)) if same is not None \
                    else (*nested, _built(w, effect.at(key)))
            params[key] = nested
        elif not _same(_param(data, effect, key), want):
            params[key] = list(want) if isinstance(want, list) else want
    return replace(effect, params=params)


def _records(data: GameData) -> list[Any]:
    raw = data.rule_facts
    facts = raw.get("facts") if isinstance(raw, dict) else None
    return [rec for rec in facts if isinstance(rec, dict)] if isinstance(facts, list) else []


class Ruled(NamedTuple):
    """A line as the rulebook facts fix it: one line per place an added effect may take."""

    lines: list[CardLine]
    rules: list[str]
    #: an effect was missing outright (or inside another): the parameters its fact leaves
    #: open are unknown, so its canonical text says only what the rule fixes.
    added: bool


def rulebook_line(data: GameData, card: Card, line: CardLine) -> Ruled | None:
    """``line`` with its effects as the rulebook facts fix them (None when it breaks none).
    The text check compares the written text with these lines' canonical texts, so an
    effect changed against the rulebook, or removed, is one ``rule-fact``, not a text
    finding too."""
    options, rules, added = [line.effects], [], False
    for rec in _records(data):
        want = rec.get("effect")
        if not (rec.get("card") == card.id and isinstance(want, dict) and "op" in want
                and rec.get("line") in (None, line.kind)):
            continue
        if any(_matches(data, e, want) for ln in card.lines if rec.get("line") in (None, ln.kind)
               for e in walk(ln.effects)):
            continue
        near = next((e for e in walk(line.effects) if e.op == want["op"]), None)
        if near is not None:
            right = _put_right(data, near, want)
            options = [swap_effect(o, near, right) for o in options]
            added |= len(list(walk((right,)))) > len(list(walk((near,))))
        elif any(e.op == want["op"] for ln in card.lines for e in walk(ln.effects)):
            continue  # the broken effect is on another line
        else:
            options = [o for old in options for o in _with(data, old, want, line.at("effects"))]
            added = True
        rules.append(str(rec.get("rule")))
    return Ruled([replace(line, effects=o) for o in options], rules, added) if rules else None


def _with(data: GameData, effects: tuple[Effect, ...], want: dict, at: Location
          ) -> list[tuple[Effect, ...]]:
    """``effects`` with the effect ``want`` states in each place it may take: a condition
    removed from around its consequence holds it again, one whose consequence the fact
    leaves open (its required ``then`` …) holds the rest of the line."""
    built = _built(want, at)
    for key, inner in want.items():
        kept = [e for e in effects if _ops(inner) and any(_matches(data, e, w) for w in inner)]
        if kept:
            i = next(n for n, e in enumerate(effects) if e is kept[0])
            rest = tuple(e for e in effects if all(e is not k for k in kept))
            return [(*rest[:i], replace(built, params={**built.params, key: tuple(kept)}),
                     *rest[i:])]
    spec = ((data.schema.get("ops") or {}).get(built.op) or {}).get("params") or {}
    open_ = next((k for k, v in spec.items() if isinstance(v, dict) and v.get("type") ==
                  "effects" and v.get("required") and k not in built.params), None)
    if open_ is None:
        return [(*effects[:i], built, *effects[i:]) for i in range(len(effects) + 1)]
    return [(*effects[:i], replace(built, params={**built.params, open_: effects[i:]}))
            for i in range(len(effects))]


def rulebook_data(data: GameData) -> tuple[GameData, list[str], list[str]] | None:
    """The data with every card and place named, and every supply line drawn, as the
    rulebook facts fix them; the keys of the facts it breaks ("<id>:name", "<id>:links")
    and their rules; None when it breaks none. The text check compares written texts with
    this data's canonical texts, so a renamed card is one ``rule-fact``, not a text finding
    on every line that names it too."""
    cards: dict[str, Card] = {}
    places: dict[str, Place] = {}
    keys: list[str] = []
    rules: list[str] = []

    def put_links(place: Place, links: list) -> None:
        places[place.id] = replace(place, attrs={**place.attrs, "links": links})
    for rec in _records(data):
        pid = str(rec.get("place"))
        subject = data.card(str(rec["card"])) if "card" in rec else places.get(
            pid, data.places.get(pid))
        if subject is None:
            continue
        before = len(keys)
        want = rec.get("name")
        if isinstance(want, dict) and not all(_same_name(subject.name.get(lang), want.get(lang))
                                              for lang in LANGS):
            named = replace(subject, name=replace(subject.name, values={
                **subject.name.values, **{str(k): str(v) for k, v in want.items()}}))
            if isinstance(named, Card):
                cards[named.id] = named
            else:
                places[named.id] = named
            subject = named
            keys.append(f"{named.id}:name")
        if isinstance(subject, Place) and isinstance(rec.get("links"), list) and not _same(
                subject.attrs.get("links"), rec["links"]):
            put_links(subject, list(rec["links"]))
            keys.append(f"{pid}:links")
        if isinstance(subject, Place) and isinstance(rec.get("supply_links"), int):
            beyond = _feeding({**data.places, **places}, pid)[rec["supply_links"]:]
            for extra in beyond:
                put_links(extra, [c for c in extra.attrs.get("links") or () if c != pid])
            keys += [f"{pid}:links"] if beyond else []
        rules += [str(rec.get("rule"))] * (len(keys) - before)
    if not keys:
        return None
    return (replace(data, cards=tuple(cards.get(c.id, c) for c in data.cards),
                    places={k: places.get(k, p) for k, p in data.places.items()}), keys, rules)


def _feeding(places: dict[str, Place], country: str) -> list[Place]:
    """The battlegrounds whose supply line feeds ``country`` (8.41)."""
    return [p for p in places.values() if country in (p.attrs.get("links") or [])]


def _unlike_its_effects(data: GameData, lines: list[CardLine]) -> CardLine | None:
    """The first line whose written text is not its effects' canonical text in a language:
    where an effect removed outright was."""
    for ln in lines:
        for lang in LANGS:
            written = ln.text.get(lang) if ln.text else None
            try:
                if written and normalize(written) != normalize(renderer(data, lang).line(ln)):
                    return ln
            except TextError:
                continue
    return None


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
            if any(_matches(data, e, want) for ln in lines for e in walk(ln.effects)):
                continue
            near = [(ln, e) for ln in lines for e in walk(ln.effects)
                    if e.op == want["op"]]
            on = near[0][0] if near else _unlike_its_effects(data, lines) or (
                lines[0] if lines else None)
            where = _where_differs(data, near[0][1], want) if near else (
                on.at("effects") if on else card.loc)
            yield fact.differs("effect", near[0][1] if near else None, where, card.id,
                               f"the effect must be {_pattern_text(want)}",
                               {FIXES: f"{card.id}:{on.kind}", **({} if near else {
                                   ALSO_AT: str(on.loc)})} if on else None,
                               None if near else f"no '{want['op']}' effect" + (
                                   f" on the {on.kind} line" if on else ""))
        elif key in ("name", "line_name"):
            text = card.name if key == "name" else next(
                (ln.name for ln in card.lines if ln.kind == (kind or "deed")), None)
            yield from fact.names_differ("name" if key == "name" else "Deed name", text, want,
                                         card.loc, card.id, f"{card.id}:name" if key == "name" else None)
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
            value = getattr(card, key, None)
            if value != want:
                yield fact.differs(key, value, card.at(key), card.id)


def _place_fact(data: GameData, fact: _Fact, place: Place) -> Iterator[Finding]:
    rec = fact.rec
    for key in PLACE_KEYS:
        if key not in rec:
            continue
        want = rec[key]
        if key == "supply_links":
            feeding = _feeding(data.places, place.id)
            if len(feeding) != want:
                wrong = feeding[want:] if len(feeding) > want else []
                where = wrong[0].locs.get("links", wrong[0].loc) if wrong else place.loc
                fed = ", ".join(f"{p.id} at {p.locs.get('links', p.loc)}" for p in feeding) or "none"
                yield fact.differs(f"supply_links of {place.id}", None, where,
                                   hint=f"battlegrounds' `links:` in places.yaml: {place.id} "
                                   f"is fed by {want} (8.41)", extra={FIXES: f"{place.id}:links"},
                                   shown=f"{len(feeding)} ({fed})")
        elif key in ("name", "city"):
            yield from fact.names_differ(f"{key} of {place.id}", place.name if key == "name"
                                         else place.attrs.get("city"), want,
                                         place.loc, key=f"{place.id}:name" if key == "name" else None)
        else:
            have = place.attrs.get(key)
            if not _same(have, want):
                yield fact.differs(f"{key} of {place.id}", have, place.locs.get(key, place.loc),
                                   extra={FIXES: f"{place.id}:links"} if key == "links" else None)


def _game_fact(data: GameData, fact: _Fact) -> Iterator[Finding]:
    rec = fact.rec
    for name, want in (rec.get("counts") or {}).items():
        have = data.game.counts.get(name)
        if have != want:
            yield fact.differs(f"counts.{name}", have,
                               data.game.locs.get(name, data.game.loc),
                               hint=f"counts.{name} in game.yaml is what the rulebook says")
    if "phase_changes_after" in rec:
        ends = [p.rounds[-1] for p in data.phases[:-1] if p.rounds]
        if ends != list(rec["phase_changes_after"]):
            bad = next((p for p, r in zip(data.phases, rec["phase_changes_after"], strict=False)
                        if p.rounds and p.rounds[-1] != r), data.phases[0] if data.phases
                       else None)
            yield fact.differs("phase_changes_after", ends,
                               bad.locs.get("rounds", bad.loc) if bad else data.game.loc,
                               hint="the phases' `rounds` in game.yaml")
    if "set_aside" in rec and sorted(data.game.set_aside) != sorted(rec["set_aside"]):
        yield fact.differs("set_aside", list(data.game.set_aside),
                           data.game.locs.get("set_aside", data.game.loc),
                           hint="`set_aside:` in game.yaml")
    span = rec.get("years")
    if isinstance(span, list) and len(span) == 2:
        for card in data.cards:
            if isinstance(card.year, int) and not span[0] <= card.year <= span[1]:
                yield fact.differs("years", card.year, card.at("year"), card.id,
                                   hint=f"an event year lies in the game's span, "
                                   f"{span[0]}–{span[1]}", shown=f"{card.year}, outside")
    if "rules_version" in rec and data.game.rules_version != rec["rules_version"]:
        yield fact.differs("rules_version", data.game.rules_version,
                           data.game.locs.get("rules_version", data.game.loc))


def _shape(fact: _Fact, problem: str) -> Finding:
    return error("fact-shape", f"rule fact: {problem}", location=fact.where, rule=fact.rule or None,
                 hint=f"see the head of {FACTS_FILE}")


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
