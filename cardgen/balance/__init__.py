"""`cardgen balance`: search the values card_data/balance.yaml names for the ones that make
the game fair (or meet the designer's other targets), changing as few as it can; write the
proposal and the playtest reports of today's and the proposed data; ``--apply`` writes the
proposal into card_data/."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..data.project import load_project
from ..errors import CardgenError, Location, error
from ..playtest import playable_rules
from ..playtest.meter import Meter
from ..progress import Progress
from .games import runner
from .measure import miss
from .outputs import check_outputs, journal_path
from .power import power_check, power_lines
from .proposal import apply_proposal, playtest_reports, proposal_body, write_proposal
from .search import (
    TOP,
    Outcome,
    SearchOptions,
    changed,
    check_directions,
    reduce_changes,
    run_study,
    study_name,
    validate,
)
from .spec import Spec, read_spec

__all__ = ["QUICK", "BalanceOptions", "BalanceResult", "SearchOptions", "apply_proposal", "balance"]


#: ``cardgen balance --quick``: a first look in about a minute on 2 cores (greedy players).
QUICK = {"trials": 6, "games": 40, "validate": 40, "confirm_games": 200, "sparse": 2}


@dataclass(frozen=True)
class BalanceOptions:
    search: SearchOptions = field(default_factory=SearchOptions)
    jobs: int = 0                 # local worker processes (0: one per core)
    scheduler: Any = None         # a Dask scheduler address: the games run there
    confirm_games: int = 4000     # the fresh playtest of the proposal (seed + 1)


@dataclass
class BalanceResult:
    proposal: Path
    changes: dict[str, int]       # the proposal's values; empty when there is no proposal
    outcome: Outcome
    confirmation: dict[str, Any] | None
    power: dict[str, Any] = field(default_factory=dict)
    verdict: str = ""             # "proposal", or why there is none
    found: dict[str, int] = field(default_factory=dict)  # the values the search changed


NO_CHANGE = "no proposal: no change of the tunables came nearer the targets"
NOT_BETTER = "no proposal: the fresh confirmation did not come nearer the targets than today's values"


def report_measures(report: dict[str, Any]) -> dict[str, float]:
    """A playtest report's measures, as a trial's (:func:`.measure.measures`)."""
    ends = report["game_end"]
    n = max(sum(ends.values()), 1)
    return {"win_rate": report["houses"]["luxembourg"]["rate"],
            "mean_rounds": round(sum(int(k.rsplit(":", 1)[1]) * c for k, c in ends.items()) / n, 6),
            "crecy_rate": report["ended_by_crecy"]["rate"]}


def _confirmation(spec: Spec, reports: dict[str, dict[str, Any]], seed: int,
                  games: int) -> dict[str, Any]:
    def house(report: dict[str, Any]) -> dict[str, Any]:
        h = report["houses"]["luxembourg"]
        return {"win_rate": h["rate"], "ci95": h["ci95"],
                "miss": round(miss(report_measures(report), spec), 6)}
    win = next((t for t in spec.targets if t.measure == "win_rate"), None)
    current = house(reports["current"])
    proposed = house(reports["proposed"]) if "proposed" in reports else None
    inside = None if win is None or proposed is None else (
        win.value - win.tolerance <= proposed["ci95"][0]
        and proposed["ci95"][1] <= win.value + win.tolerance)
    return {"seed": seed, "games": games, "current": current, "proposed": proposed,
            "interval_inside_band": inside,
            "improved": proposed is not None and proposed["miss"] < current["miss"]}


def judged(values: dict[str, int], confirmation: dict[str, Any] | None) -> str:
    """"proposal" when some values change and the fresh confirmation of them came nearer
    the targets than today's values on the same games; else why there is no proposal."""
    if not values:
        return NO_CHANGE
    return "proposal" if confirmation is None or confirmation["improved"] else NOT_BETTER


def balance(project: Path, options: BalanceOptions, progress: Progress | None = None,
            say: Callable[[str], None] = lambda _s: None) -> BalanceResult:
    """The search, its checks and the fresh confirmation; ``say`` gets what is known before
    the search (the power check)."""
    progress = progress or Progress(mode="quiet")
    check_outputs(project)  # a planted link or FIFO in output/balance/: before anything runs
    data = playable_rules(*load_project(project)).data  # the data `cardgen playtest` would play
    spec = read_spec(project, data)
    search = options.search
    if search.trials < 1 or search.games < 2 or options.confirm_games < 1 or search.validate < 0:
        raise CardgenError(error("usage", "--trials and --confirm-games must be at least 1, "
                                 "--games at least 2, --validate-games at least 0",
                                 location=Location("cardgen balance")))
    power = power_check(spec, search, options.confirm_games)
    for line in power_lines(power, search):
        say(line)
    file = journal_path(project)
    games = runner(data, search.players, options.jobs, options.scheduler)
    meter = Meter(progress, "balance", search.trials * search.games
                  + (min(TOP, search.trials) + 1) * search.validate)
    games.on_games = meter.add

    def stage(what: str) -> None:
        meter.what = what
        progress.stage(what)

    try:
        meter.what = "search"
        outcome = run_study(spec, games, search, file, progress.stage)
        if not outcome.interrupted and search.validate:
            stage(f"the best {len(outcome.top)} trials and today's values on {search.validate:,} "
                  "more games")
            outcome = validate(outcome, spec, games, search, progress.stage)
        steps = [("taking back the changes that are not needed", reduce_changes),
                 ("each change alone on today's values (common seeds)", check_directions)]
        for what, step in steps:
            if not outcome.interrupted:
                meter.plan(len(changed(outcome.best.values, spec)) * (outcome.games or search.games))
                stage(what)
                outcome = step(outcome, spec, games, search, progress.stage)
        meter.close()
    finally:
        games.close()
        progress.finish()
    name = study_name(spec, search)
    values = changed(outcome.best.values, spec)
    verdict = judged(values, None)  # unconfirmed until the fresh games are played
    body = proposal_body(spec, search, name, outcome, data, None, power, verdict)
    path = write_proposal(project, body)
    confirmation = None
    if not outcome.interrupted:
        try:
            what = "today's and the applied proposal" if values else "today's data (no change to try)"
            progress.stage(f"confirming: {options.confirm_games:,} fresh games of {what} "
                           f"(seed {search.seed + 1})")
            reports = playtest_reports(project, body, options.confirm_games, search.seed + 1,
                                       search.players, options.jobs, spec, bool(values), progress)
            confirmation = _confirmation(spec, reports, search.seed + 1, options.confirm_games)
            verdict = judged(values, confirmation)
            write_proposal(project, proposal_body(spec, search, name, outcome, data, confirmation,
                                                  power, verdict))
        except KeyboardInterrupt:
            outcome.interrupted = True
    return BalanceResult(path, values if verdict == "proposal" else {}, outcome, confirmation,
                         power, verdict, values)
