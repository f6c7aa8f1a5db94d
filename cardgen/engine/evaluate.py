"""How good a position is for one side, in elector units: what the final vote (12.3) rewards.

The score is the expected elector margin at the final vote plus what feeds it later:

* every elector box (7.3): its net votes plus the vote this round's influence lead is
  expected to win at round end (9.2), supply lines (8.4) included, through a smooth control
  curve (a box one vote from flipping is worth less than one held by three);
* footholds (7.6), the stability the lead buys (7.5: the opponent pays double there);
* battlegrounds (8.x): next round's bonus card or play (8.3), by how safely each is held;
* John's loyalty (10.3) and who it gives an overall tie to (12.4);
* Court Prestige (12.2): every 4 market cards are a vote at the end;
* currency, worth what it can still buy (less every round, nothing at the final vote);
* the deck's quality: what its cards do per play (political, military or Deed value,
  :func:`card_power`), times the plays the side has left, not what they cost.

Everything it reads is public (the opponent's hand counts by its size only), so a side's
evaluation never depends on what it can't see.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ..data.model import Effect
from .rules import LUX, ROUNDS, WIT, Rules
from .state import Game

#: What one unit of each deed op is worth in influence points (the unit of card power).
OP_POWER = {"place_influence": 1.1, "remove_influence": 1.0, "place_military": 0.6,
            "remove_military": 0.5, "gain_currency": 0.6, "lose_currency": 0.3, "draw": 1.5,
            "gain_vote": 4.0, "battle_vote": 2.5, "move_loyalty": 1.0, "discount_next_purchase": 0.6,
            "acquire_free": 4.0, "remove_from_game": 0.6, "bonus_numbers": 1.0, "kicker": 0.6,
            "block_battleground": 1.0, "look_draw_pile": 0.3, "look_market_deck": 1.0,
            "place_shield": 1.5, "enter_market": 0.5, "stop_yield": 0.5, "last_round": 0.0,
            "john_dies": 0.0}
MILITARY_RATE = 0.7   # a military point against a political point
YIELD_RATE = 0.4      # a currency cube gained by playing the card
INFLUENCE_UNIT = 0.045  # elector units per influence point of a future play (deck quality)
PRESTIGE_CARD = 0.22  # a market card's share of a Court Prestige vote (12.23)
BONUS_VALUE = {"play": 0.45, "card": 0.3}  # next round's bonus of a battleground (8.3)
LOYALTY_STEP = 0.12
TIE_BREAK = 0.3
FOOTHOLD = 0.12
HAND_CARD = 0.05


def _deed_power(effects: Iterable[Effect], factor: float = 1.0) -> float:
    total = 0.0
    for eff in effects:
        p = eff.params
        if eff.op in ("if_shield", "if_lead", "if_holds_john", "if_control"):
            total += 0.5 * _deed_power(p.get("then") or (), factor)
            total += 0.5 * _deed_power(p.get("otherwise") or (), factor)
            continue
        amount = p.get("amount", p.get("steps", 1))
        amount = amount if isinstance(amount, int) else 1
        weight = OP_POWER.get(eff.op, 0.0)
        if p.get("who") == "opponent":
            weight = -weight if eff.op in ("place_influence", "gain_currency", "draw") else weight
        elif p.get("who") == "each":
            weight *= 0.2
        total += factor * weight * amount
    return total


def card_power(rules: Rules, card: str) -> float:
    """What one play of ``card`` does, in influence points: its best use (political,
    military or Deed with its boost) plus its yield; John's cost counted against him."""
    info = rules.cards[card]
    uses = [float(info.political), MILITARY_RATE * info.military]
    if info.deed:
        uses.append(_deed_power(info.deed))
        if info.boost:
            boost = _deed_power(info.boost) if info.boost_replaces else \
                _deed_power(info.deed) + _deed_power(info.boost)
            uses.append(boost - YIELD_RATE * len(info.boost_cost))
    return max(uses) + YIELD_RATE * len(info.yields) - YIELD_RATE * info.use_cost


