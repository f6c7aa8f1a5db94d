"""`cardgen serve` without a browser: what its HTTP side refuses (paths outside the preview's
images, foreign hosts, editor requests for places no finding points at), a taken port, and
the preview build (one card's edit redraws one image; a failed build keeps the last cards)."""

from __future__ import annotations

import http.client
import json
import socket
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import allow_czech_rewording, replace_in
from PIL import Image

import cardgen.serve
from cardgen.build.options import BuildOptions
from cardgen.cli import main
from cardgen.errors import Location, warning
from cardgen.files.incremental import tree_digest
from cardgen.serve.builder import DeskBuilder
from cardgen.serve.desk import Desk, Sources
from cardgen.serve.editor import Editor
from cardgen.serve.images import ImageCache
from cardgen.serve.web import DeskServer

SECRET = "secret: do not serve\n"


@pytest.fixture
def site(tmp_path: Path):
    """A running server on a small project: one image in output/serve, one card file."""
    project = tmp_path / "project"
    (project / "card_data" / "cards").mkdir(parents=True)
    (project / "card_data" / "cards" / "x.yaml").write_text(SECRET + "a: 1\nb: 2\n")
    images = project / "output" / "serve"
    (images / "cards").mkdir(parents=True)
    (images / "cards" / "a.jpg").write_bytes(b"\xff\xd8jpeg")
    (images / "cards" / "link.jpg").symlink_to(project / "card_data" / "cards" / "x.yaml")
    desk = Desk(project, editor=True, openable={("card_data/cards/x.yaml", 2)})
    marker = tmp_path / "opened.txt"
    editor = Editor(f"{sys.executable} -c 'import sys; open(sys.argv[1], \"w\").write(sys.argv[2])' "
                    f"{marker} {{file}}:{{line}}")
    server = DeskServer(0, desk, images, editor)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    yield server, project, marker
    server.stop()


