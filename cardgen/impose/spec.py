"""Sheet and print-shop specifications: ``layouts/sheets.yaml`` and ``layouts/profiles.yaml``.

Both files are data; this module checks their shape (all findings in one pass, each with
file:line:col) and freezes them into the typed values the imposition stage reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..data.fields import Field, check_record, range_findings, suggest
from ..data.project import Documents, Project
from ..data.yamlsrc import LocMap
from ..errors import CardgenError, Finding, Location, error, has_errors
from ..files.safepath import in_project
from ..render.cmyk import RichBlack

NUM = (int, float)
PAGE_ORDERS = ("fronts-then-backs", "back-front", "front-back", "images")
COLOUR_SPACES = ("rgb", "cmyk")
#: Instruction strings every language must define (plural tables: ``count``, ``sheet``).
STRING_KEYS = ("title", "contents", "actual_size", "duplex_long", "duplex_short",
               "gutterfold", "blank_back", "ruler", "cut", "blank_page", "calib_title",
               "calib_how", "calib_read", "calib_example")
PLURAL_KEYS = ("count", "sheet")


@dataclass(frozen=True)
class Paper:
    id: str
    name: str
    width: float  # mm
    height: float


@dataclass(frozen=True)
class MarkSpec:
    length: float
    offset: float
    min_printable: float
    #: when both ends of a cut have a mark: each prints at least this (two points set a ruler)
    min_printable_each: float
    edge_clearance: float
    width_pt: float


@dataclass(frozen=True)
class SheetSpec:
    papers: Mapping[str, Paper]
    columns: int
    rows: int
    printer_margin: float
    max_outer_bleed: float
    #: the least bleed every outer edge of the grid gets inside the printable area
    min_bleed: float
    marks: MarkSpec
    fold_columns: int
    fold_rows: int
    fold_gap: float
    font: Path
    bold_font: Path
    mono_font: Path  # commands the user types
    calibration_example: tuple[float, float]  # mm, the offset the calibration sheet shows
    #: lang -> key -> text, or lang -> plural key -> CLDR category -> text
    strings: Mapping[str, Mapping[str, Any]]
    loc: Location

    def paper(self, paper_id: str) -> Paper:
        if paper_id not in self.papers:
            near = suggest(paper_id, self.papers)
            raise CardgenError(error(
                "unknown-paper",
                f"paper '{paper_id}' is not in sheets.yaml; expected one of: "
                f"{', '.join(self.papers)}", location=self.loc,
                hint=f"did you mean '{near}'?" if near else None))
        return self.papers[paper_id]


@dataclass(frozen=True)
class Profile:
    id: str
    description: str
    card_width: float
    card_height: float
    bleed: float  # mm
    page_order: str
    colour_space: str
    resolution: int  # dpi
    bleed_px: int | None
    loc: Location
    ink_limit: float = 300.0  # total ink, percent
    icc: Path | None = None  # the shop's CMYK profile; None: the shipped one
    min_safe: float = 3.2  # mm of safe area a scaled card must keep
    max_aspect_change: float = 0.01  # how far the two scale factors may differ
    pdfx: bool = False  # print-shop.pdf as PDF/X-1a:2003 unless --no-pdfx
    rich_black: RichBlack = field(default_factory=RichBlack)  # large black fills (CMYK)

    def scale(self, width: float, height: float) -> tuple[float, float]:
        """(x, y) factors taking a ``width`` × ``height`` card to this profile's trim."""
        return self.card_width / width, self.card_height / height


def _num(record: LocMap, key: str, default: float = 0.0) -> float:
    value = record.get(key, default)
    return float(value) if isinstance(value, NUM) and not isinstance(value, bool) else default


def _sub(record: LocMap, key: str) -> LocMap:
    value = record.get(key)
    if isinstance(value, LocMap):
        return value
    empty = LocMap()
    empty.loc, empty.locs, empty.key_locs = record.loc, {}, {}
    return empty


def _positive(record: LocMap, keys: tuple[str, ...], what: str) -> list[Finding]:
    out = []
    for key in keys:
        value = record.get(key)
        if isinstance(value, NUM) and not isinstance(value, bool) and value <= 0:
            out.append(error("bad-value", f"'{key}' in {what} must be greater than 0, not {value}",
                             location=record.at(key)))
    return out


