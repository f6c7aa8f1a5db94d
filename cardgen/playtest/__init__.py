"""`cardgen playtest`: play many seeded games on the current data and report what the
prototype values do to the game (output/playtest/report.json and report.pdf)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..check import RULE_CHECKS
from ..data.layout import load_layout
from ..data.load import load
from ..engine import Rules, RulesError
from ..engine.rules import EffectError
from ..errors import CardgenError, Location, Severity, error
from ..files.write import atomic_write
from ..progress import Progress
from .pdf import build_pdf
from .report import aggregate, compare, compare_lines, to_json
from .run import chunk_count, play_many

CARD_LAYOUT = Path("layouts") / "card.yaml"


@dataclass(frozen=True)
class PlaytestOptions:
    games: int = 2000
    seed: int = 1
    players: tuple[str, str] = ("greedy", "greedy")
    jobs: int = 0
    compare: Path | None = None


@dataclass
class PlaytestResult:
    report: dict[str, Any]
    written: list[Path]
    compare_lines: list[str]


def playable_rules(project: Path) -> Rules:
    """Load and rule-check the data; anything the engine can't play is a located error."""
    data, findings = load(project)
    findings = list(findings)
    for check in RULE_CHECKS:
        findings.extend(check(data))
    errors = [f for f in findings if f.severity is Severity.ERROR]
    if errors:
        raise CardgenError(errors)
    try:
        return Rules.from_data(data)
    except Exception as exc:  # damaged data of any shape: a located error, never a traceback
        raise CardgenError(error("engine-data", str(exc), location=Location("card_data"))) from None


def _old_report(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CardgenError(error("compare-unreadable", f"cannot read the old report: {exc}",
                                 location=Location(str(path)),
                                 hint="pass the report.json of an earlier playtest")) from None


def playtest(project: Path, options: PlaytestOptions, progress: Progress | None = None) -> PlaytestResult:
    progress = progress or Progress(mode="quiet")
    old = _old_report(options.compare) if options.compare else None
    rules = playable_rules(project)
    progress.start(chunk_count(options.games), "playtest")
    done = [0]

    def tick(n: int) -> None:
        done[0] += n
        progress.done += 1
        # a log gets a line per tenth, a terminal bar moves with every chunk
        if progress.mode == "bar" or progress.done % 10 == 0 or done[0] == options.games:
            progress.done -= 1
            progress.step(f"{done[0]}/{options.games} games")


    try:
        records = play_many(rules, options.games, options.seed, options.players, options.jobs, tick)
    except EffectError as exc:
        info = rules.cards.get(exc.card)
        raise CardgenError(error("engine-runtime", f"a game failed: {exc}", card=exc.card,
                                 location=info.card.loc if info else Location("card_data"),
                                 hint="run `cardgen check`: it plays every line")) from None
    except RulesError as exc:
        raise CardgenError(error("engine-runtime", str(exc), location=Location("card_data"))) from None
    finally:
        progress.finish()
    meta = {"seed": options.seed, "players": ",".join(options.players),
            "rules_version": rules.data.game.rules_version,
            "data_version": rules.data.game.data_version}
    report = aggregate(records, rules, meta)
    diff = compare(report, old) if old is not None else None
    if diff is not None:
        report["compare"] = diff
    out = project / "output" / "playtest"
    out.mkdir(parents=True, exist_ok=True)
    json_path, pdf_path = out / "report.json", out / "report.pdf"
    atomic_write(json_path, to_json(report))
    layout = load_layout(project / CARD_LAYOUT)
    atomic_write(pdf_path, build_pdf(report, layout.fonts, diff))
    return PlaytestResult(report, [json_path, pdf_path], compare_lines(diff) if diff else [])
