"""Every kind of decision the engine asks a player for, and what each one is about.

A :class:`DecisionKind` is a string (``DecisionKind.PLAY == "play"``), so reports and logs
keep their names. Players group kinds by :attr:`DecisionKind.concern` and
:attr:`DecisionKind.starts_action` instead of listing names of their own.
"""

from __future__ import annotations

from enum import Enum, StrEnum


class Concern(Enum):
    """What a decision's options change."""

    ACTION = "which whole action comes next (a card play, a purchase, the first player)"
    INFLUENCE = "where influence is placed or removed"
    MILITARY = "where military is placed"
    CURRENCY = "which cubes are paid or gained"
    CARDS = "which of the side's own cards go where, or in which order"
    REPLY = "whether to answer the other side's Deed or a revealed event"
    FOLLOW_UP = "a choice whose worth shows only in the choices it leads to"
    BOARD = "another mark on the board: a vote, a block, a supply line, a looked-at card"


class DecisionKind(StrEnum):
    PLAY = "play"                                     # 4.3, 5.1
    BUY = "buy"                                       # 6.1
    INITIATIVE = "initiative"                         # 4.1
    KEEP = "keep"                                     # 9.6
    BUY_LOYALTY = "buy_loyalty"                       # 9.4, 10.4
    PAYMENT = "payment"                               # 6.12
    YIELD_CURRENCY = "yield_currency"                 # 2.4: an "any" yield
    GAIN_CURRENCY = "gain_currency"
    POLITICAL_POINT = "political_point"               # 5.21, 7.5
    PLACE_INFLUENCE = "place_influence"
    REMOVE_INFLUENCE = "remove_influence"
    PLACE_INFLUENCE_POINT = "place_influence_point"
    REMOVE_INFLUENCE_POINT = "remove_influence_point"
    MILITARY_NUMBERS = "military_numbers"             # 5.2, 8.1
    PLACE_MILITARY = "place_military"
    REMOVE_MILITARY = "remove_military"
    BLOCK_BATTLEGROUND = "block_battleground"         # 8.6
    SUPPLY_LINE = "supply_line"                       # 8.42
    COUNTER = "counter"                               # 5.6
    COUNTERED_NUMBERS = "countered_numbers"           # 5.62
    WRITING_HISTORY = "writing_history"               # 6.46
    CHRONICLE_BUY = "chronicle_buy"                   # 6.52
    ORDER_MARKET = "order_market"                     # 6.53
    ORDER_DRAW_TOP = "order_draw_top"                 # 5.92
    ORDER_DRAW_BOTTOM = "order_draw_bottom"           # 5.92
    LOOK = "look"                                     # 5.92: one looked-at card, Decision.card
    ACQUIRE_FREE = "acquire_free"                     # 6.21
    REMOVE_FROM_GAME = "remove_from_game"
    GAIN_VOTE = "gain_vote"                           # 7.31
    BATTLE_VOTE = "battle_vote"                       # 6.43
    LOYALTY_DIRECTION = "loyalty_direction"           # 10.3
    PRESTIGE_VOTE = "prestige_vote"                   # 12.24

    @property
    def concern(self) -> Concern:
        return _CONCERN[self]

    @property
    def starts_action(self) -> bool:
        """Whether the decision opens an action of its own (a look-ahead of the action under
        way stops before it)."""
        return self in _STARTS


K = DecisionKind
_STARTS = frozenset({K.PLAY, K.BUY, K.INITIATIVE, K.KEEP, K.BUY_LOYALTY})
_CONCERN: dict[DecisionKind, Concern] = {
    K.PLAY: Concern.ACTION, K.BUY: Concern.ACTION, K.INITIATIVE: Concern.ACTION,
    K.BUY_LOYALTY: Concern.ACTION, K.KEEP: Concern.CARDS,
    K.PAYMENT: Concern.CURRENCY, K.YIELD_CURRENCY: Concern.CURRENCY,
    K.GAIN_CURRENCY: Concern.CURRENCY,
    K.POLITICAL_POINT: Concern.INFLUENCE, K.PLACE_INFLUENCE: Concern.INFLUENCE,
    K.REMOVE_INFLUENCE: Concern.INFLUENCE, K.PLACE_INFLUENCE_POINT: Concern.INFLUENCE,
    K.REMOVE_INFLUENCE_POINT: Concern.INFLUENCE,
    K.MILITARY_NUMBERS: Concern.MILITARY, K.PLACE_MILITARY: Concern.MILITARY,
    K.REMOVE_MILITARY: Concern.BOARD, K.BLOCK_BATTLEGROUND: Concern.BOARD,
    K.SUPPLY_LINE: Concern.BOARD, K.GAIN_VOTE: Concern.BOARD, K.BATTLE_VOTE: Concern.BOARD,
    K.PRESTIGE_VOTE: Concern.BOARD, K.LOOK: Concern.BOARD,
    K.COUNTER: Concern.REPLY, K.WRITING_HISTORY: Concern.REPLY,
    K.COUNTERED_NUMBERS: Concern.FOLLOW_UP, K.CHRONICLE_BUY: Concern.FOLLOW_UP,
    K.ACQUIRE_FREE: Concern.FOLLOW_UP, K.LOYALTY_DIRECTION: Concern.FOLLOW_UP,
    K.ORDER_MARKET: Concern.CARDS, K.ORDER_DRAW_TOP: Concern.CARDS,
    K.ORDER_DRAW_BOTTOM: Concern.CARDS, K.REMOVE_FROM_GAME: Concern.CARDS,
}
#: The influence decisions that remove (the others place), and the all-at-once ones.
REMOVING = frozenset({K.REMOVE_INFLUENCE, K.REMOVE_INFLUENCE_POINT})
ALL_AT_ONCE = frozenset({K.PLACE_INFLUENCE, K.REMOVE_INFLUENCE})
