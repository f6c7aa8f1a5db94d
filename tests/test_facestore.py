"""Issue 14 item 3: a one-card edit draws that card's face only; every other face comes from
the last build's drawings (output/.cache/faces-*.bin), and the files are byte for byte what
a build that draws every face makes."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

from cardgen.build.build import build
from cardgen.build.check import run_check
from cardgen.build.options import BuildOptions
from cardgen.files import pickles
from cardgen.render.facestore import MAGIC
from tests.conftest import replace_in

CARDS = Path("card_data/cards/luxembourg.yaml")
FACE_FILES = ("cards.pdf", "sheets-a4.pdf", "sheets-letter.pdf", "print-shop.pdf")


def _outputs(project: Path) -> dict[str, bytes]:
    out = project / "output"
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and not p.relative_to(out).parts[0].startswith(".")}


def _cold(project: Path, tmp_path: Path) -> dict[str, bytes]:
    """The outputs of a build of ``project``'s inputs into an empty output/."""
    fresh = tmp_path / "fresh"
    shutil.copytree(project, fresh, ignore=shutil.ignore_patterns("output"))
    build(fresh, BuildOptions(jobs=1))
    return _outputs(fresh)


def test_a_czech_edit_draws_one_face_and_writes_what_a_cold_build_writes(project, tmp_path,
                                                                        drawn):
    build(project, BuildOptions(jobs=1))
    faces = len(drawn)
    assert faces > 100 and set(drawn.values()) == {1}
    assert len(list((project / "output" / ".cache").glob("faces-*.bin"))) == 2  # en, cs
    drawn.clear()
    # the first card's new words change the order its letters first appear in, not the
    # letters the deck holds: no other face's glyph codes change
    replace_in(project / CARDS, "cs: Otec vlasti", "cs: Otec národa")
    build(project, BuildOptions(jobs=1))
    assert drawn == {("charles-iv", "cs"): 1}
    drawn.clear()
    assert _outputs(project) == _cold(project, tmp_path)
    assert len(drawn) == faces  # the cold build drew them all


def test_a_letter_new_to_the_deck_renumbers_its_glyphs_as_a_cold_build_would(project,
                                                                            tmp_path, drawn):
    # glyph codes follow the order of the characters the deck holds: a letter no card had
    # before (Ő, U+0150) moves the codes of the letters after it (ř, š, ž …), so Czech faces
    # that show one of those are drawn again, and no other
    build(project, BuildOptions(jobs=1))
    drawn.clear()
    replace_in(project / CARDS, "cs: Otec vlasti", "cs: Otec Őrségu")
    build(project, BuildOptions(jobs=1))
    later = {face.card_id for face in run_check(project).faces["cs"]
             if any(ord(ch) > 0x150 for ch in repr(face) + repr(face).upper())}
    assert ("charles-iv", "cs") in drawn and len(drawn) > 10
    assert set(drawn) <= {(card, "cs") for card in later}
    assert _outputs(project) == _cold(project, tmp_path)


def test_a_damaged_or_planted_face_cache_is_ignored(project, tmp_path, drawn):
    build(project, BuildOptions(jobs=1))
    faces = len(drawn)
    files = sorted((project / "output" / ".cache").glob("faces-*.bin"))
    files[0].write_bytes(files[0].read_bytes()[:-100])  # truncated: checksum fails

    class Planted:  # unpickling it would run a command
        def __reduce__(self):
            return (shutil.rmtree, (str(project / "card_data"),))

    payload = pickle.dumps(Planted())
    key = files[1].read_bytes().split(b"\n")[1].decode()  # the right key: only the body is foreign
    pickles.write(project / "output", f".cache/{files[1].name}", MAGIC, key, payload)
    drawn.clear()
    replace_in(project / CARDS, "cs: Otec vlasti", "cs: Otec národa")
    build(project, BuildOptions(jobs=1))
    assert (project / "card_data").is_dir()  # the planted file ran nothing
    # whichever of the two files was Czech, the Czech library drew every face again
    assert len(drawn) == faces // 2 and {lang for _card, lang in drawn} == {"cs"}
    assert _outputs(project) == _cold(project, tmp_path)


def test_a_layout_change_leaves_no_stale_face_cache(project, drawn):
    build(project, BuildOptions(jobs=1))
    before = {p.name for p in (project / "output" / ".cache").glob("faces-*.bin")}
    replace_in(project / "layouts" / "card.yaml", "bleed: 3", "bleed: 3.5")
    drawn.clear()
    build(project, BuildOptions(jobs=1))
    after = {p.name for p in (project / "output" / ".cache").glob("faces-*.bin")}
    assert len(after) == 2 and not before & after
    assert set(drawn.values()) == {1} and len(drawn) > 100


def test_a_build_of_one_language_keeps_the_other_languages_drawings(project, drawn):
    build(project, BuildOptions(jobs=1))
    cache = project / "output" / ".cache"
    czech = {p.name for p in cache.glob("faces-cs-*.bin")}
    replace_in(project / "layouts" / "card.yaml", "bleed: 3", "bleed: 3.5")
    build(project, BuildOptions(langs=("en",), jobs=1))
    assert {p.name for p in cache.glob("faces-cs-*.bin")} == czech
    assert len(list(cache.glob("faces-en-*.bin"))) == 1


SCRIPT = """
import sys
from collections import Counter
from pathlib import Path
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from cardgen.build.options import BuildOptions
from cardgen.build.build import build
from cardgen.render import faceforms

project, font = Path(sys.argv[1]), sys.argv[2]
pdfmetrics.registerFont(TTFont("SomeoneElsesCharis", font))  # before cardgen's own
drawn = Counter()
real = faceforms.draw_card
faceforms.draw_card = lambda c, face, *a, **k: drawn.update([face.card_id]) or real(c, face, *a, **k)
build(project, BuildOptions(jobs=1, langs=("cs",)))
cards = project / "card_data" / "cards" / "luxembourg.yaml"
cards.write_text(cards.read_text(encoding="utf-8").replace("cs: Otec vlasti", "cs: Otec národa", 1),
                 encoding="utf-8")
drawn.clear()
build(project, BuildOptions(jobs=1, langs=("cs",)))
print(dict(drawn))
"""


def test_a_typeface_other_code_registered_first_still_lets_faces_be_reused(project):
    """ReportLab keeps one font per typeface: when other code in the process registered the
    layout's Charis first, cardgen draws with that font's name, and a one-card edit still
    draws that one face only (it drew every face again before)."""
    import subprocess
    import sys

    font = project / "fonts" / "CharisSIL-Regular.ttf"
    res = subprocess.run([sys.executable, "-c", SCRIPT, str(project), str(font)],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.strip().splitlines()[-1] == "{'charles-iv': 1}", res.stdout[-500:]
