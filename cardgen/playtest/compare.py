"""`--compare OLD/report.json`: what a data change did, game by game.

Games are paired by seed (the same seed deals the same shuffles, so most of the luck cancels);
each figure's change is the mean of its per-game differences. The headline, Luxembourg's win
rate (Wittelsbach's is its complement), is tested first and on its own, with its plain 95 %
interval, and always reported, beyond the noise or not. The other figures are a screen: the
Benjamini–Hochberg procedure keeps those beyond the noise at a 5 % false-discovery rate, each
with its selection-adjusted interval (DECISIONS.md). Without common seeds the runs are
compared as independent samples.
"""

from __future__ import annotations

from typing import Any

from .intervals import Z95, benjamini_hochberg, mean_difference, rnd, two_sided_p

#: The figure tested first, on its own, and always shown.
HEADLINE = "win:luxembourg"
CORRECTION = "benjamini-hochberg"


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
        HEADLINE: ("win", "luxembourg", [1.0 - w for w in pg["winner"]]),
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


def _row(key: str, kind: str, subject: str, a: list[float], b: list[float],
         mean: float, lo: float, hi: float) -> dict[str, Any]:
    half = (hi - lo) / 2
    return {"figure": key, "kind": kind, "subject": subject,
            "old": rnd(sum(b) / len(b)), "new": rnd(sum(a) / len(a)),
            "change": rnd(mean), "interval": [rnd(lo), rnd(hi)],
            "strength": rnd(abs(mean) / half) if half else 1e6}


def compare(new: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    """The headline's change, and the other changes beyond the noise, largest first (by
    their distance from 0 in intervals)."""
    fn, fo = figures(new), figures(old)
    seeds_new, seeds_old = new["per_game"]["seed"], old["per_game"]["seed"]
    at_old = {s: i for i, s in enumerate(seeds_old)}
    pairs = [(i, at_old[s]) for i, s in enumerate(seeds_new) if s in at_old]
    paired = len(pairs) >= 2

    def values(key: str) -> tuple[list[float], list[float]]:
        a, b = fn[key][2], fo[key][2]
        if paired:
            return [a[i] for i, _ in pairs], [b[j] for _, j in pairs]
        return a, b

    a, b = values(HEADLINE)
    mean, lo, hi = mean_difference(a, b, paired, Z95)
    headline = {**_row(HEADLINE, *fn[HEADLINE][:2], a, b, mean, lo, hi),
                "beyond_noise": lo > 0 or hi < 0}
    keys = sorted((set(fn) & set(fo)) - {HEADLINE})
    tested = []  # (key, a, b, mean, standard error); a figure the same in every game is p = 1
    for key in keys:
        a, b = values(key)
        mean, lo, hi = mean_difference(a, b, paired, 1.0) if a != b else (0.0, 0.0, 0.0)
        tested.append((key, a, b, mean, (hi - lo) / 2))
    kept, z = benjamini_hochberg([two_sided_p(t[3], t[4]) if t[1] != t[2] else 1.0
                                  for t in tested])
    rows = [_row(key, *fn[key][:2], a, b, mean, mean - z * se, mean + z * se)
            for key, a, b, mean, se in (tested[i] for i in kept)]
    rows.sort(key=lambda r: (-r["strength"], r["figure"]))
    return {"paired_games": len(pairs) if paired else 0,
            "games": [len(seeds_new), len(seeds_old)],
            "headline": headline,
            "figures_compared": len(keys), "correction": CORRECTION, "z": rnd(z),
            "old_meta": old.get("meta", {}),
            "changes": rows,
            "new_only": sorted(set(fn) - set(fo)), "old_only": sorted(set(fo) - set(fn))}
