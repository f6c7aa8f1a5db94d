"""The commands around `check`: --fill, --fix, reviewed exceptions, proof and the PO round trip."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from cardgen.cli import main
from cardgen.data.load import load
from tests.conftest import replace_in

LUX = Path("card_data") / "cards" / "luxembourg.yaml"
NB = "\u00a0"
CHARLES_CS = f'cs: "Umísti 2{NB}vlivu do Čech. Lízni 1{NB}kartu."'


def run(project: Path, capsys, *args: str) -> tuple[int, str]:
    code = main(["--project", str(project), *args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def snapshot(project: Path) -> dict[str, bytes]:
    return {str(p.relative_to(project)): p.read_bytes()
            for p in sorted((project / "card_data").rglob("*.yaml"))}


def test_fill_writes_the_canonical_text_into_an_empty_line(project, capsys):
    path = project / LUX
    replace_in(path, f"        {CHARLES_CS}\n", "")
    code, out = run(project, capsys, "check")
    assert code == 1 and "charles-iv" in out
    code, out = run(project, capsys, "check", "--fill")
    assert "filled:" in out and "charles-iv deed (cs)" in out
    assert code == 0, out
    assert "Umísti 2" in path.read_text(encoding="utf-8")


def test_fix_repairs_typography_in_place_and_is_idempotent(project, capsys):
    path = project / LUX
    replace_in(path, CHARLES_CS, 'cs: "Umísti 2 vlivu do Čech.  Lízni 1 kartu."')
    code, out = run(project, capsys, "check")
    assert "typo-double-space" in out and "typo-nbsp-number" in out
    before_comments = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.startswith("#")]
    code, out = run(project, capsys, "check", "--fix")
    assert "fixed:" in out and code == 0
    text = path.read_text(encoding="utf-8")
    assert CHARLES_CS in text
    assert [ln for ln in text.splitlines() if ln.startswith("#")] == before_comments
    once = snapshot(project)
    code, out = run(project, capsys, "check", "--fix")
    assert "fixed:" not in out
    assert snapshot(project) == once


def test_reviewed_wording_exception_allows_other_wording_and_is_listed(project, capsys):
    path = project / LUX
    replace_in(path, CHARLES_CS, f'cs: "Lízni 1{NB}kartu. Umísti 2{NB}vlivu do Čech."')
    code, out = run(project, capsys, "check")
    assert code == 1
    assert "charles-iv" in out and "error[text-differs]" in out
    replace_in(path, "      text:\n        en: \"Place 2 influence in Bohemia. Draw 1 card.\"\n",
               "      wording_exception: {cs: draw first reads better}\n"
               "      text:\n        en: \"Place 2 influence in Bohemia. Draw 1 card.\"\n")
    code, out = run(project, capsys, "check")
    assert code == 0, out
    assert "== card charles-iv ==" not in out
    assert "reviewed exceptions:" in out
    assert "card charles-iv deed (cs): reviewed: draw first reads better" in out
    assert out.strip().splitlines()[-1].endswith("1 reviewed exception")


def _pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    return int(next(ln for ln in info.stdout.splitlines() if ln.startswith("Pages:")).split()[1])


def test_proof_writes_both_languages_side_by_side(project, capsys):
    code, out = run(project, capsys, "proof")
    assert code == 0, out
    pdf = project / "output" / "proof" / "cs-en.pdf"
    assert 1 + 76 // 4 <= _pages(pdf) <= 1 + 76 // 2  # summary, then several cards a page
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
    assert "Karel IV." in text and "Charles IV" in text
    ids = [card.id for card in load(project)[0].cards]
    assert len(ids) == 76 and all(f"({cid})" in text for cid in ids)
    # the table draws a :token: as the card's icon, never as its name
    assert "is in the Papal Curia: gain 2 Church" in " ".join(text.split())
    assert ":shield-clement-vi:" not in text
    replace_in(project / LUX, CHARLES_CS, f'cs: "Umísti 3{NB}vlivu do Čech. Lízni 1{NB}kartu."')
    code, out = run(project, capsys, "check", "--format", "json")
    flagged = {f["card"] for f in json.loads(out)["findings"]
               if f["card"] and f["severity"] in ("error", "warning")}
    assert "charles-iv" in flagged
    code, out = run(project, capsys, "proof", "--only-problems")
    assert code == 0
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
    assert {cid for cid in ids if f"({cid})" in text} == flagged
    assert "charles-iv" in text and "error[" in text


def test_po_export_then_import_leaves_card_data_byte_identical(project, capsys):
    before = snapshot(project)
    code, out = run(project, capsys, "po", "export")
    assert code == 0
    po = project / "output" / "po" / "cs.po"
    text = po.read_text(encoding="utf-8")
    assert 'msgctxt "charles-iv:deed"' in text
    assert 'msgid "Place 2 influence in Bohemia. Draw 1 card."' in text
    code, out = run(project, capsys, "po", "import", str(po))
    assert code == 0, out
    assert snapshot(project) == before


def test_po_import_applies_a_changed_translation(project, capsys):
    replace_in(project / LUX, '        - {op: draw, amount: 1}\n      text:',
               '        - {op: draw, amount: 1}\n      wording_exception: {cs: "draw first"}\n'
               '      text:')
    run(project, capsys, "po", "export")
    po = project / "output" / "po" / "cs.po"
    text = po.read_text(encoding="utf-8")
    old = f'msgstr "Umísti 2{NB}vlivu do Čech. Lízni 1{NB}kartu."'
    assert old in text
    po.write_text(text.replace(old, f'msgstr "Lízni 1{NB}kartu. Umísti 2{NB}vlivu do Čech."', 1),
                  encoding="utf-8")
    code, out = run(project, capsys, "po", "import", str(po))
    assert code == 0, out
    assert f"Lízni 1{NB}kartu. Umísti 2{NB}vlivu do Čech." in (project / LUX).read_text(encoding="utf-8")


def test_a_build_with_a_missing_label_fails_before_writing_anything(project, capsys):
    line = replace_in(project / "card_data" / "text" / "en.yaml", "  glossary_title:", "  glossary_titel:")
    code, out = run(project, capsys, "build", "--quiet")
    assert code == 1
    assert "card_data/text/en.yaml" in out and "glossary_title" in out
    assert line > 0
    assert not list((project / "output").rglob("*.pdf"))


def test_project_may_follow_the_command(project, capsys):
    code = main(["check", "--project", str(project)])
    assert code == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith("76 cards checked, 0 errors")


def test_check_reports_each_images_resolution_at_print_size(project, capsys):
    from PIL import Image

    (project / "art").mkdir(exist_ok=True)
    Image.new("RGB", (600, 400), "#8a6d3b").save(project / "art" / "philip-vi.jpg")
    Image.new("RGB", (1200, 800), "#335577").save(project / "art" / "edward-iii.png")
    code, out = run(project, capsys, "check")
    assert code == 0
    # below what is wanted, a resolution is said to a tenth: never rounded up (issue 30)
    assert ("art/philip-vi.jpg: warning[art-low-resolution] card philip-vi: art is 241.9 ppi "
            "at print size (600×400 px over 63.0 mm); 300 ppi wanted") in out
    assert "fix: use an image at least 745 px wide" in out
    assert "art/edward-iii.png: info[art-resolution] card edward-iii: 484 ppi at print size" in out


def test_text_that_does_not_fit_is_an_error_at_that_text(project, capsys):
    long = " ".join(["Otec vlasti, koruny, říše a všech zemí Koruny české"] * 10)
    line = replace_in(project / LUX, "cs: Otec vlasti}", f"cs: \"{long}\"}}")
    code, out = run(project, capsys, "check", "--format", "json")
    assert code == 1
    hits = [f for f in json.loads(out)["findings"] if f["code"] == "text-overflow"]
    assert hits and hits[0]["card"] == "charles-iv" and hits[0]["lang"] == "cs"
    assert hits[0]["rule"] == "2.36" and "does not fit" in hits[0]["message"]
    assert (hits[0]["file"], hits[0]["line"]) == (str(LUX), line)


def test_the_command_prints_everything_and_keeps_its_exit_code(project):
    """`cardgen` leaves without tearing its objects down (cli.run): what it printed is
    still all there, through a pipe, and so is the exit code."""
    import sys

    replace_in(project / LUX, f"        {CHARLES_CS}\n", "")
    cmd = [sys.executable, "-m", "cardgen.cli", "--project", str(project), "check",
           "--format", "json"]
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 1, res.stderr
    found = json.loads(res.stdout)
    assert any(f.get("card") == "charles-iv" for f in found["findings"]), res.stdout[-500:]
