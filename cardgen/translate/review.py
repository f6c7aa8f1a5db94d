"""What a review proof compares: the texts printed earlier and now, word by word.

The earlier texts come from an earlier build's ``manifest.json`` (each card's printed texts,
with the manifests of the other languages beside it: ``OLD/en/manifest.json`` and
``OLD/cs/manifest.json``) or from a git revision of ``card_data/``, composed again. A card
is shown when a text it prints differs or when it is new.
"""

from __future__ import annotations

import difflib
import posixpath
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import CardgenError, Location, error
from ..files import tools
from ..files.oserrors import os_errors
from ..wording.face import CardFace, printed_texts

#: card id -> text key -> printed text, in one language
Texts = dict[str, dict[str, str]]


@dataclass(frozen=True)
class Earlier:
    """The earlier state a proof is compared with."""

    label: str  # what the reader is told it was compared with
    texts: dict[str, Texts]  # lang -> card id -> key -> text
    hashes: dict[str, dict[str, str]] = field(default_factory=dict)  # lang -> card id -> hash
    values: dict[str, list[str]] = field(default_factory=dict)  # card id -> value change lines


@dataclass(frozen=True)
class Change:
    """Why a card is in the review proof."""

    card_id: str
    new: bool = False
    langs: tuple[str, ...] = ()  # languages whose texts changed
    drawing: bool = False  # the content hash changed (no earlier texts to compare)

    def describe(self) -> str:
        if self.new:
            return "new card"
        if self.langs:
            return "changed: " + ", ".join(self.langs)
        return "content hash changed (the earlier manifest keeps no texts)"


def texts_of(faces: Iterable[CardFace]) -> Texts:
    return {f.card_id: printed_texts(f) for f in faces}


def manifest_earlier(label: str, docs: Mapping[str, Mapping[str, Any]]) -> Earlier:
    """An :class:`Earlier` from manifests by language (cards without ``texts`` are compared
    by hash only: manifests written before the texts were kept)."""
    texts: dict[str, Texts] = {}
    hashes: dict[str, dict[str, str]] = {}
    for lang, doc in docs.items():
        cards = doc.get("cards") or []
        hashes[lang] = {c["id"]: c.get("hash", "") for c in cards}
        texts[lang] = {c["id"]: {str(k): str(v) for k, v in c["texts"].items()}
                       for c in cards if isinstance(c.get("texts"), dict)}
    return Earlier(label, texts, hashes)


def changes(earlier: Earlier, now: Mapping[str, Texts],
            now_hashes: Mapping[str, Mapping[str, str]] | None = None) -> dict[str, Change]:
    """The cards to show, by id, in the order of ``now``'s first language.

    Texts are compared where the earlier state keeps them; a content hash only for a card
    it keeps no texts of (a manifest written before manifests kept texts): the hash covers
    the code too, so after an update of cardgen every card's hash differs."""
    known = {cid for lang in earlier.hashes.values() for cid in lang}
    known |= {cid for lang in earlier.texts.values() for cid in lang}
    out: dict[str, Change] = {}
    ids = list(dict.fromkeys(cid for texts in now.values() for cid in texts))
    for cid in ids:
        if cid not in known:
            out[cid] = Change(cid, new=True)
            continue
        langs = tuple(lang for lang, texts in now.items()
                      if cid in earlier.texts.get(lang, {})
                      and earlier.texts[lang][cid] != texts.get(cid, {}))
        textless = not any(cid in texts for texts in earlier.texts.values())
        drawing = textless and any(
            cid in earlier.hashes.get(lang, {}) and earlier.hashes[lang][cid] != hashes.get(cid)
            for lang, hashes in (now_hashes or {}).items())
        if langs or drawing:
            out[cid] = Change(cid, langs=langs, drawing=drawing)
    return out


def removed(earlier: Earlier, now: Mapping[str, Texts]) -> list[tuple[str, str]]:
    """(id, earlier name) of the cards the earlier state had and the current one has not."""
    here = {cid for texts in now.values() for cid in texts}
    out: dict[str, str] = {}
    for lang in ("en", *earlier.texts):
        for cid, texts in earlier.texts.get(lang, {}).items():
            if cid not in here:
                out.setdefault(cid, texts.get("name", ""))
    for hashes in earlier.hashes.values():
        for cid in hashes:
            if cid not in here:
                out.setdefault(cid, "")
    return sorted(out.items())


# --- word differences -----------------------------------------------------------------

#: A run of text and whether it differs (inserted / removed words).
Run = tuple[str, bool]


def words(text: str) -> list[str]:
    """Words split at ordinary spaces: a non-breaking space stays inside its word."""
    return [w for w in text.split(" ") if w]


def word_diff(old: str, new: str) -> tuple[list[Run], list[Run]]:
    """``new`` and ``old`` as words, each marked when it is not in the other (difflib on
    words, so a changed word is marked whole and moved spacing is no change)."""
    a, b = words(old), words(new)
    now: list[Run] = []
    was: list[Run] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        now += [(w, op != "equal") for w in b[j1:j2]]
        was += [(w, op != "equal") for w in a[i1:i2]]
    return now, was


