"""Seeded players: uniformly random, greedy over whole actions, and a search player
(:mod:`.search`). Each draws every random choice from its own ``random.Random(seed)``, so a
game is a pure function of its seeds.

The greedy player scores every option of a decision by resolving it to completion on a copy
drawn from its side's information state (:meth:`.knowledge.InfoState.sample`; a player is
given only that, never the game): every choice inside the action is
made by its own policy (:meth:`Policy.inner`), up to the next top-level decision (a play, a
purchase, the initiative, a loyalty step, the hand kept). Then :class:`.evaluate.Evaluator`
scores the copy. A political Numbers play is placed point by point where each point gains
the most per political spent (stability, 7.5), so its score sees where the influence lands.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence
from typing import Any, Protocol, cast

from .evaluate import FOOTHOLD, Evaluator
from .kinds import ALL_AT_ONCE, REMOVING, Concern, DecisionKind, Option
from .kinds import DecisionKind as K
from .knowledge import InfoState
from .payment import can_pay
from .rules import CUR, Rules
from .state import Decision, Game


def _of(*concerns: Concern) -> frozenset[DecisionKind]:
    return frozenset(k for k in DecisionKind if k.concern in concerns)


#: Decisions that start an action of their own: a look-ahead stops before them.
BOUNDARY = frozenset(k for k in DecisionKind if k.starts_action)
#: Influence choices scored point by point from the board alone (no copy needed).
INFLUENCE = _of(Concern.INFLUENCE)
#: Military placements, scored by placing on the board and taking the placement back.
MILITARY = _of(Concern.MILITARY)
#: Choices scored by a rule of thumb from public information.
RULED = _of(Concern.CURRENCY, Concern.CARDS)
#: Inner choices whose consequences come only with later choices: resolved to completion.
DEEP = _of(Concern.REPLY, Concern.FOLLOW_UP)
#: Decided without a look-ahead copy: they need nothing hidden.
PUBLIC = INFLUENCE | MILITARY | RULED
#: Cards put back in an order (5.92, 6.53).
ORDERS = frozenset(k for k in DecisionKind if k.option is Option.ORDER)
MAX_INNER_STEPS = 200
INITIATIVE_PLAYS = 2  # how far the initiative's look-ahead plays (one play per side)


class Player(Protocol):
    def choose(self, info: InfoState) -> Hashable: ...


class RandomPlayer:
    """Any legal option, uniformly."""

    def __init__(self, seed: int, **_options: Any):
        self.rng = random.Random(seed)

    def choose(self, info: InfoState) -> Hashable:
        return self.rng.choice(info.decision.options)


class Policy:
    """The greedy's decisions, shared with the search player's playouts."""

    def __init__(self, rules: Rules, rng: random.Random):
        self.ev = Evaluator(rules)
        self.rng = rng
        self.country_index = {name: i for i, name in enumerate(rules.countries)}

    def best(self, scored: Sequence[tuple[float, Hashable]]) -> Hashable:
        bar = max([s for s, _ in scored]) - 1e-9
        best = [o for s, o in scored if s > bar]
        return best[0] if len(best) == 1 else self.rng.choice(best)

    # -- rules of thumb where the evaluation can't see the difference -------------------
    def payment(self, g: Game, d: Decision) -> Hashable:
        """6.12: the payment that keeps the most later purchases affordable."""
        w = g.wallet[d.side]
        row = [g.rules.cards[c].cost for c in (*g.row, *g.extra)]
        scored = []
        for cubes in cast("tuple[tuple[int, ...], ...]", d.options):  # a payment: cubes per currency
            left = [w[i] - cubes[i] for i in range(4)]
            scored.append((sum(1 for cost in row if can_pay(left, cost)) + 0.01 * min(left),
                           cubes))
        return self.best(scored)

    def currency(self, g: Game, d: Decision) -> Hashable:
        """Gain the currency that makes the most of the row affordable (2.4)."""
        w = g.wallet[d.side]
        amount = d.amount or 1
        row = [g.rules.cards[c].cost for c in (*g.row, *g.extra)]
        scored = []
        for cur in cast("tuple[str, ...]", d.options):  # currency names
            after = list(w)
            after[CUR[cur]] += amount
            scored.append((sum(1 for cost in row if can_pay(after, cost)) - 0.01 * w[CUR[cur]], cur))
        return self.best(scored)

    def rule(self, g: Game, d: Decision) -> Hashable:
        kind = d.kind
        if kind == K.PAYMENT:
            return self.payment(g, d)
        if kind == K.KEEP:
            return self.keep(g, d)
        if kind in ORDERS:
            return self.order(g, d)
        if kind == K.REMOVE_FROM_GAME:
            return self.thin(g, d)
        return self.currency(g, d)

    def _average(self, g: Game, side: int) -> float:
        power = self.ev.power
        cards = [c for pile in g.piles(side) for c in pile]
        return sum(power[c] for c in cards) / len(cards) if cards else 0.0

    def thin(self, g: Game, d: Decision) -> Hashable:
        """Remove the weakest card while it is weaker than the deck's average card."""
        power = self.ev.power
        cards = [cast("tuple[Any, str]", o) for o in d.options if o is not None]  # (where, card id)
        weakest = min(cards, key=lambda o: (power[o[1]], o))
        if None in d.options and power[weakest[1]] >= self._average(g, d.side):
            return None
        return weakest

    def military(self, g: Game, d: Decision) -> Hashable:
        """Where the military adds most to the evaluation (bonus and supply line)."""
        side, amount = d.side, d.amount or 0
        names = g.rules.battlegrounds
        return self.best([(self.ev.military_gain(g, side, names.index(o), amount), o)
                           for o in d.options])

    def keep(self, g: Game, d: Decision) -> Hashable:
        """9.6: keep the strongest card if it beats an average draw from the draw pile."""
        power = self.ev.power
        cards = [cast(str, c) for c in d.options if c is not None]  # card ids
        best = max(cards, key=lambda c: (power[c], c))
        return best if power[best] > self._average(g, d.side) else None

    def order(self, g: Game, d: Decision) -> Hashable:
        """5.92: own cards strongest first; the market deck (6.53) as it comes."""
        if d.kind == K.ORDER_MARKET:
            return self.rng.choice(d.options)
        power = self.ev.power
        orders = cast("tuple[tuple[str, ...], ...]", d.options)  # orders of card ids
        return max(orders, key=lambda o: ([power[c] for c in o], o))

    def influence(self, g: Game, d: Decision) -> Hashable:
        """Where an influence point (or an all-in-one placement) gains most per political
        spent: the lead's expected vote, footholds and stability (7.5, 7.6).

        :meth:`.evaluate.Evaluator.country` and :func:`.flow.point_cost` inlined, the same
        arithmetic in the same order (a decision is worth a few hundred of them a game)."""
        side, ev = d.side, self.ev
        k = 0.55 + 0.1 * g.round  # ev.control(g), ev.scale(g)
        scale = 0.8 + 0.9 * (g.plays_left[0] + g.plays_left[1])
        sup = ev.supply(g, side)
        o = 1 - side
        mine, theirs = g.influence[side], g.influence[o]
        vs, vo = g.votes[side], g.votes[o]
        stability = g.rules.stability
        index = self.country_index
        tanh = math.tanh
        kind = d.kind
        verb = "remove" if kind in REMOVING else "place"
        points = kind.option is Option.POINT  # (place or remove, country), else a country
        paid = kind == K.POLITICAL_POINT
        placed = (d.amount or 1) if not paid and kind in ALL_AT_ONCE else 1
        before: dict[int, tuple[float, float]] = {}
        scored = []
        for opt in d.options:
            action, name = cast("tuple[str, str]", opt) if points else (verb, cast(str, opt))
            e = index[name]
            stab = stability[e]
            cost = (2 if theirs[e] - mine[e] >= stab else 1) if paid else 1
            amount = min(placed, theirs[e]) if action == "remove" else placed
            if e in before:
                lead, value = before[e]
            else:
                lead = mine[e] - theirs[e] + sup[e]
                value = tanh(k * (vs[e] - vo[e] + tanh(lead / scale)))
                if lead >= stab:
                    value += FOOTHOLD
                elif -lead >= stab:
                    value -= FOOTHOLD
                before[e] = (lead, value)
            after = lead + amount
            gain = tanh(k * (vs[e] - vo[e] + tanh(after / scale)))
            if after >= stab:
                gain += FOOTHOLD
            elif -after >= stab:
                gain -= FOOTHOLD
            scored.append(((gain - value) / cost, opt))
        return self.best(scored)

    # -- look-ahead --------------------------------------------------------------------
    def inner(self, g: Game, d: Decision) -> Hashable:
        """A choice inside an action, made on a look-ahead copy."""
        kind = d.kind
        if kind in INFLUENCE:
            return self.influence(g, d)
        if kind in RULED:
            return self.rule(g, d)
        if kind in MILITARY:
            return self.military(g, d)
        if kind in DEEP:
            return self.whole(g, d)
        scored = []
        for opt in d.options:
            c = g.clone()
            c.step(opt, settle=False)
            scored.append((self.ev.value(c, d.side), opt))
        return self.best(scored)

    def finish(self, c: Game) -> None:
        """Make every choice of the action under way, up to the next top-level decision."""
        for _ in range(MAX_INNER_STEPS):
            if c.over:
                return
            d = c.decision
            if d is None:
                if c.waiting is None or c.waiting in BOUNDARY:
                    return
                c.settle()
                continue
            if d.kind in BOUNDARY:
                return
            c.step(self.inner(c, d), settle=False)

    def scores(self, g: Game, d: Decision) -> list[tuple[float, Hashable]]:
        """Every option with the evaluation its whole action leaves ``d.side``."""
        scored = []
        for opt in d.options:
            c = g.clone()
            c.step(opt, settle=False)
            self.finish(c)
            scored.append((self.ev.value(c, d.side), opt))
        return scored

    def whole(self, g: Game, d: Decision) -> Hashable:
        """The option whose whole action leaves ``d.side`` best off."""
        return self.best(self.scores(g, d))

    def decide(self, g: Game, d: Decision) -> Hashable:
        """The greedy choice on ``g`` as it is (a copy that already hides what it should)."""
        if d.kind in PUBLIC:
            return self.inner(g, d)
        return self.whole(g, d)

    def play_on(self, c: Game, plays: int) -> None:
        """Play ``c`` on with this policy for both sides for ``plays`` card plays, or to the
        round's end."""
        start, target = c.round, sum(c.plays_made) + plays
        for _ in range(MAX_INNER_STEPS * 4):
            d = c.decision
            if c.over or c.round != start or d is None or sum(c.plays_made) >= target \
                    or d.kind in (K.KEEP, K.BUY_LOYALTY):
                return
            c.step(self.decide(c, d))


class GreedyPlayer:
    """Scores every option by its whole action on a copy of what its side knows."""

    def __init__(self, seed: int, **_options: Any):
        self.rng = random.Random(seed)
        self.policy: Policy | None = None

    def policy_for(self, g: Game) -> Policy:
        if self.policy is None or self.policy.ev.rules is not g.rules:
            self.policy = Policy(g.rules, self.rng)
        return self.policy

    def choose(self, info: InfoState) -> Hashable:
        d = info.decision
        policy = self.policy_for(info.view)
        if d.kind in PUBLIC:
            return policy.inner(info.view, d)  # decided from what the table shows
        if d.kind == K.INITIATIVE:
            return self._initiative(info, d, policy)
        return policy.whole(info.sample(self.rng), d)

    def _initiative(self, info: InfoState, d: Decision, policy: Policy) -> Hashable:
        """4.1: the first player after whose opening plays, made by the same policy for
        both sides, the evaluation is best."""
        scored = []
        base = info.sample(self.rng)
        for opt in d.options:
            c = base.clone()
            c.step(opt)
            policy.play_on(c, INITIATIVE_PLAYS)
            scored.append((policy.ev.value(c, d.side), opt))
        return policy.best(scored)
