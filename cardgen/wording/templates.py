"""Canonical card text: a line's structured effects rendered through the per-language
Jinja2 templates of ``card_data/text/<lang>.yaml`` in the wording sandbox, with the
language's mechanical typography (:mod:`.language`). Card text itself is data and is never
rendered as a template; comparisons ignore plain versus non-breaking spaces.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from jinja2 import TemplateError
from jinja2.sandbox import SecurityError

from ..data.memo import Memo
from ..data.model import Card, CardLine, Effect, GameData
from ..errors import Finding, Location, error
from .language import NBSP, fix_text, plural_category
from .sandbox import WordingSandbox, refusals, source_limits, tree_limits

INLINE_TOKEN = re.compile(r":([a-z0-9-]+):")


def typography(text: str, lang: str) -> str:
    """Printed text with the language's mechanical typography applied (Czech: non-breaking
    spaces, „quotes“, en dashes): the same rules the check reports and ``--fix`` writes."""
    return fix_text(text, lang)


_TYPOGRAPHIC = str.maketrans({"\u201e": '"', "\u201c": '"', "\u201d": '"', "\u201a": "'",
                              "\u2018": "'", "\u2019": "'", "\u2013": "-", "\u2014": "-",
                              NBSP: " ", "\u202f": " "})


def normalize(text: str) -> str:
    """The form in which written and canonical text are compared: plain and non-breaking
    spaces, typographic and straight quotes, dashes and hyphens count as the same."""
    return " ".join(text.translate(_TYPOGRAPHIC).split())


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].isalpha() else text


def _sentence(text: str) -> str:
    text = capitalised(text.strip())
    return text if text.endswith((".", "!", "?")) else text + "."


class TextError(Exception):
    """A template could not render an effect (unknown op, missing template, bad value).

    ``location`` points at the template in card_data/text/<lang>.yaml when it is known;
    ``code`` is ``template-unsafe`` for a template the sandbox refuses (:mod:`cardgen.wording.sandbox`)."""

    def __init__(self, message: str, location: Location | None = None,
                 code: str = "text-render"):
        super().__init__(message)
        self.location = location
        self.code = code

    @property
    def unsafe(self) -> bool:
        """The template's own fault (refused, or failing whatever it is given): reported
        once, at the template's line."""
        return self.code in ("template-unsafe", "template-error")

    def finding(self, lang: str) -> Finding:
        """This problem as an error of ``lang``'s text file, with how to fix it."""
        return error(self.code, str(self), location=self.location, lang=lang,
                     hint=_HINTS.get(self.code, "fix the template's syntax"))


_HINTS = {
    "template-unsafe": "a wording template is text with {{ helper(...) }} and {% if %} only; "
                       "see the comment at the top of the file",
    "template-error": "fix the expression at that line (a division by zero, an operator on "
                      "the wrong kind of value, or a name the template is not given)",
}


class _Labels(dict):
    """A language's labels; a missing one is a :class:`TextError` at the labels table (a
    damaged text file is a finding, never a KeyError deep in a clause)."""

    def __init__(self, values: Any, lang: str, where: Location | None):
        super().__init__(values)
        self.lang, self.where = lang, where

    def __missing__(self, key: str) -> Any:
        raise TextError(f"no {self.lang} label '{key}'", self.where)


@contextlib.contextmanager
def _template_errors(what: str, where: Location | None, failing: str) -> Iterator[None]:
    """Jinja2's errors while parsing or compiling a template, as a :class:`TextError` at the
    template: ``failing`` says what went wrong; nesting that exhausts the stack is unsafe."""
    try:
        yield
    except TemplateError as exc:
        raise TextError(f"{what} {failing}: {exc}", where) from None
    except RecursionError:
        raise TextError(f"{what} nests too deeply", where, code="template-unsafe") from None


