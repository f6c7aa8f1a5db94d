"""Issue 38: nothing outside the project is touched, nothing planted is trusted.

External programs get file names as data, never as options, within a time limit and an
output cap (:mod:`cardgen.files.tools`); art is opened only as PNG, JPEG or TIFF, so a
PostScript file saved as ``.png`` never reaches Ghostscript; a link that leads to itself is
a located error; no name from the input reaches a terminal with a control character raw.
"""

from __future__ import annotations

import ast
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

import cardgen
from cardgen.cli import main
from cardgen.errors import CardgenError, exit_code
from cardgen.files import tools
from cardgen.serve.editor import Editor
from cardgen.translate.review import git_card_data
from tests.conftest import replace_in

EVENTS = Path("card_data") / "cards" / "events.yaml"
CARD = "dream-at-terenzo"  # the first card of events.yaml
needs_qpdf = pytest.mark.skipif(shutil.which("qpdf") is None, reason="needs qpdf")
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _tree_hash(folder: Path) -> str:
    """One digest of every name and byte under ``folder``."""
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        h.update(str(path.relative_to(folder)).encode())
        if path.is_file():
            h.update(path.read_bytes())
    return h.hexdigest()


def _cli(project: Path, *argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`cardgen` in its own process; the timeout is only a safety net for a hang."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    return subprocess.run([sys.executable, "-m", "cardgen.cli", "--project", str(project),
                           *argv], capture_output=True, text=True, timeout=300, cwd=cwd,
                          env=env)


# --- external tools: names are data, runs are bounded ------------------------------------

def _pdf(path: Path) -> None:
    c = Canvas(str(path), invariant=1)
    c.drawString(100, 100, "a page")
    c.showPage()
    c.save()


@needs_qpdf
def test_preflight_reads_files_named_like_options_as_files(tmp_path, capsys):
    folder, sibling = tmp_path / "folder", tmp_path / "sibling"
    folder.mkdir()
    sibling.mkdir()
    (sibling / "keep.pdf").write_bytes(b"untouched")
    names = ["@print-shop.pdf", "-x.pdf", "--help.pdf"]
    for name in names:
        _pdf(folder / name)
    # what qpdf would read as its arguments if "@print-shop.pdf" reached it as given
    (folder / "print-shop.pdf").write_text("--empty\n--pages\n-x.pdf\n--\n../sibling/out.pdf\n")
    before = _tree_hash(sibling), _tree_hash(folder)
    cwd = Path.cwd()
    os.chdir(folder)
    try:
        code = main(["--project", str(tmp_path), "preflight", "--", *names])
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    assert code == 1  # the test PDFs' fonts are not embedded: preflight's data finding
    for name in names:
        assert f"{name}: 1 page" in out, out
    assert "preflight-read" not in out and "unknown argument" not in out
    assert (_tree_hash(sibling), _tree_hash(folder)) == before


def test_every_file_argument_is_absolute_and_after_the_end_of_options():
    words = tools.argv(tools.PDFTOPPM, "/usr/bin/pdftoppm", ["-r", "72"],
                       [Path("-x.pdf"), Path("@page")])
    assert words[:4] == ["/usr/bin/pdftoppm", "-r", "72", "--"]
    assert words[4:] == [os.path.abspath("-x.pdf"), os.path.abspath("@page")]
    qpdf = tools.argv(tools.QPDF, "qpdf", ["--json=2", Path("-C")], [Path("@in.pdf")])
    assert "--" not in qpdf  # qpdf's "--" closes --pages; an absolute name is enough
    assert all(w.startswith("/") for w in qpdf[2:])


def test_a_missing_tool_is_a_setup_error_with_a_fix(capsys, project, monkeypatch, tmp_path):
    _pdf(tmp_path / "a.pdf")
    monkeypatch.setattr("shutil.which", lambda name: None)
    code = main(["--project", str(project), "preflight", str(tmp_path / "a.pdf")])
    err = capsys.readouterr().err
    assert code == 2
    assert "error[tool-missing]" in err and "fix: install qpdf" in err


def test_a_tool_that_runs_too_long_or_says_too_much_is_ended_and_a_setup_error(tmp_path):
    slow = tools.Tool("sleep", "coreutils", "sleep --version")
    with pytest.raises(CardgenError) as caught:
        tools.run(slow, ["30"], needs="a test", timeout=0.2)
    found = caught.value.findings
    assert found[0].code == "tool-failed" and "did not finish" in found[0].message
    assert found[0].hint and exit_code(found) == 2
    loud = tools.Tool("yes", "coreutils", "yes --version")
    with pytest.raises(CardgenError) as caught:
        tools.run(loud, [], needs="a test", max_output=100_000)
    assert "more than 100000 bytes" in caught.value.findings[0].message
    assert exit_code(caught.value.findings) == 2


def test_the_editor_gets_an_absolute_file_name(tmp_path):
    words = Editor("code -g {file}:{line}").command(Path("card_data/-x.yaml"), 3)
    assert words == ["code", "-g", os.path.abspath("card_data/-x.yaml") + ":3"]


@needs_git
def test_an_earlier_revision_is_read_without_running_the_repositorys_filters(project,
                                                                             tmp_path):
    marker = tmp_path / "ran"
    git = ["git", "-C", str(project), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    (project / "card_data" / ".gitattributes").write_text("* filter=planted\n")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "x"], check=True)
    subprocess.run([*git, "config", "filter.planted.smudge", f"touch {marker}; cat"],
                   check=True)
    git_card_data(project, "HEAD", tmp_path / "then")
    then = tmp_path / "then" / EVENTS
    assert then.read_bytes() == (project / EVENTS).read_bytes()
    assert not marker.exists()  # git archive would have run the smudge filter


