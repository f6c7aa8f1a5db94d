"""Every kind of decision the engine asks a player for, and what each one is about.

A :class:`DecisionKind` is a string (``DecisionKind.PLAY == "play"``), so reports and logs
keep their names. Players group kinds by :attr:`DecisionKind.concern` and
:attr:`DecisionKind.starts_action` instead of listing names of their own, and read an
option by its :attr:`DecisionKind.option` shape (:func:`fits` checks one).
"""

from __future__ import annotations

from collections.abc import Hashable
from enum import Enum, StrEnum

from .rules import CURRENCIES, SIDES, Rules


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


class Option(Enum):
    """The shape of one option."""

    PLAY = "(card id, use): use one of political, military, deed, boost, yield (5.1)"
    CARD = "a card id"
    CARD_OR_NONE = "a card id, or None: none"
    PAYMENT = "cubes paid per currency, in the order church, German, Western, Eastern (6.12)"
    CURRENCY = "a currency name"
    POINT = "(place or remove, country name): one influence point (5.21)"
    COUNTRY = "an elector country's name"
    BATTLEGROUND = "a battleground's name"
    REMOVAL = "(hand or discard, card id), or None: stop (up to)"
    ORDER = "card ids, top first"
    YES_NO = "True or False"
    SIDE = "a house: luxembourg or wittelsbach"
    DIRECTION = "a way for John's marker: charles or ludwig"
    PLACE = "where a looked-at card goes: top, bottom or discard (5.92)"
    NUMBERS = "political or military: the Numbers a countered card gives instead (5.62)"


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
    def option(self) -> Option:
        return _OPTION[self]

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
_OPTION: dict[DecisionKind, Option] = {
    K.PLAY: Option.PLAY, K.BUY: Option.CARD_OR_NONE, K.INITIATIVE: Option.SIDE,
    K.KEEP: Option.CARD_OR_NONE, K.BUY_LOYALTY: Option.YES_NO, K.PAYMENT: Option.PAYMENT,
    K.YIELD_CURRENCY: Option.CURRENCY, K.GAIN_CURRENCY: Option.CURRENCY,
    K.POLITICAL_POINT: Option.POINT, K.PLACE_INFLUENCE: Option.COUNTRY,
    K.REMOVE_INFLUENCE: Option.COUNTRY, K.PLACE_INFLUENCE_POINT: Option.COUNTRY,
    K.REMOVE_INFLUENCE_POINT: Option.COUNTRY, K.MILITARY_NUMBERS: Option.BATTLEGROUND,
    K.PLACE_MILITARY: Option.BATTLEGROUND, K.REMOVE_MILITARY: Option.BATTLEGROUND,
    K.BLOCK_BATTLEGROUND: Option.BATTLEGROUND, K.SUPPLY_LINE: Option.COUNTRY,
    K.COUNTER: Option.CARD_OR_NONE, K.COUNTERED_NUMBERS: Option.NUMBERS,
    K.WRITING_HISTORY: Option.CARD_OR_NONE,
    K.CHRONICLE_BUY: Option.CARD_OR_NONE, K.ORDER_MARKET: Option.ORDER,
    K.ORDER_DRAW_TOP: Option.ORDER, K.ORDER_DRAW_BOTTOM: Option.ORDER, K.LOOK: Option.PLACE,
    K.ACQUIRE_FREE: Option.CARD, K.REMOVE_FROM_GAME: Option.REMOVAL,
    K.GAIN_VOTE: Option.COUNTRY, K.BATTLE_VOTE: Option.COUNTRY,
    K.LOYALTY_DIRECTION: Option.DIRECTION, K.PRESTIGE_VOTE: Option.COUNTRY,
}
#: The influence decisions that remove (the others place), and the all-at-once ones.
REMOVING = frozenset({K.REMOVE_INFLUENCE, K.REMOVE_INFLUENCE_POINT})
ALL_AT_ONCE = frozenset({K.PLACE_INFLUENCE, K.REMOVE_INFLUENCE})

_USES = frozenset({"political", "military", "deed", "boost", "yield"})
_WORDS = {Option.YES_NO: (False, True), Option.SIDE: SIDES, Option.DIRECTION: ("charles", "ludwig"),
          Option.PLACE: ("top", "bottom", "discard"), Option.NUMBERS: ("political", "military"),
          Option.CURRENCY: CURRENCIES}


def fits(shape: Option, value: Hashable, rules: Rules) -> bool:
    """Whether ``value`` is an option of that shape under ``rules``."""
    cards = rules.cards
    if shape in _WORDS:
        return any(value is w or (type(value) is type(w) and value == w) for w in _WORDS[shape])
    if shape in (Option.CARD, Option.CARD_OR_NONE):
        return value in cards or (value is None and shape is Option.CARD_OR_NONE)
    if shape is Option.COUNTRY:
        return value in rules.countries
    if shape is Option.BATTLEGROUND:
        return value in rules.battlegrounds
    if not isinstance(value, tuple):
        return shape is Option.REMOVAL and value is None
    if shape is Option.PLAY:
        return len(value) == 2 and value[0] in cards and value[1] in _USES
    if shape is Option.POINT:
        return len(value) == 2 and value[0] in ("place", "remove") and value[1] in rules.countries
    if shape is Option.REMOVAL:
        return len(value) == 2 and value[0] in ("hand", "discard") and value[1] in cards
    if shape is Option.PAYMENT:
        return len(value) == len(CURRENCIES) and all(type(n) is int and n >= 0 for n in value)
    return shape is Option.ORDER and all(c in cards for c in value)