#: Sane ranges of sheets.yaml's numbers (mm; width_pt in points): a slip of a few digits
#: (``columns: 3000``, ``length: 600``) is an error at its line, not a page of a million
#: cards or a mark across the sheet.
SHEET_RANGES: dict[str, dict[str, tuple[float, float]]] = {
    "paper": {"width": (50, 1500), "height": (50, 1500)},
    "grid": {"columns": (1, 12), "rows": (1, 12)},
    "margins": {"printer_margin": (0, 30), "max_outer_bleed": (0, 10), "min_bleed": (0, 10)},
    "crop_marks": {"length": (0.5, 30), "offset": (0, 10), "min_printable": (0.1, 20),
                   "min_printable_each": (0.1, 20),
                   "edge_clearance": (0, 20), "width_pt": (0.05, 5)},
    "gutterfold": {"columns": (1, 12), "rows": (1, 12), "fold_gap": (0.1, 50)},
}


def load_sheet_spec(project: Project) -> SheetSpec:
    """``layouts/sheets.yaml`` (made once per project); raise CardgenError with every
    finding at once."""
    return project.derived("sheets", lambda: _sheet_spec(project.documents))


def _sheet_spec(documents: Documents) -> SheetSpec:
    name = "layouts/sheets.yaml"
    raw = documents.read(name)
    findings = check_record(raw, {
        "papers": Field(dict, required=True),
        "grid": Field(dict, required=True),
        "printer_margin": Field(NUM, required=True),
        "max_outer_bleed": Field(NUM, required=True),
        "min_bleed": Field(NUM, required=True),
        "crop_marks": Field(dict, required=True),
        "gutterfold": Field(dict, required=True),
        "font": Field(str, required=True),
        "bold_font": Field(str, required=True),
        "mono_font": Field(str, required=True),
        "calibration_example": Field(list, required=True),
        "strings": Field(dict, required=True),
    }, Location(name), name)
    if not isinstance(raw, LocMap):
        raise CardgenError(findings)
    papers = {}
    for pid, prec in _sub(raw, "papers").items():
        what = f"paper '{pid}'"
        found = check_record(prec, {"name": Field(str, required=True),
                                    "width": Field(NUM, required=True),
                                    "height": Field(NUM, required=True)},
                             _sub(raw, "papers").at(pid), what)
        findings += found
        if not found:
            findings += _positive(prec, ("width", "height"), what)
            findings += range_findings(prec, SHEET_RANGES["paper"], what)
            papers[pid] = Paper(pid, prec["name"], float(prec["width"]), float(prec["height"]))
    grid = _sub(raw, "grid")
    findings += check_record(grid, {"columns": Field(int, required=True),
                                    "rows": Field(int, required=True)}, grid.loc, "grid")
    findings += _positive(grid, ("columns", "rows"), "grid")
    findings += range_findings(grid, SHEET_RANGES["grid"], "grid")
    findings += range_findings(raw, SHEET_RANGES["margins"], name)
    marks = _sub(raw, "crop_marks")
    mark_keys = ("length", "offset", "min_printable", "min_printable_each", "edge_clearance",
                 "width_pt")
    findings += check_record(marks, {k: Field(NUM, required=True) for k in mark_keys},
                             marks.loc, "crop_marks")
    findings += _positive(marks, ("length", "min_printable", "width_pt"), "crop_marks")
    findings += range_findings(marks, SHEET_RANGES["crop_marks"], "crop_marks")
    fold = _sub(raw, "gutterfold")
    findings += check_record(fold, {"columns": Field(int, required=True),
                                    "rows": Field(int, required=True),
                                    "fold_gap": Field(NUM, required=True)}, fold.loc, "gutterfold")
    findings += _positive(fold, ("columns", "rows", "fold_gap"), "gutterfold")
    findings += range_findings(fold, SHEET_RANGES["gutterfold"], "gutterfold")
    strings = _check_strings(_sub(raw, "strings"), findings)
    base = documents.root / "layouts"
    fonts = {}
    for key in ("font", "bold_font", "mono_font"):
        value = raw.get(key)
        if isinstance(value, str):
            fonts[key] = (base / value).resolve()
            if not fonts[key].is_file():
                findings.append(error("font-missing", f"font file not found: {value}",
                                      location=raw.at(key), hint="paths are relative to layouts/"))
    example: Any = raw.get("calibration_example")  # required: a list (checked here)
    if isinstance(example, list) and (len(example) != 2 or not all(
            isinstance(v, NUM) and not isinstance(v, bool) for v in example)):
        findings.append(error("bad-value", "calibration_example must be two numbers in mm, "
                              f"X and Y, not {example!r}", location=raw.at("calibration_example"),
                              hint="calibration_example: [1.5, -0.5]"))
    if has_errors(findings):
        raise CardgenError(findings)
    return SheetSpec(
        papers=MappingProxyType(papers),
        columns=grid["columns"], rows=grid["rows"],
        printer_margin=_num(raw, "printer_margin"),
        max_outer_bleed=_num(raw, "max_outer_bleed"),
        min_bleed=_num(raw, "min_bleed"),
        marks=MarkSpec(*(_num(marks, k) for k in mark_keys)),
        fold_columns=fold["columns"], fold_rows=fold["rows"], fold_gap=_num(fold, "fold_gap"),
        font=fonts["font"], bold_font=fonts["bold_font"], mono_font=fonts["mono_font"],
        calibration_example=(float(example[0]), float(example[1])),
        strings=MappingProxyType(strings), loc=raw.loc,
    )


