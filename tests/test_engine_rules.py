"""The rules engine against the rulebook: its worked examples and one test per section 3-12,
each on a hand-built state (rules v0.27.4)."""

from __future__ import annotations

import pytest

from cardgen.engine import Game, new_game
from cardgen.engine.flow import (
    _clear_round,
    _countries,
    _final_vote,
    _round_end_passives,
    draw_step,
    final,
    numbers_value,
    play_options,
    play_turn,
    point_cost,
    political_options,
    round_end,
    round_start,
)
from cardgen.engine.ops import Ctx, buy, purchase_payments, refill, resolve
from cardgen.engine.payment import payments
from cardgen.engine.rules import LUX, WIT
from cardgen.engine.stats import GameLog
from tests.engine_helpers import blank, drive, idx, resolve_deed, rules, start_play

# -- the rulebook's worked examples ---------------------------------------------------------


def test_example_7_5_stability_in_mainz():
    """7.5: Mainz (4); Lux 5, Wit 1: Wittelsbach's first point costs 2, then 1 each."""
    g = blank()
    m = idx("mainz")
    g.influence[LUX][m], g.influence[WIT][m] = 5, 1
    assert point_cost(g, WIT, m) == 2
    start_play(g, WIT, ["louis-v-of-brandenburg"])  # 2 political
    drive(g, ("louis-v-of-brandenburg", "political"), ("place", "mainz"))
    # the 2 political are spent on the first point (lead 4 → 3): nothing left
    assert g.influence[WIT][m] == 2
    assert point_cost(g, WIT, m) == 1


def test_example_7_51_rest_of_play_pays_one():
    g = blank()
    m = idx("mainz")
    g.influence[LUX][m], g.influence[WIT][m] = 5, 1
    start_play(g, WIT, ["baldwin-of-trier"])  # 3 political: 2 + 1
    drive(g, ("baldwin-of-trier", "political"), ("place", "mainz"), ("place", "mainz"))
    assert g.influence[WIT][m] == 3


def test_example_8_1_displacement_in_lombardy():
    """8.1: Wittelsbach 6 in Lombardy, Luxembourg places 5: Wittelsbach keeps 1."""
    g = blank()
    lo = idx("lombardy")
    g.military[WIT][lo] = 6
    g.place_military(LUX, lo, 5)
    assert (g.military[LUX][lo], g.military[WIT][lo]) == (0, 1)


def test_example_12_24_court_prestige_empties_saxony():
    """12.24: Lux 11 cards (2 votes), Wit 5 (1): Lux places 1 vote on Saxony, where Wit had 1."""
    g = blank(9)
    market = [c for c in rules().market if rules().cards[c].prestige]
    g.discard[LUX] = market[:11]
    g.discard[WIT] = market[11:16]
    s = idx("saxony")
    g.votes[WIT][s] = 1
    g.push((final, None))
    g.run()
    assert g.decision.kind == "prestige_vote" and g.decision.side == LUX
    drive(g, "saxony")
    assert g.votes[WIT][s] == 0 and g.votes[LUX][s] == 0
    assert g.over and g.result["prestige_votes"] == [2, 1]


@pytest.mark.parametrize("card, state", [
    ("pierre-de-rosieres", "no Clement VI shield in the Curia"),
    ("kutna-hora-silver-mines", "no Retinue in hand or discard pile"),
    ("henry-of-lipa", "leading in Bohemia"),
])
def test_example_5_31_unresolvable_deeds_cannot_be_chosen(card, state):
    g = blank()
    g.influence[LUX][idx("bohemia")] = 2
    g.hand[LUX] = [card]
    opts = play_options(g, LUX)
    assert (card, "deed") not in opts, state
    assert any(m in ("political", "military", "yield") for _c, m in opts)  # still playable


def test_example_5_31_resolvable_once_the_situation_changes():
    g = blank()
    g.hand[LUX] = ["pierre-de-rosieres", "kutna-hora-silver-mines", "henry-of-lipa", "royal-retinue"]
    g.shields["clement-vi"] = "curia-luxembourg"
    opts = play_options(g, LUX)
    for card in ("pierre-de-rosieres", "kutna-hora-silver-mines", "henry-of-lipa"):
        assert (card, "deed") in opts


