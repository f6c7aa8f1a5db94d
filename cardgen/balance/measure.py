"""What a set of games measures, and how far a trial is from what the designer wants."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..playtest.report import wilson
from .games import GameResult
from .spec import Spec


def measures(results: Sequence[GameResult]) -> dict[str, float]:
    """Luxembourg's win rate, the mean last round and the share of games Crécy ended."""
    n = max(len(results), 1)
    return {"win_rate": round(sum(1 for r in results if r.winner == 0) / n, 6),
            "mean_rounds": round(sum(r.end_round for r in results) / n, 6),
            "crecy_rate": round(sum(1 for r in results if r.crecy) / n, 6)}


def pct(share: float) -> str:
    """36.5 %: a share as the terminal lines show it."""
    return f"{100 * share:.1f} %"


def interval(results: Sequence[GameResult]) -> list[float]:
    """The 95 % Wilson interval of Luxembourg's win rate."""
    return wilson(sum(1 for r in results if r.winner == 0), len(results))


def miss(measured: Mapping[str, float], spec: Spec) -> float:
    """How far the targets are missed: 1 for a target off by exactly its tolerance
    (squares add up, so one far miss counts more than two near ones)."""
    return sum(((measured[t.measure] - t.value) / t.tolerance) ** 2 for t in spec.targets)


def in_band(measured: Mapping[str, float], spec: Spec) -> bool:
    return all(abs(measured[t.measure] - t.value) <= t.tolerance for t in spec.targets)


def change_cost(values: Mapping[str, int], spec: Spec) -> float:
    """The penalty of a proposal: each changed value costs half a unit plus its change as a
    share of its range, times the spec's ``penalty``."""
    cost = 0.0
    for t in spec.tunables:
        delta = abs(values.get(t.path, t.slot.value) - t.slot.value)
        if delta:
            cost += 0.5 + delta / t.width
    return spec.penalty * cost


def objective(measured: Mapping[str, float], values: Mapping[str, int], spec: Spec) -> float:
    return round(miss(measured, spec) + change_cost(values, spec), 9)
