"""Randomly damaged card data: loading and checking report findings, never crash."""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cardgen import pipeline
from cardgen.errors import CardgenError, Finding
from tests.conftest import ROOT

FILES = sorted(p.relative_to(ROOT) for p in (ROOT / "card_data").rglob("*.yaml"))
JUNK = ["", "- ", ": :", "{", "]", "&a", "*nope", "!!python/object:os.system", "\t", "'",
        '"\\x', "%TAG", "---", "...", "~", "null", "1e999", "0x1F", "yes", "\u00a0", "{{ x }}",
        "<<: *a", "? x", "|", ">-"]


def _mutate(lines: list[str], op: str, i: int, junk: str) -> list[str]:
    if not lines:
        return [junk]
    i %= len(lines)
    line = lines[i]
    if op == "delete":
        return lines[:i] + lines[i + 1:]
    if op == "duplicate":
        return [*lines[:i + 1], line, *lines[i + 1:]]
    if op == "truncate":
        return [*lines[:i], line[:len(line) // 2], *lines[i + 1:]]
    if op == "retype" and ":" in line:
        key = line.split(":", 1)[0]
        return [*lines[:i], f"{key}: {junk or '[1, 2]'}", *lines[i + 1:]]
    return [*lines[:i], line + junk, *lines[i:]]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(file=st.sampled_from(FILES),
       edits=st.lists(st.tuples(st.sampled_from(["delete", "duplicate", "truncate", "retype",
                                                 "insert"]),
                                st.integers(0, 10_000), st.sampled_from(JUNK)),
                      min_size=1, max_size=4))
@example(file=Path("card_data/cards/events.yaml"), edits=[("retype", 183, "")])  # deck: [1, 2]
@example(file=Path("card_data/text/cs.yaml"), edits=[("delete", 361, "")])  # a label removed
def test_damaged_yaml_gives_findings_never_a_crash(tmp_path_factory, file, edits):
    project = tmp_path_factory.mktemp("fuzz")
    for part in ("card_data", "layouts", "fonts"):
        shutil.copytree(ROOT / part, project / part)
    path = project / file
    lines = path.read_text(encoding="utf-8").split("\n")
    for op, i, junk in edits:
        lines = _mutate(lines, op, i, junk)
    path.write_text("\n".join(lines), encoding="utf-8")
    try:
        report = pipeline.run_check(project)
    except CardgenError as exc:  # allowed, but it must carry located findings
        findings = exc.findings
    else:
        findings = report.findings
    assert all(isinstance(f, Finding) for f in findings)
    errors = [f for f in findings if f.severity == "error"]
    assert all(f.location is not None or f.card for f in errors), [f.format() for f in errors]
