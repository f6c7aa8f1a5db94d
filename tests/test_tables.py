"""The rulebook tables (`cardgen tables`, issue 18): 1.4, 2.1, 7.2, 8.0 and 11.5 from the data.

Totals are computed here straight from the YAML (not through cardgen's loader) and
compared with what the PDF prints; data changes must change the right cells only.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from cardgen.build.tables import tables
from cardgen.cli import main
from cardgen.data.load import load
from cardgen.errors import CardgenError
from cardgen.tables import facts
from cardgen.tables.glossary import czech_key
from tests.conftest import ROOT, copy_project, replace_in

LANGS = ("en", "cs")
NB = "\u00a0"

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                reason="pdftotext (poppler-utils) is not installed")


def make(project: Path) -> dict[str, dict[str, str]]:
    """Write the tables; return lang -> {"md", "html", "pdf" (pdftotext -layout)}."""
    report = tables(project)
    assert report.written or report.skipped
    out = {}
    for lang in LANGS:
        folder = project / "output" / lang
        pdf = {mode: subprocess.run(["pdftotext", f"-{mode}", str(folder / "rules-tables.pdf"),
                                     "-"], capture_output=True, check=True, text=True).stdout
               for mode in ("layout", "raw")}
        out[lang] = {"md": (folder / "rules-tables.md").read_text(encoding="utf-8"),
                     "html": (folder / "rules-tables.html").read_text(encoding="utf-8"),
                     "pdf": pdf["layout"].replace(NB, " "),  # rows on lines
                     "raw": " ".join(pdf["raw"].replace(NB, " ").split())}  # cells in order
    return out


@pytest.fixture(scope="module")
def shipped(tmp_path_factory) -> dict[str, dict[str, str]]:
    return make(copy_project(tmp_path_factory.mktemp("tables") / "project"))


def raw(name: str) -> dict:
    with (ROOT / "card_data" / name).open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def labels(lang: str) -> dict:
    return raw(f"text/{lang}.yaml")["tables"]


# --- totals, computed independently ---------------------------------------------------

def expected_counts() -> dict[str, int]:
    """Every inventory count from the YAML, by the inventory's label key."""
    cards = [c for f in sorted((ROOT / "card_data" / "cards").glob("*.yaml"))
             for c in yaml.safe_load(f.read_text(encoding="utf-8"))["cards"]]

    def copies(pick) -> int:
        return sum(c.get("copies", 1) for c in cards if pick(c))

    events = ("event", "battle_event", "end_event")
    q = raw("components.yaml")["tokens"]
    shields = len(raw("shields.yaml"))
    currencies = [c for c in raw("currencies.yaml") if c != "any"]
    out = {
        "luxembourg_starters": copies(lambda c: c["deck"] == "luxembourg" and c["kind"] != "john"),
        "wittelsbach_starters": copies(lambda c: c["deck"] == "wittelsbach" and c["kind"] != "john"),
        "john_cards": copies(lambda c: c["kind"] == "john"),
        "market_cards": copies(lambda c: c["deck"] == "market" and c["kind"] not in events),
        "historical_events": copies(lambda c: c["kind"] == "event"),
        "battle_events": copies(lambda c: c["kind"] == "battle_event"),
        "end_events": copies(lambda c: c["kind"] == "end_event"),
        "physical_cards": copies(lambda c: True),
        "board": 1,
        "shield_markers": shields * q["shield_markers"],
        "round_marker": q["round_marker"],
        "loyalty_marker": q["loyalty_marker"],
        "card_play_marker": q["card_play_marker"],
        "vote_markers": 2 * q["vote_markers"],
        "influence": 2 * sum(q["influence"].values()),
        "military": 2 * sum(q["military"].values()),
        "currency": len(currencies) * sum(q["currency"].values()),
        "reminders": sum(r["count"] for r in q["reminders"]),
    }
    out["tokens"] = sum(v for k, v in out.items() if k not in (
        "board", "physical_cards", *[k for k in out if k.endswith(("_starters", "_cards", "_events"))]))
    return out


def printed(text: str, *cells: str) -> int:
    """The count printed after ``cells`` at the start of a table row (pdftotext -layout)."""
    label = r"\s+".join(re.escape(c) for c in cells)
    found = re.search(rf"^\s*{label}\s+(\d+)\*?\s", text, re.M)
    assert found, f"no row {label!r} in the PDF"
    return int(found.group(1))