def test_example_5_52_heinrich_stays_a_church_card():
    g = blank()
    resolve(g, rules().cards["clement-vi-elected"].event, Ctx(None, "clement-vi-elected"))
    g.aside = ["gerlach-of-nassau"]
    g.run()
    start_play(g, LUX, ["heinrich-of-virneburg"])
    drive(g, ("heinrich-of-virneburg", "political"), ("place", "mainz"), ("place", "mainz"),
          ("place", "mainz"))
    assert g.wallet[LUX] == [0, 0, 0, 0]  # no Church yield
    assert rules().cards["heinrich-of-virneburg"].types == ("church",)
    assert g.extra == ["gerlach-of-nassau"]  # 6.42 the sixth spot


# -- 3 setup ------------

@pytest.mark.parametrize("seed", [1, 2, 3])
def test_3_setup(seed):
    g = new_game(rules(), seed)
    r = rules()
    assert len(g.hand[LUX]) == len(g.hand[WIT]) == 5
    assert len(g.draw[LUX]) + 5 == 11 and len(g.draw[WIT]) + 5 == 12        # 3.31, 3.32
    assert r.johns[WIT] in g.draw[WIT] + g.hand[WIT] and r.johns[LUX] in g.aside
    assert len(g.row) == 5 and not any(r.cards[c].is_event for c in g.row)  # 3.42
    assert len(g.market) == 52                                              # 3.45
    assert g.market.index(r.crecy) < 6                                      # bottom 6
    assert g.market.index(r.late_entry) < 26                                # bottom half
    assert "gerlach-of-nassau" in g.aside and g.loyalty == -1 and g.first == WIT
    assert g.decision.side == WIT and g.decision.kind == "play"            # 3.5, 4.12


# -- 4 sequence of play ------------

def test_4_1_fewer_electors_chooses_and_tie_alternates():
    g = blank(2)
    g.votes[WIT][0] = 1
    g.push((round_start, None))
    g.run()
    assert g.decision.kind == "initiative" and g.decision.side == LUX
    g2 = blank(2)
    g2.first = WIT
    g2.hand = [["royal-retinue", "charles-iv"], ["ducal-retinue", "louis-iv"]]
    g2.push((round_start, None))
    g2.run()
    assert g2.first == LUX  # 4.11


def test_4_2_draw_bonus_and_4_3_play_bonus():
    g = blank(1)
    g.draw[LUX] = ["royal-retinue"] * 11
    g.bonus_cards = [2, 0]
    g.bonus_plays = [1, 0]
    g.hand[WIT] = ["ducal-retinue", "louis-iv"]
    g.push((draw_step, None))
    g.run()
    assert len(g.hand[LUX]) == 7 and g.plays_left[LUX] == 5


# -- 5 playing cards ------------

def test_5_23_zero_values_are_not_numbers_and_retinues_yield_only():
    g = blank()
    g.hand[LUX] = ["raimondino-lupi", "royal-retinue"]
    opts = play_options(g, LUX)
    assert ("raimondino-lupi", "political") not in opts
    assert ("royal-retinue", "yield") in opts and ("royal-retinue", "political") not in opts


def test_5_32_deed_ending_in_draw_is_always_possible():
    g = blank()
    g.hand[LUX] = ["blanche-de-valois"]  # Luxembourg doesn't hold John: only the draw
    assert ("blanche-de-valois", "deed") in play_options(g, LUX)


def test_5_6_counter_cancels_and_card_is_used_for_numbers():
    g = blank()
    g.hand[WIT] = []
    start_play(g, LUX, ["john-henry-of-luxembourg"])  # a German card
    g.hand[WIT] = ["pope-john-xxii", "ducal-retinue", "louis-iv"]  # counters German deeds
    drive(g, ("john-henry-of-luxembourg", "deed"))
    assert g.decision.kind == "counter" and g.decision.side == WIT
    drive(g, "pope-john-xxii")
    assert g.decision.kind == "countered_numbers"
    drive(g, "military", "tyrol")
    assert g.military[LUX][idx("tyrol")] == 3        # Numbers (5.62), not the Deed's 3 in Tyrol
    assert g.wallet[LUX][1] == 1                      # currency kept (5.62)
    assert "pope-john-xxii" in g.discard[WIT]


