from __future__ import annotations

import dataclasses
import re
import subprocess
from pathlib import Path

import pytest
from PIL import Image
from test_render_samples import LAYOUT, LONG_CS, face, long_czech, samples

from cardgen.data.layout import load_layout
from cardgen.errors import CardgenError, Severity
from cardgen.files.write import atomic_output, atomic_write
from cardgen.render import write_back_pdf, write_cards_pdf, write_pngs
from cardgen.render.art import prepare_art
from cardgen.render.pdf import render_cards_pdf
from cardgen.wording.face import TextLine

MM = 72 / 25.4


@pytest.fixture(scope="module")
def layout():  # type: ignore[no-untyped-def]
    return load_layout(LAYOUT)


def run(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def boxes(pdf: Path) -> list[dict[str, tuple[float, ...]]]:
    out = run("pdfinfo", "-box", "-f", "1", "-l", "999", str(pdf))
    pages: dict[int, dict[str, tuple[float, ...]]] = {}
    for m in re.finditer(r"Page\s+(\d+)\s+(\w+):\s+([\d.\s-]+)", out):
        pages.setdefault(int(m.group(1)), {})[m.group(2)] = tuple(
            float(v) for v in m.group(3).split())
    return [pages[k] for k in sorted(pages)]


def test_one_page_per_physical_card_with_boxes(tmp_path: Path, layout) -> None:  # type: ignore[no-untyped-def]
    faces = samples()
    path = tmp_path / "cards.pdf"
    report = write_cards_pdf(faces, layout, path)
    expected = sum(f.copies for f in faces)
    assert report.pages == expected
    pages = boxes(path)
    assert len(pages) == expected
    w, h = 69 * MM, 94 * MM
    for page in pages:
        assert page["MediaBox"] == pytest.approx((0, 0, w, h), abs=0.01)
        assert page["BleedBox"] == pytest.approx((0, 0, w, h), abs=0.01)
        assert page["TrimBox"] == pytest.approx((3 * MM, 3 * MM, 66 * MM, 91 * MM), abs=0.01)


def test_text_extracted_per_language(tmp_path: Path, layout) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "cards.pdf"
    write_cards_pdf([long_czech(), samples()[0]], layout, path)
    cs = run("pdftotext", "-f", "1", "-l", "1", str(path), "-")
    en = run("pdftotext", "-f", "2", "-l", "2", str(path), "-")
    flat = re.sub(r"-\n", "", re.sub(r"\s+", " ", cs.replace("-\n", "")))
    assert "Jindřich z Lipé" in cs
    assert "Nejvyšší maršálek:" in cs
    assert "Při získání:" in cs
    assert "Trh · 27" in cs
    assert "opěrný bod" in flat  # U+00A0 is kept, hyphenation does not lose letters
    assert "Blanche de Valois" in en and "French Bride:" in en


def test_fonts_embedded_no_helvetica(tmp_path: Path, layout) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "cards.pdf"
    write_cards_pdf(samples(), layout, path)
    out = run("pdffonts", str(path)).splitlines()[2:]
    assert out, "no fonts listed"
    for row in out:
        cols = row.split()
        assert "Helvetica" not in row
        assert cols[-5] == "yes" and cols[-4] == "yes", row  # emb, sub


def test_back_pdf(tmp_path: Path, layout) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "back.pdf"
    write_back_pdf(layout, path, lang="cs")
    assert len(boxes(path)) == 1
    assert "Volba římského krále" in re.sub(r"\s+", " ", run("pdftotext", str(path), "-"))
    with pytest.raises(CardgenError):
        write_back_pdf(layout, tmp_path / "x.pdf", lang="de")


def test_deterministic_bytes(layout) -> None:  # type: ignore[no-untyped-def]
    a, _ = render_cards_pdf(samples(), layout)
    b, _ = render_cards_pdf(samples(), layout)
    assert a == b


def test_overflow_reported_at_min_size(layout) -> None:  # type: ignore[no-untyped-def]
    long = long_czech()
    f = dataclasses.replace(long, lines=(*long.lines, TextLine("passive", LONG_CS)))
    _, report = render_cards_pdf([f], layout)
    fit = report.cards[0].fit
    assert not fit.fits
    assert fit.size == pytest.approx(layout.text_box.min_size)
    codes = [x.code for x in report.findings if x.severity is Severity.ERROR]
    assert codes == ["text-overflow"]
    assert report.findings[-1].card == "henry-of-lipa" and report.findings[-1].lang == "cs"


def test_long_czech_shrinks_but_fits(layout) -> None:  # type: ignore[no-untyped-def]
    _, report = render_cards_pdf([long_czech()], layout)
    fit = report.cards[0].fit
    assert fit.fits and layout.text_box.min_size <= fit.size < layout.text_box.size


def test_missing_glyph_names_card_lang_char(layout) -> None:  # type: ignore[no-untyped-def]
    f = face(card_id="wang", lang="en", lines=(TextLine("deed", "Gain 王 now.", title="Ok"),))
    with pytest.raises(CardgenError) as exc:
        render_cards_pdf([f], layout)
    finding = exc.value.findings[0]
    assert finding.code == "missing-glyph"
    assert (finding.card, finding.lang) == ("wang", "en")
    assert "王" in finding.message and "U+738B" in finding.message


def test_placeholder_art_warns(layout) -> None:  # type: ignore[no-untyped-def]
    _, report = render_cards_pdf([samples()[0]], layout)
    assert [f.code for f in report.findings] == ["art-placeholder"]
    assert report.findings[0].severity is Severity.WARNING


def test_real_art_fitted_and_low_resolution_warning(tmp_path: Path, layout) -> None:  # type: ignore[no-untyped-def]
    small = tmp_path / "small.png"
    Image.new("RGB", (300, 200), "#884422").save(small)
    _, report = render_cards_pdf([face(art=small)], layout)
    assert [f.code for f in report.findings] == ["art-low-resolution"]
    assert "ppi" in report.findings[0].message

    big = tmp_path / "tall.jpg"  # 1:2 portrait: fitted by height, never cropped
    Image.new("RGB", (1000, 2000), "#224488").save(big)
    art = prepare_art(big, 63, 42, ppi=300)
    assert art.h_mm == pytest.approx(42) and art.w_mm == pytest.approx(21)
    assert art.ppi == pytest.approx(1000 / (21 / 25.4))
    assert Image.open(__import__("io").BytesIO(art.data)).size == (249, 497)  # 300 ppi or more as placed
    assert prepare_art(big, 63, 42, ppi=300) is art  # cached by content hash


def test_bad_images_are_clear_errors(tmp_path: Path) -> None:
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"\x89PNG\r\n\x1a\n not really")
    good = tmp_path / "good.png"
    Image.new("RGB", (600, 400), "#336699").save(good)
    cut = tmp_path / "cut.png"
    cut.write_bytes(good.read_bytes()[:200])
    for path in (junk, cut, tmp_path / "absent.png"):
        with pytest.raises(CardgenError) as exc:
            prepare_art(path, 63, 42, card="c1")
        f = exc.value.findings[0]
        assert f.code in {"art-invalid", "art-read"}
        assert f.card == "c1" and str(path) in str(f.location)


