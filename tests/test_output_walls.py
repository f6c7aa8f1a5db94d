"""One output wall and nothing planted trusted (issue 38, items 1 and 3): every path under
output/ that a command reads, writes, lists or deletes goes through
``cardgen.files.safepath.output_path``, so a link there that leads out, or a FIFO or device,
is refused before anything is touched (a folder outside hashes the same before and after);
the caches and the build state are sealed with the project's own key, so a forged entry,
however well-formed, is ignored and rebuilt; and the outputs a build state names are read
through the same wall (``/dev/zero``, a FIFO or a path out of output/ is never opened)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import pickle
from pathlib import Path

import pytest

from cardgen.build.check import run_check
from cardgen.cli import main
from cardgen.data.cardcache import MAGIC, NAME, CardFileCache, _allowed, _key
from cardgen.data.load import load
from cardgen.errors import CardgenError
from cardgen.files import pickles
from cardgen.files.incremental import CACHE_DIR, STATE_NAME, BuildState, JsonCache
from cardgen.files.safepath import output_path, output_tree
from cardgen.files.seal import KEY_NAME, make_key, read_key, seal
from tests.conftest import replace_in, tree_hash

LUX = "card_data/cards/luxembourg.yaml"
FORGED = "Casimir the Forged"


def _run(project: Path, capsys, *argv: str) -> tuple[int, str]:
    code = main(["--project", str(project), *argv])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside the project holding what a build's clean-ups would delete if they
    walked into it: a killed write's temporary file, an old copy of the inputs, a key."""
    folder = tmp_path / "elsewhere"
    (folder / "inputs-old" / "card_data").mkdir(parents=True)
    (folder / "inputs-old" / "card_data" / "game.yaml").write_text("keep\n", encoding="utf-8")
    for name in (".cards.pdf.a1b2c3d4.tmp", ".fit.json.qwertyui.tmp", "file", "report.json"):
        (folder / name).write_text("outside: do not touch\n", encoding="utf-8")
    return folder


# --- item 1: a link out anywhere a command works, refused before any side effect -----------

#: (the link under output/, the command): each writer, lister and cleaner of output/
WRITERS = [
    ("", ("build",)),                          # output/ itself, out of the project
    ("en", ("build",)),                        # the clean-up of temporaries walked it
    ("cs", ("build", "--lang", "en")),         # cleaned even when not built
    ("en/png", ("build",)),                    # a subfolder of a language
    (".cache", ("build",)),                    # old input copies were rmtree'd there
    (f"{CACHE_DIR}/inputs-k1ll3d00", ("build",)),
    (KEY_NAME, ("build",)),
    (f"{CACHE_DIR}/{NAME}", ("build",)),
    (f"{CACHE_DIR}/fit.json", ("build",)),
    (STATE_NAME, ("build",)),
    ("en", ("tables",)),
    ("proof", ("proof",)),
    ("playtest", ("playtest", "--games", "1")),
    ("playtest/en", ("playtest", "--games", "1")),
    ("serve", ("serve", "--port", "0")),
    ("serve/cards", ("serve", "--port", "0")),
]


@pytest.mark.parametrize(("rel", "argv"), WRITERS, ids=[f"{a[0]}:{r or 'output'}"
                                                         for r, a in WRITERS])
def test_a_link_out_of_output_is_refused_and_nothing_outside_changes(project, outside, capsys,
                                                                     rel, argv):
    link = project / "output" / rel if rel else project / "output"
    link.parent.mkdir(parents=True, exist_ok=True)
    is_file = "." in Path(rel).name.lstrip(".") or rel == KEY_NAME
    link.symlink_to(outside / "file" if is_file else outside)
    before = tree_hash(outside)
    code, out = _run(project, capsys, *argv)
    assert code == 2, out
    assert "unsafe-path" in out and f"refusing {link}: it is a link that leads out of" in out
    assert tree_hash(outside) == before


def test_check_reads_no_cache_through_a_link_out(project, outside, capsys, monkeypatch):
    """`check` only reads output/: through a link out it reads nothing (no cache, no key)."""
    (project / "output").mkdir()
    (project / "output" / CACHE_DIR).symlink_to(outside)
    for name in (NAME, "checks.json", "fit.json", "key"):
        (outside / name).write_bytes(b"planted")
    opened: list[str] = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda p, *a, **k: (opened.append(os.fspath(p)),
                                                        real_open(p, *a, **k))[1])
    code, out = _run(project, capsys, "check")
    assert code == 0, out
    assert opened and not [p for p in opened if "elsewhere" in p or f"{CACHE_DIR}/" in p]


