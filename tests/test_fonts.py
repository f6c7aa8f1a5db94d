from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics

from cardgen.errors import CardgenError
from cardgen.fonts import missing_glyphs, register_font

FONTS = Path(__file__).resolve().parents[1] / "fonts"


def test_register_once_per_process() -> None:
    a = register_font(FONTS / "CharisSIL-Regular.ttf")
    count = len(pdfmetrics.getRegisteredFontNames())
    b = register_font(FONTS / "CharisSIL-Regular.ttf")
    assert a == b
    assert len(pdfmetrics.getRegisteredFontNames()) == count


def test_czech_is_covered_cjk_is_not() -> None:
    name = register_font(FONTS / "CharisSIL-Bold.ttf")
    assert missing_glyphs(name, "Příliš žluťoučký kůň úpěl ďábelské ódy – Ěě\u00a0") == set()
    assert missing_glyphs(name, "Karel 王") == {"王"}


def test_garamond_czech() -> None:
    name = register_font(FONTS / "EBGaramond12-Regular.ttf")
    assert missing_glyphs(name, "Volba římského krále") == set()


def test_missing_font_file_is_clear(tmp_path: Path) -> None:
    with pytest.raises(CardgenError) as exc:
        register_font(tmp_path / "Nope.ttf")
    assert exc.value.findings[0].code == "font-missing"
    assert "Nope.ttf" in str(exc.value)


def test_broken_font_file(tmp_path: Path) -> None:
    bad = tmp_path / "Bad.ttf"
    bad.write_bytes(b"not a font")
    with pytest.raises(CardgenError) as exc:
        register_font(bad)
    assert exc.value.findings[0].code == "font-invalid"


def test_a_font_file_past_its_size_cap_is_refused_unread(project, capsys):
    """Issue 38: a 3 GB file named as a font was read and copied whole; past 32 MB it is
    `file-too-large` at the file, exit 2, before ReportLab opens it (a sparse file here)."""
    from cardgen.cli import main
    from cardgen.fonts import MAX_FONT_BYTES
    font = project / "fonts" / "CharisSIL-Bold.ttf"
    font.unlink()
    with font.open("wb") as fh:
        fh.truncate(MAX_FONT_BYTES + 1)
    assert main(["check", "--project", str(project)]) == 2
    out = "".join(capsys.readouterr())
    assert "error[file-too-large]" in out and "CharisSIL-Bold.ttf" in out
