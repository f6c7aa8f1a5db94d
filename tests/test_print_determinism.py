"""Issue 12 item 7: every output is byte-identical across runs, hash seeds and job counts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _build(project: Path, seed: str, jobs: str) -> dict[str, bytes]:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
    out = project / "output"
    subprocess.run([sys.executable, "-c", "import sys; from cardgen.cli import main; "
                    "sys.exit(main())", "build", "--quiet", "--jobs", jobs,
                    "--project", str(project)], check=True, env=env, capture_output=True)
    files = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
             if p.is_file() and not any(part.startswith(".") for part in p.relative_to(out).parts)}
    subprocess.run(["rm", "-rf", str(out)], check=True)
    return files


def test_outputs_identical_across_hash_seeds_and_jobs(project):
    first = _build(project, "1", "1")
    second = _build(project, "2", "2")
    assert first.keys() == second.keys()
    assert "cs/glossary.pdf" in first
    differ = [name for name in first if first[name] != second[name]]
    assert differ == []
