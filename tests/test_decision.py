"""A decision stays a frozen value a player can't change and a test can copy (its own
``__init__`` is the engine's fast path, issue 42.3)."""

from __future__ import annotations

import dataclasses

import pytest

from cardgen.engine import new_game
from tests.engine_helpers import rules


def test_a_decision_is_frozen_comparable_and_replaceable():
    d = new_game(rules(), 0).decision
    assert d is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.side = 1 - d.side  # type: ignore[misc]
    copy = dataclasses.replace(d, ctx="other")
    assert copy.ctx == "other" and copy.options == d.options and copy.kind == d.kind
    assert copy != d and dataclasses.replace(copy, ctx=d.ctx) == d
    assert hash(dataclasses.replace(copy, ctx=d.ctx)) == hash(d)
    assert [f.name for f in dataclasses.fields(d)] == ["side", "kind", "options", "resume",
                                                       "ctx", "amount", "card"]
