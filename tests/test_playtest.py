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


REPORT = Path("output/playtest")


def pdf_text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="needs poppler (pdffonts, pdftotext)")
def test_report_json_and_pdf_in_both_languages(project, capsys):
    code = playtest(project, "--games", "6", "--seed", "3", "--players", "greedy,random", "--jobs", "1")
    out = capsys.readouterr().out
    assert code == 0, out
    rep = json.loads((project / REPORT / "report.json").read_text(encoding="utf-8"))
    # the house names and the interval as the report sets them (Czech review 2, no. 19)
    lux = rep["houses"]["luxembourg"]
    head = (f"6 games: Luxembourg {100 * lux['rate']:.1f} % [{100 * lux['ci95'][0]:.1f}–"
            f"{100 * lux['ci95'][1]:.1f}], Wittelsbach ")
    assert head in out and "(win rates, 95 % intervals)" in out and "-" not in out.split("\n")[0]
    assert "\n1. " in out  # the first finding on the terminal
    assert rep["games"] == 6 and rep["meta"]["players"] == ["greedy", "random"]
    # the data it played: its digest (the copy is in no git checkout: no revision)
    from cardgen.files.provenance import provenance
    assert rep["meta"]["provenance"] == provenance(project).as_json()
    assert rep["houses"]["luxembourg"]["wins"] + rep["houses"]["wittelsbach"]["wins"] == 6
    lo, hi = rep["houses"]["luxembourg"]["ci95"]
    assert 0 <= lo <= rep["houses"]["luxembourg"]["rate"] <= hi <= 1
    # who holds each elector at the end: the three outcomes of every game
    trier = rep["elector_control"]["trier"]
    assert sum(trier[k]["rate"] for k in ("luxembourg", "wittelsbach", "nobody")) == pytest.approx(1)
    assert {"effect", "ci95", "n", "by_side"} <= set(rep["card_effects"]["frankfurt"])
    assert "frankfurt" in rep["cards"] and "royal-retinue" not in rep["card_effects"]  # a starter
    # the printed inventory of components.yaml: 40 vote markers a side, 24+24+20 influence
    kinds = rep["components"]["kinds"]
    assert kinds["vote_markers:luxembourg"]["printed"] == 40
    assert kinds["influence:wittelsbach"]["printed"] == 68
    assert set(rep["first_player"]["last_round"]) == {"luxembourg", "wittelsbach"}
    assert 2 <= len(rep["findings"]) <= 5
    assert set(rep["findings_text"]) == {"en", "cs"} and len(rep["per_game"]["seed"]) == 6
    for lang in ("en", "cs"):
        pdf = project / REPORT / lang / "report.pdf"
        fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True,
                               check=True).stdout
        assert "Helvetica" not in fonts and "CharisSIL" in fonts  # every font embedded
    en, cs = (pdf_text(project / REPORT / lang / "report.pdf") for lang in ("en", "cs"))
    for heading in ("What to act on", "Win rate per house", "Elector control at game end",
                    "First player, by house", "Card effects, adjusted for side",
                    "Component sufficiency", "Players and limits", "Frankfurt"):
        assert heading in en
    assert "6 games, seed 3" in en and "6 her, semínko 3" in cs  # the Czech plural (CLDR many)
    for heading in ("Hlavní zjištění", "Kurfiřti na konci hry", "Dostatek komponent", "Trevír"):
        assert heading in cs
    assert "share of games (%)" in en and "podíl her (%)" in cs  # axis titles


