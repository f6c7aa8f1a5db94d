"""A PDF's streams as stored: qpdf's object dump, each stream's bytes taken from the file
through its classic cross-reference table, the standard filters, and the ink of CMYK images."""

from __future__ import annotations

import io
import json
import re
import struct
import tempfile
import zlib
from pathlib import Path
from typing import Any, cast

from PIL import Image, ImageMath

from ..errors import CardgenError, Location, error
from ..files import tools
from ..files.oserrors import read_input

#: Filters qpdf's "generalized" decode level undoes (with their short names). A stream
#: whose chain has any other filter (DCT, JPX, JBIG2, CCITT) is left as it is, whole.
GENERALIZED = frozenset({"/FlateDecode", "/ASCII85Decode", "/ASCIIHexDecode", "/LZWDecode",
                         "/RunLengthDecode", "/Fl", "/A85", "/AHx", "/LZW", "/RL"})


REF = re.compile(r"\d+ \d+ R")


#: TOKEN's strings: a "(" starts no other token, so both find the same strings
STRING = re.compile(rb"\((?:\\.|[^\\)])*\)")


def run_qpdf(path: Path, *options: str) -> dict[str, Any]:
    """qpdf's JSON (version 2) of the objects of the PDF at ``path``; ``options`` say how
    much of the stream data it gives, and how decoded."""
    # into a file, not a pipe: qpdf writes its JSON in small pieces, and handing each
    # through a pipe cost both processes more than qpdf's reading of the PDF (issue 14)
    with tempfile.TemporaryDirectory(prefix="cardgen-qpdf-") as tmp:
        out = Path(tmp) / "objects.json"
        ran = tools.run(tools.QPDF, ["--json=2", "--json-key=qpdf", *options], [path, out],
                        needs="preflight", location=Location(str(path)))
        if ran.returncode not in (0, 3):  # 3: warnings
            raise CardgenError(error(
                "preflight-read", f"cannot read the PDF: {ran.last_word() or 'qpdf failed'}",
                location=Location(str(path)),
                hint="a PDF cut short (a download, a killed build) or not a PDF at all: write "
                     "it again (cardgen build) or ask for a new copy; `qpdf --check FILE` "
                     "says more"))
        return json.loads(read_input(out, str(path), limit=MAX_QPDF_JSON))


_XREF_ENTRY = re.compile(rb"(\d{10}) (\d{5}) ([nf])")


_XREF_SECTION = re.compile(rb"\s*(\d+) (\d+)[ \t]*\r?\n")


_STREAM_END = re.compile(rb"\r?\n?endstream")


def stored_streams(pdf: bytes, objects: dict[str, Any]) -> dict[str, bytes] | None:
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


#: Bytes one stream may decode to (a card's 300 dpi CMYK image is about 5 MB); a
#: compressed "bomb" stops here instead of filling memory.
MAX_STREAM = 128 * 1024 * 1024
#: Bytes of qpdf's description of one PDF read back (its objects, streams not inline).
MAX_QPDF_JSON = 256 * 1024 * 1024


class TooLarge(Exception):
    """A stream decodes to more than :data:`MAX_STREAM` bytes."""


def _inflate(data: bytes) -> bytes:
    """Flate-decoded ``data``, refused past :data:`MAX_STREAM` bytes without making more."""
    inflater = zlib.decompressobj()
    out = inflater.decompress(data, MAX_STREAM + 1)
    if len(out) > MAX_STREAM or inflater.unconsumed_tail:
        raise TooLarge(f"a stream decodes to more than {MAX_STREAM // 2**20} MB")
    if not inflater.eof:
        raise zlib.error("incomplete or truncated stream")
    return out


#: The generalized filters decoded here; any other (or /DecodeParms) is left to qpdf.
DECODERS = {"/FlateDecode": _inflate, "/ASCII85Decode": _a85, "/ASCIIHexDecode": _ahx}


def filters(info: dict[str, Any]) -> list[Any]:
    chain = info.get("/Filter")
    return [] if chain is None else chain if isinstance(chain, list) else [chain]


def decode(data: bytes, info: dict[str, Any]) -> bytes | None:
    """``data`` with its filters undone, or None when one is not decoded here."""
    if info.get("/DecodeParms") is not None:
        return None
    for name in filters(info):
        decoder = DECODERS.get(name) if isinstance(name, str) else None
        if decoder is None:
            return None
        try:
            data = decoder(data)
        except (ValueError, zlib.error):
            return None
    return data


#: The filter a JPEG is stored with (its short name is for inline images).
DCT = frozenset({"/DCTDecode", "/DCT"})


def cmyk_max(data: bytes, info: dict[str, Any]) -> float:
    """Highest C+M+Y+K of a CMYK image's pixels, percent: the samples as a PDF reader
    gets them from the stream, mapped through the image's /Decode array; 0 when the image
    cannot be read here."""
    chain = filters(info)
    if chain and chain[-1] not in DCT:  # one stream() could not undo (JPX, JBIG2 …)
        return 0.0
    try:
        if chain:
            bands, inverted = _jpeg_bands(data, info, chain)
        else:
            size = (int(info["/Width"]), int(info["/Height"]))
            if size[0] * size[1] * 4 > len(data):  # never allocate what the data can't fill
                return 0.0
            img = Image.frombytes("CMYK", size, data)
            bands, inverted = img.split(), False
    except (OSError, ValueError, zlib.error, KeyError, TypeError):
        return 0.0
    if len(bands) != 4:
        return 0.0
    decode = info.get("/Decode")
    decode = decode if isinstance(decode, list) and len(decode) == 8 else [0, 1] * 4
    mapped = [_mapped(b, inverted, float(decode[2 * i]), float(decode[2 * i + 1]))
              for i, b in enumerate(bands)]
    total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"],
                                  c=mapped[0], m=mapped[1], y=mapped[2], k=mapped[3])
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
    jpeg = decode(data, {"/Filter": chain[:-1]})
    if jpeg is None:
        raise ValueError("a filter before DCTDecode that is not decoded here")
    img = Image.open(io.BytesIO(jpeg), formats=("JPEG",))  # never another plugin (EPS: gs)
    if img.mode != "CMYK" or not img.tile:
        return (), False
    inverted = cast("tuple[Any, ...]", img.tile[0][3])[0] == "CMYK;I"  # the raw decoder's args: (mode, ...)
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
