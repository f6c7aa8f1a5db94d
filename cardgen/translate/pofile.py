"""Reading and writing gettext PO files, as strictly as ``msgfmt --check`` reads them.

The reader refuses what msgfmt refuses: an unknown keyword, a string that is not closed
on its line, an unknown escape, an entry without ``msgstr``, a message defined twice, a
file that is not UTF-8, a header without a UTF-8 charset. Each problem is a finding at the
PO file's line, never a guess at what was meant. The writer never wraps lines (tools
accept long lines) and writes ``#|`` previous strings like ``msgmerge --previous``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import Finding, Location, error

#: Escapes a PO string may use (those of C, as in msgfmt) and what they stand for.
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
            "\\": "\\", '"': '"'}
_WRITE = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}
_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)(?=[\s\"])\s*(.*)$")


@dataclass
class PoEntry:
    """One message: ``msgid`` (the English), ``msgstr`` (the Czech) and its comments."""

    msgid: str
    msgstr: str = ""
    msgctxt: str | None = None
    extracted: list[str] = field(default_factory=list)  # "#." lines
    references: list[str] = field(default_factory=list)  # "#:" items
    flags: list[str] = field(default_factory=list)  # "#," items
    comments: list[str] = field(default_factory=list)  # "# " translator comments
    previous_msgctxt: str | None = None  # "#| msgctxt"
    previous_msgid: str | None = None  # "#| msgid"
    plural: bool = False  # had msgid_plural / msgstr[n] (cardgen exports none)
    line: int = 0  # line of the msgid keyword in the file read
    #: while reading: the "#|" strings continuing a previous field, joined once at the end
    previous_parts: dict[str, list[str]] = field(default_factory=dict, repr=False,
                                                 compare=False)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags


@dataclass
class PoFile:
    header: dict[str, str]
    entries: list[PoEntry]
    header_line: int = 0
    header_lines: dict[str, int] = field(default_factory=dict)  # header field -> its line

    def line_of(self, name: str) -> int:
        """The line of a header field (the header entry's line when it is missing)."""
        return self.header_lines.get(name, self.header_line)


class _Syntax(Exception):
    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line


_OCTAL, _HEX = re.compile(r"[0-7]{1,3}"), re.compile(r"x[0-9a-fA-F]{1,2}")


def _unquote(text: str, line: int) -> str:
    """The value of one ``"…"`` token (the whole rest of a line), escapes resolved."""
    text = text.strip()
    if len(text) < 2 or not text.startswith('"') or not text.endswith('"'):
        raise _Syntax(line, "a string must be written in double quotes on one line")
    body, out, i = text[1:-1], [], 0
    while i < len(body):
        ch = body[i]
        if ch == '"':
            raise _Syntax(line, 'a double quote inside a string must be written \\"')
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        if i + 1 >= len(body):
            raise _Syntax(line, "the string ends with a lone backslash")
        nxt = body[i + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif m := _OCTAL.match(body, i + 1):  # matched in place: no copy of the rest
            out.append(chr(int(m.group(), 8)))
            i += 1 + len(m.group())
        elif m := _HEX.match(body, i + 1):
            out.append(chr(int(m.group()[1:], 16)))
            i += 1 + len(m.group())
        else:
            raise _Syntax(line, f"unknown escape sequence '\\{nxt}'")
    return "".join(out)


def _header(text: str) -> dict[str, str]:
    out = {}
    for row in text.split("\n"):
        name, sep, value = row.partition(":")
        if sep:
            out[name.strip()] = value.strip()
    return out


def parse_po(raw: bytes, file: str) -> tuple[PoFile | None, list[Finding]]:
    """The PO file's entries, or None and the findings (each at its line) of a file that
    ``msgfmt --check`` would refuse."""
    where = Location(file)
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        return None, [error("po-syntax", "the PO file is not UTF-8", location=Location(file, line, 1),
                            hint="save it as UTF-8 (the header must say charset=UTF-8)")]
    try:
        entries = _entries(text.split("\n"))
    except _Syntax as exc:
        return None, [error("po-syntax", str(exc), location=Location(file, exc.line, 1),
                            hint="fix the line, or export a fresh file with cardgen po export")]
    findings: list[Finding] = []
    seen: dict[tuple[str | None, str], int] = {}
    for entry in entries:
        key = (entry.msgctxt, entry.msgid)
        if key in seen:
            findings.append(error(
                "po-syntax", f"duplicate message definition (first defined at line {seen[key]})",
                location=Location(file, entry.line, 1), hint="keep one of the two entries"))
        seen.setdefault(key, entry.line)
    heads = [e for e in entries if e.msgid == "" and e.msgctxt is None]
    if not heads:
        findings.append(error("po-syntax", "the PO file has no header entry (msgid \"\")",
                              location=where, hint="export a fresh file with cardgen po export"))
        return None, findings
    head = heads[0]
    header = _header(head.msgstr)
    charset = re.search(r"charset=([\w-]+)", header.get("Content-Type", ""))
    if not charset or charset.group(1).lower().replace("_", "-") != "utf-8":
        findings.append(error("po-syntax", "the header's Content-Type must say charset=UTF-8",
                              location=Location(file, head.line, 1),
                              hint='"Content-Type: text/plain; charset=UTF-8\\n"'))
    if findings:
        return None, findings
    body = [e for e in entries if e is not head]
    lines = text.split("\n")
    at: dict[str, int] = {}
    for n in range(head.line, len(lines) + 1):
        row = lines[n - 1].strip()
        if not row:
            break
        m = re.match(r'(?:msgstr\s+)?"([\w-]+):', row)
        if m:
            at.setdefault(m.group(1), n)
    return PoFile(header, body, head.line, at), []


def _entries(lines: list[str]) -> list[PoEntry]:
    entries: list[PoEntry] = []
    entry: PoEntry | None = None
    pending = PoEntry("")  # comments collected before the next keyword
    target: str | None = None  # the field continuation strings extend
    values: dict[str, list[str]] = {}  # each field's strings, joined once at its end

    def finish(line: int) -> None:
        nonlocal entry, values, target
        if entry is None:
            return
        if "msgid" not in values:
            raise _Syntax(line, "msgstr without msgid")
        if "msgstr" not in values:
            raise _Syntax(entry.line, "this entry has no msgstr")
        _fold_previous(entry)
        entry.msgid = "".join(values["msgid"])
        entry.msgstr = "".join(values["msgstr"])
        entry.msgctxt = "".join(values["msgctxt"]) if "msgctxt" in values else None
        entries.append(entry)
        entry, values, target = None, {}, None

    for n, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            if entry is not None and "msgstr" in values:
                finish(n)
            elif entry is not None:
                raise _Syntax(entry.line, "this entry has no msgstr")
            _comment(pending, stripped, n)
            continue
        if stripped.startswith('"'):
            if target is None:
                raise _Syntax(n, "a string continues nothing (no keyword before it)")
            values[target].append(_unquote(stripped, n))
            continue
        m = _KEYWORD.match(stripped)
        if m is None:
            word = stripped.split()[0]
            raise _Syntax(n, f"unknown keyword '{word}'")
        keyword, index, rest = m.group(1), m.group(2), m.group(3)
        if keyword in ("msgctxt", "msgid") and "msgstr" in values:
            finish(n)
        if entry is None:
            if keyword.startswith("msgstr") or keyword == "msgid_plural":
                raise _Syntax(n, f"{keyword.split('[')[0]} without msgid")
            entry, pending = pending, PoEntry("")
        name = "msgstr" if keyword.startswith("msgstr") else keyword
        if keyword == "msgctxt" and values:
            raise _Syntax(n, "msgctxt must come before msgid")
        if keyword == "msgid":
            if "msgid" in values:
                raise _Syntax(n, "a second msgid in one entry")
            entry.line = n
        if keyword == "msgid_plural" or index is not None:
            entry.plural = True
            if index is not None and index != "0":
                name = f"msgstr[{index}]"
        if name == "msgstr" and "msgid" not in values:
            raise _Syntax(n, "msgstr without msgid")
        if name in values:
            raise _Syntax(n, f"a second {name} in one entry")
        values[name] = [_unquote(rest, n)]
        target = name
    finish(len(lines))  # trailing comments (obsolete "#~" entries) belong to no message
    return entries


def _comment(entry: PoEntry, line: str, n: int) -> None:
    kind, body = line[:2], line[2:].strip()
    if kind == "#.":
        entry.extracted.append(body)
    elif kind == "#:":
        entry.references.extend(body.split())
    elif kind == "#,":
        entry.flags.extend(f.strip() for f in _split_flags(body) if f.strip())
    elif kind == "#|":
        if body.startswith('"'):  # a previous string continued on the next line
            more = _unquote(body, n)
            name = ("previous_msgid" if entry.previous_msgid is not None
                    else "previous_msgctxt" if entry.previous_msgctxt is not None else None)
            if name is not None:
                entry.previous_parts.setdefault(name, []).append(more)
            return
        m = re.match(r"(msgctxt|msgid)\s+(.*)$", body)
        if m is None:  # msgid_plural: cardgen exports no plurals
            return
        value = _unquote(m.group(2), n)
        _fold_previous(entry)
        if m.group(1) == "msgctxt":
            entry.previous_msgctxt = value
        else:
            entry.previous_msgid = value
    elif kind == "#~":
        return  # an obsolete entry: kept by tools, never applied
    else:
        entry.comments.append(line[1:].strip())


def _fold_previous(entry: PoEntry) -> None:
    """Join the "#|" continuation strings read so far onto their fields (once each: linear
    in the file, however many continuation lines)."""
    for name, parts in entry.previous_parts.items():
        setattr(entry, name, (getattr(entry, name) or "") + "".join(parts))
    entry.previous_parts.clear()


def _split_flags(body: str) -> list[str]:
    """Flags split at commas outside quotes (Weblate's ``placeholders:":a:"`` has commas)."""
    out, cur, quote = [], [], ""
    for ch in body:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
            cur.append(ch)
        elif ch == ",":
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return out


# --------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------


def quote(value: str) -> str:
    return '"' + "".join(_WRITE.get(ch, ch) for ch in value) + '"'


def write_po(header_comment: str, header: dict[str, str], entries: list[PoEntry],
             header_fuzzy: bool = False) -> bytes:
    """The PO file's bytes: header comment, header entry, then every entry in order."""
    out = [f"# {row}".rstrip() for row in header_comment.split("\n")]
    if header_fuzzy:
        out.append("#, fuzzy")
    out += ['msgid ""', 'msgstr ""']
    out += [quote(f"{k}: {v}\n") for k, v in header.items()]
    for e in entries:
        out.append("")
        out += [f"# {c}".rstrip() for c in e.comments]
        out += [f"#. {c}".rstrip() for c in e.extracted]
        if e.references:
            out.append("#: " + " ".join(e.references))
        if e.flags:
            out.append("#, " + ", ".join(e.flags))
        if e.previous_msgctxt is not None:
            out.append(f"#| msgctxt {quote(e.previous_msgctxt)}")
        if e.previous_msgid is not None:
            out.append(f"#| msgid {quote(e.previous_msgid)}")
        if e.msgctxt is not None:
            out.append(f"msgctxt {quote(e.msgctxt)}")
        out.append(f"msgid {quote(e.msgid)}")
        out.append(f"msgstr {quote(e.msgstr)}")
    return ("\n".join(out) + "\n").encode("utf-8")
