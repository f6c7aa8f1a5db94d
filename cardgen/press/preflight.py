"""Preflight: what a print shop checks in a PDF, page by page, read from the file itself.

Per page the walk (:mod:`.pagewalk`, over the objects :mod:`.pdfread` and the streams
:mod:`.pdfstreams` give) reports the highest total ink (colour operators and CMYK image
pixels), the smallest text, the lowest image resolution, any RGB, any transparency, the
TrimBox and BleedBox, and fonts that are not embedded. :func:`findings` turns those reports
into errors and warnings against a print profile's :class:`Rules`; :func:`check_bytes` does
both for a file the build just made, lending what earlier builds' walks found
(:class:`~.pdfread.WalkCache`), so after a one-card edit only that card's page is read again.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import Finding, Location, error, warning
from ..files import tools
from .pagewalk import document_report, page_reports
from .pdfread import DocReport, PageReport, WalkCache, read_pdf


@dataclass(frozen=True)
class Rules:
    """What a file must meet; ``None`` switches a check off."""

    cmyk: bool = False  # no RGB at all
    ink_limit: float | None = None  # percent
    boxes: bool = False  # TrimBox and BleedBox on every page
    transparency: str = "warn"  # off | warn | error
    min_text_pt: float = 5.0  # warning below this
    min_image_ppi: float = 300.0  # warning below this (the shops' 300 ppi)
    pdfx: bool = False  # PDF/X-1a keys and OutputIntent


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
        add(error, "preflight-rgb", lambda p: p.rgb, "RGB colour (device, calibrated or "
            "ICC-based) in a CMYK file", "build with --cmyk")
        add(error, "preflight-lab", lambda p: p.lab, "Lab colour in a CMYK file",
            "build with --cmyk")
        add(warning, "preflight-text-ink", lambda p: p.text_not_k_only,
            "black text under 12 pt not in solid black ink (0/0/0/100)",
            "print black text in black ink only")
    if rules.ink_limit is not None:
        top = max((p.ink_max for p in pages), default=0)
        add(error, "preflight-ink", lambda p: p.ink_max > rules.ink_limit + 0.5,
            f"total ink {top:.0f} % over the limit of {rules.ink_limit:g} %",
            "use the shop's ICC profile (--icc) or its ink limit in layouts/profiles.yaml")
    if rules.boxes:
        add(error, "preflight-boxes", lambda p: not (p.trim_box and p.bleed_box),
            "page without TrimBox and BleedBox")
    add(error, "preflight-boxes", lambda p: p.boxes_outside,
        "TrimBox or BleedBox larger than the page (the TrimBox must lie inside the "
        "BleedBox, the BleedBox inside the MediaBox)")
    add(error if rules.boxes or rules.pdfx else warning, "preflight-annotations",
        lambda p: p.annotations, "annotations (links, comments, form fields) on the page",
        "remove them: a print file carries only what prints")
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


#: The correctly keyed PDF/X-1a files: (GTS_PDFXVersion, GTS_PDFXConformance) → the
#: highest PDF version allowed. ISO 15930-4 (PDF/X-1a:2003, PDF 1.4) and ISO 15930-1
#: (PDF/X-1a:2001, PDF 1.3) both name the PDF/X-1 family in the version key and the
#: conformance level "a" in the conformance key.
PDFX_1A = {("PDF/X-1:2003", "PDF/X-1a:2003"): "1.4", ("PDF/X-1:2001", "PDF/X-1a:2001"): "1.3"}


def document_findings(doc: DocReport, shown: str) -> list[Finding]:
    """What a print shop refuses in any file: encryption, JavaScript."""
    where = Location(shown)
    out = []
    if doc.encrypted:
        out.append(error("preflight-encrypted", "the file is encrypted", location=where,
                         hint="save it without a password or restrictions"))
    if doc.javascript:
        out.append(error("preflight-javascript", f"JavaScript in the file ({doc.javascript} "
                         "place" + "s" * (doc.javascript != 1) + ")", location=where,
                         hint="remove the scripts: a print file carries only what prints"))
    return out


def pdfx_findings(doc: DocReport, shown: str) -> list[Finding]:
    """What keeps a file from being PDF/X-1a (ISO 15930-4 or -1) at the document level."""
    where = Location(shown)
    out = []

    def fail(message: str, hint: str | None = "build with --pdfx") -> None:
        out.append(error("preflight-pdfx", message, location=where, hint=hint))

    keys = (doc.pdfx_version, doc.pdfx_conformance)
    if keys not in PDFX_1A:
        fail(f"document information keys GTS_PDFXVersion ({doc.pdfx_version or 'missing'}) "
             f"and GTS_PDFXConformance ({doc.pdfx_conformance or 'missing'}) are not PDF/X-1a: "
             "ISO 15930-4 wants (PDF/X-1:2003) and (PDF/X-1a:2003)")
    elif doc.pdf_version > PDFX_1A[keys]:
        fail(f"PDF {doc.pdf_version}: {keys[1]} needs PDF {PDFX_1A[keys]} or earlier", None)
    if doc.trapped not in ("/False", "/True"):
        fail("/Trapped must be /True or /False")
    if not doc.output_intent:
        fail("no GTS_PDFX OutputIntent with an ICC profile")
    elif doc.intent_space != "cmyk":
        fail(f"the OutputIntent's profile is {(doc.intent_space or 'unknown').upper()}, not "
             "a CMYK output profile", "build with --pdfx and a CMYK profile (--icc)")
    if not doc.title:
        fail("no /Title in the document information (PDF/X requires one)")
    if not doc.dates:
        fail("no /CreationDate and /ModDate in the document information")
    if not doc.trailer_id:
        fail("no /ID in the trailer")
    return out


def check_bytes(pdf: bytes, rules: Rules, shown: str, walks: WalkCache | None = None
                ) -> list[Finding]:
    """Preflight a PDF that is not written yet (a build checks before it writes); qpdf
    reads it once for the pages and the document. ``walks``: as for :func:`inspect`."""
    if tools.find(tools.QPDF) is None:
        return [warning("preflight-skipped", "qpdf is not installed: print files were not "
                        "preflighted", location=Location(shown),
                        hint="install qpdf (Debian: apt-get install qpdf)")]
    with tempfile.TemporaryDirectory(prefix="cardgen-preflight-") as tmp:
        path = Path(tmp) / "file.pdf"
        path.write_bytes(pdf)
        doc = read_pdf(path, walks, pdf)
        found = findings(path, page_reports(doc), rules, shown)
        facts = document_report(doc)
        found += document_findings(facts, shown)
        if rules.pdfx:
            found += pdfx_findings(facts, shown)
        return found


def summary(path: Path, pages: list[PageReport]) -> str:
    """One line per page, for `cardgen preflight`."""
    lines = [f"{path}: {len(pages)} page{'s' * (len(pages) != 1)}"]
    for p in pages:
        text = "-" if p.min_text_pt is None else f"{p.min_text_pt:.1f} pt"
        ppi = "-" if p.min_image_ppi is None else f"{p.min_image_ppi:.0f} ppi"
        if not p.rgb and not p.lab:
            ink = f"ink max {p.ink_max:.0f} %"
        elif p.ink_max:
            ink = f"ink max {p.ink_max:.0f} % where CMYK (RGB or Lab parts not measured)"
        else:
            ink = "ink: RGB page, not measured"
        lines.append(
            f"  page {p.page}: {ink}, smallest text {text}, lowest image "
            f"{ppi}, RGB {p.rgb}, Lab {p.lab}, transparency {p.transparency}, "
            f"TrimBox {'yes' if p.trim_box else 'no'}, BleedBox {'yes' if p.bleed_box else 'no'}"
            f"{', boxes past the page' if p.boxes_outside else ''}"
            f"{f', annotations {p.annotations}' if p.annotations else ''}, "
            f"fonts {'embedded' if not p.fonts_not_embedded else 'NOT embedded'}")
    return "\n".join(lines)
