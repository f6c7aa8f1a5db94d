"""In-place edits (`check --fix`, `check --fill`, `po import`) keep the file's identity and
report exactly what they wrote (issue 17, item 4)."""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

import pytest
from test_lang_fixtures import CARDS, make_project

from cardgen.cli import main
from cardgen.data import yamledit
from cardgen.data.load import load
from cardgen.files.write import rewrite_file
from cardgen.translate.po import export_po

OLD, NEW = 'msgstr "Umísti 2 vlivy v Mohuči."', 'msgstr "Polož 2 vlivy do Mohuče."'
SPLIT = "  - id: blanche-de-valois"


def _po(project: Path, tmp_path: Path, *changes: tuple[str, str]) -> Path:
    path = export_po(load(project)[0], tmp_path / "po" / "cs.po", canonical=None)
    text = path.read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return path


def _fail_rewrites_of(monkeypatch, name: str, code: int, message: str) -> None:
    """Every in-place edit of a file called ``name`` fails with that OS error; others work."""
    real_rewrite = yamledit.rewrite_file

    def failing(path, data):
        if Path(path).name == name:
            raise OSError(code, message, str(path))
        return real_rewrite(path, data)

    monkeypatch.setattr(yamledit, "rewrite_file", failing)


def test_rewrite_keeps_mode_and_writes_through_a_symlink(tmp_path):
    real = tmp_path / "real.yaml"
    real.write_text("a: 1\n", encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    assert rewrite_file(link, b"a: 2\n") == real
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == b"a: 2\n"
    assert real.stat().st_mode & 0o7777 == 0o640
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_rewrite_keeps_hard_links_together(tmp_path):
    first = tmp_path / "first.yaml"
    first.write_text("a: 1\n", encoding="utf-8")
    second = tmp_path / "second.yaml"
    os.link(first, second)
    inode = first.stat().st_ino
    rewrite_file(second, b"a: 2\n")
    assert first.read_bytes() == second.read_bytes() == b"a: 2\n"
    assert first.stat().st_ino == second.stat().st_ino == inode
    assert first.stat().st_nlink == 2
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_po_import_through_a_symlinked_hard_linked_card_file(tmp_path, capsys):
    project = make_project(tmp_path)
    cards = project / "card_data" / "cards"
    shared = project / "shared" / "cards.yaml"  # the real file lives outside card_data/
    shared.parent.mkdir()
    (cards / "test.yaml").rename(shared)
    shared.chmod(0o664)
    (cards / "test.yaml").symlink_to(shared)
    twin = project / "shared" / "twin.yaml"
    os.link(shared, twin)
    po = _po(project, tmp_path, (OLD, NEW))
    code = main(["--project", str(project), "po", "import", str(po)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert re.fullmatch(r"1 applied, \d+ unchanged, 0 untranslated, 0 not applied",
                        out.strip().splitlines()[-1])
    assert (cards / "test.yaml").is_symlink()
    assert "Polož 2 vlivy do Mohuče." in shared.read_text(encoding="utf-8")
    assert twin.read_bytes() == shared.read_bytes() and shared.stat().st_nlink == 2
    assert shared.stat().st_mode & 0o7777 == 0o664


def test_fix_writes_through_a_symlink_and_keeps_the_mode(tmp_path, capsys):
    project = make_project(tmp_path, CARDS.replace("Umísti 2 vlivy", "Umísti  2 vlivy"))
    cards = project / "card_data" / "cards"
    real = project / "elsewhere.yaml"  # inside the project: a link out of it is refused
    (cards / "test.yaml").rename(real)
    real.chmod(0o600)
    (cards / "test.yaml").symlink_to(real)
    main(["--project", str(project), "check", "--fix"])
    out = capsys.readouterr().out
    assert "fixed: card_data/cards/test.yaml:31:13: blanche-de-valois deed (cs)" in out
    assert (cards / "test.yaml").is_symlink() and "Umísti  2" not in real.read_text(encoding="utf-8")
    assert real.stat().st_mode & 0o7777 == 0o600


def test_a_partly_applied_import_reports_what_it_wrote(tmp_path, capsys, monkeypatch):
    """Two files to edit, the second cannot be written: the first file's edit is reported as
    applied (it was), the second file's two as not applied, with the reason; exit 2 (the disk)."""
    head, tail = CARDS.split(SPLIT, 1)
    project = make_project(tmp_path, head)
    (project / "card_data" / "cards" / "z.yaml").write_text("cards:\n" + SPLIT + tail,
                                                             encoding="utf-8")
    po = _po(project, tmp_path, (OLD, NEW), ('msgstr "Filip\u00a0VI."', 'msgstr "Filip Šestý"'),
             ('msgstr "Blanka z Valois"', 'msgstr "Blanka Valoisová"'))
    _fail_rewrites_of(monkeypatch, "z.yaml", errno.ENOSPC, "No space left on device")
    code = main(["--project", str(project), "po", "import", str(po)])
    out = capsys.readouterr().out
    assert code == 2
    assert "card_data/cards/test.yaml:7:" in out and "philip-vi:name (cs): Filip Šestý" in out
    assert "card_data/cards/z.yaml: error[os-no-space]: cannot write card_data/cards/z.yaml: " \
           "the disk is full" in out
    assert re.fullmatch(r"1 applied, \d+ unchanged, 0 untranslated, 2 not applied",
                        out.strip().splitlines()[-1])
    assert "Filip Šestý" in (project / "card_data" / "cards" / "test.yaml").read_text(encoding="utf-8")
    assert "Polož" not in (project / "card_data" / "cards" / "z.yaml").read_text(encoding="utf-8")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="giving a file to another owner needs root")
def test_rewrite_keeps_the_owner(tmp_path):
    path = tmp_path / "owned.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    os.chown(path, 4321, 4322)
    rewrite_file(path, b"a: 2\n")
    info = path.stat()
    assert (info.st_uid, info.st_gid) == (4321, 4322) and path.read_bytes() == b"a: 2\n"


def test_a_partly_applied_fill_reports_what_it_wrote(project, capsys, monkeypatch):
    cards = project / "card_data" / "cards"
    for name, en in (("luxembourg.yaml", "Place 2 influence in Bohemia. Draw 1 card."),
                     ("wittelsbach.yaml", "Place 3 influence in Brandenburg.")):
        path = cards / name
        text = path.read_text(encoding="utf-8")
        line = f'        en: "{en}"\n'
        assert line in text
        path.write_text(text.replace(line, ""), encoding="utf-8")
    _fail_rewrites_of(monkeypatch, "luxembourg.yaml", errno.EROFS, "Read-only file system")
    code = main(["--project", str(project), "check", "--fill"])
    captured = capsys.readouterr()
    assert code == 2
    filled = [line for line in captured.out.splitlines() if line.startswith("filled: ")]
    assert len(filled) == 1 and "wittelsbach.yaml" in filled[0] and "(en)" in filled[0]
    assert "card_data/cards/luxembourg.yaml: error[os-read-only]" in captured.err
    assert "Place 3 influence in Brandenburg." in (cards / "wittelsbach.yaml").read_text(encoding="utf-8")
