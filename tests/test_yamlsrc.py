"""The YAML layer: locations, duplicate keys, alias bombs, syntax errors."""

from __future__ import annotations

import pytest

from cardgen.data.yamlsrc import load_yaml_text
from cardgen.errors import CardgenError


def _error(text: str) -> CardgenError:
    with pytest.raises(CardgenError) as info:
        load_yaml_text(text, "cards.yaml")
    return info.value


def test_every_value_remembers_file_line_and_column():
    data = load_yaml_text("a: 1\nb:\n  - x\n  - {c: 2}\n", "cards.yaml")
    assert str(data.at("a")) == "cards.yaml:1:4"
    assert str(data["b"].at(1)) == "cards.yaml:4:5"
    assert str(data["b"][1].at("c")) == "cards.yaml:4:9"


def test_duplicate_key_is_an_error_at_the_second_key():
    exc = _error("id: a\nnumber: 1\nid: b\n")
    [finding] = exc.findings
    assert finding.code == "yaml-duplicate-key"
    assert str(finding.location) == "cards.yaml:3:1"
    assert "first defined at line 1" in finding.message


def test_alias_bomb_is_refused_with_a_location():
    rows = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for prev, name in zip("abcde", "bcdef", strict=True):
        rows.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    exc = _error("\n".join(rows) + "\n")
    assert exc.findings[0].code == "yaml-alias-bomb"
    assert exc.findings[0].location.file == "cards.yaml"


def test_small_aliases_are_fine():
    data = load_yaml_text("base: &b {x: 1}\nother: *b\n", "f.yaml")
    assert data["other"] == {"x": 1}


def test_syntax_error_names_file_and_line():
    exc = _error("cards:\n  - id: a\n    name: [unclosed\n")
    [finding] = exc.findings
    assert finding.code == "yaml-syntax"
    assert finding.location.file == "cards.yaml"
    assert finding.location.line >= 3


def test_unsafe_tags_are_rejected():
    exc = _error("a: !!python/object/apply:os.system ['true']\n")
    assert exc.findings[0].code == "yaml-tag"
    exc = _error("a: !!python/name:os.system\n")
    assert exc.findings[0].code == "yaml-syntax"


def test_a_mapping_is_keyed_by_its_lines_and_where_they_start():
    text = "cards:\n  - id: a\n    n: 1\n  - id: b\n    n: 2\n"
    first, second = load_yaml_text(text, "cards.yaml")["cards"]
    keys = first.source_key(), second.source_key()
    assert None not in keys and keys[0] != keys[1]
    # another value of b: a's key stays, b's changes
    a, b = load_yaml_text(text.replace("n: 2", "n: 3"), "cards.yaml")["cards"]
    assert (a.source_key(), b.source_key() != keys[1]) == (keys[0], True)
    # the same text one line further down (its file:line differ), or in another file
    moved = load_yaml_text("# note\n" + text, "cards.yaml")["cards"]
    assert {m.source_key() for m in moved}.isdisjoint(keys)
    other = load_yaml_text(text, "other.yaml")["cards"]
    assert {m.source_key() for m in other}.isdisjoint(keys)
    # two mappings on one line
    same = load_yaml_text("cards: [{id: a}, {id: a}]\n", "cards.yaml")["cards"]
    assert same[0].source_key() != same[1].source_key()


def test_no_key_when_a_mapping_may_read_text_elsewhere():
    anchored = "base: &b {n: 1}\ncards:\n  - {<<: *b, id: a}\n"
    assert load_yaml_text(anchored, "cards.yaml")["cards"][0].source_key() is None
    crlf = "cards:\r\n  - id: a\r\n"
    assert load_yaml_text(crlf, "cards.yaml")["cards"][0].source_key() is None


def test_a_document_nested_a_hundred_thousand_deep_is_an_error_not_a_crash() -> None:
    """libyaml's C composer ran out of stack on '[' * 100000 and killed the process."""
    import pytest

    from cardgen.data.yamlsrc import load_yaml_text
    from cardgen.errors import CardgenError

    for text in ("[" * 100_000 + "]" * 100_000, "a: " + "{b: " * 100_000 + "1" + "}" * 100_000):
        with pytest.raises(CardgenError) as caught:
            load_yaml_text(text, "card_data/cards/deep.yaml")
        (found,) = caught.value.findings
        assert found.code == "yaml-too-deep" and found.location.file == "card_data/cards/deep.yaml"
    assert load_yaml_text("[" * 50 + "]" * 50, "ok.yaml") is not None  # shallow nesting loads
