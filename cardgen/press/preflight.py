"""Preflight: what a print shop checks in a PDF, page by page, read from the file itself.

Per page the walk (:mod:`.pagewalk`, over the objects :mod:`.pdfread` and the streams
:mod:`.pdfstreams` give) reports the highest total ink (colour operators and CMYK image
pixels), the smallest text, the lowest image resolution, any RGB, any transparency, the
TrimBox and BleedBox, and fonts that are not embedded. :func:`findings` turns those reports
into errors and warnings against a print profile's :class:`Rules` (:func:`command_rules`:
those of `cardgen preflight`), each naming the pages, what was measured on each, the card
a page holds and the fix; :func:`check_bytes` does both for a file the build just made,
lending what earlier builds' walks found (:class:`~.pdfread.WalkCache`), so after a
one-card edit only that card's page is read again.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import Finding, Location, error, warning
from ..files import tools
from .iccinfo import darkest_ink, icc_name, icc_version
from .pagewalk import document_report, page_reports
from .pdfread import DocReport, PageReport, WalkCache, read_pdf

#: Below this an image is one a print shop refuses (under the 300 ppi it asks for, a
#: warning): printed at card size it shows its pixels.
SHOP_MIN_PPI = 150.0

#: The total ink a shop's file is held to when neither ``--ink-limit`` nor an OutputIntent
#: says: ISO 12647-2 offset on coated paper (FOGRA39) and most shops' stated maximum.
DEFAULT_SHOP_INK = 300.0


@dataclass(frozen=True)
class Rules:
    """What a file must meet; ``None`` switches a check off."""

    cmyk: bool = False  # no RGB at all
    ink_limit: float | None = None  # percent
    ink_source: str = ""  # where the limit comes from, for the message
    boxes: bool = False  # TrimBox and BleedBox on every page
    transparency: str = "warn"  # off | warn | error
    min_text_pt: float = 5.0  # a warning below this (an error for a shop)
    min_image_ppi: float = 300.0  # a warning below this (the shops' 300 ppi)
    shop: bool = False  # a print shop's file: text under min_text_pt and images under
    #                     SHOP_MIN_PPI are errors
    pdfx: bool = False  # PDF/X-1a keys and OutputIntent


def command_rules(ink_limit: float | None, print_shop: bool, pdfx: bool, min_ppi: float,
                  doc: DocReport) -> Rules:
    """The rules of `cardgen preflight` for one file. ``--print-shop`` and ``--pdfx`` check
    what a shop refuses: CMYK only, no transparency, text of 5 pt and more, images of
    150 ppi and more, and total ink within ``--ink-limit``, else within what the file's
    OutputIntent profile separates to, else within 300 %."""
    shop = print_shop or pdfx
    source = "--ink-limit"
    if ink_limit is None and shop:
        darkest = darkest_ink(doc.intent_icc) if doc.intent_icc else None
        if darkest is not None:
            ink_limit, source = darkest, (f"the most the OutputIntent's profile "
                                          f"({icc_name(doc.intent_icc) or 'unnamed'}) separates to")
        else:
            ink_limit, source = DEFAULT_SHOP_INK, ("offset on coated paper, as no OutputIntent "
                                                   "says; give the shop's with --ink-limit")
    return Rules(cmyk=ink_limit is not None or shop, ink_limit=ink_limit, ink_source=source,
                 boxes=shop, pdfx=pdfx, transparency="error" if shop else "warn",
                 min_image_ppi=min_ppi, shop=shop)


#: How many pages a finding lists (then "and N more").
LISTED = 8


def _page(p: PageReport, value: str | None) -> str:
    """A page as a finding names it: its number, then its cards and the measured value."""
    cards = list(p.cards[:3]) + (["…"] if len(p.cards) > 3 else [])
    detail = ", ".join(cards + ([value] if value else []))
    return f"{p.page} ({detail})" if detail else str(p.page)


def _where(hit: list[PageReport], value) -> str:
    """The pages ``hit`` with what was measured on each: once, before them, when it is the
    same on every page ("4.0 pt on page 3"), else after each ("pages 3 (5.1 pt), 9 (4.0 pt)")."""
    values = [value(p) if value else None for p in hit]
    same = values[0] if value and len(set(values)) == 1 else None
    listed = ", ".join(_page(p, None if same else v)
                       for p, v in zip(hit[:LISTED], values, strict=False))
    more = f" and {len(hit) - LISTED} more" if len(hit) > LISTED else ""
    pages = f"page{'s' * (len(hit) != 1)} {listed}{more}"
    return f"{same} on {pages}" if same else pages


def _missing_boxes(p: PageReport) -> str:
    return "no " + " or ".join(name for name, there in (("TrimBox", p.trim_box),
                                                        ("BleedBox", p.bleed_box)) if not there)


def findings(path: Path, pages: list[PageReport], rules: Rules, shown: str | None = None
             ) -> list[Finding]:
    """Errors (the file would be sent back) and warnings for ``pages`` of ``path``: each
    names the pages (and their cards), what was measured on each and how to fix it."""
    where = Location(shown or str(path))
    out: list[Finding] = []

    def add(kind, code: str, test, message: str, hint: str | None = None, value=None) -> None:
        hit = [p for p in pages if test(p)]
        if not hit:
            return
        cards = {c for p in hit for c in p.cards} - {"the back"}
        out.append(kind(code, f"{message}: {_where(hit, value)}", location=where, hint=hint,
                        card=cards.pop() if len(cards) == 1 else None))

    add(error, "preflight-fonts", lambda p: p.fonts_not_embedded,
        "fonts not embedded", "embed every font",
        value=lambda p: ", ".join(sorted(p.fonts_not_embedded)))
    if rules.cmyk:
        press = "convert it with the shop's CMYK profile: cardgen build --cmyk (--icc SHOP.icc) or --pdfx"
        add(error, "preflight-rgb", lambda p: p.rgb, "RGB colour (device, calibrated or "
            "ICC-based) where a press needs CMYK", press,
            value=lambda p: f"{p.rgb} use{'s' * (p.rgb != 1)}")
        add(error, "preflight-lab", lambda p: p.lab, "Lab colour where a press needs CMYK", press,
            value=lambda p: f"{p.lab} use{'s' * (p.lab != 1)}")
        add(warning, "preflight-text-ink", lambda p: p.text_not_k_only,
            "black text under 12 pt not in solid black ink (0/0/0/100)",
            "print black text in black ink only")
    if rules.ink_limit is not None:
        limit = rules.ink_limit
        add(error, "preflight-ink", lambda p: p.ink_max > limit + 0.5,
            f"total ink over the limit of {limit:.0f} %"
            + (f" ({rules.ink_source})" if rules.ink_source else ""),
            "use the shop's ICC profile (--icc) or its ink limit in layouts/profiles.yaml",
            value=lambda p: f"{p.ink_max:.0f} %")
    if rules.boxes:
        add(error, "preflight-boxes", lambda p: not (p.trim_box and p.bleed_box),
            "page boxes missing", "set a TrimBox (the cut) and a BleedBox (the cut and its "
            "bleed) on every page, as cardgen's print-shop.pdf has",
            value=_missing_boxes)
    add(error, "preflight-boxes", lambda p: p.boxes_outside,
        "TrimBox or BleedBox larger than the page (the TrimBox must lie inside the "
        "BleedBox, the BleedBox inside the MediaBox)", "set the boxes again from the trim "
        "size and the bleed: TrimBox = the cut, BleedBox = the cut and its bleed, page = BleedBox")
    add(error if rules.boxes or rules.pdfx else warning, "preflight-annotations",
        lambda p: p.annotations, "annotations (links, comments, form fields) on the page",
        "remove them: a print file carries only what prints")
    if rules.transparency != "off":
        add(error if rules.transparency == "error" else warning, "preflight-transparency",
            lambda p: p.transparency, "transparency (the shop's RIP flattens it, and "
            "colours or edges shift where it does)",
            "flatten it before sending: cardgen's CMYK and PDF/X files pre-mix their panels "
            "(cardgen build --cmyk or --pdfx)",
            value=lambda p: f"{p.transparency} place{'s' * (p.transparency != 1)}")
    small = rules.min_text_pt
    add(error if rules.shop else warning, "preflight-text", lambda p: p.min_text_pt is not None
        and p.min_text_pt < small - 0.01,
        f"text smaller than {small:g} pt" + (", which a print shop refuses" if rules.shop else ""),
        f"set every text at {small:g} pt or more as printed (cardgen: the sizes in "
        "layouts/card.yaml)", value=lambda p: f"{p.min_text_pt:.1f} pt")

    def ppi(p: PageReport) -> float:
        return p.min_image_ppi if p.min_image_ppi is not None else float("inf")

    image_hint = (f"give the art at least {rules.min_image_ppi:g} ppi at its printed size: "
                  "a larger scan or export (upscaling adds no detail)")
    if rules.shop:
        add(error, "preflight-image", lambda p: ppi(p) < SHOP_MIN_PPI,
            f"images below {SHOP_MIN_PPI:g} ppi, which a print shop refuses", image_hint,
            value=lambda p: f"{ppi(p):.0f} ppi")
    add(warning, "preflight-image", lambda p: (SHOP_MIN_PPI if rules.shop else 0) <= ppi(p)
        < rules.min_image_ppi, f"images below {rules.min_image_ppi:g} ppi", image_hint,
        value=lambda p: f"{ppi(p):.0f} ppi")
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
    version = icc_version(doc.intent_icc)
    if version is not None and version[0] >= 4:
        out.append(warning(
            "preflight-icc-version", f"the OutputIntent's ICC profile "
            f"({icc_name(doc.intent_icc) or 'unnamed'}) is version {version[0]}.{version[1]}: "
            "PDF/X-1a is PDF 1.3 or 1.4, whose ICC profiles are version 2 (version 4 came "
            "with PDF 1.5), so a strict PDF/X-1a check refuses the file", location=where,
            hint="use a version 2 profile of the same press condition (ask the shop, or leave "
            "out --icc for the shipped FOGRA39 one)"))
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
    """One line per page (with its card, when it holds one), for `cardgen preflight`."""
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
        cards = f" ({', '.join(p.cards)})" if len(p.cards) == 1 else ""
        lines.append(
            f"  page {p.page}{cards}: {ink}, smallest text {text}, lowest image "
            f"{ppi}, RGB {p.rgb}, Lab {p.lab}, transparency {p.transparency}, "
            f"TrimBox {'yes' if p.trim_box else 'no'}, BleedBox {'yes' if p.bleed_box else 'no'}"
            f"{', boxes past the page' if p.boxes_outside else ''}"
            f"{f', annotations {p.annotations}' if p.annotations else ''}, "
            f"fonts {'embedded' if not p.fonts_not_embedded else 'NOT embedded'}")
    return "\n".join(lines)
