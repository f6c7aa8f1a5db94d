"""A resolver for every op of card_data/rules/schema.yaml, and the market actions they share.

:data:`OPS` maps each op name to an :class:`Op`: ``resolve`` carries the effect out (pushing
frames and asking players as needed), ``possible`` says whether it would do anything now
(5.31: a Deed none of whose effects can do anything cannot be chosen). Passive ops are not
resolved in sequence: the engine asks :func:`passives` for them where their rule applies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from ..data.model import Effect, walk
from .kinds import DecisionKind as K
from .payment import Payment, can_pay_discounted, discounted_payments
from .rules import COURT, CURIA, CURRENCIES, LOCATION_SIDE, LUX, WIT, EffectError, RulesError
from .state import UNSEEN, Game


@dataclass(frozen=True)
class Ctx:
    """Who resolves an effect: the acting side (None for events), the source card, and the
    controller named by an enclosing ``if_control`` (for ``who: controller/other``)."""

    side: int | None
    card: str
    controller: int | None = None


@dataclass(frozen=True)
class Op:
    resolve: Callable[[Game, Effect, Ctx], None]
    possible: Callable[[Game, Effect, Ctx], bool]
    passive: bool = False


def _always(_g: Game, _e: Effect, _c: Ctx) -> bool:
    return True


def _passive_only(g: Game, eff: Effect, ctx: Ctx) -> None:
    """Passive ops act where their rule looks them up (:func:`passives`), not in sequence."""


# -- helpers --------------------------------------------------------------------------------
def resolve(g: Game, effects: tuple[Effect, ...], ctx: Ctx) -> None:
    """Schedule ``effects`` in order, before whatever was already scheduled."""
    g.push(*[(_run, (e, ctx)) for e in effects])


def _run(g: Game, arg: tuple[Effect, Ctx]) -> None:
    eff, ctx = arg
    op = OPS.get(eff.op)
    try:
        if op is None:
            raise RulesError(f"op '{eff.op}' has no resolver")
        op.resolve(g, eff, ctx)
    except EffectError:
        raise
    except Exception as exc:  # named after the card whose effect failed
        raise EffectError(ctx.card, eff.op, exc) from exc


def possible(g: Game, effects: tuple[Effect, ...], ctx: Ctx) -> bool:
    """Whether any of ``effects`` would do something now (5.31, 5.32)."""
    return any(OPS[e.op].possible(g, e, ctx) for e in effects if e.op in OPS)


def sides(g: Game, who: str, ctx: Ctx) -> list[int]:
    if who == "you":
        if ctx.side is None:
            raise RulesError("an event effect must name its side, not 'you'")
        return [ctx.side]
    if who == "opponent":
        if ctx.side is None:
            raise RulesError("an event effect must name its side, not 'opponent'")
        return [1 - ctx.side]
    if who == "each":
        return [g.first, 1 - g.first]
    if who in ("luxembourg", "wittelsbach"):
        return [LUX if who == "luxembourg" else WIT]
    if who in ("controller", "other"):
        if ctx.controller is None:
            return []
        return [ctx.controller if who == "controller" else 1 - ctx.controller]
    raise RulesError(f"unknown who '{who}'")


def fewer_first(g: Game) -> list[int]:
    """The side with fewer electors first, on a tie the first player (6.41)."""
    a, b = g.electors(LUX), g.electors(WIT)
    if a == b:
        return [g.first, 1 - g.first]
    return [LUX, WIT] if a < b else [WIT, LUX]


def countries(g: Game, where: Any, exclude: Any = None) -> list[int]:
    names = g.rules.countries
    if where in (None, "any"):
        idx = list(range(len(names)))
    elif isinstance(where, str):
        idx = [names.index(where)]
    else:
        idx = [names.index(w) for w in where]
    if exclude:
        idx = [i for i in idx if names[i] not in exclude]
    return idx


def battlegrounds(g: Game, where: Any) -> list[int]:
    names = g.rules.battlegrounds
    if where in (None, "any"):
        return list(range(len(names)))
    if isinstance(where, str):
        return [names.index(where)]
    return [names.index(w) for w in where]


def location_holds(g: Game, shield: str, location: str, side: int | None) -> bool:
    """Whether ``shield`` lies in ``location`` (11.4); "your" locations are ``side``'s."""
    loc = g.shields.get(shield)
    if loc is None:
        return False
    if location == "curia":
        return loc in CURIA
    if location in ("your-court", "your-curia"):
        if side is None:
            return False
        return loc == (COURT if location == "your-court" else CURIA)[side]
    return loc == location


