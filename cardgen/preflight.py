"""Preflight: what a print shop checks in a PDF, page by page, read from the file itself.

Reads the PDF through ``qpdf --json`` (objects and decoded streams) and follows each page's
content and the forms it places, keeping the graphics state that matters: the CTM (for
text sizes and image resolution) and the fill and stroke colours. Per page it reports the
highest total ink (colour operators and CMYK image pixels), the smallest text, the lowest
image resolution, any RGB, any transparency, the TrimBox and BleedBox, and fonts that are
not embedded. :func:`findings` turns a report into errors and warnings.
"""

from __future__ import annotations

import base64
import io
import json
import math
import re
import shutil
import subprocess
import tempfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, ImageMath

from .errors import CardgenError, Finding, Location, error, warning

TOKEN = re.compile(rb"/[^\s/\[\]()<>{}%]*|\((?:\\.|[^\\)])*\)|<<|>>|<[0-9A-Fa-f\s]*>|\[|\]"
                   rb"|[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z'\"*]+[0-9]?\*?")
NUMBER = re.compile(rb"[-+]?(?:\d+\.?\d*|\.\d+)$")
RGB_OPS = {b"rg", b"RG"}
TEXT_SHOW = {b"Tj", b"TJ", b"'", b'"'}
OPERAND_START = (b"/", b"(", b"<", b"[", b"]")
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


def _qpdf_json(path: Path) -> dict[str, Any]:
    exe = shutil.which("qpdf")
    if exe is None:
        raise CardgenError(error("tool-missing", "preflight needs qpdf",
                                 hint="install qpdf (apt-get install qpdf)"))
    with tempfile.TemporaryDirectory(prefix="cardgen-preflight-") as tmp:
        out = Path(tmp) / "p.json"
        proc = subprocess.run([exe, "--json=2", "--json-stream-data=inline",
                               "--decode-level=generalized", str(path), str(out)],
                              capture_output=True, text=True, check=False)
        if proc.returncode not in (0, 3):  # 3: warnings
            raise CardgenError(error("preflight-read", f"cannot read the PDF: "
                                     f"{proc.stderr.strip()}", location=Location(str(path))))
        return json.loads(out.read_text(encoding="utf-8"))


@dataclass
class DocReport:
    """What PDF/X-1a:2003 asks of the document as a whole."""

    pdf_version: str = ""
    pdfx_version: str | None = None  # /GTS_PDFXVersion in the Info dictionary
    trapped: str | None = None
    output_intent: bool = False  # a GTS_PDFX OutputIntent with an ICC profile


class _Doc:
    def __init__(self, raw: dict[str, Any]):
        self.header = raw["qpdf"][0]
        self.trailer = raw["qpdf"][1].get("trailer", {}).get("value", {})
        self.objects: dict[str, Any] = {k.removeprefix("obj:"): v
                                        for k, v in raw["qpdf"][1].items()
                                        if k.startswith("obj:")}
        self.pages = raw["pages"]
        self._image_ink: dict[str, float] = {}

    def get(self, value: Any) -> Any:
        """Resolve an indirect reference ("12 0 R") to its dictionary (or stream dict)."""
        while isinstance(value, str) and value.endswith(" R"):
            obj = self.objects.get(value, {})
            value = obj["stream"]["dict"] if "stream" in obj else obj.get("value")
        return value

    def data(self, ref: str) -> bytes:
        stream = self.objects.get(ref, {}).get("stream", {})
        return base64.b64decode(stream.get("data", ""))

    def image_ink(self, ref: str, info: dict[str, Any]) -> float:
        """Highest C+M+Y+K of a CMYK image's pixels, percent."""
        if ref not in self._image_ink:
            self._image_ink[ref] = _cmyk_max(self.data(ref), info)
        return self._image_ink[ref]


def _cmyk_max(data: bytes, info: dict[str, Any]) -> float:
    try:
        filt = info.get("/Filter")
        if filt == "/DCTDecode" or filt == ["/DCTDecode"]:
            img = Image.open(io.BytesIO(data))
            img.load()
        else:
            if filt in ("/FlateDecode", ["/FlateDecode"]):
                data = zlib.decompress(data)
            img = Image.frombytes("CMYK", (int(info["/Width"]), int(info["/Height"])), data)
    except (OSError, ValueError, zlib.error, KeyError):
        return 0.0
    if img.mode != "CMYK":
        return 0.0
    decode = info.get("/Decode")
    bands = img.split()
    if decode and decode[:2] == [1, 0]:  # inverted (Adobe) CMYK
        bands = tuple(b.point(lambda v: 255 - v) for b in bands)
    total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"],
                                  c=bands[0], m=bands[1], y=bands[2], k=bands[3])
    return total.getextrema()[1] / 255 * 100


