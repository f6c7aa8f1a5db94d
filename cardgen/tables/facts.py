"""What the rulebook's tables say, language-neutral: ids, counts and rule numbers.

:func:`inventory` asserts that its totals are the physical counts the checks enforce
(``counts`` in game.yaml) and the number of tokens the token sheets print; a mismatch is
one :class:`~cardgen.errors.CardgenError` with every difference, never a wrong table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..data.model import INVENTORY_GROUPS, Card, CardLine, Effect, GameData, walk
from ..errors import CardgenError, Finding, error

SIDES = ("luxembourg", "wittelsbach")


@dataclass(frozen=True)
class Part:
    """One item of a table cell's contents: ``count`` of the thing ``ref`` of kind ``kind``
    (card, shield, reminder, value; ``value`` refs are denominations)."""

    count: int
    kind: str
    ref: str


@dataclass(frozen=True)
class Entry:
    """One inventory line. ``per`` (side, currency) means ``parts`` are per side or per
    currency and ``count`` is already multiplied out."""

    key: str
    count: int
    parts: tuple[Part, ...] = ()
    per: str | None = None
    prototype: bool = False


@dataclass(frozen=True)
class Inventory:
    cards: tuple[Entry, ...]
    card_total: int
    components: tuple[Entry, ...]  # the board, then markers and tokens
    component_total: int  # markers and tokens (what the token sheets print)


@dataclass(frozen=True)
class Country:
    """A country's row; each ``*_prototype`` says whether that cell is a prototype value
    (True) or one the rulebook fixes (card_data/rules/facts.yaml)."""

    id: str
    kind: str
    stability: int
    battlegrounds: tuple[str, ...]
    stability_prototype: bool
    links_prototype: bool


@dataclass(frozen=True)
class Battleground:
    id: str
    bonus: str
    links: tuple[str, ...]
    battle_event: str | None
    bonus_prototype: bool
    links_prototype: bool


@dataclass(frozen=True)
class Check:
    """A card line that checks a shield (11.4), with its ``if_shield`` effects."""

    card: str
    line: str
    hooks: tuple[Effect, ...]


@dataclass(frozen=True)
class ShieldFacts:
    id: str
    holder: str
    location: str | None
    checks: tuple[Check, ...]
    #: effects of the event that placed the shield which the schema allows on a passive
    #: line: the lasting state an event shield stands for (11.7)
    states: tuple[Effect, ...]
    rules: tuple[str, ...]


def rule_key(rule: str) -> tuple[int, ...]:
    return tuple(int(x) for x in rule.split(".") if x.isdigit())


def _card_order(data: GameData) -> list[Card]:
    decks = ("luxembourg", "wittelsbach", "market")
    return sorted(data.cards, key=lambda c: (decks.index(c.deck) if c.deck in decks else 9,
                                             c.number, c.id))


# --- 2.1 Inventory ----------------------------------------------------------------------

def inventory(data: GameData, tokens: dict[str, Any], printed_tokens: int) -> Inventory:
    """Cards per group (every card in exactly one) and the board and tokens of
    components.yaml; ``printed_tokens`` is how many tokens the token sheets print."""
    problems: list[Finding] = []
    cards = _card_order(data)
    card_rows = []
    for key, (rule, pick) in INVENTORY_GROUPS.items():
        group = [c for c in cards if pick(c)]
        count = sum(c.copies for c in group)
        card_rows.append(Entry(key, count, tuple(Part(c.copies, "card", c.id) for c in group)))
        expected = data.game.counts.get(key)
        if expected is not None and expected != count:
            problems.append(error("table-inventory", f"2.1 Inventory: {key.replace('_', ' ')} "
                                  f"add up to {count}, game.yaml expects {expected}",
                                  location=data.game.locs.get(key, data.game.loc), rule=rule))
    for card in cards:
        groups = [k for k, (_r, pick) in INVENTORY_GROUPS.items() if pick(card)]
        if len(groups) != 1:
            problems.append(error("table-inventory", f"card '{card.id}' is in {len(groups)} "
                                  "inventory groups, not one", location=card.loc, card=card.id,
                                  rule="2.1", hint="check its deck and kind"))
    card_total = sum(e.count for e in card_rows)
    physical = data.game.counts.get("physical_cards")
    if physical is not None and physical != card_total:
        problems.append(error("table-inventory", f"2.1 Inventory: the cards add up to "
                              f"{card_total}, game.yaml expects {physical}",
                              location=data.game.locs.get("physical_cards", data.game.loc),
                              rule="2.1"))
    components = _components(data, tokens)
    component_total = sum(e.count for e in components if e.key != "board")
    if component_total != printed_tokens:
        problems.append(error("table-inventory", f"2.1 Inventory: the markers and tokens add "
                              f"up to {component_total}, the token sheets print "
                              f"{printed_tokens}", rule="2.1"))
    if problems:
        raise CardgenError(problems)
    return Inventory(tuple(card_rows), card_total, components, component_total)


def _components(data: GameData, q: dict[str, Any]) -> tuple[Entry, ...]:
    """Board and tokens: quantities of components.yaml are prototype values (game.yaml)."""
    proto = data.game.prototype
    sides = len(SIDES)
    currencies = [cid for cid in data.currencies if cid != "any"]
    shield_each = int(q.get("shield_markers", 1))

    def denominations(kind: str) -> tuple[Part, ...]:
        return tuple(Part(int(n), "value", str(v)) for v, n in sorted((q.get(kind) or {}).items()))

    fixed = fixed_by_rules(data, "game", "tokens")
    shields_fixed = "shield_markers" in fixed and "shields" in fixed_by_rules(data, "game", "counts")
    out = [Entry("board", 1),
           Entry("shield_markers", shield_each * len(data.shields),
                 tuple(Part(shield_each, "shield", sid) for sid in data.shields), None,
                 _prototype(data, shields_fixed))]
    for key in ("round_marker", "loyalty_marker", "card_play_marker"):
        out.append(Entry(key, int(q.get(key, 1)), (), None, _prototype(data, key in fixed)))
    votes = int(q.get("vote_markers", 0))
    out.append(Entry("vote_markers", votes * sides, (Part(votes, "count", ""),), "side", proto))
    for kind in ("influence", "military"):
        parts = denominations(kind)
        out.append(Entry(kind, sides * sum(p.count for p in parts), parts, "side", proto))
    parts = denominations("currency")
    out.append(Entry("currency", len(currencies) * sum(p.count for p in parts), parts,
                     "currency_each", proto))
    reminders = tuple(Part(int(r.get("count", 1)), "reminder", str(r["id"]))
                      for r in q.get("reminders") or [])
    out.append(Entry("reminders", sum(p.count for p in reminders), reminders, None, proto))
    return tuple(out)


# --- what the rulebook fixes --------------------------------------------------------------

def _fact_records(data: GameData) -> list[dict]:
    raw = data.rule_facts
    facts = raw.get("facts") if isinstance(raw, dict) else None
    return [r for r in facts or () if isinstance(r, dict)]


def fixed_by_rules(data: GameData, subject: str, key: str) -> set[str]:
    """The ids of the ``subject`` ("place", "game") whose ``key`` a rule fact fixes; for
    ``game`` facts, the names under ``key`` ("counts", "tokens")."""
    out: set[str] = set()
    for rec in _fact_records(data):
        if subject == "game" and isinstance(rec.get(key), dict):
            out |= {str(k) for k in rec[key]}
        elif subject in rec and key in rec:
            out.add(str(rec[subject]))
    return out


def _prototype(data: GameData, fixed: bool) -> bool:
    """A value is a prototype value unless the rulebook fixes it."""
    return data.game.prototype and not fixed


# --- 7.2 countries, 8.0 battlegrounds ---------------------------------------------------

def countries(data: GameData) -> tuple[Country, ...]:
    grounds = [p for p in data.places.values() if p.category == "battleground"]
    stable = fixed_by_rules(data, "place", "stability")
    linked = fixed_by_rules(data, "place", "links")
    none = {str(r["place"]) for r in _fact_records(data) if r.get("supply_links") == 0}
    out = []
    for pid, p in data.places.items():
        if p.category != "country":
            continue
        feeding = tuple(bg.id for bg in grounds if pid in (bg.attrs.get("links") or ()))
        links_fixed = pid in none if not feeding else all(b in linked for b in feeding)
        out.append(Country(pid, str(p.attrs.get("kind", "")), int(p.attrs.get("stability", 0)),
                           feeding, _prototype(data, pid in stable),
                           _prototype(data, links_fixed)))
    return tuple(out)


def battlegrounds(data: GameData) -> tuple[Battleground, ...]:
    out = []
    for pid, place in data.places.items():
        if place.category != "battleground":
            continue
        event = next((c.id for c in _card_order(data) if c.kind == "battle_event"
                      and any(e.op == "battle_vote" and e.params.get("battleground") == pid
                              for ln in c.lines for e in walk(ln.effects))), None)
        out.append(Battleground(pid, str(place.attrs.get("bonus", "")),
                                tuple(place.attrs.get("links") or ()), event,
                                _prototype(data, pid in fixed_by_rules(data, "place", "bonus")),
                                _prototype(data, pid in fixed_by_rules(data, "place", "links"))))
    return tuple(out)


# --- 11.5 shields -------------------------------------------------------------------------

def _placing(card: Card, sid: str) -> tuple[CardLine, Effect] | None:
    for line in card.lines:
        for effect in walk(line.effects):
            if effect.op == "place_shield" and effect.params.get("shield") == sid:
                return line, effect
    return None


def shields(data: GameData) -> tuple[ShieldFacts, ...]:
    ops = data.schema.get("ops") or {}
    out = []
    for sid, shield in data.shields.items():
        holder = data.card(shield.holder)
        placed = _placing(holder, sid) if holder else None
        checks: list[Check] = []
        rules: set[str] = set()
        for card in sorted(_card_order(data), key=lambda c: c.id != shield.holder):
            for line in card.lines:
                hooks = [e for e in walk(line.effects)
                         if e.op == "if_shield" and e.params.get("shield") == sid]
                if hooks:
                    checks.append(Check(card.id, line.kind, tuple(hooks)))
                for hook in hooks:
                    rules |= {str(ops.get(e.op, {}).get("rule", "")) for e in walk(hook.params["then"])}
        states: tuple[Effect, ...] = ()
        if holder is not None and holder.is_event and placed is not None:
            states = tuple(e for e in placed[0].effects
                           if "passive" in (ops.get(e.op, {}).get("lines") or ()))
            rules |= {str(ops.get(e.op, {}).get("rule", "")) for e in walk(placed[0].effects)
                      if e is not placed[1]}
        rules.discard("")
        if shield.rules:  # the rules about the shield itself, not those of what it gates
            rules = set(shield.rules)
        out.append(ShieldFacts(sid, shield.holder,
                               str(placed[1].params.get("location")) if placed else None,
                               tuple(checks), states, tuple(sorted(rules, key=rule_key))))
    return tuple(out)