def passives(g: Game, op: str) -> Iterator[tuple[int, Effect]]:
    """Every held passive effect ``op`` (11.3, 11.4), with the side holding it."""
    if not g.shields:
        return
    for shield, loc in sorted(g.shields.items()):
        holder = LOCATION_SIDE.get(loc)
        card = g.rules.cards.get(g.rules.shield_card.get(shield, ""))
        if holder is None or card is None:
            continue
        yield from _passive_walk(g, card.passive, holder, op)


def _passive_walk(g: Game, effects: tuple[Effect, ...], side: int, op: str) -> Iterator[tuple[int, Effect]]:
    for eff in effects:
        if eff.op == op:
            yield side, eff
        elif eff.op == "if_shield" and location_holds(g, eff.params["shield"],
                                                      eff.params["location"], side):
            yield from _passive_walk(g, eff.params["then"], side, op)


# -- influence and military -----------------------------------------------------------------
def _place_influence(g: Game, eff: Effect, ctx: Ctx) -> None:
    p = eff.params
    order = fewer_first(g) if p.get("first") == "fewer_electors" and p["who"] == "each" \
        else sides(g, p["who"], ctx)
    targets = tuple(countries(g, p["where"], p.get("except")))
    g.push(*[(_influence_start, (s, targets, p["amount"], bool(p["split"]), "place"))
             for s in order])


def _remove_influence(g: Game, eff: Effect, ctx: Ctx) -> None:
    p = eff.params
    targets = tuple(countries(g, p["where"]))
    g.push(*[(_influence_start, (s, targets, p["amount"], bool(p["split"]), "remove"))
             for s in sides(g, p["who"], ctx)])


def _influence_start(g: Game, arg: tuple) -> None:
    side, targets, amount, split, action = arg
    if split:
        _influence_points(g, (side, targets, amount, action))
        return
    opts = _influence_options(g, side, targets, action)
    kind = K.PLACE_INFLUENCE if action == "place" else K.REMOVE_INFLUENCE
    g.ask(side, kind, opts, _influence_all, (side, amount, action), amount=amount)


def _influence_options(g: Game, side: int, targets: tuple[int, ...], action: str) -> list[str]:
    names = g.rules.countries
    if action == "place":
        return [names[i] for i in targets]
    return [names[i] for i in targets if g.influence[1 - side][i] > 0]


def _influence_all(g: Game, arg: tuple, choice: str) -> None:
    side, amount, action = arg
    i = g.rules.countries.index(choice)
    if action == "place":
        g.influence[side][i] += amount
    else:
        other = g.influence[1 - side]
        other[i] -= min(amount, other[i])


def _influence_points(g: Game, arg: tuple) -> None:
    side, targets, left, action = arg
    if left <= 0:
        return
    opts = _influence_options(g, side, targets, action)
    kind = K.PLACE_INFLUENCE_POINT if action == "place" else K.REMOVE_INFLUENCE_POINT
    g.ask(side, kind, opts, _influence_point, arg)


def _influence_point(g: Game, arg: tuple, choice: str) -> None:
    side, targets, left, action = arg
    _influence_all(g, (side, 1, action), choice)
    g.push((_influence_points, (side, targets, left - 1, action)))


def _possible_place_influence(g: Game, eff: Effect, ctx: Ctx) -> bool:
    return bool(countries(g, eff.params["where"], eff.params.get("except")))


def _possible_remove_influence(g: Game, eff: Effect, ctx: Ctx) -> bool:
    who = sides(g, eff.params["who"], ctx) if ctx.side is not None else [LUX, WIT]
    targets = countries(g, eff.params["where"])
    return any(g.influence[1 - s][i] > 0 for s in who for i in targets)


def _place_military(g: Game, eff: Effect, ctx: Ctx) -> None:
    p = eff.params
    for s in reversed(sides(g, p["who"], ctx)):
        g.push((_military_start, (s, tuple(battlegrounds(g, p["where"])), p["amount"])))


def _military_start(g: Game, arg: tuple) -> None:
    side, targets, amount = arg
    names = g.rules.battlegrounds
    opts = [names[b] for b in targets if b not in g.blocked]
    g.ask(side, K.PLACE_MILITARY, opts, _military_at, (side, amount), amount=amount)