def _mul(a: list[float], b: list[float]) -> list[float]:
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def _scale(m: list[float]) -> float:
    """The vertical scale of a matrix (for text sizes)."""
    return math.hypot(m[2], m[3])


def _walk(doc: _Doc, report: PageReport, content: bytes, resources: Any,
          ctm: list[float], depth: int = 0) -> None:
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
        if NUMBER.match(tok) or (tok.startswith(OPERAND_START) and tok not in (b"<<", b">>")):
            operands.append(tok)
            continue
        nums = [float(t) for t in operands if NUMBER.match(t)]
        op = tok
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
            if (float(state.get("/ca", 1)) < 1 or float(state.get("/CA", 1)) < 1
                    or state.get("/SMask", "/None") != "/None"
                    or state.get("/BM", "/Normal") not in ("/Normal", "/Compatible")):
                report.transparency += 1
        elif op == b"sh" and operands:
            sh = doc.get(shadings.get(operands[-1].decode("latin-1"))) or {}
            _check_shading(doc, sh, report)
        elif op == b"Do" and operands and depth < 8:
            ref = xobjects.get(operands[-1].decode("latin-1"))
            info = doc.get(ref) or {}
            if info.get("/Subtype") == "/Form":
                inner = _mul(info.get("/Matrix", [1, 0, 0, 1, 0, 0]), ctm)
                _walk(doc, report, doc.data(ref), info.get("/Resources"), inner, depth + 1)
            elif info.get("/Subtype") == "/Image":
                _check_image(doc, ref, info, ctm, report)
        operands = []


def _check_font(doc: _Doc, ref: Any, report: PageReport) -> None:
    font = doc.get(ref) or {}
    name = str(font.get("/BaseFont", "?"))
    for desc_font in [font, *[doc.get(d) for d in (doc.get(font.get("/DescendantFonts")) or [])]]:
        desc = doc.get((desc_font or {}).get("/FontDescriptor")) or {}
        if desc and any(k in desc for k in FONT_FILES):
            return
    if font.get("/Subtype") != "/Type3":
        report.fonts_not_embedded.add(name)


def _check_shading(doc: _Doc, sh: dict[str, Any], report: PageReport) -> None:
    space = sh.get("/ColorSpace")
    if space == "/DeviceRGB":
        report.rgb += 1
    functions = [sh.get("/Function")]
    while functions:
        fn = doc.get(functions.pop()) or {}
        if isinstance(fn, list):
            functions += fn
            continue
        functions += doc.get(fn.get("/Functions")) or []
        for key in ("/C0", "/C1"):
            values = fn.get(key)
            if space == "/DeviceCMYK" and isinstance(values, list) and len(values) == 4:
                report.ink_max = max(report.ink_max, sum(float(v) for v in values) * 100)


def _check_image(doc: _Doc, ref: str, info: dict[str, Any], ctm: list[float],
                 report: PageReport) -> None:
    space = doc.get(info.get("/ColorSpace"))
    if space == "/DeviceRGB" or (isinstance(space, list) and "/DeviceRGB" in space):
        report.rgb += 1
    if "/SMask" in info or "/Mask" in info:
        report.transparency += 1
    if space == "/DeviceCMYK":
        report.ink_max = max(report.ink_max, doc.image_ink(ref, info))
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
    return _document(_Doc(_qpdf_json(Path(path))))


def inspect(path: Path) -> list[PageReport]:
    """One :class:`PageReport` per page of the PDF at ``path``."""
    doc = _Doc(_qpdf_json(Path(path)))
    out = []
    for i, page in enumerate(doc.pages, 1):
        info = doc.get(page["object"]) or {}
        report = PageReport(i, trim_box="/TrimBox" in info, bleed_box="/BleedBox" in info)
        content = b"".join(doc.data(ref) + b"\n" for ref in page["contents"])
        _walk(doc, report, content, info.get("/Resources"), [1.0, 0, 0, 1, 0, 0])
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


def check_bytes(pdf: bytes, rules: Rules, shown: str) -> list[Finding]:
    """Preflight a PDF that is not written yet (a build checks before it writes)."""
    if shutil.which("qpdf") is None:
        return [warning("preflight-skipped", "qpdf is not installed: print files were not "
                        "preflighted", location=Location(shown),
                        hint="install qpdf (apt-get install qpdf)")]
    with tempfile.TemporaryDirectory(prefix="cardgen-preflight-") as tmp:
        path = Path(tmp) / "file.pdf"
        path.write_bytes(pdf)
        found = findings(path, inspect(path), rules, shown)
        if rules.pdfx:
            found += pdfx_findings(inspect_document(path), shown)
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
