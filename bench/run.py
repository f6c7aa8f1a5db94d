"""Build benchmark: `python bench/run.py [--repeat N] [--json FILE]`.

Copies the project's inputs (card_data/, layouts/, fonts/, art/) to a temporary folder and
times `cardgen build` there, each run a fresh process as a user would start it:

* cold: full build of both languages into an empty output/
* no-change: the same build again
* one-card-cs: after one card's Czech text changed (deed name of charles-iv)
* one-layout-value: after one value of layouts/card.yaml changed (text panel opacity)

plus pages written per second (cold), the peak memory of the build's process tree (sampled
sum of the RSS of the build and its workers, and getrusage RUSAGE_CHILDREN maxrss, the
largest single process), and a floor: a bare ReportLab script that writes the same number
of PDF files and pages, each page with one embedded art image and one paragraph of card
text in the card font. Prints a Markdown table and the same numbers as JSON.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("card_data", "layouts", "fonts", "art")
CARD_FILE = Path("card_data/cards/luxembourg.yaml")
CS_OLD = "cs: Otec vlasti}"
# a different Czech deed name each run, never the original one
CS_VARIANTS = ["cs: Otec vlasti a říše}", "cs: Otec říše}", "cs: Otec Čech}", "cs: Otec národa}"]
LAYOUT_OLD, LAYOUT_NEW = "panel_opacity: 0.92", "panel_opacity: 0.9"


def _tree_rss(pid: int) -> int:
    """Sum of VmRSS (bytes) of pid and all its descendants."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
                        break
            with open(f"/proc/{p}/task/{p}/children") as fh:
                todo += [int(c) for c in fh.read().split()]
        except (OSError, ValueError):
            continue
    return total


def run_build(project: Path) -> tuple[float, int]:
    """Wall time of one `cardgen build --quiet` and the peak RSS sum of its process tree."""
    cmd = [sys.executable, "-m", "cardgen.cli", "--project", str(project), "build", "--quiet"]
    peak = [0]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _tree_rss(proc.pid))
            done.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate()
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    if proc.returncode != 0:
        raise SystemExit(f"build failed ({proc.returncode}):\n{out.decode()}{err.decode()}")
    return seconds, peak[0]


def pdf_pages(path: Path) -> int:
    data = path.read_bytes()
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", data))


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    if old not in text:
        raise SystemExit(f"bench: {old!r} not found in {path}; update bench/run.py")
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# --- the floor ---------------------------------------------------------------------------

def floor(project: Path, files: int, pages: int) -> float:
    """Seconds for bare ReportLab to write ``files`` PDFs with ``pages`` pages in total."""
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
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    del out
    return time.perf_counter() - start


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

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=1, help="runs per measurement (median)")
    ap.add_argument("--json", type=Path, help="also write the JSON here")
    ap.add_argument("--keep", action="store_true", help="keep the temporary project")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="cardgen-bench-"))
    try:
        project = tmp / "project"
        for part in PARTS:
            if (ROOT / part).is_dir():
                shutil.copytree(ROOT / part, project / part)
        results: dict[str, float] = {}
        peaks: list[int] = []

        def measure(name: str, prepare=None) -> None:
            times = []
            for _ in range(args.repeat):
                if prepare:
                    prepare()
                seconds, peak = run_build(project)
                times.append(seconds)
                peaks.append(peak)
            results[name] = statistics.median(times)

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
        if cards_pdf.read_bytes() == before:
            raise SystemExit("bench: the Czech text change did not reach output/cs/cards.pdf")
        layout_state = {"on": False}

        def change_layout() -> None:
            old, new = (LAYOUT_NEW, LAYOUT_OLD) if layout_state["on"] else (LAYOUT_OLD, LAYOUT_NEW)
            edit(project / "layouts" / "card.yaml", old, new)
            layout_state["on"] = not layout_state["on"]

        measure("one_layout_value", change_layout)
        floor_s = statistics.median(floor(project, len(pdfs), pages) for _ in range(args.repeat))
        maxrss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
        report = {
            "cold_s": round(results["cold"], 3),
            "no_change_s": round(results["no_change"], 3),
            "one_card_cs_s": round(results["one_card_cs"], 3),
            "one_layout_value_s": round(results["one_layout_value"], 3),
            "pdf_files": len(pdfs),
            "pages": pages,
            "pages_per_s": round(pages / results["cold"], 1),
            "peak_tree_rss_mb": round(max(peaks) / 2**20, 1),
            "max_process_rss_mb": round(maxrss / 2**20, 1),
            "floor_s": round(floor_s, 3),
            "cold_over_floor": round(results["cold"] / floor_s, 2),
            "cpus": len(os.sched_getaffinity(0)),
            "repeat": args.repeat,
        }
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    rows = [
        ("cold full build (en+cs, every output)", f"{report['cold_s']:.2f} s"),
        ("no-change rebuild", f"{report['no_change_s']:.2f} s"),
        ("one card's Czech text changed", f"{report['one_card_cs_s']:.2f} s"),
        ("one layout value changed", f"{report['one_layout_value_s']:.2f} s"),
        (f"pages written per second ({report['pages']} pages, {report['pdf_files']} PDFs)",
         f"{report['pages_per_s']:.0f}"),
        ("peak memory, process tree (sampled RSS sum)", f"{report['peak_tree_rss_mb']:.0f} MB"),
        ("peak memory, largest process (ru_maxrss)", f"{report['max_process_rss_mb']:.0f} MB"),
        ("floor: bare ReportLab, same files and pages", f"{report['floor_s']:.2f} s"),
        ("cold build / floor", f"{report['cold_over_floor']:.2f}×"),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"| {'measure':<{width}} | value |")
    print(f"|{'-' * (width + 2)}|-------|")
    for name, value in rows:
        print(f"| {name:<{width}} | {value} |")
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
