"""The written-versus-canonical text check, with broken texts built in code."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT, replace_in

from cardgen.check.text import check_texts
from cardgen.data.load import load
from cardgen.errors import Severity
from cardgen.wording.language import NBSP

CARDS = Path("card_data") / "cards"


def findings(project: Path):
    data, load_findings = load(project)
    assert not load_findings, [f.format() for f in load_findings]
    return check_texts(data)


def test_shipped_texts_have_no_findings():
    data, _ = load(ROOT)
    assert [f.format() for f in check_texts(data)] == []


def test_number_changed_in_czech_only(project: Path):
    line = replace_in(project / CARDS / "luxembourg.yaml",
                      f'cs: "Umísti 3{NBSP}vlivu do Trevíru."',
                      f'cs: "Umísti 2{NBSP}vlivu do Trevíru."')
    found = findings(project)
    assert len(found) == 1
    f = found[0]
    assert (f.severity, f.code, f.card, f.lang) == (Severity.ERROR, "text-differs",
                                                     "baldwin-of-trier", "cs")
    assert f.location.file.endswith("luxembourg.yaml") and f.location.line == line
    assert "numbers: written 2, canonical 3" in f.message
    assert "Umísti 2" in f.message and "Umísti 3" in f.message
    assert f.rule == "5.21"


def test_place_name_in_the_wrong_language(project: Path):
    line = replace_in(project / CARDS / "wittelsbach.yaml",
                      f'cs: "Umísti 3{NBSP}vlivu do Braniborska."',
                      f'cs: "Umísti 3{NBSP}vlivu do Brandenburg."')
    found = findings(project)
    assert [(f.code, f.card, f.lang, f.location.line) for f in found] == [
        ("text-differs", "louis-v-of-brandenburg", "cs", line)]
    assert "another language: Brandenburg" in found[0].message


def test_bare_cancel_verbs_are_errors(project: Path):
    path = project / CARDS / "market.yaml"
    cs_line = replace_in(path, f"a{NBSP}zruš kontrou soupeřův", f"a{NBSP}zruš soupeřův")
    en_line = replace_in(path, "to counter a Western Deed", "to cancel a Western Deed")
    found = [f for f in findings(project) if f.code == "forbidden-term"]
    assert sorted((f.card, f.lang, f.location.line) for f in found) == sorted([
        ("elizabeth-richeza", "cs", cs_line), ("jacob-van-artevelde", "en", en_line)])
    assert all(f.rule == "5.6" for f in found)


def test_wording_only_is_an_error_and_a_wording_exception_allows_it(project: Path):
    path = project / CARDS / "wittelsbach.yaml"
    line = replace_in(path, 'en: "Gain 2 German."', 'en: "Now gain 2 German."')
    found = findings(project)
    assert [(f.severity, f.code, f.card, f.location.line) for f in found] == [
        (Severity.ERROR, "text-differs", "frederick-iv-of-nuremberg", line)]
    assert "Now gain 2 German." in found[0].message and "Gain 2 German." in found[0].message
    assert "wording_exception" in found[0].hint
    replace_in(path, '      text:\n        en: "Now gain',
               '      wording_exception: {en: reviewed by the designer}\n'
               '      text:\n        en: "Now gain')
    assert findings(project) == []


def test_missing_translation_is_an_error(project: Path):
    path = project / CARDS / "luxembourg.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(f'        cs: "Umísti 3{NBSP}vlivu do Čech."\n', "", 1),
                    encoding="utf-8")
    found = findings(project)
    assert [(f.code, f.card, f.lang) for f in found] == [
        ("missing-text", "elizabeth-of-bohemia", "cs")]
    assert "Umísti 3" in found[0].hint


def test_a_wording_exception_needs_a_language_and_a_reason(project: Path):
    path = project / CARDS / "wittelsbach.yaml"
    line = replace_in(path, '      text:\n        en: "Gain 2 German."',
                      '      wording_exception: {de: ""}\n      text:\n        en: "Gain 2 German."')
    _data, found = load(project)
    assert [(f.code, f.card, f.location.line) for f in found] == [
        ("wrong-type", "frederick-iv-of-nuremberg", line)]
    assert "needs a language (en, cs) and a reason" in found[0].message
