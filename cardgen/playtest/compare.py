"""`--compare OLD/report.json`: what a data change did, game by game.

Games are paired by seed (the same seed deals the same shuffles, so most of the luck cancels);
each figure's change is the mean of its per-game differences with a simultaneous 95 %
interval over all the figures compared (Bonferroni), and only changes whose interval
excludes 0 are listed. Without common seeds the runs are compared as independent samples.
"""

from __future__ import annotations

from typing import Any

from .intervals import mean_difference, rnd, z_family


class OldReportError(ValueError):
    """The old report has no per-game columns (made before cardgen compared by seed)."""


def _dense(games: list[int] | None, n: int) -> list[float]:
    """Per-game counts from the list of game indices (one entry per count)."""
    out = [0.0] * n
    for i in games or ():
        out[i] += 1.0
    return out


def figures(report: dict[str, Any]) -> dict[str, tuple[str, str, list[float]]]:
    """Every compared figure of one report: key → (kind, subject, per-game values)."""
    pg = report.get("per_game")
    if not isinstance(pg, dict) or "seed" not in pg:
        raise OldReportError("the report has no per-game columns")
    n = len(pg["seed"])
    out: dict[str, tuple[str, str, list[float]]] = {
        "win:luxembourg": ("win", "luxembourg", [1.0 - w for w in pg["winner"]]),
        "ended_by_crecy": ("crecy", "", [float(x) for x in pg["crecy"]]),
        "end_round": ("end_round", "", [float(x) for x in pg["end_round"]]),
        "tie": ("tie", "", [float(x) for x in pg["tie"]]),
    }
    for s, side in enumerate(("luxembourg", "wittelsbach")):
        out[f"purchases:{side}"] = ("purchases", side, [float(p[s]) for p in pg["purchases"]])
    for e, country in enumerate(pg["control_order"]):
        for mark, side in (("L", "luxembourg"), ("W", "wittelsbach")):
            out[f"control:{country}:{side}"] = ("control", f"{country}:{side}",
                                                [float(c[e] == mark) for c in pg["control"]])
    for what in ("bought", "played"):
        for cid in sorted(report.get("card_effects", {})):
            out[f"{what}:{cid}"] = (what, cid, _dense(pg[what].get(cid), n))
    for key in sorted(pg.get("peak", {})):
        out[f"peak:{key}"] = ("peak", key, [float(x) for x in pg["peak"][key]])
        out[f"short:{key}"] = ("short", key, _dense(pg["short"][key], n))
    return out


def compare(new: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    """The changes outside the noise, largest first (by their distance from 0 in intervals)."""
    fn, fo = figures(new), figures(old)
    seeds_new, seeds_old = new["per_game"]["seed"], old["per_game"]["seed"]
    at_old = {s: i for i, s in enumerate(seeds_old)}
    pairs = [(i, at_old[s]) for i, s in enumerate(seeds_new) if s in at_old]
    paired = len(pairs) >= 2
    keys = sorted(set(fn) & set(fo))
    z = z_family(len(keys))
    rows: list[dict[str, Any]] = []
    for key in keys:
        kind, subject, a = fn[key]
        b = fo[key][2]
        if paired:
            a, b = [a[i] for i, _ in pairs], [b[j] for _, j in pairs]
        if a == b:  # the same in every game: no change, not even noise
            continue
        mean, lo, hi = mean_difference(a, b, paired, z)
        if lo > 0 or hi < 0:
            half = (hi - lo) / 2
            rows.append({"figure": key, "kind": kind, "subject": subject,
                         "old": rnd(sum(b) / len(b)), "new": rnd(sum(a) / len(a)),
                         "change": rnd(mean), "interval": [rnd(lo), rnd(hi)],
                         "strength": rnd(abs(mean) / half) if half else 1e6})
    rows.sort(key=lambda r: (-r["strength"], r["figure"]))
    return {"paired_games": len(pairs) if paired else 0,
            "games": [len(seeds_new), len(seeds_old)],
            "figures_compared": len(keys), "z": rnd(z),
            "old_meta": old.get("meta", {}),
            "changes": rows,
            "new_only": sorted(set(fn) - set(fo)), "old_only": sorted(set(fo) - set(fn))}
