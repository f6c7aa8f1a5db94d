"""The coin row against the card layout: a card's yield and cost coins fit their row (2.33, 2.34).

The row (layouts/card.yaml ``coin_row``) runs from ``left`` to ``right``; the yield coins
are drawn from its left end rightwards and the cost coins from its right end leftwards, each
``diameter`` wide with ``gap`` between neighbours (cardgen/render/card.py). Between the two
groups at least one coin's width stays free, so they read as two. How many cost coins fit
follows from those numbers, so a wider row or smaller coins raise the limit.
"""

from __future__ import annotations

from pathlib import Path

from ..data.layout import CoinRow, Layout
from ..data.model import GameData
from ..errors import Finding, error

#: Rounding slack (mm) when coins exactly fill the row.
_SLACK = 1e-6


def _run(row: CoinRow, coins: int) -> float:
    """The width (mm) of ``coins`` coins side by side."""
    return coins * row.diameter + max(coins - 1, 0) * row.gap if coins > 0 else 0.0


def fits(row: CoinRow, yields: int, cost: int) -> bool:
    """Whether ``yields`` yield coins and ``cost`` cost coins fit the row, apart."""
    space = row.diameter if yields and cost else 0.0
    return _run(row, yields) + space + _run(row, cost) <= row.right - row.left + _SLACK


def cost_capacity(row: CoinRow, yields: int) -> int:
    """The most cost coins that fit beside ``yields`` yield coins (0 when none does)."""
    free = row.right - row.left - _run(row, yields) - (row.diameter if yields else 0.0)
    if free + _SLACK < row.diameter:
        return 0
    return int((free + row.gap + _SLACK) // (row.diameter + row.gap))


def _plural(n: int) -> str:
    return f"{n} coin{'' if n == 1 else 's'}"


def coin_row_findings(data: GameData, layout: Layout) -> list[Finding]:
    """An error for each card whose coins would run past their row or into each other."""
    row = layout.coin_row
    where = f"coin_row in {Path(layout.source).parent.name}/{Path(layout.source).name}"
    out = []
    for card in data.cards:
        yields, cost = len(card.yields), len(card.cost)
        if not fits(row, yields, 0):
            out.append(error(
                "coin-row-overflow", f"the yield of {_plural(yields)} does not fit the coin "
                f"row ({where}), which holds {cost_capacity(row, 0)}", location=card.at("yield"),
                card=card.id, rule="2.33",
                hint=f"give the card fewer yield coins, or widen the {where}"))
        elif not fits(row, yields, cost):
            most = cost_capacity(row, yields)
            out.append(error(
                "coin-row-overflow", f"the cost of {_plural(cost)} does not fit the coin row "
                f"beside the yield of {_plural(yields)}: the widest cost it holds there is "
                f"{_plural(most)} ({where}: left {row.left:g}, right {row.right:g}, diameter "
                f"{row.diameter:g}, gap {row.gap:g} mm)", location=card.at("cost"),
                card=card.id, rule="2.34",
                hint=f"give the card a cost of at most {_plural(most)}, or make the coins "
                f"smaller or the row wider in the {where}"))
    return out
