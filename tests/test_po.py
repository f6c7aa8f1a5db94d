"""PO export and import: deterministic, lossless round trip, stale entries reported."""

from __future__ import annotations

import re
import subprocess

import pytest
from test_lang_fixtures import CARDS, make_project

from cardgen.data.load import load
from cardgen.translate.po import export_po, import_po, po_bytes


def files(project):
    return {p: p.read_bytes() for p in sorted((project / "card_data").rglob("*.yaml"))}


def export(project, tmp_path):
    data, _ = load(project)
    return export_po(data, tmp_path / "out" / "cs.po", canonical=None)


def test_export_is_deterministic_and_valid(tmp_path):
    project = make_project(tmp_path)
    data, _ = load(project)
    first = po_bytes(data, canonical=None)
    assert po_bytes(load(project)[0], canonical=None) == first
    text = first.decode("utf-8")
    # gettext's placeholders, no made-up date or translator (issue 41, no. 21)
    assert '"POT-Creation-Date: YEAR-MO-DA HO:MI+ZONE\\n"' in text
    assert '"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n"' in text
    assert '"Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n"' in text
    assert "2024-01-01" not in text
    assert ('#. glossary: influence = vliv / vlivu / vlivy\n'
            '#: card_data/cards/test.yaml:30\n'
            'msgctxt "blanche-de-valois:deed"\n'
            'msgid "Place 2 influence in Mainz."\n'
            'msgstr "Umísti 2 vlivy v Mohuči."\n') in text
    assert 'msgctxt "philip-vi:deed.name"\nmsgid "Auld Alliance"\n' in text
    assert len(re.findall(r'^msgctxt "(philip-vi|blanche-de-valois):', text, re.M)) == 5


def test_msgfmt_accepts_the_file(tmp_path):
    path = export(make_project(tmp_path), tmp_path)
    try:
        result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)],
                                capture_output=True, text=True, check=False)
    except FileNotFoundError:
        pytest.skip("msgfmt (gettext) not installed")
    assert result.returncode == 0, result.stderr


def test_round_trip_without_edits_is_byte_identical(tmp_path):
    project = make_project(tmp_path)
    before = files(project)
    report = import_po(project, export(project, tmp_path))
    assert report.ok and report.applied == [] and report.unchanged > 5
    assert files(project) == before


def test_import_writes_only_the_changed_text(tmp_path):
    project = make_project(tmp_path)
    path = export(project, tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace(
        'msgstr "Umísti 2 vlivy v Mohuči."', 'msgstr "Polož 2 vlivy do Mohuče."'), encoding="utf-8")
    card_file = project / "card_data" / "cards" / "test.yaml"
    before = card_file.read_text(encoding="utf-8")
    report = import_po(project, path)
    assert report.ok
    assert report.applied == [
        "card_data/cards/test.yaml:31:13: blanche-de-valois:deed (cs): Polož 2 vlivy do Mohuče."]
    after = card_file.read_text(encoding="utf-8")
    assert after == before.replace('"Umísti 2 vlivy v Mohuči."', '"Polož 2 vlivy do Mohuče."')
    assert load(project)[0].card("blanche-de-valois").line("deed").text.get("cs") == (
        "Polož 2 vlivy do Mohuče.")


def test_import_adds_a_missing_czech_text(tmp_path):
    cards = CARDS.replace("      name: {en: Auld Alliance, cs: Starý spolek}",
                          "      name: {en: Auld Alliance}")
    project = make_project(tmp_path, cards)
    path = export(project, tmp_path)
    text = path.read_text(encoding="utf-8")
    assert 'msgid "Auld Alliance"\nmsgstr ""\n' in text
    path.write_text(text.replace('msgid "Auld Alliance"\nmsgstr ""',
                                 'msgid "Auld Alliance"\nmsgstr "Starý spolek"'), encoding="utf-8")
    report = import_po(project, path)
    assert report.ok, report.format()
    assert (project / "card_data/cards/test.yaml").read_text(encoding="utf-8") == CARDS


def test_stale_fuzzy_and_gone_entries_are_reported_not_applied(tmp_path):
    project = make_project(tmp_path)
    path = export(project, tmp_path)
    text = path.read_text(encoding="utf-8")
    text = text.replace('msgstr "Filip VI."', 'msgstr "Filip Šestý"')
    text = text.replace('msgctxt "philip-vi:deed"\n', '#, fuzzy\nmsgctxt "philip-vi:deed"\n')
    text = text.replace('msgstr "Lízni 2 karty. Posuň Jana o 1 pole ke Karlovi."',
                        'msgstr "Lízni 3 karty."')
    text = text.replace('msgctxt "blanche-de-valois:name"', 'msgctxt "blanche-old:name"')
    path.write_text(text, encoding="utf-8")
    # the English of Philip's name changes after the export
    card_file = project / "card_data" / "cards" / "test.yaml"
    card_file.write_text(card_file.read_text(encoding="utf-8").replace(
        "en: Philip VI,", "en: Philip VI of France,"), encoding="utf-8")
    before = files(project)
    report = import_po(project, path)
    assert [(f.code, f.card, f.message) for f in report.findings] == [
        ("po-stale", "philip-vi",
         "the English of 'philip-vi:name' changed since the export; not applied"),
        ("po-fuzzy", "philip-vi", "'philip-vi:deed' is marked fuzzy; not applied"),
        ("po-gone", "blanche-old", "'blanche-old:name' no longer exists in card_data; not applied"),
    ]
    assert report.findings[0].location.file == str(path)
    assert report.applied == []
    assert files(project) == before
