"""What `cardgen serve` shows: a build plus every face, even when nothing changed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..data.model import GameData
from ..errors import CardgenError
from ..progress import Progress
from ..wording.face import CardFace
from .build import BuildReport, build
from .check import run_check
from .options import BuildOptions

if TYPE_CHECKING:
    from ..data.layout import Layout


@dataclass
class Preview:
    """What `cardgen serve` shows after a build: its report and every face with its key."""

    report: BuildReport
    data: GameData
    faces: dict[str, list[CardFace]]
    layout: Layout
    #: language → card id → face key: what the card's drawing depends on (names its image)
    keys: dict[str, dict[str, str]]


def preview_build(project: Path, options: BuildOptions, progress: Progress | None = None) -> Preview:
    """A build, plus the faces to show even when nothing changed and the check was skipped."""
    report = build(project, options, progress=progress)
    data, faces, layout, keys = report.data, report.faces, report.layout, report.face_keys
    if data is None or layout is None:
        check = run_check(project)
        if not check.ok or check.data is None or check.layout is None:
            raise CardgenError(check.findings)
        data, faces, layout, keys = check.data, check.faces, check.layout, check.face_keys
    return Preview(report, data, {lang: faces[lang] for lang in options.langs}, layout, keys)
