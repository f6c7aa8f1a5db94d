"""`cardgen balance`'s walls (issue 38): output/balance/ is read and written only through
paths that stay inside output/ and are regular files (checked before any trial, so a planted
link costs nothing and touches nothing outside), the study journal is read only when it is
the study's, `--apply` writes nothing unless every value of the proposal is a tunable of
balance.yaml inside its range that breaks no rule fact, and every numeric option has a
range."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from cardgen.balance.outputs import MAX_JOURNAL
from cardgen.balance.proposal import MAX_NESTING, MAX_PROPOSAL
from cardgen.cli import main
from tests.conftest import tree_hash as _digest

pytest.importorskip("optuna")

OUT = Path("output") / "balance"
PROPOSAL = OUT / "proposal.yaml"
TINY = ("--trials", "2", "--games", "4", "--validate-games", "0", "--confirm-games", "2",
        "--players", "random,random", "--jobs", "1", "--quiet")
#: A proposal the shipped data and balance.yaml accept (tests/test_balance.py applies it).
GOOD = [{"path": "places.saxony.stability", "old": 2, "new": 3}]


def _run(project: Path, capsys, *argv: str) -> tuple[int, str]:
    code = main(["--project", str(project), "balance", *argv])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside the project holding a file of every name balance writes, one of
    them a proposal that would change card_data/ if it were trusted."""
    folder = tmp_path / "elsewhere"
    (folder / "en").mkdir(parents=True)
    for name in ("study.journal", "study.journal.lock", "report.json", "en/report.pdf"):
        (folder / name).write_text("outside: do not touch\n", encoding="utf-8")
    (folder / "proposal.yaml").write_text(yaml.safe_dump({"changes": GOOD}), encoding="utf-8")
    return folder


# --- output/balance/ through the walls ---------------------------------------------------

@pytest.mark.parametrize("rel,target", [
    ("", "."),                                     # output/balance itself
    ("study.journal", "study.journal"),
    ("study.journal.lock", "study.journal.lock"),
    ("proposal.yaml", "proposal.yaml"),
    ("current", "."),
    ("proposed", "."),
    ("current/report.json", "report.json"),
    ("proposed/en/report.pdf", "en/report.pdf"),
    ("proposed/en", "en"),
    ("study.journal", "missing"),                  # a link to nothing outside
])
def test_a_link_out_in_output_balance_is_refused_before_any_trial(project, outside, capsys,
                                                                  rel, target):
    link = project / OUT / rel if rel else project / OUT
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(outside / target)
    before = _digest(outside)
    code, out = _run(project, capsys, *TINY)
    assert code == 2, out
    assert "error[unsafe-path]" in out and ("balance" in out)
    assert "trial" not in out  # refused before the search
    assert _digest(outside) == before
    cards = _digest(project / "card_data")
    if rel in ("", "proposal.yaml"):  # --apply reads the proposal through the same wall
        code, out = _run(project, capsys, "--apply")
        assert code == 2 and "error[unsafe-path]" in out, out
        assert _digest(outside) == before and _digest(project / "card_data") == cards


@pytest.mark.parametrize("rel", ["study.journal", "proposal.yaml", "current/report.json",
                                 "study.journal.lock"])
def test_a_fifo_in_output_balance_is_refused_not_opened(project, capsys, rel):
    path = project / OUT / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    code, out = _run(project, capsys, *TINY)
    assert code == 2, out
    assert f"{OUT.as_posix()}/{rel}" in out and ("not-a-file" in out or "unsafe-path" in out)


def test_a_journal_that_is_a_link_inside_output_is_refused(project, capsys):
    """Optuna appends to the journal in place: through a link it would write another file."""
    (project / "output" / "en").mkdir(parents=True)
    (project / "output" / "en" / "cards.pdf").write_bytes(b"%PDF-1.4 a build's file\n")
    (project / OUT).mkdir(parents=True)
    (project / OUT / "study.journal").symlink_to(project / "output" / "en" / "cards.pdf")
    code, out = _run(project, capsys, *TINY)
    assert code == 2 and "study.journal is a link" in out, out
    assert (project / "output" / "en" / "cards.pdf").read_bytes() == b"%PDF-1.4 a build's file\n"


