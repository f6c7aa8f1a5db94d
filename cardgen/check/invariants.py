"""Invariants of the game's card set, each citing the rule it enforces.

Counts come from card_data/game.yaml (``counts``), so a designer who changes the game
changes a number there, not this code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from ..data.model import INVENTORY_GROUPS, LINE_KINDS, Card, GameData
from ..errors import Finding, Location, error, warning

CardCheck = Callable[[GameData, Card], Iterable[Finding]]


def _is_starter(card: Card) -> bool:
    return card.deck in ("luxembourg", "wittelsbach")


def _is_market_card(card: Card) -> bool:
    return card.deck == "market" and not card.is_event


def check_identity(data: GameData) -> list[Finding]:
    out: list[Finding] = []
    seen: dict[str, Card] = {}
    numbers: dict[tuple[str, int], Card] = {}
    for card in data.cards:
        if card.id in seen:
            out.append(error("duplicate-id", f"card id '{card.id}' is used twice "
                             f"(first at {seen[card.id].loc})", location=card.at("id"),
                             card=card.id, hint="give each card record its own id"))
        seen.setdefault(card.id, card)
        key = (card.deck, card.number)
        if not isinstance(card.deck, str) or not isinstance(card.number, int):
            continue  # a wrongly typed deck or number is reported where it is loaded
        if key in numbers:
            other = numbers[key]
            free = next_free_number(data.cards, card.deck)
            out.append(error("duplicate-number",
                             f"number {card.number} in deck {card.deck} is also on '{other.id}' "
                             f"at {other.at('number')}",
                             location=card.at("number"), card=card.id, rule="2.36",
                             hint=f"printed numbers are unique within a deck: the next free "
                             f"number in {card.deck} is {free}"))
        numbers.setdefault(key, card)
    return out


def next_free_number(cards: Iterable[Card], deck: str) -> int:
    """The number after the highest in ``deck`` (its events' included: one numbering, 2.36)."""
    return 1 + max((c.number for c in cards if c.deck == deck and isinstance(c.number, int)),
                   default=0)


#: A count error lists the cards that make it when there are at most this many.
LISTED_CARDS = 12


def _count_loc(card: Card, count: str) -> Location:
    """Where a card makes a count: its Counter line for the Counter count, else the card."""
    if count == "counter_cards" and card.line("counter") is not None:
        return card.locs.get("key:counter", card.loc)
    return card.loc


def check_counts(data: GameData) -> list[Finding]:
    counts = data.game.counts
    groups: dict[str, tuple[str, Callable[[Card], bool]]] = {
        "physical_cards": ("2.1", lambda c: True),
        **INVENTORY_GROUPS,
        "counter_cards": ("5.6", lambda c: c.line("counter") is not None),
    }
    out = []
    for name, (rule, pick) in groups.items():
        if name not in counts:
            continue
        picked = [c for c in data.cards if pick(c)]
        found = sum(c.copies for c in picked)
        if found != counts[name]:
            label = name.replace("_", " ")
            listed = "; ".join(f"{c.id}{f' x{c.copies}' if c.copies > 1 else ''} at "
                               f"{_count_loc(c, name)}" for c in picked)
            cards = f" — the cards: {listed or 'none'}" if len(picked) <= LISTED_CARDS else ""
            out.append(error("inventory-count",
                             f"{label}: the data has {found}, game.yaml expects {counts[name]}"
                             f"{cards}",
                             location=data.game.locs.get(name, data.game.loc), rule=rule,
                             hint=f"add or remove cards, or change counts.{name} in game.yaml"))
    if "shields" in counts and len(data.shields) != counts["shields"]:
        out.append(error("inventory-count",
                         f"shields: shields.yaml has {len(data.shields)}, "
                         f"game.yaml expects {counts['shields']}",
                         location=data.game.locs.get("shields", data.game.loc), rule="11.5"))
    return out


def _boost(data: GameData, card: Card) -> Iterable[Finding]:
    boost = card.line("boost")
    if boost and not (_is_market_card(card) or card.kind == "king"):
        yield error("boost-not-allowed", "only market cards and the two kings carry a boost",
                    location=boost.loc, card=card.id, rule="5.74",
                    hint="remove the boost line or move the card to the market deck")
    if boost and card.line("deed") is None:
        yield error("boost-without-deed", "a boost belongs to a Deed; this card has none",
                    location=boost.loc, card=card.id, rule="5.71")


def _cost(data: GameData, card: Card) -> Iterable[Finding]:
    if _is_starter(card) and card.cost:
        yield error("starter-cost", "starter cards have no cost", location=card.at("cost"),
                    card=card.id, rule="2.34", hint="remove 'cost:'")
    if _is_market_card(card) and not card.cost:
        yield error("market-cost", "a market card needs a cost", location=card.loc,
                    card=card.id, rule="2.34", hint="add 'cost: [coins]'")
    if card.is_event and card.cost:
        yield error("event-cost", "events are never bought and have no cost",
                    location=card.at("cost"), card=card.id, rule="6.4")
    for coin in card.cost:
        if coin not in data.currencies:
            yield error("unknown-currency", f"unknown currency '{coin}' in cost",
                        location=card.at("cost"), card=card.id,
                        hint=f"use one of: {', '.join(data.currencies)}")


def _yield(data: GameData, card: Card) -> Iterable[Finding]:
    for coin in card.yields:
        if coin not in data.currencies:
            yield error("unknown-currency", f"unknown currency '{coin}' in yield",
                        location=card.at("yield"), card=card.id,
                        hint=f"use one of: {', '.join(data.currencies)}")
    if card.kind == "king" and card.yields != ("any",):
        yield error("king-yield", "the kings yield 'any' currency and have no type",
                    location=card.at("yield"), card=card.id, rule="5.51", hint="yield: [any]")
    if card.kind != "king" and "any" in card.yields:
        yield error("any-yield", "only the kings yield 'any' currency",
                    location=card.at("yield"), card=card.id, rule="5.51")
    if card.kind == "john":
        if card.yields:
            yield error("john-yield", "John yields no currency", location=card.at("yield"),
                        card=card.id, rule="10.2", hint="yield: []")
        expected = data.game.counts.get("john_use_cost", 3)
        if card.use_cost != expected:
            yield error("john-use-cost", f"using John costs {expected} currency of any type",
                        location=card.at("use_cost") if "use_cost" in card.locs else card.loc,
                        card=card.id, rule="10.2", hint=f"use_cost: {expected}")
    elif card.use_cost is not None:
        yield error("use-cost", "only John has a cost to use", location=card.at("use_cost"),
                    card=card.id, rule="10.2")
    playable = not card.is_event and card.kind not in ("john",)
    if playable and not card.yields:
        yield error("no-yield", "a playable card yields currency (its yield sets its type)",
                    location=card.loc, card=card.id, rule="5.5", hint="add 'yield: [...]'")


def _retinue(data: GameData, card: Card) -> Iterable[Finding]:
    if card.kind != "retinue":
        return
    if card.political or card.military:
        yield error("retinue-values", "Retinues have 0 political and 0 military",
                    location=card.loc, card=card.id, rule="2.37")
    if card.lines:
        yield error("retinue-text", "Retinues have no text", location=card.lines[0].loc,
                    card=card.id, rule="2.37", hint="remove the text lines")
    expected = data.game.counts.get("retinue_copies")
    if expected and card.copies != expected:
        yield error("retinue-copies", f"each side has {expected} Retinues",
                    location=card.at("copies") if "copies" in card.locs else card.loc,
                    card=card.id, rule="3.31", hint=f"copies: {expected}")


def _values(data: GameData, card: Card) -> Iterable[Finding]:
    if card.is_event:
        for key in ("political", "military"):
            if key in card.locs:
                yield error("event-values", "events have no political or military value",
                            location=card.at(key), card=card.id, rule="2.39")
        if card.year is None:
            yield error("event-year", "an event card shows its year", location=card.loc,
                        card=card.id, rule="2.39", hint="add 'year: 13xx'")
        if card.line("event") is None:
            yield error("event-line", "an event card needs its effect line",
                        location=card.loc, card=card.id, rule="2.39")
        return
    for key in ("political", "military"):
        if getattr(card, key) is None:
            yield error("missing-value", f"a playable card needs its {key} value",
                        location=card.loc, card=card.id, rule="2.31" if key == "political"
                        else "2.32", hint=f"add '{key}: 0' or higher")
    if card.line("event") is not None:
        yield error("event-line", "only event cards have an event line",
                    location=card.line("event").loc, card=card.id, rule="2.39")  # type: ignore[union-attr]
    if (card.kind != "retinue" and not card.political and not card.military
            and card.line("deed") is None):
        yield warning("no-use", "a 0/0 card without a Deed can only be played for its currency",
                      location=card.loc, card=card.id, rule="5.23")


def _shield(data: GameData, card: Card) -> Iterable[Finding]:
    acquire, passive = card.line("acquire"), card.line("passive")
    if card.shield is not None and card.shield not in data.shields:
        yield error("unknown-shield", f"unknown shield '{card.shield}'",
                    location=card.at("shield"), card=card.id,
                    hint=f"use one of: {', '.join(data.shields)}")
    if acquire and card.shield is None:
        yield error("acquire-without-shield", "a 'When acquired:' line places the card's shield, "
                    "but the card has no 'shield:'", location=acquire.loc, card=card.id,
                    rule="11.1", hint="add 'shield: <id>' or remove the line")
    if card.shield and not card.is_event:
        if acquire is None:
            yield error("shield-without-acquire", "a card with a shield needs its "
                        "'When acquired:' line", location=card.at("shield"), card=card.id,
                        rule="11.1")
        if passive is None:
            yield error("shield-without-passive", "the shield's passive line must follow its "
                        "'When acquired:' line", location=card.at("shield"), card=card.id,
                        rule="2.36")
    if card.shield and card.is_event and passive is not None:
        yield error("event-passive", "an event's shield state is described in its event line",
                    location=passive.loc, card=card.id, rule="11.7")
    if passive and card.shield is None and not (
            passive.effects and all(e.op == "if_shield" for e in passive.effects)):
        # a card affected by another's shield says "If [shield] is in …" (11.4, Heinrich)
        yield error("passive-without-shield", "a passive needs the shield that gives it, or "
                    "must be a check of another card's shield ('If [shield] is in …', 11.4)",
                    location=passive.loc, card=card.id, rule="11.1")
    shield = data.shields.get(card.shield or "")
    if shield and shield.holder != card.id:
        yield error("shield-holder", f"shield '{shield.id}' belongs to '{shield.holder}' "
                    "in shields.yaml", location=card.at("shield"), card=card.id, rule="11.5")


def _line_order(data: GameData, card: Card) -> Iterable[Finding]:
    present = [k for k in LINE_KINDS if f"key:{k}" in card.locs]
    by_position = sorted(present, key=lambda k: card.locs[f"key:{k}"])
    if present != by_position:
        wrong = next(a for a, b in zip(by_position, present, strict=True) if a != b)
        yield warning("line-order", f"text lines are printed in the order {', '.join(present)}; "
                      f"the file lists them as {', '.join(by_position)}",
                      location=card.locs[f"key:{wrong}"], card=card.id, rule="2.36",
                      hint="reorder the keys so the file reads like the card")


def _uncounterable(data: GameData, card: Card) -> Iterable[Finding]:
    event = card.line("event")
    if event is None:
        return
    says = bool(event.attrs.get("uncounterable"))
    must = card.id in data.game.uncounterable_events
    if must and not says:
        yield error("must-be-uncounterable",
                    "this event cannot be countered and its card must say so",
                    location=event.loc, card=card.id, rule="6.46",
                    hint="add 'uncounterable: true' to the event line")
    if says and not must:
        yield error("uncounterable-list", "only the events listed in game.yaml "
                    "'uncounterable_events' say they cannot be countered",
                    location=event.at("uncounterable"), card=card.id, rule="6.46")


def _side(data: GameData, card: Card) -> Iterable[Finding]:
    if card.side is not None and card.side not in data.sides:
        yield error("unknown-side", f"unknown side '{card.side}'", location=card.at("side"),
                    card=card.id)
    if _is_starter(card) and card.side != card.deck:
        yield error("starter-side", f"a {card.deck} starter card has side: {card.deck}",
                    location=card.at("side") if "side" in card.locs else card.loc,
                    card=card.id, rule="3.3", hint=f"side: {card.deck}")


CARD_CHECKS: tuple[CardCheck, ...] = (
    _boost, _cost, _yield, _retinue, _values, _shield, _line_order, _uncounterable, _side,
)


def check_set_aside(data: GameData) -> list[Finding]:
    """game.yaml `set_aside` names starter cards (3.32)."""
    ids = {c.id: c for c in data.cards}
    where = data.game.locs.get("set_aside", data.game.loc)
    return [error("set-aside", f"set_aside: '{cid}' is not a starter card", location=where,
                  rule="3.32", hint="list starter cards set aside at setup")
            for cid in data.game.set_aside
            if cid not in ids or not _is_starter(ids[cid])]


def check_shield_holders(data: GameData) -> list[Finding]:
    out = []
    ids = {c.id for c in data.cards}
    for shield in data.shields.values():
        if shield.holder not in ids:
            out.append(error("shield-holder", f"shield '{shield.id}' names holder "
                             f"'{shield.holder}', which is not a card", location=shield.loc,
                             rule="11.5"))
    placed = Counter(c.shield for c in data.cards if c.shield)
    for sid, n in placed.items():
        if n > 1:
            out.append(error("shield-twice", f"shield '{sid}' is placed by {n} cards",
                             location=data.shields[sid].loc if sid in data.shields
                             else Location("card_data/shields.yaml"), rule="11.5"))
    return out


def check_invariants(data: GameData) -> list[Finding]:
    out = check_identity(data) + check_counts(data) + check_shield_holders(data)
    out += check_set_aside(data)
    for card in data.cards:
        for check in CARD_CHECKS:
            out.extend(check(data, card))
    return out
