"""Preflight: what a print shop checks in a PDF, page by page, read from the file itself.

Reads the PDF through ``qpdf --json`` and follows each page's content and the forms it
places, keeping the graphics state that matters: the CTM (for text sizes and image
resolution) and the fill and stroke colours. Per page it reports the highest total ink
(colour operators and CMYK image pixels), the smallest text, the lowest image resolution,
any RGB, any transparency, the TrimBox and BleedBox, and fonts that are not embedded.
:func:`findings` turns a report into errors and warnings.

qpdf gives every object; each stream's data is taken as stored, from the file itself where
its cross-reference table allows (else from qpdf), and only the streams a walk reads (page
contents, forms, CMYK images) are decoded, here. A :class:`WalkCache` lends what walking a
page or a form found in an earlier build, keyed by everything that walk reads, so after a
one-card edit only that card's page and form are read again.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import math
import re
import shutil
import struct
import subprocess
import tempfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, ImageMath

from .errors import CardgenError, Finding, Location, error, warning
from .incremental import code_digest, digest

TOKEN = re.compile(rb"/[^\s/\[\]()<>{}%]*|\((?:\\.|[^\\)])*\)|<<|>>|<[0-9A-Fa-f\s]*>|\[|\]"
                   rb"|[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z'\"*]+[0-9]?\*?")
RGB_OPS = {b"rg", b"RG"}
TEXT_SHOW = {b"Tj", b"TJ", b"'", b'"'}
#: The first bytes of operand tokens: names, strings, hex strings and dictionaries, arrays.
OPERAND_FIRST = frozenset(b"/(<[]")
#: The first bytes of a number token: TOKEN's other kinds never start with these, so the
#: first byte tells a number (no regular expression per token).
NUMBER_START = frozenset(b"+-.0123456789")
#: The operators whose numeric operands _walk reads.
NUMERIC_OPS = frozenset({b"cm", b"k", b"K", b"g", b"G", b"Tf", b"Tm"})
FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")


@dataclass
class PageReport:
    page: int
    ink_max: float = 0.0  # percent
    min_text_pt: float | None = None
    min_image_ppi: float | None = None
    rgb: int = 0  # RGB colour operators, shadings and images
    transparency: int = 0  # soft masks, constant alpha below 1, blend modes
    trim_box: bool = False
    bleed_box: bool = False
    fonts_not_embedded: set[str] = field(default_factory=set)
    text_not_k_only: int = 0  # black text (K ≥ 80 %) under 12 pt that also uses C, M or Y

    def to_json(self) -> dict[str, Any]:
        return {"page": self.page, "ink_max": round(self.ink_max, 1),
                "min_text_pt": None if self.min_text_pt is None else round(self.min_text_pt, 2),
                "min_image_ppi": None if self.min_image_ppi is None
                else round(self.min_image_ppi),
                "rgb": self.rgb, "transparency": self.transparency,
                "trim_box": self.trim_box, "bleed_box": self.bleed_box,
                "fonts_not_embedded": sorted(self.fonts_not_embedded),
                "small_text_not_k_only": self.text_not_k_only}


#: Filters qpdf's "generalized" decode level undoes (with their short names). A stream
#: whose chain has any other filter (DCT, JPX, JBIG2, CCITT) is left as it is, whole.
GENERALIZED = frozenset({"/FlateDecode", "/ASCII85Decode", "/ASCIIHexDecode", "/LZWDecode",
                         "/RunLengthDecode", "/Fl", "/A85", "/AHx", "/LZW", "/RL"})
REF = re.compile(r"\d+ \d+ R")
#: TOKEN's strings: a "(" starts no other token, so both find the same strings
STRING = re.compile(rb"\((?:\\.|[^\\)])*\)")
#: What a walk found, as the walk cache stores it (a list, in this order; exact floats,
#: not rounded), and the keys of the forms it placed (kept while the walk holding them is):
#: ink_max, min_text_pt, min_image_ppi, rgb, transparency, text_not_k_only,
#: fonts_not_embedded, parts
WALK_TYPES = (float, (float, type(None)), (float, type(None)), int, int, int, list, list)


def _qpdf(path: Path, *options: str) -> dict[str, Any]:
    """qpdf's JSON (version 2) of the objects of the PDF at ``path``; ``options`` say how
    much of the stream data it gives, and how decoded."""
    exe = shutil.which("qpdf")
    if exe is None:
        raise CardgenError(error("tool-missing", "preflight needs qpdf",
                                 hint="install qpdf (apt-get install qpdf)"))
    # into a file, not a pipe: qpdf writes its JSON in small pieces, and handing each
    # through a pipe cost both processes more than qpdf's reading of the PDF (issue 14)
    with tempfile.TemporaryDirectory(prefix="cardgen-qpdf-") as tmp:
        out = Path(tmp) / "objects.json"
        proc = subprocess.run([exe, "--json=2", "--json-key=qpdf", *options, str(path),
                               str(out)], capture_output=True, check=False)
        if proc.returncode not in (0, 3):  # 3: warnings
            raise CardgenError(error("preflight-read", "cannot read the PDF: "
                                     f"{proc.stderr.decode('utf-8', 'replace').strip()}",
                                     location=Location(str(path))))
        return json.loads(out.read_bytes())


def _read(path: Path, walks: WalkCache | None = None, pdf: bytes | None = None) -> _Doc:
    """The PDF at ``path`` as qpdf reads it: every object, each stream's data as stored
    (the filters are undone here, and only for the streams a walk reads: contents, forms,
    CMYK images). Where the file's cross-reference table says where each stream is (as in
    every file ReportLab writes), the data is taken from the file itself, so qpdf neither
    base64-encodes every image and font nor hands them through its output. ``pdf``: the
    file's bytes, when the caller holds them already."""
    pdf = path.read_bytes() if pdf is None else pdf
    raw = _qpdf(path, "--decode-level=none", "--json-stream-data=none")
    stored = _stored_streams(pdf, raw["qpdf"][1])
    if stored is None:  # no plain table, or one that does not match what qpdf read
        raw = _qpdf(path, "--decode-level=none", "--json-stream-data=inline")
        stored = {k.removeprefix("obj:"): base64.b64decode(v["stream"].get("data", ""))
                  for k, v in raw["qpdf"][1].items() if isinstance(v, dict) and "stream" in v}
    return _Doc(raw, path, stored, walks)


