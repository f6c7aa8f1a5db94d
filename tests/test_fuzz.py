"""Randomly damaged inputs (card data, wording tables, PO files, manifests, option values):
every case ends in a clean finding or success, never a traceback.

Derandomized (a fixed seed from each test's source, no example database), so every run of
the suite tries the same cases and CI is stable; a failure found once is found every time.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cardgen.build.check import run_check
from cardgen.build.options import read_manifest
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


FUZZ = settings(deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@settings(FUZZ, max_examples=24)  # about 0.5 s each: the suite's time budget
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
        report = run_check(project)
    except CardgenError as exc:  # allowed, but it must carry located findings
        findings = exc.findings
    else:
        findings = report.findings
    assert all(isinstance(f, Finding) for f in findings)
    errors = [f for f in findings if f.severity == "error"]
    assert all(f.location is not None or f.card for f in errors), [f.format() for f in errors]


def _located(findings: list[Finding]) -> None:
    assert all(isinstance(f, Finding) for f in findings)
    errors = [f for f in findings if f.severity == "error"]
    assert all(f.location is not None or f.card for f in errors), [f.format() for f in errors]


# --- text/<lang>.yaml: the wording tables, with values of the wrong shape --------------------

YAML_VALUES = st.recursive(
    st.sampled_from(["~", "1", "-3.5", "true", '"{{ x }}"', "''", "[]", "{}", "text",
                     '"{% for %}"', '"{{ n(1, \'card\') }}"']),
    lambda inner: st.one_of(st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
                            st.dictionaries(st.sampled_from(["a", "en", "card", "into", "one"]),
                                            inner, max_size=3).map(
                                lambda d: "{" + ", ".join(f"{k}: {v}" for k, v in d.items()) + "}")),
    max_leaves=6)


def _tables(text: str) -> list[tuple[int, str]]:
    """(line index, key) of every top-level and second-level key of a wording file."""
    out = []
    for i, line in enumerate(text.split("\n")):
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if indent in (0, 2) and ":" in stripped and not stripped.startswith(("#", "-")):
            out.append((i, line[:indent + stripped.index(":")]))
    return out


@settings(FUZZ, max_examples=15)
@given(lang=st.sampled_from(["en", "cs"]), pick=st.integers(0, 10_000), value=YAML_VALUES,
       whole=st.booleans())
def test_wording_tables_of_the_wrong_shape_give_findings(tmp_path_factory, lang, pick, value,
                                                         whole):
    project = tmp_path_factory.mktemp("text")
    for part in ("card_data", "layouts", "fonts"):
        shutil.copytree(ROOT / part, project / part)
    path = project / "card_data" / "text" / f"{lang}.yaml"
    if whole:  # the whole file is one value: a list, a scalar …
        path.write_text(value + "\n", encoding="utf-8")
    else:  # one table or one entry gets a value of another shape
        lines = path.read_text(encoding="utf-8").split("\n")
        i, key = _tables("\n".join(lines))[pick % len(_tables("\n".join(lines)))]
        indent = len(key) - len(key.lstrip(" "))
        j = i + 1  # drop the old value's block
        while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip(" ")) > indent):
            j += 1
        lines[i:j] = [f"{key}: {value}"]
        path.write_text("\n".join(lines), encoding="utf-8")
    _located(run_check(project).findings)


# --- PO files -----------------------------------------------------------------------------

PO_JUNK = ['msgid "', 'msgstr ""', '"\\', "#, fuzzy", 'msgctxt "x:y"', "msgid_plural \"a\"",
           'msgstr[0] "a"', "#~ msgid \"old\"", "\x00", "\ufeff", "msgid \"a\"\nmsgid \"a\"",
           'msgctxt "philip-vi:name"\nmsgid "Philip VI"\nmsgstr "Filip\\n\\t"', ""]


@settings(FUZZ, max_examples=24)  # about 0.35 s each
@given(edits=st.lists(st.tuples(st.sampled_from(["delete", "duplicate", "truncate", "insert"]),
                                st.integers(0, 10_000), st.sampled_from(PO_JUNK)),
                      min_size=1, max_size=4),
       raw=st.one_of(st.none(), st.binary(max_size=200)))
def test_damaged_po_files_give_findings_never_a_crash(tmp_path_factory, edits, raw):
    from test_lang_fixtures import make_project

    from cardgen.data.load import load
    from cardgen.translate.po import export_po, import_po

    tmp = tmp_path_factory.mktemp("po")
    project = make_project(tmp)
    path = export_po(load(project)[0], tmp / "cs.po", canonical=None)
    if raw is not None:
        path.write_bytes(raw)
    else:
        lines = path.read_text(encoding="utf-8").split("\n")
        for op, i, junk in edits:
            lines = _mutate(lines, op, i, junk)
        path.write_text("\n".join(lines), encoding="utf-8")
    try:
        report = import_po(project, path)
    except CardgenError as exc:
        _located(exc.findings)
    else:
        _located(report.findings)
        assert len(report.applied) + report.unchanged + report.untranslated + report.not_applied >= 0
    load(project)  # whatever was written still loads


# --- --changed-since manifests ------------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                    | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(["cards", "id", "hash", "x"]), inner,
                                      max_size=3),
                    max_leaves=8)


@settings(FUZZ, max_examples=60)
@given(doc=JSON, ids=st.lists(st.text(max_size=8), max_size=2))
def test_manifests_of_any_shape_give_a_finding_or_a_reprint(tmp_path_factory, doc, ids):
    import json
    from types import SimpleNamespace

    from cardgen.impose import select_reprint

    path = tmp_path_factory.mktemp("manifest") / "manifest.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    faces = [SimpleNamespace(card_id=c) for c in ("philip-vi", "charles-iv")]
    try:
        _raw, manifest = read_manifest(path)
        chosen = select_reprint(faces, ids, manifest, {"philip-vi": "ab", "charles-iv": "cd"})
    except CardgenError as exc:
        _located(exc.findings) if exc.findings[0].code.startswith("manifest") else None
        assert all(f.hint for f in exc.findings)
    else:
        assert set(chosen) <= {"philip-vi", "charles-iv"}


# --- option values ------------------------------------------------------------------------

OPTION_TEXT = st.one_of(st.sampled_from(["", ",", "en", "cs", "en,cs", "EN", " en ", "de",
                                         "x" * 300, "../x", "-", "--"]),
                        st.text(max_size=12))


@settings(FUZZ, max_examples=40)
@given(lang=OPTION_TEXT, cards=OPTION_TEXT, profile=OPTION_TEXT,
       jobs=st.sampled_from(["0", "1", "-1", "x", "99999"]), flip=st.sampled_from(["long", "odd"]))
def test_option_values_end_in_a_finding_never_a_traceback(tmp_path_factory, capsys, lang, cards,
                                                         profile, jobs, flip):
    from cardgen.cli import main

    project = tmp_path_factory.mktemp("options")  # no card_data: a valid command stops at the check
    shutil.copytree(ROOT / "layouts", project / "layouts")
    args = ["--project", str(project), "build", f"--lang={lang}", f"--cards={cards}",
            f"--profile={profile}", f"--jobs={jobs}", f"--flip={flip}"]
    try:
        code = main(args)
    except SystemExit as exc:  # argparse's own usage errors (--jobs x, --flip odd)
        code = exc.code
    out = capsys.readouterr()
    assert code in (1, 2), out
    assert "Traceback" not in out.out + out.err
