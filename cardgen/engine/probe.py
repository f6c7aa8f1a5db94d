"""Resolve card lines in sampled game states: what `cardgen check` uses to play every Deed.

States are snapshots taken during seeded random games (mid-round, at card plays), so the
board holds influence, military, bought cards and revealed events. Choices inside a line are
made by a seeded random chooser; nothing here touches the global ``random``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..data.model import Effect
from .flow import new_game
from .ops import Ctx, possible, resolve
from .rules import LUX, WIT, EffectError, Rules
from .state import Game

#: Condition ops: their branches are probed on their own (the branch is the effect).
CONDITIONS = frozenset({"if_shield", "if_lead", "if_holds_john", "if_control"})
#: Ops that say themselves when they can't be used: a condition, or a removal of something
#: the text names (opponent influence or military, a card from a pile).
SAYS_WHEN = CONDITIONS | {"remove_influence", "remove_military", "remove_from_game"}
MAX_STEPS = 500


def sample_states(rules: Rules, games: int = 3, every: int = 8) -> list[Game]:
    """Snapshots of seeded random games at every ``every``-th card play, before the final
    round that Crécy announces (its market deck may be spent: an end state, not play)."""
    states: list[Game] = []
    for seed in range(games):
        g = new_game(rules, seed)
        states.append(g.clone())
        pick = random.Random(seed)
        plays = 0
        try:
            while not g.over and g.decision is not None:
                if g.decision.kind == "play" and not g.last_round:
                    plays += 1
                    if plays % every == 0:
                        states.append(g.clone())
                g.step(pick.choice(g.decision.options))
        except Exception:  # a broken line: probing it line by line names it
            continue
    return states


def snapshot(g: Game) -> tuple:
    """Everything an effect can change, as an immutable copy (compared, never shown)."""
    def both(sides: list[list]) -> tuple:
        return tuple(map(tuple, sides))

    return (both(g.wallet), both(g.influence), both(g.military), both(g.votes), g.loyalty,
            both(g.draw), both(g.hand), both(g.discard), both(g.play), tuple(g.row),
            tuple(g.extra), tuple(g.market), tuple(sorted(g.shields.items())), g.stopped,
            g.blocked, g.bonuses, g.kickers, tuple(g.discounts), tuple(g.removed),
            g.last_round, g.john_dead)


@dataclass(frozen=True)
class Outcome:
    changed: bool
    error: str | None = None
    culprit: str | None = None  # the card whose effect failed


def run_effects(state: Game, effects: tuple[Effect, ...], side: int | None, card: str,
                seed: int, controller: int | None = None) -> Outcome:
    """Resolve ``effects`` (as the data states them: the schema's defaults are filled here)
    on a copy of ``state`` with seeded random choices."""
    effects = state.rules.filled(effects)
    g = state.clone()
    g.stack, g.decision = [], None
    g.rng = random.Random(seed)
    before = snapshot(g)
    pick = random.Random(seed)
    try:
        resolve(g, effects, Ctx(side, card, controller))
        g.run()
        steps = 0
        while g.decision is not None:
            steps += 1
            if steps > MAX_STEPS:
                return Outcome(True, "the effect keeps asking for choices without end")
            g.step(pick.choice(g.decision.options))
        bad = g.broken_invariants()
        if bad:
            return Outcome(True, "it breaks the rules' invariants: " + "; ".join(bad))
    except EffectError as exc:
        return Outcome(True, str(exc), exc.card)
    except Exception as exc:  # any crash is the finding
        return Outcome(True, f"{type(exc).__name__}: {exc}", card)
    return Outcome(snapshot(g) != before)


def leaves(effects: tuple[Effect, ...], controlled: bool = False) -> list[tuple[Effect, bool]]:
    """The effects to probe one by one: conditions are opened up into their branches; the
    flag says a branch names a battleground's controller (``if_control``)."""
    out: list[tuple[Effect, bool]] = []
    for eff in effects:
        if eff.op in CONDITIONS:
            inner = controlled or eff.op == "if_control"
            out.extend(leaves(eff.params.get("then") or (), inner))
            out.extend(leaves(eff.params.get("otherwise") or (), inner))
        else:
            out.append((eff, controlled))
    return out


def acting_side(rules: Rules, card: str, i: int) -> int | None:
    info = rules.cards[card]
    if info.is_event:
        return None
    if info.deck == "luxembourg":
        return LUX
    if info.deck == "wittelsbach":
        return WIT
    return i % 2


def unresolvable(state: Game, effects: tuple[Effect, ...], side: int, card: str) -> bool:
    """Whether the Deed can't be chosen here; a blocked battleground doesn't count, as the
    blocking card says so itself (8.6)."""
    g = state.clone()
    g.blocked = frozenset()
    return not possible(g, state.rules.filled(effects), Ctx(side, card))
