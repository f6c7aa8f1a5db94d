"""The sequence of play: setup (3.x), rounds (4.x), card plays (5.x), buying (6.1), round end
(9.x), Court Prestige and the final vote (12.x). Each step is a frame on the game's stack.
"""

from __future__ import annotations

from typing import Any

from .kinds import DecisionKind as K
from .ops import (
    Ctx,
    affordable,
    ask_payment,
    buy,
    counter_matches,
    passives,
    possible,
    refill,
    resolve,
    uncounterable,
    vote_at,
    wins_tie,
)
from .payment import can_pay, payments
from .rules import CUR, CURRENCIES, JOHN_COST, LUX, ROUNDS, WIT, Rules
from .state import Game


def new_game(rules: Rules, seed: int, log: Any = None) -> Game:
    """A game set up (3.x) and run to its first decision."""
    g = Game(rules, seed)
    g.log = log
    g.push((setup, None))
    g.run()
    return g


# -- setup (3.x) ------------------------------------------------------------------------------
CRECY_DEPTH = 6  # 3.45: the Battle of Crécy is shuffled into the bottom 6 of the market deck


def setup_depths(rules: Rules) -> tuple[int, int]:
    """Among how many bottom places of the market deck setup puts the late entry (3.44: the
    bottom half) and then the Battle of Crécy (3.45: the bottom 6)."""
    deck = max(0, len(rules.market) - 5) + len(rules.events)  # 3.42, 3.43
    late = max(1, deck // 2)
    if rules.late_entry:
        deck += 1
    return late, min(CRECY_DEPTH, deck + 1)


def setup(g: Game, _ctx: Any = None) -> None:
    r, rng = g.rules, g.rng
    assert rng is not None
    for side in (LUX, WIT):
        g.draw[side] = list(r.starters[side])     # 3.31, 3.32 (John in Wittelsbach's deck)
        rng.shuffle(g.draw[side])
    g.aside = [r.johns[LUX], *r.extra]            # 3.32, 3.41
    cards = list(r.market)
    rng.shuffle(cards)                            # 3.42: the opening row holds no event
    g.row = cards[-5:]
    deck = cards[:-5] + list(r.events)            # 3.43
    rng.shuffle(deck)
    late, crecy = setup_depths(r)
    if r.late_entry:                              # 3.44: into the bottom half
        deck.insert(rng.randrange(late), r.late_entry)
    deck.insert(rng.randrange(crecy), r.crecy)    # 3.45: among the bottom 6
    g.market = deck                               # the end of the list is the top
    g.round, g.loyalty, g.first = 1, -1, WIT      # 3.21, 3.22, 3.5
    g.push((round_start, None))


# -- a round (4.x) ----------------------------------------------------------------------------
def round_start(g: Game, _ctx: Any = None) -> None:
    """Initiative (4.1): the side with fewer electors chooses; a tie alternates (4.11)."""
    if g.round > 1:
        a, b = g.electors(LUX), g.electors(WIT)
        if a == b:
            g.first = 1 - g.first
            g.push((draw_step, None))
        else:
            chooser = LUX if a < b else WIT
            g.push((draw_step, None))
            g.ask(chooser, K.INITIATIVE, ("luxembourg", "wittelsbach"), _initiative)
    else:
        g.push((draw_step, None))
    if g.log is not None:
        g.log.round_started(g)


def _initiative(g: Game, _ctx: Any, choice: str) -> None:
    g.first = LUX if choice == "luxembourg" else WIT


def draw_step(g: Game, _ctx: Any = None) -> None:
    """Draw up to the hand size plus draw bonuses (4.2); set the plays (4.3)."""
    if g.log is not None:
        g.log.first_player(g.round, g.first)
    for side in (LUX, WIT):
        want = g.rules.hand[g.round] + g.bonus_cards[side]
        g.draw_cards(side, max(0, want - len(g.hand[side])))
        g.plays_left[side] = g.rules.plays[g.round] + g.bonus_plays[side]
    g.turn = g.first
    g.push((play_turn, None))


def play_turn(g: Game, _ctx: Any = None) -> None:
    if g.plays_left[LUX] == 0 and g.plays_left[WIT] == 0:
        g.push((round_end, None))
        return
    side = g.turn if g.plays_left[g.turn] else 1 - g.turn
    g.ask_later(side, K.PLAY, _play_choices, _play, side)


def _play_choices(g: Game, side: int) -> list[tuple[str, str]]:
    opts = play_options(g, side)
    if not opts:  # nothing playable: the play is lost (documented decision)
        g.plays_left[side] -= 1
        g.turn = 1 - side
        if g.log is not None:
            g.log.passed(side)
        g.push((play_turn, None))
    return opts


def _wallet_with_yield(g: Game, side: int, card: str) -> list[list[int]]:
    """The wallets the card's yield could make (one per choice of an "any" yield)."""
    base = list(g.wallet[side])
    for y in g.rules.cards[card].yields:
        if y != "any" and (card, y) not in g.stopped:
            base[CUR[y]] += 1
    if "any" not in g.rules.cards[card].yields:
        return [base]
    out = []
    for i in range(4):
        w = list(base)
        w[i] += 1
        out.append(w)
    return out


def _boost_payable(g: Game, side: int, card: str) -> bool:
    info = g.rules.cards[card]
    saved = g.wallet[side]
    try:
        for w in _wallet_with_yield(g, side, card):
            g.wallet[side] = w
            if can_pay(w, info.boost_cost):
                return True
        return False
    finally:
        g.wallet[side] = saved


def play_options(g: Game, side: int) -> list[tuple[str, str]]:
    """Every legal (card, use) for this play (5.1-5.3, 5.23, 5.31, 5.72, 10.2)."""
    opts: list[tuple[str, str]] = []
    open_bg = len(g.blocked) < len(g.rules.battlegrounds)
    for card in sorted(set(g.hand[side])):
        info = g.rules.cards[card]
        if info.use_cost and g.total(side) < info.use_cost:
            continue  # John can't be played without his cost (10.2)
        modes = []
        if info.political > 0:
            modes.append("political")
        if info.military > 0 and open_bg:
            modes.append("military")
        if info.deed:
            ctx = Ctx(side, card)
            ok = possible(g, info.deed, ctx)
            if g.log is not None:
                g.log.deed_check(card, ok)
            if ok:
                modes.append("deed")
            usable = possible(g, info.boost, ctx) if info.boost_replaces else ok
            if info.boost and usable and _boost_payable(g, side, card):
                modes.append("boost")
        if not modes:
            modes.append("yield")  # Retinues; a card with no usable value or Deed (2.37)
        opts.extend((card, m) for m in modes)
    return opts


def _play(g: Game, side: int, choice: tuple[str, str]) -> None:
    """Play a card (5.1): to the play area, gain its yield, then use it."""
    card, mode = choice
    info = g.rules.cards[card]
    g.from_hand(side, card)
    g.play[side].append(card)
    g.plays_left[side] -= 1
    g.plays_made[side] += 1
    g.turn = 1 - side
    if g.log is not None:
        g.log.play(side, card, mode)
    frames: list = []
    for y in info.yields:
        if (card, y) in g.stopped:
            continue  # 5.52
        if y == "any":
            frames.append((_ask_yield, (side, card, mode)))
        else:
            g.gain(side, y, 1)
    frames.append((_use, (side, card, mode)))
    if info.kind == "john" and mode != "yield":
        frames.append((_john_used, side))
    frames.append((_buy_step, side))
    frames.append((play_turn, None))
    g.push(*frames)
    if info.use_cost:  # 10.2, paid as the side chooses (6.12)
        ask_payment(g, side, payments(g.wallet[side], ("any",) * info.use_cost))


def _ask_yield(g: Game, arg: tuple) -> None:
    side, card, mode = arg
    opts: list[str] = list(CURRENCIES)
    if mode == "boost":  # the announced boost must stay payable (5.72)
        cost = g.rules.cards[card].boost_cost
        ok = []
        for c in CURRENCIES:
            g.wallet[side][CUR[c]] += 1
            if can_pay(g.wallet[side], cost):
                ok.append(c)
            g.wallet[side][CUR[c]] -= 1
        opts = ok or opts
    g.ask(side, K.YIELD_CURRENCY, opts, _gain_yield, side)


def _gain_yield(g: Game, side: int, currency: str) -> None:
    g.gain(side, currency, 1)


def _john_used(g: Game, side: int) -> None:
    """Each use moves John's loyalty 1 step away from the user (10.31)."""
    g.move_loyalty(1 - side)


def _use(g: Game, arg: tuple) -> None:
    side, card, mode = arg
    if mode in ("political", "military"):
        numbers(g, side, card, mode)
    elif mode in ("deed", "boost"):
        _counter_window(g, side, card, mode)


def _deed_effects(g: Game, card: str, mode: str) -> tuple:
    info = g.rules.cards[card]
    if mode != "boost":
        return info.deed
    return info.boost if info.boost_replaces else (*info.deed, *info.boost)


def _counters(g: Game, side: int, card: str, mode: str) -> list[str]:
    """The opponent's Counter cards in hand that match this Deed (5.6, 5.65)."""
    if uncounterable(g, side, card):
        return []
    effects = _deed_effects(g, card, mode)
    return [c for c in sorted(set(g.hand[1 - side]))
            if any(counter_matches(g, e, card, effects) for e in g.rules.cards[c].counter)]


def _counter_window(g: Game, side: int, card: str, mode: str) -> None:
    """5.61: the Deed and its choices are announced, then the opponent may counter it from
    its hand. The Deed resolves with the acting side choosing as it goes (its choices are the
    announcement); a counter then puts the table back as it was before the Deed."""
    if not _counters(g, side, card, mode):
        _resolve_deed(g, side, card, mode)
        return
    g.push((_counter_ask, (side, card, mode, g.snapshot())))
    _resolve_deed(g, side, card, mode)


def _counter_ask(g: Game, arg: tuple) -> None:
    side, card, mode, before = arg
    counters = _counters(before.game, side, card, mode)  # the hand before the Deed resolved
    if counters:
        g.ask(1 - side, K.COUNTER, (None, *counters), _countered, (side, card, before))


def _countered(g: Game, arg: tuple, counter: str | None) -> None:
    side, card, before = arg
    if counter is None:
        return
    g.restore(before)  # a countered Deed resolves none of its text, nor its boost's payment (5.63, 5.73)
    opp = 1 - side
    g.from_hand(opp, counter)
    g.discard[opp].append(counter)
    if g.log is not None:
        g.log.countered(side, card, counter)
    info = g.rules.cards[card]
    opts = [m for m, v in (("political", info.political), ("military", info.military)) if v > 0]
    if "military" in opts and len(g.blocked) == len(g.rules.battlegrounds):
        opts.remove("military")
    g.ask(side, K.COUNTERED_NUMBERS, opts, lambda gg, _c, m: numbers(gg, side, card, m), None)  # 5.62


def _resolve_deed(g: Game, side: int, card: str, mode: str) -> None:
    """Pay the boost after the Counter window (5.73), then resolve the Deed."""
    options = payments(g.wallet[side], g.rules.cards[card].boost_cost) if mode == "boost" else ()
    if not options:
        mode = "deed"
    resolve(g, _deed_effects(g, card, mode), Ctx(side, card))
    if options:
        ask_payment(g, side, options)


# -- Numbers (5.2, 5.8, 7.5, 8.1) -----------------------------------------------------------------
def numbers_value(g: Game, side: int, card: str, kind: str) -> int:
    """The printed value plus this round's bonuses and kicker (5.8, 5.82); 0 stays 0 (5.23)."""
    info = g.rules.cards[card]
    base = info.political if kind == "political" else info.military
    if base <= 0:
        return 0
    extra = 0
    for s, amount, which, types in g.bonuses:
        if s == side and which == kind and (not types or set(types) & set(info.types)):
            extra += amount  # 5.53: once, whatever the number of matching types
    kicks = [k for k in g.kickers if k[0] == side and k[1] == card]
    if kicks:
        extra += sum(k[2] for k in kicks)
        g.kickers = tuple(k for k in g.kickers if not (k[0] == side and k[1] == card))
    return base + extra


def numbers(g: Game, side: int, card: str, kind: str) -> None:
    value = numbers_value(g, side, card, kind)
    if value <= 0:
        return
    if kind == "military":
        names = g.rules.battlegrounds
        opts = [names[b] for b in range(len(names)) if b not in g.blocked]
        g.ask(side, K.MILITARY_NUMBERS, opts, _military_numbers, (side, value), amount=value)
    else:
        _political_points(g, (side, value, None))


def _military_numbers(g: Game, arg: tuple, choice: str) -> None:
    side, value = arg
    g.place_military(side, g.rules.battlegrounds.index(choice), value)


def point_cost(g: Game, side: int, country: int) -> int:
    """Stability (7.5, 7.51): 2 while the opponent leads by the stability value or more."""
    return 2 if g.lead(1 - side, country) >= g.rules.stability[country] else 1


def political_options(g: Game, side: int, left: int, action: str | None) -> list[tuple[str, str]]:
    opts = []
    mine, theirs = g.influence[side], g.influence[1 - side]
    place, remove = action in (None, "place"), action in (None, "remove")
    for i, (name, stab) in enumerate(zip(g.rules.countries, g.rules.stability, strict=True)):
        if (2 if theirs[i] - mine[i] >= stab else 1) > left:  # point_cost, inlined
            continue
        if place:
            opts.append(("place", name))
        if remove and theirs[i] > 0:
            opts.append(("remove", name))
    return opts


def _political_points(g: Game, arg: tuple) -> None:
    """Political Numbers point by point: all placed or all removed (5.21, documented)."""
    side, left, action = arg
    if left <= 0:
        return
    g.ask(side, K.POLITICAL_POINT, political_options(g, side, left, action), _political_point, arg)


def _political_point(g: Game, arg: tuple, choice: tuple[str, str]) -> None:
    side, left, _action = arg
    action, name = choice
    i = g.rules.countries.index(name)
    cost = point_cost(g, side, i)
    if action == "place":
        g.influence[side][i] += 1
    else:
        g.influence[1 - side][i] -= 1
    g.push((_political_points, (side, left - cost, action)))


# -- buying (6.1) -----------------------------------------------------------------------------------
def buy_options(g: Game, side: int) -> list[str | None]:
    opts: list[str | None] = [None]
    for card in sorted(set(g.row) | set(g.extra)):
        if affordable(g, side, card):
            opts.append(card)
    return opts


def _buy_step(g: Game, side: int) -> None:
    g.ask_later(side, K.BUY, lambda gg, s: buy_options(gg, s), _buy, side)


def _buy(g: Game, side: int, card: str | None) -> None:
    if card is None:
        return
    g.push((refill, None))  # after the purchase is paid and acquired
    buy(g, side, card)


# -- round end (9.x) ----------------------------------------------------------------------------------
def round_end(g: Game, _ctx: Any = None) -> None:
    short = g.round >= ROUNDS or g.last_round  # 9.8
    frames: list = [(_supply_lines, 0), (_countries, None)]
    if short:
        frames.append((final, None))
    else:
        frames += [(_battlegrounds, None), (_loyalty_step, g.first), (_loyalty_step, 1 - g.first),
                   (_rotation, None), (_after_rotation, None), (_round_end_passives, None),
                   (_keep_step, g.first), (_keep_step, 1 - g.first), (_clear_round, None)]
    g.push(*frames)


def _supply_lines(g: Game, bg: int) -> None:
    """9.1, 8.4: 2 influence per controlled battleground; Lombardy's controller chooses (8.42)."""
    r = g.rules
    if bg >= len(r.battlegrounds):
        return
    g.push((_supply_lines, bg + 1))
    side = g.controller(bg)
    if side is None or not r.links[bg]:
        return
    g.ask(side, K.SUPPLY_LINE, tuple(r.countries[i] for i in r.links[bg]), _supply_at, side)


def _supply_at(g: Game, side: int, country: str) -> None:
    g.influence[side][g.rules.country(country)] += 2


def _countries(g: Game, _ctx: Any = None) -> None:
    """9.2: votes, ties (7.4, 9.21), footholds (7.6) and clearing (9.22)."""
    r = g.rules
    if g.log is not None:  # influence and military at their round's peak
        g.log.observe(g)
    for i in range(len(r.countries)):
        a, b = g.influence[LUX][i], g.influence[WIT][i]
        if a > b:
            g.gain_vote(LUX, i)
        elif b > a:
            g.gain_vote(WIT, i)
        elif a >= 1:
            holder = wins_tie(g, i)
            if holder is not None:
                g.gain_vote(holder, i)
        keep = [0, 0]
        for side in (LUX, WIT):
            if g.lead(side, i) >= r.stability[i]:
                keep[side] = 1
        g.influence[LUX][i], g.influence[WIT][i] = keep


def _battlegrounds(g: Game, _ctx: Any = None) -> None:
    """9.3: control gives next round's bonus (8.3), then decay (8.5)."""
    g.bonus_cards = [0, 0]
    g.bonus_plays = [0, 0]
    for bg, kind in enumerate(g.rules.bonus):
        side = g.controller(bg)
        if side is not None:
            (g.bonus_cards if kind == "card" else g.bonus_plays)[side] += 1
        for s in (LUX, WIT):
            if g.military[s][bg] > 0:
                g.military[s][bg] -= 1
    if g.log is not None:
        g.log.control(g)


def _loyalty_step(g: Game, side: int) -> None:
    """9.4, 10.4: pay 3 of any currency to move the marker 1 step toward yourself, once."""
    if g.loyalty_bought[side] or g.total(side) < JOHN_COST:
        return
    if g.loyalty == (2 if side == LUX else -2):
        return
    g.ask(side, K.BUY_LOYALTY, (False, True), _buy_loyalty, side)


def _buy_loyalty(g: Game, side: int, yes: bool) -> None:
    if not yes:
        return
    g.push((_loyalty_bought, side))
    ask_payment(g, side, payments(g.wallet[side], ("any",) * JOHN_COST))


def _loyalty_bought(g: Game, side: int) -> None:
    g.loyalty_bought[side] = True
    g.move_loyalty(side)
    if g.log is not None:
        g.log.loyalty_bought(side)


def _rotation(g: Game, _ctx: Any = None) -> None:
    """9.5: the oldest regular card leaves the game, the row refills, events resolve."""
    g.in_rotation = True
    if g.row:
        g.removed.append(g.row.pop(0))
    refill(g)


def _after_rotation(g: Game, _ctx: Any = None) -> None:
    g.in_rotation = False
    if g.last_round:  # Crécy in the rotation: the game ends at once (12.13)
        g.stack.clear()
        g.push((final, None))


def _round_end_passives(g: Game, _ctx: Any = None) -> None:
    """9.6: held at_round_end passives (the Charles I Robert shield's Eastern)."""
    for side, eff in passives(g, "at_round_end"):
        resolve(g, eff.params["then"], Ctx(side, "passive"))


def _keep_step(g: Game, side: int) -> None:
    """9.6: keep at most 1 unplayed card; the rest of the hand is discarded."""
    opts: list[Any] = [None, *sorted(set(g.hand[side]))]
    g.ask(side, K.KEEP, opts, _keep, side)


def _keep(g: Game, side: int, card: str | None) -> None:
    hand = g.hand[side]
    if card is not None:
        hand.remove(card)
    known = list(g.hand_seen[side])  # what the opponent knew, less what it sees discarded
    for c in hand:
        if c in known:
            known.remove(c)
    g.hand_seen[side] = tuple(known)
    g.discard[side].extend(hand)
    hand.clear()
    if card is not None:
        hand.append(card)


def _clear_round(g: Game, _ctx: Any = None) -> None:
    """9.6, 9.7: play areas to the discard piles, reminders off, next round."""
    for side in (LUX, WIT):
        g.discard[side].extend(g.play[side])
        g.play[side].clear()
    g.bonuses, g.kickers, g.blocked = (), (), frozenset()
    g.discounts = [(), ()]  # "next purchase" reminder tokens leave too (5.43, 9.6; DECISIONS)
    g.loyalty_bought = [False, False]
    g.round += 1
    g.push((round_start, None))


# -- game end (12.x) ----------------------------------------------------------------------------------
def prestige_count(g: Game, side: int) -> int:
    """12.21: market cards owned anywhere in the side's deck."""
    counted = g.rules.prestige
    return sum(1 for pile in g.piles(side) for c in pile if c in counted)


def final(g: Game, _ctx: Any = None) -> None:
    counts = [prestige_count(g, LUX), prestige_count(g, WIT)]
    prestige = [counts[0] // 4, counts[1] // 4]  # 12.23
    g.result["prestige_cards"] = counts
    g.result["prestige_votes"] = prestige
    diff = prestige[LUX] - prestige[WIT]
    side = LUX if diff > 0 else WIT
    frames: list = [(_prestige_vote, side) for _ in range(abs(diff))]  # 12.24
    frames.append((_final_vote, None))
    g.push(*frames)


def _prestige_vote(g: Game, side: int) -> None:
    g.ask(side, K.PRESTIGE_VOTE, g.rules.countries, vote_at, side)


def _final_vote(g: Game, _ctx: Any = None) -> None:
    """12.3, 12.4: more electors wins; a tie goes by John's marker, Neutral to Wittelsbach."""
    a, b = g.electors(LUX), g.electors(WIT)
    tie = a == b
    g.winner = (LUX if a > b else WIT) if not tie else (LUX if g.loyalty > 0 else WIT)
    g.result.update(electors=[a, b], tie=tie, round=g.round, crecy=bool(g.crecy_round),
                    loyalty=g.loyalty)
    g.over = True
    g.stack.clear()
    if g.log is not None:
        g.log.game_over(g)