def test_5_65_drazice_shield_makes_church_deeds_uncounterable():
    g = blank()
    g.shields["john-iv-drazice"] = "curia-luxembourg"
    start_play(g, LUX, ["elizabeth-of-bohemia", "baldwin-of-trier"])
    g.hand[WIT] = ["pope-john-xxii", "ducal-retinue"]
    drive(g, ("baldwin-of-trier", "deed"))  # Church and German: protected by its Church type
    assert g.decision is None or g.decision.kind != "counter"
    assert g.influence[LUX][idx("trier")] == 3


def test_5_7_boost_only_when_payable_and_paid_after_counter_window():
    g = blank()
    g.hand[LUX] = ["charles-iv"]
    assert ("charles-iv", "boost") not in play_options(g, LUX)
    g.wallet[LUX] = [1, 0, 0, 0]  # the king's "any" yield pays the second Church
    assert ("charles-iv", "boost") in play_options(g, LUX)


def test_5_8_bonus_and_kicker():
    g = blank()
    g.bonuses = ((LUX, 1, "political", ("church",)),)
    g.kickers = ((LUX, "blanche-de-valois", 2),)
    assert numbers_value(g, LUX, "pierre-de-rosieres", "political") == 3
    assert numbers_value(g, LUX, "raimondino-lupi", "political") == 0      # 5.23
    assert numbers_value(g, LUX, "blanche-de-valois", "political") == 4    # 5.82
    assert g.kickers == ()                                                  # used once


def test_5_9_reshuffle_when_draw_pile_runs_out():
    g = blank()
    g.draw[LUX] = ["royal-retinue"]
    g.discard[LUX] = ["charles-iv", "blanche-de-valois"]
    assert g.draw_cards(LUX, 3) == 3 and not g.discard[LUX]
    assert g.draw_cards(LUX, 1) == 0


# -- 6 market and events ------------

def test_6_1_buy_with_exchange_to_bottom_of_draw_pile():
    g = blank()
    g.row = ["frankfurt"]  # costs 2 German
    g.draw[WIT] = ["ducal-retinue"]
    g.wallet[WIT] = [0, 0, 3, 0]  # the Retinue yields 1 German, 3 Western buy the other (6.12)
    start_play(g, WIT, ["marsilius-of-padua", "ducal-retinue"])
    drive(g, ("ducal-retinue", "yield"))
    assert g.decision.kind == "buy"
    drive(g, "frankfurt")
    assert g.draw[WIT][0] == "frankfurt" and g.wallet[WIT] == [0, 0, 0, 0]


def test_6_22_next_purchase_effects_add_up_and_are_used_up():
    g = blank()
    g.discounts[LUX] = ((2, False), (1, True))
    g.wallet[LUX] = [0, 0, 1, 0]  # 3 coins less 3 would be free; 2 + 1 leave 1 coin, Western as any
    assert purchase_payments(g, LUX, "philip-vi") == ((0, 0, 1, 0),)
    g.row = ["philip-vi"]
    buy(g, LUX, "philip-vi")
    g.run()
    assert g.discounts[LUX] == () and "philip-vi" in g.draw[LUX]


def test_6_12_the_buyer_chooses_which_cubes_pay():
    g = blank()
    g.wallet[LUX] = [3, 2, 0, 0]  # 2 German: both German cubes, or 1 and 3 Church by exchange
    assert purchase_payments(g, LUX, "frankfurt") == ((0, 2, 0, 0), (3, 1, 0, 0))
    g.row = ["frankfurt"]
    buy(g, LUX, "frankfurt")
    g.run()
    assert g.decision.kind == "payment"
    drive(g, (3, 1, 0, 0))  # keeps a German cube for a later purchase
    assert g.wallet[LUX] == [0, 1, 0, 0] and "frankfurt" in g.draw[LUX]


