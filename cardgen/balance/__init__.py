"""`cardgen balance`: search the values card_data/balance.yaml names for the ones that make
the game fair (or meet the designer's other targets), changing as few as it can; write the
proposal and the playtest reports of today's and the proposed data; ``--apply`` writes the
proposal into card_data/."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..data.project import load_project
from ..errors import CardgenError, Location, error
from ..playtest import playable_rules
from ..progress import Progress
from .games import runner
from .outputs import check_outputs, journal_path
from .proposal import apply_proposal, playtest_reports, proposal_body, write_proposal
from .search import Outcome, SearchOptions, changed, reduce_changes, run_study, study_name, validate
from .spec import Spec, read_spec

__all__ = ["BalanceOptions", "BalanceResult", "SearchOptions", "apply_proposal", "balance"]


@dataclass(frozen=True)
class BalanceOptions:
    search: SearchOptions = field(default_factory=SearchOptions)
    jobs: int = 0                 # local worker processes (0: one per core)
    scheduler: Any = None         # a Dask scheduler address: the games run there
    confirm_games: int = 4000     # the fresh playtest of the proposal (seed + 1)


@dataclass
class BalanceResult:
    proposal: Path
    changes: dict[str, int]
    outcome: Outcome
    confirmation: dict[str, Any] | None


def _confirmation(spec: Spec, reports: dict[str, dict[str, Any]], seed: int,
                  games: int) -> dict[str, Any]:
    def house(report: dict[str, Any]) -> dict[str, Any]:
        h = report["houses"]["luxembourg"]
        return {"win_rate": h["rate"], "ci95": h["ci95"]}
    win = next((t for t in spec.targets if t.measure == "win_rate"), None)
    proposed = house(reports["proposed"])
    inside = None if win is None else (win.value - win.tolerance <= proposed["ci95"][0]
                                       and proposed["ci95"][1] <= win.value + win.tolerance)
    return {"seed": seed, "games": games, "current": house(reports["current"]),
            "proposed": proposed, "interval_inside_band": inside}


def balance(project: Path, options: BalanceOptions, progress: Progress | None = None) -> BalanceResult:
    progress = progress or Progress(mode="quiet")
    check_outputs(project)  # a planted link or FIFO in output/balance/: before anything runs
    data = playable_rules(*load_project(project)).data  # the data `cardgen playtest` would play
    spec = read_spec(project, data)
    search = options.search
    if search.trials < 1 or search.games < 2 or options.confirm_games < 1 or search.validate < 0:
        raise CardgenError(error("usage", "--trials and --confirm-games must be at least 1, "
                                 "--games at least 2, --validate-games at least 0",
                                 location=Location("cardgen balance")))
    file = journal_path(project)
    games = runner(data, search.players, options.jobs, options.scheduler)
    progress.start(search.trials, "balance")
    try:
        outcome = run_study(spec, games, search, file, progress.step)
        if not outcome.interrupted and search.validate:
            progress.stage(f"the best {len(outcome.top)} trials on {search.validate} more games")
            outcome = validate(outcome, spec, games, search, progress.stage)
        if not outcome.interrupted:
            progress.stage("taking back the changes that are not needed")
            outcome = reduce_changes(outcome, spec, games, search, progress.stage)
    finally:
        games.close()
        progress.finish()
    name = study_name(spec, search)
    body = proposal_body(spec, search, name, outcome, data, None)
    path = write_proposal(project, body)
    values = changed(outcome.best.values, spec)
    confirmation = None
    if not outcome.interrupted:
        try:
            progress.stage(f"confirming: {options.confirm_games} fresh games of today's and the "
                           f"applied proposal (seed {search.seed + 1})")
            reports = playtest_reports(project, body, options.confirm_games, search.seed + 1,
                                       search.players, options.jobs, spec)
            confirmation = _confirmation(spec, reports, search.seed + 1, options.confirm_games)
            write_proposal(project, proposal_body(spec, search, name, outcome, data, confirmation))
        except KeyboardInterrupt:
            outcome.interrupted = True
    return BalanceResult(path, values, outcome, confirmation)
