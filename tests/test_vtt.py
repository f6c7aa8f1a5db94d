"""`cardgen build --vtt`: the Tabletop Simulator table and the generic image set (issues 15
and 31).

One English build is made once for the module; a second pass rebuilds the sheets, board,
tokens and a few generic images with ``--vtt-base-url`` (determinism, hosted links), then one
card is changed (incremental). The saved table is compared with a save Tabletop Simulator
wrote (``tests/fixtures/tts_public_save.json``, its source inside) and its geometry is
checked against the constants of ``layouts/vtt.yaml``.
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

from cardgen.board.base import make_ctx
from cardgen.board.board import track_spaces
from cardgen.build.build import build
from cardgen.build.check import CheckReport, run_check
from cardgen.build.options import BuildOptions
from cardgen.cli import main
from cardgen.errors import CardgenError
from cardgen.vtt import load_config, plan_piles, raster, vtt_files
from cardgen.vtt.geometry import TILE_TYPES, Footprint, TableGeometry
from cardgen.vtt.links import check_base_url, image_links
from tests.conftest import at, copy_project, replace_in

SAVE = "king-of-the-romans.json"
BASE_URL = "https://example.org/king"
PUBLIC_SAVE = Path(__file__).parent / "fixtures" / "tts_public_save.json"
BOARD_MM = (594.0, 420.0)
ROUNDING = 1e-3  # table units: positions and scales are written to 4 decimals
REMADE_GENERIC = ("generic/luxembourg-001-charles-iv.png", "generic/market-058-battle-of-crecy.png",
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
def checked(first) -> CheckReport:
    """The shipped project's faces, as the first build drew them."""
    return run_check(first["project"])


@pytest.fixture(scope="module")
def second(first) -> dict:
    """Most of the vtt folder deleted and rebuilt with a base URL; then one Luxembourg card
    changed. (Every generic image is made by the same code; three of them stand for all.)"""
    project, vtt = first["project"], first["vtt"]
    for folder in ("sheets", "tokens"):
        shutil.rmtree(vtt / folder)
    for name in (*REMADE_GENERIC, "board.png", "back.png", "hidden.png"):
        (vtt / name).unlink()
    options = BuildOptions(langs=("en",), vtt=True, vtt_base_url=BASE_URL)
    build(project, options)
    files = {p.relative_to(vtt).as_posix(): p.read_bytes() for p in vtt.rglob("*") if p.is_file()}
    replace_in(project / "card_data" / "cards" / "luxembourg.yaml",
               "political: 3\n    military: 2", "political: 4\n    military: 2")
    changed = build(project, options)
    return {"files": files, "written": {p.relative_to(vtt).as_posix()
                                        for p in changed.written if vtt in p.parents}}


def objects(save: dict, name: str) -> list[dict]:
    return [o for o in save["ObjectStates"] if o["Name"] == name]


def board_of(save: dict) -> dict:
    (board,) = [o for o in objects(save, "Custom_Tile") if o.get("Locked")]
    return board


def tiles(save: dict) -> dict[str, dict]:
    """The loose tiles by name (the board is the one locked tile)."""
    return {o["Nickname"]: o for o in objects(save, "Custom_Tile") if not o.get("Locked")}


def table_of(project: Path) -> TableGeometry:
    return TableGeometry(load_config(at(project)).data["tts"], BOARD_MM)


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
    from cardgen.data.load import load
    data, _ = load(project)
    ctx = make_ctx(at(project), "en", "board")
    table = table_of(project)
    spaces = track_spaces(ctx)
    loose = tiles(save)

    for name, box in (("Round", spaces["round_track"][0]), ("John’s loyalty", spaces["loyalty"][1])):
        x, y, w, h = box
        t = loose[name]["Transform"]
        assert (t["posX"], t["posZ"]) == table.xz((x + w / 2, y + h / 2)), name
    assert "Card plays" in loose
    half_width = 594 / 2 / 25.4
    shields = [o for o in loose.values() if "shield" in o["Nickname"].lower()]
    assert len(shields) == len(data.shields) == 6
    assert all(abs(s["Transform"]["posX"]) > half_width for s in shields), "shields start off the board"
    for tile in loose.values():
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
    assert list(rows[0]) == ["id", "name", "deck", "count", "file", "back"]
    # every row is a card: an importer summing `count` makes the 82 cards of 2.1, no more
    assert sum(int(r["count"]) for r in rows) == 82
    assert all(r["id"] and r["name"] and r["deck"] for r in rows)
    assert {r["count"] for r in rows if "retinue" in r["id"]} == {"4"}
    assert {r["back"] for r in rows} == {"back.png"}
    for name in {r["file"] for r in rows} | {"back.png"}:
        with Image.open(vtt / "generic" / name) as im:
            assert im.size == (744, 1039), name  # 63 × 88 mm at 300 dpi
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
    assert board_of(save)["CustomImage"]["ImageURL"] == f"{BASE_URL}/en/board.png"
    face_urls = {e["FaceURL"] for c in card_states(save) for e in c["CustomDeck"].values()}
    assert f"{BASE_URL}/en/sheets/market.png" in face_urls
    assert list(save) == sorted(save), "keys are written in a stable order"


