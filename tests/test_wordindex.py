"""Name and term matching through the word index finds exactly what trying every name finds."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.check.names import find_names, name_index, name_table
from cardgen.check.wordindex import WordIndex
from cardgen.data.load import load

ROOT = Path(__file__).resolve().parent.parent
DATA, _ = load(ROOT)
NAMES = name_table(DATA)
INDEX = {lang: name_index(NAMES, lang) for lang in ("en", "cs")}
FORMS = {lang: [f for n in NAMES for f in n.forms[lang]] for lang in ("en", "cs")}
FILLER = ["získá", "1", "hlas", "u", "nebo", "a", "the", "of", "v", "Karel", "kurfiřta",
          "Jana", "(", ":", "kartu", "later", "Mohučského"]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["en", "cs"]), st.data())
def test_index_finds_the_same_names(lang, draw):
    words = draw.draw(st.lists(st.one_of(st.sampled_from(FORMS[lang]), st.sampled_from(FILLER),
                                         st.sampled_from(FORMS[lang]).map(str.upper)),
                               max_size=12))
    text = " ".join(words)
    assert find_names(NAMES, text, lang, INDEX[lang]) == find_names(NAMES, text, lang)


def test_candidates_keep_order_and_need_every_word():
    index = WordIndex([("a", ["Blanche de Valois"]), ("b", ["Blanka z Valois"]), ("c", [":x:"])])
    assert index.candidates("kartu Blanka z Valois") == ["b", "c"]
    assert index.candidates("Blanka") == ["c"]  # "z" and "Valois" are missing
    assert index.candidates("BLANCHE DE VALOIS, Blanka z Valois") == ["a", "b", "c"]
