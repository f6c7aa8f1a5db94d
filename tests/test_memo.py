"""A long-lived process (serve, watch) loads the data again on every save: the memos of
loaded data, faces and art keep only their latest entries."""

from __future__ import annotations

import gc
import weakref

from cardgen.data.load import load
from cardgen.data.memo import Memo
from cardgen.wording.templates import renderer
from tests.conftest import ROOT


def test_a_memo_forgets_its_oldest_entries():
    memo: Memo[int, str] = Memo(2)
    for i in range(5):
        memo[i] = str(i)
    assert memo == {3: "3", 4: "4"}


def test_data_loaded_again_and_again_is_freed():
    """Ten saves in `cardgen serve`: each load freezes the new model for the collector's
    sake, and what the last one froze (a renderer and its sandbox refer to each other) is
    collected first instead of frozen again."""
    first, _ = load(ROOT)
    kept = weakref.ref(first)
    renderer(first, "cs")
    del first
    for _ in range(10):
        data, _ = load(ROOT)
        renderer(data, "cs")
    gc.collect()
    assert kept() is None
