"""The generator's fingerprint keys every cache (issue 37): a change to any file of the
package, or an upgraded library or tool, makes `build` rebuild and `check` check again."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import copy_project, replace_in

import cardgen
from cardgen.files import fingerprint
from cardgen.files.incremental import digest

PACKAGE = Path(cardgen.__file__).resolve().parent


def _key(package: Path) -> str:
    return digest(*fingerprint.fingerprint_parts(package))


def _copy_package(dest: Path) -> Path:
    return Path(shutil.copytree(PACKAGE, dest / "cardgen",
                                ignore=shutil.ignore_patterns("__pycache__")))


def test_every_kind_of_package_file_is_in_the_fingerprint(tmp_path: Path) -> None:
    package = _copy_package(tmp_path)
    before = _key(package)
    kinds = [package / "data" / "shapes.yaml", package / "render" / "card.py",
             next((package / "serve" / "static").iterdir()), next((package / "icc").glob("*.icc"))]
    for path in kinds:
        data = path.read_bytes()
        path.write_bytes(data + b"\n")
        assert _key(package) != before, f"{path.relative_to(package)} is not in the fingerprint"
        path.write_bytes(data)
    assert _key(package) == before
    (package / "render" / "__pycache__").mkdir(exist_ok=True)
    (package / "render" / "__pycache__" / "card.cpython-311.pyc").write_bytes(b"compiled")
    assert _key(package) == before, "byte-compiled caches are not the code"


def test_library_versions_come_from_the_installed_distributions(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "reportlab-9.9.9.dist-info").mkdir(parents=True)
    (site / "PyYAML-1.2.dist-info").mkdir()
    versions = fingerprint.library_versions([str(site), *sys.path])
    assert versions["reportlab"] == "9.9.9" and versions["pyyaml"] == "1.2"
    real = fingerprint.library_versions()
    assert all(v != "-" for v in real.values()), real  # every library is found as installed
    assert versions["pillow"] == real["pillow"]


def _run(package_root: Path, project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The cardgen of ``package_root`` (a copy of the package) on ``project``."""
    env = {**os.environ, "PYTHONPATH": str(package_root), "PYTHONDONTWRITEBYTECODE": "1"}
    code = "import sys; from cardgen.cli import run; sys.argv[0] = 'cardgen'; sys.exit(run())"
    return subprocess.run([sys.executable, "-c", code, *args, "--project", str(project)],
                          capture_output=True, text=True, env=env, timeout=600,
                          cwd=package_root)


def test_a_code_change_rebuilds_and_checks_again(tmp_path: Path) -> None:
    """Issue 37: a comment edited in one module left every cache in place ("nothing
    changed"), and a per-card error added to the language check was never run (0 errors
    from the last build's cached findings)."""
    package = _copy_package(tmp_path / "pkg")
    project = copy_project(tmp_path / "project")
    first = _run(package.parent, project, "build", "--lang", "en", "--jobs", "1")
    assert first.returncode == 0, first.stderr
    state = project / "output" / ".cardgen-state.json"
    key = json.loads(state.read_text())["inputs"]
    again = _run(package.parent, project, "build", "--lang", "en", "--jobs", "1")
    assert "nothing changed" in again.stdout + again.stderr

    (package / "data" / "memo.py").write_text(
        (package / "data" / "memo.py").read_text() + "# a comment\n")
    edited = _run(package.parent, project, "build", "--lang", "en", "--jobs", "1")
    assert edited.returncode == 0, edited.stderr
    assert "nothing changed" not in edited.stdout + edited.stderr
    assert json.loads(state.read_text())["inputs"] != key

    replace_in(package / "check" / "lang.py", "        return checker.findings\n",
               "        return checker.findings + [error('lang-capital', 'planted',"
               " card=card.id)]\n")
    checked = _run(package.parent, project, "check")
    assert checked.returncode == 1, checked.stdout
    cards = len([line for line in checked.stdout.splitlines() if "planted" in line])
    assert cards >= 70, checked.stdout[-2000:]  # every card, none from the old cache
