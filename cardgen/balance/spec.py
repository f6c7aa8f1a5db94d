"""card_data/balance.yaml: the values `cardgen balance` may change, their ranges, and what
the search aims for.

A value the rulebook fixes (card_data/rules/facts.yaml) or that the counts of game.yaml tie
to others (a market card's copies) is refused: the spec's line gets an error naming the
rule it would break; so is a range the rule schema does not allow (an amount of 0). That
is found by trying the range's ends on a copy of the data and running the same fact, count
and schema checks as `cardgen check`, so the refusal follows the facts file and the schema,
never a list kept here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..check.effects import check_effects
from ..check.facts import check_rule_facts
from ..check.invariants import check_invariants
from ..data.model import GameData
from ..data.paths import PathError, Slot, patched, read_slot
from ..data.yamlsrc import LocList, LocMap, load_yaml_file
from ..errors import CardgenError, Finding, Location, Severity, error

SPEC_FILE = Path("card_data") / "balance.yaml"
#: Findings that say the rulebook (facts.yaml) or game.yaml's counts fix a value.
FIXED_CODES = ("rule-fact", "inventory-count")
#: The house whose win rate the default target names (the other's is its complement).
DEFAULT_TARGETS = {"win_rate": (0.5, 0.03)}
#: What a target may name: measures of a set of games (see :mod:`.measure`).
MEASURES = ("win_rate", "mean_rounds", "crecy_rate")


@dataclass(frozen=True)
class Tunable:
    """A value the search may change: where it is, what it is now, its range."""

    slot: Slot
    low: int
    high: int
    spec_loc: Location

    @property
    def path(self) -> str:
        return self.slot.path

    @property
    def width(self) -> int:
        return max(self.high - self.low, 1)


@dataclass(frozen=True)
class Target:
    measure: str
    value: float
    tolerance: float


@dataclass(frozen=True)
class Spec:
    tunables: tuple[Tunable, ...]
    targets: tuple[Target, ...]
    penalty: float  # weight of changing values, against a target missed by its tolerance


def rule_errors(data: GameData) -> set[tuple[str, str]]:
    """The errors of the fact, count and schema checks of `cardgen check` (code, message)."""
    found = check_rule_facts(data) + check_invariants(data) + check_effects(data)
    return {(f.code, f.message) for f in found if f.severity is Severity.ERROR}


def _refusal(data: GameData, slot: Slot, low: int, high: int, before: set[tuple[str, str]],
             at: Location) -> Finding | None:
    """An error when changing the value breaks a fact of the rulebook or a count."""
    for probe in dict.fromkeys(v for v in (low, high, slot.value + 1) if v != slot.value):
        new = rule_errors(patched(data, {slot.path: probe})) - before
        if new:
            # what the rulebook fixes first: it says more than the schema's bounds
            code, message = min(new, key=lambda f: (f[0] not in FIXED_CODES, f))
            fixed = code in FIXED_CODES
            return error("balance-fixed" if fixed else "balance-range",
                         f"{slot.path} (at {slot.loc}) cannot be tuned"
                         f"{'' if fixed else ' over this range'}: set to {probe} it breaks "
                         f"{code}: {message}", location=at,
                         hint="remove it from balance.yaml; the rulebook or game.yaml counts fix it"
                         if fixed else "narrow the range to values the rule schema allows")
    return None


def _range(entry: Any, at: Location) -> tuple[int, int] | None:
    rng = entry.get("range") if isinstance(entry, dict) else None
    if (isinstance(rng, list) and len(rng) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                        for v in rng) and rng[0] < rng[1]):
        return rng[0], rng[1]
    return None


def _targets(raw: Any, file: str) -> tuple[list[Target], list[Finding]]:
    targets, problems = [], []
    given = raw if isinstance(raw, dict) else {}
    if raw is not None and not isinstance(raw, dict):
        problems.append(error("balance-spec", "targets must be a mapping", location=Location(file)))
    merged = {k: {"value": v, "tolerance": t} for k, (v, t) in DEFAULT_TARGETS.items()} | given
    for name, want in merged.items():
        at = given.at(name) if isinstance(given, LocMap) and name in given else Location(file)
        ok = (isinstance(want, dict) and isinstance(want.get("value"), int | float)
              and isinstance(want.get("tolerance"), int | float) and want["tolerance"] > 0)
        if name not in MEASURES or not ok:
            problems.append(error("balance-spec", f"target '{name}' must be one of "
                                  f"{', '.join(MEASURES)} with a value and a tolerance above 0",
                                  location=at, hint="e.g. win_rate: {value: 0.5, tolerance: 0.03}"))
            continue
        targets.append(Target(name, float(want["value"]), float(want["tolerance"])))
    return targets, problems


def read_spec(project: Path, data: GameData) -> Spec:
    """balance.yaml read and checked against the data; every problem is one located error."""
    file = str(SPEC_FILE)
    path = project / SPEC_FILE
    if not path.is_file():
        raise CardgenError(error("balance-spec", "no balance.yaml: nothing may be tuned",
                                 location=Location(file),
                                 hint="list the values the search may change, see README "
                                 "\"Balancing the game\""))
    raw = load_yaml_file(path, file)
    if not isinstance(raw, LocMap) or not isinstance(raw.get("tunable"), LocList) or not raw["tunable"]:
        raise CardgenError(error("balance-spec", "balance.yaml needs a list 'tunable:' of "
                                 "{path, range} entries", location=Location(file)))
    problems: list[Finding] = []
    tunables: list[Tunable] = []
    before = rule_errors(data)
    seen: set[str] = set()
    for i, entry in enumerate(raw["tunable"]):
        at = raw["tunable"].at(i)
        rng = _range(entry, at)
        if not isinstance(entry, LocMap) or not isinstance(entry.get("path"), str) or rng is None:
            problems.append(error("balance-spec", "each tunable needs a path and a range "
                                  "[low, high] of whole numbers, low below high", location=at,
                                  hint="e.g. {path: cards.charles-iv.political, range: [1, 5]}"))
            continue
        try:
            slot = read_slot(data, entry["path"])
        except PathError as exc:
            problems.append(error("balance-path", str(exc), location=entry.at("path")))
            continue
        if slot.path in seen:
            problems.append(error("balance-spec", f"{slot.path} is listed twice", location=at))
            continue
        seen.add(slot.path)
        if not rng[0] <= slot.value <= rng[1]:
            problems.append(error("balance-spec", f"{slot.path} is {slot.value} (at {slot.loc}), "
                                  f"outside its range {list(rng)}", location=entry.at("range")))
            continue
        if slot.coins is not None and rng[0] < 1:
            problems.append(error("balance-spec", "a cost needs at least 1 coin",
                                  location=entry.at("range")))
            continue
        refused = _refusal(data, slot, *rng, before, at)
        if refused:
            problems.append(refused)
            continue
        tunables.append(Tunable(slot, rng[0], rng[1], at))
    targets, more = _targets(raw.get("targets"), file)
    problems += more
    penalty = raw.get("penalty", 0.2)
    if not isinstance(penalty, int | float) or penalty < 0:
        problems.append(error("balance-spec", "penalty must be a number of at least 0",
                              location=raw.at("penalty")))
    if problems:
        raise CardgenError(problems)
    return Spec(tuple(tunables), tuple(targets), float(penalty))