def _ask(server: DeskServer, path: str, method: str = "GET", body: bytes | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    sent = {"Host": f"127.0.0.1:{server.server_address[1]}", **(headers or {})}
    if body is not None:
        sent["Content-Length"] = str(len(body))
    for name, value in sent.items():
        conn.putheader(name, value)
    conn.endheaders(body)
    res = conn.getresponse()
    data = res.read()
    conn.close()
    return res.status, data


def test_the_page_needs_no_network_and_no_build_step() -> None:
    static = Path(cardgen.serve.__file__).parent / "static"
    assert sorted(p.name for p in static.iterdir()) == ["app.css", "app.js", "index.html"]
    for path in static.iterdir():
        text = path.read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text and "import " not in text, path


@pytest.mark.parametrize("path", [
    "/img/../../card_data/cards/x.yaml",
    "/img/cards/../../../card_data/cards/x.yaml",
    "/img/%2e%2e/%2e%2e/card_data/cards/x.yaml",
    "/img/%2E%2E%2F%2E%2E%2Fcard_data%2Fcards%2Fx.yaml",
    "/img/cards/..%5c..%5c..%5ccard_data%5ccards%5cx.yaml",
    "/img//etc/passwd",
    "/img/%2Fetc%2Fpasswd",
    "/img/cards/link.jpg",  # a link out of the folder
    "/../card_data/cards/x.yaml",
    "/static/../../card_data/cards/x.yaml",
    "/static/%2e%2e/%2e%2e/card_data/cards/x.yaml",
    "/card_data/cards/x.yaml",
])
def test_paths_outside_the_preview_images_are_refused(site, path: str) -> None:
    server, _project, _marker = site
    status, body = _ask(server, path)
    assert status in (403, 404)
    assert b"secret" not in body


def test_the_preview_serves_its_images_and_page_to_its_own_host_only(site) -> None:
    server, _project, _marker = site
    assert _ask(server, "/img/cards/a.jpg") == (200, b"\xff\xd8jpeg")
    assert _ask(server, "/img/cards/missing.jpg")[0] == 404
    status, page = _ask(server, "/")
    assert status == 200 and b"designer's desk" in page
    assert _ask(server, "/static/app.js")[0] == 200
    state = json.loads(_ask(server, "/api/state")[1])
    assert state["cards"] == [] and state["editor"] is True
    # a page on another site reaching this port by DNS rebinding is refused
    assert _ask(server, "/api/state", headers={"Host": "evil.example"})[0] == 403


def test_the_exported_spreadsheet_is_offered_for_download(site) -> None:
    server, project, _marker = site
    status, body = _ask(server, "/sheet/cards.ods")
    assert status == 404 and b"cardgen sheet export" in body  # none exported yet
    sheet = project / "output" / "sheet"
    sheet.mkdir()
    (sheet / "cards.ods").write_bytes(b"PK ods")
    (sheet / "cards.xlsx").symlink_to(project / "card_data" / "cards" / "x.yaml")
    assert _ask(server, "/sheet/cards.ods") == (200, b"PK ods")
    assert _ask(server, "/sheet/cards.xlsx")[0] == 404  # a link out: through the output wall
    assert _ask(server, "/sheet/imported.json")[0] == 404  # only the two workbooks
    assert b'href="/sheet/cards.ods"' in _ask(server, "/")[1]


def test_a_full_size_face_is_drawn_on_first_view_and_only_under_full(site) -> None:
    server, _project, _marker = site
    asked: list[str] = []

    def full(name: str) -> Path | None:
        asked.append(name)
        if name != "full/" + "a" * 32 + ".png":
            return None  # no face of the last build has this key
        path = server.images / name
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(b"\x89PNG drawn")
        return path

    server.full = full
    assert _ask(server, "/img/full/" + "a" * 32 + ".png") == (200, b"\x89PNG drawn")
    assert _ask(server, "/img/full/" + "a" * 32 + ".png")[0] == 200  # kept: drawn once
    assert _ask(server, "/img/full/" + "b" * 32 + ".png")[0] == 404
    assert _ask(server, "/img/cards/missing.jpg")[0] == 404  # nothing drawn outside full/
    assert asked == ["full/" + "a" * 32 + ".png", "full/" + "b" * 32 + ".png"]


def test_no_endpoint_writes_to_card_data(site) -> None:
    server, project, _marker = site
    before = tree_digest((project / "card_data").rglob("*.yaml"), project)
    for method in ("PUT", "DELETE", "PATCH"):
        assert _ask(server, "/card_data/cards/x.yaml", method, b"a: 9\n")[0] == 501
    assert _ask(server, "/img/cards/x.yaml", "POST", b"a: 9\n",
                {"Content-Type": "application/json"})[0] == 404
    assert tree_digest((project / "card_data").rglob("*.yaml"), project) == before


def _open(server: DeskServer, file: str, line: int, kind: str = "application/json") -> int:
    body = json.dumps({"file": file, "line": line}).encode()
    return _ask(server, "/api/open", "POST", body, {"Content-Type": kind})[0]


def test_the_editor_opens_only_where_a_finding_points(site) -> None:
    server, project, marker = site
    assert _open(server, "card_data/cards/x.yaml", 3) == 403  # no finding there
    assert _open(server, "../../etc/passwd", 2) == 403
    assert _open(server, "card_data/cards/x.yaml", 2, "text/plain") == 415  # cross-site form
    assert not marker.exists()
    assert _open(server, "card_data/cards/x.yaml", 2) == 200
    target = f"{(project / 'card_data' / 'cards' / 'x.yaml').resolve()}:2"
    for _ in range(100):  # the editor is started, not waited for
        if marker.exists() and marker.read_text() == target:
            break
        time.sleep(0.05)
    assert marker.read_text() == target


def test_only_card_data_lines_can_be_opened(tmp_path: Path) -> None:
    (tmp_path / "card_data").mkdir()
    (tmp_path / "card_data" / "game.yaml").write_text("counts:\n  cards: 82\n")
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "card.yaml").write_text("width: 63\n")
    sources = Sources(tmp_path)
    shown = sources.finding(warning("x", "m", location=Location("card_data/game.yaml", 2, 3)))
    assert (shown["openable"], shown["source"], shown["where"]) == (True, "  cards: 82",
                                                                     "card_data/game.yaml:2:3")
    for loc in (Location("layouts/card.yaml", 1), Location("card_data/../layouts/card.yaml", 1)):
        assert sources.finding(warning("x", "m", location=loc))["openable"] is False


def test_a_taken_port_is_a_clear_error(tmp_path: Path, capsys) -> None:
    (tmp_path / "card_data").mkdir()
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--project", str(tmp_path), "--port", str(port)]) == 2
    out = capsys.readouterr().out
    assert f"port {port} on 127.0.0.1 is already in use" in out and "--port" in out


def test_an_editor_template_without_a_file_is_refused(tmp_path: Path, capsys) -> None:
    (tmp_path / "card_data").mkdir()
    assert main(["serve", "--project", str(tmp_path), "--editor", "code -g"]) == 2
    assert "has no {file}" in capsys.readouterr().out


