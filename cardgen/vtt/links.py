"""Where the saved table's image links point: a local ``file://`` path into ``output/``, or
the web folder the images are uploaded to (``--vtt-base-url``), one language folder each.

The base URL names the folder that holds one folder per language (``…/king`` holding
``en/`` and ``cs/``, each a copy of ``output/<lang>/vtt/``), or carries a ``{lang}``
placeholder (``https://example.org/king/{lang}/vtt`` when ``output/`` is uploaded as it
is). Either way the Czech save links only Czech images.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import Finding, error

LANG_PLACEHOLDER = "{lang}"
OPTION = "--vtt-base-url"
_EXAMPLE = "https://example.org/king"
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_LANG_TAIL = re.compile(r"/(en|cs)/?$")


def check_base_url(url: str, langs: tuple[str, ...] = ("en", "cs")) -> list[Finding]:
    """Why ``url`` cannot be the images' web folder (empty: it can). Each finding names the
    option, what is wrong and how to write it instead."""
    if not url:
        return []
    shown = url if len(url) <= 80 else url[:77] + "…"

    def bad(what: str, hint: str) -> Finding:
        return error("usage", f"{OPTION} {shown!r}: {what}", hint=hint)

    found: list[Finding] = []
    if any(ch.isspace() for ch in url):
        found.append(bad("contains a space, which breaks every image link",
                         "write each space as %20"))
    bare = url.replace(LANG_PLACEHOLDER, "en")
    if "{" in bare or "}" in bare:
        found.append(bad("has a placeholder other than {lang}",
                         f"use {{lang}} for the language folder, e.g. {_EXAMPLE}/{{lang}}"))
    parts = urlsplit(bare)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        found.append(bad("is not a web address (http:// or https:// and a host)",
                         f"give the web folder the images are uploaded to, e.g. {_EXAMPLE}"))
        return found
    if parts.query or "?" in bare:
        found.append(bad("has a query ('?'), which the image names would be appended to",
                         "drop the query, or write a literal '?' in a folder name as %3F"))
    if parts.fragment or "#" in bare:
        found.append(bad("has a fragment ('#'), which cuts the image names off",
                         "drop it, or write a literal '#' in a folder name as %23"))
    if "%" in _ESCAPE.sub("", bare):
        found.append(bad("has a '%' that is not an escape like %20",
                         "write a literal '%' as %25"))
    if LANG_PLACEHOLDER not in url and (tail := _LANG_TAIL.search(parts.path)):
        found.append(bad(f"ends in the language folder /{tail.group(1)}, so every language's "
                         "table would link the same images",
                         "give the folder that holds " + " and ".join(f"{lang}/" for lang in langs)
                         + f" (e.g. {_EXAMPLE}), or put {{lang}} where the language goes"))
    return found


def image_links(base_url: str, lang: str, folder: Path) -> Callable[[str], str]:
    """The link to the file ``name`` of ``folder`` (``output/<lang>/vtt/``) for ``lang``."""
    if not base_url:
        root = folder.resolve()
        return lambda name: (root / name).as_uri()
    if LANG_PLACEHOLDER in base_url:
        url = base_url.replace(LANG_PLACEHOLDER, lang).rstrip("/")
    else:
        url = f"{base_url.rstrip('/')}/{lang}"
    return lambda name: f"{url}/{name}"
