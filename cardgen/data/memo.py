"""Memos that keep only their latest entries.

A memo keyed by a loaded project (its GameData, a face, an image path) holds what it keeps
alive; in one `cardgen build` that is one project, but `cardgen serve` and `watch` load the
data again on every save, all day. A :class:`Memo` forgets its oldest entry once it holds
``size``, so a long-lived process holds a bounded amount.
"""

from __future__ import annotations

import weakref
from typing import ClassVar, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V]):
    """A dict that forgets its oldest entries beyond ``size`` (insertion order)."""

    #: every memo of the process, so a long-lived one (a test worker) can drop them all
    _all: ClassVar[list[weakref.ref[Memo]]] = []

    def __init__(self, size: int):
        super().__init__()
        self.size = size
        Memo._all.append(weakref.ref(self))

    @classmethod
    def forget_all(cls) -> None:
        """Empty every memo: what they kept alive (earlier projects' data, faces and
        drawings) can be freed. Nothing is lost but time: a memo refills on use."""
        live = [ref for ref in cls._all if ref() is not None]
        for ref in live:
            memo = ref()
            if memo is not None:
                memo.clear()
        cls._all[:] = live

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        while len(self) > self.size:
            del self[next(iter(self))]