class Renderer:
    """Renders effects in one language through the templates of ``data.templates[lang]``."""

    def __init__(self, data: GameData, lang: str):
        self.data = data
        self.lang = lang
        self.tables: dict[str, Any] = dict(data.templates.get(lang) or {})
        raw_labels = self.tables.get("labels") or {}
        self.labels: dict[str, Any] = _Labels(raw_labels, lang, getattr(raw_labels, "loc", None))
        self.env = WordingSandbox(
            helpers=dict(
                n=self.n, cur=self.cur, form=self.form, at=self.at, name=self.name,
                names=self.names, genitives=self.genitives, card_name=self.card_name,
                shield_icon=self.shield, elector_of=self.elector, linked=self.linked,
                verb=self.verb, subject=self.subject, body=self.body, types=self.types,
                type_adj=self.type_adj),
            values=dict(
                # a plain copy: in a template a missing or underscored key must stay the
                # sandbox's business (an error at the template's own line)
                labels=dict(self.labels), directions=self.table("directions"),
                deed_ops=self.table("deed_ops"), numbers_adj=self.table("numbers_adj"),
                pile_phrase=self.table("pile_phrase")))
        self._compiled: dict[tuple[str, str], Any] = {}
        self._topic: str | None = None  # the side the current clause is about (pronouns)
        self._elide: str | None = None  # what a joined clause leaves out (see join_mode)

    def table(self, key: str) -> dict[str, Any]:
        value = self.tables.get(key)
        return dict(value) if isinstance(value, dict) else {}

    # helpers exposed to templates ----------------------------------------------------

    def form(self, noun: str, category: str) -> str:
        forms = self.data.nouns.get(noun, {}).get(self.lang)
        if forms is None:
            forms = (self.table("nouns").get(noun) or {})
        if not forms:
            raise TextError(f"no plural forms for noun '{noun}' in {self.lang}")
        return forms.get(category) or forms.get("other") or next(iter(forms.values()))

    def n(self, amount: int, noun: str) -> str:
        return f"{amount} {self.form(noun, plural_category(int(amount), self.lang))}"

    def cur(self, amount: int, currency: str) -> str:
        return self.n(amount, f"currency:{currency}")

    def place(self, pid: str):
        place = self.data.places.get(pid)
        if place is None:
            raise TextError(f"unknown place '{pid}'")
        return place

    def name(self, pid: str) -> str:
        return self.place(pid).name.get(self.lang) or pid

    def at(self, target: Any, form: str, kind: str) -> str:
        """A place phrase: one place, ``any``, or a list meaning one of them."""
        if isinstance(target, str) and target == "any":
            return self.labels[f"{kind}_any"][form]
        if isinstance(target, str):
            text = self.place(target).form(self.lang, form)
            if text is None:
                raise TextError(f"place '{target}' has no '{form}' form in {self.lang}")
            return text
        phrases = [self.at(t, form, kind) for t in target]
        if self.lang == "en":
            return f"{phrases[0].split(' ', 1)[0]} {self.labels['one_of']} " + self._join(
                [self.name(t) for t in target], "or")
        first = phrases[0].split(" ", 1)[0]
        if all(p.split(" ", 1)[0] == first for p in phrases):
            rest = [p.split(" ", 1)[1] for p in phrases[1:]]
            return self._join([phrases[0], *rest], "or")
        return self._join(phrases, "or")

    def names(self, targets: Any, conj: str) -> str:
        targets = [targets] if isinstance(targets, str) else list(targets)
        return self._join([self.name(t) for t in targets], conj)

    def genitives(self, targets: Any, conj: str = "or") -> str:
        """Czech genitive from the `from` form ("z Čech" → "Čech"); English: the name."""
        targets = [targets] if isinstance(targets, str) else list(targets)
        if self.lang == "en":
            return self._join([self.name(t) for t in targets], conj)
        out = []
        for t in targets:
            phrase = self.place(t).form(self.lang, "from") or self.name(t)
            out.append(phrase.split(" ", 1)[1] if " " in phrase else phrase)
        return self._join(out, conj)

    def _join(self, parts: list[str], conj: str) -> str:
        word = self.labels.get(conj, conj)
        if len(parts) <= 1:
            return "".join(parts)
        return ", ".join(parts[:-1]) + f" {word} " + parts[-1]

    def card_name(self, cid: str, case: str | None = None) -> str:
        """A card's name, in ``case`` (``name_forms`` of the card) inside running text."""
        card = self.data.card(cid)
        if card is None:
            raise TextError(f"unknown card '{cid}'")
        text = card.name_form(self.lang, case)
        if text is None and card.name.get(self.lang) is not None:
            raise TextError(f"card '{cid}' has no '{case}' form of its name in {self.lang} "
                            f"(add name_forms: {{{self.lang}: {{{case}: …}}}} next to its name)")
        return text or cid

    def shield(self, sid: str) -> str:
        if sid not in self.data.shields:
            raise TextError(f"unknown shield '{sid}'")
        return f":shield-{sid}:"

    def _form(self, pid: str, form: str) -> str:
        text = self.place(pid).form(self.lang, form)
        if text is None:
            raise TextError(f"place '{pid}' has no '{form}' form in {self.lang}")
        return text

    def elector(self, target: Any, who: str = "you") -> str:
        """Whose vote: a country's `elector` form ("the elector of Cologne", "kolínského
        kurfiřta"); several share their common words ("mohučského nebo trevírského kurfiřta")."""
        if target == "any":
            return self.labels["elector_any" if who == "you" else "elector_any_side"]
        if isinstance(target, str):
            return self._form(target, "elector")
        return self._shared([self._form(t, "elector") for t in target], "or")

    def _shared(self, phrases: list[str], conj: str) -> str:
        """Phrases joined, their common leading or trailing words said once."""
        words = [p.split() for p in phrases]
        if len(words) > 1:
            head = 0
            while all(len(w) > head + 1 and w[head] == words[0][head] for w in words):
                head += 1
            tail = 0
            while all(len(w) > tail + 1 and w[-1 - tail] == words[0][-1 - tail] for w in words):
                tail += 1
            if head:
                return " ".join(words[0][:head]) + " " + self._join(
                    [" ".join(w[head:]) for w in words], conj)
            if tail:
                return self._join([" ".join(w[:-tail]) for w in words], conj) + " " + " ".join(
                    words[0][-tail:])
        return self._join(phrases, conj)

    def linked(self, bg: str) -> str:
        links = list(self.place(bg).attrs.get("links") or [])
        text = self.elector(links[0] if len(links) == 1 else links)
        return f"{text} {self.labels['linked_choice']}" if len(links) > 1 else text

    def subject(self, who: str) -> str:
        self._topic = who
        return self.table("subjects")[who]["text"]

    def verb(self, verb: str, who: str = "you") -> str:
        """The verb for ``who``: the imperative for you; a side the clause already named
        becomes a pronoun (en "it places", cs only the verb: "umístí")."""
        forms = self.table("verbs")[verb]
        elide, self._elide = self._elide, None
        if elide == "verb":  # joined to the same op before it: the verb is said once
            return ""
        if who == "you":
            return forms["imp"]
        subj = self.table("subjects")[who]
        if elide == "side":  # joined to a clause of the same side: the side is said once
            self._topic = who
            return forms[subj["form"]]
        if who == self._topic and subj.get("pronoun") is not None:
            return f"{subj['pronoun']} {forms[subj['form']]}".strip()
        self._topic = who
        return f"{subj['text']} {forms[subj['form']]}"

    def types(self, ids: Any, form: str = "pl") -> str:
        ids = [ids] if isinstance(ids, str) else list(ids or ())
        return self._join([self.type_adj(t, form) for t in ids], "or")

    def type_adj(self, cid: str, form: str = "sg") -> str:
        entry = self.table("types").get(cid)
        if entry is None:
            raise TextError(f"no card-type wording for '{cid}' in {self.lang}")
        return entry[form]

    def body(self, effects: Any) -> str:
        """Nested effects as one clause list: "a, b and c"."""
        return self._join([self.clause(e) for e in effects or ()], "and")

    # rendering -------------------------------------------------------------------------

    def params(self, effect: Effect) -> dict[str, Any]:
        spec = (self.data.schema.get("ops") or {}).get(effect.op)
        if spec is None:
            raise TextError(f"unknown op '{effect.op}'")
        out: dict[str, Any] = {}
        for pname, pspec in (spec.get("params") or {}).items():
            out[pname] = effect.params.get(pname, (pspec or {}).get("default"))
        out["poss"] = "you" if out.get("who", "you") == "you" else "other"
        return out

    def clause(self, effect: Effect) -> str:
        source = (self.tables.get("ops") or {}).get(effect.op)
        if not isinstance(source, str):
            raise TextError(f"no {self.lang} template for op '{effect.op}'")
        text = self._render("ops", effect.op, source, self.params(effect))
        return " ".join(text.split())

    def join_mode(self, prev: Effect | None, effect: Effect) -> str | None:
        """How ``effect`` joins the clause of ``prev`` into one sentence (the language's
        ``join:`` table): ``verb`` — the same op for the same side says its verb once ("gain
        2 German and 1 Eastern"); ``side`` — the same named side says its name once
        ("Luxembourg removes … and gains …"); None — a sentence of its own."""
        if prev is None:
            return None
        rules = self.table("join")
        a, b = self.params(prev), self.params(effect)
        if a.get("who", "you") != b.get("who", "you") or any(
                p.get(k) for p in (a, b) for k in ("then", "otherwise")):
            return None
        if prev.op == effect.op and effect.op in (rules.get("same_op") or ()):
            return "verb"
        if rules.get("same_side") and a.get("who", "you") not in ("you", "each"):
            return "side"
        return None

    def line(self, line: CardLine) -> str:
        clauses: list[str] = []
        prev: Effect | None = None
        for effect in line.effects:
            self._topic = None  # pronouns only within one clause
            mode = self.join_mode(prev, effect)
            self._elide = mode
            text = self.clause(effect)
            self._elide = None
            if mode:
                clauses[-1] += f" {self.labels.get('and', 'and')} {text}"
                prev = None  # two clauses to a sentence at most
            else:
                clauses.append(text)
                prev = effect
        if not clauses:
            return ""
        prefix = None
        if line.kind == "boost":
            mode = line.attrs.get("mode", "adds")
            prefix = self.labels["boost_adds" if mode == "adds" else "boost_replaces"]
        elif line.kind == "acquire":
            prefix = self.labels["when_acquired"]
        if prefix:
            clauses[0] = f"{prefix} {clauses[0]}"
        return typography(" ".join(_sentence(c) for c in clauses), self.lang)

    def label(self, key: str, **values: Any) -> str:
        source = self.labels.get(key)
        if not isinstance(source, str):
            raise TextError(f"no {self.lang} label '{key}'")
        return typography(self._render("labels", key, source, values), self.lang)

    def template_errors(self) -> list[TextError]:
        """Every op template and label of this language that does not compile or that the
        sandbox refuses, without rendering any."""
        out = []
        for table in ("ops", "labels"):
            entries = self.tables.get(table)
            for key, source in (entries.items() if isinstance(entries, dict) else ()):
                if isinstance(source, str):
                    try:
                        self._template(table, key, source)
                    except TextError as exc:
                        out.append(exc)
        return out

    def _render(self, table: str, key: str, source: str, values: dict[str, Any]) -> str:
        """Render a template in the sandbox; any failure is a TextError at the template."""
        template = self._template(table, key, source)
        what = f"op '{key}'" if table == "ops" else f"label '{key}'"
        return run_wording(self.env, template, values, f"the {self.lang} template of {what}",
                           self._where(table, key))

    def _where(self, table: str, key: str) -> Location | None:
        entries: Any = self.tables.get(table)  # a LocMap, or a damaged table
        return entries.at(key) if hasattr(entries, "at") else None

    def _template(self, table: str, key: str, source: str) -> Any:
        """A compiled template (cached); see :func:`compile_wording`."""
        found = self._compiled.get((table, key))
        if found is None:
            found = self._compiled[(table, key)] = compile_wording(
                self.env, source, f"the {self.lang} template '{key}'", self._where(table, key))
        return found