def _military_at(g: Game, arg: tuple, choice: str) -> None:
    side, amount = arg
    g.place_military(side, g.rules.battlegrounds.index(choice), amount)


def _possible_place_military(g: Game, eff: Effect, ctx: Ctx) -> bool:
    return any(b not in g.blocked for b in battlegrounds(g, eff.params["where"]))


def _remove_military(g: Game, eff: Effect, ctx: Ctx) -> None:
    p = eff.params
    names = g.rules.battlegrounds
    for s in reversed(sides(g, p["who"], ctx)):
        opts = [names[b] for b in battlegrounds(g, p["where"]) if g.military[1 - s][b] > 0]
        g.push((_ask_frame, (s, K.REMOVE_MILITARY, tuple(opts), _remove_military_at, (s, p["amount"]))))


def _ask_frame(g: Game, arg: tuple) -> None:
    side, kind, opts, fn, ctx, *amount = arg
    g.ask(side, kind, opts, fn, ctx, amount=amount[0] if amount else None)


def _remove_military_at(g: Game, arg: tuple, choice: str) -> None:
    side, amount = arg
    other = g.military[1 - side]
    b = g.rules.battlegrounds.index(choice)
    other[b] -= min(amount, other[b])


def _possible_remove_military(g: Game, eff: Effect, ctx: Ctx) -> bool:
    who = sides(g, eff.params["who"], ctx) if ctx.side is not None else [LUX, WIT]
    return any(g.military[1 - s][b] > 0 for s in who
               for b in battlegrounds(g, eff.params["where"]))


def _block(g: Game, eff: Effect, ctx: Ctx) -> None:
    side = ctx.side if ctx.side is not None else g.first
    names = g.rules.battlegrounds
    opts = [names[b] for b in battlegrounds(g, eff.params["where"]) if b not in g.blocked]
    g.ask(side, K.BLOCK_BATTLEGROUND, opts, _block_at, None)


def _block_at(g: Game, _ctx: Any, choice: str) -> None:
    g.blocked = g.blocked | {g.rules.battlegrounds.index(choice)}


# -- currency, cards, purchases ---------------------------------------------------------------
def _gain_currency(g: Game, eff: Effect, ctx: Ctx) -> None:
    p = eff.params
    if p["currency"] != "any":
        for s in sides(g, p["who"], ctx):
            g.gain(s, p["currency"], p["amount"])
        return
    g.push(*[(_ask_frame, (s, K.GAIN_CURRENCY, CURRENCIES, _gain_any, (s, p["amount"]), p["amount"]))
             for s in sides(g, p["who"], ctx)])


def _gain_any(g: Game, arg: tuple, choice: str) -> None:
    g.gain(arg[0], choice, arg[1])


def _lose_currency(g: Game, eff: Effect, ctx: Ctx) -> None:
    p = eff.params
    for s in sides(g, p["who"], ctx):
        if p["currency"] == "any":
            for _ in range(p["amount"]):
                w = g.wallet[s]
                g.lose(s, CURRENCIES[max(range(4), key=lambda i: (w[i], -i))], 1)
        else:
            g.lose(s, p["currency"], p["amount"])


def _draw(g: Game, eff: Effect, ctx: Ctx) -> None:
    for s in sides(g, eff.params["who"], ctx):
        g.draw_cards(s, eff.params["amount"])


def _look_draw_pile(g: Game, eff: Effect, ctx: Ctx) -> None:
    side = sides(g, "you", ctx)[0]
    n = min(eff.params["amount"], len(g.draw[side]))  # looking is not drawing (5.92)
    if n == 0:
        return
    cards = tuple(g.from_draw(side, len(g.draw[side]) - 1) for _ in range(n))  # top first
    g.looking[side].extend(cards)
    action = eff.params["action"]
    g.push((_look_next, (side, cards, 0, (), action)))


def _look_next(g: Game, arg: tuple) -> None:
    side, cards, i, placed, action = arg
    if i == len(cards):
        groups: dict[str, list[str]] = {"top": [], "bottom": []}
        for card, where in zip(cards, placed, strict=True):
            if where == "discard":
                g.looking[side].remove(card)
                g.discard[side].append(card)
            else:  # still being looked at until it is put back
                groups[where].append(card)
        # each group goes back in the order its owner chooses (5.92 "in any order")
        g.push(*[(_ask_order, (side, _DRAW_PILES[where], tuple(group)))
                 for where, group in groups.items() if group])
        return
    opts = ("discard", "top") if action == "discard_or_top" else ("top", "bottom")
    g.ask(side, K.LOOK, opts, _look_put, arg, card=cards[i])


