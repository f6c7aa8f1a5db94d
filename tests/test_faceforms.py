"""Issue 14 items 1 and 2: every face drawn once per language and placed by reference in each
print file; the bench's floor replays the build's own drawing through bare ReportLab."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardgen.build.build import build
from cardgen.build.options import BuildOptions

ROOT = Path(__file__).resolve().parent.parent
FACE_FILES = ("cards.pdf", "sheets-a4.pdf", "sheets-letter.pdf", "print-shop.pdf")


def _text(pdf: Path, *args: str) -> str:
    out = subprocess.run(["pdftotext", *args, str(pdf), "-"], capture_output=True, text=True,
                         check=True).stdout
    return " ".join(out.split())


def test_each_face_is_drawn_once_per_language_and_defined_once_per_file(project, drawn):
    build(project, BuildOptions(jobs=1))
    assert drawn and set(drawn.values()) == {1}, [k for k, n in drawn.items() if n > 1]
    assert {lang for _card, lang in drawn} == {"en", "cs"}
    faces = len(drawn) // 2
    out = project / "output" / "cs"
    for name in FACE_FILES:
        data = (out / name).read_bytes()
        forms = len(re.findall(rb"/Subtype /Form", data))
        # every face once, and the back once where the file prints backs
        assert forms == faces + (name != "cards.pdf"), name
    # the shared glyph codes read back as the right Czech letters in every file
    for name in FACE_FILES:
        text = _text(out / name)
        assert "Eliška Přemyslovna" in text and "Otec vlasti" in text, name


@pytest.mark.skipif(not all(map(lambda t: subprocess.run(["which", t], capture_output=True)
                                .returncode == 0, ("pdftoppm", "pdfinfo"))),
                    reason="needs poppler-utils (pdftoppm, pdfinfo)")
def test_floor_replays_the_builds_own_drawing(project, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    log, replayed = tmp_path / "floor.pickle", tmp_path / "floor"
    script = str(ROOT / "bench" / "floor.py")
    subprocess.run([sys.executable, script, "record", str(project), str(log)], check=True,
                   env=env, capture_output=True)
    subprocess.run([sys.executable, script, "replay", str(log), str(replayed)], check=True,
                   env=env, capture_output=True)

    def info(pdf: Path) -> tuple[str, str, str]:
        out = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True,
                             check=True).stdout
        fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
        return fields["Title"].strip(), fields["Pages"].strip(), fields["Page size"].strip()

    built = sorted((project / "output").rglob("*.pdf"))
    floor = sorted(replayed.glob("*.pdf"))
    assert sorted(map(info, floor)) == sorted(map(info, built))
    # same drawing: a page of cards, of a sheet and of the token sheet render alike
    by_info = {info(p): p for p in floor}
    for rel, page in (("cs/cards.pdf", 5), ("cs/sheets-a4.pdf", 3), ("cs/tokens.pdf", 1)):
        pngs = []
        for pdf, stem in ((project / "output" / rel, "built"),
                          (by_info[info(project / "output" / rel)], "floor")):
            subprocess.run(["pdftoppm", "-r", "30", "-png", "-f", str(page), "-l", str(page),
                            "-singlefile", str(pdf), str(tmp_path / stem)], check=True)
            pngs.append((tmp_path / f"{stem}.png").read_bytes())
        assert pngs[0] == pngs[1], rel