_XREF_ENTRY = re.compile(rb"(\d{10}) (\d{5}) ([nf])")
_XREF_SECTION = re.compile(rb"\s*(\d+) (\d+)[ \t]*\r?\n")
_STREAM_END = re.compile(rb"\r?\n?endstream")


def _stored_streams(pdf: bytes, objects: dict[str, Any]) -> dict[str, bytes] | None:
    """Each stream's stored bytes (object reference → data), located through the file's
    one classic cross-reference table and each stream's /Length; None when the file has no
    such table (a cross-reference stream, an incremental update) or any stream is not
    where the table and its length say (qpdf then gives the data itself)."""
    at = pdf.rfind(b"startxref")
    numbers = pdf[at + 9:at + 40].split() if at >= 0 else []
    start = int(numbers[0]) if numbers and numbers[0].isdigit() else -1
    if start < 0 or not pdf.startswith(b"xref", start) or b"/Prev" in pdf[start:at]:
        return None
    offsets: dict[str, int] = {}
    pos = start + 4
    while (section := _XREF_SECTION.match(pdf, pos)) is not None:
        first, count = int(section.group(1)), int(section.group(2))
        entries = _XREF_ENTRY.findall(pdf, section.end(), section.end() + 20 * count)
        if len(entries) != count:
            return None
        for i, (offset, generation, kind) in enumerate(entries):
            if kind == b"n":
                offsets[f"{first + i} {int(generation)} R"] = int(offset)
        pos = section.end() + 20 * count
    out: dict[str, bytes] = {}
    for key, obj in objects.items():
        if not (isinstance(obj, dict) and "stream" in obj):
            continue
        ref = key.removeprefix("obj:")
        length = obj["stream"].get("dict", {}).get("/Length")
        if isinstance(length, str):  # an indirect length
            length = objects.get(f"obj:{length}", {}).get("value")
        offset = offsets.get(ref)
        head = f"{ref[:-2]} obj".encode()
        if offset is None or not isinstance(length, int) or not pdf.startswith(head, offset):
            return None
        keyword = pdf.find(b"stream", offset)
        if keyword < 0:
            return None
        begin = keyword + 6 + (2 if pdf.startswith(b"\r\n", keyword + 6) else 1)
        if not _STREAM_END.match(pdf, begin + length):
            return None
        out[ref] = pdf[begin:begin + length]
    return out


#: Each ASCII85 digit's worth in the five places of a group (digit 0 is "!", 33).
_A85_PLACES = [[(c - 33) * 85 ** k if 33 <= c <= 117 else -(1 << 40) for c in range(256)]
               for k in range(4, -1, -1)]


def _a85(data: bytes) -> bytes:
    """ASCII85 decoded five digits at a time through tables (the standard library's
    decoder goes digit by digit, slower than qpdf was for a file's page streams)."""
    text = data.translate(None, b" \t\n\r\x0b\x0c\x00").removesuffix(b"~>")
    text = text.removeprefix(b"<~").replace(b"z", b"!!!!!")
    pad = -len(text) % 5
    text += b"u" * pad
    t4, t3, t2, t1, t0 = _A85_PLACES
    groups = [a + b + c + d + e for a, b, c, d, e in zip(
        map(t4.__getitem__, text[0::5]), map(t3.__getitem__, text[1::5]),
        map(t2.__getitem__, text[2::5]), map(t1.__getitem__, text[3::5]),
        map(t0.__getitem__, text[4::5]), strict=True)]
    try:
        out = struct.pack(f">{len(groups)}I", *groups)
    except struct.error:
        raise ValueError("not ASCII85") from None
    return out[:len(out) - pad]


def _ahx(data: bytes) -> bytes:
    text = re.sub(rb"\s", b"", data).removesuffix(b">")
    return bytes.fromhex((text + b"0" * (len(text) % 2)).decode("ascii"))


#: The generalized filters decoded here; any other (or /DecodeParms) is left to qpdf.
DECODERS = {"/FlateDecode": zlib.decompress, "/ASCII85Decode": _a85, "/ASCIIHexDecode": _ahx}


def _filters(info: dict[str, Any]) -> list[Any]:
    chain = info.get("/Filter")
    return [] if chain is None else chain if isinstance(chain, list) else [chain]


