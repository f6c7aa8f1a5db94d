"""Walking each page's content and the forms it places, keeping the graphics state that
matters: the CTM (for text sizes and image resolution) and the fill and stroke colours."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any, cast

from .pdfread import (
    DocReport,
    PageReport,
    PdfDoc,
    WalkCache,
    colour_space,
    font_not_embedded,
    read_pdf,
    shading,
    transparent,
)

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


def _mul(a: list[float], b: list[float]) -> list[float]:
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def _scale(m: list[float]) -> float:
    """The vertical scale of a matrix (for text sizes)."""
    return math.hypot(m[2], m[3])


def _walk(doc: PdfDoc, report: PageReport, content: bytes, resources: Any,
          ctm: list[float], depth: int = 0, parts: list[str] | None = None) -> None:
    res = doc.get(resources) or {}
    xobjects = doc.get(res.get("/XObject")) or {}
    gstates = doc.get(res.get("/ExtGState")) or {}
    shadings = doc.get(res.get("/Shading")) or {}
    fonts = doc.get(res.get("/Font")) or {}
    spaces = doc.get(res.get("/ColorSpace")) or {}
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
        elif op in (b"cs", b"CS") and operands:
            name = operands[-1].decode("latin-1")
            _count_space(report, colour_space(doc, spaces.get(name, name)))
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
            if shown < 12 and _meant_black(fill) and fill != [0, 0, 0, 1]:
                report.text_not_k_only += 1
        elif op == b"gs" and operands:
            state = doc.get(gstates.get(operands[-1].decode("latin-1"))) or {}
            if transparent(state):
                report.transparency += 1
        elif op == b"sh" and operands:
            sh = doc.get(shadings.get(operands[-1].decode("latin-1"))) or {}
            _check_shading(doc, sh, report)
        elif op == b"Do" and operands and depth < 8:
            ref = xobjects.get(operands[-1].decode("latin-1"))
            info = doc.get(ref) or {}
            if info.get("/Subtype") == "/Form":
                if _transparency_group(doc, info):
                    report.transparency += 1
                inner = _mul(info.get("/Matrix", [1, 0, 0, 1, 0, 0]), ctm)
                key = (str(ref), tuple(inner))
                if key not in doc.forms:
                    doc.forms[key] = _form(doc, str(ref), info, inner, depth)
                part, part_key = doc.forms[key]
                _merge(report, part)
                if parts is not None:
                    parts.append(part_key)
            elif info.get("/Subtype") == "/Image":
                _check_image(doc, cast(str, ref), info, ctm, report)  # found: a reference
        operands = []


#: Text counts as black when its black ink is at least this and its C, M and Y differ by
#: no more than BLACK_SPREAD (a rich or greyish black, not a dark colour). 85 %: a dark
#: grey chosen as a colour (an end event's placeholder name, 80 % K) is a grey, while the
#: 89.7 % K of a near-black converted without care is caught.
BLACK_K, BLACK_SPREAD = 0.85, 0.2


def _meant_black(fill: list[float]) -> bool:
    """A CMYK fill meant as black: much K, and C, M, Y balanced (a rich black 60/40/40
    is; a dark blue 21/33/44 at 85 % K is a colour)."""
    return (len(fill) == 4 and fill[3] >= BLACK_K
            and max(fill[:3]) - min(fill[:3]) <= BLACK_SPREAD + 1e-9)


def _count_space(report: PageReport, space: str | None) -> None:
    if space == "rgb":
        report.rgb += 1
    elif space == "lab":
        report.lab += 1


def _transparency_group(doc: PdfDoc, info: dict[str, Any]) -> bool:
    """A page or form that is a transparency group (/Group /S /Transparency)."""
    return (doc.get(info.get("/Group")) or {}).get("/S") == "/Transparency"


def _form(doc: PdfDoc, ref: str, info: dict[str, Any], ctm: list[float], depth: int
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
    found, parts = PageReport(0), list[str]()
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
    report.lab += part.lab
    report.transparency += part.transparency
    report.text_not_k_only += part.text_not_k_only
    report.fonts_not_embedded |= part.fonts_not_embedded


def _check_font(doc: PdfDoc, ref: Any, report: PageReport) -> None:
    name = font_not_embedded(doc, ref)
    if name is not None:
        report.fonts_not_embedded.add(name)


def _check_shading(doc: PdfDoc, sh: dict[str, Any], report: PageReport) -> None:
    _rgb, ink = shading(doc, sh)
    _count_space(report, colour_space(doc, sh.get("/ColorSpace")))
    report.ink_max = max(report.ink_max, ink)


def _check_image(doc: PdfDoc, ref: str, info: dict[str, Any], ctm: list[float],
                 report: PageReport) -> None:
    value = info.get("/ColorSpace")
    space = colour_space(doc, value)
    _count_space(report, space)
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


def document_report(doc: PdfDoc) -> DocReport:
    info = doc.get(doc.trailer.get("/Info")) or {}
    root = doc.get(doc.trailer.get("/Root")) or {}
    intents = [doc.get(i) or {} for i in doc.get(root.get("/OutputIntents")) or []]
    pdfx = [i for i in intents if i.get("/S") == "/GTS_PDFX" and "/DestOutputProfile" in i]
    profile = pdfx[0]["/DestOutputProfile"] if pdfx else None
    space = _profile_space(doc, profile) if pdfx else None

    def text(key: str) -> str | None:
        value = info.get(key)
        return value.removeprefix("u:") if isinstance(value, str) else None

    return DocReport(str(doc.header.get("pdfversion", "")), text("/GTS_PDFXVersion"),
                     text("/GTS_PDFXConformance"), info.get("/Trapped"), bool(pdfx), space,
                     title=bool((text("/Title") or "").strip()),
                     dates="/CreationDate" in info and "/ModDate" in info,
                     trailer_id="/ID" in doc.trailer,
                     encrypted="/Encrypt" in doc.trailer or bool(doc.header.get("encrypted")),
                     javascript=_javascript(doc, root),
                     intent_icc=doc.data(profile) if isinstance(profile, str) else b"")


#: an ICC profile's colour space by its /N (number of components)
_BY_COMPONENTS: dict[object, str] = {1: "gray", 3: "rgb", 4: "cmyk"}


def _profile_space(doc: PdfDoc, ref: Any) -> str | None:
    """An ICC profile stream's colour space, from its header (else its /N)."""
    header = doc.data(ref)[16:20] if isinstance(ref, str) else b""
    names = {b"CMYK": "cmyk", b"RGB ": "rgb", b"GRAY": "gray", b"Lab ": "lab"}
    if header in names:
        return names[header]
    return _BY_COMPONENTS.get((doc.get(ref) or {}).get("/N"))


