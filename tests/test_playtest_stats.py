"""The report's statistics and words: intervals, component sufficiency, Czech numbers and
plurals (cardgen/playtest/intervals.py, supply.py, words.py)."""

from __future__ import annotations

import pytest

from cardgen.data.load import load
from cardgen.playtest.intervals import mean_difference, stratified_difference, wilson, z_family
from cardgen.playtest.supply import fits
from cardgen.playtest.words import Words
from cardgen.wording.language import NBSP
from tests.conftest import ROOT

INFLUENCE = ((5, 4), (3, 8), (1, 24))  # components.yaml: value → count


def test_wilson_interval_contains_the_rate_and_narrows_with_n():
    lo, hi = wilson(78, 100)
    assert lo < 0.78 < hi
    lo2, hi2 = wilson(780, 1000)
    assert hi2 - lo2 < (hi - lo) / 2
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_stratified_difference_removes_the_side():
    """A card bought mostly by the side that wins anyway is not strong: within each side
    the win rate with and without it is the same."""
    # Luxembourg wins 80 % with or without it and owns it often; Wittelsbach 20 %, rarely
    strata = [(80, 100, 16, 20), (2, 10, 22, 110)]
    d, lo, hi, n = stratified_difference(strata)
    assert abs(d) < 0.05 and lo < 0 < hi and n == 110
    strong = [(90, 100, 50, 100), (60, 100, 20, 100)]
    d, lo, hi, _n = stratified_difference(strong)
    assert d == pytest.approx(0.4, abs=0.02) and lo > 0


def test_paired_difference_is_narrower_than_unpaired():
    old = [float(i % 3) for i in range(60)]
    new = [x + (1 if i % 4 == 0 else 0) for i, x in enumerate(old)]
    paired = mean_difference(new, old, paired=True)
    unpaired = mean_difference(new, old, paired=False)
    assert paired[0] == pytest.approx(unpaired[0]) and paired[1] > 0
    assert paired[2] - paired[1] < unpaired[2] - unpaired[1]
    assert z_family(100) > z_family(1) == pytest.approx(1.96, abs=0.01)


@pytest.mark.parametrize(("amounts", "ok"), [
    ((68,), True),                   # every piece on one country
    ((69,), False),                  # more than all printed value
    ((5,) * 7, True),                # 4 fives, then 3+1+1 three times
    ((1,) * 25, False),              # 25 countries of 1: only 24 ones
    ((2,) * 13, False),              # a 2 needs two ones: 26 ones
    ((3, 3, 3, 3, 3, 3, 3, 3, 3), True),  # 8 threes and three ones
])
def test_tokens_fit_when_some_split_of_the_printed_pieces_shows_every_amount(amounts, ok):
    assert fits(amounts, INFLUENCE) is ok


@pytest.fixture(scope="module")
def data():
    found, _ = load(ROOT)
    return found


def test_czech_numbers_plurals_and_intervals(data):
    cs, en = Words(data, "cs"), Words(data, "en")
    assert [cs.count(n, "game") for n in (1, 3, 5, 2000)] == [
        f"1{NBSP}hra", f"3{NBSP}hry", f"5{NBSP}her", f"2{NBSP}000{NBSP}her"]
    assert en.count(1, "game") == f"1{NBSP}game" and en.count(2000, "game") == f"2,000{NBSP}games"
    assert cs.pct(0.784, 1) == f"78,4{NBSP}%" and en.pct(0.784, 1) == f"78.4{NBSP}%"
    assert cs.ci([0.76, 0.80]) == "[76–80]"
    assert en.pp(-0.12) == f"\u221212{NBSP}pp" and cs.pp(0.12) == f"+12{NBSP}p.{NBSP}b."
    assert cs.place("palatinate", heading=False) == "Falc"
    assert en.place("palatinate") == "Palatinate" and en.place("palatinate", False) == "the Palatinate"
