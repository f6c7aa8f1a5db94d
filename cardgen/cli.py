"""Command-line wiring only: parse arguments, call the pipeline, print, set the exit code."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import __version__
from .build.build import build
from .build.check import run_check
from .build.fix import fill, fix
from .build.options import BuildOptions
from .build.po import po_export, po_import
from .build.proof import proof
from .build.tables import tables
from .build.watch import watch
from .data.model import LANGS
from .errors import EXIT_SETUP, CardgenError, Location, error, exit_code, has_errors, shown, strict
from .files.oserrors import check_regular, os_finding
from .files.provenance import provenance
from .impose.calibration import parse_back_offset
from .messages import UI_LANGS, _, ngettext, ui_lang, use
from .progress import Progress
from .report import counts, exception_lines, format_json, format_text, summary_line

# --- command-line values, checked where they are parsed ------------------------------
# Whole numbers and finite decimals in their documented ranges, language lists without
# repeats: a value outside its range is a usage error (exit 2) naming the option and the
# range, never a traceback or a NaN in a PDF.

#: Worker processes: 0 means one per core; more than this is a typing error.
MAX_JOBS = 256
#: Games of one playtest run (the default is 2,000).
MAX_GAMES = 1_000_000
#: Total ink of a CMYK check, in percent of one colour (400 = all four at full strength).
INK_RANGE = (100.0, 400.0)
#: Seeds are any whole number a run can repeat.
MAX_SEED = 2**63 - 1
#: A balance search's seed seeds Optuna's sampler, whose generator takes 0 to 2**32 - 1.
BALANCE_SEED = 2**32 - 1
#: Trials of one balance study (the default is 50; each plays --games games).
MAX_TRIALS = 100_000
#: `cardgen balance`'s budget when neither --quick nor the option gives one.
BALANCE_BUDGET = {"trials": 50, "games": 300, "validate": 900, "confirm_games": 4000, "sparse": 0}
#: Minutes after which a balance search starts no trial (a week).
TIMEOUT_MINUTES = (0.1, 10_080.0)


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


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="cardgen",
        description=_("Cards, print sheets, board and tokens of A Vote for the King of the "
                      "Romans, checked against the rules in English and Czech."))
    p.add_argument("--version", action="version", version=f"cardgen {__version__}")
    p.add_argument("--project", type=Path, default=Path.cwd(),
                   help=_("project folder holding card_data/, layouts/, art/ (default: .)"))
    p.add_argument("--ui-lang", choices=UI_LANGS,
                   help=_("language of the terminal's messages (default: the locale's, "
                          "else en)"))
    # --project is accepted before or after the command (`cardgen build --project DIR`)
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument("--project", type=Path, default=argparse.SUPPRESS,
                       help=_("project folder holding card_data/, layouts/, art/ (default: .)"))
    sub = p.add_subparsers(dest="command", required=True)

    c = sub.add_parser("check", parents=[where],
                       help=_("check every card against the rule schema, in both languages"))
    c.add_argument("--format", choices=("text", "json"), default="text",
                   help=_("text for people (default) or json for tools and editors"))
    c.add_argument("--lang-only", action="store_true", help=_("only the translation checks"))
    c.add_argument("--fill", action="store_true", help=_("write canonical text into empty lines"))
    c.add_argument("--fix", action="store_true",
                   help=_("repair mechanical typography in card_data (spaces, quotes, dashes)"))
    c.add_argument("--strict", action="store_true", help=_("warnings are errors (for releases)"))

    b = sub.add_parser("build", parents=[where], help=_("check, then write every PDF under output/"))
    b.add_argument("--lang", type=languages, default="en,cs",
                   help="comma-separated languages (default: en,cs)")
    b.add_argument("--png", action="store_true", help="also write 300 dpi PNGs of every card")
    b.add_argument("--cards", default="", help="reprint only these card ids (comma-separated)")
    b.add_argument("--changed-since", type=Path, help="reprint cards changed since MANIFEST")
    b.add_argument("--profile", default="generic", help="print-shop profile from layouts/profiles.yaml")
    b.add_argument("--cmyk", action="store_true",
                   help="every file in CMYK through an ICC profile (the shipped FOGRA39-based "
                   "one unless --icc)")
    b.add_argument("--icc", type=Path, metavar="FILE",
                   help="your print shop's CMYK ICC profile (implies --cmyk)")
    b.add_argument("--pdfx", action=argparse.BooleanOptionalAction, default=None,
                   help="print-shop.pdf as PDF/X-1a:2003 (implies --cmyk); on by default for "
                   "profiles that ask for it (drivethrucards), --no-pdfx to opt out")
    b.add_argument("--gutterfold", action="store_true", help="also write gutterfold sheets")
    b.add_argument("--flip", choices=("long", "short"), default="long", help="duplex flip edge")
    b.add_argument("--back-offset", type=parse_back_offset, default=(0.0, 0.0),
                   metavar='"X;Y"', help='shift every backs page X mm right, Y mm up, read '
                   'off the calibration sheet: "1.5;-0.5" or "1,5;-0,5"')
    b.add_argument("--quiet", action="store_true",
                   help="print only errors and the number of warnings")
    b.add_argument("--strict", action="store_true",
                   help="warnings are errors: a release build writes nothing while there are any")
    b.add_argument("--jobs", type=whole(0, MAX_JOBS), default=0,
                   help="processes making files: this one and forked helpers (default 0: one "
                        "per core)")
    b.add_argument("--vtt", action="store_true",
                   help="also write output/<lang>/vtt/: a Tabletop Simulator table and card images")
    b.add_argument("--vtt-base-url", default="", metavar="URL",
                   help="web folder holding each language's vtt/ copy: links point to "
                   "URL/<lang>/<file>, or to URL with {lang} replaced (implies --vtt)")

    t = sub.add_parser("tables", parents=[where],
                       help="output/<lang>/rules-tables.pdf, .md, .html: the rulebook's tables")
    t.add_argument("--lang", type=languages, default="en,cs",
                   help="comma-separated languages (default: en,cs)")

    w = sub.add_parser("watch", parents=[where],
                       help=_("rebuild on every save of card_data/, layouts/ or art/"))
    w.add_argument("--lang", type=languages, default="en,cs",
                   help="comma-separated languages (default: en,cs)")

    sv = sub.add_parser("serve", parents=[where],
                        help="a live preview in the browser: every card in both languages, rebuilt on save")
    sv.add_argument("--port", type=whole(0, 65535),
                    help="port on 127.0.0.1 (default 8765, else any free one)")
    sv.add_argument("--editor", help="opens a finding's YAML line, e.g. 'code -g {file}:{line}'")

    pr = sub.add_parser("proof", parents=[where],
                        help="output/proof/cs-en.pdf: English and Czech side by side "
                        "(with --changed-since: cs-en-changes.pdf)")
    pr.add_argument("--only-problems", action="store_true", help="only cards with findings")
    pr.add_argument("--changed-since", metavar="MANIFEST|REVISION",
                    help="only cards changed since an earlier manifest.json or git revision")

    pf = sub.add_parser("preflight", parents=[where],
                        help="check PDFs as a print shop would: ink, text size, image ppi, "
                        "RGB, transparency, boxes, fonts")
    pf.add_argument("files", type=Path, nargs="+", metavar="FILE",
                    help="PDF files to check, e.g. output/en/print-shop.pdf")
    pf.add_argument("--ink-limit", type=decimal(*INK_RANGE), metavar="PERCENT",
                    help="a CMYK file: no RGB, total ink at most PERCENT")
    pf.add_argument("--print-shop", action="store_true",
                    help="what a print shop refuses is an error: RGB or Lab, transparency, "
                    "text under 5 pt, images under 150 ppi, ink over --ink-limit (else the "
                    "OutputIntent's, else 300 %%), pages without TrimBox and BleedBox")
    pf.add_argument("--pdfx", action="store_true",
                    help="PDF/X-1a (2003 or 2001), with everything --print-shop checks: the "
                    "OutputIntent, version and conformance keys, title, dates, ID")
    pf.add_argument("--min-ppi", type=decimal(50, 2400), default=300.0, metavar="PPI",
                    help="warn about images below PPI at their printed size (default 300, "
                    "what the print shops ask)")

    pt = sub.add_parser("playtest", parents=[where],
                        help="play many seeded games; output/playtest/report.json and <lang>/report.pdf")
    pt_budget = pt.add_mutually_exclusive_group()
    pt_budget.add_argument("--games", type=whole(1, MAX_GAMES), default=1000,
                           help="games to play (default 1000: each house's win rate to ±3.1 pp)")
    pt_budget.add_argument("--quick", action="store_true",
                           help="a quick look: 600 games, each house's win rate to ±4.0 pp "
                           "(about a minute on 2 cores)")
    pt.add_argument("--seed", type=whole(-MAX_SEED, MAX_SEED), default=1, help="seed of the run (default 1)")
    pt.add_argument("--players", default="greedy,greedy",
                    help="Luxembourg,Wittelsbach players: random, greedy, search or ismcts "
                         "(default greedy,greedy)")
    pt.add_argument("--jobs", type=whole(0, MAX_JOBS), default=0,
                    help="worker processes (default 0: one per core)")
    pt.add_argument("--ladder", type=whole(0, MAX_GAMES), default=0, metavar="PAIRS",
                    help="also play PAIRS seat-swapped pairs per rung (search : greedy, "
                    "greedy : random) for the report's appendix (default 0: none)")
    pt.add_argument("--compare", type=Path,
                    help="an earlier report.json: games paired by seed, changes outside the noise")
    pt.add_argument("--lang", type=languages, default="en,cs",
                    help="languages of report.pdf, comma-separated (default: en,cs)")
    pt.add_argument("--quiet", action="store_true", help="no progress bar")

    bl = sub.add_parser("balance", parents=[where],
                        help="search card_data/balance.yaml's values for a fair game; "
                        "output/balance/proposal.yaml (--apply writes it into card_data/)")
    bl.add_argument("--quick", action="store_true",
                    help="a first look in about a minute on 2 cores: 6 trials of 40 games, each "
                    "changing 1 or 2 values, the best on 40 more, a confirmation of 200 "
                    "(±6.9 pp); its power check says what it cannot resolve. Sets the budget "
                    "options the command line does not give")
    bl.add_argument("--trials", type=whole(1, MAX_TRIALS), default=None,
                    help="trials in the study, a resumed run's included (default 50)")
    bl.add_argument("--games", type=whole(2, MAX_GAMES), default=None,
                    help="games per trial, the same seeds for every trial (default 300)")
    bl.add_argument("--validate-games", type=whole(0, MAX_GAMES), default=None,
                    help="further games for the best 5 trials and the reduction (default 900)")
    bl.add_argument("--seed", type=whole(0, BALANCE_SEED), default=1,
                    help="seed of the search (default 1)")
    bl.add_argument("--players", default=None,
                    help="Luxembourg,Wittelsbach players (default: the playtest's default)")
    bl.add_argument("--jobs", type=whole(0, MAX_JOBS), default=0,
                    help="local worker processes (default 0: one per core)")
    bl.add_argument("--scheduler", metavar="ADDRESS",
                    help="a Dask scheduler (tcp://host:8786): the games run on its workers "
                    "(needs pip install -e .[cluster])")
    bl.add_argument("--confirm-games", type=whole(1, MAX_GAMES), default=None,
                    help="games of the fresh playtest of today's and the proposed data (default "
                    "4000: its 95 %% interval then fits a ±3 pp band)")
    bl.add_argument("--timeout", type=decimal(*TIMEOUT_MINUTES), metavar="MINUTES",
                    help="start no trial after this long (the result then depends on the machine)")
    bl.add_argument("--apply", action="store_true",
                    help="write output/balance/proposal.yaml into card_data/ (no search)")
    bl.add_argument("--quiet", action="store_true", help="no progress")

    nw = sub.add_parser("new", parents=[where], help=_("add a card made like an existing one"))
    nw_sub = nw.add_subparsers(dest="new_command", required=True, metavar="{card}",
                               title="what to add")
    nc = nw_sub.add_parser("card", parents=[where],
                           help="a card like --like with the deck's next free number; the "
                           "game.yaml counts it joins grow with it")
    nc.add_argument("--like", required=True, metavar="ID",
                    help="the card to copy, e.g. prague-burghers")
    nc.add_argument("--deck", help="the deck of the new card (default: the --like card's)")
    nc.add_argument("--id", dest="card_id", metavar="ID",
                    help="the new card's id (default: new-card-<number>)")
    nc.add_argument("--name-en", help="its English name (default: New Card <number>)")
    nc.add_argument("--name-cs", help="its Czech name (default: Nová karta <number>)")
    nc.add_argument("--rules-change", action="store_true",
                    help="the rulebook's count changes too: also write it into "
                    "card_data/rules/facts.yaml (its quote is yours to update)")

    po = sub.add_parser("po", parents=[where], help=_("PO files for translation tools"))
    po_sub = po.add_subparsers(dest="po_command", required=True, metavar="{export,import}",
                               title="what to do")
    exp = po_sub.add_parser("export", parents=[where], help="write output/po/cs.po")
    exp.add_argument("--pot", action="store_true",
                     help="write the template output/po/cards.pot (for msgmerge) instead")
    imp = po_sub.add_parser("import", parents=[where],
                            help="write the Czech texts of a PO file into card_data/")
    imp.add_argument("file", type=Path, metavar="FILE",
                     help="the translated PO file, e.g. output/po/cs.po after translation")
    sh = sub.add_parser("sheet", parents=[where],
                        help="the designer's numbers in a spreadsheet (ODS, XLSX, CSV)")
    sh_sub = sh.add_subparsers(dest="sheet_command", required=True, metavar="{export,import}",
                               title="what to do")
    sh_sub.add_parser("export", parents=[where],
                      help="write output/sheet/cards.ods, cards.xlsx and cards-<deck>.csv")
    si = sh_sub.add_parser("import", parents=[where],
                           help="write the changed values of a spreadsheet into card_data/")
    si.add_argument("file", type=Path, metavar="FILE", help="the edited cards.ods, cards.xlsx "
                    "or a cards-<deck>.csv")
    si.add_argument("--dry-run", action="store_true",
                    help="print the changes, write nothing")
    df = sub.add_parser("diff", parents=[where],
                        help="value changes of card_data/ since a git revision or a folder; "
                        "output/diff/changes.md, .json")
    df.add_argument("old", nargs="?", default="HEAD", metavar="OLD",
                    help="a git revision (default HEAD) or a project folder holding card_data/")
    return p


def _check(args: argparse.Namespace) -> int:
    if args.fix:
        changes, problems = fix(args.project)
        for change in changes:  # exactly the repairs written, even when a file failed
            print(shown(f"fixed: {change}"))
        if problems:
            raise CardgenError(problems)
    if args.fill:
        filled, problems = fill(args.project)
        for change in filled:  # exactly the texts written, even when a file failed
            print(shown(f"filled: {change.format()}"))
        if problems:
            raise CardgenError(problems)
    report = run_check(args.project, lang_only=args.lang_only)
    if args.strict:
        report.findings = strict(report.findings)
    summary = summary_line(report.cards, report.findings, report.exceptions)
    exceptions = exception_lines(report.data.cards) if report.data else []
    if args.format == "json":
        print(format_json(report.findings, {"cards": report.cards, "ok": report.ok,
                                            "line": summary, "exceptions": exceptions,
                                            "translation": report.translation}))
    else:
        text = format_text(report.findings)
        if text:
            print(text)
        if exceptions:
            print("\n".join([_("reviewed exceptions:"), *exceptions]))
        if report.translation:
            print("\n".join(report.translation))
        print(summary)
    return 0 if report.ok else exit_code(report.findings)


def _ids(text: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in text.split(",") if x.strip())


def _build(args: argparse.Namespace) -> int:
    options = BuildOptions(
        langs=_ids(args.lang),
        png=args.png,
        cards=_ids(args.cards),
        changed_since=args.changed_since,
        profile=args.profile,
        cmyk=args.cmyk,
        gutterfold=args.gutterfold,
        flip=args.flip,
        jobs=args.jobs,
        back_offset=args.back_offset,
        icc=args.icc,
        pdfx=args.pdfx,
        vtt=args.vtt or bool(args.vtt_base_url),
        vtt_base_url=args.vtt_base_url,
        strict=args.strict,
    )
    report = build(args.project, options, progress=Progress.auto(sys.stderr, quiet=args.quiet))
    _errors, warnings = counts(report.findings)
    if args.quiet and warnings:
        print(ngettext("{n} warning (run without --quiet to see it; --strict refuses it)",
                       "{n} warnings (run without --quiet to see them; --strict refuses them)",
                       warnings).format(n=warnings))
    if not args.quiet:
        for lang, ids in report.reprinted.items():
            print(shown(f"reprint ({lang}): {', '.join(ids) or 'no cards'}"))
        if report.findings:
            print(format_text(report.findings))
        what = (_("nothing changed") if report.unchanged
                else ngettext("wrote {n} file", "wrote {n} files", len(report.written)).format(
                    n=len(report.written)) + ", " + _("{n} unchanged").format(n=len(report.skipped)))
        print(_("{what}; {warnings}; in {folder}").format(
            what=what, folder=args.project / "output",
            warnings=ngettext("{n} warning", "{n} warnings", warnings).format(n=warnings))
              + f" ({provenance(args.project).line()})")
    return 0


def _new(args: argparse.Namespace) -> int:
    from .build.newcard import new_card
    names = {lang: name for lang, name in (("en", args.name_en), ("cs", args.name_cs)) if name}
    done = new_card(args.project, args.deck, args.like, args.card_id, names, args.rules_change)
    for line in done.lines():
        print(shown(line))
    return 0


def _proof(args: argparse.Namespace) -> int:
    path = proof(args.project, only_problems=args.only_problems,
                          changed_since=args.changed_since)
    print(f"wrote {path}")
    return 0


def _po(args: argparse.Namespace) -> int:
    if args.po_command == "export":
        print(f"wrote {po_export(args.project, pot=args.pot)}")
        return 0
    report = po_import(args.project, args.file)
    print(shown(report.format(), keep="\n"))
    return 0 if report.ok else exit_code(report.findings)


def _sheet(args: argparse.Namespace) -> int:
    from .build.sheet import sheet_export, sheet_import
    if args.sheet_command == "export":
        for path in sheet_export(args.project):
            print(shown(f"wrote {path}"))
        return 0
    lines = sheet_import(args.project, args.file, dry_run=args.dry_run)
    for line in lines:
        print(shown(line))
    verb = "--dry-run: would write" if args.dry_run else "wrote"
    print(f"{verb} {len(lines)} change{'' if len(lines) == 1 else 's'} into card_data/"
          if lines else "no value changed")
    return 0


def _diff(args: argparse.Namespace) -> int:
    from .build.diff import diff
    lines, written = diff(args.project, args.old)
    for line in lines:
        print(shown(line))
    print(f"{len(lines)} value change{'' if len(lines) == 1 else 's'} since {shown(args.old)}")
    for path in written:
        print(shown(f"wrote {path}"))
    return 0


def _playtest(args: argparse.Namespace) -> int:
    from . import playtest  # the game engine: not loaded by the other commands
    from .engine.match import PLAYERS
    players = _ids(args.players)
    langs = _ids(args.lang)
    wrong = [error("usage", what, hint=fix) for what, fix, bad in (
        (f"--players {args.players}: two players, Luxembourg's then Wittelsbach's",
         f"e.g. --players greedy,random; each one of: {', '.join(PLAYERS)}",
         len(players) != 2 or not set(players) <= set(PLAYERS)),
        (f"--games {args.games}: at least 1 game", "e.g. --games 1000", args.games < 1),
        (f"--ladder {args.ladder}: 0 or more pairs", "e.g. --ladder 200", args.ladder < 0),
        (f"--lang {args.lang}: languages among {','.join(LANGS)}", f"e.g. --lang {LANGS[0]}",
         not langs or not set(langs) <= set(LANGS)),
    ) if bad]
    if wrong:
        raise CardgenError(wrong)
    games = playtest.QUICK_GAMES if args.quick else args.games
    options = playtest.PlaytestOptions(games, args.seed, (players[0], players[1]), args.jobs,
                                       args.compare, tuple(langs), args.ladder)
    if args.quick:
        print(f"quick playtest: {games} games, each house's win rate to within about "
              f"±{100 * playtest.half_width(games):.1f} pp (95 % interval)", flush=True)
    result = playtest.playtest(args.project, options, Progress.auto(sys.stderr, quiet=args.quiet))
    print(f"{result.headline} (win rates, 95 % intervals)")
    for line in result.lines:
        print(line)
    print("wrote " + ", ".join(str(p) for p in result.written))
    return 0


def _balance(args: argparse.Namespace) -> int:
    from . import balance  # the optimiser and the engine: not loaded by the other commands
    from .engine.match import PLAYERS
    from .playtest import PlaytestOptions
    if args.apply:
        lines = balance.apply_proposal(args.project)
        for line in lines:
            print(shown(f"changed: {line}"))
        print("run `cardgen check` and `cardgen build` to see the cards" if lines
              else "the proposal changes nothing")
        return 0
    players = _ids(args.players) if args.players else PlaytestOptions().players
    if len(players) != 2 or not set(players) <= set(PLAYERS):
        print(f"--players needs two of {','.join(sorted(PLAYERS))} (Luxembourg,Wittelsbach)",
              file=sys.stderr)
        return 2
    given = {"trials": args.trials, "games": args.games, "validate": args.validate_games,
             "confirm_games": args.confirm_games}
    # the default (or the quick) budget, except what the command line says itself
    budget = (balance.QUICK if args.quick else BALANCE_BUDGET) | {
        k: v for k, v in given.items() if v is not None}
    search = balance.SearchOptions(budget["trials"], budget["games"], budget["validate"], args.seed,
                                   (players[0], players[1]), args.timeout * 60 if args.timeout else None,
                                   budget["sparse"])
    options = balance.BalanceOptions(search, args.jobs, args.scheduler, budget["confirm_games"])
    if args.quick:
        print(f"quick balance: {search.trials} trial{'s' * (search.trials != 1)} of "
              f"{search.games} games, each changing at "
              f"most {search.sparse} values, the best on {search.validate} more, a fresh "
              f"confirmation of {options.confirm_games} games", flush=True)
    result = balance.balance(args.project, options, Progress.auto(sys.stderr, quiet=args.quiet),
                             say=lambda line: print(line, flush=True))
    for line in balance_lines(result, search):
        print(line)
    print(f"wrote {result.proposal}")
    return 130 if result.outcome.interrupted else 0


def _pct(share: float) -> str:
    return f"{100 * share:.1f} %"


def _ci(interval: list[float]) -> str:
    return f"[{100 * interval[0]:.1f}–{100 * interval[1]:.1f}]"


def balance_lines(result: Any, search: Any) -> list[str]:
    """The balance run's outcome, each number with the games it was measured on."""
    out = result.outcome
    n = out.games or search.games
    today, best = out.baseline.measured, out.best.measured
    lines = [f"search: {out.trials} trial{'s' * (out.trials != 1)} of {search.games:,} games "
             f"(seed {search.seed})",
             f"today's values: Luxembourg {_pct(today['win_rate'])} on {n:,} games of the search"]
    values = result.found
    if values:
        lines.append(f"with {len(values)} value{'s' * (len(values) != 1)} changed: Luxembourg "
                     f"{_pct(best['win_rate'])} on the same {n:,} games")
    conf = result.confirmation
    if conf:
        cur, prop = conf["current"], conf["proposed"]
        head = (f"fresh confirmation on {conf['games']:,} other games (seed {conf['seed']}): "
                f"today {_pct(cur['win_rate'])} {_ci(cur['ci95'])}")
        if prop:
            head += (f", proposed {_pct(prop['win_rate'])} {_ci(prop['ci95'])}; the proposed "
                     f"interval inside the band: {'yes' if conf['interval_inside_band'] else 'no'}")
        lines.append(head)
    elif out.interrupted:
        lines.append("interrupted: the proposal holds the best trial so far, unconfirmed; run "
                     "again to resume the study")
    if result.verdict == "proposal":
        lines.append(f"proposal: {len(result.changes)} value{'s' * (len(result.changes) != 1)} "
                     "to change (cardgen balance --apply writes them)")
    else:
        lines.append(result.verdict)
    return lines