@pytest.mark.parametrize("lang", LANGS)
def test_inventory_totals_printed_in_the_pdf_are_the_data_s(shipped, lang):
    """2.1: every count (cards per deck and kind with copies, tokens) as the data says."""
    want = expected_counts()
    words = labels(lang)["inventory"]
    got = {key: printed(shipped[lang]["pdf"], words[key]) for key in want}
    assert got == want
    game = raw("game.yaml")["counts"]
    assert got["physical_cards"] == game["physical_cards"] == 82
    assert got["market_cards"] == game["market_cards"]
    assert got["luxembourg_starters"] == game["luxembourg_starters"]


@pytest.mark.parametrize("lang", LANGS)
def test_countries_and_shields_printed_in_the_pdf(shipped, lang):
    """7.2 stability per country and 11.5 six shields with their holders, in both languages."""
    text = shipped[lang]["pdf"]
    places = raw("places.yaml")
    for pid, country in places["countries"].items():
        name = country["name"][lang].removeprefix("the ")
        name = name[:1].upper() + name[1:]
        kind = raw("components.yaml")["labels"][country["kind"]][lang]
        assert printed(text, name, kind) == country["stability"], pid
    flat = shipped[lang]["raw"]
    for sid, shield in raw("shields.yaml").items():
        name = shield["name"][lang]
        assert name[:1].upper() + name[1:] in flat, sid
    assert "7.2 " + labels(lang)["countries"]["title"] in flat
    assert "11.5 " + labels(lang)["shields"]["title"] in flat
    assert "1.4 " + labels(lang)["key_terms"]["title"] in flat


# --- the three formats carry the same content -----------------------------------------

def md_words(md: str) -> list[str]:
    lines = [ln for ln in md.splitlines() if not re.fullmatch(r"\|[-:|]+\|", ln)]
    text = re.sub(r"\\(.)", r"\1", "\n".join(lines).replace("**", ""))
    return re.sub(r"^#+ |\|", " ", text, flags=re.M).replace(NB, " ").split()


def html_words(page: str) -> list[str]:
    body = page.split("<body>", 1)[1]
    return html.unescape(re.sub(r"<sup[^>]*>", "", re.sub(r"</?(?!sup)[^>]+>", " ", body))
                         .replace("</sup>", "")).replace(NB, " ").split()


@pytest.mark.parametrize("lang", LANGS)
def test_markdown_html_and_pdf_carry_the_same_words(shipped, lang):
    out = shipped[lang]
    md, page, pdf = Counter(md_words(out["md"])), Counter(html_words(out["html"])), Counter(
        out["pdf"].split())
    assert md == page
    extra = pdf - md
    for table in raw(f"text/{lang}.yaml")["tables"].values():  # a head repeated on a new page
        head = Counter(" ".join(table["head"]).split()) if isinstance(table, dict) \
            and "head" in table else Counter()
        while head and not head - extra:
            extra -= head
    assert not md - pdf and not extra, (md - pdf, extra)


# --- data changes change the right cells and nothing else --------------------------------

def md_rows(md: str) -> dict[str, str]:
    return {ln.split("|")[1].strip(): ln for ln in md.splitlines() if ln.startswith("| ")}


def changed(before: dict[str, dict[str, str]], after: dict[str, dict[str, str]], lang: str
            ) -> tuple[set[str], Counter, Counter]:
    """Rows (by first cell) whose Markdown changed, and the PDF's words added and removed."""
    rb, ra = md_rows(before[lang]["md"]), md_rows(after[lang]["md"])
    rows = {k for k in rb.keys() | ra.keys() if rb.get(k) != ra.get(k)}
    wb, wa = Counter(before[lang]["pdf"].split()), Counter(after[lang]["pdf"].split())
    return rows, wa - wb, wb - wa


def test_a_card_added_to_the_market_changes_its_row_and_the_total(shipped, project):
    replace_in(project / "card_data" / "cards" / "market.yaml", "  - id: nuremberg-merchants\n",
               "  - id: cologne-merchants\n    number: 99\n    deck: market\n    kind: card\n"
               "    name: {en: Cologne Merchants, cs: Kolínští kupci}\n    political: 1\n"
               "    military: 0\n    yield: [german]\n    cost: [german, german]\n"
               "    prototype: true\n\n  - id: nuremberg-merchants\n")
    game = project / "card_data" / "game.yaml"
    replace_in(game, "physical_cards: 82", "physical_cards: 83")
    replace_in(game, "market_cards: 44", "market_cards: 45")
    # the rulebook fixes the market's size (3.42): a designer changing it changes the fact too
    replace_in(project / "card_data" / "rules" / "facts.yaml", "counts: {market_cards: 44}",
               "counts: {market_cards: 45}")
    after = make(project)
    for lang, new_name in (("en", "Cologne Merchants"), ("cs", "Kolínští kupci")):
        words = labels(lang)["inventory"]
        rows, added, removed = changed(shipped, after, lang)
        assert rows == {words["market_cards"], "**" + words["physical_cards"] + "**"}
        assert printed(after[lang]["pdf"], words["market_cards"]) == 45
        assert printed(after[lang]["pdf"], words["physical_cards"]) == 83
        assert added == Counter(f"{new_name}, 45 83".split())  # listed before the last card
        assert removed == Counter({"44": 1, "82": 1})