def _javascript(doc: PdfDoc, root: dict[str, Any]) -> int:
    """JavaScript anywhere: actions (/S /JavaScript, a /JS entry) and the catalog's
    /Names /JavaScript tree."""
    names = doc.get(root.get("/Names")) or {}
    found = int(isinstance(names, dict) and "/JavaScript" in names)
    for obj in doc.objects.values():
        value = obj.get("stream", {}).get("dict") if "stream" in obj else obj.get("value")
        found += _js_in(value)
    return found


def _js_in(value: Any) -> int:
    if isinstance(value, dict):
        own = int(value.get("/S") == "/JavaScript" or "/JS" in value)
        return own + sum(_js_in(v) for v in value.values() if isinstance(v, (dict, list)))
    if isinstance(value, list):
        return sum(_js_in(v) for v in value if isinstance(v, (dict, list)))
    return 0


def _box(doc: PdfDoc, info: dict[str, Any], key: str) -> list[float] | None:
    """A page box, inherited from the page tree for /MediaBox, as [x0, y0, x1, y1]."""
    node = info
    for _ in range(32):
        box = doc.get(node.get(key))
        if isinstance(box, list) and len(box) == 4:
            x0, y0, x1, y1 = (float(v) for v in box)
            return [min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)]
        if key != "/MediaBox":
            return None
        node = doc.get(node.get("/Parent")) or {}
        if not node:
            return None
    return None


def _outside(inner: list[float] | None, outer: list[float] | None) -> bool:
    tol = 0.01
    return (inner is not None and outer is not None
            and (inner[0] < outer[0] - tol or inner[1] < outer[1] - tol
                 or inner[2] > outer[2] + tol or inner[3] > outer[3] + tol))


def _page_facts(doc: PdfDoc, report: PageReport, info: dict[str, Any]) -> None:
    """What the page dictionary itself says: annotations, a transparency group, boxes
    that reach past the page (TrimBox inside BleedBox inside MediaBox)."""
    media, bleed, trim = (_box(doc, info, k) for k in ("/MediaBox", "/BleedBox", "/TrimBox"))
    report.boxes_outside = (_outside(trim, media) or _outside(bleed, media)
                            or _outside(trim, bleed))
    annots = doc.get(info.get("/Annots"))
    report.annotations = len(annots) if isinstance(annots, list) else 0
    if _transparency_group(doc, info):
        report.transparency += 1
    xobjects = doc.get((doc.get(info.get("/Resources")) or {}).get("/XObject")) or {}
    report.cards = tuple(_card_of(name) for name in sorted(xobjects)
                         if isinstance(name, str) and _CARD_FORM.fullmatch(name))


#: The names cardgen's print files give a card's form (impose.canvas.CardForms, in
#: ReportLab's "FormXob." namespace): "front-<card id>" and "back".
_CARD_FORM = re.compile(r"/FormXob\.(?:front-[a-z0-9-]+|back)")


def _card_of(name: str) -> str:
    """The card a form name stands for: its id, or "the back"."""
    form = name.removeprefix("/FormXob.")
    return "the back" if form == "back" else form.removeprefix("front-")


def inspect_document(path: Path) -> DocReport:
    """The document-level facts of the PDF at ``path`` (PDF/X keys, OutputIntent)."""
    return document_report(read_pdf(Path(path)))


def inspect(path: Path, walks: WalkCache | None = None) -> list[PageReport]:
    """One :class:`PageReport` per page of the PDF at ``path``; ``walks`` lends what forms
    walked before hold, and keeps what this run walked."""
    return page_reports(read_pdf(Path(path), walks))


def inspect_file(path: Path) -> tuple[list[PageReport], DocReport]:
    """The pages and the document-level facts of the PDF at ``path``, from one reading
    (`cardgen preflight --pdfx` needs both)."""
    doc = read_pdf(Path(path))
    return page_reports(doc), document_report(doc)


def page_reports(doc: PdfDoc) -> list[PageReport]:
    out = []
    for i, (ref, contents) in enumerate(doc.pages(), 1):
        info = doc.get(ref) or {}
        report = PageReport(i, trim_box="/TrimBox" in info, bleed_box="/BleedBox" in info)
        key = doc.page_key(info, contents) if doc.walks is not None else ""
        cached = doc.walks.get(key) if doc.walks is not None else None
        _page_facts(doc, report, info)
        if cached is None:
            cached = PageReport(0)
            content = b"".join(doc.data(c) + b"\n" for c in contents)
            parts: list[str] = []
            _walk(doc, cached, content, info.get("/Resources"), [1.0, 0, 0, 1, 0, 0],
                  parts=parts)
            if doc.walks is not None:
                doc.walks.put(key, cached, parts)
        _merge(report, cached)  # into the page's own facts: the walk's values exactly
        out.append(report)
    return out