def _decode(data: bytes, info: dict[str, Any]) -> bytes | None:
    """``data`` with its filters undone, or None when one is not decoded here."""
    if info.get("/DecodeParms") is not None:
        return None
    for name in _filters(info):
        decoder = DECODERS.get(name) if isinstance(name, str) else None
        if decoder is None:
            return None
        try:
            data = decoder(data)
        except (ValueError, zlib.error):
            return None
    return data


@dataclass
class WalkCache:
    """What walking pages and forms found, from earlier builds (``known``) and in this
    preflight.

    A key hashes everything a walk reads (the content, the resources followed through,
    the CTM a form is placed with, the code), so an entry is reused only for the same
    content drawn the same way. ``used`` holds the entries this preflight read or made
    (and the parts of those it read): the only ones a build keeps."""

    known: dict[str, list[Any]] = field(default_factory=dict)
    used: dict[str, list[Any]] = field(default_factory=dict)

    def get(self, key: str) -> PageReport | None:
        entry = self.used.get(key) or self.known.get(key)
        if entry is None:
            return None
        self._keep(key, entry)
        ink, text, ppi, rgb, transparency, k_only, fonts, _parts = entry
        return PageReport(0, ink, text, ppi, rgb, transparency, fonts_not_embedded=set(fonts),
                          text_not_k_only=k_only)

    def _keep(self, key: str, entry: list[Any]) -> None:
        todo = [(key, entry)]
        while todo:
            key, entry = todo.pop()
            self.used[key] = entry
            todo += [(k, self.known[k]) for k in entry[-1]
                     if k in self.known and k not in self.used]

    def put(self, key: str, found: PageReport, parts: list[str]) -> None:
        self.used[key] = [found.ink_max, found.min_text_pt, found.min_image_ppi, found.rgb,
                          found.transparency, found.text_not_k_only,
                          sorted(found.fonts_not_embedded), sorted(set(parts))]


def walk_entries(payload: object) -> dict[str, list[Any]]:
    """A walk cache's entries read back, or none at all if any is not as written."""
    if not isinstance(payload, dict):
        return {}
    for entry in payload.values():
        if (not isinstance(entry, list) or len(entry) != len(WALK_TYPES)
                or any(isinstance(v, bool) or not isinstance(v, t)
                       for v, t in zip(entry, WALK_TYPES, strict=True))
                or not all(isinstance(n, str) for n in entry[-2] + entry[-1])):
            return {}
    return payload


@dataclass
class DocReport:
    """What PDF/X-1a:2003 asks of the document as a whole."""

    pdf_version: str = ""
    pdfx_version: str | None = None  # /GTS_PDFXVersion in the Info dictionary
    trapped: str | None = None
    output_intent: bool = False  # a GTS_PDFX OutputIntent with an ICC profile