def test_6_4_event_revealed_in_refill_resolves_and_6_43_battle_vote():
    g = blank()
    g.military[WIT][idx("low-countries")] = 2
    g.market = ["frankfurt", "battle-of-cassel"]
    refill(g)
    g.run()
    assert g.votes[WIT][idx("cologne")] == 1
    assert g.row == ["frankfurt"] and "battle-of-cassel" in g.removed


def test_6_46_writing_history_counters_an_event():
    g = blank()
    g.hand[LUX] = ["peter-of-zittau"]
    g.market = ["frankfurt", "tyrol-marriage"]
    refill(g)
    g.run()
    assert g.decision.kind == "writing_history"
    drive(g, "peter-of-zittau")
    assert g.loyalty == -1 and g.military[WIT][idx("tyrol")] == 0
    assert "peter-of-zittau" in g.discard[LUX]


def test_6_21_free_acquire_is_not_a_purchase():
    g = blank()
    g.discounts[WIT] = ((2, False),)
    g.row = ["frankfurt", "edward-iii"]
    resolve(g, rules().cards["coronation-in-rome"].event, Ctx(None, "coronation-in-rome"))
    g.run()
    drive(g, "edward-iii")
    assert "edward-iii" in g.draw[WIT] and g.discounts[WIT] == ((2, False),)
    assert g.shields["edward-iii"] == "court-louis"  # 6.2, 11.1


def test_6_5_royal_chronicle_extra_purchase():
    g = blank()
    g.market = ["frankfurt", "hanseatic-league", "battle-of-cassel", "genoese-crossbowmen"]
    g.wallet[LUX] = [0, 0, 1, 0]  # cost minus 2 leaves 1 Western for the crossbowmen
    resolve_deed(g, LUX, "peter-of-zittau")
    assert set(g.decision.options) == {None, "genoese-crossbowmen"}  # events can't be bought
    drive(g, "genoese-crossbowmen")
    assert g.decision.kind == "order_market"  # the rest go back in any order (6.53), top first
    drive(g, ("hanseatic-league", "battle-of-cassel"))
    assert g.market == ["frankfurt", "battle-of-cassel", "hanseatic-league"]
    assert "genoese-crossbowmen" in g.draw[LUX] and g.wallet[LUX] == [0, 0, 0, 0]


# -- 7 elector countries ------------

def test_7_3_votes_are_a_net_pool():
    g = blank()
    g.gain_vote(LUX, 0)
    g.gain_vote(WIT, 0)
    assert g.votes[LUX][0] == g.votes[WIT][0] == 0
    g.gain_vote(WIT, 0)
    assert g.votes[WIT][0] == 1


def test_7_4_tie_gives_no_vote_and_7_6_foothold():
    g = blank()
    t, s = idx("trier"), idx("saxony")
    g.influence[LUX][t] = g.influence[WIT][t] = 2
    g.influence[LUX][s] = 3  # lead 3 >= stability 2
    _countries(g)
    assert g.votes[LUX][t] == g.votes[WIT][t] == 0
    assert g.votes[LUX][s] == 1 and g.influence[LUX][s] == 1 and g.influence[LUX][t] == 0


def test_9_21_elizabeth_richeza_breaks_a_tie_in_bohemia():
    g = blank()
    b = idx("bohemia")
    g.shields["elizabeth-richeza"] = "court-louis"
    g.influence[LUX][b] = g.influence[WIT][b] = 1
    _countries(g)
    assert g.votes[WIT][b] == 1


def test_7_52_deeds_ignore_stability():
    g = blank()
    b = idx("bohemia")
    g.influence[WIT][b] = 5
    resolve_deed(g, LUX, "elizabeth-of-bohemia")
    assert g.influence[LUX][b] == 3


# -- 8 battlegrounds ------------

def test_8_6_blocked_battleground_takes_no_military():
    g = blank()
    ty = idx("tyrol")
    g.blocked = frozenset({ty})
    g.place_military(LUX, ty, 3)
    assert g.military[LUX][ty] == 0
    g.hand[LUX] = ["john-henry-of-luxembourg"]
    assert ("john-henry-of-luxembourg", "deed") not in play_options(g, LUX)


