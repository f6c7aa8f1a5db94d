"""Build benchmark: `python bench/run.py [--scale 1,5,20] [--repeat N] [--json FILE]`.

For each scale it makes a project (1: a copy of the project's card_data/, layouts/, fonts/
and art/; N > 1: `python bench/scale.py --scale N --out DIR`, the deck N times the size) and
times `cardgen build` there, each run a fresh process as a user would start it:

* cold: full build of both languages into an empty output/
* no-change: the same build again
* one-card-cs: after one card's Czech text changed (deed name of charles-iv)
* one-layout-value: after one value of layouts/card.yaml changed (text panel opacity)

Every measure is the median of ``--repeat`` runs, in wall seconds and in CPU seconds of the
whole process tree (the build, its workers and the tools they run: getrusage of the
children). Beside them: pages written per second, the peak memory of the build's process
tree (sampled sum of RSS, and the largest single process), the load average, and the floor
(bench/floor.py): the cold build's own canvas operations, recorded once, replayed through
bare ReportLab into the same PDFs; the ratios cold / floor in wall and in CPU time.
``--old-floor`` also times the earlier floor (one image and one paragraph per page) for
comparison. Prints a Markdown table and the same numbers as JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.measure import children_cpu, run_measured

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("card_data", "layouts", "fonts", "art")
CARD_FILE = Path("card_data/cards/luxembourg.yaml")
# (no closing brace: bench/scale.py writes the scaled cards in block style)
CS_OLD = "cs: Otec vlasti"
# a different Czech deed name each run, never the original one
CS_VARIANTS = ["cs: Otec vlasti a říše", "cs: Otec říše", "cs: Otec Čech", "cs: Otec národa"]
LAYOUT_OLD, LAYOUT_NEW = "panel_opacity: 0.92", "panel_opacity: 0.9"


def run_build(project: Path) -> tuple[float, float, tuple[int, int]]:
    """Wall and CPU seconds of one `cardgen build --quiet` and the peak RSS and PSS sums of
    its process tree."""
    cmd = [sys.executable, "-m", "cardgen.cli", "--project", str(project), "build", "--quiet"]
    run = run_measured(cmd, _env())
    if run.code != 0:
        raise SystemExit(f"build failed ({run.code}):\n{run.out.decode()}{run.err.decode()}")
    return run.seconds, run.cpu, (run.peak_rss, run.peak_pss)


def _env() -> dict[str, str]:
    """This checkout's cardgen first, whatever is installed; its bytecode cached as an
    installed package's is (PYTHONDONTWRITEBYTECODE would compile every module on every run,
    about 0.2 s a start that no user pays)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}


def pdf_pages(path: Path) -> int:
    data = path.read_bytes()
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", data))


class Missing(Exception):
    """The text an edit measure changes is not in this project (update bench/run.py)."""


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    if old not in text:
        raise Missing(f"{old!r} not found in {path}")
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# --- the floors ----------------------------------------------------------------------------

def honest_floor(log: Path, out: Path) -> tuple[float, float]:
    """Wall and CPU seconds of bench/floor.py replaying ``log`` into ``out`` (less the time
    it takes to read the log, which is not drawing)."""
    shutil.rmtree(out, ignore_errors=True)
    cpu = children_cpu()
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "floor.py"), "replay", str(log),
                           str(out)], capture_output=True, text=True, env=_env())
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu
    if proc.returncode != 0:
        raise SystemExit(f"floor replay failed:\n{proc.stdout}{proc.stderr}")
    load = json.loads(proc.stdout.strip().splitlines()[-1])
    return wall - load["load_wall_s"], cpu - load["load_cpu_s"]


def record_floor(project: Path, work: Path) -> Path:
    """Record a cold build of a copy of ``project`` (bench/floor.py record); returns the log."""
    copy = work / "recorded"
    shutil.copytree(project, copy, ignore=shutil.ignore_patterns("output"))
    log = work / "floor.pickle"
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "floor.py"), "record", str(copy),
                           str(log)], capture_output=True, text=True, env=_env())
    if proc.returncode != 0:
        raise SystemExit(f"floor record failed:\n{proc.stdout}{proc.stderr}")
    return log


def old_floor(project: Path, files: int, pages: int) -> tuple[float, float]:
    """The earlier floor: bare ReportLab writing ``files`` PDFs with ``pages`` pages in total,
    each page one art image and one paragraph (far less drawing than the build's)."""
    code = f"""
import io, sys, time
from pathlib import Path
from PIL import Image
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph
sys.path.insert(0, {str(ROOT)!r})
from bench.run import art_image, card_texts
project = Path({str(project)!r})
start = time.perf_counter()
pdfmetrics.registerFont(TTFont("Body", str(project / "fonts" / "CharisSIL-Regular.ttf")))
art = art_image(project)
texts = card_texts(project)
style = ParagraphStyle("t", fontName="Body", fontSize=8, leading=9.6)
w, h = 69 * mm, 94 * mm
files, pages, n = {files}, {pages}, 0
for f in range(files):
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w, h), invariant=1, pageCompression=1)
    reader = ImageReader(io.BytesIO(art))
    for _ in range(pages // files + (1 if f < pages % files else 0)):
        c.drawImage(reader, 7 * mm, 45 * mm, 55 * mm, 36.7 * mm)
        p = Paragraph(texts[n % len(texts)], style)
        p.wrapOn(c, 53 * mm, 40 * mm)
        p.drawOn(c, 8 * mm, 8 * mm)
        c.showPage()
        n += 1
    c.save()
    Path("/dev/null").write_bytes(buf.getvalue())
print(time.perf_counter() - start)
"""
    cpu = children_cpu()
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return time.perf_counter() - start, children_cpu() - cpu