class _Doc:
    def __init__(self, raw: dict[str, Any], path: Path, stored: dict[str, bytes],
                 walks: WalkCache | None = None):
        self.path = path
        self.stored = stored  # each stream's data as stored in the file
        self.header = raw["qpdf"][0]
        self.trailer = raw["qpdf"][1].get("trailer", {}).get("value", {})
        self.objects: dict[str, Any] = {k.removeprefix("obj:"): v
                                        for k, v in raw["qpdf"][1].items()
                                        if k.startswith("obj:")}
        self.walks = walks
        self._image_ink: dict[str, float] = {}
        self._streams: dict[str, tuple[bytes, dict[str, Any]]] = {}
        self._sigs: dict[str, str] = {}
        self._form_sigs: dict[str, str] = {}
        self._named: dict[tuple[str, str], dict[str, Any]] = {}  # (kind, ref) → outcomes
        #: (form, CTM) → what walking that form found: a form placed on many pages (a card
        #: on every copy, the back on every back) is read once per placement geometry
        self.forms: dict[tuple[str, tuple[float, ...]], tuple[PageReport, str]] = {}

    def get(self, value: Any) -> Any:
        """Resolve an indirect reference ("12 0 R") to its dictionary (or stream dict)."""
        while isinstance(value, str) and value.endswith(" R"):
            obj = self.objects.get(value, {})
            value = obj["stream"]["dict"] if "stream" in obj else obj.get("value")
        return value

    def pages(self) -> list[tuple[str, list[str]]]:
        """Each page's object and content streams, in page-tree order."""
        root = self.get(self.trailer.get("/Root")) or {}
        out: list[tuple[str, list[str]]] = []
        seen: set[str] = set()
        todo = [root.get("/Pages")]
        while todo:
            ref = todo.pop()
            if not isinstance(ref, str) or ref in seen:
                continue
            seen.add(ref)
            node = self.get(ref) or {}
            kids = self.get(node.get("/Kids"))
            if isinstance(kids, list):
                todo.extend(reversed(kids))
                continue
            contents = node.get("/Contents")
            if isinstance(contents, str) and "value" in self.objects.get(contents, {}):
                contents = self.objects[contents]["value"]  # a reference to an array
            refs = contents if isinstance(contents, list) else [contents] if contents else []
            out.append((ref, [r for r in refs if isinstance(r, str)]))
        return out

    def stream(self, ref: str) -> tuple[bytes, dict[str, Any]]:
        """A stream's data and dictionary as qpdf's generalized decoding gives them: every
        filter undone (and /Filter gone) when all are generalized ones, else as stored."""
        if ref not in self._streams:
            stream = self.objects.get(ref, {}).get("stream", {})
            info = stream.get("dict", {})
            data = self.stored.get(ref, b"")
            if _filters(info) and all(isinstance(f, str) and f in GENERALIZED
                                      for f in _filters(info)):
                decoded = _decode(data, info)
                if decoded is None:
                    data, info = self._qpdf_stream(ref)
                else:
                    data = decoded
                    info = {k: v for k, v in info.items() if k not in ("/Filter", "/DecodeParms")}
            self._streams[ref] = (data, info)
        return self._streams[ref]

    def _qpdf_stream(self, ref: str) -> tuple[bytes, dict[str, Any]]:
        """One stream decoded by qpdf: filters or parameters not decoded here."""
        number = ",".join(ref.split()[:2])
        raw = _qpdf(self.path, "--decode-level=generalized", "--json-stream-data=inline",
                    f"--json-object={number}")
        stream = raw["qpdf"][1].get(f"obj:{ref}", {}).get("stream", {})
        return base64.b64decode(stream.get("data", "")), stream.get("dict", {})

    def data(self, ref: str) -> bytes:
        return self.stream(ref)[0] if isinstance(ref, str) else b""

    def image_ink(self, ref: str) -> float:
        """Highest C+M+Y+K of a CMYK image's pixels, percent."""
        if ref not in self._image_ink:
            self._image_ink[ref] = _cmyk_max(*self.stream(ref))
        return self._image_ink[ref]

    def walk_key(self, ref: str, ctm: list[float], depth: int) -> str:
        """The walk cache's key of a form placed with ``ctm`` at nesting ``depth``."""
        sig = self._form_sig(ref, set())[0]
        return digest(code_digest(), "form", sig, repr(ctm), str(depth))[:32]

    def page_key(self, info: dict[str, Any], contents: list[str]) -> str:
        """The walk cache's key of a page: what its walk reads of its resources, and its
        content streams (not its /Parent, which leads to every page)."""
        resources = self._resources_sig(info.get("/Resources"), set(), [False])
        return digest(code_digest(), "page", resources, *(self.sig(c) for c in contents))[:32]

    def _form_sig(self, ref: str, busy: set[str]) -> tuple[str, bool]:
        """(digest of what walking a form reads, whether it met a loop of forms): its
        content with every string emptied (a walk reads text's size and place, never its
        characters, so forms whose glyph codes shifted when another card brought a new
        glyph into the font subset keep their key), its /Matrix and its resources."""
        if ref in self._form_sigs:
            return self._form_sigs[ref], False
        if ref in busy:
            return "loop", True
        busy.add(ref)
        info = self.get(ref) or {}
        loop = [False]
        resources = self._resources_sig(info.get("/Resources"), busy, loop)
        content = hashlib.sha256(STRING.sub(b"()", self.data(ref))).hexdigest()
        busy.discard(ref)
        out = digest(json.dumps(info.get("/Matrix")), resources, content)
        if not loop[0]:
            self._form_sigs[ref] = out
        return out, loop[0]

    def _resources_sig(self, resources: Any, busy: set[str], loop: list[bool]) -> str:
        """A digest of what a walk reads of a resource dictionary: each font's name if it
        is not embedded (not its glyphs or widths), whether each ExtGState is transparent,
        each shading's RGB and ink, each XObject (a form by :meth:`_form_sig`, anything
        else by its content). Anything these cannot read goes in whole."""
        res = self.get(resources) or {}
        if not isinstance(res, dict):
            return self._whole(resources, busy, loop)
        out: dict[str, Any] = {}
        for kind, outcome in (("/Font", lambda v: _font_not_embedded(self, v)),
                              ("/ExtGState", lambda v: _transparent(self.get(v) or {})),
                              ("/Shading", lambda v: _shading(self, self.get(v) or {})),
                              ("/XObject", lambda v: self._xobject_sig(v, busy, loop))):
            shared = res.get(kind)  # fonts are one dictionary that every form names
            if kind != "/XObject" and isinstance(shared, str) and (kind, shared) in self._named:
                out[kind] = self._named[kind, shared]
                continue
            named = self.get(shared) or {}
            if not isinstance(named, dict):
                out[kind] = self._whole(named, busy, loop)
                continue
            found = {}
            for name, value in named.items():
                try:
                    found[name] = outcome(value)
                except (ValueError, TypeError, AttributeError):
                    found[name] = ["whole", self._whole(value, busy, loop)]
            out[kind] = found
            if kind != "/XObject" and isinstance(shared, str) and not loop[0]:
                self._named[kind, shared] = found
        return json.dumps(out, sort_keys=True)

    def _xobject_sig(self, ref: Any, busy: set[str], loop: list[bool]) -> str:
        info = self.get(ref) or {}
        if isinstance(ref, str) and isinstance(info, dict) and info.get("/Subtype") == "/Form":
            sig, looped = self._form_sig(ref, busy)
            loop[0] = loop[0] or looped
            return "form:" + sig
        return self._whole(ref, busy, loop)

    def _whole(self, value: Any, busy: set[str], loop: list[bool]) -> str:
        return json.dumps(self._canon(value, busy, loop), sort_keys=True)

    def sig(self, ref: str) -> str:
        """A digest of an object's content with every reference in it replaced by the
        digest of what it names (object numbers aside); streams by their dictionary and
        data (the data as stored, with the filters in the dictionary: the same stored
        bytes decode to the same content)."""
        return self._sig(ref, set())[0]

    def _sig(self, ref: str, busy: set[str]) -> tuple[str, bool]:
        """(digest, whether it met a reference loop): a digest made inside a loop depends
        on where the walk entered it, so it is not kept for other callers."""
        if ref in self._sigs:
            return self._sigs[ref], False
        if ref in busy:
            return "loop", True
        busy.add(ref)
        obj = self.objects.get(ref, {})
        stream = obj.get("stream")
        loop = [False]
        body = self._canon(stream["dict"] if stream else obj.get("value"), busy, loop)
        data = hashlib.sha256(self.stored.get(ref, b"")).hexdigest() if stream else ""
        busy.discard(ref)
        out = digest(json.dumps(body, sort_keys=True, separators=(",", ":")), data)
        if not loop[0]:
            self._sigs[ref] = out
        return out, loop[0]

    def _canon(self, value: Any, busy: set[str], loop: list[bool]) -> Any:
        """``value`` with each reference replaced by "@" and its digest; ``loop[0]`` is set
        when one met a reference loop."""
        if isinstance(value, str):
            if value.endswith(" R") and REF.fullmatch(value):
                sig, looped = self._sig(value, busy)
                loop[0] = loop[0] or looped
                return "@" + sig
            return value
        if isinstance(value, dict):
            return {k: self._canon(v, busy, loop) for k, v in value.items()}
        if isinstance(value, list):
            return [self._canon(v, busy, loop) for v in value]
        return value


