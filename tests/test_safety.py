"""A build killed at any moment leaves complete files; bad input is an error, never a crash."""

from __future__ import annotations

import shutil
import signal
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest
from PIL import Image

from cardgen.build.build import build
from cardgen.build.check import run_check
from cardgen.build.options import BuildOptions
from cardgen.errors import CardgenError, Severity
from tests.conftest import copy_project, replace_in
from tests.test_budget import ceiling

LUX = Path("card_data/cards/luxembourg.yaml")
QPDF = shutil.which("qpdf")


def _build_cmd(project: Path) -> list[str]:
    return [sys.executable, "-m", "cardgen.cli", "--project", str(project), "build", "--quiet"]


def _check_pdfs(output: Path) -> int:
    pdfs = sorted(output.rglob("*.pdf"))
    for pdf in pdfs:
        res = subprocess.run([QPDF, "--check", str(pdf)], capture_output=True, text=True)
        assert res.returncode in (0, 3), f"{pdf}: {res.stdout[-500:]}{res.stderr[-500:]}"
    return len(pdfs)


@pytest.mark.skipif(QPDF is None, reason="qpdf not installed")
def test_sigkill_at_any_moment_leaves_every_pdf_whole(tmp_path):
    project = copy_project(tmp_path / "p")
    opts = BuildOptions(langs=("en",))
    build(project, opts)
    layout = project / "layouts" / "card.yaml"
    opacity = "panel_opacity: 0.92"
    for i, delay in enumerate((0.5, 1.2, 2.0)):
        new = f"panel_opacity: 0.{80 + i}"  # every card output goes stale
        replace_in(layout, opacity, new)
        opacity = new
        proc = subprocess.Popen([*_build_cmd(project), "--lang", "en"])
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert _check_pdfs(project / "output") >= 8
    for tmp in (project / "output").rglob(".*.tmp"):
        tmp.unlink()  # leftovers of a killed run are hidden temp files, never outputs
    res = subprocess.run([*_build_cmd(project), "--lang", "en"], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    assert _check_pdfs(project / "output") >= 8


def test_two_builds_at_once_one_waits_out_with_a_message(tmp_path):
    project = copy_project(tmp_path / "p")
    first = subprocess.Popen([*_build_cmd(project), "--lang", "en"], stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not (project / "output" / ".cardgen.lock").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    second = subprocess.run([*_build_cmd(project), "--lang", "en"], capture_output=True, text=True)
    assert first.wait(timeout=120) == 0
    assert second.returncode == 2  # the machine, not the data (exit codes in README)
    assert "another cardgen build is writing to this output folder" in second.stderr
    if QPDF:
        _check_pdfs(project / "output")


def _errors(project: Path) -> list:
    report = run_check(project)
    return [f for f in report.findings if f.severity is Severity.ERROR]


def test_yaml_alias_bomb_is_a_located_error(tmp_path):
    project = copy_project(tmp_path / "p")
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(9))
    (project / "card_data" / "cards" / "bomb.yaml").write_text(bomb, encoding="utf-8")
    with ceiling():  # expanded, the document would hold 9 × 8⁹ values: GBs
        errors = _errors(project)
    assert any(f.code == "yaml-alias-bomb" and f.location and "bomb.yaml" in f.location.file
               and "expand to more than" in f.message for f in errors), errors


@pytest.mark.parametrize("kind", ["truncated", "not-an-image", "huge"])
def test_bad_art_is_an_error_naming_the_file_and_build_writes_nothing(tmp_path, kind):
    project = copy_project(tmp_path / "p")
    art = project / "art"
    art.mkdir(exist_ok=True)
    path = art / "charles-iv.png"
    if kind == "truncated":
        Image.new("RGB", (900, 600), "red").save(path)
        path.write_bytes(path.read_bytes()[:300])
    elif kind == "not-an-image":
        path.write_text("hello", encoding="utf-8")
    else:  # a decompression bomb: tiny file, enormous pixel count
        path.write_bytes(_blank_png(20000, 20000))
    errors = _errors(project)
    assert any(f.code == "art-invalid" and "charles-iv.png" in str(f.location) for f in errors)
    with pytest.raises(CardgenError):
        build(project, BuildOptions(langs=("en",)))
    assert not list((project / "output").rglob("*.pdf"))


def _blank_png(width: int, height: int) -> bytes:
    """A black 1-bit PNG of that size, written row by row: Pillow would hold a byte per
    pixel (400 MB for 20000 × 20000) to make it."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body)))
    packer = zlib.compressobj(9)
    row = bytes(1 + (width + 7) // 8)  # filter byte 0, then the packed pixels
    data = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def test_missing_font_is_a_clear_error(tmp_path):
    project = copy_project(tmp_path / "p")
    (project / "fonts" / "CharisSIL-Bold.ttf").unlink()
    errors = _errors(project)
    assert errors and any("CharisSIL-Bold.ttf" in f.format() for f in errors)
    with pytest.raises(CardgenError):
        build(project, BuildOptions(langs=("en",)))
    assert not list((project / "output").rglob("*.pdf"))
