"""Same data, same bytes: a ZIP package (XLSX, ODS) written again with fixed metadata."""

from __future__ import annotations

import io
import zipfile

#: The date every member of an exported package carries (the earliest a ZIP can say).
EPOCH = (1980, 1, 1, 0, 0, 0)


def fixed(package: bytes) -> bytes:
    """``package`` with each member in its order and compression, dated :data:`EPOCH`
    with the same permissions, so equal contents give equal bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(package)) as src, zipfile.ZipFile(out, "w") as dest:
        for info in src.infolist():
            member = zipfile.ZipInfo(info.filename, EPOCH)
            member.compress_type = info.compress_type
            member.external_attr = 0o644 << 16
            dest.writestr(member, src.read(info), compresslevel=6 if
                          info.compress_type == zipfile.ZIP_DEFLATED else None)
    return out.getvalue()
