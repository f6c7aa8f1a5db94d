"""The project's walls and the limits on every input (issue 26, items 3 and 4): inputs are
read from inside the project only, output/ is written only through paths that stay inside
it, caches hold nothing that can name a path or a class, and every file, option, number and
request outside its range is a located error with its exit code, never a traceback or a
hang."""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import shutil
import subprocess
import zlib
from pathlib import Path

import pytest

from cardgen.cli import main
from cardgen.data.cardcache import CardFileCache
from cardgen.data.layout import load_layout
from cardgen.errors import CardgenError
from cardgen.files import pickles
from cardgen.files.lock import build_lock
from cardgen.files.write import rewrite_file
from cardgen.impose.spec import load_profiles
from cardgen.render import facestore
from cardgen.serve.web import MAX_BODY, open_request
from cardgen.translate.review import git_card_data
from tests.conftest import ROOT, at, replace_in
from tests.test_budget import ceiling

CARDS = Path("card_data") / "cards"
GAME = Path("card_data") / "game.yaml"
SECRET = "the content of a file outside the project"


def _run(project: Path, capsys, *argv: str, bounded: bool = False) -> tuple[int, str]:
    """Run a command; ``bounded``: within the memory and work ceiling (measuring memory slows
    Python down, so only the cases about a budget are measured)."""
    with ceiling() if bounded else contextlib.nullcontext():
        code = main(["--project", str(project), *argv])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A file outside the project, whose content must never be read into a message."""
    path = tmp_path / "elsewhere" / "secret.yaml"
    path.parent.mkdir()
    path.write_text(f"card: {{note: '{SECRET}'}}\n", encoding="utf-8")
    return path


# --- inputs are read from inside the project ------------------------------------------------

def test_a_layout_extending_a_file_outside_the_project_is_refused_at_its_line(project, outside):
    layout = project / "layouts" / "card.yaml"
    text = layout.read_text(encoding="utf-8")
    layout.write_text(f"extends: {outside}\n" + text, encoding="utf-8")
    with pytest.raises(CardgenError) as caught:
        load_layout(layout)
    found = caught.value.findings[0]
    assert found.code == "outside-project" and found.location.line == 1
    assert SECRET not in str(caught.value)


def test_a_font_outside_the_project_is_refused_at_its_line(project, outside):
    layout = project / "layouts" / "card.yaml"
    line = replace_in(layout, "../fonts/CharisSIL-Regular.ttf", str(outside))
    with pytest.raises(CardgenError) as caught:
        load_layout(layout)
    found = [f for f in caught.value.findings if f.code == "outside-project"]
    assert found and found[0].location.line == line and SECRET not in str(caught.value)


def test_a_card_file_linked_out_of_the_project_is_refused_and_never_written(project, outside,
                                                                            capsys):
    (project / CARDS / "elsewhere.yaml").symlink_to(outside)
    before = outside.read_bytes()
    code, out = _run(project, capsys, "check", "--fix")
    assert code == 1
    assert f"{CARDS}/elsewhere.yaml" in out and "outside the project" in out
    assert SECRET not in out and outside.read_bytes() == before


def test_a_card_file_linked_inside_the_project_keeps_working(project, capsys):
    shared = project / "shared"
    shared.mkdir()
    (project / CARDS / "events.yaml").rename(shared / "events.yaml")
    (project / CARDS / "events.yaml").symlink_to(Path("../../shared/events.yaml"))
    code, out = _run(project, capsys, "check")
    assert code == 0, out


def test_a_revision_with_a_link_out_of_the_tree_is_read_without_it(project, tmp_path, outside):
    git = ["git", "-C", str(project), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    (project / CARDS / "elsewhere.yaml").symlink_to(outside)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "x"], check=True)
    git_card_data(project, "HEAD", tmp_path / "then")
    assert (tmp_path / "then" / CARDS / "events.yaml").is_file()
    assert not (tmp_path / "then" / CARDS / "elsewhere.yaml").exists()


# --- output/ is written only inside it; caches name no path or class --------------------------

def test_po_export_refuses_a_link_in_output_that_leads_out(project, tmp_path, capsys):
    away = tmp_path / "away"
    away.mkdir()
    (project / "output").mkdir()
    (project / "output" / "po").symlink_to(away)
    code, out = _run(project, capsys, "po", "export")
    assert code == 2 and "unsafe-path" in out
    assert not list(away.iterdir())


def test_the_lock_never_follows_a_link(tmp_path):
    target = tmp_path / "precious"
    target.write_text("keep", encoding="utf-8")
    output = tmp_path / "output"
    output.mkdir()
    (output / ".cardgen.lock").symlink_to(target)
    with pytest.raises(CardgenError, match="refusing"), build_lock(output):
        pass
    assert target.read_text(encoding="utf-8") == "keep"


def test_a_cache_file_linked_to_a_device_is_a_cache_miss(tmp_path):
    cache = tmp_path / "output" / ".cache"
    cache.mkdir(parents=True)
    (cache / "cards.pickle").symlink_to("/dev/zero")
    with ceiling():
        assert CardFileCache.read(tmp_path / "output").stored == {}


class _OpensAFile:
    """Pickles as a call of a class that reads the file it is given."""

    def __init__(self, path: Path):
        self.path = path

    def __reduce__(self):
        from reportlab.pdfbase.pdfdoc import PDFImageXObject
        return PDFImageXObject, ("x", str(self.path))


def test_a_planted_face_cache_making_a_class_open_a_path_is_a_cache_miss(tmp_path,
                                                                        monkeypatch):
    opened: list[str] = []
    real_open = open
    monkeypatch.setattr("builtins.open", lambda p, *a, **k: (opened.append(str(p)),
                                                             real_open(p, *a, **k))[1])
    store = facestore.FaceStore(tmp_path / "output" / ".cache")
    path = store.path("en", "k" * 32)
    # sealed with the project's own key: the allow-list holds even past the seal
    pickles.write(tmp_path / "output", f".cache/{path.name}", facestore.MAGIC, "k" * 32,
                  pickle.dumps(_OpensAFile(ROOT / "README.md")))
    kept = store.kept("en", "k" * 32)()
    assert isinstance(kept, facestore.Kept) and str(ROOT / "README.md") not in opened


def test_an_edit_removes_the_temporaries_of_killed_edits(tmp_path):
    card = tmp_path / "cards.yaml"
    card.write_text("a: 1\n", encoding="utf-8")
    stale = tmp_path / ".cards.yaml.abcd1234.tmp"
    stale.write_text("half", encoding="utf-8")
    other = tmp_path / ".other.yaml.abcd1234.tmp"
    other.write_text("not ours", encoding="utf-8")
    rewrite_file(card, b"a: 2\n")
    assert card.read_bytes() == b"a: 2\n" and not stale.exists() and other.exists()


# --- options in their ranges --------------------------------------------------------------------

@pytest.mark.parametrize(("argv", "says"), [
    (["build", "--back-offset", "nan;inf"], "finite numbers"),
    (["build", "--back-offset", "nan,0"], "--back-offset"),
    (["build", "--jobs", "-1"], "from 0 to 256"),
    (["build", "--lang", "en,en"], "en named twice"),
    (["serve", "--port", "99999"], "from 0 to 65,535"),
    (["preflight", "--ink-limit", "nan", "x.pdf"], "from 100 to 400"),
    (["playtest", "--games", "0"], "from 1 to 1,000,000"),
    (["playtest", "--games", "9" * 5000], "--games"),
])
def test_an_option_out_of_its_range_is_a_usage_error(project, capsys, argv, says):
    with pytest.raises(SystemExit) as caught:
        main(["--project", str(project), *argv])
    err = capsys.readouterr().err
    assert caught.value.code == 2 and f"argument {argv[1]}" in err and says in err


@pytest.mark.parametrize("what", ["missing", "device", "fifo", "folder"])
def test_preflight_of_something_not_a_pdf_file_exits_2(tmp_path, capsys, what):
    path = {"missing": tmp_path / "gone.pdf", "device": Path("/dev/null"),
            "fifo": tmp_path / "pipe.pdf", "folder": tmp_path}[what]
    if what == "fifo":
        os.mkfifo(path)
    with ceiling():
        assert main(["preflight", str(path)]) == 2
    assert str(path) in capsys.readouterr().out


def _pdf_with_stream(*streams: bytes) -> bytes:
    """A one-page PDF whose content streams are ``streams``, Flate-compressed."""
    contents = b" ".join(b"%d 0 R" % (4 + i) for i in range(len(streams)))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Contents [%s] >>" % contents,
               *(b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(d), d)
                 for d in streams)]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (i, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.write(b"".join(b"%010d 00000 n \n" % o for o in offsets))
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%EOF\n"
              % (len(objects) + 1, xref))
    return out.getvalue()


def test_preflight_refuses_a_decompression_bomb_before_it_fills_memory(tmp_path, capsys,
                                                                       monkeypatch):
    from cardgen.press import pdfstreams
    monkeypatch.setattr(pdfstreams, "MAX_STREAM", 1024 * 1024)  # the same check, smaller
    packer = zlib.compressobj(9)
    bomb = b"".join(packer.compress(b"0" * 2**20) for _ in range(8)) + packer.flush()
    path = tmp_path / "bomb.pdf"
    path.write_bytes(_pdf_with_stream(bomb))
    with ceiling():
        assert main(["preflight", str(path)]) == 2
    out = capsys.readouterr()
    assert "decodes to more than 1 MB" in out.out + out.err


def test_preflight_bounds_what_all_streams_of_one_file_decode_to(tmp_path, capsys, monkeypatch):
    """Each stream under its own cap, together over the file's (38.4: preflight bytes
    decoded per file): refused with exit 2 before they fill memory."""
    from cardgen.press import pdfread
    monkeypatch.setattr(pdfread, "MAX_DECODED", 2 * 1024 * 1024)  # the same check, smaller
    part = zlib.compress(b"0 0 m\n" * 100_000, 9)  # 600 kB each, well under a stream's cap
    path = tmp_path / "many.pdf"
    path.write_bytes(_pdf_with_stream(*[part] * 5))
    with ceiling():
        assert main(["preflight", str(path)]) == 2
    out = capsys.readouterr()
    assert "decode to more than 2 MB together" in out.out + out.err and "many.pdf" in out.err


# --- files and requests of the wrong size or shape -------------------------------------------

@pytest.mark.parametrize(("length", "body"), [
    ("-5", b""), ("99999999", b"{}"), ("", b"{}"), ("1e3", b"{}"),
    ("24", b'{"file": "a", "line": Infinity}'), ("20", b'{"file": "a", "line": NaN}'),
    ("4000", b"[" * 4000), ("20", b'{"file": "a", "line": true}'),
    ("21", b'{"file": "a", "line": "12"}'), ("16", b'{"file": "a", "line": 1}'[:16]),
])
def test_a_malformed_open_request_is_refused(length, body):
    assert open_request(length, lambda n: body[:n]) is None


def test_a_well_formed_open_request_is_taken():
    body = b'{"file": "card_data/cards/events.yaml", "line": 12}'
    assert open_request(str(len(body)), lambda n: body[:n]) == ("card_data/cards/events.yaml", 12)
    assert len(body) < MAX_BODY


@pytest.mark.parametrize(("content", "says"), [
    ("[" * 100_000, "nests too deeply"),
    ('{"cards": [{"id": "' + "x" * 100_000 + '"}]}', "ids of at most 64 characters"),
    ('{"cards": [{"id": "a", "texts": [1]}]}', "a list of"),
])
def test_a_changed_since_manifest_too_deep_or_of_the_wrong_shape_exits_2(project, capsys,
                                                                        tmp_path, content, says):
    path = tmp_path / "manifest.json"
    path.write_text(content, encoding="utf-8")
    code, out = _run(project, capsys, "build", "--changed-since", str(path), bounded=True)
    assert code == 2 and str(path) in out and says in out


@pytest.mark.parametrize("what", ["fifo", "/dev/zero", "deep"])
def test_a_compare_report_that_is_not_one_exits_2(project, capsys, tmp_path, what):
    path = Path("/dev/zero") if what == "/dev/zero" else tmp_path / "report.json"
    if what == "fifo":
        os.mkfifo(path)
    elif what == "deep":
        path.write_text("[" * 100_000, encoding="utf-8")
    code, out = _run(project, capsys, "playtest", "--games", "1", "--compare", str(path),
                     bounded=True)
    assert code == 2 and str(path) in out


def test_a_profile_number_far_out_of_range_is_an_error_at_its_line(project):
    line = replace_in(project / "layouts" / "profiles.yaml", "bleed_px: 36", "bleed_px: 10000000")
    with ceiling(), pytest.raises(CardgenError) as caught:
        load_profiles(at(project))
    found = caught.value.findings[0]
    assert found.location.line == line and "from 0 to 500" in found.message


@pytest.mark.parametrize(("file", "old", "new", "says"), [
    (GAME, "  shields: 6 ", "  shields: " + "6" * 4400 + " ", "cannot be read"),
    (GAME, "  shields: 6 ", "  shields: 6000000000000000000 ", "at most 15 digits"),
    (GAME, "uncounterable_events: [battle-of-crecy, clement-vi-elected]",
     "uncounterable_events: true", "must be a list"),
    (CARDS / "luxembourg.yaml", "    yield: [any]", "    yield: 5", "must be a list"),
    (GAME, "  shields: 6 ", "  shields: 4.5 ", "must be a whole number"),
])
def test_a_number_or_type_no_card_needs_is_an_error_at_its_line(project, capsys, file, old, new,
                                                                says):
    line = replace_in(project / file, old, new)
    code, out = _run(project, capsys, "check")
    assert code == 1
    assert f"{file}:{line}:" in out and says in out and "Traceback" not in out


@pytest.mark.parametrize("what", ["fifo", "folder"])
def test_build_exits_2_for_a_fifo_or_folder_where_an_input_file_belongs(project, capsys, what):
    art = project / "art" / "charles-iv.png"
    if what == "fifo":
        os.mkfifo(art)
    else:
        art.mkdir()
        (project / CARDS / "events.yaml").unlink()
        (project / CARDS / "events.yaml").mkdir()
    code, out = _run(project, capsys, "build", "--lang", "en")
    assert code == 2 and "art/charles-iv.png" in out and "expected a file" in out
    assert not (project / "output" / "en" / "cards.pdf").exists()


@pytest.mark.parametrize("how", ["empty", "missing"])
def test_an_empty_or_missing_facts_file_is_an_error(project, capsys, how):
    facts = project / "card_data" / "rules" / "facts.yaml"
    if how == "empty":
        facts.write_text("", encoding="utf-8")
    else:
        facts.unlink()
    code, out = _run(project, capsys, "check")
    assert code == 1 and "card_data/rules/facts.yaml" in out and f"is {how}" in out


def test_the_shipped_project_holds_no_link_out_of_itself():
    for path in ROOT.glob("card_data/**/*"):
        assert path.resolve().is_relative_to(ROOT), path
    assert shutil.which("qpdf")  # preflight's cases above need it
