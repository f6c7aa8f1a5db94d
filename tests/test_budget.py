"""One budget for all untrusted template work (issue 26, item 1): a wording template or a table
label that would build gigabytes of text, nest without end or fail while it runs is an error
at its file:line with exit 1, refused within a small memory ceiling and a few sandbox
operations, never a traceback or a hang.

The bounds count work, not seconds, so a busy machine cannot fail them: Python memory at its
peak (tracemalloc), template renders and the sandbox's operations (its budget counter,
:meth:`WordingSandbox.step`). ``python bench/budget.py`` times the same cases.
"""

from __future__ import annotations

import contextlib
import tracemalloc
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest
from jinja2.sandbox import SecurityError

from cardgen.cli import main
from cardgen.data.load import load
from cardgen.wording.sandbox import MAX_STEPS, WordingSandbox
from cardgen.wording.templates import Renderer, TextError, compile_wording, run_wording
from tests.conftest import replace_in

EN = Path("card_data") / "text" / "en.yaml"
PER = '  per: "{{ n }} per {{ what }}"'
OP = """  draw: "{{ verb('draw', who) }} {{ n(amount, 'card') }}\""""
#: Generous ceilings: a command on the shipped data peaks at about 30 MB of Python memory and
#: renders about 400 templates in 800 operations; without the budget a bomb takes GBs.
PEAK_BYTES = 500 * 1024 * 1024
MAX_RENDERS = 10_000


@dataclass
class Work:
    """What a block did, counted the same on every machine."""

    renders: int = 0   # top-level template renders (nested ones share their budget)
    steps: int = 0     # sandbox operations, all renders together
    refused: int = 0   # top-level renders the sandbox stopped (budget or refusal)
    peak: int = 0      # bytes of Python memory at the block's peak


@contextlib.contextmanager
def ceiling(memory: bool = True) -> Iterator[Work]:
    """The block stays under PEAK_BYTES of Python memory and MAX_RENDERS renders, and no
    render does more than the sandbox's MAX_STEPS operations (the one past it is refused).
    ``memory=False`` only counts (tracemalloc slows a whole command about fivefold)."""
    work = Work()
    real_render, real_step = WordingSandbox.render, WordingSandbox.step

    def render(self: WordingSandbox, template, values):
        top = self.depth == 0
        work.renders += top
        try:
            return real_render(self, template, values)
        except SecurityError:
            work.refused += top
            raise

    def step(self: WordingSandbox) -> None:
        work.steps += 1
        real_step(self)

    with mock.patch.object(WordingSandbox, "render", render), \
            mock.patch.object(WordingSandbox, "step", step):
        if memory:
            tracemalloc.start()
        try:
            yield work
        finally:
            if memory:
                work.peak = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
    assert work.peak < PEAK_BYTES, f"peaked at {work.peak / 2**20:.0f} MB"
    assert work.renders <= MAX_RENDERS, f"{work.renders} renders"
    assert work.steps <= work.renders * (MAX_STEPS + 1), f"{work.steps} operations"


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
#: Sandbox operations a whole command may do with one hostile template: the shipped data
#: needs about 750; a bomb allowed its MAX_STEPS in each of the 23 cards that draw, 115,000.
COMMAND_STEPS = 2_000


@pytest.mark.parametrize("name", THROUGH_A_COMMAND)
def test_a_table_label_that_explodes_or_fails_is_an_error_at_its_line(project, capsys, name):
    template, says = {**BOMBS, **FAILURES}[name]
    line = replace_in(project / EN, PER, f'  per: "{template}"')
    with ceiling(memory=name in BOMBS) as work:
        code, out = _run(project, capsys, "tables", "--lang", "en")
    assert code == 1, out
    assert f"{EN}:{line}:" in out and says in out and "tables.per" in out
    assert "Traceback" not in out
    assert work.steps < COMMAND_STEPS and work.refused == (1 if name == "nested-lists" else 0)


@pytest.mark.parametrize("name", THROUGH_A_COMMAND)
def test_an_op_template_that_explodes_or_fails_is_an_error_at_its_line(project, capsys, name):
    template, says = {**BOMBS, **FAILURES}[name]
    line = replace_in(project / EN, OP, f'  draw: "{template}"')
    with ceiling(memory=name in BOMBS) as work:
        code, out = _run(project, capsys, "check")
    assert code == 1, out
    assert f"{EN}:{line}:" in out and says in out and "'draw'" in out
    assert "Traceback" not in out
    assert work.steps < COMMAND_STEPS


@pytest.mark.parametrize("name", list({**BOMBS, **FAILURES}))
def test_every_bomb_and_failure_is_a_text_error_at_the_template(project, name):
    """Each is stopped at its first few operations: a bomb refused when it is compiled (too
    long, too deep, a number too long to read) or at its first repetition; a failure is an
    error of the render, not a refusal."""
    template, says = {**BOMBS, **FAILURES}[name]
    line = replace_in(project / EN, OP, f'  draw: "{template}"')
    data, _ = load(project)
    effect = next(e for c in data.cards for ln in c.lines for e in ln.effects if e.op == "draw")
    with ceiling() as work, pytest.raises(TextError) as caught:
        Renderer(data, "en").clause(effect)
    assert caught.value.unsafe and says in str(caught.value)
    assert (caught.value.location.file, caught.value.location.line) == (str(EN), line)
    assert work.steps <= 3 and work.renders <= 1
    assert work.refused == (work.renders if name in BOMBS else 0)


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
    with ceiling() as work, pytest.raises(TextError) as caught:
        run_wording(env, compile_wording(env, template, "t", None), {}, "t", None)
    assert caught.value.code == "template-unsafe"
    assert "more than" in str(caught.value)
    assert work.refused == 1 and work.steps <= 5  # before the value is built


def test_the_shipped_templates_stay_well_inside_the_budget():
    env = WordingSandbox({}, {"what": "side"})
    ok = compile_wording(env, "{{ n ~ ' per ' ~ what }} {{ ['a', 'b'] | join(', ') }}", "t",
                         None)
    assert run_wording(env, ok, {"n": 12}, "t", None) == "12 per side a, b"


def test_many_renders_share_one_budget_per_sandbox():
    """Issue 38: each render keeps its own budget, and all of one sandbox's renders (one
    language of one command) together keep MAX_TOTAL_STEPS, so 300 templates each just
    under their budget cannot add up to minutes (the ceiling lowered here to count fast)."""
    from cardgen.wording import sandbox

    env = WordingSandbox({}, {"x": "a"})
    heavy = compile_wording(env, " ".join(["{{ x + x + x + x + x }}"] * 40), "t", None)
    with mock.patch.object(sandbox, "MAX_TOTAL_STEPS", 2_000):
        done = 0
        with pytest.raises(TextError, match="together in one command"):
            for _ in range(100):
                run_wording(env, heavy, {}, "t", None)
                done += 1
    assert 0 < done < 100  # the first renders pass, the one past the sum is refused
    assert env.total > 2_000