#: The filter a JPEG is stored with (its short name is for inline images).
DCT = frozenset({"/DCTDecode", "/DCT"})


def _cmyk_max(data: bytes, info: dict[str, Any]) -> float:
    """Highest C+M+Y+K of a CMYK image's pixels, percent: the samples as a PDF reader
    gets them from the stream, mapped through the image's /Decode array; 0 when the image
    cannot be read here."""
    chain = _filters(info)
    if chain and chain[-1] not in DCT:  # one stream() could not undo (JPX, JBIG2 …)
        return 0.0
    try:
        if chain:
            bands, inverted = _jpeg_bands(data, info, chain)
        else:
            img = Image.frombytes("CMYK", (int(info["/Width"]), int(info["/Height"])), data)
            bands, inverted = img.split(), False
    except (OSError, ValueError, zlib.error, KeyError, TypeError):
        return 0.0
    if len(bands) != 4:
        return 0.0
    decode = info.get("/Decode")
    decode = decode if isinstance(decode, list) and len(decode) == 8 else [0, 1] * 4
    bands = [_mapped(b, inverted, float(decode[2 * i]), float(decode[2 * i + 1]))
             for i, b in enumerate(bands)]
    total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"],
                                  c=bands[0], m=bands[1], y=bands[2], k=bands[3])
    return total.getextrema()[1] / 255 * 100


def _jpeg_bands(data: bytes, info: dict[str, Any], chain: list[Any]
                ) -> tuple[tuple[Image.Image, ...], bool]:
    """A CMYK JPEG's bands as Pillow decodes them, and whether Pillow inverted them (it
    reads CMYK JPEGs in Adobe's inverted convention, "CMYK;I"): the filters before
    DCTDecode (ASCII85, Flate …, the start of ``chain``) are undone first."""
    parms = info.get("/DecodeParms")
    before = parms[:-1] if isinstance(parms, list) else [] if parms is None else [parms]
    if any(p is not None for p in before):
        raise ValueError("parameters for a filter before DCTDecode")
    jpeg = _decode(data, {"/Filter": chain[:-1]})
    if jpeg is None:
        raise ValueError("a filter before DCTDecode that is not decoded here")
    img = Image.open(io.BytesIO(jpeg))
    if img.mode != "CMYK" or not img.tile:
        return (), False
    inverted = img.tile[0][3][0] == "CMYK;I"
    img.load()
    return img.split(), inverted


def _mapped(band: Image.Image, inverted: bool, low: float, high: float) -> Image.Image:
    """One band as ink (0–255): the stream's samples (Pillow's inversion undone), through
    the /Decode pair (``low``, ``high``); ``[1 0]`` is how a PDF shows Adobe's inverted
    CMYK JPEGs as they were meant."""
    if not inverted and (low, high) == (0.0, 1.0):
        return band
    table = []
    for value in range(256):
        sample = 255 - value if inverted else value
        table.append(min(255, max(0, round(255 * low + sample * (high - low)))))
    return band.point(table)


def _mul(a: list[float], b: list[float]) -> list[float]:
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def _scale(m: list[float]) -> float:
    """The vertical scale of a matrix (for text sizes)."""
    return math.hypot(m[2], m[3])