def art_image(project: Path) -> bytes:
    """The first art file of the project, or a synthetic one at print size (55×36.7 mm, 300 ppi)."""
    from PIL import Image, ImageDraw

    for path in sorted((project / "art").glob("*")):
        if path.suffix.lower() in (".png", ".jpg", ".jpeg"):
            return path.read_bytes()
    img = Image.new("RGB", (650, 433), "#d9ccb0")
    draw = ImageDraw.Draw(img)
    for k in range(0, 650 + 433, 40):
        draw.line([(k, 0), (k - 433, 433)], fill="#8e1c1f", width=14)
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=92)
    return buf.getvalue()


def card_texts(project: Path) -> list[str]:
    texts = []
    for path in sorted((project / "card_data" / "cards").glob("*.yaml")):
        texts += re.findall(r'^\s+(?:en|cs): "(.+)"\s*$', path.read_text(encoding="utf-8"), re.M)
    return [t.replace("&", "&amp;").replace("<", "&lt;") for t in texts] or ["Draw 1 card."]



# --- main ----------------------------------------------------------------------------------

def make_project(scale: int, dest: Path) -> Path:
    """The project at ``scale``: a copy of this one (1) or bench/scale.py's N-fold deck."""
    if scale == 1:
        for part in PARTS:
            if (ROOT / part).is_dir():
                shutil.copytree(ROOT / part, dest / part)
        return dest
    script = ROOT / "bench" / "scale.py"
    if not script.is_file():
        raise SystemExit(f"bench: --scale {scale} needs bench/scale.py (the deck generator)")
    subprocess.run([sys.executable, str(script), "--scale", str(scale), "--out", str(dest)],
                   check=True, env=_env())
    return dest