def _look_put(g: Game, arg: tuple, choice: str) -> None:
    side, cards, i, placed, action = arg
    g.push((_look_next, (side, cards, i + 1, (*placed, choice), action)))


def _look_market_deck(g: Game, eff: Effect, ctx: Ctx) -> None:
    side = sides(g, "you", ctx)[0]
    n = min(eff.params["amount"], len(g.market))
    discount = eff.params.get("buy_discount", 0) or 0
    seen = g.market[len(g.market) - n:]
    g.market_seen[side] = min(g.market_seen[side], len(g.market) - n)  # only the looker (6.51)
    opts: list[Any] = [None]
    for card in dict.fromkeys(seen):
        info = g.rules.cards[card]
        if not info.is_event and affordable(g, side, card, discount):
            opts.append(card)
    g.ask(side, K.CHRONICLE_BUY, opts, _chronicle_buy, (side, discount, tuple(reversed(seen))))


def _chronicle_buy(g: Game, arg: tuple, card: str | None) -> None:
    side, discount, seen = arg
    rest = list(seen)
    if card is not None:
        rest.remove(card)
    g.push((_ask_order, (side, "market", tuple(rest))))  # the rest go back in any order (6.53)
    if card is not None:
        buy(g, side, card, discount=discount, source="market")


_DRAW_PILES = {"top": "draw_top", "bottom": "draw_bottom"}
_ORDER = {"draw_top": K.ORDER_DRAW_TOP, "draw_bottom": K.ORDER_DRAW_BOTTOM, "market": K.ORDER_MARKET}


def _ask_order(g: Game, arg: tuple[int, str, tuple[str, ...]]) -> None:
    """Cards put back "in any order" (5.92, 6.53): the side picks the order, top first."""
    side, pile, cards = arg
    g.ask(side, _ORDER[pile], tuple(sorted(set(permutations(cards)))), _put_in_order, (side, pile))


def _put_in_order(g: Game, arg: tuple[int, str], order: tuple[str, ...]) -> None:
    side, pile = arg
    if pile == "market":  # the cards never left the top of the market deck
        m = g.market
        if sorted(m[len(m) - len(order):]) != sorted(order):  # a copy that forgot what it saw
            raise RulesError("the cards put back are not the top of the market deck")
        del m[len(m) - len(order):]
        m.extend(reversed(order))  # the end of the list is the top
        g.market_seen[side] = min(g.market_seen[side], len(m) - len(order))
        g.market_seen[1 - side] = UNSEEN  # the other side doesn't see the new order
        return
    for card in order:
        g.looking[side].remove(card)
    if pile == "draw_bottom":
        g.to_bottom(side, order[::-1], 1 << side)
    else:
        pile_ = g.draw[side]
        g.top_seen[side] = min(g.top_seen[side], len(pile_))
        pile_.extend(reversed(order))


def _discount(g: Game, eff: Effect, ctx: Ctx) -> None:
    side = sides(g, "you", ctx)[0]
    g.discounts[side] = (*g.discounts[side], (eff.params["amount"], bool(eff.params["western_as_any"])))


def _acquire_free(g: Game, eff: Effect, ctx: Ctx) -> None:
    cap = eff.params.get("max_cost")
    g.push(*[(_acquire_free_ask, (s, cap)) for s in sides(g, eff.params["who"], ctx)])


def _acquire_free_ask(g: Game, arg: tuple) -> None:
    side, cap = arg  # the row as it is when this side chooses
    opts = [c for c in dict.fromkeys([*g.row, *g.extra])
            if cap is None or len(g.rules.cards[c].cost) <= cap]
    g.ask(side, K.ACQUIRE_FREE, opts, _acquire_free_at, side)


def _acquire_free_at(g: Game, side: int, card: str) -> None:
    take_from_row(g, card)
    acquire(g, side, card)
    if g.log is not None:
        g.log.free(side, card)
    g.push((refill, None))


def _possible_acquire_free(g: Game, eff: Effect, ctx: Ctx) -> bool:
    cap = eff.params.get("max_cost")
    return any(cap is None or len(g.rules.cards[c].cost) <= cap for c in (*g.row, *g.extra))


