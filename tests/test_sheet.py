"""`cardgen sheet export` and `sheet import` (issue 39): the designer's numbers in ODS, XLSX
and CSV, read back by independent readers, and edits written into card_data/ as exactly
the lines they change (texts re-rendered where a number appears); each strict error at its
``sheet!cell`` with nothing written."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from cardgen.check.invariants import next_free_number
from cardgen.cli import main
from cardgen.data.project import load_project
from cardgen.errors import Location, warning
from cardgen.sheet.export import export
from cardgen.sheet.table import cell_name, tables
from cardgen.sheet.zipped import EPOCH
from tests.conftest import copy_project

openpyxl = pytest.importorskip("openpyxl", reason="the `sheet` extra is not installed")
calamine = pytest.importorskip("python_calamine", reason="python-calamine is not installed")

SHEET = Path("output/sheet")


def _export(project: Path) -> Path:
    gathered, findings = load_project(project)
    export(gathered, findings)
    return project / SHEET


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """output/sheet/ of the shipped project, exported once for the tests that import it into
    their own copy (the copy's data is the shipped data)."""
    return _export(copy_project(tmp_path_factory.mktemp("exported")))


def _card_data(project: Path) -> dict[str, bytes]:
    return {p.relative_to(project).as_posix(): p.read_bytes()
            for p in sorted((project / "card_data").rglob("*")) if p.is_file()}


def _changed_lines(before: dict[str, bytes], after: dict[str, bytes]) -> dict[str, list[str]]:
    """File → the lines that differ (files of equal line counts, as in-place edits keep)."""
    out = {}
    for name, old in before.items():
        a, b = old.decode().splitlines(), after[name].decode().splitlines()
        assert len(a) == len(b), name
        changed = [f"{x.strip()} → {y.strip()}" for x, y in zip(a, b, strict=True) if x != y]
        if changed:
            out[name] = changed
    return out


def _import(project: Path, file: Path, capsys, *extra: str) -> tuple[int, str]:
    code = main(["--project", str(project), "sheet", "import", str(file), *extra])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _column(rows: list[list], name: str) -> int:
    return [str(v) for v in rows[0]].index(name)


def test_export_holds_the_data_read_by_an_independent_reader(project):
    folder = _export(project)
    for name in ("cards.ods", "cards.xlsx"):
        book = calamine.CalamineWorkbook.from_path(str(folder / name))
        assert book.sheet_names == ["starters", "market", "events", "places", "about"]
        rows = book.get_sheet_by_name("starters").to_python()
        charles = next(r for r in rows if r[0] == "charles-iv")
        assert charles[_column(rows, "political")] == 3
        assert charles[_column(rows, "deed.place_influence.amount")] == 2
        assert charles[_column(rows, "boost.cost")] == "church, church"
        assert charles[_column(rows, "deed.text.en")] == "Place 2 influence in Bohemia. Draw 1 card."
        places = book.get_sheet_by_name("places").to_python()
        trier = next(r for r in places if r[0] == "trier")
        assert trier[_column(places, "stability")] == 3
        events = book.get_sheet_by_name("events").to_python()
        assert {r[0] for r in events[1:]} >= {"dream-at-terenzo", "coronation-in-rome"}
    market = list(csv.reader(io.StringIO((folder / "cards-market.csv").read_text("utf-8"))))
    assert len(market) - 1 == len(book.get_sheet_by_name("market").to_python()) - 1


def test_xlsx_freezes_the_header_validates_ranges_marks_prototypes_and_notes_findings(project):
    gathered, _ = load_project(project)
    found = warning("art-placeholder", "a test finding", location=Location(
        "card_data/cards/luxembourg.yaml", 10, 16), card="charles-iv")
    from cardgen.sheet.xlsx import xlsx_bytes
    book = openpyxl.load_workbook(io.BytesIO(xlsx_bytes(tables(gathered.data, [found]))))
    sheet = book["starters"]
    header = [c.value for c in sheet[1]]
    political = sheet.cell(2, header.index("political") + 1)
    assert sheet.freeze_panes == "B2"
    assert "a test finding" in political.comment.text
    assert political.fill.start_color.rgb.endswith("FFF2CC")  # prototype: true
    rules = {(v.formula1, v.formula2) for v in sheet.data_validations.dataValidation
             if political.coordinate in v.sqref}
    assert rules == {("0", "9")}  # ranges.card.political in the rule schema
    assert sheet.column_dimensions["A"].width >= len("elizabeth-of-bohemia")


def test_export_is_the_same_bytes_each_time(project):
    folder = _export(project)
    first = {p.name: p.read_bytes() for p in folder.iterdir()}
    _export(project)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == first
    for name in ("cards.ods", "cards.xlsx"):
        with zipfile.ZipFile(folder / name) as package:
            assert {i.date_time for i in package.infolist()} == {EPOCH}
    assert b"2000-01-01T00:00:00Z</dcterms:modified>" in zipfile.ZipFile(
        folder / "cards.xlsx").read("docProps/core.xml")


@pytest.mark.parametrize("name", ["cards.ods", "cards.xlsx", "cards-market.csv", "places.csv"])
def test_an_unchanged_file_writes_nothing(project, capsys, name, exported):
    folder = exported
    before = _card_data(project)
    code, out = _import(project, folder / name, capsys)
    assert code == 0 and "no value changed" in out
    assert _card_data(project) == before


def _edit_xlsx(src: Path, dest: Path, edits: list[tuple[str, str, str, object]]) -> None:
    """Save ``src`` as ``dest`` with each (sheet, card id, column, value) set, through
    openpyxl, as an office suite saves a workbook."""
    book = openpyxl.load_workbook(src)
    for sheet, card, column, value in edits:
        rows = book[sheet]
        header = [c.value for c in rows[1]]
        row = next(r for r in rows.iter_rows(min_row=2) if r[0].value == card)
        row[header.index(column)].value = value
    book.save(dest)


def test_political_3_to_4_in_xlsx_changes_exactly_that_line(project, capsys, tmp_path, exported):
    folder = exported
    before = _card_data(project)
    _edit_xlsx(folder / "cards.xlsx", tmp_path / "edited.xlsx",
               [("starters", "charles-iv", "political", 4)])
    code, out = _import(project, tmp_path / "edited.xlsx", capsys)
    assert code == 0, out
    assert "card_data/cards/luxembourg.yaml:10: cards.charles-iv.political 3 → 4" in out
    assert _changed_lines(before, _card_data(project)) == {
        "card_data/cards/luxembourg.yaml": ["political: 3 → political: 4"]}


def test_five_values_change_five_lines_and_the_texts_saying_them(project, capsys, tmp_path, exported):
    folder = exported
    before = _card_data(project)
    _edit_xlsx(folder / "cards.xlsx", tmp_path / "edited.xlsx", [
        ("starters", "charles-iv", "deed.place_influence.amount", 3),
        ("starters", "charles-iv", "military", 1),
        ("starters", "louis-iv", "political", 4),
        ("market", "philip-vi", "cost", "western, western, western"),
        ("places", "saxony", "stability", 3)])
    code, out = _import(project, tmp_path / "edited.xlsx", capsys)
    assert code == 0, out
    changed = _changed_lines(before, _card_data(project))
    assert changed.pop("card_data/cards/luxembourg.yaml") == [
        "military: 2 → military: 1",
        "- {op: place_influence, amount: 2, where: bohemia} → - {op: place_influence, amount: 3, "
        "where: bohemia}",
        'en: "Place 2 influence in Bohemia. Draw 1 card." → en: "Place 3 influence in Bohemia. '
        'Draw 1 card."',
        'cs: "Umísti 2\u00a0vlivu do Čech. Lízni 1\u00a0kartu." → cs: "Umísti 3\u00a0vlivu do Čech. '
        'Lízni 1\u00a0kartu."']  # the Czech keeps its non-breaking spaces
    assert changed.pop("card_data/cards/wittelsbach.yaml") == ["political: 3 → political: 4"]
    assert changed.pop("card_data/cards/market.yaml") == [
        "cost: [western, western, western, church] → cost: [western, western, western]"]
    assert changed.pop("card_data/places.yaml") == ["stability: 2 → stability: 3"]
    assert list(changed) == ["card_data/text/cs-state.yaml"]  # the Czech moved with its English
    assert main(["--project", str(project), "check"]) == 0
    assert "0 fuzzy" in capsys.readouterr().out


@pytest.mark.parametrize("delimiter", [",", ";"])  # ';': an office suite with decimal commas
def test_political_3_to_4_in_csv_changes_exactly_that_line(project, capsys, tmp_path, delimiter, exported):
    folder = exported
    before = _card_data(project)
    rows = list(csv.reader(io.StringIO((folder / "cards-starters.csv").read_text("utf-8"))))
    next(r for r in rows if r[0] == "charles-iv")[rows[0].index("political")] = "4"
    edited = tmp_path / "cards-starters.csv"
    with edited.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, delimiter=delimiter).writerows(rows)  # the csv module's \r\n line ends
    code, out = _import(project, edited, capsys, "--dry-run")
    assert code == 0 and "cards.charles-iv.political 3 → 4" in out and "would write 1" in out
    assert _card_data(project) == before
    code, out = _import(project, edited, capsys)
    assert code == 0, out
    assert _changed_lines(before, _card_data(project)) == {
        "card_data/cards/luxembourg.yaml": ["political: 3 → political: 4"]}