def _check_strings(raw: LocMap, findings: list[Finding]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    spec = {k: Field(str, required=True) for k in STRING_KEYS}
    spec.update({k: Field(dict, required=True) for k in PLURAL_KEYS})
    for lang, table in raw.items():
        what = f"strings.{lang}"
        found = check_record(table, spec, raw.at(lang), what)
        findings += found
        if found:
            continue
        entry: dict[str, Any] = {k: table[k] for k in STRING_KEYS}
        for key in PLURAL_KEYS:
            forms = table[key]
            if "other" not in forms:
                findings.append(error("missing-key", f"{what}.{key} needs the 'other' form",
                                      location=table.at(key), hint="add 'other:'"))
            entry[key] = {k: str(v) for k, v in forms.items()}
        out[lang] = entry
    return out


PROFILE_SPEC = {
    "description": Field(str, required=True),
    "card": Field(dict, required=True),
    "bleed": Field(NUM),
    "bleed_px": Field(int),
    "page_order": Field(str, required=True, choices=PAGE_ORDERS),
    "colour_space": Field(str, required=True, choices=COLOUR_SPACES),
    "resolution": Field(int, required=True),
    "ink_limit": Field(NUM),
    "icc": Field(str),
    "pdfx": Field(bool),
}


#: The ranges of a profile's numbers: wider than any print shop's, narrow enough that a slip
#: (``bleed_px: 10000000``) never sizes a page or an image.
PROFILE_RANGES = {"bleed": (0, 10), "bleed_px": (0, 500), "resolution": (72, 1200),
                  "ink_limit": (100, 400)}
#: A card's trim, in mm (from a mini card to a tarot card and beyond).
CARD_RANGES = {"width": (20, 300), "height": (20, 300)}


def _rich_black_findings(rich: LocMap) -> list[Finding]:
    found = check_record(rich, {"cmyk": Field(list), "min_size": Field(NUM)}, rich.loc,
                         "rich_black")
    cmyk = rich.get("cmyk")
    if not found and cmyk is not None and (
            len(cmyk) != 4 or not all(isinstance(v, NUM) and not isinstance(v, bool)
                                      and 0 <= v <= 100 for v in cmyk)):
        found.append(error("bad-value", "'cmyk' in rich_black must be four percentages "
                           "(C, M, Y, K), e.g. [40, 30, 30, 100]", location=rich.at("cmyk")))
    return found + _positive(rich, ("min_size",), "rich_black")


def load_profiles(project: Project) -> dict[str, Profile]:
    """``layouts/profiles.yaml`` (made once per project); raise CardgenError with every
    finding at once."""
    return project.derived("profiles", lambda: _profiles(project.documents))


def _profiles(documents: Documents) -> dict[str, Profile]:
    name = "layouts/profiles.yaml"
    raw = documents.read(name)
    findings = check_record(raw, {"profiles": Field(dict, required=True),
                                  "scaling": Field(dict), "rich_black": Field(dict)},
                            Location(name), name)
    scaling = _sub(raw, "scaling") if isinstance(raw, LocMap) else LocMap()
    rich = _sub(raw, "rich_black") if isinstance(raw, LocMap) else LocMap()
    if not findings:
        findings += check_record(scaling, {"min_safe": Field(NUM),
                                           "max_aspect_change": Field(NUM)},
                                 scaling.loc, "scaling")
        findings += _positive(scaling, ("max_aspect_change",), "scaling")
        findings += range_findings(scaling, {"min_safe": (0, 20), "max_aspect_change": (0, 0.5)},
                                   "scaling")
        findings += _rich_black_findings(rich)
    if findings:
        raise CardgenError(findings)
    black = RichBlack(tuple(v / 100 for v in rich.get("cmyk", (40, 30, 30, 100))),  # type: ignore[arg-type]
                      _num(rich, "min_size", 25.0))
    limits = (_num(scaling, "min_safe", 3.2), _num(scaling, "max_aspect_change", 0.01))
    out: dict[str, Profile] = {}
    table = raw["profiles"]
    for pid, rec in table.items():
        what = f"profile '{pid}'"
        found = check_record(rec, PROFILE_SPEC, table.at(pid), what)
        if not found:
            card = rec["card"]
            found += check_record(card, {"width": Field(NUM, required=True),
                                         "height": Field(NUM, required=True)}, card.loc,
                                  f"{what} card")
            found += _positive(rec, ("bleed", "bleed_px", "resolution", "ink_limit"), what)
            found += range_findings(rec, PROFILE_RANGES, what)
            found += range_findings(card, CARD_RANGES, f"{what} card")
            icc = rec.get("icc")
            if isinstance(icc, str):
                try:
                    in_project(documents.root / "layouts" / icc, documents.root, rec.at("icc"),
                               f"ICC profile of {what}")
                except CardgenError as exc:
                    found += exc.findings
                    icc = None
            if isinstance(icc, str) and not (documents.root / "layouts" / icc).is_file():
                found.append(error("file-missing", f"{what}: ICC profile not found: {icc}",
                                   location=rec.at("icc"), hint="paths are relative to layouts/"))
            if (rec.get("bleed") is None) == (rec.get("bleed_px") is None):
                found.append(error("missing-key", f"{what} needs exactly one of 'bleed' (mm) "
                                   "or 'bleed_px' (pixels at its resolution)", location=rec.loc))
        findings += found
        if found:
            continue
        res = rec["resolution"]
        bleed_px = rec.get("bleed_px")
        bleed = bleed_px * 25.4 / res if bleed_px is not None else float(rec["bleed"])
        out[pid] = Profile(pid, rec["description"], float(rec["card"]["width"]),
                           float(rec["card"]["height"]), bleed, rec["page_order"],
                           rec["colour_space"], res, bleed_px, rec.loc,
                           _num(rec, "ink_limit", 300.0),
                           (documents.root / "layouts" / rec["icc"]).resolve() if rec.get("icc")
                           else None, *limits, pdfx=bool(rec.get("pdfx", False)),
                           rich_black=black)
    if has_errors(findings):
        raise CardgenError(findings)
    return out


def select_profile(profiles: Mapping[str, Profile], name: str) -> Profile:
    """The profile called ``name``, or an error listing the ones that exist."""
    if name in profiles:
        return profiles[name]
    near = suggest(name, profiles)
    raise CardgenError(error(
        "unknown-profile",
        f"print-shop profile '{name}' is not in layouts/profiles.yaml; expected one of: "
        f"{', '.join(profiles)}", location=Location("layouts/profiles.yaml"),
        hint=f"did you mean '{near}'?" if near else f"use one of those, or add '{name}' to "
        "layouts/profiles.yaml"))
