"""Shared helpers for the board, token and aid tests: build once, inspect with poppler."""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

from cardgen.data.project import Project, load_project

ROOT = Path(__file__).resolve().parents[1]


@cache
def shipped() -> Project:
    """The shipped project, gathered once for the board, token and aid tests."""
    return load_project(ROOT)[0]


def game():
    return shipped().data


def poppler(tool: str, pdf: bytes, *args: str) -> str:
    return subprocess.run([tool, *args, "-", "-"] if tool == "pdftotext" else [tool, *args, "-"],
                          input=pdf, capture_output=True, check=True).stdout.decode()


def pdf_text(pdf: bytes) -> str:
    return " ".join(poppler("pdftotext", pdf, "-layout").split())


def pdf_info(pdf: bytes) -> dict[str, str]:
    out = {}
    for line in poppler("pdfinfo", pdf, "-box").splitlines():
        key, _, value = line.partition(":")
        out[key.strip()] = value.strip()
    return out


def pdf_fonts(pdf: bytes) -> list[tuple[str, str]]:
    """(font name, embedded yes/no) per font."""
    rows = poppler("pdffonts", pdf).splitlines()[2:]
    return [(r.split()[0], r.split()[-5]) for r in rows if r.strip()]


def words(pdf: bytes) -> list[tuple[str, float, float, float, float]]:
    """(word, xMin, yMin, xMax, yMax) in points, y down from the page top (first page)."""
    out = []
    for m in re.finditer(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
                         r'([^<]*)</word>', poppler("pdftotext", pdf, "-bbox", "-l", "1")):
        out.append((m.group(5), *(float(m.group(i)) for i in range(1, 5))))
    return out


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    info = poppler("pdfinfo", pdf, "-f", "1", "-l", "999")
    return [(float(a), float(b)) for a, b in
            re.findall(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)", info)]
