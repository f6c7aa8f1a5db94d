"""A search player for hidden information: determinized Monte Carlo search over the engine.

At each card play (4.3) the player keeps the greedy's best few whole actions
(:class:`.players.Policy`), then plays each of them out on the same ``determinizations``
copies of what its side knows (:meth:`.knowledge.InfoState.sample`: the opponent's hand, the draw
orders and the market deck resampled, never read): both sides continue with the greedy
policy to the round's scoring (9.2; or for ``horizon`` card plays), and the evaluation of
where that leaves the side is averaged. The best average
wins; ties go to the seeded generator. Every other decision is the greedy's.

Sharing the determinizations between candidates (common random numbers) makes their
comparison fair with few playouts; the budget per decision is
``candidates × determinizations`` playouts.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from .kinds import DecisionKind
from .knowledge import InfoState
from .players import GreedyPlayer

CANDIDATES = 2
DETERMINIZATIONS = 2
HORIZON: int | None = None  # card plays to look ahead; None: to the round's scoring (9.2)
SEARCHED = frozenset({DecisionKind.PLAY})


class SearchPlayer:
    def __init__(self, seed: int, candidates: int = CANDIDATES,
                 determinizations: int = DETERMINIZATIONS, horizon: int | None = HORIZON,
                 **_: Any):
        self.rng = random.Random(seed)
        self.greedy = GreedyPlayer(seed)
        self.greedy.rng = self.rng
        self.candidates, self.determinizations, self.horizon = candidates, determinizations, horizon

    @property
    def budget(self) -> int:
        """Playouts per searched decision."""
        return self.candidates * self.determinizations

    def choose(self, info: InfoState) -> Hashable:
        d = info.decision
        if d.kind not in SEARCHED or len(d.options) < 2:
            return self.greedy.choose(info)
        policy = self.greedy.policy_for(info.view)
        ranked = policy.scores(info.sample(self.rng), d)
        ranked.sort(key=lambda so: -so[0])
        shortlist = [opt for _, opt in ranked[:self.candidates]]
        if len(shortlist) == 1:
            return shortlist[0]
        totals = [0.0] * len(shortlist)
        for _ in range(self.determinizations):
            base = info.sample(self.rng)
            for i, opt in enumerate(shortlist):
                c = base.clone()
                c.step(opt)
                policy.play_on(c, self.horizon if self.horizon is not None else 10**6)
                totals[i] += policy.ev.value(c, d.side)
        return policy.best(list(zip(totals, shortlist, strict=True)))
