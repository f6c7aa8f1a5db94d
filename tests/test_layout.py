from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.data.layout import MIN_BODY_PT, load_layout
from cardgen.errors import CardgenError

ROOT = Path(__file__).resolve().parents[1]
CARD = ROOT / "layouts" / "card.yaml"


def variant(tmp_path: Path, text: str, name: str = "variant.yaml") -> Path:
    """A layout in tmp_path that extends the real card layout."""
    (tmp_path / "base.yaml").write_text(CARD.read_text(encoding="utf-8").replace(
        "../fonts/", f"{ROOT / 'fonts'}/"), encoding="utf-8")
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def codes(exc: pytest.ExceptionInfo[CardgenError]) -> list[str]:
    return [f.code for f in exc.value.findings]


def test_card_layout_loads() -> None:
    lay = load_layout(CARD)
    assert (lay.card.width, lay.card.height, lay.card.bleed, lay.card.safe) == (63, 88, 3, 4)
    art = lay.art_box
    assert art.w == 63 and art.w / art.h == pytest.approx(1.5)
    assert lay.text_box.min_size >= MIN_BODY_PT
    assert lay.page_size == pytest.approx(((63 + 6) * 72 / 25.4, (88 + 6) * 72 / 25.4))
    assert set(lay.colours.sides) == {"luxembourg", "wittelsbach", "neutral"}
    for path in lay.fonts.values():
        assert path.is_file()


def test_layout_is_frozen() -> None:
    lay = load_layout(CARD)
    with pytest.raises(AttributeError):
        lay.card = None  # type: ignore[misc]
    with pytest.raises(TypeError):
        lay.colours.sides["neutral"] = "#000000"  # type: ignore[index]


def test_extends_overrides_a_few_values(tmp_path: Path) -> None:
    path = variant(tmp_path, "extends: base.yaml\ntext_box:\n  size: 8.2\n"
                   "colours:\n  sides:\n    neutral: '#123456'\n")
    lay = load_layout(path)
    assert lay.text_box.size == 8.2
    assert lay.text_box.min_size == 6.5  # inherited
    assert lay.colours.sides["neutral"] == "#123456"
    assert lay.colours.sides["luxembourg"] == "#8e1c1f"


def test_unknown_key_names_nearest_and_line(tmp_path: Path) -> None:
    path = variant(tmp_path, "extends: base.yaml\ntext_box:\n  sise: 8\n")
    with pytest.raises(CardgenError) as exc:
        load_layout(path)
    f = exc.value.findings[0]
    assert f.code == "unknown-key"
    assert f.hint == "did you mean 'size'?"
    assert f.location is not None and f.location.file.endswith("variant.yaml")
    assert f.location.line == 3


def test_extends_cycle_is_named(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("extends: b.yaml\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("extends: a.yaml\n", encoding="utf-8")
    with pytest.raises(CardgenError) as exc:
        load_layout(tmp_path / "a.yaml")
    assert codes(exc) == ["layout-extends-cycle"]
    assert "a.yaml → b.yaml → a.yaml" in str(exc.value)


def test_min_size_below_legible_is_error(tmp_path: Path) -> None:
    path = variant(tmp_path, "extends: base.yaml\ntext_box:\n  min_size: 5.5\n")
    with pytest.raises(CardgenError) as exc:
        load_layout(path)
    assert "layout-min-size" in codes(exc)
    assert exc.value.findings[0].location.line == 3  # type: ignore[union-attr]


def test_bad_colour(tmp_path: Path) -> None:
    path = variant(tmp_path, "extends: base.yaml\ncolours:\n  panel: red\n")
    with pytest.raises(CardgenError) as exc:
        load_layout(path)
    assert codes(exc) == ["layout-colour"]
    assert exc.value.findings[0].location.line == 3  # type: ignore[union-attr]


def test_text_outside_safe_zone(tmp_path: Path) -> None:
    path = variant(tmp_path, "extends: base.yaml\ntext_box:\n  text: [1, 50, 60, 20]\n")
    with pytest.raises(CardgenError) as exc:
        load_layout(path)
    assert codes(exc) == ["layout-safe-zone"]


def test_an_event_name_area_reaching_past_the_safe_zone_is_refused(tmp_path: Path) -> None:
    path = variant(tmp_path, "extends: base.yaml\nname_bar:\n  plain_padding: 2.0\n")
    with pytest.raises(CardgenError) as exc:
        load_layout(path)
    assert codes(exc) == ["layout-safe-zone"]
    assert "plain_padding" in exc.value.findings[0].message


def test_missing_font_file_reported_with_location(tmp_path: Path) -> None:
    path = variant(tmp_path, "extends: base.yaml\nfonts:\n  body: nope.ttf\n")
    with pytest.raises(CardgenError) as exc:
        load_layout(path)
    assert codes(exc) == ["font-missing"]
    assert exc.value.findings[0].location.line == 3  # type: ignore[union-attr]


def test_missing_parent(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text("extends: gone.yaml\n", encoding="utf-8")
    with pytest.raises(CardgenError) as exc:
        load_layout(path)
    assert codes(exc) == ["layout-extends-missing"]


def test_a_full_size_name_keeps_a_millimetre_of_air_beside_both_value_icons() -> None:
    """The name is set in the bar between the scroll (2.31) and the shield (2.32); a name
    that fills its area must not touch either (rule 2.35's name bar, read on the card)."""
    lay = load_layout(CARD)
    bar, values = lay.name_bar, lay.values
    left, right = bar.box.x + bar.padding, bar.box.x + bar.box.w - bar.padding
    assert left - (values.political.x + values.political.w) >= 1.0
    assert values.military.x - right >= 1.0