def test_8_round_end_supply_control_and_decay():
    g = blank()
    g.military[LUX][idx("silesia-lusatia")] = 1
    g.military[WIT][idx("lombardy")] = 2
    g.push((round_end, None))
    g.run()
    assert g.decision.kind == "supply_line" and g.decision.side == WIT   # 8.42
    drive(g, "trier")
    # supply influence decided Bohemia and Trier (9.1 before 9.2)
    assert g.votes[LUX][idx("bohemia")] == 1 and g.votes[WIT][idx("trier")] == 1
    assert g.bonus_cards == [1, 1]                                         # 8.3
    assert g.military[LUX][idx("silesia-lusatia")] == 0                     # 8.5
    assert g.military[WIT][idx("lombardy")] == 1


# -- 9 round end ------------

def test_9_round_end_order_loyalty_rotation_keep():
    g = blank(3)
    g.first = LUX
    g.wallet[LUX] = [3, 0, 0, 0]
    g.row = ["frankfurt", "edward-iii"]
    g.market = ["genoese-crossbowmen"]
    g.hand[LUX] = ["charles-iv", "royal-retinue"]
    g.play[LUX] = ["blanche-de-valois"]
    g.draw[LUX] = ["royal-retinue"] * 8
    g.draw[WIT] = ["ducal-retinue", "louis-iv"] * 3
    g.push((round_end, None))
    g.run()
    assert g.decision.kind == "buy_loyalty"
    drive(g, True)
    assert g.loyalty == 0 and g.wallet[LUX] == [0, 0, 0, 0]                # 9.4
    assert g.row == ["edward-iii", "genoese-crossbowmen"]                   # 9.5 oldest out
    assert g.decision.kind == "keep"
    drive(g, "charles-iv")
    assert g.hand[LUX][0] == "charles-iv" and len(g.hand[LUX]) == 6         # 9.6, then 4.2
    assert sorted(g.discard[LUX]) == ["blanche-de-valois", "royal-retinue"]
    assert g.round == 4                                                     # 9.7


# -- 10 John -----------------------------------------------------------------------------------------------

def test_10_2_john_costs_three_and_moves_loyalty_away():
    g = blank()
    j = rules().johns[WIT]
    g.draw[WIT] = []
    start_play(g, WIT, [j, "ducal-retinue"])
    assert (j, "military") not in play_options(g, WIT)
    g2 = blank()
    g2.wallet[WIT] = [0, 3, 0, 0]
    start_play(g2, WIT, [j])
    drive(g2, (j, "military"), "tyrol")
    assert g2.wallet[WIT] == [0, 0, 0, 0] and g2.loyalty == 0               # 10.31


def test_10_5_flip_moves_john_to_the_other_discard_pile():
    g = blank()
    r = rules()
    g.hand[WIT] = [r.johns[WIT]]
    g.aside = [r.johns[LUX]]
    g.loyalty = 1
    g.move_loyalty(LUX)
    assert g.loyalty == 2 and r.johns[LUX] in g.discard[LUX] and r.johns[WIT] in g.aside
    assert g.john_holder() == LUX


def test_10_61_john_cannot_be_removed():
    g = blank()
    g.hand[WIT] = [rules().johns[WIT], "ducal-retinue"]
    resolve_deed(g, WIT, "william-of-ockham")
    assert all(choice is None or choice[1] != rules().johns[WIT] for choice in g.decision.options)


# -- 11 shields ------------

def test_11_passive_round_end_gain_and_shield_leaves_with_card():
    g = blank()
    g.shields["charles-i-robert"] = "court-charles"
    _round_end_passives(g)
    g.run()
    assert g.wallet[LUX][3] == 1
    g.remove_card("charles-i-robert")
    assert "charles-i-robert" not in g.shields                              # 11.6


# -- 12 game end ------------

