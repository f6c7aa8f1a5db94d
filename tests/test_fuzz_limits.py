"""Fuzzing the limits (issue 26, item 5): generated templates, data patterns, layout and
profile numbers, command-line options and preview requests end in a located finding, a
usage error naming the option (exit 2) or success — never a traceback — each example within
a memory ceiling and the template sandbox's count of operations (tests/test_budget.py).

Derandomized with a bounded number of examples and no deadline (no test is timed), so every
run tries the same cases in a few seconds.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.cli import _parser
from cardgen.data.layout import load_layout
from cardgen.data.patterns import PatternError, bounded
from cardgen.errors import CardgenError
from cardgen.impose.spec import load_profiles, load_sheet_spec
from cardgen.serve.web import open_request
from cardgen.wording.sandbox import MAX_TEXT, WordingSandbox
from cardgen.wording.templates import TextError, compile_wording, run_wording
from tests.conftest import ROOT, at, send_raw
from tests.test_budget import ceiling

LIMITS = settings(deadline=None, derandomize=True, database=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture,
                                         HealthCheck.too_slow])

# --- templates ---------------------------------------------------------------------------------

ATOMS = st.sampled_from(["1", "0", "'x'", "'x' * 5000", "[1, 2]", "['ab'] * 3000", "n",
                         "nobody", "9" * 40, "1e308", "(1, 'a')", "{'a': 'b'}", "''", "-1",
                         "[[['x'*500]*50]*50]"])
OPS = st.sampled_from([" + ", " * ", " ** ", " ~ ", " / ", " // ", " % ", " - ", " == ",
                       " and ", " or "])
FILTERS = st.sampled_from(["", " | string", " | join", " | length", " | upper",
                           " | replace('x', 'xxxxxxxx')", " | first", " | title"])


@st.composite
def expressions(draw: st.DrawFn, depth: int = 0) -> str:
    """A Jinja expression of the sandbox's kinds, nested a few levels."""
    if depth > 3 or draw(st.booleans()):
        return draw(ATOMS)
    left, right = draw(expressions(depth + 1)), draw(expressions(depth + 1))
    shape = draw(st.sampled_from(["op", "list", "paren", "filter", "chain"]))
    if shape == "op":
        return f"{left}{draw(OPS)}{right}"
    if shape == "list":
        return f"[{left}, {right}]"
    if shape == "filter":
        return f"({left}){draw(FILTERS)}"
    if shape == "chain":
        return " + ".join([left] * draw(st.integers(1, 1500)))
    return f"({left})"


@settings(LIMITS, max_examples=120)
@given(expression=expressions(), wrap=st.sampled_from(["{{ %s }}", "{%% if %s %%}y{%% endif %%}",
                                                       "a {{ %s }} b {{ n }}"]))
def test_generated_templates_render_or_are_refused_within_the_budget(expression, wrap):
    env = WordingSandbox({}, {"n": 3})
    source = wrap % expression
    with ceiling():
        try:
            text = run_wording(env, compile_wording(env, source, "t", None), {}, "t", None)
        except TextError as exc:
            assert exc.code in ("template-unsafe", "template-error", "text-render"), exc
        else:
            assert len(text) <= MAX_TEXT


# --- data patterns -----------------------------------------------------------------------------

PIECES = st.sampled_from(["a", "\\w", ".", "(", ")", "+", "*", "?", "{2,}", "|", "[a-z]",
                          "\\b", "(?!x)", "\\", "^", "$", "{1,3}", "(?:", "\\d"])


@settings(LIMITS, max_examples=150)
@given(pieces=st.lists(PIECES, min_size=1, max_size=14))
def test_generated_patterns_compile_bounded_or_are_refused(pieces):
    source = "".join(pieces)
    with ceiling():
        try:
            pattern = bounded(source)
        except PatternError as exc:
            assert str(exc)
            return
        try:
            pattern.search("Gain 2 German and 1 Eastern currency; " * 8 + "a" * 60 + "!")
        except CardgenError as exc:  # a runaway the static check let through: timed out
            assert exc.findings[0].code == "pattern-slow"


# --- layout and profile numbers ------------------------------------------------------------------

NUMBERS = st.one_of(st.integers(-10**6, 10**7).map(str),
                    st.sampled_from([".inf", "-.inf", ".nan", "1e400", "9" * 4400, "0", "-0.0",
                                     "true", "'3'", "[]", "{}", "~", "6" * 16]))