def _calls(name: str) -> list[tuple[str, ast.Call]]:
    """(file:line, call) for every call of ``name`` (``a.b``) in the package."""
    root = Path(cardgen.__file__).parent
    out = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and ast.unparse(node.func) == name:
                out.append((f"{path.relative_to(root)}:{node.lineno}", node))
    return out


def test_only_the_tools_module_starts_programs():
    root = Path(cardgen.__file__).parent
    starting = [str(p.relative_to(root)) for p in root.rglob("*.py")
                if "subprocess" in p.read_text(encoding="utf-8")]
    assert starting == ["files/tools.py"]
    assert [at for at, _ in _calls("shutil.which")] == [
        at for at, _ in _calls("shutil.which") if at.startswith("files/tools.py")]


def test_every_image_open_names_its_formats():
    opened = _calls("Image.open")
    assert opened and [at for at, call in opened
                       if not any(k.arg == "formats" for k in call.keywords)] == []


# --- art is opened as a raster format only ------------------------------------------------

@pytest.mark.parametrize("program", ["{ } loop", "nosuchoperator"])
def test_postscript_saved_as_png_is_refused_without_ghostscript(project, program):
    art = project / "art" / f"{CARD}.png"
    art.parent.mkdir(exist_ok=True)
    art.write_text(f"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 100 100\n{program}\n")
    res = _cli(project, "check")
    out = res.stdout + res.stderr
    assert res.returncode == 1, out
    assert f"{CARD}.png: error[art-invalid] card {CARD}: a PostScript (EPS) file" in out
    assert "fix: save the art as PNG or JPEG" in out
    assert "Traceback" not in out


# --- a link that leads to itself ---------------------------------------------------------

@pytest.mark.parametrize("rel", [f"art/{CARD}.png", "card_data/cards/events.yaml",
                                 "card_data/cards/loop.yaml"])
def test_a_link_to_itself_is_a_located_error(project, capsys, rel):
    link = project / rel
    link.parent.mkdir(exist_ok=True)
    link.unlink(missing_ok=True)
    link.symlink_to(link.name)
    code = main(["--project", str(project), "check"])
    out = capsys.readouterr()
    text = out.out + out.err
    assert code == 2, text
    assert f"{rel}: error[os-link-loop]" in text and "fix: fix or remove the link" in text


# --- no control character from the input reaches the terminal raw ------------------------

#: ESC with a colour (CSI), an OSC title sequence ended by BEL, the C1 CSI and a bidi
#: override: in YAML's double-quoted escapes.
HOSTILE = r"\e[31mred\e]0;title\a\x9b2J\u202ex"
RAW = ("\x1b", "\x07", "\x9b", "\u202e")


def _clean(text: str) -> None:
    assert not any(c in text for c in RAW), repr(text)


@pytest.mark.parametrize("old, new", [
    ("    year: 1333\n", f'    year: 1333\n    "{HOSTILE}": 1\n'),  # an unknown key
    (f"  - id: {CARD}\n", f'  - id: "{HOSTILE}"\n'),  # a card id
    ("{op: remove_from_game,", f'{{op: "{HOSTILE}",'),  # an op name
    ("where: lombardy,", f'where: "{HOSTILE}",'),  # a place id
])
def test_names_from_the_data_reach_the_output_escaped(project, capsys, old, new):
    replace_in(project / EVENTS, old, new)
    code = main(["--project", str(project), "check"])
    out = capsys.readouterr()
    _clean(out.out + out.err)
    assert code == 1 and r"\x1b[31mred" in out.out + out.err
    code = main(["--project", str(project), "check", "--format", "json"])
    out = capsys.readouterr()
    _clean(out.out + out.err)


def test_a_card_files_name_reaches_the_output_escaped(project, capsys):
    name = "\x1b]0;title\x07\x9b2J\u202e.yaml"
    (project / "card_data" / "cards" / name).write_text("cards: [", encoding="utf-8")
    code = main(["--project", str(project), "check"])
    out = capsys.readouterr()
    _clean(out.out + out.err)
    assert code == 1 and r"\x1b]0;title\x07\x9b2J\u202e.yaml" in out.out


def test_a_po_context_reaches_the_output_escaped(project, capsys, tmp_path):
    assert main(["--project", str(project), "po", "export"]) == 0
    capsys.readouterr()
    po = project / "output" / "po" / "cs.po"
    text = po.read_text(encoding="utf-8")
    first = text.index('msgctxt "') + len('msgctxt "')
    po.write_text(text[:first] + "\x1b]0;title\x07\x9b2J\u202e" + text[first:],
                  encoding="utf-8")
    code = main(["--project", str(project), "po", "import", str(po)])
    out = capsys.readouterr()
    _clean(out.out + out.err)
    assert code != 0 and r"\x1b]0;title\x07\x9b2J\u202e" in out.out + out.err


def test_a_message_keeps_its_lines_indented_and_none_passes_for_a_finding():
    """A text-differs message's written/canonical block prints as lines (not a literal
    backslash-n), and no line of a message starts where a finding's location would."""
    from cardgen.errors import Location, error
    block = error("text-differs", "the text differs\n    written:   a\n    canonical: b",
                  location=Location("card_data/cards/x.yaml", 3, 5)).format().split("\n")
    assert block[1:3] == ["    written:   a", "    canonical: b"]
    forged = error("shape", "bad\ncard_data/x.yaml:1:1: error[fake]: all fine\x1b[2J").format()
    assert all(line.startswith("    ") for line in forged.split("\n")[1:]), forged
    assert "\x1b" not in forged and "\\x1b" in forged
