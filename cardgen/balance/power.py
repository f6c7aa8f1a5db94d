"""What a budget can resolve, said before a game is played: for each target that is a share
of the games (Luxembourg's win rate, Crécy's rate), the games whose 95 % interval is as
narrow as the target's band, against the games a trial, the validation and the fresh
confirmation play."""

from __future__ import annotations

import math
from typing import Any

from ..playtest import half_width
from .search import TOP, SearchOptions
from .spec import Spec

#: Targets that are shares of the games (binomial): the others have no such bound here.
SHARES = ("win_rate", "crecy_rate")
Z95 = 1.96


def games_needed(value: float, tolerance: float) -> int:
    """Games whose 95 % interval around ``value`` is ±``tolerance``."""
    share = min(max(value, 0.01), 0.99)
    return math.ceil(Z95 ** 2 * share * (1 - share) / tolerance ** 2)


def power_check(spec: Spec, search: SearchOptions, confirm: int) -> dict[str, Any]:
    """Per share target: the games that resolve its band and each stage's games with their
    interval's half width; ``resolved`` says whether the confirmation can find the proposal
    inside the band."""
    stages = {"trial": search.games, "best trials": search.games + search.validate,
              "confirmation": confirm}
    out: dict[str, Any] = {}
    for t in spec.targets:
        if t.measure not in SHARES:
            continue
        need = games_needed(t.value, t.tolerance)
        out[t.measure] = {
            "band": [round(t.value - t.tolerance, 6), round(t.value + t.tolerance, 6)],
            "games_needed": need,
            "stages": {name: {"games": n, "half_width": round(half_width(n, t.value), 6)}
                       for name, n in stages.items()},
            "resolved": confirm >= need}
    return out


def power_lines(power: dict[str, Any], search: SearchOptions) -> list[str]:
    """The power check as the terminal says it, before the search."""
    lines = []
    for measure, p in power.items():
        lo, hi = p["band"]
        st = p["stages"]
        what = "Luxembourg's win rate" if measure == "win_rate" else "Crécy's rate"
        lines.append(
            f"power: {what}'s band {100 * lo:.1f}–{100 * hi:.1f} % needs {p['games_needed']:,} "
            f"games for a 95 % interval that narrow; a trial plays {st['trial']['games']:,} "
            f"(±{100 * st['trial']['half_width']:.1f} pp), the best {min(TOP, search.trials)} "
            f"trials {st['best trials']['games']:,} (±{100 * st['best trials']['half_width']:.1f} pp), "
            f"the confirmation {st['confirmation']['games']:,} "
            f"(±{100 * st['confirmation']['half_width']:.1f} pp)")
        if not p["resolved"]:
            lines.append(f"power: the confirmation cannot find a proposal inside the band on "
                         f"{st['confirmation']['games']:,} games; use --confirm-games "
                         f"{p['games_needed']:,} or more for that answer")
    return lines
