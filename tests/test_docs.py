"""The README and the manual in docs/ stay true: the README is short, every relative link
resolves, every `cardgen …` command they show parses with the CLI, the commands page
names every option, and the "Add a card" how-to, followed on a copy of the project,
leaves `cardgen check` clean. (`mkdocs build --strict` in scripts/test.sh checks the
manual's anchors and navigation; these tests need no MkDocs.)"""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from cardgen.cli import _parser, main
from tests.conftest import ROOT, replace_in
from tests.test_readme_commands import _actions

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
#: The Markdown a reader meets: the README, the manual, and the READMEs it points to.
MARKDOWN = [ROOT / "README.md", *PAGES, ROOT / "bench" / "README.md"]
#: Words a page leaves to the reader, as the CLI would be given them.
FILLED = {"FILE…": "output/en/print-shop.pdf", "FILE": "output/po/cs.po", '"X;Y"': "1.5;-0.5",
          "X;Y": "1.5;-0.5", "DIR": ".", "SHOP.icc": "shop.icc", "ID,…": "philip-vi"}

FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")


def _prose(text: str) -> str:
    """The text outside fenced blocks and code spans (where links are links)."""
    return SPAN.sub("", FENCE.sub("", text))


def shown_commands(path: Path) -> tuple[list[str], list[str]]:
    """A page's `cardgen …` commands: the lines of its fenced blocks (whole commands) and
    its code spans (a command named in a sentence, perhaps without its arguments)."""
    text = path.read_text(encoding="utf-8")
    lines = [line.strip() for block in FENCE.findall(text) for line in block.splitlines()]
    spans = SPAN.findall(FENCE.sub("", text))
    return ([c for c in lines if c.startswith("cardgen ")],
            [c for c in spans if c.startswith("cardgen ")])


def _words(command: str) -> list[str]:
    return [FILLED.get(w, w.rstrip("…")) for w in shlex.split(command, comments=True)[1:]]


def _unknown(parser: argparse.ArgumentParser, words: list[str]) -> list[str]:
    """The words of a command named in a sentence that are no command or option of it."""
    for word in words:
        if word.startswith("-"):
            if word.split("=")[0] not in parser._option_string_actions:
                return [word]
            continue
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            return []  # an argument's value
        if word not in subs[0].choices:
            return [word]
        parser = subs[0].choices[word]
    return []


def test_the_readme_reads_in_five_minutes():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200