def test_decompression_bomb_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "bomb.png"
    Image.new("L", (400, 400)).save(path)
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 10_000)
    with pytest.raises(CardgenError) as exc:
        prepare_art(path, 63, 42)
    assert "too large" in str(exc.value)


def test_write_pngs(tmp_path: Path, layout) -> None:  # type: ignore[no-untyped-def]
    faces = samples()[:2]
    paths, _ = write_pngs(faces, layout, tmp_path / "png", dpi=60)
    assert [p.name for p in paths] == ["002-blanche-de-valois.png", "001-charles-iv.png", "back.png"]
    with Image.open(paths[0]) as im:
        w, h = im.size
        assert abs(w - 69 / 25.4 * 60) <= 1 and abs(h - 94 / 25.4 * 60) <= 1
    assert sorted(p.name for p in (tmp_path / "png").iterdir()) == sorted(p.name for p in paths)


def test_atomic_write(tmp_path: Path) -> None:
    target = tmp_path / "out" / "a.bin"
    atomic_write(target, b"one")
    assert target.read_bytes() == b"one"
    with pytest.raises(RuntimeError), atomic_output(target) as fh:
        fh.write(b"half")
        raise RuntimeError("boom")
    assert target.read_bytes() == b"one"
    assert [p.name for p in target.parent.iterdir()] == ["a.bin"]


def test_card_drawn_inside_a_form_xobject(layout) -> None:  # type: ignore[no-untyped-def]
    import io

    from reportlab.pdfgen.canvas import Canvas

    from cardgen.render import draw_card

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(600, 800), invariant=1)
    c.beginForm("card")
    report = draw_card(c, samples()[0], layout)
    c.endForm()
    for x, y in ((20, 20), (250, 400)):
        c.saveState()
        c.translate(x, y)
        c.doForm("card")
        c.restoreState()
    c.showPage()
    c.save()
    assert report.fit.fits
    assert buf.getvalue().count(b"/Subtype /Form") == 1