def _removable(g: Game, side: int, eff: Effect) -> list[tuple[str, str]]:
    p = eff.params
    johns = g.rules.johns
    kind = p["card_kind"]
    out = []
    for pile in p["piles"]:
        cards = g.hand[side] if pile == "hand" else g.discard[side]
        for c in dict.fromkeys(cards):
            if c in johns:  # John can't be removed (10.61)
                continue
            if kind == "retinue" and g.rules.cards[c].kind != "retinue":
                continue
            out.append((pile, c))
    return out


def _remove_from_game(g: Game, eff: Effect, ctx: Ctx) -> None:
    for s in reversed(sides(g, eff.params["who"], ctx)):
        g.push((_remove_next, (s, eff, ctx, 0)))


def _remove_next(g: Game, arg: tuple) -> None:
    side, eff, ctx, done = arg
    if done < eff.params["amount"]:
        opts: list[Any] = list(_removable(g, side, eff))
        if opts and eff.params["up_to"]:
            opts.insert(0, None)
        if opts:
            g.ask(side, K.REMOVE_FROM_GAME, opts, _remove_one, arg)
            return
    if done and eff.params.get("then"):
        resolve(g, eff.params["then"], Ctx(side, ctx.card, ctx.controller))


def _remove_one(g: Game, arg: tuple, choice: tuple[str, str] | None) -> None:
    side, eff, ctx, done = arg
    if choice is None:  # "up to": stop here
        if done and eff.params.get("then"):
            resolve(g, eff.params["then"], Ctx(side, ctx.card, ctx.controller))
        return
    pile, card = choice
    if pile == "hand":
        g.from_hand(side, card)
    else:
        g.discard[side].remove(card)
    g.remove_card(card)
    if g.rules.cards[card].prestige:
        g.owned[side] -= 1
    if g.log is not None:
        g.log.removed(side, card)
    g.push((_remove_next, (side, eff, ctx, done + 1)))


def _possible_remove(g: Game, eff: Effect, ctx: Ctx) -> bool:
    need = 1 if eff.params["up_to"] else eff.params["amount"]
    for s in sides(g, eff.params["who"], ctx):
        count = sum((g.hand if pile == "hand" else g.discard)[s].count(c)
                    for pile, c in _removable(g, s, eff))
        if count >= need:
            return True
    return False


def _enter_market(g: Game, eff: Effect, ctx: Ctx) -> None:
    card = eff.params["card"]
    if card in g.aside:
        g.aside.remove(card)
        g.extra.append(card)


# -- votes and John ---------------------------------------------------------------------------
def _gain_vote(g: Game, eff: Effect, ctx: Ctx) -> None:
    p = eff.params
    opts = tuple(g.rules.countries[i] for i in countries(g, p["elector"]))
    for s in reversed(sides(g, p["who"], ctx)):
        for _ in range(p["amount"]):
            g.push((_ask_frame, (s, K.GAIN_VOTE, opts, vote_at, s)))


def vote_at(g: Game, side: int, elector: str) -> None:
    g.gain_vote(side, g.rules.countries.index(elector))


def _battle_vote(g: Game, eff: Effect, ctx: Ctx) -> None:
    b = g.rules.battleground(eff.params["battleground"])
    side = g.controller(b)
    if side is None:
        return
    opts = tuple(g.rules.countries[i] for i in g.rules.links[b])
    g.ask(side, K.BATTLE_VOTE, opts, vote_at, side)


def _move_loyalty(g: Game, eff: Effect, ctx: Ctx) -> None:
    p = eff.params
    direction = p["direction"]
    if direction == "either":
        chooser = sides(g, p["who"], ctx)[0]
        g.ask(chooser, K.LOYALTY_DIRECTION, ("charles", "ludwig"), _loyalty_steps, p["steps"])
    else:
        _loyalty_steps(g, p["steps"], direction)


def _loyalty_steps(g: Game, steps: int, direction: str) -> None:
    for _ in range(steps):
        g.move_loyalty(LUX if direction == "charles" else WIT)


def _john_dies(g: Game, eff: Effect, ctx: Ctx) -> None:
    """John leaves the game; Luxembourg inherits a vote if it held him (12.11)."""
    holder = g.john_holder()
    if holder is None:
        return
    for side in (LUX, WIT):
        g.removed.extend(g.take_johns(side))
    for j in g.rules.johns:
        if j in g.aside:
            g.aside.remove(j)
            g.removed.append(j)
    g.john_dead = True
    if holder == LUX:
        g.gain_vote(LUX, g.rules.country(eff.params["elector"]))