def plain(text: str) -> list[Run]:
    return [(w, False) for w in words(text)]


# --- translation state ----------------------------------------------------------------

# --- an earlier card_data/ from git ---------------------------------------------------

#: What a revision's card_data/ may hold, all files together (far above any real one).
MAX_REVISION_BYTES = 256 * 1024 * 1024

#: Git's file modes for a file, an executable file and a symbolic link (trees and
#: submodules are not files of card_data/).
_FILE_MODES, _LINK_MODE = ("100644", "100755"), "120000"


def _git(project: Path, *args: str, stdin: bytes = b"") -> tools.Ran:
    """git in the project, the repository's fsmonitor hook switched off: only commands that
    run no filter, hook or pager the repository's config may name (rev-parse, ls-tree,
    cat-file without --filters; never archive or checkout, which run smudge filters)."""
    return tools.run(tools.GIT, ["-c", "core.fsmonitor=false", "-C", project, *args],
                     needs="--changed-since REVISION", stdin=stdin,
                     max_output=MAX_REVISION_BYTES)


def git_card_data(project: Path, revision: str, into: Path, what: str = "--changed-since"
                  ) -> None:
    """Write ``card_data/`` as it was at git ``revision`` under ``into``/card_data: its
    files' stored bytes (no filter of the repository runs); a link is followed only to a
    file of the same tree, else the revision is read as if it were not there. ``what`` is
    the option or command the problems name."""
    hint = ("pass an earlier build's manifest.json (output/<lang>/manifest.json) or a git "
            "revision of the project, e.g. HEAD~1")
    if revision.startswith("-"):  # never an option to git
        raise CardgenError(error("usage", f"{what} {revision}: neither a manifest file "
                                 "nor a revision", hint=hint))
    prefix = _git(project, "rev-parse", "--show-prefix")
    if prefix.returncode != 0:
        raise CardgenError(error("usage", f"{what} {revision}: no such manifest file, "
                                 f"and {project} is not in a git repository", hint=hint))
    commit = _git(project, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    if commit.returncode != 0:
        raise CardgenError(error("usage", f"{what} {revision}: neither a manifest file "
                                 "nor a revision of the project's git repository", hint=hint))
    sha = commit.stdout.decode().strip()
    tree = f"{sha}:{prefix.stdout.decode().strip()}card_data"
    listing = _git(project, "ls-tree", "-r", "-z", tree)
    if listing.returncode != 0:
        raise CardgenError(error("usage", f"{what} {revision}: the revision has no "
                                 "card_data/ folder", location=Location("card_data"), hint=hint))
    files, links = _tree_entries(listing.stdout)
    targets = _blobs(project, sorted(set(links.values())))
    for name, oid in links.items():  # a link's blob is the name it points at
        dest = posixpath.normpath(posixpath.join(posixpath.dirname(name),
                                                 targets[oid].decode("utf-8", "replace")))
        if dest in files:
            files[name] = files[dest]
    blobs = _blobs(project, sorted(set(files.values())))
    for name, oid in files.items():
        target = into / "card_data" / name
        with os_errors("write", target):  # a crafted tree: a file where a folder is
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(blobs[oid])


def _tree_entries(listing: bytes) -> tuple[dict[str, str], dict[str, str]]:
    """(plain files, links): file name (relative, "/"-joined) → blob id, from ``git
    ls-tree -r -z``; names with an empty, "." or ".." part (a crafted tree) are left out."""
    plain: dict[str, str] = {}
    links: dict[str, str] = {}
    for entry in listing.split(b"\0"):
        head, _, raw = entry.partition(b"\t")
        fields = head.decode("ascii", "replace").split()
        name = raw.decode("utf-8", "surrogateescape")
        if len(fields) != 3 or any(p in ("", ".", "..") for p in name.split("/")):
            continue
        mode, _kind, oid = fields
        if mode in _FILE_MODES:
            plain[name] = oid
        elif mode == _LINK_MODE:
            links[name] = oid
    return plain, links


def _blobs(project: Path, oids: Sequence[str]) -> dict[str, bytes]:
    """Each blob's stored bytes, read by one ``git cat-file --batch``."""
    if not oids:
        return {}
    out = _git(project, "cat-file", "--batch", stdin="".join(f"{o}\n" for o in oids).encode())
    data, pos, found = out.stdout, 0, {}
    for oid in oids:
        end = data.find(b"\n", pos)
        head = data[pos:end].split()
        if end < 0 or len(head) != 3 or head[1] != b"blob":
            raise CardgenError(error("tool-failed", f"git cat-file gave no blob for {oid}",
                                     hint=f"check the repository: git -C {project} fsck"))
        size = int(head[2])
        found[oid] = data[end + 1:end + 1 + size]
        pos = end + 1 + size + 1
    return found


def keys_in_order(texts: Sequence[Mapping[str, str]]) -> list[str]:
    return list(dict.fromkeys(k for t in texts for k in t))
