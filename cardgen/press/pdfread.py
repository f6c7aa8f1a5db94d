"""A finished PDF as the preflight reads it: its objects (:class:`PdfDoc`), what a page or
form walk found (:class:`PageReport`, kept across builds in a :class:`WalkCache`), and the
properties of fonts, shadings and graphics states a walk meets."""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import CardgenError, Location, error
from ..files.incremental import code_digest, digest
from ..files.oserrors import read_input
from .pdfstreams import (
    GENERALIZED,
    REF,
    STRING,
    TooLarge,
    cmyk_max,
    decode,
    filters,
    run_qpdf,
    stored_streams,
)

#: The largest PDF preflight reads (the shipped print-shop file is about 30 MB).
MAX_PDF = 512 * 1024 * 1024
#: Bytes all the streams of one PDF may decode to together (the shipped print-shop file's
#: decode to about 200 MB): many streams each under their own cap stop here.
MAX_DECODED = 2 * 1024 * 1024 * 1024

FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")


@dataclass
class PageReport:
    page: int
    ink_max: float = 0.0  # percent
    min_text_pt: float | None = None
    min_image_ppi: float | None = None
    rgb: int = 0  # RGB colour operators, shadings and images (device, ICC-based, CalRGB)
    lab: int = 0  # Lab colour spaces set for drawing or images (ICC-based Lab too)
    transparency: int = 0  # soft masks, constant alpha below 1, blend modes, groups
    trim_box: bool = False
    bleed_box: bool = False
    boxes_outside: bool = False  # a TrimBox or BleedBox not inside the page (MediaBox)
    annotations: int = 0
    fonts_not_embedded: set[str] = field(default_factory=set)
    text_not_k_only: int = 0  # black text under 12 pt not in solid black ink (0/0/0/100)
    #: the cards the page places, by the names cardgen gives their forms ("front-<id>",
    #: "back"): a finding names the card, not only the page (empty for other files)
    cards: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"page": self.page, "ink_max": round(self.ink_max, 1),
                "min_text_pt": None if self.min_text_pt is None else round(self.min_text_pt, 2),
                "min_image_ppi": None if self.min_image_ppi is None
                else round(self.min_image_ppi),
                "rgb": self.rgb, "lab": self.lab, "transparency": self.transparency,
                "trim_box": self.trim_box, "bleed_box": self.bleed_box,
                "boxes_outside": self.boxes_outside, "annotations": self.annotations,
                "fonts_not_embedded": sorted(self.fonts_not_embedded),
                "small_text_not_k_only": self.text_not_k_only}