@pytest.mark.parametrize("rel", ["en/cards.pdf", f"{CACHE_DIR}/fit.json", STATE_NAME, KEY_NAME,
                                 "en/png/001-charles-iv.png"])
def test_a_fifo_in_output_is_refused_not_opened(project, capsys, rel):
    path = project / "output" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)  # opened for reading, it would block the build for ever
    code, out = _run(project, capsys, "build")
    assert code == 2, out
    assert f"{path}: error[not-a-file]: expected a file but found a named pipe (FIFO)" in out


def test_a_device_linked_in_as_an_output_is_refused(project, capsys):
    (project / "output" / "en").mkdir(parents=True)
    (project / "output" / "en" / "cards.pdf").symlink_to("/dev/zero")
    code, out = _run(project, capsys, "build")
    assert code == 2 and f"refusing {project / 'output' / 'en' / 'cards.pdf'}" in out, out


def test_the_wall_refuses_at_the_part_at_fault(tmp_path, outside):
    output = tmp_path / "project" / "output"
    (output / "en").mkdir(parents=True)
    (output / "inner").symlink_to(output / "en")  # a link inside output/ works
    assert output_path(output, "inner/cards.pdf") == output / "inner" / "cards.pdf"
    (output / "en" / "away").symlink_to(outside)
    for rel, where in [("en/away/x.pdf", output / "en" / "away"),
                       ("inner/away", output / "inner" / "away")]:
        with pytest.raises(CardgenError) as caught:
            output_path(output, rel, folder=True)
        assert caught.value.findings[0].location.file == str(where)
    with pytest.raises(CardgenError, match="leads out of output/"):
        output_tree(output, "en")  # listing for a clean-up: refused before any file is given
    (output / "en" / "away").unlink()
    (output / "en" / "file").write_text("x", encoding="utf-8")
    with pytest.raises(CardgenError) as caught:
        output_path(output, "en/file/x.pdf")
    assert caught.value.findings[0].code == "os-in-the-way"


def test_the_preview_prunes_and_answers_only_through_the_wall(tmp_path, outside):
    import http.client
    import threading

    from cardgen.serve.desk import IMAGE_ROUTE, Desk
    from cardgen.serve.images import ImageCache
    from cardgen.serve.web import DeskServer
    images = tmp_path / "project" / "output" / "serve"
    (images / "cards").mkdir(parents=True)
    (images / "game").symlink_to(outside)  # planted while the preview runs
    before = tree_hash(outside)
    with pytest.raises(CardgenError, match="leads out of output/"):
        ImageCache(images).prune(set())  # it deleted every file there not shown
    assert tree_hash(outside) == before
    os.mkfifo(images / "cards" / "pipe.jpg")
    (images / "cards" / "zero.jpg").symlink_to("/dev/zero")
    server = DeskServer(0, Desk(tmp_path / "project"), images)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    try:
        for name in ("pipe.jpg", "zero.jpg"):
            conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
            conn.request("GET", f"{IMAGE_ROUTE}cards/{name}",
                         headers={"Host": f"127.0.0.1:{server.server_address[1]}"})
            assert conn.getresponse().status in (403, 404)  # answered at once, not read
            conn.close()
    finally:
        server.stop()


# --- item 3: caches and the build state sealed with the project's own key ------------------

def _forge(project: Path, mac_of) -> None:
    """A card cache whose luxembourg.yaml entry, for the file's bytes as they are now, says
    Charles IV is named FORGED and the file has no findings: well-formed in every way, its
    frame's MAC made by ``mac_of(body)`` (what the forger can compute)."""
    output = project / "output"
    kept = CardFileCache(keep=True)
    load(project, kept)
    cards, _found = pickles.loads(kept.live[LUX][1], _allowed)
    cards = [dataclasses.replace(c, name=dataclasses.replace(
        c.name, values={**c.name.values, "en": FORGED})) if c.id == "charles-iv" else c
        for c in cards]
    sha = hashlib.sha256((project / LUX).read_bytes()).hexdigest()
    body = pickle.dumps({**kept.live, LUX: (sha, pickle.dumps((cards, [])))})
    path = output / CACHE_DIR / NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join([MAGIC, _key().encode(), b"\n", mac_of(body).encode(), b"\n",
                               body]))


