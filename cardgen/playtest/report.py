"""Aggregate game records into the playtest report (a plain dict → report.json), and compare
two reports."""

from __future__ import annotations

import json
import math
from collections import Counter
from typing import Any

from ..engine import Rules
from ..engine.rules import CURRENCIES, SIDES

Z95 = 1.959964


def _r(x: float) -> float:
    return round(x, 4)


def wilson(wins: int, n: int) -> list[float]:
    """The 95 % Wilson score interval of a win rate."""
    if n == 0:
        return [0.0, 0.0]
    p = wins / n
    d = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / d
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / d
    return [_r(max(0.0, centre - half)), _r(min(1.0, centre + half))]


def aggregate(records: list[dict[str, Any]], rules: Rules, meta: dict[str, Any]) -> dict[str, Any]:
    n = len(records)
    nz = max(n, 1)
    wins = [sum(1 for r in records if r["winner"] == s) for s in (0, 1)]
    houses = {SIDES[s]: {"wins": wins[s], "rate": _r(wins[s] / nz), "ci95": wilson(wins[s], n)}
              for s in (0, 1)}
    electors = Counter(f"{r['electors'][0]}-{r['electors'][1]}" for r in records)
    ends = Counter(f"{'crecy' if r['crecy'] else 'round9'}:{r['end_round']}" for r in records)
    ties = [r for r in records if r["tie"]]
    tie_winners = Counter(SIDES[r["winner"]] for r in ties)
    # first-player advantage: the side that played first in more rounds, and in the last round
    more_first = [r for r in records if r["firsts"].count(0) != r["firsts"].count(1)]
    mf_wins = sum(1 for r in more_first
                  if r["winner"] == (0 if r["firsts"].count(0) > r["firsts"].count(1) else 1))
    last_first_wins = sum(1 for r in records if r["firsts"] and r["winner"] == r["firsts"][-1])
    by_round_first = {}
    for rnd in range(1, 10):
        rs = [r for r in records if len(r["firsts"]) >= rnd]
        if rs:
            w = sum(1 for r in rs if r["winner"] == r["firsts"][rnd - 1])
            by_round_first[str(rnd)] = _r(w / len(rs))
    currency = {SIDES[s]: {"gained": {c: _r(sum(r["gained"][s][i] for r in records) / nz)
                                      for i, c in enumerate(CURRENCIES)},
                           "spent": _r(sum(r["spent"][s] for r in records) / nz),
                           "purchases": _r(sum(1 for r in records for b in r["bought"]
                                               if b[0] == s) / nz),
                           "loyalty_purchases": _r(sum(r["loyalty_buys"][s] for r in records) / nz)}
                for s in (0, 1)}
    purchases_by_round = {str(k): _r(v / nz) for k, v in
                          sorted(Counter(b[2] for r in records for b in r["bought"]).items())}
    cards: dict[str, dict[str, Any]] = {}
    for cid, info in sorted(rules.cards.items()):
        if info.is_event:
            continue
        bought = sum(1 for r in records for b in r["bought"] if b[1] == cid)
        free = sum(1 for r in records for b in r["free"] if b[1] == cid)
        uses: Counter = Counter()
        for r in records:
            uses.update(r["uses"].get(cid, {}))
        owned = [r for r in records if cid in r["owners"]]
        owner_wins = sum(1 for r in owned if r["owners"][cid] == r["winner"])
        ok = sum(r["deed_ok"].get(cid, 0) for r in records)
        blocked = sum(r["deed_blocked"].get(cid, 0) for r in records)
        cards[cid] = {
            "name": info.card.name.get("en") or cid,
            "bought": bought, "bought_per_game": _r(bought / nz), "free": free,
            "numbers": uses["political"] + uses["military"], "political": uses["political"],
            "military": uses["military"], "deed": uses["deed"] + uses["boost"],
            "boost": uses["boost"], "yield_only": uses["yield"],
            "countered": sum(r["countered"].get(cid, 0) for r in records),
            "owned_games": len(owned),
            "owner_win_rate": _r(owner_wins / len(owned)) if owned else None,
            "deed_resolvable": ok, "deed_unresolvable": blocked,
        }
    never = sorted(c for c, v in cards.items() if rules.cards[c].deed and v["deed_resolvable"] == 0
                   and v["deed_unresolvable"] > 0)
    events = Counter(e[0] for r in records for e in r["events"])
    return {
        "meta": meta,
        "games": n,
        "houses": houses,
        "electors": dict(sorted(electors.items())),
        "game_end": dict(sorted(ends.items())),
        "ended_by_crecy": _r(sum(1 for r in records if r["crecy"]) / nz),
        "overall_ties": {"games": len(ties), "rate": _r(len(ties) / nz),
                         "won_by": dict(sorted(tie_winners.items()))},
        "first_player": {"side_first_in_more_rounds_wins": _r(mf_wins / max(len(more_first), 1)),
                         "games_with_more_first": len(more_first),
                         "last_round_first_wins": _r(last_first_wins / nz),
                         "round_first_wins": by_round_first},
        "currency": currency,
        "purchases_by_round": purchases_by_round,
        "john": {"flips_per_game": _r(sum(r["flips"] for r in records) / nz),
                 "final_loyalty": dict(sorted(Counter(str(r["loyalty"]) for r in records).items()))},
        "prestige_votes": {SIDES[s]: _r(sum(r["prestige_votes"][s] for r in records) / nz)
                           for s in (0, 1)},
        "passes_per_game": _r(sum(sum(r["passes"]) for r in records) / nz),
        "events": {"revealed": dict(sorted(events.items())),
                   "countered": dict(sorted(Counter(e for r in records
                                                    for e in r["events_countered"]).items()))},
        "cards": cards,
        "deeds_never_resolvable": never,
    }


