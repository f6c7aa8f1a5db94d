"""Wording templates are untrusted input (issue 17, item 1): a template in
card_data/text/*.yaml that reaches for Python internals, calls what it should not or runs
too long is an error at its file:line in `check`, `build` and `po export`, never code
execution, a hang or a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.cli import main
from cardgen.data.load import load
from cardgen.wording.sandbox import MAX_TEXT, WordingSandbox, fill_in
from cardgen.wording.templates import Renderer, TextError
from tests.conftest import ROOT, at, replace_in

EN = Path("card_data") / "text" / "en.yaml"
LABEL = '  use_cost: "Costs {{ cur(n, \'any\') }} to use"'
OP = """  draw: "{{ verb('draw', who) }} {{ n(amount, 'card') }}\""""

#: (name, template) with MARKER standing for a file the payload would create.
PAYLOADS = [
    ("cycler-globals", "{{ cycler.__init__.__globals__.os.system('touch MARKER') }}"),
    ("joiner-globals", "{{ joiner.__init__.__globals__.os.popen('touch MARKER').read() }}"),
    ("namespace-globals", "{{ namespace.__init__.__globals__.os.system('touch MARKER') }}"),
    ("lipsum-globals", "{{ lipsum.__globals__['os'].system('touch MARKER') }}"),
    ("helper-globals", "{{ n.__func__.__globals__['os'].system('touch MARKER') }}"),
    ("class-mro", "{{ ''.__class__.__mro__[1].__subclasses__() }}"),
    ("mro-call", "{{ labels.mro() }}"),
    ("format-string", "{{ '{0.__class__.__init__.__globals__}'.format(labels) }}"),
    ("dynamic-item", "{{ n['__glo' ~ 'bals__']['os'].system('touch MARKER') }}"),
    ("dynamic-attribute", "{{ labels['__cla' ~ 'ss__'] }}"),
    ("percent-format", "{{ '%999999999s' % 'x' }}"),
    ("huge-range", "{{ range(10**9) | list | length }}"),
    ("huge-power", "{{ 10 ** 10 ** 10 }}"),
    ("huge-repeat", "{{ 'x' * 10**9 }}"),
    ("growing-replace", "{{ 'xxxxxxxxxx' | replace('x', 'xxxxxxxxxx') | replace('x', 'xxxxxxxxxx')"
                        " | replace('x', 'xxxxxxxxxx') | replace('x', 'xxxxxxxxxx') }}"),
    ("nested-loop", "{% for a in range(99999) %}{% for b in range(99999) %}{% for c in "
                    "range(99999) %}x{% endfor %}{% endfor %}{% endfor %}"),
    ("deep-nesting", "{{ " + "(" * 3000 + "1" + ")" * 3000 + " }}"),
    ("deep-negation", "{{ " + "-" * 3000 + "1 }}"),
    ("huge-template", "{{ n }}" + "x" * 6000),
    ("set-in-loop", "{% set ns = namespace(s='x') %}{% for i in range(60) %}"
                    "{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}"),
]


def _yaml(template: str, marker: Path) -> str:
    return '"' + template.replace("MARKER", str(marker)).replace('"', '\\"') + '"'


def _plant(project: Path, where: str, template: str, marker: Path) -> int:
    old, key = (LABEL, "use_cost") if where == "label" else (OP, "draw")
    return replace_in(project / EN, old, f"  {key}: {_yaml(template, marker)}")


def _run(project: Path, capsys, *argv: str) -> tuple[int, str]:
    code = main(["--project", str(project), *argv])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize("where", ["label", "op"])
@pytest.mark.parametrize(("name", "template"), PAYLOADS, ids=[p[0] for p in PAYLOADS])
def test_a_hostile_template_is_refused_at_its_line(project, tmp_path, where, name, template):
    marker = tmp_path / "pwned"
    line = _plant(project, where, template, marker)
    data, findings = load(project)
    assert not findings
    renderer = Renderer(data, "en")
    with pytest.raises(TextError) as caught:
        if where == "label":
            renderer.label("use_cost", n=2)
        else:
            renderer.clause(next(e for c in data.cards for ln in c.lines for e in ln.effects
                                 if e.op == "draw"))
    assert caught.value.location is not None
    assert (caught.value.location.file, caught.value.location.line) == (str(EN), line)
    assert caught.value.unsafe or "undefined" in str(caught.value), str(caught.value)
    assert not marker.exists()


@pytest.mark.parametrize(("name", "where"), [
    ("cycler-globals", "label"), ("cycler-globals", "op"), ("format-string", "op"),
    ("nested-loop", "label"), ("dynamic-attribute", "op"), ("dynamic-attribute", "label")])
def test_check_build_and_po_export_refuse_it(project, tmp_path, capsys, where, name):
    marker = tmp_path / "pwned"
    line = _plant(project, where, dict(PAYLOADS)[name], marker)
    located = f"{EN}:{line}:"
    commands = [("check",), ("build", "--lang", "en", "--jobs", "1"), ("po", "export")]
    for argv in commands:
        code, out = _run(project, capsys, *argv)
        assert code == 1, (argv, out)
        assert located in out and "Traceback" not in out, (argv, out)
        assert "error[template-unsafe]" in out, (argv, out)
    assert not marker.exists()
    assert not (project / "output" / "en" / "cards.pdf").exists()
    assert not (project / "output" / "po" / "cs.po").exists()