def compile_wording(env: WordingSandbox, source: str, what: str, where: Location | None) -> Any:
    """``source`` compiled in ``env`` (plain text as it is). A syntax error, a text longer
    than any card text, or a statement, attribute or call the sandbox does not allow is a
    TextError at ``where``; ``what`` names the template in its message."""
    if "{" not in source:  # plain text (most labels): nothing to compile or refuse
        return _Plain(source)
    refused = source_limits(source)
    if not refused:
        with _template_errors(what, where, "has a syntax error"):
            tree = env.parse(source)
        refused = tree_limits(tree) or refusals(tree, env.helpers)
    if refused:
        raise TextError(f"{what} is refused: " + "; ".join(refused), where,
                        code="template-unsafe")
    with _template_errors(what, where, "does not compile"):
        return env.from_string(tree)


def run_wording(env: WordingSandbox, template: Any, values: dict[str, Any], what: str,
                where: Location | None) -> str:
    """``template`` rendered in ``env`` within its budget. Whatever goes wrong while it runs
    (a refusal, the budget, ``1/0``, ``'a' - 'b'``, an undefined name, a helper's complaint)
    is a :class:`TextError` at ``where``, never a traceback; ``what`` names the template."""
    try:
        return env.render(template, values)
    except TextError:
        raise  # a helper's complaint about the data it was given: located by the caller
    except SecurityError as exc:
        raise TextError(f"{what} is refused: {exc}", where, code="template-unsafe") from None
    except RecursionError:
        raise TextError(f"{what} nests too deeply", where, code="template-unsafe") from None
    except Exception as exc:
        raise TextError(f"{what} does not render: {_plain_error(exc)}", where,
                        code="template-error") from None


def _plain_error(exc: Exception) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:200]}"


@dataclass(frozen=True)
class _Plain:
    """A template without Jinja syntax: rendered, it is its text."""

    text: str

    def render(self, **_values: Any) -> str:
        return self.text.removesuffix("\n")  # as Jinja (keep_trailing_newline=False)


_RENDERERS: Memo[tuple[int, str], Renderer] = Memo(8)  # a few projects × languages


def renderer(data: GameData, lang: str) -> Renderer:
    key = (id(data), lang)
    found = _RENDERERS.get(key)
    if found is None or found.data is not data:
        found = _RENDERERS[key] = Renderer(data, lang)
    return found


def canonical_text(data: GameData, card: Card, line: CardLine, lang: str) -> str:
    """The canonical text of ``line`` in ``lang``; raises :class:`TextError` if it can't."""
    del card  # the text depends only on the line's effects; kept for the stable signature
    return renderer(data, lang).line(line)