def _last_round(g: Game, eff: Effect, ctx: Ctx) -> None:
    g.last_round = True
    g.crecy_round = g.round


# -- numbers -----------------------------------------------------------------------------------
def _bonus_numbers(g: Game, eff: Effect, ctx: Ctx) -> None:
    p = eff.params
    side = sides(g, "you", ctx)[0]
    bonus = (side, p["amount"], p["numbers"], tuple(p.get("card_types") or ()))
    g.bonuses = (*g.bonuses, bonus)


def _kicker(g: Game, eff: Effect, ctx: Ctx) -> None:
    side = sides(g, "you", ctx)[0]
    g.kickers = (*g.kickers, (side, eff.params["card"], eff.params["amount"]))


# -- shields and conditions ---------------------------------------------------------------------
def _place_shield(g: Game, eff: Effect, ctx: Ctx) -> None:
    loc = eff.params["location"]
    if loc in ("your-court", "your-curia"):
        side = sides(g, "you", ctx)[0]
        loc = (COURT if loc == "your-court" else CURIA)[side]
    g.shields[eff.params["shield"]] = loc


def _stop_yield(g: Game, eff: Effect, ctx: Ctx) -> None:
    g.stopped = g.stopped | {(eff.params["card"], eff.params["currency"])}


def _if_shield(g: Game, eff: Effect, ctx: Ctx) -> None:
    if location_holds(g, eff.params["shield"], eff.params["location"], ctx.side):
        resolve(g, eff.params["then"], ctx)


def _possible_if_shield(g: Game, eff: Effect, ctx: Ctx) -> bool:
    return location_holds(g, eff.params["shield"], eff.params["location"], ctx.side) and \
        possible(g, eff.params["then"], ctx)


def _lead_ok(g: Game, eff: Effect, ctx: Ctx) -> bool:
    leads = g.lead(sides(g, "you", ctx)[0], g.rules.country(eff.params["country"])) > 0
    return leads == bool(eff.params["lead"])


def _if_lead(g: Game, eff: Effect, ctx: Ctx) -> None:
    if _lead_ok(g, eff, ctx):
        resolve(g, eff.params["then"], ctx)


def _possible_if_lead(g: Game, eff: Effect, ctx: Ctx) -> bool:
    return _lead_ok(g, eff, ctx) and possible(g, eff.params["then"], ctx)


def _holds(g: Game, eff: Effect, ctx: Ctx) -> bool:
    holder = eff.params["holder"]
    want = sides(g, holder, ctx)[0]
    return g.john_holder() == want


def _if_holds_john(g: Game, eff: Effect, ctx: Ctx) -> None:
    branch = eff.params["then"] if _holds(g, eff, ctx) else eff.params.get("otherwise") or ()
    resolve(g, branch, ctx)


def _possible_if_holds_john(g: Game, eff: Effect, ctx: Ctx) -> bool:
    branch = eff.params["then"] if _holds(g, eff, ctx) else eff.params.get("otherwise") or ()
    return possible(g, branch, ctx)


def _control_side(g: Game, eff: Effect, ctx: Ctx) -> int | None:
    c = g.controller(g.rules.battleground(eff.params["battleground"]))
    if eff.params["who"] == "you" and c != ctx.side:
        return None
    return c


def _if_control(g: Game, eff: Effect, ctx: Ctx) -> None:
    c = _control_side(g, eff, ctx)
    if c is not None:
        resolve(g, eff.params["then"], Ctx(ctx.side, ctx.card, c))


def _possible_if_control(g: Game, eff: Effect, ctx: Ctx) -> bool:
    c = _control_side(g, eff, ctx)
    return c is not None and possible(g, eff.params["then"], Ctx(ctx.side, ctx.card, c))


def _at_hook(g: Game, eff: Effect, ctx: Ctx) -> None:
    """``at_round_end`` / ``at_crecy``: the engine calls this for the holder when it happens."""
    resolve(g, eff.params["then"], ctx)


# -- purchases and the market row (6.x) ----------------------------------------------------------
def _purchase_terms(g: Game, side: int, card: str, discount: int) -> tuple[int, bool]:
    """Coins off ``card`` now (this play's ``discount``, "next purchase" effects 6.22,
    cheaper-card passives) and whether Western pays for any type (Wool Trade)."""
    info = g.rules.cards[card]
    less = discount + sum(a for a, _ in g.discounts[side])
    wild = any(w for _, w in g.discounts[side])
    for s, eff in passives(g, "cheaper_cards"):
        if s == side and set(info.types) & set(eff.params["card_types"]):
            less += eff.params["amount"]
    return less, wild