#: What a walk found, as the walk cache stores it (a list, in this order; exact floats,
#: not rounded), and the keys of the forms it placed (kept while the walk holding them is):
#: ink_max, min_text_pt, min_image_ppi, rgb, lab, transparency, text_not_k_only,
#: fonts_not_embedded, parts
#: an ICC profile's colour space by its /N (number of components)
_BY_COMPONENTS: dict[object, str] = {1: "gray", 3: "rgb", 4: "cmyk"}
WALK_TYPES: tuple[type | tuple[type, ...], ...] = (float, (float, type(None)), (float, type(None)),
                                                  int, int, int, int, list, list)


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
        ink, text, ppi, rgb, lab, transparency, k_only, fonts, _parts = entry
        return PageReport(0, ink, text, ppi, rgb, lab, transparency,
                          fonts_not_embedded=set(fonts), text_not_k_only=k_only)

    def _keep(self, key: str, entry: list[Any]) -> None:
        todo = [(key, entry)]
        while todo:
            key, entry = todo.pop()
            self.used[key] = entry
            todo += [(k, self.known[k]) for k in entry[-1]
                     if k in self.known and k not in self.used]

    def put(self, key: str, found: PageReport, parts: list[str]) -> None:
        self.used[key] = [found.ink_max, found.min_text_pt, found.min_image_ppi, found.rgb,
                          found.lab, found.transparency, found.text_not_k_only,
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
    """What a print shop (and PDF/X-1a) asks of the document as a whole."""

    pdf_version: str = ""
    pdfx_version: str | None = None  # /GTS_PDFXVersion in the Info dictionary
    pdfx_conformance: str | None = None  # /GTS_PDFXConformance
    trapped: str | None = None
    output_intent: bool = False  # a GTS_PDFX OutputIntent with an ICC profile
    intent_space: str | None = None  # its profile's colour space: "cmyk", "rgb", "gray" …
    title: bool = False  # a non-empty /Title
    dates: bool = False  # /CreationDate and /ModDate
    trailer_id: bool = False
    encrypted: bool = False
    javascript: int = 0  # JavaScript actions and name-tree entries
    intent_icc: bytes = field(default=b"", repr=False)  # the OutputIntent's ICC profile


class PdfDoc:
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
        self.decoded = 0  # bytes decoded so far, against MAX_DECODED
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
            if filters(info) and all(isinstance(f, str) and f in GENERALIZED
                                      for f in filters(info)):
                try:
                    decoded = decode(data, info)
                except TooLarge as exc:
                    raise CardgenError(error(
                        "file-too-large", f"{exc} (object {ref}); refused before it fills memory",
                        location=Location(str(self.path)), hint="is this the right file? a "
                        "print PDF never holds such a stream")) from None
                if decoded is None:
                    data, info = self._qpdf_stream(ref)
                else:
                    data = decoded
                    info = {k: v for k, v in info.items() if k not in ("/Filter", "/DecodeParms")}
                self._count(len(data), ref)
            self._streams[ref] = (data, info)
        return self._streams[ref]

    def _count(self, size: int, ref: str) -> None:
        """Add ``size`` decoded bytes to the file's budget; refused past :data:`MAX_DECODED`."""
        self.decoded += size
        if self.decoded > (limit := MAX_DECODED):
            raise CardgenError(error(
                "file-too-large", f"its streams decode to more than {limit // 2**20} MB together "
                f"(at object {ref}); refused before they fill memory",
                location=Location(str(self.path)), hint="is this the right file? a print PDF "
                "never decodes to so much; preflight one print file at a time"))

    def _qpdf_stream(self, ref: str) -> tuple[bytes, dict[str, Any]]:
        """One stream decoded by qpdf: filters or parameters not decoded here."""
        number = ",".join(ref.split()[:2])
        raw = run_qpdf(self.path, "--decode-level=generalized", "--json-stream-data=inline",
                    f"--json-object={number}")
        stream = raw["qpdf"][1].get(f"obj:{ref}", {}).get("stream", {})
        return base64.b64decode(stream.get("data", "")), stream.get("dict", {})

    def data(self, ref: str) -> bytes:
        return self.stream(ref)[0] if isinstance(ref, str) else b""

    def image_ink(self, ref: str) -> float:
        """Highest C+M+Y+K of a CMYK image's pixels, percent."""
        if ref not in self._image_ink:
            self._image_ink[ref] = cmyk_max(*self.stream(ref))
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
        for kind, outcome in (("/Font", lambda v: font_not_embedded(self, v)),
                              ("/ExtGState", lambda v: transparent(self.get(v) or {})),
                              ("/Shading", lambda v: shading(self, self.get(v) or {})),
                              ("/XObject", lambda v: self._xobject_sig(v, busy, loop))):
            shared = res.get(kind)  # fonts are one dictionary that every form names
            if kind != "/XObject" and isinstance(shared, str) and (kind, shared) in self._named:
                out[kind] = self._named[kind, shared]
                continue
            named = self.get(shared) or {}
            if not isinstance(named, dict):
                out[kind] = self._whole(named, busy, loop)
                continue
            found: dict[str, Any] = {}
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


def read_pdf(path: Path, walks: WalkCache | None = None, pdf: bytes | None = None) -> PdfDoc:
    """The PDF at ``path`` as qpdf reads it: every object, each stream's data as stored
    (the filters are undone here, and only for the streams a walk reads: contents, forms,
    CMYK images). Where the file's cross-reference table says where each stream is (as in
    every file ReportLab writes), the data is taken from the file itself, so qpdf neither
    base64-encodes every image and font nor hands them through its output. ``pdf``: the
    file's bytes, when the caller holds them already."""
    pdf = read_input(path, limit=MAX_PDF) if pdf is None else pdf
    raw = run_qpdf(path, "--decode-level=none", "--json-stream-data=none")
    stored = stored_streams(pdf, raw["qpdf"][1])
    if stored is None:  # no plain table, or one that does not match what qpdf read
        raw = run_qpdf(path, "--decode-level=none", "--json-stream-data=inline")
        stored = {k.removeprefix("obj:"): base64.b64decode(v["stream"].get("data", ""))
                  for k, v in raw["qpdf"][1].items() if isinstance(v, dict) and "stream" in v}
    return PdfDoc(raw, path, stored, walks)


def font_not_embedded(doc: PdfDoc, ref: Any) -> str | None:
    """The font's name if it is not embedded (Type 3 fonts are drawn, never embedded)."""
    font = doc.get(ref) or {}
    name = str(font.get("/BaseFont", "?"))
    for desc_font in [font, *[doc.get(d) for d in (doc.get(font.get("/DescendantFonts")) or [])]]:
        desc = doc.get((desc_font or {}).get("/FontDescriptor")) or {}
        if desc and any(k in desc for k in FONT_FILES):
            return None
    return None if font.get("/Subtype") == "/Type3" else name


def transparent(state: dict[str, Any]) -> bool:
    """An ExtGState that makes what follows transparent."""
    return (float(state.get("/ca", 1)) < 1 or float(state.get("/CA", 1)) < 1
            or state.get("/SMask", "/None") != "/None"
            or state.get("/BM", "/Normal") not in ("/Normal", "/Compatible"))


def shading(doc: PdfDoc, sh: dict[str, Any]) -> tuple[int, float]:
    """(1 if the shading is RGB, its highest total ink in percent); device and ICC-based
    colour spaces alike."""
    space = colour_space(doc, sh.get("/ColorSpace"))
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


def colour_space(doc: PdfDoc, value: Any) -> str | None:
    """"rgb", "cmyk", "gray" or "lab" for a device, CIE-based or ICC-based colour space (an
    ICC profile by its header's colour space, else its /N); for an indexed space, its
    base's; None for any other (Separation, DeviceN, Pattern)."""
    space = doc.get(value)
    if isinstance(space, str):
        return {"/DeviceRGB": "rgb", "/DeviceCMYK": "cmyk", "/DeviceGray": "gray", "/RGB": "rgb",
                "/CMYK": "cmyk", "/G": "gray"}.get(space)
    if isinstance(space, list) and len(space) >= 2:
        if space[0] == "/ICCBased":
            header = doc.data(space[1])[16:20] if isinstance(space[1], str) else b""
            by_header = {b"RGB ": "rgb", b"CMYK": "cmyk", b"GRAY": "gray", b"Lab ": "lab"}
            if header in by_header:
                return by_header[header]
            return _BY_COMPONENTS.get((doc.get(space[1]) or {}).get("/N"))
        if space[0] in ("/Indexed", "/I"):
            return colour_space(doc, space[1])
        return {"/CalRGB": "rgb", "/CalGray": "gray", "/Lab": "lab"}.get(space[0])
    return None
