"""The PO carries its constraints (issue 13, item 3) and every printed string (item 4)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import copy_project

from cardgen.cli import main
from cardgen.data.layout import load_layout
from cardgen.data.load import load
from cardgen.render.card import check_face, spare_characters
from cardgen.wording.compose import compose_faces

NB = "\u00a0"


@pytest.fixture(scope="module")
def shipped(tmp_path_factory) -> tuple[Path, str]:
    project = copy_project(tmp_path_factory.mktemp("po-constraints"))
    assert main(["--project", str(project), "po", "export"]) == 0
    return project, (project / "output" / "po" / "cs.po").read_text(encoding="utf-8")


def entry(text: str, context: str) -> str:
    """The whole PO entry (comments included) of ``context``."""
    at = text.index(f'msgctxt "{context}"\n')
    start = text.rindex("\n\n", 0, at) + 2
    end = text.find("\n\n", at)
    return text[start:end if end > 0 else None]


def test_tokens_are_weblate_placeholders_and_the_budget_is_a_max_length(shipped):
    _, text = shipped
    deed = entry(text, "pierre-de-rosieres:deed")
    flags = re.search(r"^#, (.*)$", deed, re.M).group(1)
    assert flags.startswith('placeholders:":shield-clement-vi:", max-length:')
    room = int(re.search(r"^#\. fits: about (\d+) more characters in the text box at the minimum "
                         r"size \(\d+(?:\.\d+)? pt\)$", deed, re.M).group(1))
    czech = re.search(r'^msgstr "(.*)"$', deed, re.M).group(1)
    assert flags.endswith(f"max-length:{len(czech) + room}")
    label = entry(text, "text:labels.use_cost")
    assert '#, placeholders:"{{ cur(n, \'any\') }}"\n' in label


def test_a_name_entry_says_what_the_card_is_and_who_refers_to_it(shipped):
    _, text = shipped
    name = entry(text, "blanche-de-valois:name")
    assert "#. card name: card, luxembourg deck, number 2\n" in name
    assert "#. referred to by: philip-vi (deed)\n" in name
    assert re.search(r"^#\. fits: about \d+ more characters in the name bar", name, re.M)


def test_glossary_comments_are_one_whole_term_a_line(shipped):
    _, text = shipped
    lines = [ln for ln in text.splitlines() if ln.startswith("#. glossary: ")]
    assert lines
    for line in lines:
        assert line.count(" = ") == 1, line  # one term, never continued on the next line
    assert max(len(ln) for ln in lines) > 79  # long ones are not wrapped either
    assert not any(ln.startswith("#. ") and not ln[3:4].strip() for ln in text.splitlines())


def test_the_budget_is_what_still_fits_at_the_minimum_size(shipped):
    project, _ = shipped
    data, _ = load(project)
    layout = load_layout(project / "layouts" / "card.yaml")
    face = next(f for f in compose_faces(data, "cs", project) if f.card_id == "charles-iv")
    room, _name = spare_characters(face, layout)
    assert 0 < room < 2000
    last = face.lines[-1]

    def with_extra(n: int):
        filler = ("Umísti 2 vlivu do Čech. " * (n // 10 + 2))[:n]
        return replace(face, lines=(*face.lines[:-1], replace(last, text=f"{last.text} {filler}")))

    # an estimate with the card's own words: right to about one line (60 characters at 6.5 pt)
    assert check_face(with_extra(max(room - 60, 0)), layout)[0].fits
    assert not check_face(with_extra(room + 60), layout)[0].fits


@pytest.mark.parametrize("context", [
    "components:labels.legend_bonus", "components:aid.sequence[3]",
    "components:tokens.reminders[0].note", "places:countries.bohemia.forms.elector",
    "places:battlegrounds.tyrol.forms.acc", "places:locations.curia.city",
    "shields:edward-iii.forms.acc", "currencies:church.plural.few", "glossary:nouns.card.few",
    "game:sides.luxembourg.name", "text:labels.glossary_title", "text:labels.glossary_head[0]",
    "card-back:back.title", "sheets:strings.count.few", "sheets:strings.ruler",
])
def test_every_printed_string_is_in_the_po(shipped, context):
    _, text = shipped
    found = entry(text, context)
    assert re.search(r'^msgstr ".+"$', found, re.M), found
    assert re.search(r"^#: (card_data|layouts)/\S+\.yaml:\d+$", found, re.M)


def test_strings_outside_the_cards_import_back_where_they_are_written(shipped, tmp_path, capsys):
    _, text = shipped
    project = copy_project(tmp_path / "project")
    po = project / "output" / "po" / "cs.po"
    po.parent.mkdir(parents=True)
    for old, new in [('msgstr "Konec kola (kroky vpravo)."', 'msgstr "Konec kola (viz vpravo)."'),
                     ('msgstr "Slovníček pojmů"', 'msgstr "Slovník pojmů"'),
                     ('měřit přesně 100\u00a0mm."', 'měřit právě 100\u00a0mm."')]:
        assert old in text
        text = text.replace(old, new, 1)
    po.write_text(text, encoding="utf-8")
    code = main(["--project", str(project), "po", "import", str(po)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.strip().splitlines()[-1].startswith("3 applied, ")
    assert "Konec kola (viz vpravo)." in (project / "card_data/components.yaml").read_text(
        encoding="utf-8")
    assert "glossary_terms: Slovník pojmů" in (project / "card_data/text/cs.yaml").read_text(
        encoding="utf-8")
    assert "měřit právě 100\u00a0mm." in (project / "layouts/sheets.yaml").read_text(
        encoding="utf-8")
    assert main(["--project", str(project), "check"]) == 0