def to_json(report: dict[str, Any]) -> bytes:
    return (json.dumps(report, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def compare(new: dict[str, Any], old: dict[str, Any], top: int = 12) -> dict[str, Any]:
    """What changed between two reports: headline rates and the cards that moved most."""
    def get(rep: dict[str, Any], *path: str) -> float:
        cur: Any = rep
        for p in path:
            cur = cur.get(p, {}) if isinstance(cur, dict) else {}
        return float(cur) if isinstance(cur, int | float) else 0.0

    headline = {
        "luxembourg_win_rate": ("houses", "luxembourg", "rate"),
        "wittelsbach_win_rate": ("houses", "wittelsbach", "rate"),
        "ended_by_crecy": ("ended_by_crecy",),
        "overall_tie_rate": ("overall_ties", "rate"),
        "luxembourg_purchases": ("currency", "luxembourg", "purchases"),
        "wittelsbach_purchases": ("currency", "wittelsbach", "purchases"),
    }
    rows = {k: {"old": get(old, *p), "new": get(new, *p), "change": _r(get(new, *p) - get(old, *p))}
            for k, p in headline.items()}
    moved = []
    for cid, v in new.get("cards", {}).items():
        o = old.get("cards", {}).get(cid, {})
        d_bought = _r(v["bought_per_game"] - float(o.get("bought_per_game") or 0))
        d_win = _r((v["owner_win_rate"] or 0) - float(o.get("owner_win_rate") or 0))
        moved.append((abs(d_bought) + abs(d_win), cid, d_bought, d_win))
    moved.sort(key=lambda t: (-t[0], t[1]))
    return {"headline": rows,
            "cards": [{"card": c, "bought_per_game": b, "owner_win_rate": w}
                      for _s, c, b, w in moved[:top] if _s > 0]}


def compare_lines(diff: dict[str, Any]) -> list[str]:
    lines = ["compared with the old report:"]
    for k, v in diff["headline"].items():
        lines.append(f"  {k:<24} {v['old']:>8.3f} → {v['new']:>8.3f} ({v['change']:+.3f})")
    for row in diff["cards"]:
        lines.append(f"  {row['card']:<28} bought/game {row['bought_per_game']:+.3f}, "
                     f"owner win rate {row['owner_win_rate']:+.3f}")
    return lines