def purchase_payments(g: Game, side: int, card: str, discount: int = 0) -> tuple[Payment, ...]:
    """Every legal payment for ``card`` now (6.12), the dropped coins chosen by the buyer."""
    less, wild = _purchase_terms(g, side, card, discount)
    return discounted_payments(g.wallet[side], g.rules.cards[card].cost, less, wild)


def affordable(g: Game, side: int, card: str, discount: int = 0) -> bool:
    less, wild = _purchase_terms(g, side, card, discount)
    return can_pay_discounted(g.wallet[side], g.rules.cards[card].cost, less, wild)


def ask_payment(g: Game, side: int, options: tuple[Payment, ...]) -> None:
    """The side chooses which cubes pay (6.12); schedule what follows the payment first."""
    g.ask(side, K.PAYMENT, options, _pay, side)


def _pay(g: Game, side: int, cubes: Payment) -> None:
    g.pay(side, list(cubes))


def buy(g: Game, side: int, card: str, discount: int = 0, source: str = "row") -> None:
    """Pay and acquire a purchase from the market row (or the market deck, 6.52); it uses
    up every "next purchase" effect (6.22). The card stays where it is until paid."""
    options = purchase_payments(g, side, card, discount)
    if not options:
        raise RulesError(f"{card} is not affordable")
    g.push((_bought, (side, card, source)))
    ask_payment(g, side, options)


def _bought(g: Game, arg: tuple[int, str, str]) -> None:
    side, card, source = arg
    if source == "row":
        take_from_row(g, card)
    else:  # taken out of the market deck, near its top (6.52)
        i = len(g.market) - 1 - g.market[::-1].index(card)
        del g.market[i]
        for s in (LUX, WIT):  # the cards above it move down, still seen by who saw them
            if i < g.market_seen[s] < UNSEEN:
                g.market_seen[s] -= 1
    g.discounts[side] = ()
    acquire(g, side, card)
    if g.log is not None:
        g.log.bought(side, card, g.round)


def acquire(g: Game, side: int, card: str) -> None:
    """A bought or free card goes to the bottom of the draw pile (6.11) and places its
    shield (6.2, 11.1)."""
    g.to_bottom(side, (card,), 3)  # both sides see where it goes
    info = g.rules.cards[card]
    if info.prestige:
        g.owned[side] += 1
    if info.acquire:
        resolve(g, info.acquire, Ctx(side, card))


def take_from_row(g: Game, card: str) -> None:
    if card in g.extra:
        g.extra.remove(card)  # Gerlach's spot is not refilled (6.42)
    else:
        g.row.remove(card)


def refill(g: Game, _ctx: Any = None) -> None:
    """Refill the row from the market deck; revealed events resolve at once (6.3, 6.4)."""
    while len(g.row) < 5 and g.market and not (g.in_rotation and g.last_round):
        card = g.market.pop()
        info = g.rules.cards[card]
        if info.is_event:
            g.limbo.append(card)
            g.push((reveal_event, card), (refill, None))
            return
        g.row.append(card)


def reveal_event(g: Game, card: str) -> None:
    """Writing History may counter it (6.46); otherwise it resolves."""
    info = g.rules.cards[card]
    if g.log is not None:
        g.log.event(card, g.round)
    if not info.uncounterable:
        for side in (g.first, 1 - g.first):
            peters = [c for c in dict.fromkeys(g.hand[side]) if g.rules.cards[c].writing_history]
            if peters:
                g.ask(side, K.WRITING_HISTORY, (None, *peters), _writing_history, card)
                return
    _event_resolves(g, card)


def _writing_history(g: Game, card: str, peter: str | None) -> None:
    if peter is None:
        _event_resolves(g, card)
        return
    side = next(s for s in (LUX, WIT) if peter in g.hand[s])
    g.from_hand(side, peter)
    g.discard[side].append(peter)
    g.limbo.remove(card)
    g.removed.append(card)
    if g.log is not None:
        g.log.countered_event(card)


