"""Command-line wiring only: parse arguments, call the pipeline, print, set the exit code."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import __version__, pipeline
from .errors import CardgenError
from .report import format_json, format_text, summary_line


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cardgen", description=__doc__)
    p.add_argument("--version", action="version", version=f"cardgen {__version__}")
    p.add_argument("--project", type=Path, default=Path.cwd(),
                   help="project folder holding card_data/, layouts/, art/ (default: .)")
    sub = p.add_subparsers(dest="command", required=True)

    c = sub.add_parser("check", help="check every card against the rule schema, in both languages")
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.add_argument("--lang-only", action="store_true", help="only the translation checks")
    c.add_argument("--fill", action="store_true", help="write canonical text into empty lines")
    c.add_argument("--fix", action="store_true",
                   help="repair mechanical typography in card_data (spaces, quotes, dashes)")

    b = sub.add_parser("build", help="check, then write every PDF under output/")
    b.add_argument("--lang", default="en,cs", help="comma-separated languages (default: en,cs)")
    b.add_argument("--png", action="store_true", help="also write 300 dpi PNGs of every card")
    b.add_argument("--cards", default="", help="reprint only these card ids (comma-separated)")
    b.add_argument("--changed-since", type=Path, help="reprint cards changed since MANIFEST")
    b.add_argument("--profile", default="generic", help="print-shop profile from layouts/profiles.yaml")
    b.add_argument("--cmyk", action="store_true", help="CMYK colours and images for print shops")
    b.add_argument("--gutterfold", action="store_true", help="also write gutterfold sheets")
    b.add_argument("--flip", choices=("long", "short"), default="long", help="duplex flip edge")
    b.add_argument("--quiet", action="store_true", help="print only errors")
    return p


def _check(args: argparse.Namespace) -> int:
    report = pipeline.run_check(args.project, lang_only=args.lang_only)
    summary = summary_line(report.cards, report.findings, report.exceptions)
    if args.format == "json":
        print(format_json(report.findings, {"cards": report.cards, "ok": report.ok,
                                            "line": summary}))
    else:
        text = format_text(report.findings)
        if text:
            print(text)
        print(summary)
    return 0 if report.ok else 1


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    args.project = args.project.resolve()
    try:
        if args.command == "check":
            return _check(args)
        raise SystemExit(f"unknown command {args.command}")
    except CardgenError as exc:
        print(format_text(exc.findings), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted; outputs already written are complete", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