def _tables(args: argparse.Namespace) -> int:
    report = tables(args.project, _ids(args.lang))
    if report.findings:
        print(format_text(report.findings))
    for path in report.written:
        print(f"wrote {path}")
    if report.skipped:
        print(f"{len(report.skipped)} unchanged")
    return 0


def _preflight(args: argparse.Namespace) -> int:
    from .press import preflight
    from .press.pagewalk import inspect_file
    found = []
    for path in args.files:
        if not path.is_file():
            found.append(check_regular(path) or error(
                "usage", f"{path} not found", hint="give the path of a PDF to check, e.g. "
                "output/en/print-shop.pdf after cardgen build"))
            continue
        pages, document = inspect_file(path)  # qpdf reads each file once
        print(shown(preflight.summary(path, pages), keep="\n"))
        rules = preflight.command_rules(args.ink_limit, args.print_shop, args.pdfx,
                                        args.min_ppi, document)
        found += preflight.findings(path, pages, rules)
        found += preflight.document_findings(document, str(path))
        if args.pdfx:
            found += preflight.pdfx_findings(document, str(path))
    if found:
        print(format_text(found))
    return exit_code(found) if has_errors(found) else 0


def _watch(args: argparse.Namespace) -> int:
    watch(args.project, BuildOptions(langs=_ids(args.lang)), log=print)
    return 0


