"""Game state: one mutable object with a cheap :meth:`Game.clone` for look-ahead.

The game advances through a stack of frames ``(function, context)``; a frame that needs a
player's choice sets :attr:`Game.decision` and stops the run. :meth:`Game.step` answers it.
Frames hold only module functions and immutable contexts, so a clone shares them safely.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from .kinds import DecisionKind
from .rules import CUR, LUX, WIT, Rules

Frame = tuple[Callable[["Game", Any], None], Any]
UNSEEN = 1 << 30  # no index of a pile: nothing of it seen
Resume = Callable[["Game", Any, Any], None]


@dataclass(frozen=True, init=False)
class Decision:
    """A choice the engine waits for: who chooses, what kind of choice, the legal options;
    ``amount`` is how much the choice places or gains where that varies (influence placed
    all at once, military, currency), ``card`` the card a choice is about (one looked at,
    5.92). ``resume`` and ``ctx`` are the engine's own."""

    side: int
    kind: DecisionKind
    options: tuple[Hashable, ...]
    resume: Resume
    ctx: Any
    amount: int | None = None
    card: str | None = None

    def __init__(self, side: int, kind: DecisionKind, options: tuple[Hashable, ...],
                 resume: Resume, ctx: Any, amount: int | None = None, card: str | None = None):
        # set once, past the frozen __setattr__: a frozen dataclass's own __init__ costs a
        # call per field, and the engine makes tens of thousands of decisions a game
        self.__dict__.update(side=side, kind=kind, options=options, resume=resume, ctx=ctx,
                             amount=amount, card=card)


@dataclass(frozen=True)
class Snapshot:
    """The table at a moment the game may return to: a Deed announced before its Counter
    window (5.61). ``rng_state`` and ``log`` (the stats recorder's figures) are the real
    game's, None on look-ahead copies."""

    game: Game
    rng_state: tuple | None = None
    log: Any = None


class IllegalChoice(Exception):
    """An option that is not among the decision's legal options."""


