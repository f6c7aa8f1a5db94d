"""The report's statistics and words: intervals, component sufficiency, Czech numbers and
plurals (cardgen/playtest/intervals.py, supply.py, words.py)."""

from __future__ import annotations

from statistics import NormalDist

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


def test_benjamini_hochberg_steps_up_and_its_intervals_exclude_zero_exactly_for_the_kept():
    from cardgen.playtest.intervals import benjamini_hochberg
    kept, z = benjamini_hochberg([0.03, 0.5, 0.01, 0.02])  # thresholds 1.25, 2.5, 3.75, 5 %
    assert kept == [0, 2, 3] and z == pytest.approx(NormalDist().inv_cdf(1 - 3 * 0.05 / 8))
    assert benjamini_hochberg([0.04, 0.04])[0] == [0, 1]  # Bonferroni (2.5 %) would keep none
    assert benjamini_hochberg([0.2, 0.9]) == ([], 0.0)


def _per_game(winner: list[int], noise: list[list[float]]) -> dict:
    """A report as compare() reads it: games paired by seed, the winner of each, and one
    component peak per list of ``noise`` (each also a "short" figure)."""
    n = len(winner)
    return {"per_game": {"seed": list(range(n)), "winner": winner, "end_round": [9] * n,
                         "crecy": [0] * n, "tie": [0] * n, "control_order": [], "control": [""] * n,
                         "purchases": [[3, 3]] * n, "bought": {}, "played": {},
                         "peak": {f"k{i:02}": v for i, v in enumerate(noise)},
                         "short": {f"k{i:02}": [] for i in range(len(noise))}}}


@pytest.mark.parametrize("flipped, beyond", [(8, True), (2, False), (0, False)])
def test_compare_always_states_the_win_rate_tested_on_its_own(flipped, beyond):
    """A change of 8 pp over 100 paired games (z ≈ 2.9) is beyond the noise on its own; among
    the 145 other figures a simultaneous (Bonferroni) interval would have hidden it (z ≈ 3.4).
    Whatever its size, the win rate is stated with its plain 95 % interval."""
    import random

    from cardgen.playtest.compare import compare
    rng = random.Random(7)
    old_w = [1] * 60 + [0] * 40  # Wittelsbach (1) wins 60 of 100
    new_w = [0] * flipped + old_w[flipped:]
    noise = [[float(rng.randint(0, 5)) for _ in range(100)] for _ in range(70)]
    moved = [[float(rng.randint(0, 5)) for _ in range(100)] for _ in range(70)]
    moved[0] = [x + 3 for x in noise[0]]  # one secondary figure moves by 3 in every game
    diff = compare(_per_game(new_w, moved), _per_game(old_w, noise))
    head = diff["headline"]
    assert head["figure"] == "win:luxembourg" and head["change"] == pytest.approx(flipped / 100)
    lo, hi = head["interval"]
    assert lo <= head["change"] <= hi and head["beyond_noise"] is beyond and (lo > 0) is beyond
    assert diff["figures_compared"] == 145 and z_family(146) > 3.3  # 140 + 5 game figures
    assert "win:luxembourg" not in [r["figure"] for r in diff["changes"]]
    listed = {r["figure"]: r for r in diff["changes"]}
    assert "peak:k00" in listed and listed["peak:k00"]["change"] == 3.0
    assert diff["correction"] == "benjamini-hochberg"
    assert all(r["interval"][0] > 0 or r["interval"][1] < 0 for r in diff["changes"])