def _tables(flowables: list) -> list:
    """Every table of the report's flowables, those kept with their heading included."""
    from reportlab.platypus import KeepTogether, Table
    out = []
    for f in flowables:
        if isinstance(f, Table):
            out.append(f)
        elif isinstance(f, KeepTogether):
            out += _tables(f._content)
    return out


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler (pdftotext)")
def test_report_tables_set_like_the_cards_in_both_languages(project):
    """The Czech editor's second review (nos. 2, 3, 5, 6, 9, 12–14): every column head fits
    its column, so a word is never cut („politick/á“, "politica/l"); the cards are listed in
    the language's alphabetical order (Ř after R, „Jan …“ together); a name starts its row
    with a capital; John's two cards say whose they are; the Czech report has no English."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from cardgen.data.layout import load_layout
    from cardgen.data.load import load
    from cardgen.fonts import register_fonts
    from cardgen.playtest.pdf import HEAD_SIZE, report_flowables
    from cardgen.playtest.words import Words
    from cardgen.tables.glossary import SORT_KEYS
    assert playtest(project, "--games", "2", "--players", "random,random", "--jobs", "1") == 0
    rep = json.loads((project / REPORT / "report.json").read_text(encoding="utf-8"))
    data, _ = load(project)
    files = load_layout(project / "layouts/card.yaml").fonts
    fonts = register_fonts({k: files[k] for k in ("body", "bold")})
    names = {}
    for lang in ("en", "cs"):
        w = Words(data, lang)
        tables = _tables(report_flowables(rep, fonts, w, {}))
        assert len(tables) >= 6
        for t in tables:
            for cell, width, style in zip(t._cellvalues[0], t._colWidths, t._cellStyles[0], strict=True):
                room = width - style.leftPadding - style.rightPadding
                for word in cell.getPlainText().split(" "):  # NBSP binds: "(L / W)" is one word
                    assert stringWidth(word, fonts["body"], HEAD_SIZE) <= room, (lang, word)
        uses = next(t for t in tables if len(t._cellvalues[0]) == 10)
        names[lang] = [row[0] for row in uses._cellvalues[1:]]
        assert names[lang] == sorted(names[lang], key=SORT_KEYS[lang])
        assert all(n[:1].isupper() for n in names[lang])
    cs = [n.replace("\u00a0", " ") for n in names["cs"]]
    assert cs.index("Rudolf II. Falcký") < cs.index("Řád německých rytířů") \
        < cs.index("Štěpán II. Bavorský") < cs.index("Vévodská družina")
    assert cs.index("Ota Habsburský") < cs.index("Papež Benedikt XII.") < cs.index("Petr Žitavský")
    assert cs.index("Jan III. Brabantský") < cs.index("Jan Volek") < cs.index("Janovští kušiníci")
    assert {"Jan Lucemburský (lucemburská karta)", "Jan Lucemburský (wittelsbašská karta)"} <= set(cs)
    assert {"John of Luxembourg (Luxembourg card)", "John of Luxembourg (Wittelsbach card)"} \
        <= {n.replace("\u00a0", " ") for n in names["en"]}
    text = {lang: " ".join(pdf_text(project / REPORT / lang / "report.pdf").split())
            for lang in ("en", "cs")}
    for word in ("politická", "vojenská", "posílení", "hry s kartou (L / W)", "zahrání na hru"):
        assert word in text["cs"].replace("\u00a0", " "), word
    for word in ("political", "military", "countered", "games used (L / W)"):
        assert word in text["en"].replace("\u00a0", " "), word
    assert "seed" not in text["cs"].lower() and "engine" not in text["cs"].lower()
    assert "2 hry, semínko 1" in text["cs"].replace("\u00a0", " ")
    assert "začíná proto často ta strana, která je pozadu" in text["cs"]
    assert "často prohrává" not in text["cs"]
    assert "Připomínací žetony „Zablokováno“" in text["cs"]


def _figures(first_player: dict) -> dict:
    """A report's figures as report.aggregate makes them: Luxembourg wins 78 %, holds Trier in
    nearly every game; one card without a certain effect; the given first-player section."""
    return {"games": 400,
            "houses": {"luxembourg": {"rate": 0.78, "ci95": [0.74, 0.82], "n": 400},
                       "wittelsbach": {"rate": 0.22, "ci95": [0.18, 0.26], "n": 400}},
            "elector_control": {"trier": {"luxembourg": {"rate": 0.98, "ci95": [0.96, 0.99]},
                                          "wittelsbach": {"rate": 0.01, "ci95": [0.0, 0.03]}},
                                "saxony": {"luxembourg": {"rate": 0.5, "ci95": [0.45, 0.55]},
                                           "wittelsbach": {"rate": 0.5, "ci95": [0.45, 0.55]}}},
            "card_effects": {"noise": {"effect": 0.05, "ci95": [-0.02, 0.12], "n": 400,
                                       "beyond_noise": False, "beyond_noise_all_cards": False,
                                       "by_side": {}}},
            "components": {"kinds": {}}, "first_player": first_player}


def _first_player(lux_first_wins: int, lux_other_wins: int) -> dict:
    """report.first_player of 400 games: Luxembourg plays the last round first in 200 of them
    (Wittelsbach always starts round 1, and plays both rounds of the other 200) and wins
    ``lux_first_wins`` of those and ``lux_other_wins`` of the others."""
    from cardgen.engine.rules import LUX, WIT
    from cardgen.playtest.report import first_player
    records = [{"firsts": [WIT, LUX], "winner": LUX if i < lux_first_wins else WIT} for i in range(200)]
    records += [{"firsts": [WIT, WIT], "winner": LUX if i < lux_other_wins else WIT} for i in range(200)]
    return first_player(records)


def test_findings_and_card_effects_follow_the_figures():
    """The findings page says what the numbers say: an elector one side holds in every game is
    a finding; a card whose interval crosses 0 is never ranked."""
    from cardgen.playtest.findings import findings
    found = findings(_figures(_first_player(100, 96)))
    kinds = [f["kind"] for f in found]
    assert kinds[0] == "electors_held" and found[0]["sides"][0]["electors"][0]["country"] == "trier"
    assert "house" in kinds and "no_card_effect" in kinds and len(found) == 3


def test_a_certain_first_player_difference_is_one_finding_per_condition_in_both_languages():
    """Luxembourg wins 80 % of the games it plays the last round first and 30 % of the others.
    The figure report.first_player computes from the games is the same fact for both sides
    (one plays the last round first exactly when the other does not), so the findings page
    says it once per condition, in words, with the difference and its interval."""
    from cardgen.data.load import load
    from cardgen.playtest.findings import findings
    from cardgen.playtest.sentences import finding_text
    from cardgen.playtest.words import Words
    from tests.conftest import ROOT
    rep = _figures(_first_player(160, 60))
    last = rep["first_player"]["last_round"]
    lux = last["luxembourg"]["difference"]
    assert lux["effect"] == pytest.approx(0.5, abs=0.01) and lux["ci95"][0] > 0.3
    assert last["wittelsbach"]["difference"]["effect"] == lux["effect"]  # one fact, two sides
    found = [f for f in findings(rep) if f["kind"] == "first_player"]
    assert [(f["side"], f["condition"]) for f in found] == [
        ("luxembourg", "last_round"), ("wittelsbach", "more_rounds")]
    first = found[0]
    assert first["effect"] == lux["effect"] and first["ci95"] == lux["ci95"]
    data, _ = load(ROOT)
    lo, hi = (round(100 * x) for x in lux["ci95"])
    text = {lang: finding_text(Words(data, lang), first, {}).replace("\u00a0", " ")
            for lang in ("en", "cs")}
    assert text["en"] == ("Luxembourg wins 50 pp more often when it plays first in the last round "
                          f"[{lo}–{hi}]; an association, as the house behind chooses who plays "
                          "first (4.1).")
    assert text["cs"].startswith("Lucemburkové vyhrávají o 50 p. b. častěji, když začínají v posledním kole")
    assert f"[{lo}–{hi}]; jde o souvislost" in text["cs"] and text["cs"].endswith("(4.1).")


def test_first_player_findings_rank_below_the_cards_and_never_crowd_them_out():
    """A first-player association (Cohen's h about 1) is larger than any card's effect, but
    a designer can act on the card: the card findings come first, and of five findings at
    most one states each first-player condition."""
    from cardgen.playtest.findings import findings
    rep = _figures(_first_player(160, 60))
    by_side = {"luxembourg": {"win_rate_used": 0.6, "games_used": 200},
               "wittelsbach": {"win_rate_used": 0.4, "games_used": 200}}
    rep["card_effects"] = {
        "strong": {"effect": 0.1, "ci95": [0.05, 0.15], "n": 400, "beyond_noise": True,
                   "beyond_noise_all_cards": True, "by_side": by_side},
        "weak": {"effect": -0.08, "ci95": [-0.13, -0.03], "n": 400, "beyond_noise": True,
                 "beyond_noise_all_cards": True, "by_side": by_side}}
    rep["components"] = {"kinds": {"vote_markers:wittelsbach": {
        "short": {"rate": 0.5, "ci95": [0.45, 0.55]}, "peak": 30, "printed": 12}}}
    kinds = [f["kind"] for f in findings(rep)]
    assert len(kinds) == 5 and {"card_stronger", "card_weaker", "house", "electors_held",
                                "component_short"} == set(kinds)  # nothing crowded out
    del rep["components"]["kinds"]["vote_markers:wittelsbach"]
    found = findings(rep)
    kinds = [f["kind"] for f in found]
    assert kinds[-1] == "first_player" and kinds.count("first_player") == 1
    assert kinds.index("card_stronger") < kinds.index("first_player")
    assert kinds.index("card_weaker") < kinds.index("first_player")


@pytest.mark.parametrize("lux_first_wins, lux_other_wins", [
    (100, 96),   # 50 % against 48 %: the interval holds 0
    (111, 89),   # 56 % against 45 %: beyond 0 on its own, not for the three differences at once
])
def test_a_first_player_difference_within_noise_is_no_finding(lux_first_wins, lux_other_wins):
    from cardgen.playtest.findings import findings
    from cardgen.playtest.intervals import Z95, z_family
    rep = _figures(_first_player(lux_first_wins, lux_other_wins))
    d = rep["first_player"]["last_round"]["luxembourg"]["difference"]
    half = (d["ci95"][1] - d["ci95"][0]) / 2
    assert abs(d["effect"]) <= half * z_family(3) / Z95  # the figure is real, and in the noise
    assert "first_player" not in [f["kind"] for f in findings(rep)]


def test_same_seed_same_bytes_whatever_the_jobs(project, capsys):
    paths = [project / REPORT / p for p in ("report.json", "en/report.pdf", "cs/report.pdf")]
    args = ["--games", "6", "--seed", "5", "--players", "random,greedy"]
    assert playtest(project, *args, "--jobs", "1") == 0
    one = [p.read_bytes() for p in paths]
    assert playtest(project, *args, "--jobs", "2") == 0
    assert [p.read_bytes() for p in paths] == one
    assert playtest(project, "--games", "6", "--seed", "6", "--players", "random,greedy",
                    "--jobs", "1") == 0
    assert paths[0].read_bytes() != one[0]


def test_compare_pairs_games_by_seed_and_lists_only_changes_beyond_noise(project, tmp_path, capsys):
    args = ["--games", "40", "--seed", "2", "--players", "random,random", "--jobs", "1",
            "--lang", "en"]
    assert playtest(project, *args) == 0
    old = tmp_path / "old.json"
    old.write_bytes((project / REPORT / "report.json").read_bytes())
    assert playtest(project, *args, "--compare", str(old)) == 0  # the same data: nothing moved
    rep = json.loads((project / REPORT / "report.json").read_text(encoding="utf-8"))
    assert rep["compare"]["paired_games"] == 40 and rep["compare"]["changes"] == []
    head = rep["compare"]["headline"]  # stated even when nothing moved
    assert head["change"] == 0 and not head["beyond_noise"] and head["interval"] == [0, 0]
    # fewer vote markers printed: the same games, but the markers now run short
    replace_in(project / "card_data/components.yaml", "vote_markers: 40", "vote_markers: 2")
    capsys.readouterr()
    assert playtest(project, *args, "--compare", str(old)) == 0
    out = capsys.readouterr().out
    rep = json.loads((project / REPORT / "report.json").read_text(encoding="utf-8"))
    changes = {c["figure"]: c for c in rep["compare"]["changes"]}
    short = changes["short:vote_markers:luxembourg"]
    assert short["change"] > 0 and short["interval"][0] > 0 and short["old"] == 0
    assert "win:luxembourg" not in changes  # the games themselves did not change
    assert "Luxembourg’s vote markers" in out
    assert "Changes against the old report" in pdf_text(project / REPORT / "en/report.pdf")


def test_a_large_change_of_the_win_rate_is_always_listed_with_its_interval(project, tmp_path, capsys):
    """Louis IV at 9/9 instead of 3/2 on 40 paired games: Luxembourg's win rate moves by far
    more than 5 pp. It is tested first and on its own, so the 139 other figures compared
    cannot hide it (with one interval over all 140 figures it was not listed)."""
    args = ["--games", "40", "--seed", "2", "--players", "random,random", "--jobs", "1"]
    assert playtest(project, *args, "--lang", "en") == 0
    old = tmp_path / "old.json"
    old.write_bytes((project / REPORT / "report.json").read_bytes())
    replace_in(project / CARDS / "wittelsbach.yaml", "    political: 3\n    military: 2\n",
               "    political: 9\n    military: 9\n")  # the first card: Louis IV
    capsys.readouterr()
    assert playtest(project, *args, "--compare", str(old)) == 0
    out = capsys.readouterr().out
    diff = json.loads((project / REPORT / "report.json").read_text(encoding="utf-8"))["compare"]
    head = diff["headline"]
    lo, hi = head["interval"]
    assert head["figure"] == "win:luxembourg" and head["change"] <= -0.05 and hi < 0
    assert head["beyond_noise"] and diff["figures_compared"] == 139
    from cardgen.playtest.intervals import Z95, z_family
    assert abs(head["change"]) < (hi - lo) / 2 * z_family(140) / Z95  # Bonferroni hid it
    assert f"Luxembourg wins: {head['old']:.3f} → {head['new']:.3f} ({head['change']:+.3f}" in out
    assert f"{len(diff['changes'])} of 139 other figures beyond the noise" in out
    en, cs = (pdf_text(project / REPORT / lang / "report.pdf").replace("\u00a0", " ")
              for lang in ("en", "cs"))
    old_pct, new_pct = (f"{100 * head[k]:.1f} %" for k in ("old", "new"))
    assert f"Luxembourg wins: {old_pct} → {new_pct}" in " ".join(en.split())
    assert "a change beyond the noise" in " ".join(en.split())
    assert (f"Lucemburkové vyhrávají: {old_pct} → {new_pct}".replace(".", ",")
            in " ".join(cs.split()))
    assert "změna mimo šum" in " ".join(cs.split())


def test_compare_with_a_report_without_per_game_columns(project, tmp_path, capsys):
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"houses": {}}), encoding="utf-8")
    assert playtest(project, "--games", "2", "--players", "random,random", "--jobs", "1",
                    "--compare", str(old)) == 1
    err = capsys.readouterr().err
    assert "compare-old-format" in err and "Traceback" not in err


def test_one_language(project):
    assert playtest(project, "--games", "2", "--players", "random,random", "--jobs", "1",
                    "--lang", "cs") == 0
    assert (project / REPORT / "cs/report.pdf").exists()
    assert not (project / REPORT / "en/report.pdf").exists()


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


@pytest.mark.parametrize(("args", "says"), [(["--players", "greedy"], "--players"),
                                            (["--players", "clever,greedy"], "--players"),
                                            (["--lang", "de"], "--lang")])
def test_bad_arguments(project, capsys, args, says):
    assert playtest(project, *args) == 2
    assert says in capsys.readouterr().err


def test_missing_report_words_are_located_errors_before_any_game(project, capsys):
    """A translator's gap names every missing label of the language at once."""
    cs = project / "card_data/text/cs.yaml"
    replace_in(cs, "  ends: Jak hry končí\n", "")
    replace_in(cs, "  first_head: [rod, začíná, ", "  first_head: [")
    assert playtest(project, "--games", "2", "--players", "random,random", "--jobs", "1") == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "cs.yaml" in err
    assert "playtest.ends" in err and "playtest.first_head must list 5 column heads" in err
    assert not (project / REPORT / "report.json").exists()


def test_compare_without_common_seeds_uses_independent_samples(project, tmp_path):
    args = ["--games", "6", "--players", "random,random", "--jobs", "1", "--lang", "en"]
    assert playtest(project, *args, "--seed", "2") == 0
    old = tmp_path / "old.json"
    old.write_bytes((project / REPORT / "report.json").read_bytes())
    assert playtest(project, *args, "--seed", "3", "--compare", str(old)) == 0
    rep = json.loads((project / REPORT / "report.json").read_text(encoding="utf-8"))
    assert rep["compare"]["paired_games"] == 0 and rep["compare"]["games"] == [6, 6]
    assert "No common seeds" in pdf_text(project / REPORT / "en/report.pdf")


def test_the_ladder_is_in_the_appendix_in_both_languages(project, capsys):
    """--ladder plays seat-swapped pairs per rung (issue 27: search : greedy, greedy :
    random) and the report's appendix shows each rung with its interval."""
    assert playtest(project, "--games", "2", "--players", "random,random", "--ladder", "1",
                    "--jobs", "1") == 0
    rep = json.loads((project / REPORT / "report.json").read_text(encoding="utf-8"))
    rungs = [(r["players"], r["games"]) for r in rep["ladder"]]
    assert rungs == [(["search", "greedy"], 2), (["greedy", "random"], 2)]
    assert all(0 <= r["wins"] <= 2 and r["ci95"][0] <= r["rate"] <= r["ci95"][1]
               for r in rep["ladder"])
    assert "The players against each other" in pdf_text(project / REPORT / "en" / "report.pdf")
    assert "Hráči proti sobě" in pdf_text(project / REPORT / "cs" / "report.pdf")


def test_games_out_of_range_is_a_usage_error(project, capsys):
    with pytest.raises(SystemExit) as caught:
        playtest(project, "--games", "0")
    assert caught.value.code == 2 and "--games: expected a whole number from 1" in \
        capsys.readouterr().err
