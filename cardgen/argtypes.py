"""Command-line values checked where they are parsed: whole numbers and finite decimals in
their documented ranges, language lists without repeats. A value outside its range is a usage
error (exit 2) naming the option and the range, never a traceback or a NaN in a PDF."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

#: Worker processes: 0 means one per core; more than this is a typing error.
MAX_JOBS = 256
#: Games of one playtest run (the default is 2,000).
MAX_GAMES = 1_000_000
#: Total ink of a CMYK check, in percent of one colour (400 = all four at full strength).
INK_RANGE = (100.0, 400.0)
#: Seeds are any whole number a run can repeat.
MAX_SEED = 2**63 - 1


def whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""
    def parse(text: str) -> int:
        try:
            value = int(text.strip()) if len(text) <= 30 else None
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected a whole number from {low:,} to "
                                             f"{high:,}, not {_shown(text)}")
        return value
    return parse


def decimal(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a finite decimal number from ``low`` to ``high``."""
    def parse(text: str) -> float:
        value = finite(text)
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected a number from {low:g} to {high:g}, "
                                             f"not {_shown(text)}")
        return value
    return parse


def finite(text: str) -> float | None:
    """``text`` as a finite number, or None (``nan``, ``inf``, ``1e999``, not a number)."""
    try:
        value = float(text) if len(text) <= 40 else math.nan
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def languages(text: str) -> str:
    """An argparse type: comma-separated languages, none named twice (their codes are
    checked by the command, which knows them)."""
    langs = [x.strip() for x in text.split(",") if x.strip()]
    repeated = sorted({x for x in langs if langs.count(x) > 1})
    if repeated:
        raise argparse.ArgumentTypeError(f"{', '.join(repeated)} named twice in {_shown(text)}; "
                                         "name each language once")
    return text


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "…")