def _plain_sha(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def _planted_key(project: Path):
    """A key file planted with the project, as a checkout makes it (mode 0644), and a MAC
    made with it."""
    key = project / "output" / KEY_NAME
    key.parent.mkdir(parents=True, exist_ok=True)
    key.write_bytes(b"k" * 32)
    key.chmod(0o644)
    return lambda body: seal(b"k" * 32, MAGIC, _key(), body)


@pytest.mark.parametrize("forger", ["checksum", "own key", "planted key"])
def test_a_forged_card_cache_entry_is_ignored(project, forger):
    output = project / "output"
    if forger == "own key":
        make_key(output)  # the project has its key; the forger has another
        mac_of = lambda body: seal(os.urandom(32), MAGIC, _key(), body)  # noqa: E731
    else:
        mac_of = _planted_key(project) if forger == "planted key" else _plain_sha
    _forge(project, mac_of)
    cache = CardFileCache.read(output, keep=True)  # as the build reads it
    assert cache.stored == {}
    data, _found = load(project, cache)
    assert {c.id: c.name.values["en"] for c in data.cards}["charles-iv"] == "Charles IV"
    if forger == "planted key":  # the next build replaces it with a key of its own
        assert make_key(output) != b"k" * 32
        assert (output / KEY_NAME).stat().st_mode & 0o777 == 0o600


def test_a_forged_entry_hiding_an_error_does_not_hide_it_from_check(project, capsys):
    line = replace_in(project / LUX, "    political: 3\n", "    political: 3\n    colour: red\n") + 1
    _forge(project, _plain_sha)  # says: no findings, and Charles IV is FORGED
    code, out = _run(project, capsys, "check")
    assert code == 1 and f"{LUX}:{line}:5: error[unknown-key]" in out, out
    (project / LUX).write_text((project / LUX).read_text(encoding="utf-8").replace(
        "    colour: red\n", ""), encoding="utf-8")
    _forge(project, _plain_sha)
    report = run_check(project)  # the build's check: the faces it prints
    assert {f.card_id: f.name for f in report.faces["en"]}["charles-iv"] == "Charles IV"


def test_a_forged_face_cache_is_ignored(tmp_path):
    """A face library whose drawings are well-formed (here: shadings it would place on
    every face kept) but framed with a checksum, or sealed with another key: nothing kept."""
    from cardgen.render import facestore
    from cardgen.render.faceforms import Kept
    output = tmp_path / "project" / "output"
    store = facestore.FaceStore(output / CACHE_DIR)
    key = "k" * 32
    body = pickle.dumps(Kept(shadings={"forged": {"Type": 2}}))
    pickles.write(output, f"{CACHE_DIR}/{store.path('en', key).name}", facestore.MAGIC, key,
                  body)
    assert store.kept("en", key)().shadings == {"forged": {"Type": 2}}  # sealed: it holds
    for mac in (hashlib.sha256(body).hexdigest(),
                seal(os.urandom(32), facestore.MAGIC, key, body)):
        store.path("en", key).write_bytes(b"".join([facestore.MAGIC, key.encode(), b"\n",
                                                    mac.encode(), b"\n", body]))
        assert store.kept("en", key)() == Kept()


def test_a_json_cache_or_state_sealed_with_another_key_is_ignored(tmp_path):
    output = tmp_path / "project" / "output"
    JsonCache(output, "checks").write("k", {"card": []})
    assert JsonCache(output, "checks").read("k") == {"card": []}
    path = output / CACHE_DIR / "checks.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    forged = dict(doc, payload={"card": ["forged"]})
    forged["seal"] = seal(os.urandom(32), "k", json.dumps(forged["payload"], sort_keys=True,
                                                            separators=(",", ":")))
    path.write_text(json.dumps(forged), encoding="utf-8")
    assert JsonCache(output, "checks").read("k") is None
    BuildState(output / STATE_NAME, {"en/cards.pdf": {"key": "k", "sha256": "0"}}, "i",
               ["en/cards.pdf"]).save()
    state = json.loads((output / STATE_NAME).read_text(encoding="utf-8"))
    state["entries"]["en/cards.pdf"]["sha256"] = "1"  # edited: the seal no longer holds
    (output / STATE_NAME).write_text(json.dumps(state), encoding="utf-8")
    assert BuildState.read(output).entries == {}


def test_a_key_file_that_is_not_the_users_own_is_never_used(tmp_path, outside):
    output = tmp_path / "project" / "output"
    key = output / KEY_NAME
    key.parent.mkdir(parents=True)
    key.write_bytes(b"k" * 32)
    for mode in (0o644, 0o640, 0o604):
        key.chmod(mode)
        assert read_key(output) is None
    key.unlink()
    key.symlink_to(output / "other")  # a link, even inside output/, is never followed
    (output / "other").write_bytes(b"k" * 32)
    (output / "other").chmod(0o600)
    assert read_key(output) is None
    made = make_key(output)
    assert made is not None and not key.is_symlink() and (output / "other").exists()
    key.unlink()
    key.symlink_to(outside / "file")
    with pytest.raises(CardgenError, match="leads out of output/"):
        make_key(output)


def test_the_outputs_a_state_names_are_read_through_the_wall(tmp_path, monkeypatch):
    """A state (even one sealed with the project's key) that lists /dev/zero, a FIFO or a
    path out of output/ as an output: never opened; each is an output to make again."""
    output = tmp_path / "project" / "output"
    (output / "en").mkdir(parents=True)
    os.mkfifo(output / "en" / "pipe.pdf")
    (tmp_path / "secret.pdf").write_bytes(b"outside")
    outputs = ["/dev/zero", "en/pipe.pdf", "../../secret.pdf", "en/../../secret.pdf"]
    BuildState(output / STATE_NAME, {rel: {"key": "k", "sha256": "x"} for rel in outputs},
               "inputs", outputs).save()
    opened: list[str] = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda p, *a, **k: (opened.append(str(p)),
                                                        real_open(p, *a, **k))[1])
    state = BuildState.read(output)
    assert state.outputs == outputs  # sealed: read as written
    assert not state.unchanged("inputs", output)
    assert not any(state.fresh(rel, "k", output) for rel in outputs)
    assert not [p for p in opened if "zero" in p or "pipe" in p or "secret" in p]


