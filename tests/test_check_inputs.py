"""`check` reads every input `build` reads (issue 37): a fault planted in any layout file is
an error of `check` (exit 1) at its file:line, and `build` refuses it at the same place,
writing nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.cli import main
from tests.conftest import replace_in

#: (layout file, text to replace, its faulty replacement, what the message says)
FAULTS = {
    "board": ("land: ", 'land: "not-a-colour"  # ', "must be a colour"),
    "tokens": ('  ink: "#1d1a16"', '  ink: "#1d1a1"', "must be a colour"),
    "aid": ('  muted: "#6d5f4b"', '  muted: 12', "must be a colour"),
    "sheets": ("printer_margin: 6 ", "printer_margin: 60 ", "printer_margin"),
    "profiles": ("  min_safe: 3.2 ", "  min_safe: 300 ", "min_safe"),
    "vtt": ("  pixels: [409, 572]", "  pixels: [409]", "pixels"),
}


def _plant(project: Path, name: str) -> int:
    old, new, _said = FAULTS[name]
    return replace_in(project / "layouts" / f"{name}.yaml", old, new)


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_a_layout_fault_fails_check_at_its_line(project: Path, capsys, name: str) -> None:
    line = _plant(project, name)
    code = main(["--project", str(project), "check"])
    out = capsys.readouterr().out
    assert code == 1, out
    located = [row for row in out.splitlines() if f"layouts/{name}.yaml:" in row and "error" in row]
    assert located, out
    assert any(f"layouts/{name}.yaml:{line}:" in row for row in located), located
    assert any(FAULTS[name][2] in row for row in located), located


def test_build_refuses_the_fault_check_reports_writing_nothing(project: Path, capsys) -> None:
    line = _plant(project, "sheets")
    code = main(["--project", str(project), "build", "--lang", "en", "--jobs", "1"])
    out = capsys.readouterr()
    assert code == 1
    assert f"layouts/sheets.yaml:{line}:" in out.out + out.err
    assert not list((project / "output" / "en").glob("*.pdf"))