def test_a_changed_stability_changes_one_cell(shipped, project):
    replace_in(project / "card_data" / "places.yaml", "    stability: 2\n", "    stability: 5\n")
    after = make(project)
    for lang in LANGS:
        rows, added, removed = changed(shipped, after, lang)
        saxony = raw("places.yaml")["countries"]["saxony"]["name"][lang]
        assert rows == {saxony}
        assert (added, removed) == (Counter({"5*": 1}), Counter({"2*": 1}))


def test_a_moved_shield_changes_its_row_only(shipped, project):
    path = project / "card_data" / "cards" / "market.yaml"
    court, curia = "your Court", "your half of the Curia"
    for old, new in (
        ("shield: casimir-iii, location: your-court", "shield: casimir-iii, location: your-curia"),
        (f"place :shield-casimir-iii: in {court}.", f"place :shield-casimir-iii: in {curia}."),
        ("polož :shield-casimir-iii: do svého dvora.", "polož :shield-casimir-iii: do své poloviny kurie."),
        ("shield: casimir-iii, location: your-court", "shield: casimir-iii, location: your-curia"),
        (f"If :shield-casimir-iii: is in {court}:", f"If :shield-casimir-iii: is in {curia}:"),
        ("Je-li :shield-casimir-iii: ve tvém dvoře:", "Je-li :shield-casimir-iii: ve tvé polovině kurie:"),
    ):
        replace_in(path, old, new)
    after = make(project)
    for lang, shield, place in (("en", "Casimir III shield", "Your half of the Curia"),
                                ("cs", "Štít Kazimíra\u00a0III.", "Tvá polovina kurie")):
        rows, _added, _removed = changed(shipped, after, lang)
        assert rows == {shield}
        row = md_rows(after[lang]["md"])[shield]
        assert f"| {place} |" in row


# --- collation, validation, assertions, determinism ---------------------------------------

def test_czech_key_terms_follow_czech_collation(shipped):
    md = shipped["cs"]["md"]
    section = md.split("## 1.4", 1)[1].split("## 2.1", 1)[0]
    terms = [ln.split("|")[1].strip() for ln in section.splitlines() if ln.startswith("| ")][1:]
    assert terms == sorted(terms, key=czech_key)
    # č after c, ř after r, š after s: not code-point order
    assert terms.index("čin") < terms.index("dobírací balíček")
    assert terms.index("ruka") < terms.index("řada trhu") < terms.index("stabilita") < terms.index("štít")
    assert sorted(["chrám", "hrad", "cena", "čin", "i"], key=czech_key) == [
        "cena", "čin", "hrad", "chrám", "i"]


def test_key_terms_print_one_row_per_headword(shipped):
    """Issue 13: "získat" (acquire 6.2, gain 2.4) is one row with numbered senses, and the
    card label "Při získání:" is the headword "při získání"."""
    rows = md_rows(shipped["cs"]["md"].split("## 1.4", 1)[1].split("## 2.1", 1)[0])
    assert rows["získat"].count("| získat |") == 1
    assert "| 1. Vzít si kartu" in rows["získat"] and " 2. Vzít si měnu" in rows["získat"]
    assert rows["získat"].rstrip().endswith("| 6.2, 2.4, 7.31 |")
    assert "při získání" in rows and "Při získání:" not in shipped["cs"]["md"]
    assert "when acquired" in md_rows(shipped["en"]["md"])


def test_a_rule_number_that_is_not_one_is_reported_at_its_line(project, capsys):
    line = replace_in(project / "card_data" / "glossary.yaml", 'rule: "5.3"', "rule: five")
    code = main(["--project", str(project), "check"])
    out = capsys.readouterr()
    assert code == 1
    assert f"card_data/glossary.yaml:{line}:" in out.out + out.err
    assert "must be a rule number" in out.out + out.err


def test_a_missing_table_label_stops_the_tables_with_its_file(project, capsys):
    replace_in(project / "card_data" / "text" / "cs.yaml", "    title: Sedm zemí\n", "")
    code = main(["--project", str(project), "tables"])
    out = capsys.readouterr().err
    assert code == 1
    assert "card_data/text/cs.yaml" in out and "countries.title" in out
    assert not (project / "output" / "cs" / "rules-tables.pdf").exists()


