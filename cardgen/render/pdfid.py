"""A PDF's /ID from its own content: ReportLab's invariant mode writes one fixed /ID for
every file, so two different files (the English and the Czech deck) would share it; a
print shop's workflow and PDF/X (ISO 15930-4, 6.6.1) take the /ID as the file's identity."""

from __future__ import annotations

import hashlib
import re

#: The trailer's /ID as ReportLab writes it: two equal 16-byte hex strings.
TRAILER_ID = re.compile(rb"/ID\s*\[<([0-9a-fA-F]{32})><([0-9a-fA-F]{32})>\]")


def with_content_id(pdf: bytes) -> bytes:
    """``pdf`` with both parts of its trailer /ID replaced by the MD5 of the file with the
    /ID blanked: the same bytes give the same /ID, different content a different one; the
    length (and so every offset) is unchanged."""
    found = list(TRAILER_ID.finditer(pdf))
    if not found:
        return pdf
    last = found[-1]
    blank = pdf[:last.start(1)] + b"0" * 32 + pdf[last.end(1):last.start(2)] + b"0" * 32 \
        + pdf[last.end(2):]
    fingerprint = hashlib.md5(blank, usedforsecurity=False).hexdigest().encode()
    return (pdf[:last.start(1)] + fingerprint + pdf[last.end(1):last.start(2)] + fingerprint
            + pdf[last.end(2):])