def _walk(doc: _Doc, report: PageReport, content: bytes, resources: Any,
          ctm: list[float], depth: int = 0, parts: list[str] | None = None) -> None:
    res = doc.get(resources) or {}
    xobjects = doc.get(res.get("/XObject")) or {}
    gstates = doc.get(res.get("/ExtGState")) or {}
    shadings = doc.get(res.get("/Shading")) or {}
    fonts = doc.get(res.get("/Font")) or {}
    stack: list[tuple[list[float], list[float]]] = []
    fill: list[float] = []
    text_m = [1.0, 0, 0, 1, 0, 0]
    size = 0.0
    operands: list[bytes] = []
    for tok in TOKEN.findall(content):
        first = tok[0]
        if first in NUMBER_START or (first in OPERAND_FIRST and tok not in (b"<<", b">>")):
            operands.append(tok)
            continue
        op = tok
        nums = [float(t) for t in operands if t[0] in NUMBER_START] if op in NUMERIC_OPS else []
        if op == b"q":
            stack.append((ctm[:], fill[:]))
        elif op == b"Q" and stack:
            ctm, fill = stack.pop()
        elif op == b"cm" and len(nums) >= 6:
            ctm = _mul(nums[-6:], ctm)
        elif op in (b"k", b"K") and len(nums) >= 4:
            report.ink_max = max(report.ink_max, sum(nums[-4:]) * 100)
            if op == b"k":
                fill = nums[-4:]
        elif op in RGB_OPS:
            report.rgb += 1
        elif op in (b"g", b"G") and nums:
            report.ink_max = max(report.ink_max, (1 - nums[-1]) * 100)
            if op == b"g":
                fill = [0, 0, 0, 1 - nums[-1]]
        elif op == b"Tf" and nums:
            size = nums[-1]
            name = operands[0].decode("latin-1") if operands else ""
            _check_font(doc, fonts.get(name), report)
        elif op == b"Tm" and len(nums) >= 6:
            text_m = nums[-6:]
        elif op == b"BT":
            text_m = [1.0, 0, 0, 1, 0, 0]
        elif op in TEXT_SHOW and size:
            shown = size * _scale(_mul(text_m, ctm))
            if report.min_text_pt is None or shown < report.min_text_pt:
                report.min_text_pt = shown
            if (shown < 12 and len(fill) == 4 and fill[3] >= 0.8
                    and any(v > 0.001 for v in fill[:3])):
                report.text_not_k_only += 1
        elif op == b"gs" and operands:
            state = doc.get(gstates.get(operands[-1].decode("latin-1"))) or {}
            if _transparent(state):
                report.transparency += 1
        elif op == b"sh" and operands:
            sh = doc.get(shadings.get(operands[-1].decode("latin-1"))) or {}
            _check_shading(doc, sh, report)
        elif op == b"Do" and operands and depth < 8:
            ref = xobjects.get(operands[-1].decode("latin-1"))
            info = doc.get(ref) or {}
            if info.get("/Subtype") == "/Form":
                inner = _mul(info.get("/Matrix", [1, 0, 0, 1, 0, 0]), ctm)
                key = (str(ref), tuple(inner))
                if key not in doc.forms:
                    doc.forms[key] = _form(doc, str(ref), info, inner, depth)
                part, part_key = doc.forms[key]
                _merge(report, part)
                if parts is not None:
                    parts.append(part_key)
            elif info.get("/Subtype") == "/Image":
                _check_image(doc, ref, info, ctm, report)
        operands = []


def _form(doc: _Doc, ref: str, info: dict[str, Any], ctm: list[float], depth: int
          ) -> tuple[PageReport, str]:
    """What a form placed with ``ctm`` holds, and its walk key: from the walk cache, else
    walked (and kept)."""
    if doc.walks is None:
        found = PageReport(0)
        _walk(doc, found, doc.data(ref), info.get("/Resources"), ctm, depth + 1)
        return found, ""
    key = doc.walk_key(ref, ctm, depth)
    cached = doc.walks.get(key)
    if cached is not None:
        return cached, key
    found, parts = PageReport(0), []
    _walk(doc, found, doc.data(ref), info.get("/Resources"), ctm, depth + 1, parts)
    doc.walks.put(key, found, parts)
    return found, key


def _merge(report: PageReport, part: PageReport) -> None:
    """Add what a form's walk found (``part``) to the page's report."""
    report.ink_max = max(report.ink_max, part.ink_max)
    for name in ("min_text_pt", "min_image_ppi"):
        values = [v for v in (getattr(report, name), getattr(part, name)) if v is not None]
        setattr(report, name, min(values) if values else None)
    report.rgb += part.rgb
    report.transparency += part.transparency
    report.text_not_k_only += part.text_not_k_only
    report.fonts_not_embedded |= part.fonts_not_embedded


def _check_font(doc: _Doc, ref: Any, report: PageReport) -> None:
    name = _font_not_embedded(doc, ref)
    if name is not None:
        report.fonts_not_embedded.add(name)


def _font_not_embedded(doc: _Doc, ref: Any) -> str | None:
    """The font's name if it is not embedded (Type 3 fonts are drawn, never embedded)."""
    font = doc.get(ref) or {}
    name = str(font.get("/BaseFont", "?"))
    for desc_font in [font, *[doc.get(d) for d in (doc.get(font.get("/DescendantFonts")) or [])]]:
        desc = doc.get((desc_font or {}).get("/FontDescriptor")) or {}
        if desc and any(k in desc for k in FONT_FILES):
            return None
    return None if font.get("/Subtype") == "/Type3" else name


def _transparent(state: dict[str, Any]) -> bool:
    """An ExtGState that makes what follows transparent."""
    return (float(state.get("/ca", 1)) < 1 or float(state.get("/CA", 1)) < 1
            or state.get("/SMask", "/None") != "/None"
            or state.get("/BM", "/Normal") not in ("/Normal", "/Compatible"))


