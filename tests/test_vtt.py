"""`cardgen build --vtt`: the Tabletop Simulator table and the generic image set (issue 15).

One English build is made once for the module; a second pass rebuilds the sheets, board,
tokens and a few generic images with ``--vtt-base-url`` (determinism, hosted links), then one
card is changed (incremental).
"""

from __future__ import annotations

import csv
import json
import shutil
import struct
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
import yaml
from PIL import Image, ImageChops

from cardgen import pipeline
from cardgen.board.base import make_ctx
from cardgen.board.board import track_spaces
from cardgen.cli import main
from cardgen.errors import CardgenError
from cardgen.vtt import load_config, plan_piles, raster
from cardgen.vtt.tts import Table
from tests.conftest import copy_project, replace_in

SAVE = "king-of-the-romans.json"
BASE_URL = "https://example.org/king/en"
REMADE_GENERIC = ("generic/001-charles-iv.png", "generic/058-battle-of-crecy.png",
                  "generic/back.png", "generic/cards.csv")
CHANNEL_TOLERANCE, MAX_SHARE = 40, 0.002  # as tests/test_render_golden.py

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                reason="pdftoppm (poppler-utils) draws the images; "
                                "scripts/test.sh installs it")


@pytest.fixture(scope="module")
def first(tmp_path_factory) -> dict:
    project = copy_project(tmp_path_factory.mktemp("vtt") / "project")
    assert main(["--project", str(project), "build", "--lang", "en", "--vtt", "--quiet"]) == 0
    vtt = project / "output" / "en" / "vtt"
    snapshot = {p.relative_to(vtt).as_posix(): p.read_bytes() for p in vtt.rglob("*") if p.is_file()}
    return {"project": project, "vtt": vtt, "files": snapshot,
            "save": json.loads((vtt / SAVE).read_text(encoding="utf-8"))}


@pytest.fixture(scope="module")
def checked(first) -> pipeline.CheckReport:
    """The shipped project's faces, as the first build drew them."""
    return pipeline.run_check(first["project"])


@pytest.fixture(scope="module")
def second(first) -> dict:
    """Most of the vtt folder deleted and rebuilt with a base URL; then one Luxembourg card
    changed. (Every generic image is made by the same code; three of them stand for all.)"""
    project, vtt = first["project"], first["vtt"]
    for folder in ("sheets", "tokens"):
        shutil.rmtree(vtt / folder)
    for name in (*REMADE_GENERIC, "board.png", "back.png", "hidden.png"):
        (vtt / name).unlink()
    options = pipeline.BuildOptions(langs=("en",), vtt=True, vtt_base_url=BASE_URL)
    pipeline.build(project, options)
    files = {p.relative_to(vtt).as_posix(): p.read_bytes() for p in vtt.rglob("*") if p.is_file()}
    replace_in(project / "card_data" / "cards" / "luxembourg.yaml",
               "political: 3\n    military: 2", "political: 4\n    military: 2")
    changed = pipeline.build(project, options)
    return {"files": files, "written": {p.relative_to(vtt).as_posix()
                                        for p in changed.written if vtt in p.parents}}


def objects(save: dict, name: str) -> list[dict]:
    return [o for o in save["ObjectStates"] if o["Name"] == name]


def cell_pixels(project: Path) -> tuple[int, int]:
    w, h = yaml.safe_load((project / "layouts" / "vtt.yaml").read_text())["card"]["pixels"]
    return w, h


def local(url: str) -> Path:
    assert url.startswith("file://"), url
    return Path(unquote(urlparse(url).path))


def card_states(save: dict) -> list[dict]:
    out = []
    for o in save["ObjectStates"]:
        if o["Name"] == "Deck":
            out += o["ContainedObjects"]
        elif o["Name"] == "Card":
            out.append(o)
    return out


