"""Same data, same bytes: a ZIP package (XLSX, ODS) written again with fixed metadata."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Mapping

#: The date every member of an exported package carries (the earliest a ZIP can say).
EPOCH = (1980, 1, 1, 0, 0, 0)


def fixed(package: bytes, rewrite: Mapping[str, Callable[[bytes], bytes]] | None = None) -> bytes:
    """``package`` with each member in its order and compression, dated :data:`EPOCH`
    with the same permissions, so equal contents give equal bytes; a member named in
    ``rewrite`` is written as its function makes it (a date inside, fixed)."""
    rewrite = rewrite or {}
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(package)) as src, zipfile.ZipFile(out, "w") as dest:
        for info in src.infolist():
            member = zipfile.ZipInfo(info.filename, EPOCH)
            member.compress_type = info.compress_type
            member.external_attr = 0o644 << 16
            content = src.read(info)
            if info.filename in rewrite:
                content = rewrite[info.filename](content)
            dest.writestr(member, content, compresslevel=6 if
                          info.compress_type == zipfile.ZIP_DEFLATED else None)
    return out.getvalue()
