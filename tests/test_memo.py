"""A long-lived process (serve, watch) loads the data again on every save: the memos of
loaded data, faces and art keep only their latest entries."""

from __future__ import annotations

from cardgen.data.memo import Memo


def test_a_memo_forgets_its_oldest_entries():
    memo: Memo[int, str] = Memo(2)
    for i in range(5):
        memo[i] = str(i)
    assert memo == {3: "3", 4: "4"}
