"""The build's options: checked where parsed, and the --changed-since manifest."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..data.model import LANGS
from ..errors import CardgenError, Location, error
from ..files import tools
from ..files.oserrors import read_input


@dataclass
class BuildOptions:
    langs: tuple[str, ...] = ("en", "cs")
    png: bool = False
    cards: tuple[str, ...] = ()
    changed_since: Path | None = None
    profile: str = "generic"
    cmyk: bool = False
    gutterfold: bool = False
    flip: str = "long"
    jobs: int = 0  # worker processes; 0: one per available core, 1: serial
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm: shifts every backs page
    icc: Path | None = None  # the shop's CMYK profile (implies CMYK)
    #: print-shop.pdf as PDF/X-1a:2003 (implies CMYK); None: as the print-shop profile says
    pdfx: bool | None = None
    vtt: bool = False  # output/<lang>/vtt/: Tabletop Simulator table and generic image set
    vtt_base_url: str = ""  # where the vtt images will be hosted; "" for local file URLs
    strict: bool = False  # warnings are errors: nothing is written while there are any


def check_options(options: BuildOptions) -> None:
    """Option values a build cannot start with: usage errors (exit 2), all at once."""
    found = []
    if not options.langs:
        found.append(error("usage", "no language given", hint=f"use --lang {','.join(LANGS)}"))
    for lang in options.langs:
        if lang not in LANGS:
            found.append(error("unknown-lang", f"unknown language '{lang[:40]}'",
                               hint=f"use one of: {', '.join(LANGS)}"))
    if (options.png or options.vtt) and tools.find(tools.PDFTOPPM) is None:
        found.append(tools.missing(tools.PDFTOPPM, f"{'--png' if options.png else '--vtt'} "
                                   "(to draw images)"))
    if options.vtt_base_url:
        from ..vtt.links import check_base_url  # the table's modules load only for --vtt

        found += check_base_url(options.vtt_base_url, LANGS)
    if options.jobs < 0:
        found.append(error("usage", f"--jobs must be 0 (one per core) or more, not {options.jobs}",
                           hint="use --jobs 0"))
    if found:
        raise CardgenError(found)


def read_manifest(path: Path) -> tuple[bytes, dict]:
    """A --changed-since manifest: its bytes (for the inputs key) and its cards, checked for
    the shape a build writes (``{"cards": [{"id": …, "hash": …}, …]}``)."""
    raw = read_input(path, limit=MAX_MANIFEST)
    hint = "pass the manifest.json an earlier build wrote (output/<lang>/manifest.json)"
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        why = "it nests too deeply" if isinstance(exc, RecursionError) else str(exc)[:200]
        raise CardgenError(error("manifest-read", f"not a JSON manifest: {why}",
                                 location=Location(str(path)), hint=hint)) from None
    cards = doc.get("cards") if isinstance(doc, dict) else None
    if not isinstance(cards, list) or not all(_manifest_card(c) for c in cards):
        raise CardgenError(error("manifest-shape", "the manifest needs 'cards': a list of "
                                 "{id: text, hash: text, texts: {key: text}} entries, ids of "
                                 "at most 64 characters", location=Location(str(path)),
                                 hint=hint))
    return raw, doc


#: The largest --changed-since manifest read (a build's is about 100 kB).
MAX_MANIFEST = 16 * 1024 * 1024


def _manifest_card(entry: object) -> bool:
    """Whether ``entry`` has the shape of one card of a manifest a build writes."""
    if not isinstance(entry, dict):
        return False
    cid, sha, texts = entry.get("id"), entry.get("hash", ""), entry.get("texts", {})
    return (isinstance(cid, str) and len(cid) <= 64 and isinstance(sha, str) and len(sha) <= 128
            and isinstance(texts, dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in texts.items()))
