"""`cardgen balance`: balance.yaml's refusals at their line, the proposal a tiny search
writes, --apply through the in-place editor (texts re-rendered, `check` passes after it),
Ctrl-C keeping the best so far, resuming the study, and the same proposal on a Dask
LocalCluster as locally."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from cardgen.cli import main
from tests.conftest import copy_project

pytest.importorskip("optuna")

BALANCE = Path("card_data") / "balance.yaml"
PROPOSAL = Path("output") / "balance" / "proposal.yaml"
SMALL = """\
targets:
  win_rate: {value: 0.5, tolerance: 0.03}
penalty: 0.0
tunable:
  - {path: cards.louis-iv.political, range: [2, 5]}
  - {path: cards.elizabeth-of-bohemia.deed.effects.0.amount, range: [1, 4]}
  - {path: places.saxony.stability, range: [1, 4]}
"""
TINY = ("--trials", "3", "--games", "6", "--validate-games", "4", "--confirm-games", "6",
        "--players", "random,random", "--quiet")


def balance(project: Path, *args: str) -> int:
    return main(["--project", str(project), "balance", *args])


@pytest.fixture
def small(project: Path) -> Path:
    (project / BALANCE).write_text(SMALL, encoding="utf-8")
    return project


def test_rule_fixed_value_refused_at_its_line(project, capsys):
    (project / BALANCE).write_text(
        "tunable:\n"
        "  - {path: cards.louis-iv.political, range: [2, 5]}\n"
        "  - {path: cards.tyrol-marriage.event.effects.1.steps, range: [0, 3]}\n"
        "  - {path: cards.louis-iv.politcal, range: [1, 3]}\n"
        "  - {path: cards.charles-iv.deed.effects.0.amount, range: [0, 3]}\n", encoding="utf-8")
    assert balance(project, *TINY) == 1
    err = capsys.readouterr().err
    assert "card_data/balance.yaml:3:5" in err and "rule 10.32" in err and "cannot be tuned" in err
    assert "card_data/balance.yaml:4:" in err and "not a path to a number" in err
    assert "card_data/balance.yaml:5:5: error[balance-range]" in err and "is 0, outside 1–6" in err
    assert not (project / PROPOSAL).exists()


def test_tiny_search_writes_a_proposal_apply_and_check_pass(small, capsys):
    assert balance(small, *TINY, "--jobs", "1") == 0
    out = capsys.readouterr().out
    assert "3 trials of 6 games" in out and "fresh playtest (6 games, seed 2)" in out
    proposal = yaml.safe_load((small / PROPOSAL).read_text(encoding="utf-8"))
    assert proposal["search"]["trials"] == 3 and proposal["search"]["players"] == ["random", "random"]
    assert proposal["search_result"]["proposed_on_games"] == 10  # the best 3 on 4 more games
    assert proposal["targets"] == [{"measure": "win_rate", "value": 0.5, "tolerance": 0.03}]
    conf = proposal["confirmation"]
    lo, hi = conf["proposed"]["ci95"]
    assert lo <= conf["proposed"]["win_rate"] <= hi and conf["games"] == 6
    ranges = {"cards.louis-iv.political": (2, 5), "places.saxony.stability": (1, 4),
              "cards.elizabeth-of-bohemia.deed.effects.0.amount": (1, 4)}
    for row in proposal["changes"]:
        file, line = row["at"].rsplit(":", 1)
        written = (small / file).read_text(encoding="utf-8").splitlines()[int(line) - 1]
        assert str(row["old"]) in written and row["old"] != row["new"]
        assert ranges[row["path"]][0] <= row["new"] <= ranges[row["path"]][1]
    for name in ("current", "proposed"):  # `cardgen playtest`'s files of each
        assert (small / "output/balance" / name / "report.json").is_file()
        assert list((small / "output/balance" / name).rglob("report.pdf"))
    report = json.loads((small / "output/balance/proposed/report.json").read_text(encoding="utf-8"))
    assert report["houses"]["luxembourg"]["ci95"] == conf["proposed"]["ci95"]
    assert "compare" in report  # against today's data
    assert balance(small, "--apply") == 0
    assert main(["--project", str(small), "check"]) == 0


def test_apply_writes_numbers_coins_and_texts_in_place(project, capsys):
    cards = project / "card_data" / "cards"
    before = {p.name: p.read_text(encoding="utf-8") for p in cards.glob("*.yaml")}
    (project / PROPOSAL).parent.mkdir(parents=True)
    (project / PROPOSAL).write_text(yaml.safe_dump({"changes": [
        {"path": "cards.charles-iv.deed.effects.0.amount", "old": 2, "new": 1},
        {"path": "cards.charles-i-robert.cost", "old": 4, "new": 5},
        {"path": "places.saxony.stability", "old": 2, "new": 3}]}), encoding="utf-8")
    assert balance(project, "--apply") == 0
    out = capsys.readouterr().out
    assert "card_data/cards/luxembourg.yaml:18: cards.charles-iv.deed.effects.0.amount 2 → 1" in out
    lux = (cards / "luxembourg.yaml").read_text(encoding="utf-8")
    assert "- {op: place_influence, amount: 1, where: bohemia}" in lux
    assert 'en: "Place 1 influence in Bohemia. Draw 1 card."' in lux
    assert 'cs: "Umísti 1\u00a0vliv do Čech. Lízni 1\u00a0kartu."' in lux  # singular, typography
    market = (cards / "market.yaml").read_text(encoding="utf-8")
    assert "cost: [eastern, eastern, western, church, church]" in market
    changed = [n for n, text in before.items() if (cards / n).read_text(encoding="utf-8") != text]
    assert sorted(changed) == ["luxembourg.yaml", "market.yaml"]
    diff = [a for a, b in zip(before["luxembourg.yaml"].splitlines(), lux.splitlines(), strict=True)
            if a != b]
    assert len(diff) == 3  # the amount and the two texts, nothing else
    assert "stability: 3" in (project / "card_data/places.yaml").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["--project", str(project), "check"]) == 0
    assert "0 fuzzy" in capsys.readouterr().out  # the Czech stays in step with its English
    # the proposal was made for other data now: refused, nothing written
    assert balance(project, "--apply") == 1
    assert "is 1 now, the proposal was made for 2" in capsys.readouterr().err


def test_ctrl_c_keeps_the_best_so_far_and_the_study_resumes(small, monkeypatch, capsys):
    from cardgen.balance import games
    real = games.LocalRunner.play
    calls = [0]

    def interrupted(self, values, seed, n, start=0):
        calls[0] += 1
        if calls[0] == 5:  # trial 2 starts its first half of games
            raise KeyboardInterrupt
        return real(self, values, seed, n, start)

    monkeypatch.setattr(games.LocalRunner, "play", interrupted)
    assert balance(small, *TINY, "--jobs", "1") == 130
    out = capsys.readouterr().out
    assert "interrupted" in out
    proposal = yaml.safe_load((small / PROPOSAL).read_text(encoding="utf-8"))
    assert proposal["search"]["interrupted"] is True and proposal["search"]["trials"] == 2
    assert proposal["confirmation"] is None
    monkeypatch.setattr(games.LocalRunner, "play", real)
    assert balance(small, *TINY, "--jobs", "1", "--confirm-games", "2") == 0
    proposal = yaml.safe_load((small / PROPOSAL).read_text(encoding="utf-8"))
    assert proposal["search"]["trials"] == 3 and proposal["search"]["interrupted"] is False


def test_same_seed_same_proposal_locally_and_on_a_local_cluster(small, tmp_path):
    distributed = pytest.importorskip("distributed")
    other = copy_project(tmp_path / "other")
    shutil.copy(small / BALANCE, other / BALANCE)
    args = ("--trials", "3", "--games", "20", "--validate-games", "10", "--confirm-games", "4",
            "--players", "random,random", "--quiet")
    assert balance(small, *args, "--jobs", "2") == 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        assert balance(other, *args, "--scheduler", cluster.scheduler_address) == 0
    local = (small / PROPOSAL).read_bytes()
    assert local == (other / PROPOSAL).read_bytes()
    assert b"trials: 3" in local
