"""The few statistics the report needs, each with its 95 % interval: a rate (Wilson), a
difference of rates stratified by side (Agresti–Caffo, weighted by exposure), a mean
difference (paired or not), and Cohen's h as the effect size that ranks findings."""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

Z95 = 1.959964


def rnd(x: float) -> float:
    """Four decimals: figures in report.json, stable across platforms."""
    return round(x, 4) + 0.0  # + 0.0: never -0.0


def wilson(wins: int, n: int, z: float = Z95) -> list[float]:
    """The Wilson score interval of the rate ``wins / n``."""
    if n == 0:
        return [0.0, 1.0]
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return [rnd(max(0.0, centre - half)), rnd(min(1.0, centre + half))]


def rate(wins: int, n: int) -> dict[str, object]:
    """A rate as the report stores it: value, 95 % interval and n."""
    return {"rate": rnd(wins / n) if n else 0.0, "ci95": wilson(wins, n), "n": n}


def z_family(k: int, level: float = 0.95) -> float:
    """The z of a simultaneous ``level`` interval over ``k`` figures (Bonferroni)."""
    return NormalDist().inv_cdf(1 - (1 - level) / (2 * max(k, 1)))


def stratified_difference(strata: Sequence[tuple[int, int, int, int]],
                          z: float = Z95) -> tuple[float, float, float, int] | None:
    """The difference of win rates "exposed minus not exposed", per stratum
    ``(wins_exposed, n_exposed, wins_other, n_other)``, combined with weights by exposure.

    Each stratum's rates take the Agresti–Caffo correction (one win and one loss added to
    each group), so a small or all-or-nothing group still gets an honest width. Returns
    ``(difference, low, high, n_exposed)``, or None when no stratum has both groups.
    """
    used = [(k1, n1, k0, n0) for k1, n1, k0, n0 in strata if n1 and n0]
    total = sum(n1 for _k1, n1, _k0, _n0 in used)
    if not used:
        return None
    diff = var = 0.0
    for k1, n1, k0, n0 in used:
        p1, p0 = (k1 + 1) / (n1 + 2), (k0 + 1) / (n0 + 2)
        w = n1 / total
        diff += w * (p1 - p0)
        var += w * w * (p1 * (1 - p1) / (n1 + 2) + p0 * (1 - p0) / (n0 + 2))
    half = z * math.sqrt(var)
    return diff, diff - half, diff + half, total


def mean_difference(new: Sequence[float], old: Sequence[float], paired: bool,
                    z: float = Z95) -> tuple[float, float, float]:
    """``mean(new) - mean(old)`` with its interval: of the per-game differences when the
    games are paired (same seeds), else of two independent samples (Welch)."""
    if paired:
        d = [a - b for a, b in zip(new, old, strict=True)]
        n = len(d)
        mean = sum(d) / n
        var = sum((x - mean) ** 2 for x in d) / max(n - 1, 1) / n
    else:
        m1, m0 = sum(new) / len(new), sum(old) / len(old)
        mean = m1 - m0
        v1 = sum((x - m1) ** 2 for x in new) / max(len(new) - 1, 1) / len(new)
        v0 = sum((x - m0) ** 2 for x in old) / max(len(old) - 1, 1) / len(old)
        var = v1 + v0
    half = z * math.sqrt(var)
    return mean, mean - half, mean + half


def two_sided_p(effect: float, se: float) -> float:
    """The normal two-sided p of ``effect`` with standard error ``se`` (0 when a constant
    non-zero difference has no spread, 1 for no difference at all)."""
    if se <= 0:
        return 0.0 if effect else 1.0
    return 2 * (1 - NormalDist().cdf(abs(effect) / se))


def benjamini_hochberg(ps: Sequence[float], level: float = 0.95) -> tuple[list[int], float]:
    """The indices the Benjamini–Hochberg procedure keeps at a false-discovery rate of
    ``1 - level``, in the order given, and the z of their selection-adjusted intervals
    (Benjamini–Yekutieli 2005: with R kept of m, level 1 - R·q/m), so a kept figure's
    interval excludes 0 exactly; the z is 0.0 when nothing is kept."""
    m, q = len(ps), 1 - level
    order = sorted(range(m), key=lambda i: ps[i])
    kept = max((r + 1 for r, i in enumerate(order) if ps[i] <= (r + 1) * q / m), default=0)
    if not kept:
        return [], 0.0
    return sorted(order[:kept]), NormalDist().inv_cdf(1 - kept * q / (2 * m))


def cohen_h(p1: float, p0: float) -> float:
    """Cohen's h: the size of a difference between two rates (0.2 small, 0.5 medium)."""
    def clip(p):
        return (min(1.0, max(0.0, p)))
    return abs(2 * math.asin(math.sqrt(clip(p1))) - 2 * math.asin(math.sqrt(clip(p0))))
