"""Shared fixtures: a private copy of the shipped project that a test may break."""

from __future__ import annotations

import shutil
import tempfile
from collections import Counter
from pathlib import Path

import pytest

from cardgen.render import faceforms

ROOT = Path(__file__).resolve().parent.parent
PROJECT_PARTS = ("card_data", "layouts", "fonts", "art")


def copy_project(dest: Path) -> Path:
    for part in PROJECT_PARTS:
        src = ROOT / part
        if src.is_dir():
            shutil.copytree(src, dest / part)
    return dest


@pytest.fixture
def drawn(monkeypatch) -> Counter[tuple[str, str]]:
    """(card id, language) → how often the build drew that face (the face library's
    draw_card counted)."""
    count: Counter[tuple[str, str]] = Counter()
    real = faceforms.draw_card

    def counting(c, face, layout, *args, **kwargs):
        count[(face.card_id, face.lang)] += 1
        return real(c, face, layout, *args, **kwargs)

    monkeypatch.setattr(faceforms, "draw_card", counting)
    return count


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the shipped project folder in tmp_path."""
    return copy_project(tmp_path / "project")


def replace_in(path: Path, old: str, new: str, count: int = 1) -> int:
    """Replace text in a file; return the 1-based line number of the first replacement."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not found in {path}"
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return line


def allow_czech_rewording(project: Path) -> None:
    """Record a reviewed wording exception on Dream at Terenzo's Czech event line, so a test
    may reword it (written text must equal canonical text unless the line records one)."""
    replace_in(project / "card_data" / "cards" / "events.yaml",
               '      text:\n        en: "Luxembourg removes up to 2',
               '      wording_exception: {cs: "reworded in a test"}\n'
               '      text:\n        en: "Luxembourg removes up to 2')


def pytest_configure(config):
    """Hypothesis keeps caches in .hypothesis/ of the working folder; the suite's go to a
    temporary folder removed at the end, so no test leaves files behind."""
    from hypothesis.configuration import set_hypothesis_home_dir

    config._cardgen_hypothesis = tempfile.mkdtemp(prefix="cardgen-hypothesis-")
    set_hypothesis_home_dir(config._cardgen_hypothesis)


def pytest_unconfigure(config):
    folder = getattr(config, "_cardgen_hypothesis", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