def test_an_edit_in_ods_is_read_back(project, capsys, tmp_path, exported):
    from odf.opendocument import load
    from odf.table import Table, TableCell, TableRow
    from odf.text import P
    folder = exported
    before = _card_data(project)
    doc = load(str(folder / "cards.ods"))
    sheet = next(t for t in doc.spreadsheet.getElementsByType(Table)
                 if t.getAttribute("name") == "places")
    rows = sheet.getElementsByType(TableRow)
    header = [str(c) for c in rows[0].getElementsByType(TableCell)]
    trier = next(r for r in rows if str(r.getElementsByType(TableCell)[0]) == "trier")
    cell = trier.getElementsByType(TableCell)[header.index("stability")]
    cell.setAttribute("value", "4")
    cell.removeChild(cell.getElementsByType(P)[0])
    cell.addElement(P(text="4"))
    doc.save(str(tmp_path / "edited.ods"))
    code, out = _import(project, tmp_path / "edited.ods", capsys)
    assert code == 0, out
    assert _changed_lines(before, _card_data(project)) == {
        "card_data/places.yaml": ["stability: 3 → stability: 4"]}


def _csv_with(folder: Path, tmp_path: Path, change) -> Path:
    rows = list(csv.reader(io.StringIO((folder / "cards-market.csv").read_text("utf-8"))))
    change(rows)
    path = tmp_path / "cards-market.csv"
    with path.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)
    return path


