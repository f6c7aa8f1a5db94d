"""Memos that keep only their latest entries.

A memo keyed by a loaded project (its GameData, a face, an image path) holds what it keeps
alive; in one `cardgen build` that is one project, but `cardgen serve` and `watch` load the
data again on every save, all day. A :class:`Memo` forgets its oldest entry once it holds
``size``, so a long-lived process holds a bounded amount.
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V]):
    """A dict that forgets its oldest entries beyond ``size`` (insertion order)."""

    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        while len(self) > self.size:
            del self[next(iter(self))]
