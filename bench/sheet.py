"""Spreadsheet benchmark: `python bench/sheet.py [--scale N]`.

In a copy of the project (or of bench/scale.py's N-times deck), as a user would: `cardgen
sheet export` cold (no output/ yet: the check it runs fits every card) and again warm, then
`cardgen sheet import` of each unchanged file (ODS, XLSX, one CSV) and of an XLSX with one
political value changed (openpyxl, as a user's office suite saves it). Records wall and CPU
seconds of each step (the process tree) and the load average (bench/README.md).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.balance import _cardgen  # noqa: E402  (the repository root is on the path now)
from bench.measure import print_result  # noqa: E402
from bench.run import PARTS  # noqa: E402
from bench.scale import make_scaled_project  # noqa: E402


def _edited(src: Path, dest: Path) -> None:
    from openpyxl import load_workbook
    book = load_workbook(src)
    sheet = book["starters"]
    header = [c.value for c in sheet[1]]
    cell = sheet.cell(2, header.index("political") + 1)
    cell.value = (cell.value + 1) % 10
    book.save(dest)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=1)
    args = ap.parse_args()
    load_before = os.getloadavg()
    result: dict[str, object] = {"scale": args.scale}
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-") as tmp:
        project = Path(tmp) / "project"
        if args.scale > 1:
            make_scaled_project(project, args.scale)
        else:
            for part in PARTS:
                if (ROOT / part).is_dir():
                    shutil.copytree(ROOT / part, project / part)
        sheet = project / "output" / "sheet"
        for name, step in (("export cold", ("sheet", "export")), ("export warm", ("sheet", "export")),
                           ("import ods", ("sheet", "import", str(sheet / "cards.ods"))),
                           ("import xlsx", ("sheet", "import", str(sheet / "cards.xlsx"))),
                           ("import csv", ("sheet", "import", str(sheet / "cards-market.csv")))):
            wall, cpu, _ = _cardgen(project, *step)
            result[f"{name} wall s"], result[f"{name} CPU s"] = wall, cpu
        _edited(sheet / "cards.xlsx", Path(tmp) / "edited.xlsx")
        wall, cpu, out = _cardgen(project, "sheet", "import", str(Path(tmp) / "edited.xlsx"))
        result["import one change wall s"], result["import one change CPU s"] = wall, cpu
        result["bytes ods / xlsx"] = (f"{(sheet / 'cards.ods').stat().st_size} / "
                                      f"{(sheet / 'cards.xlsx').stat().st_size}")
    result["load average before / after"] = f"{load_before[0]:.1f} / {os.getloadavg()[0]:.1f}"
    print(out, end="", file=sys.stderr)
    print_result(result)


if __name__ == "__main__":
    main()
