"""A long-lived process (serve, watch) loads the data again on every save: the memos of
loaded data, faces and art keep only their latest entries."""

from __future__ import annotations

import weakref

from cardgen.data import load as load_module
from cardgen.data.load import load
from cardgen.data.memo import Memo
from cardgen.wording import templates
from cardgen.wording.templates import renderer
from tests.conftest import ROOT


def test_a_memo_forgets_its_oldest_entries():
    memo: Memo[int, str] = Memo(2)
    for i in range(5):
        memo[i] = str(i)
    assert memo == {3: "3", 4: "4"}


def test_a_load_collects_what_earlier_loads_froze(monkeypatch):
    """`cardgen serve` loads the data on every save and freezes each model for the
    collector's sake; once the frozen set has doubled (here: forced by a zero baseline) a
    load collects it first, so an earlier project held only by its own cycles (a renderer
    and its sandbox refer to each other) is freed instead of frozen again."""
    first, _ = load(ROOT)
    kept = weakref.ref(first)
    renderer(first, "cs")
    del first
    templates._RENDERERS.clear()  # as later saves would push it out (a cache: nothing lost)
    monkeypatch.setattr(load_module, "_FROZEN_AFTER_COLLECTION", [0])
    data, _ = load(ROOT)
    renderer(data, "cs")
    assert kept() is None


def test_forget_all_empties_every_live_memo():
    """A long-lived process (a test worker, `serve`) can drop what every memo keeps alive."""
    from cardgen.data.memo import Memo
    first, second = Memo(4), Memo(4)
    first["a"], second["b"] = 1, 2
    Memo.forget_all()
    assert first == {} and second == {}
    first["c"] = 3  # and they fill again on use
    assert first == {"c": 3}