def test_inventory_totals_disagreeing_with_game_yaml_or_tokens_are_errors():
    data, _ = load(ROOT)
    tokens = raw("components.yaml")["tokens"]
    printed_tokens = expected_counts()["tokens"]
    assert facts.inventory(data, tokens, printed_tokens).card_total == 82
    with pytest.raises(CardgenError, match="token sheets print"):
        facts.inventory(data, tokens, printed_tokens + 1)
    wrong = replace(data, game=replace(data.game, counts={**data.game.counts, "physical_cards": 81}))
    with pytest.raises(CardgenError, match=r"the cards add up to 82, game\.yaml expects 81"):
        facts.inventory(wrong, tokens, printed_tokens)


def test_tables_are_deterministic_and_incremental(shipped, project, capsys):
    assert main(["--project", str(project), "tables", "--lang", "cs"]) == 0
    first = (project / "output" / "cs" / "rules-tables.pdf").read_bytes()
    capsys.readouterr()
    assert main(["--project", str(project), "tables", "--lang", "cs"]) == 0
    assert "3 unchanged" in capsys.readouterr().out
    assert (project / "output" / "cs" / "rules-tables.pdf").read_bytes() == first
    assert not (project / "output" / "en").exists()


def test_a_forbidden_variant_in_a_definition_is_an_error_at_its_line(project, capsys):
    """The glossary decides every word (VLA-61): 'cancel' is not the counter verb."""
    line = replace_in(project / "card_data" / "glossary.yaml", "so a matching Deed resolves",
                      "to cancel a matching Deed, which resolves")
    assert main(["--project", str(project), "tables"]) == 1
    err = capsys.readouterr().err
    assert f"card_data/glossary.yaml:{line}:" in err and "'cancel' is a forbidden variant" in err


@pytest.mark.parametrize(("lang", "sentence"), [
    ("en", "Heinrich of Virneburg yields no Church."),
    ("cs", "Jindřich z\u00a0Virneburgu už nevynáší církevní měnu.")])
def test_a_shield_effect_a_card_states_is_listed_once(shipped, lang, sentence):
    # Clement VI Elected (6.42) and Heinrich's own line (5.52) say the same: one mention
    row = next(ln for ln in shipped[lang]["md"].splitlines() if "Virneburg" in ln
               and "5.52" in ln)
    assert row.replace("\u00a0", " ").count(sentence.replace("\u00a0", " ")) == 1, row


@pytest.mark.parametrize(("lang", "first"), [
    ("en", ["1.4 Key terms", "Term Definition Rule", "acquire"]),
    ("cs", ["1.4 Klíčové pojmy", "Pojem Význam Pravidlo", "balíček trhu"]),
])
def test_each_table_starts_under_its_heading_on_its_page(shipped, lang, first):
    """Issue 41, review no. 1: a heading kept with its whole table moved 1.4 (longer than a
    page) to page 2, leaving page 1 with three lines, and 2.1 alone on page 4 (5 pages)."""
    pages = [[" ".join(ln.split()) for ln in page.splitlines() if ln.strip()]
             for page in shipped[lang]["pdf"].split("\f")[:-1]]
    assert len(pages) == 4
    one = pages[0]
    at = one.index(first[0])
    assert at <= 3 and one[at + 1] == first[1] and one[at + 2].startswith(first[2])
    assert len(one) > 40  # the key terms fill page 1
    # every heading has its head row and rows on its page: none ends a page
    for page in pages:
        for i, line in enumerate(page):
            if re.match(r"\d+\.\d+ \S", line) and not re.match(r"\d+\.\d+ [\d,.]", line):
                assert len(page) > i + 3, (lang, line)


def test_the_czech_inventory_binds_counts_and_regnal_names(shipped):
    """Nos. 7 and 24: „4 × +1 k politickým číslům“, „Přídavek +2“ and „Kazimír III. Veliký“
    never break inside; the Markdown carries the same U+00A0."""
    md = shipped["cs"]["md"]
    for bound in (f"4{NB}×{NB}+1{NB}k{NB}politickým", f"Přídavek{NB}+2", f"nákup{NB}−2",
                  f"Kazimír{NB}III.{NB}Veliký", f"Fridrich{NB}IV.{NB}Norimberský"):
        assert bound in md, bound
    lines = shipped["cs"]["pdf"].splitlines()
    assert not any(ln.rstrip().endswith(("×", "Přídavek", "nákup", "Kazimír III.", "Fridrich IV."))
                   for ln in lines)


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "chosen by the side controlling fewer electors"),
    ("cs", "určuje ji strana, která ovládá méně kurfiřtů, a v 1. kole"),
])
def test_the_first_player_is_defined_in_rule_4_1_s_words(shipped, lang, said):
    assert said in shipped[lang]["raw"]
    assert "s méně kurfiřty" not in shipped[lang]["raw"]