def _check_shading(doc: _Doc, sh: dict[str, Any], report: PageReport) -> None:
    rgb, ink = _shading(doc, sh)
    report.rgb += rgb
    report.ink_max = max(report.ink_max, ink)


def _shading(doc: _Doc, sh: dict[str, Any]) -> tuple[int, float]:
    """(1 if the shading is RGB, its highest total ink in percent); device and ICC-based
    colour spaces alike."""
    space = _space(doc, sh.get("/ColorSpace"))
    ink = 0.0
    functions = [sh.get("/Function")]
    while functions:
        fn = doc.get(functions.pop()) or {}
        if isinstance(fn, list):
            functions += fn
            continue
        functions += doc.get(fn.get("/Functions")) or []
        for key in ("/C0", "/C1"):
            values = fn.get(key)
            if space == "cmyk" and isinstance(values, list) and len(values) == 4:
                ink = max(ink, sum(float(v) for v in values) * 100)
    return int(space == "rgb"), ink


def _space(doc: _Doc, value: Any) -> str | None:
    """"rgb", "cmyk" or "gray" for a device colour space or an ICC-based one (by its
    profile's /N); for an indexed space, its base's; None for any other."""
    space = doc.get(value)
    if isinstance(space, str):
        return {"/DeviceRGB": "rgb", "/DeviceCMYK": "cmyk", "/DeviceGray": "gray"}.get(space)
    if isinstance(space, list) and len(space) >= 2:
        if space[0] == "/ICCBased":
            return {1: "gray", 3: "rgb", 4: "cmyk"}.get((doc.get(space[1]) or {}).get("/N"))
        if space[0] in ("/Indexed", "/I"):
            return _space(doc, space[1])
    return None


def _check_image(doc: _Doc, ref: str, info: dict[str, Any], ctm: list[float],
                 report: PageReport) -> None:
    value = info.get("/ColorSpace")
    space = _space(doc, value)
    if space == "rgb":
        report.rgb += 1
    if "/SMask" in info or "/Mask" in info:
        report.transparency += 1
    resolved = doc.get(value)
    indexed = isinstance(resolved, list) and resolved[:1] in (["/Indexed"], ["/I"])
    if space == "cmyk" and not indexed:  # an ICC-based CMYK image's samples are C, M, Y, K
        report.ink_max = max(report.ink_max, doc.image_ink(ref))
    width_in = math.hypot(ctm[0], ctm[1]) / 72
    height_in = math.hypot(ctm[2], ctm[3]) / 72
    if width_in > 0 and height_in > 0:
        ppi = min(int(info.get("/Width", 0)) / width_in, int(info.get("/Height", 0)) / height_in)
        if report.min_image_ppi is None or ppi < report.min_image_ppi:
            report.min_image_ppi = ppi


def _document(doc: _Doc) -> DocReport:
    info = doc.get(doc.trailer.get("/Info")) or {}
    root = doc.get(doc.trailer.get("/Root")) or {}
    intents = doc.get(root.get("/OutputIntents")) or []
    has_intent = any((doc.get(i) or {}).get("/S") == "/GTS_PDFX"
                     and "/DestOutputProfile" in (doc.get(i) or {}) for i in intents)
    version = info.get("/GTS_PDFXVersion")
    return DocReport(str(doc.header.get("pdfversion", "")),
                     version.removeprefix("u:") if isinstance(version, str) else None,
                     info.get("/Trapped"), has_intent)


def inspect_document(path: Path) -> DocReport:
    """The document-level facts of the PDF at ``path`` (PDF/X keys, OutputIntent)."""
    return _document(_read(Path(path)))


def inspect(path: Path, walks: WalkCache | None = None) -> list[PageReport]:
    """One :class:`PageReport` per page of the PDF at ``path``; ``walks`` lends what forms
    walked before hold, and keeps what this run walked."""
    return _pages(_read(Path(path), walks))


def inspect_file(path: Path) -> tuple[list[PageReport], DocReport]:
    """The pages and the document-level facts of the PDF at ``path``, from one reading
    (`cardgen preflight --pdfx` needs both)."""
    doc = _read(Path(path))
    return _pages(doc), _document(doc)


def _pages(doc: _Doc) -> list[PageReport]:
    out = []
    for i, (ref, contents) in enumerate(doc.pages(), 1):
        info = doc.get(ref) or {}
        report = PageReport(i, trim_box="/TrimBox" in info, bleed_box="/BleedBox" in info)
        key = doc.page_key(info, contents) if doc.walks is not None else ""
        cached = doc.walks.get(key) if doc.walks is not None else None
        if cached is not None:  # merged into an empty report: the cached values exactly
            _merge(report, cached)
        else:
            content = b"".join(doc.data(c) + b"\n" for c in contents)
            parts: list[str] = []
            _walk(doc, report, content, info.get("/Resources"), [1.0, 0, 0, 1, 0, 0],
                  parts=parts)
            if doc.walks is not None:
                doc.walks.put(key, report, parts)
        out.append(report)
    return out