def _set(column: str, value: str, row: int = 1):
    def change(rows: list[list[str]]) -> None:
        rows[row][rows[0].index(column)] = value
    return change


def _new_row(rows: list[list[str]], **cells: str) -> list[str]:
    """A copy of the first card's row as a new card: its own id, next number and names."""
    new = dict(zip(rows[0], rows[1], strict=True))
    cards = load_project(Path(__file__).parent.parent)[0].data.cards
    number = next_free_number(cards, new["deck"])
    new.update({"id": "new-card", "number": str(number), "name.en": "Count of Tyrol",
                "name.cs": "Hrabě tyrolský"}, **cells)
    return [new[c] for c in rows[0]]


def test_a_full_added_row_adds_the_card_and_check_passes(project, capsys, tmp_path, exported):
    edited = _csv_with(exported, tmp_path, lambda r: r.append(_new_row(r, political="2")))
    before = _card_data(project)
    code, out = _import(project, edited, capsys, "--dry-run")
    assert code == 0 and "would add new-card" in out and _card_data(project) == before, out
    code, out = _import(project, edited, capsys)
    assert code == 0, out
    assert "wrote card_data/cards/" in out and "new-card" in out, out
    data = load_project(project)[0].data
    card = next(c for c in data.cards if c.id == "new-card")
    assert (card.name.get("en"), card.political) == ("Count of Tyrol", 2)
    # the count the rulebook fixes is the one fact the import said to confirm, and the
    # one error `check` finds (rule 3.42's 44 market cards)
    assert "to confirm:" in out and "counts.market_cards" in out, out
    code, report = main(["--project", str(project), "check"]), capsys.readouterr().out
    errors = [ln for ln in report.splitlines() if "error[" in ln]
    assert len(errors) == 1 and "error[rule-fact]: counts.market_cards" in errors[0], report


def _letter(rows: list[list[str]], column: str) -> str:
    return cell_name(0, rows[0].index(column)).removesuffix("1")


