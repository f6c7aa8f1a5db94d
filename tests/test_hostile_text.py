"""Names and texts an unlucky user or an attacker writes (issue 17, items 6 and 7): a 1 MB
card text, control characters, an empty or 1,800-character name. Each is an error at its
file:line, found quickly; none prints as a hairline, a blank bar or missing-glyph boxes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from cardgen.cli import main
from cardgen.data.layout import load_layout
from cardgen.data.load import load
from cardgen.render.card import check_face
from cardgen.wording.compose import compose_faces
from cardgen.wording.face import TextLine
from tests.conftest import ROOT, at, replace_in

LUX = Path("card_data") / "cards" / "luxembourg.yaml"
DEED_EN = '        en: "Place 2 influence in Bohemia. Draw 1 card."'
NAME = "    name: {en: Charles IV, cs: Karel\u00a0IV.}"


def _check(project: Path, capsys) -> tuple[int, str]:
    code = main(["--project", str(project), "check"])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_a_megabyte_of_card_text_is_an_overflow_at_its_line(project, capsys):
    big = "Place 2 influence in Bohemia. " * 35_000  # ~1 MB
    line = replace_in(project / LUX, DEED_EN, f'        en: "{big}"')
    code, out = _check(project, capsys)
    assert code == 1
    hits = [ln for ln in out.splitlines() if "error[text-overflow]" in ln]
    assert hits and hits[0].startswith(f"{LUX}:{line}:"), hits
    assert "1,050,000 characters" in hits[0] and "[rule 2.36]" in hits[0]
    assert len(out) < 100_000  # messages quote the text cut to what a card could hold


@pytest.fixture(scope="module")
def shipped():
    data, _ = load(ROOT)
    return compose_faces(data, "en", ROOT), load_layout(ROOT / "layouts" / "card.yaml")


@pytest.mark.parametrize("chars", [1_900, 1_000_000])
def test_text_no_card_can_hold_is_reported_without_a_fit_search(shipped, chars):
    faces, layout = shipped
    words = ("influence " * (chars // 10 + 1))[:chars]
    face = replace(faces[0], lines=(TextLine("deed", words, "Deed"),))
    fit, findings = check_face(face, layout)
    assert not fit.fits and fit.size == layout.text_box.min_size
    assert fit.height > fit.available
    assert [f.code for f in findings] == ["text-overflow"]
    assert 0 < fit.line_count < 200  # set only as far as the box could show


@pytest.mark.parametrize(("where", "old", "bad"), [
    ("name", NAME, "    name: {en: \"Charles\\nIV\", cs: Karel IV.}"),
    ("name", NAME, "    name: {en: \"Charles\\tIV\", cs: Karel IV.}"),
    ("name", NAME, "    name: {en: Charles IV, cs: \"Karel\\x07IV.\"}"),
    ("text", DEED_EN, '        en: "Place 2 influence\\u0085in Bohemia. Draw 1 card."'),
    ("text", DEED_EN, '        en: "Place 2 influence in Bohemia.\\u2028Draw 1 card."'),
    ("text", DEED_EN, '        en: "Place 2 influence in Bohemia.\\nDraw 1 card."'),
])
def test_control_characters_are_refused_at_their_line(project, capsys, where, old, bad):
    line = replace_in(project / LUX, old, bad)
    code, out = _check(project, capsys)
    assert code == 1
    hits = [ln for ln in out.splitlines() if "error[control-character]" in ln]
    assert len(hits) == 1 and hits[0].startswith(f"{LUX}:{line}:"), out[-2000:]
    assert ("card name" if where == "name" else "deed text") in hits[0]


@pytest.mark.parametrize("empty", ['""', '"   "'])
def test_an_empty_name_is_an_error_not_a_blank_bar(project, capsys, empty):
    line = replace_in(project / LUX, NAME, f"    name: {{en: {empty}, cs: Karel IV.}}")
    code, out = _check(project, capsys)
    assert code == 1
    hits = [ln for ln in out.splitlines() if "error[empty-name]" in ln]
    assert hits and hits[0].startswith(f"{LUX}:{line}:") and "(en)" in hits[0], out[-2000:]


def test_a_name_too_long_for_its_bar_is_an_overflow_error_at_the_name(project, capsys):
    # a prototype card: a name the rulebook fixes would be reported as a rule fact instead
    long = " ".join(["Valram"] * 257)  # 1,798 characters
    market = Path("card_data") / "cards" / "market.yaml"
    line = replace_in(project / market, "    name: {en: Walram of Jülich, cs: Walram z\u00a0Jülichu}",
                      f'    name: {{en: Walram of Jülich, cs: "{long}"}}')
    code, out = _check(project, capsys)
    assert code == 1
    hits = [ln for ln in out.splitlines() if "error[name-overflow]" in ln]
    assert hits and hits[0].startswith(f"{market}:{line}:") and "(cs)" in hits[0], out[-2000:]
    assert "[rule 2.35]" in hits[0]


def test_shipped_names_fit_their_bar(shipped):
    faces, layout = shipped
    assert not [f for face in faces for f in check_face(face, layout)[1]
                if f.code == "name-overflow"]


def test_a_control_character_in_a_board_label_is_refused_at_its_line(project):
    from cardgen.wording.components import load_components

    path = project / "card_data" / "components.yaml"
    old = 'tiles_title: {en: "Board in {n} sheets"'
    line = replace_in(path, old, 'tiles_title: {en: "Board in\\t{n} sheets"')
    _components, findings = load_components(at(project))
    [hit] = [f for f in findings if f.code == "control-character"]
    assert (hit.location.file, hit.location.line, hit.lang) == (
        "card_data/components.yaml", line, "en")


def test_fix_never_writes_back_the_part_of_a_text_that_was_too_long(project, capsys):
    big = "Umísti 2 vlivu do Čech. " * 200  # typography to fix, and too long to print
    path = project / LUX
    replace_in(path, '        cs: "Umísti 2\u00a0vlivu do Čech. Lízni 1\u00a0kartu."',
               f'        cs: "{big}"')
    main(["--project", str(project), "check", "--fix"])
    capsys.readouterr()
    assert big in path.read_text(encoding="utf-8")  # left whole for the author to shorten
