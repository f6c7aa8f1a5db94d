"""Page objects written quickly, byte for byte as ReportLab writes them.

ReportLab formats every page's dictionary and content stream through its generic object
formatter: each key becomes a PDF name character by character, each value is dispatched by
type, each resource dictionary is rebuilt. For a file of one card per page that is most of
the file's cost: print-shop.pdf at 20× the shipped deck (3,280 pages) spent 0.4 of its 0.6 s
there (issue 14), and a one-card edit rewrites four such files.

:class:`FastPage` and :class:`FastStream` write the same bytes directly for the values a page
holds (names, numbers, arrays, dictionaries, references, the resource dictionary) and hand
anything else to ReportLab's formatter. ``tests/test_pdfpage.py`` holds them to ReportLab's
own output, so a ReportLab release that writes pages differently fails there, not in print.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from typing import Any

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.utils import isSeq
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFArrayCompact,
    PDFBase85Encode,
    PDFDictionary,
    PDFName,
    PDFObjectReference,
    PDFPage,
    PDFResourceDictionary,
    PDFStream,
    PDFZCompress,
)

#: A PDF name (str) for a key; the same few dozen keys come back on every page.
_pdf_name = functools.lru_cache(maxsize=1024)(PDFName)


@functools.lru_cache(maxsize=1024)
def _name(key: str) -> bytes:
    """A dictionary key as a PDF name, encoded."""
    return _text(_pdf_name(key))


def _text(value: str) -> bytes:
    """A string as ReportLab encodes it (PDFDocEncoding is ASCII for printable ASCII)."""
    if value.isascii() and value.isprintable():
        return value.encode("ascii")
    return pdfdoc.pdfdocEnc(value)


def _value(value: Any, document: Any) -> bytes:
    """``value`` formatted as ReportLab's ``pdfdoc.format`` would, at less cost."""
    kind = type(value)
    if kind is int or kind is float:
        return fp_str(value).encode("ascii")
    if kind is str:
        return _text(value)
    if kind is PDFObjectReference:
        numbers = document.idToObjectNumberAndVersion.get(value.name)
        return b"%d %d R" % numbers if numbers else value.format(document)  # format: its error
    if kind is PDFArray or kind is PDFArrayCompact:
        return _array(value, document)
    if kind is PDFDictionary:
        return _dictionary(value.dict, value.multiline, document)
    if kind is PDFResourceDictionary:
        return _dictionary(_resources(value), True, document)
    return pdfdoc.format(value, document)


def _array(array: PDFArray, document: Any) -> bytes:
    """PDFArray.format, element by element through :func:`_value`."""
    parts = [_value(e, document) for e in array.sequence]
    if (array.multiline and rl_config.pdfMultiLine) or array.multiline == "forced":
        return b"[ " + b"\n ".join(parts) + b" ]"
    for i in reversed(range(10, len(parts), 10)):  # ReportLab breaks a line every 10
        parts.insert(i, b"\n ")
    return b"[ " + b" ".join(parts) + b" ]"


def _dictionary(entries: dict[str, Any], multiline: Any, document: Any) -> bytes:
    """PDFDictionary.format: keys sorted (unless ordered), a name and a value each."""
    keys = list(entries)
    if not isinstance(entries, OrderedDict):
        keys.sort()
    parts = [_name(k) + b" " + _value(entries[k], document) for k in keys]
    if (multiline and rl_config.pdfMultiLine) or multiline == "forced":
        return b"<<\n" + b"\n ".join(parts) + b"\n>>"
    for i in reversed(range(6, len(parts), 6)):  # ReportLab breaks a line every 6
        parts.insert(i, b"\n ")
    return b"<<\n" + b" ".join(parts) + b"\n>>"


def _resources(res: PDFResourceDictionary) -> dict[str, Any]:
    """What PDFResourceDictionary.format puts in the dictionary it formats."""
    out: dict[str, Any] = {}
    for name in res.dict_attributes:
        value = getattr(res, name)
        if isinstance(value, dict):
            if value:
                out[name] = PDFDictionary(value)
        else:
            out[name] = value
    procs = res.ProcSet
    if isSeq(procs):
        if procs:
            out["ProcSet"] = PDFArray(procs)
    else:
        out["ProcSet"] = procs
    return out


class FastStream(PDFStream):
    """A page's content stream (PDFStream.format, its dictionary written directly)."""

    def format(self, document: Any) -> bytes:
        if self.content is None:
            raise ValueError("stream content not set")
        entries = self.dictionary.dict.copy()  # an OrderedDict stays one: its keys unsorted
        content = self.content
        filters = self.filters if self.filters is not None else document.defaultStreamFilters
        if filters is not None and "Filter" not in entries:
            names: list[Any] = []
            for f in reversed(list(filters)):
                content = f.encode(content)
                names.insert(0, _pdf_name(f.pdfname))
            entries["Filter"] = PDFArray(names)
        content = document.encrypt.encode(content)
        entries["Length"] = len(content)
        body = content if isinstance(content, bytes) else _text(content)
        return _dictionary(entries, True, document) + b"\nstream\n" + body + b"endstream\n"


class FastPage(PDFPage):
    """A page dictionary (PDFCatalog.format over PDFPage.check_format) written directly."""

    Contents: Any  # set by PDFPage.__init__, where mypy cannot infer it

    def format(self, document: Any) -> bytes:
        if not self.Contents and self.stream and not self.Override_default_compilation:
            stream = FastStream()  # what check_format would make, but quick to write
            if self.compression:
                stream.filters = ([PDFBase85Encode, PDFZCompress] if rl_config.useA85
                                  else [PDFZCompress])
            stream.content = self.stream
            stream.__Comment__ = "page stream"
            self.Contents = stream
        self.check_format(document)
        entries: dict[str, Any] = {}
        for key, default in self.__Defaults__.items():
            value = getattr(self, key, default)
            if value is not None:
                entries[key] = value
        for key in self.__NoDefault__:
            value = getattr(self, key, None)
            if value is not None:
                entries[key] = value
        for key in self.__Refs__:
            if key in entries:
                entries[key] = document.Reference(entries[key])
        return _dictionary(entries, PDFDictionary.multiline, document)


def speed_up_last_page(doc: Any) -> None:
    """Write the page a canvas has just finished (``showPage``) as a :class:`FastPage`.

    A canvas makes its pages as ``PDFPage`` objects itself, with no way to ask for another
    class; the finished page is given the subclass instead, which changes how it is written
    and nothing else. A page of any other class is left as it is."""
    pages = doc.Pages.pages
    if pages and type(pages[-1]) is PDFPage:
        pages[-1].__class__ = FastPage
