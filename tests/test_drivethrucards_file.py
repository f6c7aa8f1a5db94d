"""Issue 30, done when: `cardgen build --profile drivethrucards` (no other option) gives
files a print shop takes on the first try, read here from the files themselves with qpdf's
JSON and content-stream operators, against ISO 15930-4 (PDF/X-1a:2003)."""

from __future__ import annotations

import base64
import json
import re
import subprocess
from pathlib import Path

import pytest
from conftest import copy_project

from cardgen.cli import main
from cardgen.press.preflight import Rules, check_bytes

#: ISO 15930-4's document information entries for PDF/X-1a:2003 (and Trapped, which it
#: requires to be True or False).
ISO_15930_4 = {"/GTS_PDFXVersion": "PDF/X-1:2003", "/GTS_PDFXConformance": "PDF/X-1a:2003",
               "/Trapped": "/False"}
INCH = 72
TOKEN = re.compile(rb"/[^\s/\[\]()<>{}%]*|\((?:\\.|[^\\)])*\)|<<|>>|<[0-9A-Fa-f\s]*>|\[|\]"
                   rb"|[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z'\"*]+[0-9]?\*?")
NUMBER = re.compile(rb"[-+]?(?:\d+\.?\d*|\.\d+)")


@pytest.fixture(scope="module")
def output(tmp_path_factory) -> Path:
    project = copy_project(tmp_path_factory.mktemp("dtc") / "project")
    assert main(["build", "--quiet", "--project", str(project), "--profile",
                 "drivethrucards"]) == 0
    return project / "output"


def objects(path: Path) -> dict:
    """qpdf's JSON of ``path``: every object, streams decoded where qpdf can."""
    raw = subprocess.run(["qpdf", "--json=2", "--decode-level=generalized",
                          "--json-stream-data=inline", str(path)], check=True,
                         capture_output=True).stdout
    return json.loads(raw)["qpdf"][1]


def value(objs: dict, ref):
    while isinstance(ref, str) and ref.endswith(" R"):
        obj = objs[f"obj:{ref}"]
        ref = obj["stream"]["dict"] if "stream" in obj else obj["value"]
    return ref


def text(v) -> str:
    return v.removeprefix("u:") if isinstance(v, str) else v


def test_the_print_file_is_keyed_as_iso_15930_4_states(output):
    objs = objects(output / "en" / "print-shop.pdf")
    info = value(objs, objs["trailer"]["value"]["/Info"])
    assert {k: text(info.get(k)) for k in ISO_15930_4} == ISO_15930_4
    assert text(info["/Title"]).strip()
    assert "/CreationDate" in info and "/ModDate" in info
    header = (output / "en" / "print-shop.pdf").read_bytes()[:8]
    assert header in (b"%PDF-1.3", b"%PDF-1.4")  # PDF/X-1a:2003 is PDF 1.4 at most
    poppler = subprocess.run(["pdfinfo", str(output / "en" / "print-shop.pdf")],
                             capture_output=True, text=True, check=True).stdout
    assert "ISO 15930-4" in poppler  # poppler names the standard from the same keys


def test_the_output_intent_embeds_a_cmyk_output_profile(output):
    objs = objects(output / "en" / "print-shop.pdf")
    root = value(objs, objs["trailer"]["value"]["/Root"])
    (intent,) = [value(objs, i) for i in value(objs, root["/OutputIntents"])]
    assert intent["/S"] == "/GTS_PDFX" and text(intent["/OutputConditionIdentifier"])
    profile = objs[f"obj:{intent['/DestOutputProfile']}"]["stream"]
    icc = base64.b64decode(profile["data"])
    assert profile["dict"]["/N"] == 4
    assert icc[12:16] == b"prtr" and icc[16:20] == b"CMYK" and icc[36:40] == b"acsp"


def pdfs(output: Path) -> list[Path]:
    return sorted(output.glob("*/*.pdf"))


def test_no_rgb_icc_rgb_or_lab_anywhere_and_no_transparency(output):
    assert {p.name for p in pdfs(output)} >= {"print-shop.pdf", "rules-tables.pdf",
                                              "cards.pdf", "tokens.pdf", "board.pdf"}
    for path in pdfs(output):
        objs = objects(path)
        for key, obj in objs.items():
            d = obj["stream"]["dict"] if "stream" in obj else obj.get("value")
            flat = json.dumps(d)
            assert "/DeviceRGB" not in flat and "/CalRGB" not in flat, (path, key)
            assert '"/Lab"' not in flat, (path, key)
            assert "/SMask" not in flat or '"/SMask": "/None"' in flat, (path, key)
            if isinstance(d, dict):
                assert float(d.get("/ca", 1)) == 1 and float(d.get("/CA", 1)) == 1
                assert d.get("/BM", "/Normal") in ("/Normal", "/Compatible")
                assert (value(objs, d.get("/Group")) or {}).get("/S") != "/Transparency"
            if isinstance(d, list) and d[:1] == ["/ICCBased"]:
                assert value(objs, d[1])["/N"] == 4, (path, key)
        for data in content_streams(objs):
            assert not {t for t in TOKEN.findall(data) if t in (b"rg", b"RG")}, path


