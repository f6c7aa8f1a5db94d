"""Broken board, token and aid inputs give located findings, never a crash."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.board import build_board, build_player_aid, build_tokens
from cardgen.data.project import load_project
from cardgen.errors import CardgenError
from tests.conftest import ROOT, replace_in

FILES = ("card_data/components.yaml", "layouts/board.yaml", "layouts/tokens.yaml",
         "layouts/aid.yaml")
JUNK = ["", "- ", ": :", "{", "]", "~", "null", "1e999", "yes", "'", "[1, 2]", "-5", "abc"]


def _error(project: Path, build=build_board):
    with pytest.raises(CardgenError) as info:
        build(load_project(project)[0], "en")
    return info.value.findings


def test_unknown_layout_key_names_the_nearest(project):
    line = replace_in(project / "layouts" / "board.yaml", "  label_at:", "  lable_at:")
    [f] = [f for f in _error(project) if f.code == "unknown-key"]
    assert (f.location.file, f.location.line) == ("layouts/board.yaml", line)
    assert f.hint == "did you mean 'label_at'?"


def test_wrong_kind_of_value(project):
    line = replace_in(project / "layouts" / "board.yaml", "  box: [12, 56, 350, 308]",
                      "  box: [12, 56, 350]")
    [f] = [f for f in _error(project) if f.code == "wrong-type"]
    assert f.location.line == line
    assert "four numbers [x, y, width, height]" in f.message


def test_every_country_needs_a_position_on_the_board(project):
    replace_in(project / "layouts" / "board.yaml", "  saxony: {at: [215, 120]}\n", "")
    [f] = [f for f in _error(project) if f.code == "board-position"]
    assert "country 'saxony'" in f.message and f.location.file == "layouts/board.yaml"


def test_token_count_must_be_a_whole_number(project):
    line = replace_in(project / "card_data" / "components.yaml", "  vote_markers: 40",
                      "  vote_markers: twelve")
    [f] = [f for f in _error(project, build_tokens) if f.code == "wrong-type"]
    assert (f.location.file, f.location.line) == ("card_data/components.yaml", line)


@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(file=st.sampled_from(FILES), index=st.integers(0, 10_000),
       op=st.sampled_from(["delete", "duplicate", "retype"]), junk=st.sampled_from(JUNK))
def test_damaged_board_inputs_give_findings_never_a_crash(tmp_path_factory, file, index, op, junk):
    project = tmp_path_factory.mktemp("board")
    for part in ("card_data", "layouts", "fonts"):
        shutil.copytree(ROOT / part, project / part)
    path = project / file
    lines = path.read_text(encoding="utf-8").split("\n")
    i = index % len(lines)
    if op == "delete":
        del lines[i]
    elif op == "duplicate":
        lines.insert(i, lines[i])
    elif ":" in lines[i]:
        lines[i] = lines[i].split(":", 1)[0] + ": " + junk
    path.write_text("\n".join(lines), encoding="utf-8")
    gathered = load_project(project)[0]
    for build in (build_board, build_tokens, build_player_aid):
        try:
            build(gathered, "cs")
        except CardgenError as exc:
            assert all(f.location is not None for f in exc.findings), exc