def _median(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    return (round(statistics.median(p[0] for p in pairs), 3),
            round(statistics.median(p[1] for p in pairs), 3))


def bench_scale(scale: int, repeat: int, tmp: Path, with_old_floor: bool,
                cold_only: bool = False) -> dict:
    """Every measure at one scale (medians of ``repeat`` runs); ``cold_only``: the cold build
    and the floor only."""
    load_before = os.getloadavg()
    project = make_project(scale, tmp / f"x{scale}" / "project")
    peaks: list[tuple[int, int]] = []
    results: dict[str, tuple[float, float] | None] = {}

    def measure(name: str, prepare=None) -> None:
        if cold_only and name != "cold":
            results[name] = None
            return
        runs = []
        try:
            for _ in range(repeat):
                if prepare:
                    prepare()
                wall, cpu, peak = run_build(project)
                runs.append((wall, cpu))
                peaks.append(peak)
        except Missing as exc:
            print(f"bench: {name} skipped at {scale}x: {exc}", file=sys.stderr)
            results[name] = None
            return
        results[name] = _median(runs)

    measure("cold", lambda: shutil.rmtree(project / "output", ignore_errors=True))
    pdfs = sorted((project / "output").rglob("*.pdf"))
    pages = sum(pdf_pages(p) for p in pdfs)
    measure("no_change")
    cards_pdf = project / "output" / "cs" / "cards.pdf"
    before = cards_pdf.read_bytes()
    current = [CS_OLD]

    def change_text() -> None:  # a different Czech text each run
        new = CS_VARIANTS[len(current) % len(CS_VARIANTS)]
        edit(project / CARD_FILE, current[-1], new)
        current.append(new)

    measure("one_card_cs", change_text)
    if results.get("one_card_cs") is not None and cards_pdf.read_bytes() == before:
        raise SystemExit("bench: the Czech text change did not reach output/cs/cards.pdf")
    layout_state = {"on": False}

    def change_layout() -> None:
        old, new = (LAYOUT_NEW, LAYOUT_OLD) if layout_state["on"] else (LAYOUT_OLD, LAYOUT_NEW)
        edit(project / "layouts" / "card.yaml", old, new)
        layout_state["on"] = not layout_state["on"]

    measure("one_layout_value", change_layout)
    # the recorded build draws the project as it was (an edit left as is is no harm)
    for path, old, new in ((CARD_FILE, current[-1], CS_OLD),
                           (Path("layouts/card.yaml"), LAYOUT_NEW, LAYOUT_OLD)):
        with contextlib.suppress(Missing):
            edit(project / path, old, new)
    log = record_floor(project, tmp / f"x{scale}")
    replayed = tmp / f"x{scale}" / "floor-out"
    floor = _median([honest_floor(log, replayed) for _ in range(repeat)])
    floor_files = sorted(replayed.glob("*.pdf"))
    if len(floor_files) != len(pdfs) or sum(pdf_pages(p) for p in floor_files) != pages:
        raise SystemExit(f"bench: the floor wrote {len(floor_files)} PDFs, the build {len(pdfs)}")
    cold = results["cold"]
    assert cold is not None
    report = {
        "scale": scale,
        **{f"{name}_s": value for name, value in results.items()},  # [wall, cpu]
        "pdf_files": len(pdfs),
        "pages": pages,
        "pages_per_s": round(pages / cold[0], 1),
        "peak_tree_rss_mb": round(max(p[0] for p in peaks) / 2**20, 1),
        "peak_tree_pss_mb": round(max(p[1] for p in peaks) / 2**20, 1),
        "floor_s": floor,
        "cold_over_floor": [round(cold[0] / floor[0], 2), round(cold[1] / floor[1], 2)],
        "load_avg": [round(v, 2) for v in (*load_before[:1], *os.getloadavg()[:1])],
    }
    if with_old_floor:
        report["old_floor_s"] = _median([old_floor(project, len(pdfs), pages)
                                         for _ in range(repeat)])
        report["cold_over_old_floor"] = [round(cold[i] / report["old_floor_s"][i], 2)
                                         for i in (0, 1)]
    shutil.rmtree(tmp / f"x{scale}", ignore_errors=True)
    return report


def _cell(value: list[float] | tuple[float, float] | None, unit: str = "s") -> str:
    if value is None:
        return "–"
    return f"{value[0]:.2f} / {value[1]:.2f}" + (f" {unit}" if unit else "")


def table(reports: list[dict]) -> str:
    """The reports as one Markdown table, a column per scale."""
    rows: list[tuple[str, list[str]]] = [
        ("cold full build (en+cs, every output), wall / CPU", [_cell(r["cold_s"]) for r in reports]),
        ("no-change rebuild, wall / CPU", [_cell(r["no_change_s"]) for r in reports]),
        ("one card's Czech text changed, wall / CPU", [_cell(r["one_card_cs_s"]) for r in reports]),
        ("one layout value changed, wall / CPU",
         [_cell(r["one_layout_value_s"]) for r in reports]),
        ("floor: the build's drawing replayed by bare ReportLab, wall / CPU",
         [_cell(r["floor_s"]) for r in reports]),
        ("cold build / floor, wall / CPU", [_cell(r["cold_over_floor"], "") for r in reports]),
    ]
    if all("old_floor_s" in r for r in reports):
        rows += [("old floor: one image + one paragraph per page, wall / CPU",
                  [_cell(r["old_floor_s"]) for r in reports]),
                 ("cold build / old floor, wall / CPU",
                  [_cell(r["cold_over_old_floor"], "") for r in reports])]
    rows += [
        ("PDFs, pages", [f"{r['pdf_files']}, {r['pages']}" for r in reports]),
        ("pages written per second (cold, wall)", [f"{r['pages_per_s']:.0f}" for r in reports]),
        ("peak memory, process tree (sampled RSS sum)",
         [f"{r['peak_tree_rss_mb']:.0f} MB" for r in reports]),
        ("peak memory, process tree (sampled PSS sum: shared pages counted once)",
         [f"{r.get('peak_tree_pss_mb', 0):.0f} MB" for r in reports]),
        ("load average (1 min) before / after", [f"{r['load_avg'][0]:.1f} / {r['load_avg'][1]:.1f}"
                                                 for r in reports]),
    ]
    head = ["measure", *[f"{r['scale']}×" for r in reports]]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join([name, *cells]) + " |" for name, cells in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", default="1", help="deck sizes, comma-separated (default 1)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per measurement (median)")
    ap.add_argument("--old-floor", action="store_true", help="also time the earlier floor")
    ap.add_argument("--cold-only", action="store_true",
                    help="only the cold build and the floor (no rebuilds after edits)")
    ap.add_argument("--json", type=Path, help="also write the JSON here")
    args = ap.parse_args(argv)
    try:
        scales = [int(s) for s in args.scale.split(",")]
    except ValueError:
        ap.error(f"--scale takes whole numbers separated by commas, not {args.scale!r}")
    tmp = Path(tempfile.mkdtemp(prefix="cardgen-bench-"))
    try:
        reports = [bench_scale(n, args.repeat, tmp, args.old_floor, args.cold_only)
                   for n in scales]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(table(reports))
    emit_json({"repeat": args.repeat, "cpus": len(os.sched_getaffinity(0)), "scales": reports},
              args.json)
    return 0


def emit_json(doc: object, path: Path | None) -> None:
    """Print a benchmark's results as JSON, and write them to ``path`` when given."""
    text = json.dumps(doc, indent=1)
    print(text)
    if path:
        path.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