#: Payloads only the running sandbox can refuse (the name is built while it runs).
REFUSED_WHEN_RUN = {"dynamic-attribute", "percent-format", "huge-power", "huge-repeat",
                    "growing-replace"}
TABLES_TITLE = '  title: "A Vote for the King of the Romans — rules tables"'


@pytest.mark.parametrize(("name", "template"), PAYLOADS, ids=[p[0] for p in PAYLOADS])
def test_a_hostile_rules_table_label_is_refused_by_check_and_tables(project, tmp_path, capsys,
                                                                    name, template):
    """The rules tables' labels (``tables:`` in text/<lang>.yaml) are templates too: they
    run in the same sandbox and are checked before `cardgen tables` writes anything."""
    marker = tmp_path / "pwned"
    line = replace_in(project / EN, TABLES_TITLE, f"  title: {_yaml(template, marker)}")
    for argv in (("check",), ("tables",)):
        code, out = _run(project, capsys, *argv)
        if argv == ("check",) and name in REFUSED_WHEN_RUN:
            assert code == 0, out  # check compiles labels; only running them refuses these
            continue
        assert code == 1, (argv, out)
        assert f"{EN}:{line}:" in out and "Traceback" not in out, (argv, out)
        assert "tables.title" in out, (argv, out)
        assert "error[template-unsafe]" in out or "'labels' is undefined" in out, (argv, out)
    assert not marker.exists()
    assert not (project / "output" / "en" / "rules-tables.md").exists()


def test_rules_table_labels_still_fill_in_their_values(project):
    from cardgen.tables import tables_document

    data, _ = load(project)
    doc = tables_document(at(project), "en")
    assert f"Rules v{data.game.rules_version}" in doc.subtitle


def test_a_refused_op_template_is_one_finding_not_one_per_card(project, tmp_path, capsys):
    line = _plant(project, "op", dict(PAYLOADS)["dynamic-attribute"], tmp_path / "pwned")
    code, out = _run(project, capsys, "check")
    assert code == 1
    assert out.count(f"{EN}:{line}:") == 1, out


@pytest.mark.parametrize(("name", "template"), PAYLOADS, ids=[p[0] for p in PAYLOADS])
def test_the_sandbox_holds_even_without_the_compile_time_refusals(tmp_path, name, template):
    """Defence in depth: the payloads rendered straight in the sandbox, skipping the check
    of the template's statements and calls, still neither run nor hang."""
    from jinja2 import TemplateError

    marker = tmp_path / "pwned"
    env = WordingSandbox(helpers={"n": lambda amount, noun: f"{amount} {noun}"},
                         values={"labels": {"or": "or"}})
    with pytest.raises((TemplateError, RecursionError)):  # Security-, BudgetError, undefined
        env.render(env.from_string(template.replace("MARKER", str(marker))), {})
    assert not marker.exists()


def test_a_render_has_an_operation_budget(monkeypatch):
    from cardgen.wording import sandbox

    monkeypatch.setattr(sandbox, "MAX_STEPS", 50)  # the same check as at 5,000, quicker
    env = WordingSandbox(helpers={}, values={"labels": {"or": "or"}})
    many = env.from_string("{{ " + " ~ ".join(["labels.or"] * 51) + " }}")
    with pytest.raises(sandbox.BudgetError):
        env.render(many, {})
    fewer = env.from_string("{{ " + " ~ ".join(["labels.or"] * 50) + " }}")
    assert env.render(fewer, {}) == "or" * 50  # the budget is per render, not per sandbox


def test_a_helper_given_nonsense_is_an_error_at_the_template_not_a_traceback(project):
    line = replace_in(project / EN, OP,
                      "  draw: \"{{ body([1, 2]) }} {{ at(labels, 'in', 'x') }}\"")
    data, _ = load(project)
    from cardgen.check.text import check_texts

    found = [f for f in check_texts(data) if f.code == "template-error"]
    assert found and all("'draw' does not render" in f.message for f in found)
    assert {(f.location.file, f.location.line) for f in found} == {(str(EN), line)}


def test_the_shipped_templates_render_inside_the_sandbox():
    data, _ = load(ROOT)
    for lang in ("en", "cs"):
        assert Renderer(data, lang).template_errors() == []


def test_a_long_but_honest_label_still_renders(project):
    replace_in(project / EN, LABEL,
               '  use_cost: "Costs {{ cur(n, \'any\') }} to use{{ \' again\' * 20 }}"')
    data, _ = load(project)
    assert Renderer(data, "en").label("use_cost", n=2).endswith("again" + " again" * 19)
    assert len(" again" * 20) < MAX_TEXT


def test_labels_from_data_files_fill_only_plain_placeholders():
    assert fill_in("Board in {n} sheets", n=4) == "Board in 4 sheets"
    assert fill_in("{n.__class__} {0} {n:>99999}", n=4) == "{n.__class__} {0} {n:>99999}"