def test_12_1_crecy_john_dies_luxembourg_inherits_edward_vote():
    g = blank(5)
    r = rules()
    g.discard[LUX] = [r.johns[LUX]]
    g.aside = [r.johns[WIT]]
    g.shields["edward-iii"] = "court-louis"
    g.market = [r.crecy]
    refill(g)
    g.run()
    assert g.john_dead
    assert g.votes[LUX][idx("bohemia")] == 1
    assert g.decision.kind == "gain_vote" and g.decision.side == WIT        # exactly one vote
    drive(g, "saxony")
    assert g.decision is None and g.votes[WIT][idx("saxony")] == 1
    assert g.last_round and g.crecy_round == 5


@pytest.mark.parametrize("loyalty, winner", [(1, LUX), (-1, WIT), (0, WIT)])
def test_12_4_overall_tie_goes_by_john(loyalty, winner):
    g = blank(9)
    g.votes[LUX][0] = g.votes[WIT][1] = 1
    g.loyalty = loyalty
    _final_vote(g)
    assert g.result["tie"] and g.winner == winner


def test_12_3_more_electors_wins():
    g = blank(9)
    g.votes[LUX][0] = g.votes[LUX][1] = g.votes[WIT][2] = 1
    g.loyalty = -2
    _final_vote(g)
    assert g.winner == LUX and not g.result["tie"]


def test_political_options_place_or_remove_never_both():
    g = blank()
    g.influence[WIT][0] = 1
    opts = political_options(g, LUX, 2, None)
    assert ("remove", rules().countries[0]) in opts and ("place", rules().countries[0]) in opts
    assert all(a == "remove" for a, _ in political_options(g, LUX, 2, "remove"))


# -- documented decisions (DECISIONS.md, "Rules engine") ------------

def test_no_playable_card_loses_the_play():
    g = blank()
    j = rules().johns[WIT]
    g.hand[WIT] = [j]  # John without his 3 currency (10.2)
    g.hand[LUX] = ["royal-retinue", "charles-iv"]
    g.plays_left = [1, 1]
    g.turn = WIT
    g.push((play_turn, None))
    g.run()
    assert g.plays_left == [1, 0] and g.hand[WIT] == [j]
    assert g.decision.side == LUX and g.decision.kind == "play"


def _louis_boost_until_the_counter_window() -> Game:
    g = blank()
    g.wallet[WIT] = [0, 2, 0, 0]
    g.influence[LUX][idx("bohemia")] = 3
    g.influence[LUX][idx("trier")] = 2
    start_play(g, WIT, ["louis-iv", "ducal-retinue"])
    g.hand[LUX] = ["elizabeth-richeza", "royal-retinue", "charles-iv"]  # counters removals
    assert ("louis-iv", "boost") in g.decision.options
    drive(g, ("louis-iv", "boost"))
    drive(g, "german")  # the king's "any" yield
    assert g.decision.kind == "remove_influence_point"  # the Deed's choices come first (5.61)
    drive(g, "trier", "bohemia")
    assert g.decision.kind == "counter" and "elizabeth-richeza" in g.decision.options
    return g


def test_counter_by_deed_op_matches_an_announced_boost_after_its_choices():
    g = _louis_boost_until_the_counter_window()
    drive(g, None)
    assert g.wallet[WIT] == [0, 1, 0, 0]  # the boost is paid (5.73)
    assert g.influence[LUX][idx("trier")] == 1 and g.influence[LUX][idx("bohemia")] == 2


def test_a_countered_deed_leaves_the_table_as_before_it():
    g = _louis_boost_until_the_counter_window()
    drive(g, "elizabeth-richeza")
    assert g.wallet[WIT] == [0, 3, 0, 0]  # yield kept (5.62), no boost paid (5.73)
    assert g.influence[LUX][idx("trier")] == 2 and g.influence[LUX][idx("bohemia")] == 3
    assert g.influence[WIT][idx("palatinate")] == 0  # none of the Deed's text (5.63)
    assert g.decision.kind == "countered_numbers" and "elizabeth-richeza" in g.discard[LUX]


