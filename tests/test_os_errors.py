"""The operating system and the command line: every problem is one finding that says what
to do, exit 2, never a traceback and never a hang (issue 17, items 5 and 6). Data errors
keep exit 1."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from cardgen.cli import main
from cardgen.files import lock, write

LONG = "x" * 300


def run(capsys, *args: str) -> tuple[int, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    out = captured.out + captured.err
    assert "Traceback" not in out
    return code, out


def build(project: Path, capsys, *extra: str) -> tuple[int, str]:
    return run(capsys, "--project", str(project), "build", "--quiet", "--lang", "en", *extra)


@pytest.mark.parametrize("kind", ["missing", "file", "long"])
def test_project_that_is_not_a_folder(tmp_path, capsys, kind):
    path = {"missing": tmp_path / "nope", "file": tmp_path / "f", "long": tmp_path / LONG}[kind]
    if kind == "file":
        path.write_text("x", encoding="utf-8")
    code, out = run(capsys, "--project", str(path), "check")
    assert code == 2
    assert {"missing": "does not exist", "file": "is not a folder",
            "long": "the name is too long"}[kind] in out
    assert "fix: " in out


@pytest.mark.parametrize(("lang", "message"), [("", "error[usage]: no language given"),
                                               (",", "error[usage]: no language given"),
                                               ("de", "unknown language 'de'")])
def test_bad_language_option(project, capsys, lang, message):
    code, out = run(capsys, "--project", str(project), "build", "--lang", lang)
    assert code == 2 and message in out and "fix: use" in out
    assert not (project / "output").exists()  # refused before anything is made


@pytest.mark.parametrize(("content", "code_name"), [
    ("[1, 2]", "manifest-shape"),
    ('{"cards": 5}', "manifest-shape"),
    ('{"cards": [{"id": 7, "hash": "ab"}]}', "manifest-shape"),
    ("not json", "manifest-read"),
    (None, "os-not-found"),
    ("<fifo>", "not-a-file"),
    ("<dir>", "not-a-file"),
])
def test_changed_since_manifest_of_the_wrong_shape(project, capsys, tmp_path, content, code_name):
    path = tmp_path / "manifest.json"
    if content == "<fifo>":
        os.mkfifo(path)
    elif content == "<dir>":
        path.mkdir()
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    code, out = build(project, capsys, "--changed-since", str(path))
    assert code == 2
    assert f"{path}: error[{code_name}]" in out and "fix: " in out


@pytest.mark.parametrize("what", ["/dev/zero", "fifo", "dir", "missing"])
def test_po_import_reads_regular_files_only(project, capsys, tmp_path, what):
    path = {"/dev/zero": Path("/dev/zero"), "fifo": tmp_path / "cs.po", "dir": tmp_path / "d.po",
            "missing": tmp_path / "gone.po"}[what]
    if what == "fifo":
        os.mkfifo(path)
    elif what == "dir":
        path.mkdir()
    before = {p: p.read_bytes() for p in (project / "card_data").rglob("*.yaml")}
    code, out = run(capsys, "--project", str(project), "po", "import", str(path))
    assert code == 2
    expected = {"/dev/zero": "expected a file but found a device",
                "fifo": "expected a file but found a named pipe (FIFO)",
                "dir": "expected a file but found a folder", "missing": "no such file"}[what]
    assert f"{path}: error[" in out and expected in out
    assert {p: p.read_bytes() for p in before} == before


def test_a_300_character_card_id_on_the_command_line(project, capsys):
    code, out = build(project, capsys, "--cards", LONG)
    assert code == 2
    assert "error[unknown-card]" in out and "no such card" in out


def test_output_is_a_dangling_symlink(project, capsys):
    (project / "output").symlink_to(project / "gone")
    code, out = build(project, capsys)
    assert code == 2
    assert f"{project / 'output'}: error[os-in-the-way]: cannot create the folder" in out
    assert "fix: remove it" in out


def test_output_language_folder_is_a_file(project, capsys):
    (project / "output").mkdir()
    (project / "output" / "en").write_text("x", encoding="utf-8")
    code, out = build(project, capsys)
    assert code == 2
    assert f"{project / 'output' / 'en'}: error[os-in-the-way]" in out


def test_output_pdf_replaced_by_a_folder(project, capsys):
    (project / "output" / "en" / "cards.pdf").mkdir(parents=True)
    code, out = build(project, capsys)
    assert code == 2
    assert (f"{project / 'output' / 'en' / 'cards.pdf'}: error[os-is-directory]: cannot write"
            in out) and "fix: remove or rename that folder" in out
    assert [p.name for p in (project / "output" / "en").iterdir()] == ["cards.pdf"]


def test_read_only_output(project, capsys, monkeypatch):
    def read_only(path, *args, **kw):
        raise OSError(errno.EROFS, "Read-only file system", str(path))

    monkeypatch.setattr(lock.os, "open", read_only)
    code, out = build(project, capsys)
    assert code == 2
    assert "error[os-read-only]: cannot lock" in out and "the file system is read-only" in out


def test_full_disk_writes_nothing_and_leaves_no_temp_files(project, capsys, monkeypatch):
    real_fsync = os.fsync

    def full(fd):
        if os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_fsync(fd)

    monkeypatch.setattr(write.os, "fsync", full)
    code, out = build(project, capsys)
    assert code == 2
    assert "error[os-no-space]: cannot write" in out and "the disk is full" in out
    assert "fix: free some space" in out
    left = [p.name for p in (project / "output").rglob("*") if p.is_file()]
    assert not [n for n in left if n.endswith((".pdf", ".tmp"))], left


def test_truncated_font(project, capsys):
    font = project / "fonts" / "CharisSIL-Regular.ttf"
    font.write_bytes(font.read_bytes()[:4000])
    code, out = run(capsys, "--project", str(project), "check")
    assert code == 2
    assert "error[font-invalid]: cannot read font file CharisSIL-Regular.ttf" in out
    assert "fix: copy the font file again" in out


def test_unreadable_image(project, capsys, monkeypatch):
    from PIL import Image

    (project / "art").mkdir(exist_ok=True)
    Image.new("RGB", (800, 600), "#8a6d3b").save(project / "art" / "philip-vi.png")
    real = Path.read_bytes

    def denied(self):
        if self.name == "philip-vi.png":
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", denied)
    code, out = run(capsys, "--project", str(project), "check")
    assert code == 2
    assert "art/philip-vi.png: error[art-read] card philip-vi: cannot read art file" in out


def test_a_list_where_the_wording_file_expects_a_mapping_is_a_data_error(project, capsys):
    (project / "card_data" / "text" / "en.yaml").write_text("- a\n- b\n", encoding="utf-8")
    code, out = run(capsys, "--project", str(project), "check", "--format", "json")
    assert code == 1
    found = json.loads(out[:out.rindex("}") + 1])["findings"]
    shape = [f for f in found if f["file"] == "card_data/text/en.yaml"]
    assert shape and shape[0]["code"] == "shape" and shape[0]["line"] == 1
    assert "'text/en.yaml' must be a mapping" in shape[0]["message"]


@pytest.mark.parametrize("kind", ["fifo", "dir"])
def test_a_card_file_that_is_not_a_regular_file(project, capsys, kind):
    path = project / "card_data" / "cards" / "extra.yaml"
    os.mkfifo(path) if kind == "fifo" else path.mkdir()
    code, out = run(capsys, "--project", str(project), "check")
    assert code == 2
    kind_text = "a named pipe (FIFO)" if kind == "fifo" else "a folder"
    assert f"card_data/cards/extra.yaml: error[not-a-file]: expected a file but found {kind_text}" in out


@pytest.mark.parametrize("where", ["art", "font"])
def test_a_fifo_where_an_image_or_a_font_belongs(project, capsys, where):
    if where == "art":
        (project / "art").mkdir(exist_ok=True)
        path = project / "art" / "philip-vi.png"
        shown = "art/philip-vi.png"
    else:
        path = project / "fonts" / "CharisSIL-Bold.ttf"
        path.unlink()
    os.mkfifo(path)
    code, out = run(capsys, "--project", str(project), "check")
    assert code == 2
    if where == "art":
        assert f"{shown}: error[not-a-file] card philip-vi" in out and "a named pipe (FIFO)" in out
    else:  # the layout names the font it cannot use, at its line
        lines = (project / "layouts" / "card.yaml").read_text(encoding="utf-8").splitlines()
        line = next(i for i, t in enumerate(lines, 1) if "bold: ../fonts/CharisSIL-Bold" in t)
        assert f"layouts/card.yaml:{line}:9: error[font-missing]" in out
        assert "CharisSIL-Bold.ttf" in out