class Evaluator:
    """The evaluation for one rule set (card powers and round plays made once)."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.power = {c: card_power(rules, c) for c in rules.cards}
        plays = rules.plays
        self.plays_after = [sum(plays[r + 1:ROUNDS + 1]) for r in range(ROUNDS + 1)]
        self.links = [(b, links) for b, links in enumerate(rules.links) if links]
        self.bonus = [BONUS_VALUE.get(kind, 0.3) for kind in rules.bonus]
        self.countries = len(rules.countries)
        self.stability = list(enumerate(rules.stability))

    # -- parts ---------------------------------------------------------------------------
    def control(self, g: Game) -> float:
        """The smooth value of a vote margin: steeper later, as fewer rounds can undo it."""
        return 0.55 + 0.1 * g.round

    def scale(self, g: Game) -> float:
        """How much influence may still swing this round (the plays left on both sides)."""
        return 0.8 + 0.9 * (g.plays_left[0] + g.plays_left[1])

    def supply(self, g: Game, side: int) -> list[float]:
        """Expected supply-line influence (8.4) for ``side`` minus the opponent's, per country:
        2 per held battleground, weighted by how safely it is held until round end."""
        sup = [0.0] * self.countries
        mil_s, mil_o = g.military[side], g.military[1 - side]
        swing = 1.0 + 0.5 * (g.plays_left[0] + g.plays_left[1])
        inf_s, inf_o = g.influence[side], g.influence[1 - side]
        for b, links in self.links:
            m = mil_s[b] - mil_o[b]
            if m == 0:
                continue
            held = math.tanh(m / swing)
            if len(links) == 1:
                e = links[0]
            else:  # the linked country with the smallest lead either way, the first on ties
                e, best = links[0], abs(inf_s[links[0]] - inf_o[links[0]])
                for i in links[1:]:
                    d = abs(inf_s[i] - inf_o[i])
                    if d < best:
                        e, best = i, d
            sup[e] += 2.0 * held
        return sup

    def country(self, g: Game, side: int, e: int, lead: float, k: float, scale: float) -> float:
        """One elector box: its net votes plus the expected round-end vote of ``lead``."""
        net = g.votes[side][e] - g.votes[1 - side][e]
        value = math.tanh(k * (net + math.tanh(lead / scale)))
        stab = self.rules.stability[e]
        if lead >= stab:
            value += FOOTHOLD
        elif -lead >= stab:
            value -= FOOTHOLD
        return value

    def military_gain(self, g: Game, side: int, b: int, amount: int) -> float:
        """What placing ``amount`` military in battleground ``b`` adds to :meth:`value`: its
        bonus (8.3) and its supply line's expected vote (8.4); displacement nets (8.1)."""
        if b in g.blocked:
            return 0.0
        m = g.military[side][b] - g.military[1 - side][b]
        gain = 0.0
        if g.round < ROUNDS and not g.last_round:
            gain += self.bonus[b] * (math.tanh(0.7 * (m + amount)) - math.tanh(0.7 * m))
        links = self.rules.links[b]
        if links:
            swing = 1.0 + 0.5 * (g.plays_left[0] + g.plays_left[1])
            inf_s, inf_o = g.influence[side], g.influence[1 - side]
            e, close = links[0], abs(inf_s[links[0]] - inf_o[links[0]])
            for i in links[1:]:  # the linked country with the smallest lead, the first on ties
                if abs(inf_s[i] - inf_o[i]) < close:
                    e, close = i, abs(inf_s[i] - inf_o[i])
            k, scale = 0.55 + 0.1 * g.round, 0.8 + 0.9 * (g.plays_left[0] + g.plays_left[1])
            sup = 2.0 * math.tanh(m / swing)  # a country has one supply line at most (8.41)
            lead = inf_s[e] - inf_o[e] + sup
            delta = 2.0 * math.tanh((m + amount) / swing) - sup
            gain += self.country(g, side, e, lead + delta, k, scale) - \
                self.country(g, side, e, lead, k, scale)
        return gain

    def deck(self, g: Game, side: int) -> float:
        """Average card power times the plays the side has left."""
        power = self.power.__getitem__
        dr, ha, di, pl, lo = g.draw[side], g.hand[side], g.discard[side], g.play[side], \
            g.looking[side]
        n = len(dr) + len(ha) + len(di) + len(pl) + len(lo)
        if not n:
            return 0.0
        # pile by pile, in this order: the same sum whatever the speed-ups
        total = 0.0 + sum(map(power, dr)) + sum(map(power, ha)) + sum(map(power, di)) + \
            sum(map(power, pl)) + sum(map(power, lo))
        future = self.plays_after[min(g.round, ROUNDS)] + g.plays_left[side]
        return INFLUENCE_UNIT * future * total / n

    # -- the whole score -----------------------------------------------------------------
    def value(self, g: Game, side: int) -> float:
        o = 1 - side
        if g.over:
            margin = g.electors(side) - g.electors(o)
            return (100.0 if g.winner == side else -100.0) + margin
        k = 0.55 + 0.1 * g.round  # self.control(g), self.scale(g), inlined
        scale = 0.8 + 0.9 * (g.plays_left[0] + g.plays_left[1])
        sup = self.supply(g, side)
        inf_s, inf_o = g.influence[side], g.influence[o]
        vs, vo = g.votes[side], g.votes[o]
        tanh = math.tanh
        score = 0.0
        for e, stab in self.stability:
            lead = inf_s[e] - inf_o[e] + sup[e]
            score += tanh(k * (vs[e] - vo[e] + tanh(lead / scale)))
            if lead >= stab:
                score += FOOTHOLD
            elif -lead >= stab:
                score -= FOOTHOLD
        if g.round < ROUNDS and not g.last_round:  # no bonus after the final round (9.8)
            ms, mo = g.military[side], g.military[o]
            for b, worth in enumerate(self.bonus):
                m = ms[b] - mo[b]
                if m:
                    score += worth * tanh(0.7 * m)
        lo = g.loyalty if side == LUX else -g.loyalty
        score += LOYALTY_STEP * lo
        tie_holder = LUX if g.loyalty > 0 else WIT
        score += TIE_BREAK if tie_holder == side else -TIE_BREAK
        score += PRESTIGE_CARD * (g.owned[side] - g.owned[o])
        left = 0.0 if g.last_round else max(0.0, (ROUNDS - g.round + 0.3) / ROUNDS)
        score += 0.12 * left * (sum(g.wallet[side]) - sum(g.wallet[o]))
        score += self.deck(g, side) - self.deck(g, o)
        score += HAND_CARD * (len(g.hand[side]) - len(g.hand[o]))
        return score
