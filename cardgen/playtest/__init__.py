"""`cardgen playtest`: play many seeded games on the current data and report what the
prototype values do to the game (output/playtest/report.json and <lang>/report.pdf)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..check import RULE_CHECKS
from ..data.model import LANGS
from ..data.project import Project, load_project
from ..engine import Rules, RulesError
from ..engine.match import PLAYERS
from ..engine.rules import EffectError
from ..errors import CardgenError, Finding, Location, Severity, error
from ..files.oserrors import read_input
from ..files.provenance import provenance
from ..files.safepath import in_output
from ..files.write import atomic_write
from ..progress import Progress
from ..wording.components import load_components
from .compare import OldReportError, compare, figures
from .findings import findings
from .ladder import RUNGS, ladder
from .meter import Meter
from .pdf import build_pdf
from .report import aggregate, to_json
from .run import play_many
from .sentences import figure_name, finding_text
from .supply import kinds, unmeasured
from .words import Words

#: Games of ``cardgen playtest --quick``: about a minute on 2 cores with greedy players.
QUICK_GAMES = 600


def half_width(games: int, share: float = 0.5) -> float:
    """The half width of a 95 % interval of a share near ``share`` measured on ``games``
    games (normal approximation: what a budget can resolve, said before it is played)."""
    return 1.96 * (share * (1 - share) / max(games, 1)) ** 0.5


@dataclass(frozen=True)
class PlaytestOptions:
    games: int = 1000
    seed: int = 1
    players: tuple[str, str] = ("greedy", "greedy")
    jobs: int = 0
    compare: Path | None = None
    langs: tuple[str, ...] = LANGS
    ladder: int = 0  # seat-swapped pairs of games per rung of the players' ladder


@dataclass
class PlaytestResult:
    report: dict[str, Any]
    written: list[Path]
    lines: list[str]  # the findings (and changes) in the first language, for the terminal
    headline: str = ""  # each house's win rate with its interval, in the first language


def playable_rules(project: Project, findings: list[Finding]) -> Rules:
    """Rule-check the loaded data (``findings``: the loader's); anything the engine can't
    play is a located error."""
    data = project.data
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


#: The largest --compare report read (one of 2,000 games is about 60 kB).
MAX_REPORT = 16 * 1024 * 1024


def _old_report(path: Path) -> dict[str, Any]:
    """The report to compare with, checked before any game is played: a regular file of at
    most MAX_REPORT bytes, JSON that nests as a report does, of the figures a report holds."""
    raw = read_input(path, limit=MAX_REPORT)
    try:
        old = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        why = "it nests too deeply" if isinstance(exc, RecursionError) else str(exc)[:200]
        raise CardgenError(error("compare-unreadable", f"cannot read the old report: {why}",
                                 location=Location(str(path)),
                                 hint="pass the report.json of an earlier playtest")) from None
    try:
        figures(old)
    except (OldReportError, AttributeError, KeyError, TypeError, ValueError) as exc:
        raise CardgenError(error("compare-old-format", f"the old report cannot be compared: {exc}",
                                 location=Location(str(path)),
                                 hint="play the old data again with this cardgen and compare "
                                      "with that report")) from None
    return old


def _components(project: Project) -> tuple[dict[str, Any], dict[str, dict[str, str]]]:
    """components.yaml's token table, and each reminder's printed text per language."""
    comp, found = load_components(project)
    errors = [f for f in found if f.severity is Severity.ERROR]
    if comp is None or errors:
        raise CardgenError(errors or [error("components", "card_data/components.yaml cannot be read",
                                            location=Location("card_data/components.yaml"))])
    reminders = {r["id"]: dict(r.get("text") or {}) for r in comp.tokens.get("reminders") or ()}
    return comp.tokens, reminders


def playtest(project: Path, options: PlaytestOptions, progress: Progress | None = None) -> PlaytestResult:
    for rel in _outputs(options.langs):  # through the output wall before the first game
        in_output(project, rel)
    old = _old_report(options.compare) if options.compare else None
    gathered, loaded = load_project(project)
    rules = playable_rules(gathered, loaded)
    tokens, reminders = _components(gathered)
    words = {lang: Words(rules.data, lang) for lang in options.langs}  # missing words fail early
    records = _play(rules, options, tokens, progress or Progress(mode="quiet"))
    meta = {"seed": options.seed, "players": list(options.players),
            "budgets": [player_budget(k) for k in options.players],
            "rules_version": rules.data.game.rules_version,
            "data_version": rules.data.game.data_version,
            # the data's digest (and git revision): an edited data set is told from the shipped
            "provenance": provenance(project).as_json()}
    report = aggregate(records, rules, meta, kinds(tokens), unmeasured(tokens))
    report["findings"] = findings(report)
    if options.ladder:
        meter = Meter(progress or Progress(mode="quiet"), "ladder", 2 * len(RUNGS) * options.ladder)
        try:
            report["ladder"] = ladder(rules, options.ladder, options.seed, options.jobs, tokens,
                                      meter.add)
        finally:
            meter.progress.finish()
    if old is not None:
        report["compare"] = compare(report, old)
    report["findings_text"] = {lang: [finding_text(w, f, reminders) for f in report["findings"]]
                               for lang, w in words.items()}
    written = _write(gathered, report, words, reminders)
    first = words[options.langs[0]]
    lines = [f"{i + 1}. {t}" for i, t in enumerate(report["findings_text"][first.lang])]
    if "compare" in report:
        lines += compare_lines(report["compare"], first, reminders)
    houses = ", ".join(f"{first.side(side)} {first.pct(h['rate'], 1)} {first.ci(h['ci95'], decimals=1)}"
                       for side, h in report["houses"].items())
    head = f"{first.count(report['games'], 'game')}: {houses}".replace("\u00a0", " ")  # a terminal's
    return PlaytestResult(report, written, lines, head)


def _play(rules: Rules, options: PlaytestOptions, tokens: dict[str, Any],
          progress: Progress) -> list[dict[str, Any]]:
    """Every game's record; an engine failure is a located error."""
    meter = Meter(progress, "playtest", options.games)
    try:
        records = play_many(rules, options.games, options.seed, options.players, options.jobs,
                            meter.add, tokens, meter.every)
        meter.close()
        return records
    except EffectError as exc:
        info = rules.cards.get(exc.card)
        raise CardgenError(error("engine-runtime", f"a game failed: {exc}", card=exc.card,
                                 location=info.card.loc if info else Location("card_data"),
                                 hint="run `cardgen check`: it plays every line")) from None
    except RulesError as exc:
        raise CardgenError(error("engine-runtime", str(exc), location=Location("card_data"))) from None
    finally:
        progress.finish()


def _write(project: Project, report: dict[str, Any], words: dict[str, Words],
           reminders: dict[str, dict[str, str]]) -> list[Path]:
    """output/playtest/report.json and <lang>/report.pdf, each written atomically."""
    written = [in_output(project.root, rel) for rel in _outputs(tuple(words))]
    atomic_write(written[0], to_json(report))
    fonts = project.card_layout().fonts
    for path, w in zip(written[1:], words.values(), strict=True):
        atomic_write(path, build_pdf(report, fonts, w, reminders))
    return written


def _outputs(langs: tuple[str, ...]) -> list[str]:
    """What a playtest writes under output/: the report, then each language's PDF."""
    return ["playtest/report.json", *(f"playtest/{lang}/report.pdf" for lang in langs)]


def player_budget(kind: str) -> int | None:
    """The player's search budget (playouts per decision), if it has one."""
    budget = getattr(PLAYERS[kind](0), "budget", None)
    return budget if isinstance(budget, int) else None


def compare_lines(diff: dict[str, Any], w: Words, reminders: dict[str, dict[str, str]]) -> list[str]:
    """The house win rate's change (always), then the other changes outside the noise, one
    line each, for the terminal."""
    def line(r: dict[str, Any]) -> str:
        lo, hi = r["interval"]
        return (f"  {figure_name(w, r, reminders)}: {r['old']:.3f} → {r['new']:.3f} "
                f"({r['change']:+.3f} [{lo:+.3f}, {hi:+.3f}])")

    head = diff["headline"]
    verdict = w.raw("compare_beyond" if head["beyond_noise"] else "compare_within")
    return [f"{w('compare')}:", f"{line(head)} {verdict}",
            "  " + w("compare_others", shown=len(diff["changes"]), figures=diff["figures_compared"]),
            *map(line, diff["changes"])]