def test_saved_object_has_the_structure_tabletop_simulator_loads(first) -> None:
    save = first["save"]
    assert isinstance(save["ObjectStates"], list)
    decks = objects(save, "Deck")
    assert decks, "no deck on the table"
    for deck in decks:
        assert deck["Transform"]["rotZ"] == 180, f"{deck['Nickname']} is not face down (3.33)"
        assert len(deck["ContainedObjects"]) == len(deck["DeckIDs"])
        assert [c["CardID"] for c in deck["ContainedObjects"]] == deck["DeckIDs"]
    for card in card_states(save):
        (number, entry), = card["CustomDeck"].items()
        assert {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden"} <= entry.keys()
        assert entry["BackIsHidden"] is True
        assert 1 <= entry["NumWidth"] <= 10 and 1 <= entry["NumHeight"] <= 7
        deck, index = divmod(card["CardID"], 100)
        assert deck == int(number)
        # the last cell is the hidden-card image, never a card
        assert 0 <= index < entry["NumWidth"] * entry["NumHeight"] - 1
        assert card["Nickname"], "a card without a name"


def test_every_referenced_image_exists_with_its_grid(first) -> None:
    save, (cw, ch) = first["save"], cell_pixels(first["project"])
    urls: set[str] = set()
    for card in card_states(save):
        for entry in card["CustomDeck"].values():
            with Image.open(local(entry["FaceURL"])) as im:
                assert im.size == (entry["NumWidth"] * cw, entry["NumHeight"] * ch)
            with Image.open(local(entry["BackURL"])) as im:
                assert im.size == (cw, ch)
    for o in save["ObjectStates"]:
        for key in ("ImageURL", "ImageSecondaryURL"):
            url = o.get("CustomImage", {}).get(key)
            if url:
                urls.add(url)
        for inner in o.get("ContainedObjects", []):
            urls.update(v for k, v in inner.get("CustomImage", {}).items() if k.endswith("URL") and v)
    assert urls, "no board or token images referenced"
    for url in urls:
        assert local(url).is_file(), url
    with Image.open(first["vtt"] / "board.png") as board:
        assert board.width == 4096, "the board must keep its 8.5 pt text readable"
    for name in ("sheets/market.png", "board.png"):
        assert len(first["files"][name]) < 20_000_000, "Tabletop Simulator refuses huge images"


def test_piles_match_the_inventory_and_setup(first) -> None:
    """2.1: 82 physical cards; 3.31/3.32: starter decks with 4 Retinues each, Wittelsbach with
    its John; 3.41: Gerlach and Arnošt apart; 3.45: Crécy apart."""
    counts = yaml.safe_load((first["project"] / "card_data" / "game.yaml").read_text())["counts"]
    piles = {o["GUID"]: o for o in objects(first["save"], "Deck") + objects(first["save"], "Card")}
    by_name = {o["Nickname"]: o for o in piles.values()}
    sizes = {name: len(o.get("ContainedObjects", [o])) for name, o in by_name.items()}
    assert sum(sizes.values()) == counts["physical_cards"] == 82
    lux = by_name["Luxembourg starter deck"]["ContainedObjects"]
    wit = by_name["Wittelsbach starter deck"]["ContainedObjects"]
    assert len(lux) == counts["luxembourg_starters"]
    assert len(wit) == counts["wittelsbach_starters"] + 1
    assert sum(c["Nickname"] == "Royal Retinue" for c in lux) == counts["retinue_copies"]
    assert sum(c["Nickname"] == "Ducal Retinue" for c in wit) == counts["retinue_copies"]
    assert "John of Luxembourg" in {c["Nickname"] for c in wit}
    assert sizes["John of Luxembourg (Luxembourg card)"] == 1
    assert sizes["Market cards"] == counts["market_cards"] - 2
    assert sizes["Events"] == counts["historical_events"] + counts["battle_events"]
    for single in ("Battle of Crécy", "Gerlach of Nassau", "Arnošt of Pardubice"):
        assert sizes[single] == 1, single


def test_markers_start_on_their_spaces_and_shields_in_the_supply(first) -> None:
    """3.21 round 1, 3.22 loyalty on Ludwig 1, 3.24 shields in the supply beside the board."""
    project = first["project"]
    save = first["save"]
    from cardgen.load import load
    data, _ = load(project)
    ctx = make_ctx(data, "en", project, "board")
    table = Table(load_config(project), (594.0, 420.0))
    spaces = track_spaces(ctx)
    tiles = {o["Nickname"]: o for o in objects(save, "Custom_Tile")}

    def at(box):
        x, y, w, h = box
        return table.position((x + w / 2, y + h / 2))

    for name, box in (("Round", spaces["round_track"][0]), ("John’s loyalty", spaces["loyalty"][1])):
        t = tiles[name]["Transform"]
        want = at(box)
        assert (t["posX"], t["posZ"]) == (want["posX"], want["posZ"]), name
    assert "Card-play track" in tiles
    half_width = 594 / 2 / 25.4
    shields = [o for o in tiles.values() if "shield" in o["Nickname"].lower()]
    assert len(shields) == len(data.shields) == 6
    assert all(abs(s["Transform"]["posX"]) > half_width for s in shields), "shields start off the board"
    for tile in tiles.values():
        assert tile["CustomImage"]["ImageSecondaryURL"], f"{tile['Nickname']} has no back"
    bags = objects(save, "Infinite_Bag")  # 2.4: the supply is not a limit
    assert {b["Nickname"] for b in bags} >= {"Vote · Luxembourg", "Influence 5 · Wittelsbach",
                                              "Church 1"}
    assert all(len(b["ContainedObjects"]) == 1 for b in bags)


def _share(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a, b).convert("L").point(
        lambda v: 255 if v > CHANNEL_TOLERANCE else 0)
    return diff.histogram()[255] / (a.width * a.height)


def test_a_sheet_cell_is_that_cards_face(first, checked) -> None:
    project, report = first["project"], checked
    faces = {f.card_id: f for f in report.faces["en"]}
    cw, ch = cell_pixels(project)
    card = next(c for c in card_states(first["save"]) if c["Nickname"] == "Edward III")
    entry = next(iter(card["CustomDeck"].values()))
    index = card["CardID"] % 100
    face = raster.card_images([faces["edward-iii"]], report.layout, "en", (cw, ch))[0]
    back = raster.card_images([None], report.layout, "en", (cw, ch))[0]
    with Image.open(local(entry["FaceURL"])) as im:
        sheet = im.convert("RGB")
    cols, rows = entry["NumWidth"], entry["NumHeight"]

    def cell(i: int, dx: int = 0) -> Image.Image:
        x, y = (i % cols) * cw + dx, (i // cols) * ch
        return sheet.crop((x, y, x + cw, y + ch))

    assert _share(cell(index), face) <= MAX_SHARE
    assert _share(cell(index, dx=2), face) > MAX_SHARE, "the comparison must catch a shifted grid"
    assert _share(cell(cols * rows - 1), back) <= MAX_SHARE, "the last cell is the hidden card"


def test_generic_image_set_lists_every_physical_card(first) -> None:
    vtt = first["vtt"]
    rows = list(csv.DictReader((vtt / "generic" / "cards.csv").open(encoding="utf-8")))
    assert list(rows[0]) == ["id", "name", "deck", "count", "file"]
    cards = [r for r in rows if r["id"] != "back"]
    assert sum(int(r["count"]) for r in cards) == 82
    assert {r["count"] for r in cards if "retinue" in r["id"]} == {"4"}
    assert next(r for r in rows if r["id"] == "back")["file"] == "back.png"
    for row in rows:
        with Image.open(vtt / "generic" / row["file"]) as im:
            assert im.size == (744, 1039), row  # 63 × 88 mm at 300 dpi
            assert round(im.info["dpi"][0]) == 300


def png_chunks(data: bytes) -> list[str]:
    out, pos = [], 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        out.append(kind.decode())
        pos += 12 + length
    return out


def test_pngs_carry_no_time_or_text(first) -> None:
    for name, data in first["files"].items():
        if name.endswith(".png"):
            assert not {"tIME", "tEXt", "iTXt", "zTXt"} & set(png_chunks(data)), name


def test_rebuild_gives_the_same_images_and_hosted_links(first, second) -> None:
    remade = [n for n in first["files"] if n.endswith(".png") and not n.startswith("generic/")]
    remade += REMADE_GENERIC
    assert len(remade) > 80
    assert all(first["files"][n] == second["files"][n] for n in remade)
    text = second["files"][SAVE].decode()
    assert "file://" not in text
    save = json.loads(text)
    assert objects(save, "Custom_Board")[0]["CustomImage"]["ImageURL"] == f"{BASE_URL}/board.png"
    face_urls = {e["FaceURL"] for c in card_states(save) for e in c["CustomDeck"].values()}
    assert f"{BASE_URL}/sheets/market.png" in face_urls
    assert list(save) == sorted(save), "keys are written in a stable order"


def test_a_changed_card_rewrites_only_its_sheet(second) -> None:
    written = second["written"]
    assert "sheets/luxembourg.png" in written
    assert "generic/001-charles-iv.png" in written
    for other in ("sheets/market.png", "sheets/wittelsbach.png", "board.png", "back.png",
                  "generic/001-louis-iv.png"):
        assert other not in written, other


def test_base_url_must_be_a_web_address(tmp_path, capsys) -> None:
    assert main(["--project", str(tmp_path), "build", "--vtt-base-url", "ftp://x"]) == 2
    assert "not a web address" in capsys.readouterr().err


def test_a_card_in_two_piles_is_an_error_at_its_line(project, checked) -> None:
    line = replace_in(project / "layouts" / "vtt.yaml",
                      "    except: [john-of-luxembourg-lux]\n", "")
    with pytest.raises(CardgenError) as exc:
        plan_piles(load_config(project), checked.faces["en"], checked.data)
    found = [f for f in exc.value.findings if f.card == "john-of-luxembourg-lux"]
    assert found and found[0].location.file == "layouts/vtt.yaml"
    assert "two piles" in found[0].message and found[0].location.line < line + 10