@pytest.mark.parametrize("page", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    broken = []
    for match in LINK.finditer(_prose(page.read_text(encoding="utf-8"))):
        target = (match.group(1) or match.group(2)).split("#", 1)[0]
        if not target or re.match(r"[a-z]+:", target):
            continue  # an anchor on the same page (MkDocs checks those), or a web address
        if not (page.parent / target).exists():
            broken.append(target)
    assert broken == []


def test_every_command_the_docs_show_parses_with_the_cli():
    parser = _parser()
    pages = [ROOT / "README.md", *PAGES]
    whole = [(page, c) for page in pages for c in shown_commands(page)[0]]
    named = [(page, c) for page in pages for c in shown_commands(page)[1]]
    assert len(whole) >= 60 and len(named) >= 40
    refused = []
    for page, command in whole:
        try:
            args = parser.parse_args(_words(command))
        except SystemExit:
            refused.append(f"{page.relative_to(ROOT)}: {command}")
            continue
        assert args.command, command
    for page, command in named:
        refused += [f"{page.relative_to(ROOT)}: {command}: {word}"
                    for word in _unknown(parser, _words(command))]
    assert refused == []


def _sections(text: str) -> dict[str, str]:
    """The commands page's sections by their heading's command ("cardgen po export")."""
    parts = re.split(r"^#{2,3} `(cardgen [a-z ]+)`\n", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_the_commands_page_names_every_command_and_option():
    sections = _sections((DOCS / "reference" / "commands.md").read_text(encoding="utf-8"))
    missing = []
    for path, action in _actions(_parser()):
        if path == "cardgen" or action.dest == "project":
            continue  # --project and --version: said once at the top of the page
        names = action.option_strings or [action.metavar or action.dest]
        if isinstance(action, argparse.BooleanOptionalAction):
            names = names[:1]
        section = sections.get(path, "")
        missing += [f"{path} {n}" for n in names if f"`{n}`" not in section]
    assert missing == []


def test_adding_a_market_card_as_the_how_to_says_leaves_check_clean(project, capsys):
    page = (DOCS / "how-to" / "add-a-card.md").read_text(encoding="utf-8")
    record, counts, fact = (b for b in FENCE.findall(page) if b.startswith(("  - id", "counts",
                                                                             "  - rule")))
    market = project / "card_data" / "cards" / "market.yaml"
    market.write_text(market.read_text(encoding="utf-8") + "\n" + record, encoding="utf-8")
    game = project / "card_data" / "game.yaml"
    for line in counts.splitlines()[1:]:
        name, value = line.split("#")[0].split(":")
        replace_in(game, f"{name}: {int(value) - 1} ", f"{name}: {int(value)} ")
    facts = project / "card_data" / "rules" / "facts.yaml"
    quote = re.search(r'quote: "(.*)"', fact).group(1)
    replace_in(facts, re.sub(r"\d+", lambda m: str(int(m.group()) - 1), quote), quote)
    replace_in(facts, "counts: {market_cards: 44}", "counts: {market_cards: 45}")
    assert "counts: {market_cards: 45}" in fact

    assert main(["--project", str(project), "check", "--fix"]) == 0
    capsys.readouterr()
    assert main(["--project", str(project), "check"]) == 0
    out = capsys.readouterr().out
    assert " 0 errors" in out and "brno-weavers" not in out.split("== data ==")[0]


def test_a_changed_value_is_written_into_both_texts_as_the_how_to_says(project, capsys):
    """how-to/change-values.md: an effect's number changed is one text-differs; the line's
    texts deleted, `check --fill` writes both languages and the Czech turns fuzzy."""
    page = (DOCS / "how-to" / "change-values.md").read_text(encoding="utf-8")
    assert "{op: draw, amount: 2}" in page and "cardgen check --fill" in page
    market = project / "card_data" / "cards" / "market.yaml"
    text = market.read_text(encoding="utf-8")
    start = text.index("  - id: prague-burghers")
    record = text[start:text.index("\n\n", start)]
    changed = record.replace("{op: draw, amount: 1}", "{op: draw, amount: 2}")
    market.write_text(text.replace(record, changed), encoding="utf-8")
    assert main(["--project", str(project), "check"]) == 1
    assert "error[text-differs] card prague-burghers" in capsys.readouterr().out

    without = re.sub(r"\n      text:\n        en: .*\n        cs: .*", "", changed)
    market.write_text(text.replace(record, without), encoding="utf-8")
    assert main(["--project", str(project), "check", "--fill"]) == 0
    assert "Draw 2 cards." in capsys.readouterr().out
    assert main(["--project", str(project), "check"]) == 0
    out = capsys.readouterr().out
    assert "1 fuzzy" in out and "prague-burghers:deed" in out
    assert "Lízni 2\u00a0karty." in market.read_text(encoding="utf-8")  # with its typography


def test_one_card_reworded_with_a_wording_exception_as_the_how_to_says(project, capsys):
    """how-to/reword-a-card.md: the Czech of Charles IV's Deed with the draw first is
    text-differs whose hint offers the exception line; with the page's exception line it
    passes and is listed as reviewed; an exception never relaxes a number (text-meaning)."""
    page = (DOCS / "how-to" / "reword-a-card.md").read_text(encoding="utf-8")
    exception = re.search(r"\n( +wording_exception: .*)\n", page).group(1)
    reworded = re.search(r'\n +cs: "(Lízni .*)"\n', page).group(1)
    cards = project / "card_data" / "cards" / "luxembourg.yaml"
    nbsp = {"2 vlivu": "2\u00a0vlivu", "1 kartu": "1\u00a0kartu"}
    for old, new in nbsp.items():
        reworded = reworded.replace(old, new)
    replace_in(cards, 'cs: "Umísti 2\u00a0vlivu do Čech. Lízni 1\u00a0kartu."', f'cs: "{reworded}"')
    assert main(["--project", str(project), "check"]) == 1
    out = capsys.readouterr().out
    assert "error[text-differs] card charles-iv" in out and "wording_exception" in out

    replace_in(cards, '      text:\n        en: "Place 2 influence in Bohemia. Draw 1 card."',
               f'{exception}\n      text:\n        en: "Place 2 influence in Bohemia. Draw 1 card."')
    assert main(["--project", str(project), "check"]) == 0
    out = capsys.readouterr().out
    assert " 0 errors" in out and "1 reviewed exception" in out and "charles-iv" in out

    replace_in(cards, f'cs: "{reworded}"', f'cs: "{reworded.replace("2", "3")}"')
    assert main(["--project", str(project), "check"]) == 1
    assert "card charles-iv" in capsys.readouterr().out