@pytest.mark.parametrize("content", [
    b"not json\n{}\n",
    b'{"op_code": 99, "worker_id": "x"}\n',
    b'{"op_code": 0, "worker_id": "x", "study_name": 5, "directions": "up"}\n',
])
def test_a_damaged_journal_is_a_located_error(project, capsys, content):
    (project / OUT).mkdir(parents=True)
    (project / OUT / "study.journal").write_bytes(content)
    code, out = _run(project, capsys, *TINY)
    assert code == 2, out
    assert f"{OUT.as_posix()}/study.journal: error[balance-setup]" in out
    assert "delete it" in out and "Traceback" not in out


def test_a_journal_past_its_size_is_refused(project, capsys):
    (project / OUT).mkdir(parents=True)
    with open(project / OUT / "study.journal", "wb") as fh:
        fh.truncate(MAX_JOURNAL + 1)  # sparse: no disk used
    code, out = _run(project, capsys, *TINY)
    assert code == 2 and "error[file-too-large]" in out, out


# --- --apply trusts nothing of the proposal ----------------------------------------------

def _plant(project: Path, text: str | bytes) -> None:
    (project / PROPOSAL).parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8") if isinstance(text, str) else text
    (project / PROPOSAL).write_bytes(data)


def _rows(*rows: dict) -> str:
    return yaml.safe_dump({"changes": list(rows)}, sort_keys=False)


WHERE = PROPOSAL.as_posix()


@pytest.mark.parametrize("text,code,expect", [
    (_rows({"path": "places.saxony.stability", "old": 2, "new": 9}), 1,
     [f"{WHERE}:4:8", "outside its range [1, 4]"]),                # past the tunable's range
    (_rows({"path": "places.saxony.stability", "old": 2, "new": 0}), 1,
     [f"{WHERE}:4:8", "outside its range [1, 4]"]),
    (_rows({"path": "cards.royal-retinue.copies", "old": 4, "new": 5}), 1,
     [f"{WHERE}:2:9", "not a tunable of card_data/balance.yaml"]),  # a Retinue's copies
    (_rows({"path": "cards.tyrol-marriage.event.effects.1.steps", "old": 2, "new": 3}), 1,
     [f"{WHERE}:2:9", "not a tunable"]),                           # a rule fact (rule 10.32)
    (_rows({"path": "cards.nobody.political", "old": 1, "new": 2}), 1, ["not a tunable"]),
    (_rows(*GOOD, *GOOD), 1, ["changed twice"]),
    (_rows({"path": "places.saxony.stability", "old": 2, "new": 3.0}), 1,
     [f"{WHERE}:2:3", "change 1 is not"]),                        # wrong type
    (_rows({"path": "places.saxony.stability", "old": 2, "new": True}), 1, ["change 1 is not"]),
    (_rows({"path": "places.saxony.stability", "old": 2, "new": "3"}), 1, ["change 1 is not"]),
    (_rows({"path": "places.saxony.stability", "new": 3}), 1, ["change 1 is not"]),
    (_rows(*GOOD, ["places.saxony.stability", 2, 3]), 1, [f"{WHERE}:5:3", "change 2 is not"]),
    ("changes: {path: places.saxony.stability}\n", 1, [f"{WHERE}:1:10", "no list 'changes:'"]),
    ("- 1\n- 2\n", 1, ["no list 'changes:'"]),
    ("", 1, ["no list 'changes:'"]),
    ("changes: [\n", 1, ["YAML syntax error"]),
    ("changes:\n  - {path: places.saxony.stability, old: 2, new: 99999999999999999999}\n", 1,
     [f"{WHERE}:2:", "at most 15 digits"]),
    ("changes: " + "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1) + "\n", 1,
     [f"nests more than {MAX_NESTING} deep"]),
    ("changes: " + "[" * 200_000 + "\n", 1, ["nests more than"]),  # would exhaust the stack
    (b"changes: \xff\n", 1, ["not UTF-8"]),
    ("#" * (MAX_PROPOSAL + 1), 2, ["error[file-too-large]"]),      # a huge file
])
def test_a_planted_proposal_is_refused_and_card_data_stays_as_it_was(project, capsys, text,
                                                                     code, expect):
    _plant(project, text)
    before = _digest(project / "card_data")
    got, out = _run(project, capsys, "--apply")
    assert got == code, out
    for part in expect:
        assert part in out, out
    assert f"{WHERE}" in out and "Traceback" not in out
    assert _digest(project / "card_data") == before