@dataclass(frozen=True)
class Rules:
    """What a file must meet; ``None`` switches a check off."""

    cmyk: bool = False  # no RGB at all
    ink_limit: float | None = None  # percent
    boxes: bool = False  # TrimBox and BleedBox on every page
    transparency: str = "warn"  # off | warn | error
    min_text_pt: float = 5.0  # warning below this
    min_image_ppi: float = 250.0  # warning below this
    pdfx: bool = False  # PDF/X-1a:2003 keys and OutputIntent


def findings(path: Path, pages: list[PageReport], rules: Rules, shown: str | None = None
             ) -> list[Finding]:
    """Errors (the file would be sent back) and warnings for ``pages`` of ``path``."""
    where = Location(shown or str(path))
    out: list[Finding] = []

    def pages_of(test) -> str:
        hit = [p.page for p in pages if test(p)]
        return ", ".join(map(str, hit[:8])) + (" …" if len(hit) > 8 else "")

    def add(kind, code: str, test, message: str, hint: str | None = None) -> None:
        where_pages = pages_of(test)
        if where_pages:
            out.append(kind(code, f"{message} (page {where_pages})", location=where,
                            hint=hint))

    add(error, "preflight-fonts", lambda p: p.fonts_not_embedded,
        "fonts not embedded: " + ", ".join(sorted(set().union(
            *(p.fonts_not_embedded for p in pages)))), "embed every font")
    if rules.cmyk:
        add(error, "preflight-rgb", lambda p: p.rgb, "RGB colour in a CMYK file",
            "build with --cmyk")
        add(warning, "preflight-text-ink", lambda p: p.text_not_k_only,
            "black text under 12 pt printed with more than black ink")
    if rules.ink_limit is not None:
        top = max((p.ink_max for p in pages), default=0)
        add(error, "preflight-ink", lambda p: p.ink_max > rules.ink_limit + 0.5,
            f"total ink {top:.0f} % over the limit of {rules.ink_limit:g} %",
            "use the shop's ICC profile (--icc) or its ink limit in layouts/profiles.yaml")
    if rules.boxes:
        add(error, "preflight-boxes", lambda p: not (p.trim_box and p.bleed_box),
            "page without TrimBox and BleedBox")
    if rules.transparency != "off":
        add(error if rules.transparency == "error" else warning, "preflight-transparency",
            lambda p: p.transparency, "transparency (the shop's RIP flattens it)")
    add(warning, "preflight-text", lambda p: p.min_text_pt is not None
        and p.min_text_pt < rules.min_text_pt - 0.01,
        f"text smaller than {rules.min_text_pt:g} pt")
    add(warning, "preflight-image", lambda p: p.min_image_ppi is not None
        and p.min_image_ppi < rules.min_image_ppi,
        f"images below {rules.min_image_ppi:g} ppi")
    return out


def pdfx_findings(doc: DocReport, shown: str) -> list[Finding]:
    """What keeps a file from being PDF/X-1a:2003 at the document level."""
    where = Location(shown)
    out = []
    if doc.pdfx_version != "PDF/X-1a:2003":
        out.append(error("preflight-pdfx", "no /GTS_PDFXVersion (PDF/X-1a:2003) in the "
                         "document information", location=where, hint="build with --pdfx"))
    if doc.trapped not in ("/False", "/True"):
        out.append(error("preflight-pdfx", "/Trapped must be /True or /False", location=where))
    if not doc.output_intent:
        out.append(error("preflight-pdfx", "no GTS_PDFX OutputIntent with an ICC profile",
                         location=where, hint="build with --pdfx"))
    if doc.pdf_version > "1.4":
        out.append(error("preflight-pdfx", f"PDF {doc.pdf_version}: PDF/X-1a:2003 needs 1.4 "
                         "or earlier", location=where))
    return out


def check_bytes(pdf: bytes, rules: Rules, shown: str, walks: WalkCache | None = None
                ) -> list[Finding]:
    """Preflight a PDF that is not written yet (a build checks before it writes); qpdf
    reads it once for the pages and the document. ``walks``: as for :func:`inspect`."""
    if shutil.which("qpdf") is None:
        return [warning("preflight-skipped", "qpdf is not installed: print files were not "
                        "preflighted", location=Location(shown),
                        hint="install qpdf (apt-get install qpdf)")]
    with tempfile.TemporaryDirectory(prefix="cardgen-preflight-") as tmp:
        path = Path(tmp) / "file.pdf"
        path.write_bytes(pdf)
        doc = _read(path, walks, pdf)
        found = findings(path, _pages(doc), rules, shown)
        if rules.pdfx:
            found += pdfx_findings(_document(doc), shown)
        return found


def summary(path: Path, pages: list[PageReport]) -> str:
    """One line per page, for `cardgen preflight`."""
    lines = [f"{path}: {len(pages)} pages"]
    for p in pages:
        text = "-" if p.min_text_pt is None else f"{p.min_text_pt:.1f} pt"
        ppi = "-" if p.min_image_ppi is None else f"{p.min_image_ppi:.0f} ppi"
        lines.append(
            f"  page {p.page}: ink max {p.ink_max:.0f} %, smallest text {text}, lowest image "
            f"{ppi}, RGB {p.rgb}, transparency {p.transparency}, "
            f"TrimBox {'yes' if p.trim_box else 'no'}, BleedBox {'yes' if p.bleed_box else 'no'}, "
            f"fonts {'embedded' if not p.fonts_not_embedded else 'NOT embedded'}")
    return "\n".join(lines)
