"""Legal payments (6.12): every way a wallet can pay a cost, for the side to choose from.

A payment is a 4-tuple of cubes per currency (:data:`~cardgen.engine.rules.CURRENCIES`).
A coin is paid by a matching cube, by 3 cubes of another currency (6.12), by a Western cube
under Wool Trade (6.22), and an "any" coin by one cube of any currency. Only Pareto-minimal
payments are offered: a payment spending at least as much of every currency as another
legal one is never the better choice, so it is not listed.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from .rules import CUR

Payment = tuple[int, int, int, int]
WESTERN = CUR["western"]


def _minimal(found: set[Payment]) -> tuple[Payment, ...]:
    out = [p for p in found
           if not any(q != p and all(a <= b for a, b in zip(q, p, strict=True)) for q in found)]
    return tuple(sorted(out))


@lru_cache(maxsize=65536)
def _payments(wallet: Payment, cost: tuple[str, ...], wild: bool) -> tuple[Payment, ...]:
    found: set[Payment] = set()
    seen: set[tuple[int, Payment]] = set()

    def walk(i: int, pay: Payment) -> None:
        if (i, pay) in seen:
            return
        seen.add((i, pay))
        if i == len(cost):
            found.add(pay)
            return
        coin = cost[i]
        for cur in range(4):
            need = 1 if coin == "any" or cur == CUR[coin] or (wild and cur == WESTERN) else 3
            if wallet[cur] - pay[cur] >= need:
                nxt = list(pay)
                nxt[cur] += need
                walk(i + 1, (nxt[0], nxt[1], nxt[2], nxt[3]))

    walk(0, (0, 0, 0, 0))
    return _minimal(found)


def payments(wallet: Sequence[int], cost: Sequence[str], wild: bool = False) -> tuple[Payment, ...]:
    """Every Pareto-minimal legal payment of ``cost`` from ``wallet``, sorted; () if none."""
    return _payments((wallet[0], wallet[1], wallet[2], wallet[3]), tuple(cost), wild)


@lru_cache(maxsize=65536)
def _can_pay(wallet: Payment, cost: tuple[str, ...], wild: bool) -> bool:
    if not cost:
        return True
    coin, rest = cost[0], cost[1:]
    for cur in range(4):
        need = 1 if coin == "any" or cur == CUR[coin] or (wild and cur == WESTERN) else 3
        if wallet[cur] >= need:
            left = list(wallet)
            left[cur] -= need
            if _can_pay((left[0], left[1], left[2], left[3]), rest, wild):
                return True
    return False


def can_pay(wallet: Sequence[int], cost: Sequence[str], wild: bool = False) -> bool:
    """Whether any legal payment of ``cost`` exists (faster than listing them)."""
    return _can_pay((wallet[0], wallet[1], wallet[2], wallet[3]), tuple(cost), wild)


def _dropped(cost: Sequence[str], less: int) -> set[tuple[str, ...]]:
    """The costs left after the buyer drops ``less`` coins of its choice."""
    keep = max(0, len(cost) - less)
    return set(combinations(sorted(cost), keep))


def discounted_payments(wallet: Sequence[int], cost: Sequence[str], less: int,
                        wild: bool = False) -> tuple[Payment, ...]:
    """Payments of ``cost`` made ``less`` coins cheaper, the dropped coins chosen by the buyer
    among the coins of the cost (6.22, 6.52)."""
    if less <= 0:
        return payments(wallet, cost, wild)
    found: set[Payment] = set()
    for rest in _dropped(cost, less):
        found.update(payments(wallet, rest, wild))
    return _minimal(found)


def can_pay_discounted(wallet: Sequence[int], cost: Sequence[str], less: int,
                       wild: bool = False) -> bool:
    if less <= 0:
        return can_pay(wallet, cost, wild)
    return any(can_pay(wallet, rest, wild) for rest in _dropped(cost, less))
