"""The first page in words: the most actionable findings, chosen from the report's figures.

A candidate counts only when its interval excludes "no effect"; candidates are ranked by
Cohen's h (the size of the difference between the two rates involved), largest first,
except that first-player associations (at most one per condition) only fill the places left.
Findings are language-neutral records (a kind and its figures); :mod:`.words` writes them.
"""

from __future__ import annotations

from typing import Any

from .intervals import Z95, cohen_h, rnd, z_family

MAX_FINDINGS = 5
MIN_FINDINGS = 3
HELD = 0.75        # an elector counts as held by a side when its interval lies above this
SHORT_SHARE = 0.01  # a component counts as running short in at least this share of games


def _house(rep: dict[str, Any]) -> list[dict[str, Any]]:
    lux = rep["houses"]["luxembourg"]
    side = "luxembourg" if lux["rate"] >= 0.5 else "wittelsbach"
    h = rep["houses"][side]
    found = {"kind": "house", "side": side, "rate": h["rate"], "ci95": h["ci95"], "n": h["n"],
             "h": rnd(cohen_h(h["rate"], 0.5))}
    if h["ci95"][0] <= 0.5:
        found["kind"] = "house_balanced"
    return [found]


def _electors(rep: dict[str, Any]) -> list[dict[str, Any]]:
    """One finding: the electors each house holds at game end in most games."""
    sides, h = [], 0.0
    for side in ("luxembourg", "wittelsbach"):
        held = sorted(((c, v[side]) for c, v in rep["elector_control"].items()
                       if v[side]["ci95"][0] > HELD), key=lambda cv: (-cv[1]["rate"], cv[0]))
        if held:
            sides.append({"side": side, "electors": [{"country": c, "rate": v["rate"],
                                                      "ci95": v["ci95"]} for c, v in held]})
            h = max(h, cohen_h(held[0][1]["rate"], 0.5))
    return [{"kind": "electors_held", "sides": sides, "h": rnd(h)}] if sides else []


def _cards(rep: dict[str, Any]) -> list[dict[str, Any]]:
    strong = [(c, v) for c, v in rep["card_effects"].items() if v.get("beyond_noise_all_cards")]
    out = []
    for sign in (1, -1):
        best = sorted((cv for cv in strong if cv[1]["effect"] * sign > 0),
                      key=lambda cv: (-abs(cv[1]["effect"]), cv[0]))
        if best:
            cid, v = best[0]
            used = [s for s in v["by_side"].values() if s["win_rate_used"] is not None]
            p1 = sum(s["win_rate_used"] * s["games_used"] for s in used) / max(v["n"], 1)
            out.append({"kind": "card_stronger" if sign > 0 else "card_weaker", "card": cid,
                        "effect": v["effect"], "ci95": v["ci95"], "n": v["n"],
                        "h": rnd(cohen_h(p1, p1 - v["effect"]))})
    if not out:
        out.append({"kind": "no_card_effect", "games": rep["games"], "h": 0.0})
    return out


def _components(rep: dict[str, Any]) -> list[dict[str, Any]]:
    """One finding: the components that run short most often (at most three)."""
    short = sorted(((key, v) for key, v in rep["components"]["kinds"].items()
                    if v["short"]["rate"] >= SHORT_SHARE),
                   key=lambda kv: (-kv[1]["short"]["rate"], kv[0]))[:3]
    if not short:
        return []
    return [{"kind": "component_short",
             "components": [{"component": key, "rate": v["short"]["rate"], "ci95": v["short"]["ci95"],
                             "peak": v["peak"], "printed": v["printed"]} for key, v in short],
             "h": rnd(cohen_h(short[0][1]["short"]["rate"], 0.0))}]


def _first_player(rep: dict[str, Any]) -> list[dict[str, Any]]:
    """At most one finding per condition: the side whose first-player difference is largest
    among those whose interval excludes 0 for all of them at once.

    In a two-side game the sides' "last round" figures are one fact seen from either side
    (one side plays first exactly when the other does not), so a finding per side would
    say it twice."""
    tested = [(cond, side, v) for cond, sides in sorted(rep["first_player"].items())
              for side, v in sorted(sides.items()) if v["difference"] is not None]
    widen = z_family(len(tested)) / Z95
    best: dict[str, dict[str, Any]] = {}
    for cond, side, v in tested:
        d = v["difference"]
        if abs(d["effect"]) <= (d["ci95"][1] - d["ci95"][0]) / 2 * widen:
            continue
        found = {"kind": "first_player", "side": side, "condition": cond,
                 "effect": d["effect"], "ci95": d["ci95"],
                 "h": rnd(cohen_h(v["first"]["rate"], v["not_first"]["rate"]))}
        if cond not in best or abs(found["effect"]) > abs(best[cond]["effect"]):
            best[cond] = found  # ties keep the first side in order
    return list(best.values())


def findings(rep: dict[str, Any]) -> list[dict[str, Any]]:
    """Three to five findings, one per kind of question, the largest certain effects first.

    First-player findings come last: who plays first is chosen by the side behind (4.1), so
    they are associations a designer cannot act on, and they only fill the places the
    house, electors, cards and components leave."""
    certain: list[dict[str, Any]] = []
    fallback: list[dict[str, Any]] = []
    for found in (*_house(rep), *_electors(rep), *_cards(rep), *_components(rep)):
        (fallback if found["kind"] in ("house_balanced", "no_card_effect") else certain).append(found)
    certain.sort(key=lambda f: -f["h"])  # stable: ties keep the order above
    chosen = certain[:MAX_FINDINGS]
    for found in fallback:
        if len(chosen) < MIN_FINDINGS or (found["kind"] == "house_balanced" and len(chosen) < MAX_FINDINGS):
            chosen.append(found)
    confounded = sorted(_first_player(rep), key=lambda f: -f["h"])
    return chosen + confounded[:MAX_FINDINGS - len(chosen)]
