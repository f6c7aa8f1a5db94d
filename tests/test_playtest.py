"""`cardgen playtest`: the report files, their determinism, --compare, and broken data as
located errors (never a traceback)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from cardgen.cli import main
from tests.conftest import replace_in

CARDS = Path("card_data") / "cards"


def playtest(project: Path, *extra: str) -> int:
    return main(["--project", str(project), "playtest", "--quiet", *extra])


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="needs poppler (pdffonts, pdftotext)")
def test_report_json_and_pdf(project, capsys):
    code = playtest(project, "--games", "6", "--seed", "3", "--players", "greedy,random", "--jobs", "1")
    out = capsys.readouterr().out
    assert code == 0, out
    assert "6 games: luxembourg" in out
    rep = json.loads((project / "output/playtest/report.json").read_text(encoding="utf-8"))
    assert rep["games"] == 6 and rep["meta"]["players"] == "greedy,random"
    assert rep["houses"]["luxembourg"]["wins"] + rep["houses"]["wittelsbach"]["wins"] == 6
    lo, hi = rep["houses"]["luxembourg"]["ci95"]
    assert 0 <= lo <= rep["houses"]["luxembourg"]["rate"] <= hi <= 1
    assert sum(rep["game_end"].values()) == 6 and sum(rep["electors"].values()) == 6
    assert {"bought", "numbers", "deed", "owner_win_rate"} <= set(rep["cards"]["frankfurt"])
    assert "first_player" in rep and "deeds_never_resolvable" in rep
    pdf = project / "output/playtest/report.pdf"
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert "Helvetica" not in fonts and "CharisSIL" in fonts  # every font embedded
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "Win rate per house" in text and "How games end" in text and "Frankfurt" in text


def test_same_seed_same_bytes_whatever_the_jobs(project, capsys):
    report = project / "output/playtest/report.json"
    assert playtest(project, "--games", "8", "--seed", "5", "--players", "random,greedy",
                    "--jobs", "1") == 0
    one = report.read_bytes()
    assert playtest(project, "--games", "8", "--seed", "5", "--players", "random,greedy",
                    "--jobs", "2") == 0
    assert report.read_bytes() == one
    assert playtest(project, "--games", "8", "--seed", "6", "--players", "random,greedy",
                    "--jobs", "1") == 0
    assert report.read_bytes() != one


def test_compare_shows_what_changed(project, tmp_path, capsys):
    assert playtest(project, "--games", "6", "--players", "random,random", "--jobs", "1") == 0
    old = tmp_path / "old.json"
    old.write_bytes((project / "output/playtest/report.json").read_bytes())
    replace_in(project / CARDS / "market.yaml", "cost: [german, german]\n", "cost: [german]\n")
    capsys.readouterr()
    assert playtest(project, "--games", "6", "--players", "random,random", "--jobs", "1",
                    "--compare", str(old)) == 0
    out = capsys.readouterr().out
    assert "compared with the old report" in out and "luxembourg_win_rate" in out
    rep = json.loads((project / "output/playtest/report.json").read_text(encoding="utf-8"))
    assert "headline" in rep["compare"]


def test_op_without_resolver_is_a_located_error(project, capsys):
    schema = project / "card_data/rules/schema.yaml"
    line = replace_in(schema, "  place_influence:\n", "  crown_emperor:\n    rule: \"1.2\"\n"
                      "    params: {}\n  place_influence:\n")
    market = project / CARDS / "market.yaml"
    replace_in(market, "{op: bonus_numbers, amount: 1, numbers: political}",
               "{op: crown_emperor}")
    code = playtest(project, "--games", "2")
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert f"schema.yaml:{line}" in err and "no resolver for op 'crown_emperor'" in err
    assert "op-not-playable" in err and "market.yaml:" in err
    assert main(["--project", str(project), "check"]) == 1
    assert "op-no-resolver" in capsys.readouterr().out


def test_impossible_cost_is_a_located_error(project, capsys):
    line = replace_in(project / CARDS / "market.yaml", "cost: [german, german]\n", "cost: [gold]\n")
    code = playtest(project, "--games", "2")
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert f"market.yaml:{line}" in err and "gold" in err


@pytest.mark.parametrize("args", [["--players", "greedy"], ["--players", "clever,greedy"]])
def test_bad_arguments(project, capsys, args):
    assert playtest(project, *args) == 2
    assert "--players" in capsys.readouterr().err


def test_games_out_of_range_is_a_usage_error(project, capsys):
    with pytest.raises(SystemExit) as caught:
        playtest(project, "--games", "0")
    assert caught.value.code == 2 and "--games: expected a whole number from 1" in \
        capsys.readouterr().err