def _serve(args: argparse.Namespace) -> int:
    from .serve import serve  # the HTTP server is loaded only for this command

    return serve(args.project, port=args.port, editor=args.editor,
                 log=lambda line: print(shown(line), flush=True))


COMMANDS = {"check": _check, "build": _build, "proof": _proof, "po": _po, "watch": _watch,
            "playtest": _playtest, "balance": _balance, "serve": _serve, "preflight": _preflight,
            "tables": _tables, "sheet": _sheet, "diff": _diff, "new": _new}


def _project(path: Path) -> Path:
    """The project folder, which must exist and be a folder (a usage error otherwise)."""
    if not path.is_dir():
        what = "is not a folder" if path.exists() else "does not exist"
        raise CardgenError(error("usage", f"the project folder {path} {what}",
                                 location=Location(str(path)),
                                 hint="pass --project DIR, the folder holding card_data/"))
    return path.resolve()


def main(argv: list[str] | None = None) -> int:
    """Run one command. Exit 0 on success, 1 when the data has errors, 2 when the command
    line or the machine must be fixed first (see README "Exit codes"); never a traceback
    for a problem of the input or the machine."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--ui-lang", choices=UI_LANGS)
    chosen, _rest = early.parse_known_args(argv)
    use(ui_lang(chosen.ui_lang, os.environ))  # before the parser: its help is translated too
    args = _parser().parse_args(argv)
    try:
        args.project = _project(args.project)
        return COMMANDS[args.command](args)
    except CardgenError as exc:
        print(format_text(exc.findings), file=sys.stderr)
        return exit_code(exc.findings)
    except OSError as exc:  # any the stages did not locate themselves
        print(format_text([os_finding(exc, "use")]), file=sys.stderr)
        return EXIT_SETUP
    except KeyboardInterrupt:
        print(_("interrupted; outputs already written are complete"), file=sys.stderr)
        return 130


def run() -> None:
    """The `cardgen` command: :func:`main`, then exit without tearing down the heap.

    By then every output is closed and renamed into place and every helper has ended, but
    the interpreter would still free a build's objects one by one (the data, every face's
    drawing: about 0.3 s of CPU at 20× the shipped deck, issue 14). The printed output is
    flushed and the process ends with main's exit code; a traceback (a bug) still takes
    the interpreter's usual way out.
    """
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # a closed pipe (`cardgen check | head`): the interpreter's own code
        code = code or 120
    os._exit(code)


if __name__ == "__main__":
    run()
