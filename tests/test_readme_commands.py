"""Every command of the README's "Everyday use" runs on a copy of the shipped project and
exits as the README's exit-code table says; every option and argument has help text."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from cardgen.cli import _parser, main
from cardgen.render import pdf as render_pdf
from tests.conftest import ROOT

#: Commands that run until interrupted (tests/test_watch.py and tests/test_serve.py drive
#: them) or for a quarter of an hour by default (tests/test_balance.py runs a tiny budget).
LONG_RUNNING = {"watch", "serve", "balance"}
#: What a run on the shipped data exits with (README "Exit codes"): 0, except where the
#: README line itself says the command refuses the shipped data (it has no art yet).
EXPECTED = {"check --strict": 1, "build --strict": 1}
#: Arguments the README leaves to the reader, filled in with files an earlier line wrote.
FILLED = {
    "FILE…": "output/en/print-shop.pdf",
    "FILE": "output/po/cs.po",
    "OLD/cs/manifest.json": "output/cs/manifest.json",
    "HEAD~1": str(ROOT),  # `cardgen diff`: the copy is no git checkout; a folder is the other OLD
}


def readme_commands() -> list[list[str]]:
    """The ``cardgen …`` lines of the README's Everyday use block, comments dropped."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Everyday use", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    lines = [line.split("#", 1)[0].strip() for line in block.strip().splitlines()]
    return [[FILLED.get(word, word) for word in shlex.split(line)[1:]] for line in lines if line]


def test_the_readme_lists_the_commands_this_test_runs():
    commands = readme_commands()
    assert len(commands) >= 20
    assert {c[0] for c in commands} >= {"check", "build", "proof", "tables", "preflight", "po",
                                        "watch", "playtest", "serve", "balance"}


@pytest.fixture(scope="module")
def shipped(tmp_path_factory) -> Path:
    """One copy of the shipped project for all README commands, in README order (a later
    line may use what an earlier one wrote, as a reader's would)."""
    from tests.conftest import copy_project
    project = copy_project(tmp_path_factory.mktemp("readme") / "project")
    (project / "output").mkdir()
    return project


def test_every_everyday_command_exits_as_documented(shipped, capsys, monkeypatch):
    real = render_pdf.write_pngs
    # the PNGs at 300 dpi take a minute; at 30 dpi they prove the same wiring
    monkeypatch.setattr(render_pdf, "write_pngs", lambda *a, **k: real(*a, **k, dpi=30))
    for args in readme_commands():
        line = " ".join(args)
        if args[0] in LONG_RUNNING:
            continue
        if args[0] == "playtest":
            args = [*args, "--games", "8", "--quiet"]  # the report's wiring, not its statistics
        if "--changed-since" in args and args[0] == "proof":
            args = ["proof", "--changed-since", "output/cs/manifest.json"]
        args = [str(shipped / a) if a.startswith("output/") else a for a in args]
        code = main(["--project", str(shipped), *args])
        out = capsys.readouterr()
        assert code == EXPECTED.get(line, 0), f"cardgen {line}\n{out.out}\n{out.err}"
        assert "Traceback" not in out.out + out.err, line


def _actions(parser: argparse.ArgumentParser, path: str = "cardgen"):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _actions(sub, f"{path} {name}")
        elif not isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            yield path, action


def test_every_option_and_argument_says_what_it_does():
    missing = [f"{path} {'/'.join(a.option_strings) or a.dest}"
               for path, a in _actions(_parser()) if not a.help]
    assert missing == []


def test_a_missing_po_subcommand_names_the_choices(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["po"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "{export,import}" in err and "po_command" not in err


def test_png_without_pdftoppm_is_a_machine_problem_said_before_building(project, capsys,
                                                                       monkeypatch):
    monkeypatch.setattr("shutil.which", lambda name: None)
    code = main(["--project", str(project), "build", "--png", "--lang", "en"])
    captured = capsys.readouterr()
    out = captured.out + captured.err
    assert code == 2
    assert "error[tool-missing]" in out and "fix: install poppler-utils" in out
    assert not list((project / "output").rglob("*.pdf"))  # said before anything is written


def test_png_files_are_named_by_deck_and_printed_number_with_the_back(project, capsys,
                                                                      monkeypatch):
    real = render_pdf.write_pngs
    monkeypatch.setattr(render_pdf, "write_pngs", lambda *a, **k: real(*a, **k, dpi=20))
    assert main(["--project", str(project), "build", "--png", "--lang", "en", "--quiet"]) == 0
    names = sorted(p.name for p in (project / "output" / "en" / "png").glob("*.png"))
    assert "back.png" in names
    decks = [re.match(r"([a-z]+)-\d{3}-", n).group(1) for n in names if n != "back.png"]
    assert decks == sorted(decks)  # each deck together in a folder listing
    assert {"luxembourg", "wittelsbach", "market"} <= set(decks)
    assert "luxembourg-001-charles-iv.png" in names


#: Exit codes (README, docs/reference/exit-codes.md): each problem of the command line or the
#: machine exits 2 and says how to fix it (`fix: …`), whatever the command.
SETUP_PROBLEMS = {
    "a missing project folder": ["--project", "{tmp}/nowhere", "check"],
    "an unknown language": ["build", "--lang", "xx"],
    "an empty language list": ["build", "--lang", ","],
    "an unknown --cards id": ["build", "--lang", "en", "--cards", "nope"],
    "an unknown print-shop profile": ["build", "--lang", "en", "--profile", "nope"],
    "a manifest of the wrong shape": ["build", "--lang", "en", "--changed-since", "{tmp}/bad.json"],
    "negative --jobs": ["build", "--lang", "en", "--jobs", "-1"],
    "a PDF to preflight that is not there": ["preflight", "{tmp}/missing.pdf"],
    "a folder to preflight": ["preflight", "{tmp}"],
    "no games to play": ["playtest", "--games", "0"],
    "an unknown player": ["playtest", "--players", "greedy,nobody"],
    "a PO file that is not there": ["po", "import", "{tmp}/missing.po"],
}


@pytest.mark.parametrize("problem", sorted(SETUP_PROBLEMS))
def test_a_command_line_or_machine_problem_exits_2_saying_how_to_fix_it(problem, shipped,
                                                                        tmp_path, capsys):
    (tmp_path / "bad.json").write_text('{"cards": 3}', encoding="utf-8")
    args = [a.format(tmp=tmp_path) for a in SETUP_PROBLEMS[problem]]
    if args[0] != "--project":
        args = ["--project", str(shipped), *args]
    try:
        code = main(args)
    except SystemExit as exit_:  # argparse refuses a value out of its type's range
        code = exit_.code
    out = capsys.readouterr()
    text = out.out + out.err
    assert code == 2, text
    # a finding says how to fix it; argparse names the option and the values it takes
    assert "fix: " in text or ("error: argument --" in text and "expected" in text), text
    assert "Traceback" not in text, text