def test_a_changed_card_rewrites_only_its_sheet(second) -> None:
    written = second["written"]
    assert "sheets/luxembourg.png" in written
    assert "generic/luxembourg-001-charles-iv.png" in written
    for other in ("sheets/market.png", "sheets/wittelsbach.png", "board.png", "back.png",
                  "generic/wittelsbach-001-louis-iv.png"):
        assert other not in written, other


def test_base_url_must_be_a_web_address(tmp_path, capsys) -> None:
    assert main(["--project", str(tmp_path), "build", "--vtt-base-url", "ftp://x"]) == 2
    err = capsys.readouterr().err
    assert "--vtt-base-url 'ftp://x'" in err and "not a web address" in err
    assert "https://example.org/king" in err, "the message shows how to write it"


@pytest.mark.parametrize(("url", "wrong", "fix"), [
    ("https://example.org/my king", "contains a space", "%20"),
    ("https://example.org/king?v=2", "has a query", "%3F"),
    ("https://example.org/king#top", "has a fragment", "%23"),
    ("https://example.org/100%", "not an escape", "%25"),
    ("https://example.org/king/en", "ends in the language folder /en", "{lang}"),
    ("https://example.org/{language}", "placeholder other than {lang}", "{lang}"),
    ("example.org/king", "not a web address", "https://"),
])
def test_a_base_url_that_would_break_links_is_refused_with_its_fix(url, wrong, fix) -> None:
    (finding,) = check_base_url(url)
    assert finding.message.startswith(f"--vtt-base-url {url!r}:") and wrong in finding.message
    assert fix in finding.hint


def test_each_language_links_its_own_folder(tmp_path) -> None:
    for base in ("https://example.org/my%20king", "http://example.org/king/{lang}/vtt/"):
        assert check_base_url(base) == []
    assert image_links("https://example.org/king/", "cs", tmp_path)("board.png") == \
        "https://example.org/king/cs/board.png"
    assert image_links("https://example.org/k/{lang}/vtt/", "cs", tmp_path)("tokens/a.png") == \
        "https://example.org/k/cs/vtt/tokens/a.png"
    assert image_links("", "cs", tmp_path)("board.png") == (tmp_path / "board.png").as_uri()


def test_the_czech_save_links_only_czech_images(first, checked) -> None:
    """Issue 31: with --vtt-base-url, the Czech table points at the Czech folder only."""
    project, faces = first["project"], checked.faces["cs"]
    folder = project / "output" / "cs" / "vtt"
    files = vtt_files(at(project), "cs", faces, checked.layout,
                      {f.card_id: "" for f in faces}, folder, BASE_URL)
    (save_file,) = [f for f in files if f.name == SAVE]
    save = json.loads(save_file.make())
    urls = {v for v in _strings(save, "URL")}
    assert len(urls) > 50
    assert all(u.startswith(f"{BASE_URL}/cs/") for u in urls), sorted(urls)[:3]
    assert board_of(save)["Nickname"] == "Volba římského krále"


def _strings(node, key_end: str):
    if isinstance(node, dict):
        for key, value in node.items():
            if key.endswith(key_end) and isinstance(value, str) and value:
                yield value
            yield from _strings(value, key_end)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value, key_end)