def test_one_card_edit_redraws_one_image_and_a_failed_build_keeps_the_cards(project: Path) -> None:
    allow_czech_rewording(project)
    desk = Desk(project)
    images = project / "output" / "serve"
    build = DeskBuilder(desk, ImageCache(images))
    options = BuildOptions(jobs=1)
    assert build(project, options, lambda _line: None)
    first = desk.snapshot()
    assert first["build"]["redrawn"] == 2 * len(first["cards"]) == 152  # both faces of 76 cards
    src = {c["id"]: c["images"] for c in first["cards"]}
    # screen size: the trimmed 63 × 88 mm card at 150 dpi, drawn (not blank)
    with Image.open(images / src["charles-iv"]["cs"].removeprefix("/img/")) as img:
        assert img.size == (372, 520)
        assert max(hi - lo for lo, hi in img.getextrema()) > 100
    # full size, drawn when first asked for: print resolution with the 3 mm bleed (69 × 94 mm)
    charles = next(c for c in first["cards"] if c["id"] == "charles-iv")
    full = build.full(charles["full"]["en"].removeprefix("/img/"))
    assert full is not None and build.full("full/" + "0" * 32 + ".png") is None
    with Image.open(full) as img:
        assert img.size == (815, 1111) and img.info["dpi"][0] == pytest.approx(300, abs=1)
    # the overlay's regions: the art's visible window lies between the name bar and the text
    # panel (29.6 of the art's 42 mm), the safe area 4 mm inside the trim
    geometry = first["geometry"]
    assert geometry["window"] == [3.0, 17.4, 63.0, 29.6]
    assert geometry["safe"] == [7.0, 7.0, 55.0, 80.0] and geometry["trim"] == [3, 3, 63, 88]

    replace_in(project / "card_data" / "cards" / "events.yaml", "Lucemburkové vyřadí ze hry až",
               "Lucemburkové smějí vyřadit ze hry až")
    assert build(project, options, lambda _line: None)
    second = desk.snapshot()
    assert (second["build"]["redrawn"], second["build"]["changed"]) == (1, ["dream-at-terenzo"])
    moved = {(c["id"], lang) for c in second["cards"] for lang in ("en", "cs")
             if c["images"][lang] != src[c["id"]][lang]}
    assert moved == {("dream-at-terenzo", "cs")}
    assert len(list((images / "cards").iterdir())) == 153  # the replaced image is kept one build

    line = replace_in(project / "card_data" / "cards" / "events.yaml", "    number: 46\n",
                      "    number: 46\n  deck: [market\n") + 1
    assert not build(project, options, lambda _line: None)
    failed = desk.snapshot()
    # the last good images stay; the error is on the tile of the card whose record it is in
    assert [{**c, "errors": []} for c in failed["cards"]] == second["cards"]
    [owner] = [c for c in failed["cards"] if c["errors"]]
    assert owner["id"] == "coronation-in-rome"
    assert [e["where"] for e in owner["errors"]] == [f"card_data/cards/events.yaml:{line}:3"]
    assert owner["errors"][0]["source"] == "  deck: [market"  # its line, shown
    assert failed["build"]["ok"] is False
    wheres = [e["where"] for e in failed["errors"]]
    assert f"card_data/cards/events.yaml:{line}:3" in wheres
    assert desk.may_open("card_data/cards/events.yaml", line)


def test_a_card_shows_what_changed_since_the_last_commit(project: Path) -> None:
    import subprocess

    from cardgen.serve.changes import card_changes

    assert card_changes(project) == {}  # no repository: nothing to compare with
    git = ["git", "-C", str(project), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "card_data"], check=True)
    subprocess.run([*git, "commit", "-qm", "the data"], check=True)
    assert card_changes(project) == {}
    market = project / "card_data" / "cards" / "market.yaml"
    replace_in(market, "    political: 2\n    military: 3\n", "    political: 3\n    military: 3\n")
    replace_in(market, "a\u00a01\u00a0říšskou měnu. Lízni 1\u00a0kartu.",
               "a\u00a01\u00a0říšskou měnu. Lízni 2\u00a0karty.")
    replace_in(market, "        - {op: gain_currency, amount: 1, currency: german}\n"
               "        - {op: draw, amount: 1}\n      text:",
               "        - {op: gain_currency, amount: 1, currency: german}\n"
               "        - {op: draw, amount: 2}\n      text:")
    with market.open("a", encoding="utf-8") as f:
        f.write("\n  - {id: new-card-59, number: 59, deck: market, kind: card}\n")
    changes = card_changes(project)
    assert changes["philip-vi"] == [{"what": "political", "was": "2", "now": "3"}]
    # an effect's amount, named as `cardgen diff` and the sheet's column name it
    assert {"what": "deed.draw.amount", "was": "1", "now": "2"} in changes["prague-burghers"]
    [text] = [c for c in changes["prague-burghers"] if c["what"].endswith(".text.cs")]
    assert text["what"] == "deed.text.cs" and text["now"].endswith("…")  # a long text, cut
    assert changes["new-card-59"] == [{"what": "new card", "was": "", "now": ""}]
    assert set(changes) == {"philip-vi", "prague-burghers", "new-card-59"}
