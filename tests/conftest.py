"""Shared fixtures: a private copy of the shipped project that a test may break."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from collections import Counter
from pathlib import Path

import pytest

from cardgen import messages
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


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test speaks English whatever the machine's locale (a test of Czech sets it)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    messages.use("en")


@pytest.fixture(autouse=True, scope="module")
def _forget_between_modules():
    """After each test file: empty the memos and give freed memory back, so a test worker
    that runs a hundred files holds one file's projects, not the last eight of each memo
    (the suite's memory goal, bench/tests.py)."""
    yield
    import contextlib
    import ctypes
    import gc

    from cardgen.data.memo import Memo
    Memo.forget_all()
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # not glibc: nothing to trim
        ctypes.CDLL(None).malloc_trim(0)


def pytest_configure(config):
    """Hypothesis keeps caches in .hypothesis/ of the working folder; the suite's go to one
    temporary folder, removed at the end, so no test leaves files behind. The controller
    makes it and fills Hypothesis's table of the characters UTF-8 encodes before the test
    processes start: each process would otherwise build it anew, holding about 200 MB
    while it does (the suite's peak memory)."""
    from hypothesis.configuration import set_hypothesis_home_dir

    home = os.environ.get(_HYPOTHESIS_HOME)
    if home is None:  # the controller, or a run without test processes
        home = os.environ[_HYPOTHESIS_HOME] = tempfile.mkdtemp(prefix="cardgen-hypothesis-")
        config._cardgen_hypothesis = home
        set_hypothesis_home_dir(home)
        _fill_character_tables()
    set_hypothesis_home_dir(home)


_HYPOTHESIS_HOME = "CARDGEN_TEST_HYPOTHESIS_HOME"


def _fill_character_tables() -> None:
    import warnings

    from hypothesis import strategies as st

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # example() outside a test
        st.text(max_size=1).example()


def pytest_unconfigure(config):
    folder = getattr(config, "_cardgen_hypothesis", None)
    if folder:  # the process that made it
        os.environ.pop(_HYPOTHESIS_HOME, None)
        shutil.rmtree(folder, ignore_errors=True)


def send_raw(port: int, request: bytes) -> bytes:
    """Send ``request`` as a client that then stops sending; the server's answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def tree_hash(folder: Path) -> str:
    """Names, kinds and bytes of everything under ``folder`` (links not followed): equal
    before and after a command when it touched nothing there."""
    import hashlib
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        h.update(str(path.relative_to(folder)).encode())
        if path.is_symlink():
            h.update(b"-> " + os.readlink(path).encode())
        elif path.is_file():
            h.update(path.read_bytes())
    return h.hexdigest()


def at(folder: Path):
    """The project in ``folder`` as the stages after the loader take it (its card data
    loaded, every other file read when first asked for); a folder of layouts only has no
    card data."""
    from cardgen.data.project import Documents, Project, load_project
    from cardgen.errors import CardgenError
    try:
        return load_project(folder)[0]
    except CardgenError:
        return Project(folder, None, Documents(folder))  # type: ignore[arg-type]
