"""Nothing hides: `--strict` makes warnings errors (check and release builds), and a quiet
build still says how many warnings it had."""

from __future__ import annotations

from pathlib import Path

import cardgen.cli
from cardgen.build.build import BuildReport
from cardgen.cli import main
from cardgen.errors import warning
from tests.conftest import replace_in


def run(project: Path, capsys, *args: str) -> tuple[int, str]:
    code = main(["--project", str(project), *args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_check_strict_turns_a_warning_into_an_error(project, capsys):
    line = replace_in(project / "card_data" / "cards" / "wittelsbach.yaml",
                      'en: "Gain 2 German."', 'en: "Gain 2  German."')
    code, out = run(project, capsys, "check")
    assert code == 0
    assert f"wittelsbach.yaml:{line}" in out and "warning[typo-double-space]" in out
    code, out = run(project, capsys, "check", "--strict")
    assert code == 1
    assert "error[typo-double-space]" in out and "(a warning; --strict)" in out
    # the shipped project has no art yet: the placeholder warning is an error too
    assert out.strip().splitlines()[-1].startswith("76 cards checked, 2 errors, 0 warnings")


def test_check_strict_refuses_what_build_strict_refuses(project, capsys):
    """`check --strict` is the README's check before a release: it fails on the shipped data
    exactly where `build --strict` does (the missing art), not only on text warnings."""
    code, out = run(project, capsys, "check", "--strict")
    assert code == 1 and "error[art-placeholder]" in out
    code, out = run(project, capsys, "build", "--strict", "--quiet", "--lang", "en")
    assert code == 1 and "error[art-placeholder]" in out


def test_release_build_refuses_warnings_and_writes_nothing(project, capsys):
    # the shipped project has no art yet: every card prints a placeholder (a warning)
    code, out = run(project, capsys, "build", "--strict", "--quiet", "--lang", "en")
    assert code == 1
    assert "error[art-placeholder]" in out and "--strict" in out
    assert not list((project / "output").rglob("*.pdf"))


def test_quiet_build_still_counts_its_warnings(project, capsys, monkeypatch):
    report = BuildReport(findings=[warning("art-placeholder", "no art", card="x")])
    monkeypatch.setattr(cardgen.cli, "build", lambda *a, **k: report)
    code, out = run(project, capsys, "build", "--quiet")
    assert code == 0
    assert out.strip() == "1 warning (run without --quiet to see it; --strict refuses it)"