def _event_resolves(g: Game, card: str) -> None:
    info = g.rules.cards[card]
    g.limbo.remove(card)
    g.removed.append(card)  # each event is used once (6.4)
    ctx = Ctx(None, card)
    frames = [(_run, (e, ctx)) for e in info.event]
    if info.kind == "end_event":
        # a held at_crecy passive adds what the event itself does not already say (12.12)
        named = {e.params.get("shield") for e in walk(info.event) if e.op == "if_shield"}
        for side, eff in passives(g, "at_crecy"):
            shield = _shield_of_passive(g, eff)
            if shield not in named:
                frames.append((_run, (eff, Ctx(side, card))))
    g.push(*frames)


def _shield_of_passive(g: Game, eff: Effect) -> str | None:
    for shield, card in g.rules.shield_card.items():
        info = g.rules.cards.get(card)
        if info and any(e is eff for e in walk(info.passive)):
            return shield
    return None


def counter_matches(g: Game, counter: Effect, played: str, effects: tuple[Effect, ...]) -> bool:
    """Whether a Counter line matches a Deed (5.6): by card type or by an op the Deed uses."""
    t = counter.params.get("card_type")
    if t and t in g.rules.cards[played].types:
        return True
    op = counter.params.get("deed_op")
    return bool(op and any(e.op == op for e in walk(effects)))


def uncounterable(g: Game, side: int, played: str) -> bool:
    """A held uncounterable_deeds passive protects that side's cards of its type (5.65)."""
    types = g.rules.cards[played].types
    return any(s == side and eff.params["card_type"] in types
               for s, eff in passives(g, "uncounterable_deeds"))


def wins_tie(g: Game, country: int) -> int | None:
    """The side whose held win_tie passive names this country (9.21)."""
    name = g.rules.countries[country]
    for side, eff in passives(g, "win_tie"):
        if eff.params["country"] == name:
            return side
    return None


def _noop_possible(g: Game, eff: Effect, ctx: Ctx) -> bool:
    return False


OPS: dict[str, Op] = {
    "place_influence": Op(_place_influence, _possible_place_influence),
    "remove_influence": Op(_remove_influence, _possible_remove_influence),
    "place_military": Op(_place_military, _possible_place_military),
    "remove_military": Op(_remove_military, _possible_remove_military),
    "block_battleground": Op(_block, lambda g, e, c: any(
        b not in g.blocked for b in battlegrounds(g, e.params["where"]))),
    "gain_currency": Op(_gain_currency, _always),
    "lose_currency": Op(_lose_currency, lambda g, e, c: any(
        sum(g.wallet[s]) > 0 for s in sides(g, e.params["who"], c))),
    "draw": Op(_draw, _always),
    "look_draw_pile": Op(_look_draw_pile, lambda g, e, c: bool(g.draw[sides(g, "you", c)[0]])),
    "look_market_deck": Op(_look_market_deck, lambda g, e, c: bool(g.market)),
    "discount_next_purchase": Op(_discount, _always),
    "cheaper_cards": Op(_passive_only, _noop_possible, passive=True),
    "acquire_free": Op(_acquire_free, _possible_acquire_free),
    "remove_from_game": Op(_remove_from_game, _possible_remove),
    "enter_market": Op(_enter_market, lambda g, e, c: e.params["card"] in g.aside),
    "gain_vote": Op(_gain_vote, _always),
    "battle_vote": Op(_battle_vote, lambda g, e, c: g.controller(
        g.rules.battleground(e.params["battleground"])) is not None),
    "move_loyalty": Op(_move_loyalty, _always),
    "john_dies": Op(_john_dies, lambda g, e, c: not g.john_dead),
    "last_round": Op(_last_round, _always),
    "bonus_numbers": Op(_bonus_numbers, _always),
    "kicker": Op(_kicker, _always),
    "counter": Op(_passive_only, _noop_possible, passive=True),
    "counter_event": Op(_passive_only, _noop_possible, passive=True),
    "uncounterable_deeds": Op(_passive_only, _noop_possible, passive=True),
    "place_shield": Op(_place_shield, _always),
    "stop_yield": Op(_stop_yield, _always),
    "win_tie": Op(_passive_only, _noop_possible, passive=True),
    "at_round_end": Op(_at_hook, _noop_possible, passive=True),
    "at_crecy": Op(_at_hook, _noop_possible, passive=True),
    "if_shield": Op(_if_shield, _possible_if_shield),
    "if_lead": Op(_if_lead, _possible_if_lead),
    "if_holds_john": Op(_if_holds_john, _possible_if_holds_john),
    "if_control": Op(_if_control, _possible_if_control),
}