class Game:
    """Everything on the table, in the hands and in the decks."""

    def __init__(self, rules: Rules, seed: int):
        self.rules = rules
        self.rng: random.Random | None = random.Random(seed)
        nc, nb = len(rules.countries), len(rules.battlegrounds)
        self.round = 1
        self.first = WIT
        self.turn = WIT
        self.plays_left = [0, 0]
        self.plays_made = [0, 0]
        self.owned = [0, 0]         # Court Prestige cards acquired and not removed (heuristics)
        self.bonus_cards = [0, 0]   # draw bonus for this round (8.3), set at 9.3
        self.bonus_plays = [0, 0]
        self.draw: list[list[str]] = [[], []]   # top of the pile is the END of the list
        self.hand: list[list[str]] = [[], []]
        self.discard: list[list[str]] = [[], []]
        self.play: list[list[str]] = [[], []]
        self.looking: list[list[str]] = [[], []]  # own cards being looked at (5.92)
        self.wallet = [[0] * 4, [0] * 4]
        self.influence = [[0] * nc, [0] * nc]
        self.military = [[0] * nb, [0] * nb]
        self.votes = [[0] * nc, [0] * nc]
        self.loyalty = -1            # -2 Ludwig 2 … +2 Charles 2; starts on Ludwig 1 (3.22)
        self.john_dead = False
        self.aside: list[str] = []   # set-aside cards (3.32, 3.41)
        self.removed: list[str] = []  # removed from the game (and used events)
        self.limbo: list[str] = []   # a revealed event while it resolves (6.4)
        self.row: list[str] = []     # the regular market row, oldest first (9.5)
        self.extra: list[str] = []   # the extra sixth spot (6.42)
        self.market: list[str] = []  # the market deck, top is the END
        self.shields: dict[str, str] = {}
        self.stopped: frozenset[tuple[str, str]] = frozenset()
        self.blocked: frozenset[int] = frozenset()
        self.bonuses: tuple[tuple[int, int, str, tuple[str, ...]], ...] = ()
        self.kickers: tuple[tuple[int, str, int], ...] = ()
        self.discounts: list[tuple[tuple[int, bool], ...]] = [(), ()]
        self.loyalty_bought = [False, False]
        self.last_round = False
        self.crecy_round = 0
        self.in_rotation = False
        self.over = False
        self.winner: int | None = None
        self.result: dict[str, Any] = {}
        self.stack: list[Frame] = []
        self.decision: Decision | None = None
        self.pending: tuple | None = None  # a decision whose options are not listed yet
        self.log: Any = None         # a stats recorder on the real game, None on look-aheads
        # what each side has seen of hidden order (:mod:`.knowledge`); indices count from the
        # bottom of a pile, which cards leaving from the top don't move
        self.market_seen = [UNSEEN, UNSEEN]  # the side knows the market deck from here up (6.5)
        self.top_seen = [UNSEEN, UNSEEN]     # the owner knows its draw pile from here up (5.92)
        self.bottom_seen: list[tuple[int, ...]] = [(), ()]  # who knows each bottom card (6.11)
        self.hand_seen: list[tuple[str, ...]] = [(), ()]  # hand cards the opponent knows

    # -- copying ------------------------------------------------------------------------
    def clone(self) -> Game:
        """An independent copy for look-ahead; its shuffles use their own generator, made
        only if it reshuffles (a look-ahead must not learn the real draw order)."""
        g = Game.__new__(Game)
        d = g.__dict__
        d.update(self.__dict__)
        g.rng = None
        dh, hh, di, pl = self.draw, self.hand, self.discard, self.play
        g.draw = [dh[0][:], dh[1][:]]
        g.hand = [hh[0][:], hh[1][:]]
        g.discard = [di[0][:], di[1][:]]
        g.play = [pl[0][:], pl[1][:]]
        g.looking = [self.looking[0][:], self.looking[1][:]]
        w, i, m, v = self.wallet, self.influence, self.military, self.votes
        g.wallet = [w[0][:], w[1][:]]
        g.influence = [i[0][:], i[1][:]]
        g.military = [m[0][:], m[1][:]]
        g.votes = [v[0][:], v[1][:]]
        g.plays_left = self.plays_left[:]
        g.plays_made = self.plays_made[:]
        g.owned = self.owned[:]
        g.bonus_cards = self.bonus_cards[:]
        g.bonus_plays = self.bonus_plays[:]
        g.aside = self.aside[:]
        g.removed = self.removed[:]
        g.limbo = self.limbo[:]
        g.row = self.row[:]
        g.extra = self.extra[:]
        g.market = self.market[:]
        g.discounts = self.discounts[:]
        g.market_seen = self.market_seen[:]
        g.top_seen = self.top_seen[:]
        g.bottom_seen = self.bottom_seen[:]
        g.hand_seen = self.hand_seen[:]
        g.loyalty_bought = self.loyalty_bought[:]
        g.stack = self.stack[:]
        g.shields = dict(self.shields)
        g.result = dict(self.result)
        g.log = None
        return g

    def snapshot(self) -> Snapshot:
        log = None
        if self.log is not None:  # the recorder's figures; its callbacks stay as they are
            log = {k: copy.deepcopy(v) for k, v in vars(self.log).items() if not callable(v)}
        return Snapshot(self.clone(), self.rng.getstate() if self.rng is not None else None, log)

    def restore(self, snap: Snapshot) -> None:
        """Put the table back as ``snap`` holds it; the generator and the stats recorder stay
        the same objects, set back to their state then."""
        rng, log = self.rng, self.log
        self.__dict__.update(snap.game.clone().__dict__)
        self.rng = rng
        if rng is not None and snap.rng_state is not None:
            rng.setstate(snap.rng_state)
        self.log = log
        if log is not None and snap.log is not None:
            vars(log).update(copy.deepcopy(snap.log))

    # -- running ------------------------------------------------------------------------
    def push(self, *frames: Frame) -> None:
        """Schedule frames to run in the given order, before anything already scheduled."""
        self.stack.extend(reversed(frames))

    def run(self, settle: bool = True) -> None:
        """Resolve frames until a decision is pending. With ``settle`` (the real game) a
        decision's options are listed at once; a look-ahead may stop before listing them."""
        while True:
            while self.decision is None and self.pending is None and self.stack and not self.over:
                fn, ctx = self.stack.pop()
                fn(self, ctx)
            if self.pending is None or not settle or self.over:
                return
            side, kind, producer, resume, ctx = self.pending
            self.pending = None
            self.ask(side, kind, producer(self, ctx), resume, ctx)

    def ask(self, side: int, kind: DecisionKind, options: Sequence[Hashable], resume: Resume,
            ctx: Any = None, amount: int | None = None, card: str | None = None) -> None:
        """Wait for ``side`` to choose; a single legal option is taken at once, none skips."""
        if not options:
            return
        if len(options) == 1:
            resume(self, ctx, options[0])
            return
        self.decision = Decision(side, kind, tuple(options), resume, ctx, amount, card)
        if self.log is not None:  # the state a player sees: what the playtest measures
            self.log.observe(self)

    def ask_later(self, side: int, kind: DecisionKind, producer: Callable[[Game, Any], Sequence[Hashable]],
                  resume: Resume, ctx: Any = None) -> None:
        """Like :meth:`ask`, with the options listed by ``producer`` only when needed."""
        self.pending = (side, kind, producer, resume, ctx)

    @property
    def waiting(self) -> DecisionKind | None:
        """The kind of decision the game waits for, its options listed or not yet (after a
        look-ahead's ``step(option, settle=False)``); None when it waits for nothing."""
        if self.decision is not None:
            return self.decision.kind
        return self.pending[1] if self.pending is not None else None

    def settle(self) -> None:
        """List the options of the decision the game waits for (see :meth:`run`)."""
        self.run()

    def step(self, option: Hashable, settle: bool = True) -> None:
        d = self.decision
        if d is None:
            raise IllegalChoice("no decision is pending")
        if option not in d.options:
            raise IllegalChoice(f"{option!r} is not a legal {d.kind} option")
        self.decision = None
        d.resume(self, d.ctx, option)
        self.run(settle)

    # -- cards --------------------------------------------------------------------------
    def piles(self, side: int) -> tuple[list[str], ...]:
        """Everywhere the side's own cards are, cards being looked at included."""
        return (self.draw[side], self.hand[side], self.discard[side], self.play[side],
                self.looking[side])

    def draw_cards(self, side: int, n: int) -> int:
        """Draw ``n`` cards, reshuffling the discard pile when the draw pile runs out (5.9)."""
        drawn = 0
        pile, hand = self.draw[side], self.hand[side]
        for _ in range(n):
            if not pile:
                if not self.discard[side]:
                    break
                pile.extend(self.discard[side])
                self.discard[side].clear()
                if self.rng is None:  # a look-ahead copy reshuffling
                    self.rng = random.Random(self.round * 7919 + len(self.removed))
                self.rng.shuffle(pile)
                self.top_seen[side], self.bottom_seen[side] = UNSEEN, ()
            card = pile.pop()
            hand.append(card)
            drawn += 1
            seen = self.bottom_seen[side]
            if len(seen) > len(pile):  # a card both sides saw go to the bottom (6.11)
                if seen[-1] >> (1 - side) & 1:
                    self.hand_seen[side] += (card,)
                self.bottom_seen[side] = seen[:len(pile)]
        if self.top_seen[side] >= len(pile):
            self.top_seen[side] = UNSEEN
        return drawn

    def from_hand(self, side: int, card: str) -> None:
        """``card`` leaves the side's hand face up (played, discarded, removed)."""
        self.hand[side].remove(card)
        known = self.hand_seen[side]
        if card in known:
            i = known.index(card)
            self.hand_seen[side] = known[:i] + known[i + 1:]

    def from_draw(self, side: int, index: int) -> str:
        """Take the card at ``index`` (from the bottom) out of the side's draw pile."""
        card = self.draw[side].pop(index)
        seen = self.bottom_seen[side]
        if index < len(seen):
            self.bottom_seen[side] = seen[:index] + seen[index + 1:]
        if index < self.top_seen[side] < UNSEEN:
            self.top_seen[side] -= 1
        if self.top_seen[side] >= len(self.draw[side]):
            self.top_seen[side] = UNSEEN
        return card

    def to_bottom(self, side: int, cards: Sequence[str], seen_by: int) -> None:
        """Put ``cards`` (the first ends lowest) under the side's draw pile; ``seen_by`` is a
        bit per side that saw them go there (bit ``1 << side``)."""
        self.draw[side][0:0] = cards
        self.bottom_seen[side] = (seen_by,) * len(cards) + self.bottom_seen[side]
        if self.top_seen[side] < UNSEEN:
            self.top_seen[side] += len(cards)

    def observe(self, side: int) -> Any:
        """What ``side`` knows now: an :class:`.knowledge.InfoState` (the only thing a player
        is given), its hidden parts resampled exactly by :meth:`~.knowledge.InfoState.sample`."""
        from .knowledge import observe
        return observe(self, side)

    def john_holder(self) -> int | None:
        """The side whose deck holds a John card (10.0), or None once he died."""
        if self.john_dead:
            return None
        for side in (LUX, WIT):
            j = self.rules.johns
            for pile in self.piles(side):
                if j[0] in pile or j[1] in pile:
                    return side
        return None

    # -- currency -----------------------------------------------------------------------
    def total(self, side: int) -> int:
        return sum(self.wallet[side])

    def gain(self, side: int, currency: str, amount: int) -> None:
        self.wallet[side][CUR[currency]] += amount
        if self.log is not None:
            self.log.currency(side, currency, amount)

    def lose(self, side: int, currency: str, amount: int) -> None:
        w = self.wallet[side]
        i = CUR[currency]
        w[i] = max(0, w[i] - amount)

    def pay(self, side: int, cubes: list[int]) -> None:
        w = self.wallet[side]
        for i in range(4):
            w[i] -= cubes[i]
        if self.log is not None:
            self.log.spent(side, sum(cubes))

    # -- board --------------------------------------------------------------------------
    def lead(self, side: int, country: int) -> int:
        return self.influence[side][country] - self.influence[1 - side][country]

    def controller(self, bg: int) -> int | None:
        """The side with military there (6.40, 8.2)."""
        if self.military[LUX][bg] > 0:
            return LUX
        if self.military[WIT][bg] > 0:
            return WIT
        return None

    def place_military(self, side: int, bg: int, amount: int) -> None:
        """Displacement (8.1); nothing enters a blocked battleground (8.6)."""
        if bg in self.blocked:
            return
        other = self.military[1 - side]
        cancel = min(other[bg], amount)
        other[bg] -= cancel
        self.military[side][bg] += amount - cancel

    def gain_vote(self, side: int, elector: int) -> None:
        """Net pool (7.31): remove an opponent vote first, else add one."""
        other = self.votes[1 - side]
        if other[elector] > 0:
            other[elector] -= 1
        else:
            self.votes[side][elector] += 1

    def electors(self, side: int) -> int:
        return sum(1 for v in self.votes[side] if v > 0)

    def move_loyalty(self, toward: int) -> None:
        """One step toward ``toward`` (LUX = Charles), then the flip check (10.5)."""
        step = 1 if toward == LUX else -1
        self.loyalty = max(-2, min(2, self.loyalty + step))
        holder = self.john_holder()
        if holder is None:
            return
        if (holder == WIT and self.loyalty == 2) or (holder == LUX and self.loyalty == -2):
            self.flip_john(holder)

    def take_johns(self, side: int) -> list[str]:
        """Take every John card out of the side's piles (10.5, 12.11)."""
        out = []
        j = self.rules.johns
        for card in (j[0], j[1]):
            while card in self.draw[side]:
                out.append(self.from_draw(side, self.draw[side].index(card)))
            while card in self.hand[side]:
                self.from_hand(side, card)
                out.append(card)
            for pile in (self.discard[side], self.play[side], self.looking[side]):
                while card in pile:
                    pile.remove(card)
                    out.append(card)
        return out

    def flip_john(self, holder: int) -> None:
        """John moves to the other side's discard pile (10.5)."""
        for card in self.take_johns(holder):
            self.aside.append(card)
        new = 1 - holder
        j = self.rules.johns
        self.aside.remove(j[new])
        self.discard[new].append(j[new])
        if self.log is not None:
            self.log.flip(new)

    def remove_card(self, card: str) -> None:
        """A card leaves the game; its shield returns to the supply (11.6)."""
        self.removed.append(card)
        shield = self.rules.cards[card].shield
        if shield and self.rules.shield_card.get(shield) == card:
            self.shields.pop(shield, None)

    # -- invariants (checked by the property tests) -------------------------------------
    def all_cards(self) -> list[str]:
        out = [*self.aside, *self.removed, *self.limbo, *self.row, *self.extra, *self.market]
        for side in (LUX, WIT):
            for pile in self.piles(side):
                out.extend(pile)
        return out

    def broken_invariants(self) -> list[str]:
        """What is wrong with this state (empty when all holds)."""
        bad = []
        for side in (LUX, WIT):
            if min(self.wallet[side]) < 0:
                bad.append(f"wallet of side {side} below 0: {self.wallet[side]}")
        for bg, name in enumerate(self.rules.battlegrounds):
            if self.military[LUX][bg] > 0 and self.military[WIT][bg] > 0:
                bad.append(f"both sides have military in {name}")
        for e, name in enumerate(self.rules.countries):
            if self.votes[LUX][e] > 0 and self.votes[WIT][e] > 0:
                bad.append(f"both sides have votes on {name}")
        j = self.rules.johns
        cards = self.all_cards()
        in_play = sum(1 for side in (LUX, WIT) for pile in self.piles(side) for c in pile if c in j)
        if self.john_dead:
            if in_play:
                bad.append("a John card is in a deck after Crécy")
        elif in_play != 1:
            bad.append(f"John is in {in_play} places")
        for side in (LUX, WIT):  # what the opponent saw is still where it saw it
            if Counter(self.hand_seen[side]) - Counter(self.hand[side]):
                bad.append(f"a card side {1 - side} saw in the hand of side {side} is not there")
            if len(self.bottom_seen[side]) > len(self.draw[side]):
                bad.append(f"more cards seen under the draw pile of side {side} than it holds")
        if sorted(cards) != self.rules.inventory:
            bad.append("cards were created or lost")
        return bad