def test_a_fifo_as_the_proposal_is_refused(project, capsys):
    (project / OUT).mkdir(parents=True)
    os.mkfifo(project / PROPOSAL)
    before = _digest(project / "card_data")
    code, out = _run(project, capsys, "--apply")
    assert code == 2 and f"{WHERE}: error[not-a-file]" in out, out
    assert _digest(project / "card_data") == before


@pytest.mark.parametrize("path,old,new,broken", [
    ("cards.tyrol-marriage.event.effects.1.steps", 2, 3, "rule-fact"),
    ("cards.royal-retinue.copies", 4, 5, "inventory-count"),
])
def test_a_value_the_rules_fix_is_refused_even_when_balance_yaml_lets_it_through(
        project, capsys, monkeypatch, path, old, new, broken):
    """balance.yaml's ranges are checked by trying their ends; should a value inside one
    still break a rule fact or a count, the proposal's values are checked together again."""
    from cardgen.balance import spec
    monkeypatch.setattr(spec, "_refusal", lambda *_args: None)
    with open(project / "card_data" / "balance.yaml", "a", encoding="utf-8") as fh:
        fh.write(f"  - {{path: {path}, range: [1, 6]}}\n")
    _plant(project, _rows({"path": path, "old": old, "new": new}))
    before = _digest(project / "card_data")
    code, out = _run(project, capsys, "--apply")
    assert code == 1 and f"{WHERE}: error[balance-proposal]: the proposal breaks {broken}" in out
    assert _digest(project / "card_data") == before


def test_no_proposal_says_to_run_balance_first(project, capsys):
    code, out = _run(project, capsys, "--apply")
    assert code == 1 and "there is no proposal" in out and "run `cardgen balance` first" in out


def test_a_good_proposal_is_still_applied(project, capsys):
    _plant(project, _rows(*GOOD))
    code, out = _run(project, capsys, "--apply")
    assert code == 0 and "places.saxony.stability 2 → 3" in out, out


# --- the options' ranges ------------------------------------------------------------------

@pytest.mark.parametrize("option,value,shown", [
    ("--jobs", "257", "from 0 to 256"),
    ("--jobs", "-1", "from 0 to 256"),
    ("--seed", "-1", "from 0 to 4,294,967,295"),
    ("--seed", str(2**32), "from 0 to 4,294,967,295"),
    ("--trials", "0", "from 1 to 100,000"),
    ("--trials", "100001", "from 1 to 100,000"),
    ("--games", "1", "from 2 to 1,000,000"),
    ("--games", "x", "from 2 to 1,000,000"),
    ("--validate-games", "-1", "from 0 to 1,000,000"),
    ("--validate-games", "1000001", "from 0 to 1,000,000"),
    ("--confirm-games", "0", "from 1 to 1,000,000"),
    ("--timeout", "0", "from 0.1 to 10080"),
    ("--timeout", "nan", "from 0.1 to 10080"),
    ("--timeout", "1e999", "from 0.1 to 10080"),
])
def test_each_numeric_option_has_a_range(project, capsys, option, value, shown):
    with pytest.raises(SystemExit) as caught:
        main(["--project", str(project), "balance", option, value])
    err = capsys.readouterr().err
    assert caught.value.code == 2
    line = err.strip().splitlines()[-1]  # argparse's one line, after the usage
    assert f"argument {option}: expected a" in line and shown in line, err
    assert not (project / OUT).exists()


def test_a_seed_past_the_old_sampler_limit_runs(project, capsys):
    """Seeds above 4294 used to overflow the sampler's 32-bit generator (a traceback)."""
    (project / "card_data" / "balance.yaml").write_text(
        "tunable:\n  - {path: places.saxony.stability, range: [1, 4]}\n", encoding="utf-8")
    code, out = _run(project, capsys, *TINY, "--seed", str(2**32 - 1))
    assert code == 0, out
    assert yaml.safe_load((project / PROPOSAL).read_text(encoding="utf-8"))["search"]["seed"] \
        == 2**32 - 1
