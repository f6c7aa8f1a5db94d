"""`cardgen check` plays every card line in sampled game states (5.31): crashes are errors at
the line, effects that never change anything and unannounced unresolvable Deeds warnings."""

from __future__ import annotations

import json
from pathlib import Path

from cardgen.cli import main
from tests.conftest import replace_in

CARDS = Path("card_data") / "cards"


def findings(project: Path, capsys) -> tuple[int, list[dict]]:
    code = main(["--project", str(project), "check", "--format", "json"])
    return code, json.loads(capsys.readouterr().out)["findings"]


def test_event_naming_no_side_crashes_at_its_line(project, capsys):
    line = replace_in(project / CARDS / "events.yaml",
                      "{op: place_military, amount: 3, where: tyrol, who: wittelsbach}",
                      "{op: place_military, amount: 3, where: tyrol, who: you}")
    code, found = findings(project, capsys)
    crash = [f for f in found if f["code"] == "deed-crash"]
    assert code == 1 and crash, found
    assert crash[0]["card"] == "tyrol-marriage" and "must name its side" in crash[0]["message"]
    assert crash[0]["file"].endswith("events.yaml")
    assert crash[0]["line"] < line


def test_deed_that_never_does_anything_and_is_never_resolvable(project, capsys):
    line = replace_in(project / CARDS / "market.yaml",
                      "{op: place_influence, amount: 3, where: saxony}",
                      "{op: acquire_free, max_cost: 1}")
    _code, found = findings(project, capsys)
    nothing = [f for f in found if f["code"] == "effect-does-nothing"]
    unresolvable = [f for f in found if f["code"] == "deed-unresolvable"]
    assert nothing and nothing[0]["card"] == "rudolf-i-of-saxony" and nothing[0]["line"] == line
    assert "acquire_free" in nothing[0]["message"]
    assert unresolvable and unresolvable[0]["card"] == "rudolf-i-of-saxony"
    assert unresolvable[0]["rule"] == "5.31"


def test_shipped_cards_all_play(project, capsys):
    code, found = findings(project, capsys)
    assert code == 0
    assert not [f for f in found if f["code"] in ("deed-crash", "effect-does-nothing",
                                                   "deed-unresolvable", "op-no-resolver")]
