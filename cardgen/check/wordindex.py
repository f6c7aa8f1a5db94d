"""Which of many name patterns can match a text, found in one pass over the text's words.

Card, place and shield names are matched as whole words (``(?<!\\w)…``), and every word
of a name starts a run of word characters in the text with its first letters (Czech case
endings change only a word's end). So a name can match only a text that has a word
starting like each of the name's words. Each name is filed under the rarest first letters
(two, lower case) of its words; looking up the start of every word of a text gives the few
names worth trying, instead of trying every name on every text: checking a deck then grows
with its size, not with its square. A name with no word starting with a letter or digit
is tried on every text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Generic, TypeVar

T = TypeVar("T")
_WORD = re.compile(r"\w+")
KEY_LEN = 2


def word_keys(phrase: str) -> frozenset[str]:
    """The first letters of every word of ``phrase`` that starts with a word character."""
    keys = set()
    for word in phrase.split():
        m = _WORD.match(word)
        if m:
            keys.add(m.group()[:KEY_LEN].lower())
    return frozenset(keys)


class WordIndex(Generic[T]):
    """Items (in their given order), each with the phrases it may be found by."""

    def __init__(self, items: Iterable[tuple[T, Iterable[str]]]):
        self._items: list[T] = []
        self._by_key: dict[str, list[tuple[int, frozenset[str]]]] = {}
        self._always: list[int] = []
        filed: list[tuple[int, frozenset[str]]] = []
        for i, (item, phrases) in enumerate(items):
            self._items.append(item)
            for phrase in {p for p in phrases if p and p.strip()}:
                keys = word_keys(phrase)
                if keys:
                    filed.append((i, keys))
                else:
                    self._always.append(i)
        counts: dict[str, int] = {}
        for _, keys in filed:
            for key in keys:
                counts[key] = counts.get(key, 0) + 1
        for i, keys in filed:  # under its rarest key (ties: the first in sorted order)
            rarest = min(sorted(keys), key=lambda k: counts[k])
            self._by_key.setdefault(rarest, []).append((i, keys))

    def candidates(self, text: str) -> list[T]:
        """The items that may match in ``text``, in their given order (a superset of those
        that do)."""
        present: set[str] = set()
        for word in _WORD.findall(text):
            low = word[:KEY_LEN].lower()
            present.add(low)
            present.add(low[:1])
        hits = set(self._always)
        for key in present:
            for i, keys in self._by_key.get(key, ()):
                if i not in hits and keys <= present:
                    hits.add(i)
        return [self._items[i] for i in sorted(hits)]