def test_next_purchase_discount_ends_with_the_round():
    """5.43, 9.6: a "next purchase" effect is a reminder token (components.yaml), removed at
    round end with the others."""
    g = blank(3)
    g.discounts[LUX] = ((2, False),)
    g.hand = [["royal-retinue", "charles-iv"], ["ducal-retinue", "louis-iv"]]
    _clear_round(g)
    assert g.discounts[LUX] == ()


def test_look_at_draw_pile_one_card_at_a_time_then_any_order():
    g = blank()
    g.draw[LUX] = ["royal-retinue", "charles-iv", "blanche-de-valois", "elizabeth-of-bohemia"]
    resolve(g, (rules().cards["charles-i-robert"].deed[0],), Ctx(LUX, "charles-i-robert"))
    g.run()
    assert (g.decision.kind, g.decision.card) == ("look", "elizabeth-of-bohemia")  # top card first
    drive(g, "top", "discard", "top")
    assert g.decision.kind == "order_draw_top"  # 5.92: in any order, top first
    drive(g, ("charles-iv", "elizabeth-of-bohemia"))
    assert g.draw[LUX] == ["royal-retinue", "elizabeth-of-bohemia", "charles-iv"]
    assert g.discard[LUX] == ["blanche-de-valois"] and g.looking == [[], []]


def test_john_being_looked_at_is_still_held():
    g = blank()
    r = rules()
    g.draw[LUX] = ["royal-retinue", r.johns[LUX]]
    g.aside = [r.johns[WIT]]
    resolve(g, (r.cards["charles-i-robert"].deed[0],), Ctx(LUX, "charles-i-robert"))
    g.run()
    assert g.decision is not None and g.john_holder() == LUX


def test_gain_any_currency_is_one_chosen_currency():
    g = blank()
    g.hand[LUX] = ["royal-retinue"]
    resolve_deed(g, LUX, "kutna-hora-silver-mines")
    assert g.decision.kind == "gain_currency"
    drive(g, "eastern")
    assert g.wallet[LUX] == [0, 0, 0, 3] and "royal-retinue" in g.removed


def test_removals_take_the_opponents_military():
    g = blank()
    lo = idx("lombardy")
    g.military[WIT][lo] = 3
    resolve_deed(g, LUX, "robert-of-naples")
    assert g.military[WIT][lo] == 1 and g.wallet[LUX][0] == 1


def test_crecy_in_the_rotation_stops_the_refill_and_ends_the_game():
    g = blank(4)
    r = rules()
    g.discard[WIT] = [r.johns[WIT]]
    g.aside = [r.johns[LUX]]
    g.row = ["frankfurt", "edward-iii"]
    g.market = ["genoese-crossbowmen", r.crecy]
    g.push((round_end, None))
    g.run()
    assert g.over and g.result["crecy"] and g.result["round"] == 4
    assert g.market == ["genoese-crossbowmen"] and g.row == ["edward-iii"]


def test_a_countered_deed_keeps_the_playtest_recorder_recording():
    """The table goes back (5.61), the recorder's figures with it; its callback stays live."""
    g = _louis_boost_until_the_counter_window()
    seen: list[int] = []
    g.log = GameLog(lambda _g: seen.append(1))
    before = g.snapshot()  # as the Counter window saved it, now with a recorder
    g.log.currency(WIT, "german", 5)
    g.restore(before)
    assert g.log.gained[WIT]["german"] == 0
    g.ask(LUX, "keep", (None, "royal-retinue"), lambda *_: None)
    assert seen == [1]


def test_6_12_legal_payments_are_the_pareto_minimal_ones():
    assert payments([3, 1, 0, 0], ["german"]) == ((0, 1, 0, 0), (3, 0, 0, 0))  # match or 3:1
    assert payments([4, 1, 0, 0], ["german"]) == ((0, 1, 0, 0), (3, 0, 0, 0))  # never 4 Church
    assert payments([2, 1, 0, 0], ["any", "any"]) == ((1, 1, 0, 0), (2, 0, 0, 0))
    assert payments([0, 0, 1, 0], ["church"], wild=True) == ((0, 0, 1, 0),)  # Wool Trade (6.22)
    assert payments([2, 0, 0, 0], ["german"]) == ()