def content_streams(objs: dict) -> list[bytes]:
    """The decoded data of every page content stream and form XObject."""
    contents = set()
    for obj in objs.values():
        page = obj.get("value") if isinstance(obj, dict) else None
        if isinstance(page, dict) and page.get("/Type") == "/Page":
            refs = value(objs, page["/Contents"]) if isinstance(page["/Contents"], str) \
                and "value" in objs[f"obj:{page['/Contents']}"] else page["/Contents"]
            contents |= set(refs if isinstance(refs, list) else [refs])
    return [base64.b64decode(obj["stream"].get("data", "")) for key, obj in objs.items()
            if isinstance(obj, dict) and "stream" in obj
            and (key.removeprefix("obj:") in contents
                 or obj["stream"]["dict"].get("/Subtype") == "/Form")]


def text_fills(objs: dict) -> set[tuple[float, ...]]:
    """Every fill colour text is shown in, read operator by operator from every content
    stream (pages and forms), with q/Q nesting."""
    out: set[tuple[float, ...]] = set()
    for data in content_streams(objs):
        fill: tuple[float, ...] = ()
        stack: list[tuple[float, ...]] = []
        operands: list[bytes] = []
        for tok in TOKEN.findall(data):
            if NUMBER.fullmatch(tok) or (tok[:1] in b"/(<[]" and tok not in (b"<<", b">>")):
                operands.append(tok)
                continue
            nums = [float(t) for t in operands if NUMBER.fullmatch(t)]
            if tok == b"q":
                stack.append(fill)
            elif tok == b"Q" and stack:
                fill = stack.pop()
            elif tok == b"k":
                fill = tuple(nums[-4:])
            elif tok == b"g":
                fill = (0.0, 0.0, 0.0, 1 - nums[-1])
            elif tok in (b"Tj", b"TJ", b"'", b'"'):
                out.add(fill)
            operands = []
    return out


def test_black_text_is_solid_black_ink(output):
    for name in ("print-shop.pdf", "cards.pdf", "glossary.pdf", "rules-tables.pdf"):
        fills = text_fills(objects(output / "en" / name))
        assert (0.0, 0.0, 0.0, 1.0) in fills, name  # the body text
        # near-black text (the 89.7 % K of old) must be solid; a deliberate dark grey (an
        # end event's placeholder name in its grey house colour, 80 % K) may stay a grey
        blacks = {f for f in fills if len(f) == 4 and f[3] >= 0.85
                  and max(f[:3]) - min(f[:3]) <= 0.2}
        assert blacks == {(0.0, 0.0, 0.0, 1.0)}, (name, blacks)


def test_fonts_embedded_and_boxes_on_every_page(output):
    for path in pdfs(output):
        fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True,
                               check=True).stdout.splitlines()[2:]
        assert fonts and all(line.split()[-5] == "yes" for line in fonts), path
    boxes = subprocess.run(["pdfinfo", "-box", "-f", "1", "-l", "164",
                            str(output / "en" / "print-shop.pdf")], capture_output=True,
                           text=True, check=True).stdout
    trims = re.findall(r"Page\s+\d+ TrimBox:\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", boxes)
    media = re.findall(r"Page\s+\d+ MediaBox:\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", boxes)
    bleeds = re.findall(r"Page\s+\d+ BleedBox:\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)",
                        boxes)
    assert len(trims) == len(media) == len(bleeds) == 164  # 82 cards, back and front
    for t, m, b in zip(trims, media, bleeds, strict=True):
        t, m, b = ([float(v) for v in box] for box in (t, m, b))
        assert (t[2] - t[0], t[3] - t[1]) == pytest.approx((2.5 * INCH, 3.5 * INCH), abs=0.05)
        assert (m[2] - m[0], m[3] - m[1]) == pytest.approx((2.75 * INCH, 3.75 * INCH), abs=0.05)
        assert b[0] <= t[0] and b[1] <= t[1] and b[2] >= t[2] and b[3] >= t[3]
        assert m[0] <= b[0] and m[1] <= b[1] and m[2] >= b[2] and m[3] >= b[3]


def test_every_file_has_an_id_of_its_own(output):
    ids = {}
    for path in pdfs(output):
        found = re.findall(rb"/ID\s*\[<([0-9a-fA-F]{32})><([0-9a-fA-F]{32})>\]",
                           path.read_bytes())
        assert found, path
        ids[path] = found[-1][0]
    assert len(set(ids.values())) == len(ids)  # the English and Czech decks too
    assert ids[output / "en" / "cards.pdf"] != ids[output / "cs" / "cards.pdf"]


def test_preflight_reports_nothing_false_on_any_shipped_file(output):
    """Every PDF of the build, read as a CMYK file at DriveThruCards' 240 %: no error; the
    print file not even a warning; elsewhere only the true small-text warnings (4.5 pt
    token names, the board tiles' page labels)."""
    for path in pdfs(output):
        shop = path.name == "print-shop.pdf"
        rules = Rules(cmyk=True, ink_limit=240, boxes=shop, pdfx=shop,
                      transparency="error")
        found = check_bytes(path.read_bytes(), rules, str(path))
        assert not [f for f in found if f.severity.value == "error"], (path, found)
        allowed = set() if shop else {"preflight-text"}
        assert {f.code for f in found} <= allowed, (path, found)
