"""Command-line wiring only: parse arguments, call the pipeline, print, set the exit code."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import __version__, pipeline
from .errors import CardgenError
from .progress import Progress
from .report import counts, exception_lines, format_json, format_text, summary_line
from .watch import watch


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="cardgen",
        description="Cards, print sheets, board and tokens of A Vote for the King of the Romans, "
        "checked against the rules in English and Czech.")
    p.add_argument("--version", action="version", version=f"cardgen {__version__}")
    p.add_argument("--project", type=Path, default=Path.cwd(),
                   help="project folder holding card_data/, layouts/, art/ (default: .)")
    # --project is accepted before or after the command (`cardgen build --project DIR`)
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument("--project", type=Path, default=argparse.SUPPRESS,
                       help="project folder holding card_data/, layouts/, art/ (default: .)")
    sub = p.add_subparsers(dest="command", required=True)

    c = sub.add_parser("check", parents=[where],
                       help="check every card against the rule schema, in both languages")
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.add_argument("--lang-only", action="store_true", help="only the translation checks")
    c.add_argument("--fill", action="store_true", help="write canonical text into empty lines")
    c.add_argument("--fix", action="store_true",
                   help="repair mechanical typography in card_data (spaces, quotes, dashes)")

    b = sub.add_parser("build", parents=[where], help="check, then write every PDF under output/")
    b.add_argument("--lang", default="en,cs", help="comma-separated languages (default: en,cs)")
    b.add_argument("--png", action="store_true", help="also write 300 dpi PNGs of every card")
    b.add_argument("--cards", default="", help="reprint only these card ids (comma-separated)")
    b.add_argument("--changed-since", type=Path, help="reprint cards changed since MANIFEST")
    b.add_argument("--profile", default="generic", help="print-shop profile from layouts/profiles.yaml")
    b.add_argument("--cmyk", action="store_true", help="CMYK colours and images for print shops")
    b.add_argument("--gutterfold", action="store_true", help="also write gutterfold sheets")
    b.add_argument("--flip", choices=("long", "short"), default="long", help="duplex flip edge")
    b.add_argument("--quiet", action="store_true", help="print only errors")
    b.add_argument("--jobs", type=int, default=0, help="worker processes (default 0: one per core)")
    b.add_argument("--vtt", action="store_true",
                   help="also write output/<lang>/vtt/: a Tabletop Simulator table and card images")
    b.add_argument("--vtt-base-url", default="", metavar="URL",
                   help="image links in the table point to URL/<file> (implies --vtt)")

    w = sub.add_parser("watch", parents=[where], help="rebuild on every save of card_data/, layouts/ or art/")
    w.add_argument("--lang", default="en,cs", help="comma-separated languages (default: en,cs)")

    pr = sub.add_parser("proof", parents=[where],
                        help="output/proof/cs-en.pdf: English and Czech side by side")
    pr.add_argument("--only-problems", action="store_true", help="only cards with findings")

    po = sub.add_parser("po", parents=[where], help="PO files for translation tools")
    po_sub = po.add_subparsers(dest="po_command", required=True)
    po_sub.add_parser("export", parents=[where], help="write output/po/cs.po")
    imp = po_sub.add_parser("import", parents=[where],
                            help="write the Czech texts of a PO file into card_data/")
    imp.add_argument("file", type=Path)
    return p


def _check(args: argparse.Namespace) -> int:
    if args.fix:
        for change in pipeline.fix(args.project):
            print(f"fixed: {change}")
    if args.fill:
        for change in pipeline.fill(args.project):
            print(f"filled: {change.format()}")
    report = pipeline.run_check(args.project, lang_only=args.lang_only)
    summary = summary_line(report.cards, report.findings, report.exceptions)
    exceptions = exception_lines(report.data.cards) if report.data else []
    if args.format == "json":
        print(format_json(report.findings, {"cards": report.cards, "ok": report.ok,
                                            "line": summary, "exceptions": exceptions}))
    else:
        text = format_text(report.findings)
        if text:
            print(text)
        if exceptions:
            print("\n".join(["reviewed exceptions:", *exceptions]))
        print(summary)
    return 0 if report.ok else 1


def _ids(text: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in text.split(",") if x.strip())


def _build(args: argparse.Namespace) -> int:
    options = pipeline.BuildOptions(
        langs=_ids(args.lang),
        png=args.png,
        cards=_ids(args.cards),
        changed_since=args.changed_since,
        profile=args.profile,
        cmyk=args.cmyk,
        gutterfold=args.gutterfold,
        flip=args.flip,
        jobs=args.jobs,
        vtt=args.vtt or bool(args.vtt_base_url),
        vtt_base_url=args.vtt_base_url,
    )
    report = pipeline.build(args.project, options, progress=Progress.auto(sys.stderr, quiet=args.quiet))
    if not args.quiet:
        for lang, ids in report.reprinted.items():
            print(f"reprint ({lang}): {', '.join(ids) or 'no cards'}")
        if report.findings:
            print(format_text(report.findings))
        _errors, warnings = counts(report.findings)
        what = ("nothing changed" if report.unchanged
                else f"wrote {len(report.written)} files, {len(report.skipped)} unchanged")
        print(f"{what}; {warnings} warning{'s' * (warnings != 1)}; in {args.project / 'output'}")
    return 0


def _proof(args: argparse.Namespace) -> int:
    path = pipeline.proof(args.project, only_problems=args.only_problems)
    print(f"wrote {path}")
    return 0


def _po(args: argparse.Namespace) -> int:
    if args.po_command == "export":
        print(f"wrote {pipeline.po_export(args.project)}")
        return 0
    report = pipeline.po_import(args.project, args.file)
    print(report.format())
    return 0 if report.ok else 1


def _watch(args: argparse.Namespace) -> int:
    watch(args.project, pipeline.BuildOptions(langs=_ids(args.lang)), log=print)
    return 0


COMMANDS = {"check": _check, "build": _build, "proof": _proof, "po": _po, "watch": _watch}


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    args.project = args.project.resolve()
    try:
        return COMMANDS[args.command](args)
    except CardgenError as exc:
        print(format_text(exc.findings), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted; outputs already written are complete", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
