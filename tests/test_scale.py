"""bench/scale.py makes a valid deck N times today's: distinct ids and names, counts raised."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import yaml

from bench.scale import make_scaled_project
from cardgen.cli import main

ROOT = Path(__file__).resolve().parent.parent


def _cards(project: Path) -> list[dict]:
    return [c for p in sorted((project / "card_data" / "cards").glob("*.yaml"))
            for c in yaml.safe_load(p.read_text(encoding="utf-8"))["cards"]]


def test_scale_two_checks_clean(tmp_path, capsys):
    out = tmp_path / "scaled"
    make_scaled_project(out, 2)
    code = main(["--project", str(out), "check", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    problems = [f for f in report["findings"] if f["severity"] in ("error", "warning")
                and f["code"] != "art-placeholder"]  # no art yet, as in the shipped project
    assert code == 0 and problems == []  # a benchmark times the shipped data's work, no more
    shipped, scaled = _cards(ROOT), _cards(out)
    assert len(scaled) == 2 * len(shipped)
    assert len({c["id"] for c in scaled}) == len(scaled)
    for lang in ("en", "cs"):  # distinct names, except what the shipped deck shares (John)
        shared = sum(n - 1 for n in Counter(c["name"][lang] for c in shipped).values())
        assert len({c["name"][lang] for c in scaled}) == len(scaled) - 2 * shared
    game = yaml.safe_load((out / "card_data" / "game.yaml").read_text(encoding="utf-8"))
    assert game["counts"]["physical_cards"] == 2 * 82
    assert game["counts"]["shields"] == 6  # six shields whatever the deck's size (11.5)
    # a copy's cross-card reference names the same copy's card (Philip VI → Blanche, 5.82)
    philip = next(c for c in scaled if c["id"] == "philip-vi-ban")
    assert philip["deed"]["effects"][1]["card"] == "blanche-de-valois-ban"
    assert "Blanche de Valois Ban" in philip["deed"]["text"]["en"]
    # the Czech text names her in the accusative, and the copy's forms follow the copy
    blanche = next(c for c in scaled if c["id"] == "blanche-de-valois-ban")
    assert blanche["name_forms"]["cs"]["acc"] == "Blanku z\xa0Valois Ban"
    assert "Blanku z\xa0Valois Ban" in philip["deed"]["text"]["cs"]


def test_scale_cli_refuses_a_folder_in_use(tmp_path):
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "file").write_text("x")
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "scale.py"), "--scale", "2",
                          "--out", str(tmp_path / "busy")], capture_output=True, text=True)
    assert run.returncode == 2 and "not empty" in run.stderr
