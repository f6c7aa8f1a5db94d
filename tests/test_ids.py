"""Ids follow one pattern and paths built from data stay inside output/ (issue 17, item 2).

An id such as ``x/../../../../../pwned`` with ``art:`` set once made ``build --png`` and the
MakePlayingCards profile write PNGs outside the project; a 300-character id crashed the
PNG writer. Ids are now checked on load, and every written path is confirmed inside
output/ as well.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from cardgen.cli import main
from cardgen.data.fields import ID_MAX, id_like
from cardgen.data.layout import load_layout
from cardgen.data.load import load
from cardgen.errors import CardgenError
from cardgen.files.safepath import inside
from cardgen.render.pdf import write_pngs
from cardgen.wording.compose import compose_faces
from tests.conftest import ROOT, replace_in

LUX = Path("card_data") / "cards" / "luxembourg.yaml"
ESCAPE = "x/../../../../../pwned"  # from output/en/png/ (or print-shop-…/) up to tmp_path

BAD_IDS = [ESCAPE, "k" * 300, "Charles-IV", "charles iv", "4-charles", "charles--iv",
           "charles-iv-", "karel-iv\u00e1", "charles\tiv"]


def _rename(project: Path, new: str) -> int:
    text = new.replace("\t", "\\t")
    return replace_in(project / LUX, "  - id: charles-iv\n", f'  - id: "{text}"\n    art: x\n')


@pytest.mark.parametrize("bad", BAD_IDS, ids=["escape", "300-chars", "upper", "space",
                                               "digit-first", "double-hyphen", "end-hyphen",
                                               "non-ascii", "tab"])
def test_a_bad_card_id_is_an_error_at_its_line_with_a_fix(project, bad):
    line = _rename(project, bad)
    _data, findings = load(project)
    [hit] = [f for f in findings if f.code == "bad-id"]
    assert (hit.location.file, hit.location.line) == (str(LUX), line)
    assert "not a valid id" in hit.message and len(hit.message) < 200
    suggestion = hit.hint.rsplit("'", 2)[1]
    assert load_pattern_ok(suggestion), suggestion


def load_pattern_ok(value: str) -> bool:
    from cardgen.data.fields import ID_PATTERN

    return len(value) <= ID_MAX and ID_PATTERN.fullmatch(value) is not None


def test_the_fix_hint_is_itself_a_valid_id():
    for bad in [*BAD_IDS, "", "---", "Ünïcode only", "9"]:
        assert load_pattern_ok(id_like(bad)), (bad, id_like(bad))


@pytest.mark.parametrize(("file", "old", "new"), [
    ("places.yaml", "  bohemia:", "  Bohemia:"),
    ("currencies.yaml", "church:", "church/x:"),
    ("shields.yaml", "edward-iii:", "edward iii:"),
    ("glossary.yaml", "id: counter", "id: ../counter"),
])
def test_ids_of_places_currencies_shields_and_terms_follow_the_same_pattern(
        project, file, old, new):
    line = replace_in(project / "card_data" / file, old, new)
    _data, findings = load(project)
    assert [(f.location.file, f.location.line) for f in findings if f.code == "bad-id"] == [
        (f"card_data/{file}", line)]


def test_the_shipped_ids_are_valid():
    _data, findings = load(ROOT)
    assert not [f for f in findings if f.code == "bad-id"]


@pytest.mark.parametrize("bad", [ESCAPE, "k" * 300])
def test_build_png_and_print_shop_pngs_write_nothing_outside(project, tmp_path, capsys, bad):
    line = _rename(project, bad)
    before = set(os.listdir(tmp_path))
    code = main(["--project", str(project), "build", "--png", "--profile", "makeplayingcards",
                 "--lang", "en", "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == 1
    assert f"{LUX}:{line}:" in err and "bad-id" in err and "Traceback" not in err
    assert set(os.listdir(tmp_path)) == before  # nothing beside the project
    assert not list((project / "output").rglob("*.png"))


def test_paths_made_from_data_are_confirmed_inside_their_folder(tmp_path):
    root = tmp_path / "output"
    (root / "en").mkdir(parents=True)
    assert inside(root, "en/png/001-charles-iv.png") == root / "en" / "png" / "001-charles-iv.png"
    for rel in ("en/../../pwned.png", "../pwned.png", "/tmp/pwned.png", "en//x.png", "..",
                "en/.hidden", "a\x00b", "en/" + "k" * 300 + ".png"):
        with pytest.raises(CardgenError) as caught:
            inside(root, rel)
        assert caught.value.findings[0].code == "unsafe-path"
    (tmp_path / "elsewhere").mkdir()
    (root / "en" / "png").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(CardgenError):
        inside(root, "en/png/001-charles-iv.png")


def test_the_png_writer_refuses_an_id_that_slipped_past_the_load_check(tmp_path):
    data, _ = load(ROOT)
    layout = load_layout(ROOT / "layouts" / "card.yaml")
    face = replace(compose_faces(data, "en", ROOT)[0], card_id=ESCAPE)
    folder = tmp_path / "project" / "output" / "en" / "png"
    with pytest.raises(CardgenError) as caught:
        write_pngs([face], layout, folder, dpi=20)
    assert caught.value.findings[0].code == "unsafe-path"
    assert not list(tmp_path.rglob("pwned*"))