PROFILE_KEYS = ["bleed: 3", "resolution: 300", "bleed_px: 36", "ink_limit: 240",
                "card: {width: 63, height: 88}", "min_safe: 3.2", "max_aspect_change: 0.01"]
SHEET_KEYS = ["printer_margin: 6", "max_outer_bleed: 3", "  length: 6", "  offset: 0.4",
              "  width_pt: 0.25", "  fold_gap: 4", "  edge_clearance: 1"]
LAYOUT_KEYS = ["  width: 63", "  height: 88", "  bleed: 3", "  safe: 4", "  size: 8",
               "  min_size: 6.5", "  min_ppi: 300"]


def _project(tmp_path_factory) -> Path:
    project = tmp_path_factory.mktemp("limits")
    for part in ("layouts", "fonts"):
        shutil.copytree(ROOT / part, project / part)
    return project


def _set(path: Path, key: str, value: str) -> None:
    text = path.read_text(encoding="utf-8")
    name = key.strip().split(":", 1)[0]
    indent = key[:len(key) - len(key.lstrip())]
    new = f"{name}: {{width: {value}, height: {value}}}" if name == "card" else f"{name}: {value}"
    path.write_text(text.replace(key, indent + new, 1), encoding="utf-8")


def _located(exc: CardgenError) -> None:
    assert exc.findings and all(f.location is not None for f in exc.findings), exc


def _loads_or_is_located(tmp_path_factory, file: str, key: str, value: str,
                         loaded: Callable[[Path], None]) -> None:
    """``key`` of layouts/``file`` set to ``value``: ``loaded`` (the load and what it must
    give) passes, or the load is an error at a line, within the memory and work ceiling."""
    project = _project(tmp_path_factory)
    _set(project / "layouts" / file, key, value)
    with ceiling():
        try:
            loaded(project)
        except CardgenError as exc:
            _located(exc)


@settings(LIMITS, max_examples=40)
@given(key=st.sampled_from(PROFILE_KEYS), value=NUMBERS)
def test_profile_numbers_of_any_kind_load_or_are_located_errors(tmp_path_factory, key, value):
    def loaded(project: Path) -> None:
        for profile in load_profiles(at(project)).values():
            assert 0 <= profile.bleed <= 10 and 72 <= profile.resolution <= 1200

    _loads_or_is_located(tmp_path_factory, "profiles.yaml", key, value, loaded)


@settings(LIMITS, max_examples=40)
@given(key=st.sampled_from(LAYOUT_KEYS), value=NUMBERS)
def test_layout_numbers_of_any_kind_load_or_are_located_errors(tmp_path_factory, key, value):
    def loaded(project: Path) -> None:
        layout = load_layout(project / "layouts" / "card.yaml")
        assert 20 <= layout.card.width <= 300 and 0 <= layout.card.bleed <= 10

    _loads_or_is_located(tmp_path_factory, "card.yaml", key, value, loaded)


@settings(LIMITS, max_examples=40)
@given(key=st.sampled_from(SHEET_KEYS), value=NUMBERS)
def test_sheet_numbers_of_any_kind_load_or_are_located_errors(tmp_path_factory, key, value):
    def loaded(project: Path) -> None:
        spec = load_sheet_spec(at(project))
        assert 0 <= spec.printer_margin <= 30 and 0 < spec.marks.length <= 30

    _loads_or_is_located(tmp_path_factory, "sheets.yaml", key, value, loaded)


@pytest.mark.parametrize(("old", "new", "says"), [
    ("grid: {columns: 3, rows: 3}", "grid: {columns: 3000, rows: 3}", "'columns' in grid"),
    ("  length: 6  ", "  length: 600", "'length' in crop_marks"),
    ("a4: {name: A4, width: 210,", "a4: {name: A4, width: 2100000,", "'width' in paper 'a4'"),
])
def test_a_sheet_number_slip_is_an_error_at_its_line(tmp_path_factory, old, new, says):
    """A few digits too many in sheets.yaml would lay out a page of 27,000 cards or marks
    across the sheet: an error at the line, saying the range."""
    project = _project(tmp_path_factory)
    path = project / "layouts" / "sheets.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    line = text[:text.index(old)].count("\n") + 1
    with pytest.raises(CardgenError) as exc:
        load_sheet_spec(at(project))
    found = [f for f in exc.value.findings if says in f.message]
    assert found and "must be from" in found[0].message, exc.value
    assert found[0].location.line == line


# --- options -------------------------------------------------------------------------------------

OPTION_VALUES = st.one_of(st.sampled_from(["nan", "inf", "-inf", "nan,0", "1,1", "0", "-1",
                                           "99999", "1e999", "", "en,en", "en,cs", "cs",
                                           "9" * 5000, "1.5,-0.5", "0x10", " 4 "]),
                          st.text(max_size=10))