def _shape(value):
    """A JSON value's shape: field names and value types, list items by their first."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(value[0])] if value else []
    return "number" if isinstance(value, int | float) and not isinstance(value, bool) \
        else type(value).__name__


def _fields_agree(ours: dict, theirs: dict, where: str) -> None:
    """Every field both write has the same type; nested objects compared alike."""
    for key in ours.keys() & theirs.keys():
        a, b = ours[key], theirs[key]
        if isinstance(a, dict) and isinstance(b, dict):
            _fields_agree(a, b, f"{where}.{key}")
        elif not (isinstance(a, list) and isinstance(b, list)):
            assert _shape(a) == _shape(b), f"{where}.{key}: ours {a!r}, theirs {b!r}"


def test_the_save_has_the_structure_tabletop_simulator_writes(first) -> None:
    """Compared with a save Tabletop Simulator v13.1.1 wrote (fixture; source inside)."""
    public = json.loads(PUBLIC_SAVE.read_text(encoding="utf-8"))
    ours = first["save"]
    assert {"SaveName", "Table", "ObjectStates"} <= ours.keys() & public.keys()
    _fields_agree(ours, {k: v for k, v in public.items() if not k.startswith("_")}, "save")
    theirs = {o["Name"]: o for o in public["ObjectStates"]}
    mine = {o["Name"]: o for o in ours["ObjectStates"]}
    core = {"GUID", "Name", "Transform", "Nickname", "Description"}
    fields = {"Deck": core | {"DeckIDs", "CustomDeck", "ContainedObjects", "HideWhenFaceDown"},
              "Card": core | {"CardID", "CustomDeck", "HideWhenFaceDown"},
              "Custom_Tile": core | {"CustomImage"}, "Infinite_Bag": core | {"ContainedObjects"}}
    for name, needed in fields.items():
        a, b = mine[name], theirs[name]
        assert needed <= b.keys(), f"the public save's {name} lacks {needed - b.keys()}"
        assert needed <= a.keys(), f"our {name} lacks {needed - a.keys()}"
        assert set(a["Transform"]) == set(b["Transform"]), name
        assert all(isinstance(v, float) for v in a["Transform"].values()), name
        _fields_agree(a, b, name)
    # a deck: its cards in ContainedObjects, DeckIDs in their order, CardID = key × 100 + cell
    for deck in (mine["Deck"], theirs["Deck"]):
        cards = deck["ContainedObjects"]
        assert [c["CardID"] for c in cards] == deck["DeckIDs"]
        for card in cards:
            (key, entry), = card["CustomDeck"].items()
            assert card["CardID"] // 100 == int(key) and key in deck["CustomDeck"]
            assert card["CardID"] % 100 < entry["NumWidth"] * entry["NumHeight"]
            _fields_agree(card, theirs["Deck"]["ContainedObjects"][0], "Deck card")
    # an endless bag: the one object it hands out, in ContainedObjects
    for bag in (mine["Infinite_Bag"], theirs["Infinite_Bag"]):
        assert len(bag["ContainedObjects"]) == 1 and "Transform" in bag["ContainedObjects"][0]
    ((_, entry),) = mine["Card"]["CustomDeck"].items()
    assert set(entry) == set(next(iter(theirs["Deck"]["CustomDeck"].values())))
    tile = mine["Custom_Tile"]["CustomImage"]
    _fields_agree(tile, theirs["Custom_Tile"]["CustomImage"], "Custom_Tile.CustomImage")
    assert set(tile) == set(theirs["Custom_Tile"]["CustomImage"])
    assert set(tile["CustomTile"]) == set(theirs["Custom_Tile"]["CustomImage"]["CustomTile"])


def test_round_tokens_are_round_tiles_and_counters_stack(first) -> None:
    save = first["save"]
    inside = {b["Nickname"]: b["ContainedObjects"][0] for b in objects(save, "Infinite_Bag")}
    loose = tiles(save)
    kinds = {**inside, **loose}

    def tile(name: str) -> dict:
        return kinds[name]["CustomImage"]["CustomTile"]

    assert tile("Church 1")["Type"] == TILE_TYPES["circle"]  # a coin (2.4)
    for name in ("Vote · Luxembourg", "Influence 5 · Wittelsbach", "Round", "Card plays"):
        assert tile(name)["Type"] == TILE_TYPES["square"], name
    for name in ("Church 1", "Vote · Luxembourg", "Influence 5 · Wittelsbach",
                 "Military 1 · Luxembourg"):
        assert tile(name)["Stackable"] is True, name  # piled up in a box (7.1, 7.3, 8.1, 2.24)
    for name in ("Round", "John’s loyalty", "Card plays"):
        assert tile(name)["Stackable"] is False, name
    assert all(not t["CustomImage"]["CustomTile"]["Stackable"] for t in loose.values()
               if "shield" in t["Nickname"].lower())
    with Image.open(first["vtt"] / "tokens" / "currency-church-1-front.png") as coin:
        corner, centre = coin.convert("RGB").getpixel((2, 2)), coin.convert("RGB").getpixel(
            (coin.width // 2, coin.height // 4))
        assert corner != centre, "the coin fills its image, so the circle tile shows all of it"


def test_every_piece_rests_on_the_table_apart_and_markers_on_their_spaces(first, checked
                                                                          ) -> None:
    """The board lies on the surface; every loose piece rests on the table or the board,
    dropping at most `drop`; nothing overlaps at spawn (bags at least `gap` apart); the
    markers lie on their spaces (3.21, 3.22)."""
    project, save = first["project"], first["save"]
    table = table_of(project)
    surface, drop, gap = table.surface, table.tts["drop"], table.tts["gap"]
    with Image.open(first["vtt"] / "board.png") as im:
        aspect = im.width / im.height
    board = table.footprint_of(board_of(save), aspect)
    assert board.bottom == pytest.approx(surface)
    assert (board.width, board.depth) == pytest.approx(table.board_size(), abs=0.05)
    loose = [o for o in save["ObjectStates"] if not o.get("Locked")]
    prints: list[tuple[str, Footprint]] = [(o["Nickname"], table.footprint_of(o)) for o in loose]
    assert len(prints) == len(save["ObjectStates"]) - 1
    for name, f in prints:
        assert f.rests_on >= surface
        assert f.rests_on - 1e-6 <= f.bottom <= f.rests_on + drop + 1e-6, \
            f"{name} starts inside what it lies on, or falls from high"
    for i, (name_a, a) in enumerate(prints):
        for name_b, b in prints[i + 1:]:
            assert a.gap(b) >= gap - ROUNDING, f"{name_a} and {name_b} overlap at spawn"
    bags = [f for (_n, f), o in zip(prints, loose, strict=True) if o["Name"] == "Infinite_Bag"]
    assert len(bags) == 28
    assert min(a.gap(b) for a in bags for b in bags if a is not b) >= gap - ROUNDING
    on_board = {n: f for n, f in prints if board.contains(f.x, f.z)}
    assert set(on_board) == {"Round", "John’s loyalty", "Card plays"}
    for name, f in prints:  # wholly on the board, or clear of its edge
        if name in on_board:
            assert all(board.contains(f.x + dx * f.width / 2, f.z + dz * f.depth / 2)
                       for dx in (-1, 1) for dz in (-1, 1)), f"{name} hangs over the edge"
        else:
            assert f.gap(board) >= gap - ROUNDING, f"{name} touches the board"
    assert all(f.rests_on == pytest.approx(table.board_top) for f in on_board.values())
    ctx = make_ctx(at(project), "en", "board")
    spaces = track_spaces(ctx)
    for name, (x, y, w, h) in (("Round", spaces["round_track"][0]),
                               ("John’s loyalty", spaces["loyalty"][1])):
        space = Footprint(name, "box", *table.xz((x + w / 2, y + h / 2)), table.units(w),
                          table.units(h), 0, 0)
        assert space.contains(on_board[name].x, on_board[name].z), f"{name} is off its space"


def test_a_card_in_two_piles_is_an_error_at_its_line(project, checked) -> None:
    line = replace_in(project / "layouts" / "vtt.yaml",
                      "    except: [john-of-luxembourg-lux]\n", "")
    with pytest.raises(CardgenError) as exc:
        plan_piles(load_config(at(project)), checked.faces["en"], checked.data)
    found = [f for f in exc.value.findings if f.card == "john-of-luxembourg-lux"]
    assert found and found[0].location.file == "layouts/vtt.yaml"
    assert "two piles" in found[0].message and found[0].location.line < line + 10


def test_table_notes_use_typographic_apostrophes() -> None:
    """STYLE: English and Czech text uses ’, never a straight apostrophe."""
    project = Path(__file__).resolve().parent.parent
    data = yaml.safe_load((project / "layouts" / "vtt.yaml").read_text(encoding="utf-8"))
    texts = [t for pile in data["piles"] for key in ("name", "note") for t in
             pile.get(key, {}).values()]
    texts += [t for marker in data["markers"].values() for t in marker["note"].values()]
    assert len(texts) > 20
    assert [t for t in texts if "'" in t] == []