ERRORS = {
    "unknown column": (lambda rows: rows[0].__setitem__(rows[0].index("military"), "militray"),
                       "military", 1, "sheet-column", "column 'militray' is unknown"),
    "deleted column": (lambda rows: [r.pop(rows[0].index("copies")) for r in rows[::-1]],
                       "passive.text.cs", 1, "sheet-column", "column 'copies' is missing"),
    "renamed id": (_set("id", "pope-benedict"), "id", 2, "sheet-id",
                   "'pope-benedict' is no id of a market card"),
    "out of range": (_set("political", "12"), "political", 2, "sheet-range",
                     "political 12 of "),
    "not a number": (_set("political", "three"), "political", 2, "sheet-value",
                     "is \"three\", not a whole number"),
    "read-only text": (_set("deed.text.en", "Gain 9 coins."), "deed.text.en", 2, "sheet-readonly",
                       "deed.text.en of "),
    "row added with a taken number": (lambda rows: rows.append(["new-card", *rows[1][1:]]),
                                      "number", None, "sheet-row",
                                      "the added row 'new-card' has number"),
    "row added without its Czech name": (
        lambda rows: rows.append(_new_row(rows, **{"name.cs": ""})), "name.cs", None,
        "sheet-row", "the added row 'new-card' lacks name.cs"),
    "row deleted": (lambda rows: rows.pop(2), "id", 3, "sheet-row", "was deleted"),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_each_strict_error_is_at_its_cell_and_writes_nothing(project, capsys, tmp_path, case, exported):
    change, column, row, code_name, message = ERRORS[case]
    folder = exported
    rows = list(csv.reader(io.StringIO((folder / "cards-market.csv").read_text("utf-8"))))
    # a valid edit too, which must not be written either
    edited = _csv_with(folder, tmp_path, lambda r: (_set("military", "1", 4)(r), change(r)))
    before = _card_data(project)
    code, out = _import(project, edited, capsys)
    cell = f"market!{_letter(rows, column)}{row if row is not None else len(rows) + 1}"
    assert code == 1
    assert f"{cell}: error[{code_name}]" in out and message in out, out
    assert _card_data(project) == before


@pytest.mark.parametrize("name", ["cards.ods", "cards.xlsx"])
def test_a_package_unpacking_past_its_wall_is_refused_unread(project, capsys, monkeypatch, name, exported):
    from cardgen.sheet import importer
    folder = exported
    monkeypatch.setattr(importer, "MAX_UNPACKED", 10_000)  # the export unpacks to more
    code, out = _import(project, folder / name, capsys)
    assert code == 1 and f"{name}: error[sheet-file]" in out and "more than 10000" in out, out


def test_an_entity_expansion_bomb_in_an_ods_is_refused(project, capsys, tmp_path):
    entities = "".join(f'<!ENTITY e{i} "{("&e" + str(i - 1) + ";") * 10 if i else "x" * 10}">'
                       for i in range(10))
    bomb = tmp_path / "cards.ods"
    with zipfile.ZipFile(bomb, "w") as package:
        package.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        package.writestr("content.xml", f'<?xml version="1.0"?><!DOCTYPE d [{entities}]><d>&e9;</d>')
    code, out = _import(project, bomb, capsys)
    assert code == 1 and "cards.ods: error[sheet-file]" in out, out


def test_a_file_exported_before_card_data_changed_is_refused(project, capsys, exported):
    lux = project / "card_data/cards/luxembourg.yaml"
    lux.write_text(lux.read_text("utf-8").replace("political: 3", "political: 5", 1), "utf-8")
    before = _card_data(project)
    code, out = _import(project, exported / "cards.xlsx", capsys)  # would write 3 back
    assert code == 1 and "about!B3: error[sheet-stale]: card_data/ changed since" in out, out
    assert _card_data(project) == before


def test_a_file_may_be_imported_again_after_more_edits(project, capsys, tmp_path, exported):
    first, second = tmp_path / "first.xlsx", tmp_path / "second.xlsx"
    _edit_xlsx(exported / "cards.xlsx", first, [("starters", "charles-iv", "political", 4)])
    _edit_xlsx(first, second, [("starters", "charles-iv", "military", 1)])
    assert _import(project, first, capsys)[0] == 0
    code, out = _import(project, second, capsys)  # the same export, edited further
    assert code == 0 and "cards.charles-iv.military 2 → 1" in out and "political" not in out, out
    lux = project / "card_data/cards/luxembourg.yaml"
    lux.write_text(lux.read_text("utf-8").replace("political: 4", "political: 5", 1), "utf-8")
    code, out = _import(project, second, capsys)  # card_data/ edited since: stale again
    assert code == 1 and "error[sheet-stale]" in out


def test_a_sheet_missing_from_a_workbook_is_an_error(project, capsys, tmp_path, exported):
    folder = exported
    book = openpyxl.load_workbook(folder / "cards.xlsx")
    del book["events"]
    book.save(tmp_path / "short.xlsx")
    code, out = _import(project, tmp_path / "short.xlsx", capsys)
    assert code == 1 and "events!A1: error[sheet-file]: sheet 'events' is missing" in out


#: LibreOffice's CSV filter: comma, double quotes, UTF-8 (76), every sheet to its own file (-1).
EVERY_SHEET_AS_CSV = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"


def _soffice(target: str, outdir: Path, *sources: Path) -> None:
    """One LibreOffice run converting every source (its start costs about a second)."""
    profile = outdir.parent / "lo-profile"  # one for the test's runs: made once
    subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless",
                    "--convert-to", target, "--outdir", str(outdir), *map(str, sources)],
                   check=True, capture_output=True, timeout=300)


