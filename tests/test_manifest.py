"""manifest.json / manifest.txt and reprint selection."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import at

from cardgen.errors import CardgenError
from cardgen.impose import (
    CardSize,
    build_manifest,
    build_reprint,
    load_profiles,
    load_sheet_spec,
    manifest_json,
    manifest_text,
    plan_sheets,
    select_reprint,
)
from cardgen.impose.fakes import fake_drawers, fake_faces, game_counts

ROOT = Path(__file__).resolve().parent.parent
CARD = CardSize(63, 88, 3)


@pytest.fixture(scope="module")
def spec():
    return load_sheet_spec(at(ROOT))


@pytest.fixture(scope="module")
def faces():
    return fake_faces(game_counts())


@pytest.fixture(scope="module")
def hashes(faces):
    return {f.card_id: f"h-{f.card_id}" for f in faces}


@pytest.fixture(scope="module")
def manifest(spec, faces, hashes):
    plans = {f"sheets-{p}.pdf": plan_sheets(faces, CARD, spec, p) for p in ("a4", "letter")}
    profile = load_profiles(at(ROOT))["generic"]
    return build_manifest(faces, hashes, plans, "en", profile)


def test_manifest_lists_every_card_with_copies_hash_and_positions(manifest):
    assert manifest["cards_total"] == 82
    assert manifest["files"]["sheets-a4.pdf"] == {
        "kind": "sheets", "paper": "a4", "paper_name": "A4", "flip": "long", "pages": 22,
        "cards": 82}
    first = manifest["cards"][0]
    assert (first["id"], first["copies"], first["hash"]) == ("c01", 4, "h-c01")
    fronts = [p for p in first["placements"]["sheets-a4.pdf"] if p["side"] == "front"]
    assert fronts == [{"page": 3, "row": 1, "col": c, "side": "front", "copy": c}
                      for c in (1, 2, 3)] + [{"page": 3, "row": 2, "col": 1,
                                              "side": "front", "copy": 4}]
    backs = [p for p in first["placements"]["sheets-a4.pdf"] if p["side"] == "back"]
    assert backs[0] == {"page": 4, "row": 1, "col": 3, "side": "back", "copy": 1}
    shop = first["placements"]["print-shop.pdf"]
    assert [p["page"] for p in shop] == [1, 2, 3, 4, 83, 84, 85, 86]
    json.dumps(manifest)  # serialisable


def test_manifest_text_is_readable(manifest):
    text = manifest_text(manifest)
    assert text.startswith("Manifest (en): 82 physical cards\n")
    assert "sheets-letter.pdf (sheets; paper letter" in text
    assert "c01" in text and "p3 r1 c1; p3 r1 c2; p3 r1 c3; p3 r2 c1" in text


def test_manifest_json_holds_the_manifest_one_card_per_line(manifest):
    text = manifest_json(manifest).decode("utf-8")
    assert json.loads(text) == json.loads(json.dumps(manifest))
    card_lines = [ln for ln in text.splitlines() if ln.startswith('  {"id": ')]
    assert [json.loads(ln.rstrip(","))["id"] for ln in card_lines] == \
        [c["id"] for c in manifest["cards"]]


def test_missing_hash_is_reported_for_every_card(faces, spec):
    with pytest.raises(CardgenError) as exc:
        build_manifest(faces[:3], {"c01": "x"}, {}, "en")
    assert [f.card for f in exc.value.findings] == ["c02", "c03"]


def test_reprint_by_id_and_by_changed_hash(faces, manifest, hashes):
    assert select_reprint(faces, ["c05", "c02"]) == ["c02", "c05"]
    changed = dict(hashes, c07="new", c99="brand-new")
    assert select_reprint(faces, ["c03"], previous=manifest, hashes=changed) == [
        "c03", "c07"]
    assert select_reprint(faces, previous=manifest, hashes=hashes) == []


def test_unknown_reprint_ids_are_all_reported(faces):
    with pytest.raises(CardgenError) as exc:
        select_reprint(faces, ["c1", "zz", "c02"])
    assert [f.card for f in exc.value.findings] == ["c1", "zz"]


def test_reprint_sheet_holds_only_the_chosen_cards(faces, spec):
    front, back = fake_drawers(CARD)
    pdf = build_reprint(faces, ["c01", "c03"], front, back, CARD, spec, "letter", "en")
    assert pdf is not None and pdf.count(b"/Subtype /Form") == 3  # c01, c03, the back
    plan = plan_sheets([f for f in faces if f.card_id in ("c01", "c03")], CARD, spec, "letter")
    assert plan.cards == 5 and len(plan.pages) == 4
    assert build_reprint(faces, [], front, back, CARD, spec, "a4", "en") is None
