"""Aggregate game records into the playtest report (a plain dict → report.json).

Every rate carries its 95 % interval and n. The report also keeps compact per-game columns
(``per_game``) so that a later run can compare with it game by game (:mod:`.compare`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..engine import Rules
from ..engine.rules import CURRENCIES, LUX, SIDES, WIT
from .intervals import Z95, rate, rnd, stratified_difference, wilson, z_family
from .supply import Kind

Record = dict[str, Any]


def acquirable(rules: Rules) -> list[str]:
    """Cards a side may or may not get in a game: everything but starters, John and events."""
    fixed = {*rules.starters[LUX], *rules.starters[WIT], *rules.johns}
    return sorted(c for c, info in rules.cards.items() if not info.is_event and c not in fixed)


def _used(r: Record, side: int) -> set[str]:
    """Cards the side bought, gained or played in the game."""
    return ({c for s, c, *_ in r["bought"] if s == side} | {c for s, c in r["free"] if s == side}
            | set(r["played"][side]))


def _difference(strata: list[tuple[int, int, int, int]], z: float = Z95) -> dict[str, Any] | None:
    found = stratified_difference(strata, z)
    if found is None:
        return None
    d, lo, hi, n = found
    return {"effect": rnd(d), "ci95": [rnd(lo), rnd(hi)], "n": n}


def houses(records: Sequence[Record]) -> dict[str, Any]:
    n = len(records)
    return {SIDES[s]: {"wins": sum(1 for r in records if r["winner"] == s),
                       **rate(sum(1 for r in records if r["winner"] == s), n)} for s in (LUX, WIT)}


def elector_control(records: Sequence[Record], rules: Rules) -> dict[str, Any]:
    """Who holds each elector's votes when the game ends (7.3, 12.3)."""
    n = len(records)
    out = {}
    for e, country in enumerate(rules.countries):
        held = Counter(next((s for s in (LUX, WIT) if r["votes"][s][e] > 0), None) for r in records)
        out[country] = {"luxembourg": rate(held[LUX], n), "wittelsbach": rate(held[WIT], n),
                        "nobody": rate(held[None], n)}
    return out


def first_player(records: Sequence[Record]) -> dict[str, Any]:
    """The first player's effect per side (4.1): the side's win rate when it played first
    (in the last round; in more rounds than the other side) minus when it did not.
    Stratified by side because Wittelsbach always starts round 1 (3.5)."""
    conditions = {
        "last_round": lambda r, s: bool(r["firsts"]) and r["firsts"][-1] == s,
        "more_rounds": lambda r, s: r["firsts"].count(s) > r["firsts"].count(1 - s),
    }
    out: dict[str, Any] = {}
    for name, cond in conditions.items():
        per_side = {}
        for s in (LUX, WIT):
            yes = [r for r in records if cond(r, s)]
            no = [r for r in records if not cond(r, s)]
            kw, kn = (sum(1 for r in group if r["winner"] == s) for group in (yes, no))
            per_side[SIDES[s]] = {"first": rate(kw, len(yes)), "not_first": rate(kn, len(no)),
                                  "difference": _difference([(kw, len(yes), kn, len(no))])}
        out[name] = per_side
    return out


def card_effects(records: Sequence[Record], rules: Rules) -> dict[str, Any]:
    """Per acquirable card: its side-adjusted effect on winning. In each side's stratum the
    side's win rate in games where it bought, gained or played the card, minus in games
    where it did not; the strata combined with weights by exposure."""
    used = [(_used(r, LUX), _used(r, WIT)) for r in records]
    cards = acquirable(rules)
    out: dict[str, Any] = {}
    for cid in cards:
        strata = []
        for s in (LUX, WIT):
            k1 = n1 = k0 = n0 = 0
            for r, u in zip(records, used, strict=True):
                win = r["winner"] == s
                if cid in u[s]:
                    n1, k1 = n1 + 1, k1 + win
                else:
                    n0, k0 = n0 + 1, k0 + win
            strata.append((k1, n1, k0, n0))
        est = _difference(strata)
        out[cid] = {"by_side": {SIDES[s]: {"games_used": strata[s][1],
                                           "win_rate_used": rnd(strata[s][0] / strata[s][1])
                                           if strata[s][1] else None}
                                for s in (LUX, WIT)},
                    **(est or {"effect": None, "ci95": None, "n": 0})}
    estimated = [c for c in cards if out[c]["effect"] is not None]
    z = z_family(len(estimated))
    for c in estimated:
        half = (out[c]["ci95"][1] - out[c]["ci95"][0]) / 2 * z / Z95
        out[c]["beyond_noise"] = out[c]["ci95"][0] > 0 or out[c]["ci95"][1] < 0
        out[c]["beyond_noise_all_cards"] = abs(out[c]["effect"]) > half
    return out