# --- item 4 (in part): one budget of `extends:` loads per command ------------------------

def _diamond(project: Path, levels: int) -> None:
    """layouts/card.yaml extends two layouts, each of which extends the same two of the
    next level, …, down to the shipped card layout: 2**levels paths to it."""
    folder = project / "layouts"
    (folder / "card.yaml").rename(folder / "base.yaml")
    for level in range(levels, -1, -1):
        below = ("[base.yaml]" if level == levels
                 else f"[d{level + 1}a.yaml, d{level + 1}b.yaml]")
        names = ["card.yaml"] if level == 0 else [f"d{level}a.yaml", f"d{level}b.yaml"]
        for name in names:
            (folder / name).write_text(f"extends: {below}\n", encoding="utf-8")


def test_a_small_diamond_of_extends_loads(project):
    from cardgen.data.layout import load_layout
    plain = load_layout(project / "layouts" / "card.yaml", project)
    _diamond(project, 3)
    made = load_layout(project / "layouts" / "card.yaml", project)
    assert made.page_size == plain.page_size and made.fonts == plain.fonts


def test_a_diamond_of_extends_stops_at_the_commands_budget(project, capsys):
    from cardgen.data.layout import MAX_EXTENDS_LOADS, load_layout
    from cardgen.data.project import Documents
    _diamond(project, 17)  # 2**17 paths: 10**5 loads before there was a budget
    documents = Documents(project)
    with pytest.raises(CardgenError) as caught:
        load_layout(project / "layouts" / "card.yaml", project, documents)
    found = caught.value.findings[0]
    assert found.code == "layout-extends-budget" and found.location.line == 1
    assert found.location.file.startswith("layouts/d")
    assert documents.extends_loads == MAX_EXTENDS_LOADS + 1  # counted, not timed
    code, out = _run(project, capsys, "check")
    assert code == 1 and "error[layout-extends-budget]" in out and "fix: extend each" in out


@pytest.mark.parametrize(("limit", "value"), [("MAX_DATA_FILES", 3), ("MAX_DATA_BYTES", 20_000)])
def test_a_command_parses_data_files_up_to_its_budget(project, capsys, monkeypatch, limit, value):
    """Files and bytes of data parsed are counted per command (38.4): past the budget the
    command stops at the file where it was spent, exit 1, saying how to get under it."""
    from cardgen.data import project as gathered
    monkeypatch.setattr(gathered, limit, value)  # the same check, on a smaller budget
    code, out = _run(project, capsys, "check")
    assert code == 1 and "error[data-budget]" in out and "budget of data read is spent" in out
    assert "fix: remove the files that are no cards" in out
    documents = gathered.Documents(project)
    names = sorted(p.relative_to(project).as_posix() for p in (project / "card_data").rglob("*.yaml"))
    with pytest.raises(CardgenError) as caught:
        for rel in names:
            documents.read(rel)
    spent = caught.value.findings[0].location.file
    assert spent in names and documents.files_read == names.index(spent) + 1  # no file after it
