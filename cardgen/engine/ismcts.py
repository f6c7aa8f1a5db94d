"""Single-observer information-set Monte Carlo tree search (IS-MCTS).

At each card play (4.3) with two options or more, the player runs ``simulations``
iterations. Each draws one determinization from what its side knows
(:meth:`.knowledge.InfoState.sample`, never the game), descends the one tree with UCB over
the options legal in that determinization (a child's exploration term counts the
iterations in which it was available, not its parent's visits), expands one node, scores
the leaf with the project's evaluator squashed to a win probability
(``(1 + tanh(value / SCALE)) / 2``, from the observer's side) and backs it up, each node
counting it from the side that chose there. Every decision of the engine is a node, so a
chain of point-by-point choices (influence placed one cube at a time) is a path of nodes;
progressive widening keeps such a node to ``1 + WIDEN * visits ** ALPHA`` children, the
children added in the greedy-free random order of a seeded generator. Action keys are the
options themselves (card names, countries, amounts), equal across determinizations.
Every other decision is the greedy's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from typing import Any

from .kinds import DecisionKind
from .knowledge import InfoState
from .players import GreedyPlayer, Policy
from .state import Game

SIMULATIONS = 32
EXPLORE = 0.3  # UCB constant on win probabilities
SCALE = 10.0  # evaluator points per unit of tanh's argument
WIDEN, ALPHA = 2.0, 0.5  # progressive widening
ROLLOUT = 0  # card plays the greedy plays on from a leaf before it is scored
SEARCHED = frozenset({DecisionKind.PLAY})


class Node:
    """Statistics of one action key below a node: value sum (for the side that chose it),
    visits, and how many iterations it was legal in."""

    __slots__ = ("avail", "children", "visits", "wins")

    def __init__(self) -> None:
        self.children: dict[Hashable, Node] = {}
        self.wins = 0.0
        self.visits = 0
        self.avail = 0


class ISMCTSPlayer:
    def __init__(self, seed: int, simulations: int = SIMULATIONS, rollout: int = ROLLOUT, **_: Any):
        self.rng = random.Random(seed)
        self.greedy = GreedyPlayer(seed)
        self.greedy.rng = self.rng
        self.simulations, self.rollout = simulations, rollout
        self.steps = 0  # engine steps taken in the tree: the search's work, for tests

    def choose(self, info: InfoState) -> Hashable:
        d = info.decision
        if d.kind not in SEARCHED or len(d.options) < 2:
            return self.greedy.choose(info)
        policy = self.greedy.policy_for(info.view)
        root = Node()
        for _ in range(self.simulations):
            g = info.sample(self.rng)
            self._iterate(root, g, d.side, policy)
        best = max(d.options, key=lambda o: (root.children[o].visits, root.children[o].wins)
                   if o in root.children else (-1, 0.0))
        return best

    def _iterate(self, root: Node, g: Game, me: int, policy: Policy) -> None:
        path: list[tuple[Node, int]] = []
        node = root
        while not g.over and g.decision is not None:
            d = g.decision
            legal = [o for o in d.options if o in node.children]
            fresh = [o for o in d.options if o not in node.children]
            if fresh and (node is root or len(legal) < 1 + WIDEN * node.visits ** ALPHA):
                key = self.rng.choice(fresh)
                child = node.children[key] = Node()
                for o in legal:
                    node.children[o].avail += 1
                child.avail += 1
                path.append((child, d.side))
                g.step(key)
                self.steps += 1
                break
            for o in legal:
                node.children[o].avail += 1
            log_of = math.log
            key = max(legal, key=lambda o: _ucb(node.children[o], log_of))
            node = node.children[key]
            path.append((node, d.side))
            g.step(key)
            self.steps += 1
        policy.finish(g)  # the action under way completed by the greedy, then scored
        if self.rollout:
            policy.play_on(g, self.rollout)
        p = (1.0 + math.tanh(policy.ev.value(g, me) / SCALE)) / 2.0
        root.visits += 1
        for n, side in path:
            n.visits += 1
            n.wins += p if side == me else 1.0 - p


def _ucb(n: Node, log: Any) -> float:
    if n.visits == 0:
        return math.inf
    return n.wins / n.visits + EXPLORE * math.sqrt(log(max(n.avail, 1)) / n.visits)
