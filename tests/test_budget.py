"""One budget for all untrusted template work (issue 26, item 1): a wording template or a table
label that would build gigabytes of text, nest without end or fail while it runs is an error
at its file:line with exit 1, refused within a small memory and CPU ceiling, never a
traceback or a hang."""

from __future__ import annotations

import contextlib
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardgen.cli import main
from cardgen.data.load import load
from cardgen.wording.sandbox import WordingSandbox
from cardgen.wording.templates import Renderer, TextError, compile_wording, run_wording
from tests.conftest import replace_in

EN = Path("card_data") / "text" / "en.yaml"
PER = '  per: "{{ n }} per {{ what }}"'
OP = """  draw: "{{ verb('draw', who) }} {{ n(amount, 'card') }}\""""
#: Generous ceilings: the budget cases finish in milliseconds; without it, in GB or never.
CPU_SECONDS = 10.0
PEAK_BYTES = 500 * 1024 * 1024


@contextlib.contextmanager
def ceiling() -> Iterator[None]:
    """The block uses less than CPU_SECONDS of CPU and PEAK_BYTES of Python memory."""
    tracemalloc.start()
    start = time.process_time()
    try:
        yield
    finally:
        used = time.process_time() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert used < CPU_SECONDS, f"took {used:.1f} s of CPU"
    assert peak < PEAK_BYTES, f"peaked at {peak / 2**20:.0f} MB"


BOMBS = {
    "nested-lists": ("{{ [[['x'*5000]*5000]*5000] }}", "more than"),
    "nested-lists-joined": ("{{ 'a' ~ [[['x'*50]*50]*50] }}", "more than"),
    "nested-lists-as-text": ("{{ [[['x'*50]*50]*50] | string }}", "more than"),
    "long-literal": ("{{ " + "9" * 4400 + " }}", "a number of 4,400 digits"),
    "long-chain": ("{{ " + " + ".join(["1"] * 1200) + " }}", "nests more than"),
    "many-parts": ("{{ [" + ", ".join(["1"] * 1500) + "] }}", "more than 1000 parts"),
}
FAILURES = {
    "division-by-zero": ("{{ 1/0 }}", "ZeroDivisionError"),
    "text-minus-text": ("{{ 'a' - 'b' }}", "TypeError"),
    "undefined-name": ("{{ nobody }}", "'nobody' is undefined"),
}


def _run(project: Path, capsys, *argv: str) -> tuple[int, str]:
    code = main(["--project", str(project), *argv])
    out = capsys.readouterr()
    return code, out.out + out.err


#: The cases run through a whole command (the others through the renderer, as fast).
THROUGH_A_COMMAND = ("nested-lists", "long-literal", "division-by-zero")


@pytest.mark.parametrize("name", THROUGH_A_COMMAND)
def test_a_table_label_that_explodes_or_fails_is_an_error_at_its_line(project, capsys, name):
    template, says = {**BOMBS, **FAILURES}[name]
    line = replace_in(project / EN, PER, f'  per: "{template}"')
    with ceiling() if name in BOMBS else contextlib.nullcontext():  # measuring slows it
        code, out = _run(project, capsys, "tables", "--lang", "en")
    assert code == 1, out
    assert f"{EN}:{line}:" in out and says in out and "tables.per" in out
    assert "Traceback" not in out


@pytest.mark.parametrize("name", THROUGH_A_COMMAND)
def test_an_op_template_that_explodes_or_fails_is_an_error_at_its_line(project, capsys, name):
    template, says = {**BOMBS, **FAILURES}[name]
    line = replace_in(project / EN, OP, f'  draw: "{template}"')
    with ceiling() if name in BOMBS else contextlib.nullcontext():  # measuring slows it
        code, out = _run(project, capsys, "check")
    assert code == 1, out
    assert f"{EN}:{line}:" in out and says in out and "'draw'" in out
    assert "Traceback" not in out


@pytest.mark.parametrize(("template", "says"), list({**BOMBS, **FAILURES}.values()),
                         ids=list({**BOMBS, **FAILURES}))
def test_every_bomb_and_failure_is_a_text_error_at_the_template(project, template, says):
    line = replace_in(project / EN, OP, f'  draw: "{template}"')
    data, _ = load(project)
    effect = next(e for c in data.cards for ln in c.lines for e in ln.effects if e.op == "draw")
    with ceiling(), pytest.raises(TextError) as caught:
        Renderer(data, "en").clause(effect)
    assert caught.value.unsafe and says in str(caught.value)
    assert (caught.value.location.file, caught.value.location.line) == (str(EN), line)


@pytest.mark.parametrize("template", [
    "{{ [[['x'*5000]*5000]*5000] }}",
    "{{ [['x'*4999]*1] * 2 }}",
    "{{ ('x'*3000, 'y'*3000) }}",
    "{{ {'a': 'x'*3000, 'b': 'y'*3000} }}",
    "{{ 'x'*3000 ~ 'y'*3000 }}",
    "{{ ['x'*3000, 'y'*3000] | join }}",
])
def test_every_value_is_measured_as_the_text_it_prints(template):
    env = WordingSandbox({}, {})
    with ceiling(), pytest.raises(TextError) as caught:
        run_wording(env, compile_wording(env, template, "t", None), {}, "t", None)
    assert caught.value.code == "template-unsafe"
    assert "more than" in str(caught.value)


def test_the_shipped_templates_stay_well_inside_the_budget():
    env = WordingSandbox({}, {"what": "side"})
    ok = compile_wording(env, "{{ n ~ ' per ' ~ what }} {{ ['a', 'b'] | join(', ') }}", "t",
                         None)
    assert run_wording(env, ok, {"n": 12}, "t", None) == "12 per side a, b"
