"""`cardgen new card` (issue 40.5): a card added in one step, its counts derived, the
rulebook's fixed counts named by file:line as facts to confirm."""

from __future__ import annotations

from cardgen.build.check import run_check
from cardgen.check.invariants import check_invariants
from cardgen.cli import main
from cardgen.data.load import load
from tests.conftest import replace_in

MARKET = "card_data/cards/market.yaml"


def _facts_line(project, text: str) -> int:
    lines = (project / "card_data/rules/facts.yaml").read_text(encoding="utf-8").split("\n")
    return next(i for i, ln in enumerate(lines, 1) if text in ln)


def test_new_market_card_takes_the_next_number_and_grows_the_counts(project, capsys):
    path = project / MARKET
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))  # Windows line ends, kept
    before = path.read_bytes()
    assert main(["new", "card", "--deck", "market", "--like", "prague-burghers",
                 "--project", str(project)]) == 0
    out = capsys.readouterr().out
    after = path.read_bytes()
    assert after.startswith(before.rstrip(b"\r\n"))  # every comment and record kept as it was
    assert b"\r\n  - id: new-card-59\r\n    number: 59\r\n" in after  # after the events' 45..58
    assert after.count(b"\n") == after.count(b"\r\n")  # no bare or doubled line end
    fact = _facts_line(project, "counts: {market_cards: 44}")
    assert f"to confirm: card_data/rules/facts.yaml:{fact}:" in out
    assert "counts.market_cards 44 → 45" in out and "counts.physical_cards 82 → 83" in out

    report = run_check(project)
    [only] = [f for f in report.findings if f.severity.name == "ERROR"]
    assert only.code == "rule-fact" and "rule 3.42 fixes 44" in only.message  # the named fact
    data, _ = load(project)
    card = next(c for c in data.cards if c.id == "new-card-59")
    assert (card.name.get("en"), card.name.get("cs")) == ("New Card 59", "Nová karta 59")


def test_a_rules_change_writes_the_fact_and_check_passes(project, capsys):
    assert main(["new", "card", "--like", "heinrich-of-virneburg", "--id", "otto-of-mainz",
                 "--name-en", "Otto of Mainz", "--name-cs", "Ota Mohučský", "--rules-change",
                 "--project", str(project)]) == 0
    out = capsys.readouterr().out
    assert "the quote of rule 3.42 is the old rulebook's" in out
    report = run_check(project)
    assert report.ok, [(f.code, f.message) for f in report.findings]
    text = (project / MARKET).read_text(encoding="utf-8")
    assert "card: otto-of-mainz" in text  # its passive names itself, not the card copied
    assert "Otto of Mainz yields no Church" in text


def test_new_card_refuses_an_unknown_model_or_a_taken_id(project, capsys):
    assert main(["new", "card", "--like", "nobody", "--project", str(project)]) == 2
    assert "--like nobody: no card has this id" in capsys.readouterr().err
    assert main(["new", "card", "--like", "prague-burghers", "--id", "philip-vi",
                 "--project", str(project)]) == 2
    assert "another card has this id" in capsys.readouterr().err


def test_duplicate_number_names_the_other_card_line_and_the_next_free_number(project):
    line = replace_in(project / MARKET, "    number: 42\n", "    number: 41\n")
    data, _ = load(project)
    [hit] = [f for f in check_invariants(data) if f.code == "duplicate-number"]
    assert hit.card == "prague-burghers"
    assert f"{MARKET}:{line - 11}:" in hit.message  # number 41 of the card before it
    assert "the next free number in market is 59" in (hit.hint or "")