@pytest.mark.skipif(shutil.which("soffice") is None,
                    reason="LibreOffice (soffice) is not installed: the headless read-back "
                    "test runs where it is")
def test_libreoffice_reads_the_same_values_and_its_saves_import_unchanged(
        project, tmp_path, capsys, exported):
    from cardgen.sheet.ods import ods_bytes
    folder = exported
    before = _card_data(project)
    shutil.copy(folder / "cards.ods", tmp_path / "a.ods")
    shutil.copy(folder / "cards.xlsx", tmp_path / "b.xlsx")
    _soffice(EVERY_SHEET_AS_CSV, tmp_path / "csv", tmp_path / "a.ods", tmp_path / "b.xlsx")
    for stem in ("a", "b"):
        for sheet in ("starters", "market", "events", "places"):
            ours = folder / (f"{sheet}.csv" if sheet == "places" else f"cards-{sheet}.csv")
            got = tmp_path / "csv" / f"{stem}-{sheet}.csv"
            assert got.read_bytes() == ours.read_bytes(), (stem, sheet)
    found = warning("art-placeholder", "a test finding", location=Location(
        "card_data/cards/luxembourg.yaml", 10, 16), card="charles-iv")
    noted = tmp_path / "noted.ods"
    noted.write_bytes(ods_bytes(tables(load_project(project)[0].data, [found])))
    _soffice("xlsx", tmp_path / "xlsx", folder / "cards.ods", noted)  # saved again by LibreOffice
    _soffice("ods", tmp_path / "ods", folder / "cards.xlsx")
    for saved in (tmp_path / "xlsx" / "cards.xlsx", tmp_path / "ods" / "cards.ods"):
        code, said = _import(project, saved, capsys)
        assert code == 0 and "no value changed" in said, said
    assert _card_data(project) == before
    # the ODS's validation and notes as LibreOffice understands them (it writes them to XLSX)
    sheet = openpyxl.load_workbook(tmp_path / "xlsx" / "noted.xlsx")["starters"]
    political = sheet.cell(2, [c.value for c in sheet[1]].index("political") + 1)
    assert "a test finding" in political.comment.text
    assert {(v.type, v.formula1, v.formula2) for v in sheet.data_validations.dataValidation
            if political.coordinate in v.sqref} == {("whole", "0", "9")}


def test_diff_lists_each_value_change_since_a_revision(project, capsys):
    git = ["git", "-C", str(project), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "card_data"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "data"], check=True)
    lux = project / "card_data/cards/luxembourg.yaml"
    lux.write_text(lux.read_text("utf-8").replace("political: 3", "political: 4", 1), "utf-8")
    places = project / "card_data/places.yaml"
    places.write_text(places.read_text("utf-8").replace("stability: 4", "stability: 5", 1), "utf-8")
    assert main(["--project", str(project), "diff", "HEAD"]) == 0
    out = capsys.readouterr().out
    assert "charles-iv political 3 → 4 (card_data/cards/luxembourg.yaml:10)" in out
    assert "mainz stability 4 → 5 (card_data/places.yaml:14)" in out
    assert "2 value changes since HEAD" in out
    report = (project / "output/diff/changes.json").read_text("utf-8")
    assert '"column": "political"' in report and '"old": 3' in report
    assert "- charles-iv political 3 → 4" in (project / "output/diff/changes.md").read_text("utf-8")


def test_without_the_sheet_extra_the_export_says_how_to_install_it(project, capsys, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "odf", None)  # as if odfpy were not installed
    assert main(["--project", str(project), "sheet", "export"]) == 2
    err = capsys.readouterr().err
    assert "error[sheet-setup]: the spreadsheet export needs odf" in err and ".[sheet]" in err