OPTIONS = [("build", "--back-offset"), ("build", "--jobs"), ("build", "--lang"),
           ("tables", "--lang"), ("serve", "--port"), ("playtest", "--games"),
           ("playtest", "--jobs"), ("playtest", "--seed"), ("preflight", "--ink-limit")]


@settings(LIMITS, max_examples=150)
@given(option=st.sampled_from(OPTIONS), value=OPTION_VALUES)
def test_option_values_are_in_range_or_a_usage_error_naming_the_option(capsys, option, value):
    command, name = option
    argv = [command, f"{name}={value}", *(["x.pdf"] if command == "preflight" else [])]
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        err = capsys.readouterr().err
        assert exc.code == 2 and f"argument {name}" in err, err
        return
    parsed = getattr(args, name.removeprefix("--").replace("-", "_"))
    if name == "--back-offset":
        assert all(-10 <= v <= 10 for v in parsed)
    elif name in ("--jobs", "--games"):
        assert 0 <= parsed <= 1_000_000
    elif name == "--port":
        assert 0 <= parsed <= 65535
    elif name == "--ink-limit":
        assert 100 <= parsed <= 400
    elif name == "--lang":
        langs = [x.strip() for x in parsed.split(",") if x.strip()]
        assert len(langs) == len(set(langs))


# --- preview requests ----------------------------------------------------------------------------

BODIES = st.one_of(st.binary(max_size=64),
                   st.sampled_from([b'{"file": "a", "line": 1}', b'{"line": Infinity}',
                                    b"[" * 5000, b'{"file": 1, "line": 1}', b"null",
                                    b'{"file": "a", "line": 1e999}', b'{"file": "a"}']))


@settings(LIMITS, max_examples=150)
@given(length=st.one_of(st.integers(-10, 10**9).map(str), st.text(max_size=8)), body=BODIES)
def test_preview_requests_of_any_shape_are_taken_or_refused(length, body):
    with ceiling():
        asked = open_request(length, lambda n: body[:n])
    if asked is not None:
        assert isinstance(asked[0], str) and type(asked[1]) is int and asked[1] > 0


@pytest.mark.parametrize("length", ["-1", "4097", "10" * 10])
def test_a_request_body_beyond_its_size_is_never_read(length):
    def read(_n: int) -> bytes:
        raise AssertionError("read")
    assert open_request(length, read) is None


# --- preview requests over HTTP, in-process ------------------------------------------------------

@pytest.fixture(scope="module")
def preview(tmp_path_factory):
    """A running preview server on an empty project, and the errors its handlers raised."""
    import socketserver
    import threading

    from cardgen.serve.desk import Desk
    from cardgen.serve.web import DeskServer

    project = tmp_path_factory.mktemp("preview")
    (project / "card_data" / "cards").mkdir(parents=True)
    images = project / "output" / "serve"
    images.mkdir(parents=True)
    server = DeskServer(0, Desk(project, editor=False), images)
    raised: list[BaseException] = []
    real = socketserver.BaseServer.handle_error
    server.handle_error = lambda request, address: (  # type: ignore[method-assign]
        raised.append(__import__("sys").exc_info()[1]), real(server, request, address))
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    yield server, raised
    server.stop()


@settings(LIMITS, max_examples=40)
@given(method=st.sampled_from([b"GET", b"POST", b"PUT", b"HEAD"]),
       path=st.sampled_from([b"/", b"/api/open", b"/api/state", b"/img/../x", b"/img/%2e%2e/x",
                             b"/static/app.js", b"/nope", b"/img/cards/a.jpg"]),
       length=st.one_of(st.integers(-10, 10**12).map(lambda n: str(n).encode()),
                        st.sampled_from([b"", b"x", b"1e3"])),
       kind=st.sampled_from([b"application/json", b"text/plain"]), body=BODIES)
def test_preview_requests_over_http_never_raise_in_the_server(preview, method, path, length,
                                                              kind, body):
    server, raised = preview
    port = server.server_address[1]
    request = (method + b" " + path + b" HTTP/1.0\r\nHost: 127.0.0.1:" + str(port).encode()
               + b"\r\nContent-Type: " + kind + b"\r\nContent-Length: " + length + b"\r\n\r\n"
               + body)
    with ceiling():
        answer = send_raw(port, request)
    assert answer.startswith(b"HTTP/1.0 ") or not answer
    assert not raised, raised
