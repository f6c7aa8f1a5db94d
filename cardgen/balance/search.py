"""The search: an Optuna study over the tunable values, one seeded set of games per trial,
then the fewest changes that still do the job.

Trials run one after another and each trial's games run in parallel (locally or on a
cluster), so the sampler sees the same history whatever the number of workers: the same
seed gives the same proposal anywhere. The study lives in a journal file; a run stopped by
Ctrl-C (or a crash) goes on from its finished trials when started again.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import CardgenError, Location, error
from ..files.write import make_folder
from ..playtest import PlaytestOptions
from .games import GameResult, Runner
from .measure import in_band, measures, objective, pct
from .outputs import JOURNAL, shown
from .spec import MEASURES, Spec

#: Trials of random values before the sampler models the results (Optuna's own default).
STARTUP_TRIALS = 10
#: Trials played in full before the pruner may stop one at half its games.
PRUNE_AFTER = 5
#: The best trials played again on the validation games.
TOP = 5


@dataclass(frozen=True)
class SearchOptions:
    trials: int = 50           # the budget: trials in the study (a resumed run counts the old ones)
    games: int = 300           # games per trial, the same seeds for every trial
    validate: int = 900        # more games for the best few trials and the reduction
    seed: int = 1
    players: tuple[str, str] = field(default_factory=lambda: PlaytestOptions().players)
    timeout: float | None = None  # seconds; no new trial starts after it (not reproducible)
    sparse: int = 0            # >0: the first trials each change at most this many values


@dataclass(frozen=True)
class Evaluated:
    """One set of values and what its games measured."""

    values: dict[str, int]
    measured: dict[str, float]
    score: float
    trial: int | None = None  # the study's trial number; None for the reduction's checks
    label: int | None = None  # the trial as the progress lines count it: 1, 2, … (pruned too)


@dataclass
class Outcome:
    baseline: Evaluated
    best: Evaluated
    trials: int                 # finished trials in the study
    interrupted: bool = False
    reverted: list[str] = field(default_factory=list)  # changes the reduction took back
    top: list[Evaluated] = field(default_factory=list)  # the best trials of the study
    games: int = 0              # the games the best (and today's values) were measured on
    directions: list[dict[str, Any]] = field(default_factory=list)  # each change alone


def study_name(spec: Spec, options: SearchOptions) -> str:
    """A name per question asked: the tunables (with today's values), targets, penalty,
    games, seed and players. A changed question starts a new study in the same file."""
    what = {"tunables": [(t.path, t.slot.value, t.low, t.high) for t in spec.tunables],
            "targets": [(t.measure, t.value, t.tolerance) for t in spec.targets],
            "penalty": spec.penalty, "games": options.games, "seed": options.seed,
            "players": list(options.players)} | ({"sparse": options.sparse} if options.sparse else {})
    digest = hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:16]
    return f"balance-{digest}"


def _optuna() -> Any:
    try:
        import optuna
    except ImportError:
        raise CardgenError(error("balance-setup", "cardgen balance needs Optuna",
                                 location=Location("cardgen"),
                                 hint="pip install -e .[balance]")) from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def _study(optuna: Any, spec: Spec, options: SearchOptions, file: Path
           ) -> tuple[Any, list[Evaluated], int]:
    """The study in the journal ``file`` (checked by :func:`.outputs.journal_path`), its
    finished trials and the number pruned; a journal Optuna cannot read, or whose trials
    are not of this question (values outside the tunables' ranges), is a located error."""
    try:
        study = _open_study(optuna, spec, options, file)
        counted = sorted(t.number for t in study.get_trials(deepcopy=False)
                         if t.state in (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED))
        labels = {number: i + 1 for i, number in enumerate(counted)}
        return (study, [_evaluated(t, spec, labels[t.number]) for t in _finished(optuna, study)],
                _pruned(optuna, study))
    except CardgenError:
        raise
    except Exception as exc:  # a damaged or planted journal, of any shape
        where = shown(JOURNAL)
        raise CardgenError(error("balance-setup", f"cannot read the study journal {where}: "
                                 f"{type(exc).__name__}: {str(exc)[:200]}",
                                 location=Location(where),
                                 hint="delete it to start the study afresh")) from None


def _open_study(optuna: Any, spec: Spec, options: SearchOptions, file: Path) -> Any:
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend
    make_folder(file.parent)
    storage = JournalStorage(JournalFileBackend(str(file)))
    # a trial whose first half of games scores worse than the median of the trials before
    # at that point is stopped there (hopeless): half the cost
    pruner = optuna.pruners.MedianPruner(n_startup_trials=PRUNE_AFTER, n_warmup_steps=0)
    study = optuna.create_study(storage=storage, study_name=study_name(spec, options),
                                direction="minimize", load_if_exists=True, pruner=pruner)
    for t in study.get_trials(deepcopy=False):
        if t.state == optuna.trial.TrialState.RUNNING:  # left by an interrupted run
            study.tell(t.number, state=optuna.trial.TrialState.FAIL)
    done = _finished(optuna, study)
    if not study.get_trials(deepcopy=False):
        study.enqueue_trial({t.path: t.slot.value for t in spec.tunables})  # today's data first
        for values in sparse_starts(spec, options):
            study.enqueue_trial(values)
    # a resumed run draws from a generator seeded by the seed and the trials already done
    # (within the generator's 0..2**32-1: the same seed as ever for seeds up to 4294)
    study.sampler = optuna.samplers.TPESampler(seed=(options.seed * 1_000_003 + len(done)) % 2**32,
                                               n_startup_trials=STARTUP_TRIALS)
    return study


def sparse_starts(spec: Spec, options: SearchOptions) -> list[dict[str, int]]:
    """The first trials after today's when ``options.sparse``: each changes 1 to ``sparse``
    values (drawn from the seed) instead of Optuna's random start, which changes nearly all
    of them, so that a small budget's best trial leaves few changes to take back."""
    if not options.sparse:
        return []
    rng = random.Random(options.seed)
    current = {t.path: t.slot.value for t in spec.tunables}
    starts = []
    for _ in range(min(STARTUP_TRIALS, options.trials - 1)):
        values = dict(current)
        for t in rng.sample(spec.tunables, min(len(spec.tunables), rng.randint(1, options.sparse))):
            values[t.path] = rng.choice([v for v in range(t.low, t.high + 1) if v != t.slot.value])
        starts.append(values)
    return starts


def _finished(optuna: Any, study: Any) -> list[Any]:
    return sorted((t for t in study.get_trials(deepcopy=False)
                   if t.state == optuna.trial.TrialState.COMPLETE), key=lambda t: t.number)


def _pruned(optuna: Any, study: Any) -> int:
    return sum(1 for t in study.get_trials(deepcopy=False) if t.state == optuna.trial.TrialState.PRUNED)


def _evaluated(t: Any, spec: Spec, label: int) -> Evaluated:
    """A finished trial of the journal, which must hold a whole number inside its range for
    each tunable and a finite number for each measure."""
    values, measured = dict(t.params), dict(t.user_attrs.get("measured") or {})
    ranges = {x.path: (x.low, x.high) for x in spec.tunables}
    if (set(values) != set(ranges)
            or not all(type(v) is int and ranges[p][0] <= v <= ranges[p][1] for p, v in values.items())
            or set(measured) != set(MEASURES) or not all(_finite(v) for v in measured.values())
            or not _finite(t.value)):
        raise ValueError(f"trial {t.number} is not a trial of balance.yaml's tunables")
    return Evaluated(values, measured, float(t.value), t.number, label)


def _finite(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def _best(trials: list[Evaluated]) -> Evaluated:
    return min(trials, key=lambda e: (e.score, e.trial if e.trial is not None else 1 << 30))


Report = Callable[[str], None]


def _number(e: Evaluated) -> str:
    """"trial 3": counted from 1 as the progress lines count them (Optuna's own numbers
    start at 0 and skip a trial an interrupted run left unfinished)."""
    return f"trial {e.label}" if e.label is not None else "today's values"


def _line(label: str, e: Evaluated, best: Evaluated, spec: Spec, games: int) -> str:
    changed = sum(1 for t in spec.tunables if best.values.get(t.path, t.slot.value) != t.slot.value)
    return (f"{label}: Luxembourg {pct(e.measured['win_rate'])} on {games:,} games (score "
            f"{e.score:.3f}); best so far "
            f"{_number(best)} Luxembourg {pct(best.measured['win_rate'])}, {changed} value"
            f"{'s' * (changed != 1)} changed{' — in the band' if in_band(best.measured, spec) else ''}")


def run_study(spec: Spec, runner: Runner, options: SearchOptions, file: Path,
              report: Report = lambda _s: None) -> Outcome:
    """Trials until the study holds ``options.trials`` finished ones (or the timeout, or
    Ctrl-C); the best trial and the baseline (trial 0, today's values)."""
    optuna = _optuna()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Optuna's experimental-feature notes
        study, done, pruned = _study(optuna, spec, options, file)
    dists = {t.path: optuna.distributions.IntDistribution(t.low, t.high) for t in spec.tunables}
    if done or pruned:
        report(f"resuming the study in {file}: {len(done) + pruned} trials done")
    start = time.monotonic()
    interrupted = False
    trial = None
    half = options.games // 2
    try:
        while len(done) + pruned < options.trials:
            if options.timeout is not None and time.monotonic() - start > options.timeout:
                report("time is up: no new trial")
                break
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                trial = study.ask(dists)
            values = {p: int(v) for p, v in trial.params.items()}
            first = runner.play(values, options.seed, half) if half else []
            if first:
                trial.report(objective(measures(first), values, spec), half)
                if trial.should_prune():
                    study.tell(trial, state=optuna.trial.TrialState.PRUNED)
                    trial = None
                    pruned += 1
                    report(f"trial {len(done) + pruned} of {options.trials}: stopped after {half} "
                           f"games, Luxembourg {pct(measures(first)['win_rate'])} (hopeless)")
                    continue
            measured = measures(first + runner.play(values, options.seed, options.games, half))
            score = objective(measured, values, spec)
            trial.set_user_attr("measured", measured)
            study.tell(trial, score)
            done.append(Evaluated(values, measured, score, trial.number, len(done) + pruned + 1))
            trial = None
            report(_line(f"trial {len(done) + pruned} of {options.trials}", done[-1], _best(done), spec,
                         options.games))
    except KeyboardInterrupt:
        interrupted = True
        if trial is not None:
            study.tell(trial, state=optuna.trial.TrialState.FAIL)
        report("interrupted: keeping the best trial so far")
    if not done:
        raise CardgenError(error("balance-interrupted", "no trial finished; nothing to propose",
                                 location=Location(str(file))))
    baseline = next((e for e in done if all(e.values.get(t.path) == t.slot.value
                                             for t in spec.tunables)), done[0])
    top = sorted(done, key=lambda e: (e.score, e.trial))[:TOP]
    return Outcome(baseline, _best(done), len(done) + pruned, interrupted, top=top,
                   games=options.games)


def _combined(a: Mapping[str, float], n: int, b: Mapping[str, float], m: int) -> dict[str, float]:
    return {k: round((a[k] * n + b[k] * m) / (n + m), 6) for k in a}


def validate(outcome: Outcome, spec: Spec, runner: Runner, options: SearchOptions,
             report: Report = lambda _s: None) -> Outcome:
    """The best few trials again on ``options.validate`` further games of the seed (the same
    for each), today's values too; the best on all its games is kept. The best of many
    trials on the same games is partly the luckiest (the winner's curse); more games shrink
    the luck. Today's values and the best are then measured on the same games."""
    if not options.validate or not outcome.top:
        return outcome
    total = options.games + options.validate
    checked = []
    today = [] if any(e.values == outcome.baseline.values for e in outcome.top) else [outcome.baseline]
    try:
        for e in [*outcome.top, *today]:
            extra = measures(runner.play(e.values, options.seed, total, options.games))
            measured = _combined(e.measured, options.games, extra, options.validate)
            checked.append(Evaluated(e.values, measured, objective(measured, e.values, spec),
                                     e.trial, e.label))
            report(f"{_number(e)} on {total:,} games: Luxembourg {pct(measured['win_rate'])} "
                   f"(score {checked[-1].score:.3f})")
    except KeyboardInterrupt:
        outcome.interrupted = True
        report("interrupted: keeping the best trial so far")
    if len(checked) == len(outcome.top) + len(today):
        outcome.best, outcome.games = _best(checked[:len(outcome.top)]), total
        outcome.baseline = next(e for e in checked if e.values == outcome.baseline.values)
    return outcome


def reduce_changes(outcome: Outcome, spec: Spec, runner: Runner, options: SearchOptions,
                   report: Report = lambda _s: None) -> Outcome:
    """Take back the best trial's changes one at a time, smallest first, wherever the games
    (the same seeds) score no worse without it: the fewest changes that do the job."""
    best = outcome.best
    games = outcome.games or options.games  # the games the best was measured on
    current = {t.path: t.slot.value for t in spec.tunables}
    order = sorted((t for t in spec.tunables if best.values[t.path] != current[t.path]),
                   key=lambda t: (abs(best.values[t.path] - current[t.path]) / t.width, t.path))
    try:
        for t in order:
            values = {**best.values, t.path: current[t.path]}
            measured = measures(runner.play(values, options.seed, games))
            score = objective(measured, values, spec)
            kept = score <= best.score
            report(f"without {t.path} {current[t.path]} → {best.values[t.path]}: Luxembourg "
                   f"{pct(measured['win_rate'])} on {games:,} games (score {score:.3f}): "
                   f"{'taken back' if kept else 'kept'}")
            if kept:
                best = Evaluated(values, measured, score)
                outcome.reverted.append(t.path)
    except KeyboardInterrupt:
        outcome.interrupted = True
        report("interrupted: keeping the changes taken back so far")
    outcome.best = best
    return outcome


def toward(effect: Mapping[str, float], today: Mapping[str, float], spec: Spec) -> float:
    """How far a change's effect on the measures points toward the targets: the effect
    along the way down the miss from today's measures (each target weighted as the miss
    weighs it); above 0 when it moves the measures toward the targets, below when away."""
    return sum(effect[t.measure] * (t.value - today[t.measure]) / t.tolerance ** 2
               for t in spec.targets)


def check_directions(outcome: Outcome, spec: Spec, runner: Runner, options: SearchOptions,
                     report: Report = lambda _s: None) -> Outcome:
    """Each change the proposal keeps, alone on today's values, on the games today's values
    and the proposal were measured on (common seeds): a change whose own effect points away
    from the targets (or nowhere) is taken back, whatever it did in company. The proposal
    left is measured again on the same games."""
    today = outcome.baseline
    games = outcome.games or options.games
    current = {t.path: t.slot.value for t in spec.tunables}
    base = runner.play(today.values, options.seed, games)
    kept = dict(outcome.best.values)
    try:
        for t in spec.tunables:
            new = outcome.best.values[t.path]
            if new == current[t.path]:
                continue
            alone = runner.play({**current, t.path: new}, options.seed, games)
            effect = {k: v - measures(base)[k] for k, v in measures(alone).items()}
            lo, hi = paired_interval(base, alone)
            good = toward(effect, today.measured, spec) > 0
            outcome.directions.append({"path": t.path, "old": current[t.path], "new": new,
                                       "win_rate_effect": round(effect["win_rate"], 6),
                                       "ci95": [lo, hi], "toward_targets": good})
            report(f"{t.path} {current[t.path]} → {new} alone: Luxembourg "
                   f"{signed(effect['win_rate'])} pp [{signed(lo)}, {signed(hi)}] on the "
                   f"same {games:,} games, {'toward' if good else 'not toward'} the targets: "
                   f"{'kept' if good else 'taken back'}")
            if not good:
                kept[t.path] = current[t.path]
                outcome.reverted.append(t.path)
    except KeyboardInterrupt:
        outcome.interrupted = True
        report("interrupted: keeping the changes checked so far")
        return outcome
    if kept != outcome.best.values:
        measured = measures(runner.play(kept, options.seed, games))
        outcome.best = Evaluated(kept, measured, objective(measured, kept, spec))
    return outcome


def paired_interval(a: list[GameResult], b: list[GameResult]) -> tuple[float, float]:
    """The 95 % interval of the change in Luxembourg's win rate from ``a`` to ``b``, games
    paired by seed (normal approximation of the mean of the per-game differences)."""
    d = [(y.winner == 0) - (x.winner == 0) for x, y in zip(a, b, strict=True)]
    n = max(len(d), 1)
    mean = sum(d) / n
    sd = (sum((x - mean) ** 2 for x in d) / max(n - 1, 1)) ** 0.5
    half = 1.96 * sd / n ** 0.5
    return round(mean - half, 6), round(mean + half, 6)


def signed(share: float) -> str:
    """+4.5 / −2.0: a change of a share in percentage points, with a true minus sign."""
    return f"{100 * share:+.1f}".replace("-", "\u2212")


def changed(values: Mapping[str, int], spec: Spec) -> dict[str, int]:
    return {t.path: values[t.path] for t in spec.tunables if values[t.path] != t.slot.value}
