"""Value sensitivity: `python bench/sensitivity.py [--games N] [--jobs J] [--players greedy]`.

Plays N games on the shipped values and N on each changed data set (same seeds), and
reports what a designer would look at: Luxembourg's win rate with a 95 % interval, and for a
changed market card how often it is picked when it can be bought and how often it is
played per game. Goal (issue 27): a large change to one side's starters moves that side's
win rate by ≥ 10 points; a much stronger market card is bought and played more.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.ladder import SEED_BASE, wilson  # noqa: E402  (the repository root is on the path now)
from cardgen.data.load import load_or_raise  # noqa: E402
from cardgen.engine import Rules  # noqa: E402
from cardgen.engine.match import play_game  # noqa: E402
from cardgen.playtest.choices import CardChoices  # noqa: E402

MARKET_CARD = "genoese-crossbowmen"  # no Deed: its values are all it does


def _changed(rules: Rules, name: str) -> Rules:
    cards = dict(rules.cards)
    for cid, i in rules.cards.items():
        if name in ("luxembourg+4", "wittelsbach+4"):
            if i.deck == name[:-2] and i.kind != "john" and i.political > 0:
                cards[cid] = replace(i, political=i.political + 4)
        elif name == "market-military+8" and cid == MARKET_CARD:
            cards[cid] = replace(i, military=i.military + 8)
        elif name == "market-military-4" and cid == MARKET_CARD:
            cards[cid] = replace(i, military=max(1, i.military - 4))
    return replace(rules, cards=cards)


CHANGES = ("shipped", "luxembourg+4", "wittelsbach+4", "market-military+8", "market-military-4")


def _game(job: tuple[str, str, int]) -> tuple[int, int, int, int]:
    """Winner, offers and picks of the market card, its plays."""
    change, kind, seed = job
    if change not in _RULES:  # once per worker and data set
        _RULES[change] = _changed(Rules.from_data(_DATA[0]), change)
    seen = CardChoices(MARKET_CARD)
    g = play_game(_RULES[change], seed, (kind, kind), watch=seen)
    return g.winner or 0, seen.offered, seen.picked, seen.played


_DATA: list = []  # the loaded data, set before the workers fork
_RULES: dict[str, Rules] = {}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--players", default="greedy")
    args = ap.parse_args()
    _DATA.append(load_or_raise(ROOT))
    out = {}
    print("| data | Luxembourg wins | 95 % interval | card picked when buyable | card plays per game |")
    print("|---|---|---|---|---|")
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for change in CHANGES:
            rows = pool.map(_game, [(change, args.players, SEED_BASE + i) for i in range(args.games)])
            lux = sum(1 for w, *_ in rows if w == 0)
            lo, hi = wilson(lux, args.games)
            offered, picked, played = (sum(r[k] for r in rows) for k in (1, 2, 3))
            out[change] = {"lux_rate": round(lux / args.games, 3), "interval": [round(lo, 3), round(hi, 3)],
                           "picked_when_buyable": round(picked / max(1, offered), 3),
                           "plays_per_game": round(played / args.games, 3)}
            print(f"| {change} | {lux / args.games:.1%} | {lo:.1%}–{hi:.1%} | "
                  f"{picked}/{offered} = {picked / max(1, offered):.0%} | {played / args.games:.2f} |")
    print(json.dumps({"games": args.games, "players": args.players, "results": out}, sort_keys=True))


if __name__ == "__main__":
    main()
