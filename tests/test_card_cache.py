"""Card files as the last build loaded them: reused only while their bytes are the same, and a
damaged, stale or foreign cache file is no cache."""

from __future__ import annotations

import hashlib
import pickle
import shutil
from pathlib import Path

from cardgen.build.check import run_check
from cardgen.check.cache import CheckCache
from cardgen.data.cardcache import MAGIC, NAME, CardFileCache, _key
from cardgen.data.load import load
from cardgen.files import pickles
from cardgen.files.incremental import CACHE_DIR
from tests.conftest import replace_in

CARD_FILES = 4


def _kept(project: Path, output: Path | None = None) -> CardFileCache:
    """Load ``project`` as a build does and keep its card files under ``output``."""
    cache = CardFileCache(keep=True)
    load(project, cache)
    cache.write(output or project / "output")
    return CardFileCache.read(output or project / "output")


def _cold(project: Path):
    return run_check(project, check_cache=CheckCache(), card_cache=CardFileCache()).findings


def test_kept_card_files_load_as_parsed(project):
    cache = _kept(project)
    data, found = load(project, cache)
    parsed, parsed_found = load(project)
    assert len(cache.live) == CARD_FILES  # every card file came from the cache
    assert data.cards == parsed.cards and found == parsed_found
    assert [c.source_key for c in data.cards] == [c.source_key for c in parsed.cards]
    assert [str(c.at("deed")) for c in data.cards] == [str(c.at("deed")) for c in parsed.cards]


def test_a_card_file_edited_after_a_build_is_read_again(project):
    _kept(project)
    cards = project / "card_data" / "cards" / "luxembourg.yaml"
    line = replace_in(cards, "    political: 3\n", "    political: 3\n    colour: red\n") + 1
    found = run_check(project).findings
    assert [str(f.location) for f in found if f.code == "unknown-key"] == [
        f"card_data/cards/luxembourg.yaml:{line}:5"]
    assert found == _cold(project)
    # the cache of a build made then keeps the finding with its file:line
    cache = _kept(project)
    assert run_check(project, card_cache=cache).findings == found
    assert len(cache.live) == CARD_FILES


def test_a_cache_made_in_another_copy_of_the_project_holds(project, tmp_path):
    # a build loads a copy of the inputs in a temporary folder: every file:line is relative
    other = tmp_path / "elsewhere"
    shutil.copytree(project / "card_data", other / "card_data")
    replace_in(other / "card_data" / "cards" / "market.yaml", "    prototype: true\n",
               "    prototype: true\n    colour: red\n")
    shutil.copy(other / "card_data" / "cards" / "market.yaml",
                project / "card_data" / "cards" / "market.yaml")
    cache = _kept(other, project / "output")
    data, found = load(project, cache)
    assert len(cache.live) == CARD_FILES
    parsed, parsed_found = load(project)
    assert (data.cards, found) == (parsed.cards, parsed_found)
    assert any(f.code == "unknown-key" and f.location.file == "card_data/cards/market.yaml"
               for f in found)


def test_a_damaged_cache_file_is_no_cache(project):
    _kept(project)
    path = project / "output" / CACHE_DIR / NAME
    whole = path.read_bytes()
    for damaged in (whole[: len(whole) // 2], whole[:-1] + bytes([whole[-1] ^ 1]),
                    whole.replace(_key().encode(), b"0" * 64), b"", b"\n\n\n"):
        path.write_bytes(damaged)
        assert CardFileCache.read(project / "output").stored == {}
        assert run_check(project).findings == _cold(project)


def _forged(project: Path, entry: bytes) -> None:
    """A cache file whose every check passes (sealed with the project's own key, as by a
    build whose code made it), holding ``entry`` for luxembourg.yaml."""
    name = "card_data/cards/luxembourg.yaml"
    sha = hashlib.sha256((project / name).read_bytes()).hexdigest()
    body = pickle.dumps({name: (sha, entry)})
    pickles.write(project / "output", f"{CACHE_DIR}/{NAME}", MAGIC, _key(), body)


class _Opens:
    """Unpickled, would create a file: a cache may not make such objects."""

    def __init__(self, path: Path):
        self.path = path

    def __reduce__(self):
        return (open, (str(self.path), "w"))


def test_a_cache_entry_that_makes_other_objects_is_refused(project, tmp_path):
    marker = tmp_path / "opened"
    _forged(project, pickle.dumps(([_Opens(marker)], [])))
    cache = CardFileCache.read(project / "output")
    assert cache.stored  # the file itself is well-formed ...
    data, _ = load(project, cache)
    assert not marker.exists() and not cache.live  # ... its entry is not used
    assert data.cards == load(project)[0].cards
    # nor is one of the wrong shape
    _forged(project, pickle.dumps(("not", "cards")))
    assert run_check(project).findings == _cold(project)