def components(records: Sequence[Record], measured: Sequence[Kind],
               unmeasured: Sequence[str]) -> dict[str, Any]:
    n = len(records)
    out: dict[str, Any] = {}
    for kind in measured:
        peaks = sorted(r["components"][kind.key][0] for r in records)
        short = sum(r["components"][kind.key][1] for r in records)
        out[kind.key] = {"group": kind.group, "owner": kind.owner, "printed": kind.printed,
                         "pieces": {str(v): c for v, c in kind.pieces},
                         "peak": peaks[-1] if peaks else 0,
                         "peak_median": peaks[len(peaks) // 2] if peaks else 0,
                         "peak_p95": peaks[min(len(peaks) - 1, int(0.95 * len(peaks)))] if peaks else 0,
                         "short_games": short, "short": rate(short, n)}
    return {"kinds": out, "unmeasured_reminders": list(unmeasured)}


def card_uses(records: Sequence[Record], rules: Rules) -> dict[str, Any]:
    """Per card: purchases, free gains, uses by mode, Counters, blocked Deeds."""
    n = max(len(records), 1)
    cards: dict[str, Any] = {}
    for cid, info in sorted(rules.cards.items()):
        if info.is_event:
            continue
        uses: Counter = Counter()
        for r in records:
            uses.update(r["uses"].get(cid, {}))
        bought = sum(1 for r in records for b in r["bought"] if b[1] == cid)
        cards[cid] = {
            "bought": bought, "bought_per_game": rnd(bought / n),
            "free": sum(1 for r in records for b in r["free"] if b[1] == cid),
            "played_per_game": rnd(sum(uses.values()) / n),
            "political": uses["political"], "military": uses["military"],
            "deed": uses["deed"] + uses["boost"], "boost": uses["boost"],
            "yield_only": uses["yield"],
            "countered": sum(r["countered"].get(cid, 0) for r in records),
            "deed_resolvable": sum(r["deed_ok"].get(cid, 0) for r in records),
            "deed_unresolvable": sum(r["deed_blocked"].get(cid, 0) for r in records),
        }
    return cards


def economy(records: Sequence[Record]) -> dict[str, Any]:
    n = max(len(records), 1)
    return {SIDES[s]: {"gained": {c: rnd(sum(r["gained"][s][i] for r in records) / n)
                                  for i, c in enumerate(CURRENCIES)},
                       "spent": rnd(sum(r["spent"][s] for r in records) / n),
                       "purchases": rnd(sum(1 for r in records for b in r["bought"]
                                            if b[0] == s) / n),
                       "loyalty_purchases": rnd(sum(r["loyalty_buys"][s] for r in records) / n)}
            for s in (LUX, WIT)}


def per_game(records: Sequence[Record], rules: Rules, measured: Sequence[Kind]) -> dict[str, Any]:
    """Compact per-game columns, in game order, for comparing runs game by game."""
    tracked = acquirable(rules)

    def sparse(count: Any) -> dict[str, list[int]]:
        """card → the index of each game it counts in, once per count (most are 0 or 1)."""
        out: dict[str, list[int]] = {}
        for i, r in enumerate(records):
            for cid, k in sorted(count(r).items()):
                out.setdefault(cid, []).extend([i] * k)
        return out

    return {
        "seed": [r["seed"] for r in records],
        "winner": [r["winner"] for r in records],
        "end_round": [r["end_round"] for r in records],
        "crecy": [int(r["crecy"]) for r in records],
        "tie": [int(r["tie"]) for r in records],
        "control_order": list(rules.countries),  # the electors of each "control" letter
        "control": ["".join("L" if r["votes"][LUX][e] else "W" if r["votes"][WIT][e] else "."
                            for e in range(len(rules.countries))) for r in records],
        "purchases": [[sum(1 for b in r["bought"] if b[0] == s) for s in (LUX, WIT)]
                      for r in records],
        "bought": sparse(lambda r: Counter(b[1] for b in r["bought"])),
        "played": sparse(lambda r: Counter({c: r["played"][0].get(c, 0) + r["played"][1].get(c, 0)
                                            for c in tracked
                                            if c in r["played"][0] or c in r["played"][1]})),
        "peak": {k.key: [r["components"][k.key][0] for r in records] for k in measured},
        "short": {k.key: [i for i, r in enumerate(records) if r["components"][k.key][1]]
                  for k in measured},  # the games in which it ran short
    }


def aggregate(records: Sequence[Record], rules: Rules, meta: dict[str, Any],
              measured: Sequence[Kind] = (), unmeasured: Sequence[str] = ()) -> dict[str, Any]:
    n = len(records)
    nz = max(n, 1)
    ties = [r for r in records if r["tie"]]
    events = Counter(e[0] for r in records for e in r["events"])
    uses = card_uses(records, rules)
    never = sorted(c for c, v in uses.items() if rules.cards[c].deed and v["deed_resolvable"] == 0
                   and v["deed_unresolvable"] > 0)
    return {
        "meta": meta,
        "games": n,
        "houses": houses(records),
        "elector_control": elector_control(records, rules),
        "electors": dict(sorted(Counter(f"{r['electors'][0]}-{r['electors'][1]}"
                                        for r in records).items())),
        "game_end": dict(sorted(Counter(f"{'crecy' if r['crecy'] else 'round9'}:{r['end_round']}"
                                        for r in records).items())),
        "ended_by_crecy": rate(sum(1 for r in records if r["crecy"]), n),
        "overall_ties": {**rate(len(ties), n),
                         "won_by": dict(sorted(Counter(SIDES[r["winner"]] for r in ties).items()))},
        "first_player": first_player(records),
        "card_effects": card_effects(records, rules),
        "components": components(records, measured, unmeasured),
        "currency": economy(records),
        "purchases_by_round": {str(k): rnd(v / nz) for k, v in
                               sorted(Counter(b[2] for r in records for b in r["bought"]).items())},
        "john": {"flips_per_game": rnd(sum(r["flips"] for r in records) / nz),
                 "final_loyalty": dict(sorted(Counter(str(r["loyalty"]) for r in records).items()))},
        "prestige_votes": {SIDES[s]: rnd(sum(r["prestige_votes"][s] for r in records) / nz)
                           for s in (LUX, WIT)},
        "passes_per_game": rnd(sum(sum(r["passes"]) for r in records) / nz),
        "events": {"revealed": dict(sorted(events.items())),
                   "countered": dict(sorted(Counter(e for r in records
                                                    for e in r["events_countered"]).items()))},
        "cards": uses,
        "deeds_never_resolvable": never,
        "per_game": per_game(records, rules, measured),
    }


def to_json(report: dict[str, Any]) -> bytes:
    """report.json: the figures indented for reading, the per-game columns one line each."""
    body = {k: v for k, v in report.items() if k != "per_game"}
    text = json.dumps(body, indent=1, sort_keys=True, ensure_ascii=False)
    if "per_game" in report:
        columns = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v, sort_keys=True, separators=(',', ':'))}"
                             for k, v in sorted(report["per_game"].items()))
        text = text[:-2] + ',\n "per_game": {\n' + columns + "\n }\n}"
    return (text + "\n").encode("utf-8")


__all__ = ["aggregate", "to_json", "wilson"]
