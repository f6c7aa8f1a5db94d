"""Reports carry the data's digest and, in a git checkout, the revision and whether the
tree is dirty (issue 39): an edited data set is told from the shipped one."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cardgen.files.provenance import provenance
from tests.conftest import copy_project


def test_the_digest_follows_the_data_and_only_the_data(tmp_path):
    project = copy_project(tmp_path / "project")
    first = provenance(project)
    assert first.revision is None and first.line() == f"data {first.data_digest}"
    (project / "output").mkdir(exist_ok=True)
    (project / "output" / "x.txt").write_text("an output is no input")
    assert provenance(project).data_digest == first.data_digest
    lux = project / "card_data/cards/luxembourg.yaml"
    lux.write_text(lux.read_text("utf-8").replace("political: 3", "political: 4", 1), "utf-8")
    assert provenance(project).data_digest != first.data_digest


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_in_git_the_revision_and_a_dirty_tree(tmp_path):
    project = copy_project(tmp_path / "project")

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(project), "-c", "user.name=t", "-c",
                               "user.email=t@t", *args], check=True, capture_output=True,
                              text=True).stdout.strip()

    git("init", "-q")
    git("add", "card_data")
    git("commit", "-q", "-m", "data")
    (project / ".gitignore").write_text("*\n!card_data/\n!card_data/**\n")
    clean = provenance(project)
    assert (clean.revision, clean.dirty) == (git("rev-parse", "HEAD"), False)
    assert clean.as_json()["revision"] == clean.revision
    lux = Path(project / "card_data/cards/luxembourg.yaml")
    lux.write_text(lux.read_text("utf-8") + "\n", "utf-8")
    dirty = provenance(project)
    assert dirty.dirty is True and dirty.line().endswith(f"git {clean.revision[:12]} (dirty)")
