"""Written card text against the canonical text rendered from the line's effects.

Per card, per line kind (never by position) and per language:

* written text missing → ``missing-text`` (a missing translation never falls back to English);
* written text that differs from the canonical text after typographic normalisation
  (spaces, non-breaking spaces, quotes, dashes) → ``text-differs``, an error naming the
  facts that differ (numbers, places, negations …) and the rule of the clause they belong to;
* every language's text differing from the effects the same way (an effect changed, the
  texts left) → one ``text-differs`` at the effect;
* a line with a reviewed ``wording_exception`` for that language may be worded otherwise,
  but it must still state every meaning-bearing fact its effects give → ``text-meaning``;
* a forbidden glossary variant (e.g. a bare "zrušit" / "cancel", VLA-61) → ``forbidden-term``.

The facts are counted in the canonical text (the effects' rendering) and in the written
text: numbers, places, currencies, card names, shields, glossary terms, sentences, and the
fact classes of the ``meaning`` vocabulary in card_data/text/<lang>.yaml (negation, less /
more, up to, one of / split, conditions, otherwise, durations, sides, John's direction …),
both texts with card and place names set aside. Where the line's facts agree, they are
compared statement by statement and clause by clause (sentences, a sentence opening with
"otherwise" kept with the one before; clauses end at the ``clauses:`` boundaries of the
language file and before "otherwise"), so a negation, a side or a condition moved to
another clause or branch is found too. Statements may stand in another order; the clauses
of a statement may not.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import partial
from itertools import permutations

from ..data.model import LANGS, Card, CardLine, Effect, GameData
from ..data.patterns import PatternError, bounded
from ..errors import Finding, Location, error
from ..files.incremental import digest
from ..wording.templates import TextError, canonical_text, normalize, renderer
from .cache import CheckCache, card_key, text_key
from .facts import rulebook_data, rulebook_line
from .opfacts import describe, line_facts, unstated
from .textfacts import TextFacts, describe_delta, fact_delta, text_facts

#: The head of the description of facts that stand in other clauses or branches.
_MOVED = "a fact stands in another clause than in the canonical text"
#: The head of the description of the effects' parameters a text does not state.
EFFECT_FACTS = "facts of the effects"
_BRANCHES = "the branches of the condition say different things"
#: More statements than this are compared in order, not in every order.
_MOST_REORDERED = 6


def _differences(facts: TextFacts, written: str, canonical: str
                 ) -> tuple[Counter[tuple[str, str]], list[str], bool]:
    """The differing facts, their description, and whether they lie in the branches of a
    condition: over the whole line first, then statement by statement, clause by clause."""
    have, want = facts.of(written), facts.of(canonical)
    diff = fact_delta(have, want)
    if diff:
        return diff, describe_delta(have, want), False
    mine, theirs = facts.statements(written), facts.statements(canonical)
    if len(mine) != len(theirs):  # as many sentences, but another one opens with "otherwise"
        return (Counter({("meaning", "otherwise"): 1}),
                [f"{_BRANCHES}: an 'otherwise' sentence does not follow its condition as in "
                 "the canonical text"], True)
    said: list[str] = []
    branches = False
    for w, c in zip(_aligned(facts, mine, theirs), theirs, strict=True):
        ours, canon = facts.branches(w), facts.branches(c)
        if len(ours) != len(canon):
            diff[("meaning", "otherwise")] += 1
            said.append(f"\u201c{' '.join(w)}\u201d has {len(ours)} branches where the "
                        f"canonical \u201c{' '.join(c)}\u201d has {len(canon)}")
            branches = True
            continue
        differing = 0
        for x, y in zip(ours, canon, strict=True):
            pairs = list(zip(x, y, strict=True)) if len(x) == len(y) else [(" ".join(x),
                                                                             " ".join(y))]
            before = len(said)
            for a, b in pairs:
                have, want = facts.clause_facts(a), facts.clause_facts(b)
                if fact_delta(have, want):
                    diff += fact_delta(have, want)
                    said.append(f"\u201c{a}\u201d where the canonical text has \u201c{b}\u201d: "
                                + ", ".join(describe_delta(have, want)))
            differing += len(said) > before
        branches |= differing > 1
    if said:
        said.insert(0, _BRANCHES if branches else _MOVED)
    return diff, said, branches


def _aligned(facts: TextFacts, mine: list[list[str]], theirs: list[list[str]]
             ) -> list[list[str]]:
    """The written statements in the order that pairs each with the canonical statement it
    matches best (names, numbers, places … first, then every fact; ties keep the order)."""
    if len(mine) > _MOST_REORDERED:
        return mine
    counts = [facts.clause_facts(" ".join(s)) for s in mine]
    wanted = [facts.clause_facts(" ".join(s)) for s in theirs]

    def cost(order: tuple[int, ...]) -> tuple[int, int]:
        deltas = [fact_delta(counts[j], wanted[i]) for i, j in enumerate(order)]
        return (sum(n for d in deltas for (kind, _), n in d.items() if kind != "meaning"),
                sum(sum(d.values()) for d in deltas))
    best = min(permutations(range(len(mine))), key=cost)
    return [mine[j] for j in best]


def _deepest_first(effects: Iterable[Effect]) -> Iterator[Effect]:
    for effect in effects:
        for _key, inner in effect.nested():
            yield from _deepest_first(inner)
        yield effect


def _rule_of_clause(data: GameData, line: CardLine, lang: str, diff: Counter,
                    branches: bool = False) -> str | None:
    """The rule of the innermost clause that states a differing fact (else the first op's);
    for branches in another order, the rule of the condition that has them."""
    effect = _clause_effect(data, line, lang, diff, branches)
    return str((data.schema.get("ops") or {})[effect.op]["rule"]) if effect else None


def _clause_effect(data: GameData, line: CardLine, lang: str, diff: Counter,
                   branches: bool = False) -> Effect | None:
    """The innermost effect with a rule whose clause states a differing fact (else the
    first with a rule); for branches in another order, the condition that has them."""
    ops = data.schema.get("ops") or {}
    if branches:
        diff = Counter({("meaning", "otherwise"): 1})
    facts, r = text_facts(data, lang), renderer(data, lang)
    wanted = {key for key in diff if key[0] != "sentences"}
    for effect in _deepest_first(line.effects):
        try:
            clause = facts.of(r.clause(effect))
        except TextError:
            continue
        if wanted & set(clause) and (ops.get(effect.op) or {}).get("rule"):
            return effect
    return next((e for e in line.effects if (ops.get(e.op) or {}).get("rule")), None)


def _forbidden(data: GameData, card: Card, line: CardLine, lang: str, text: str
               ) -> Iterable[Finding]:
    for term in data.glossary:
        for pattern, use in term.forbidden.get(lang, ()):
            match = pattern.search(text)
            if match:
                yield error("forbidden-term",
                            f"'{match.group(0)}' in the {line.kind} text: the glossary says "
                            f"'{use}' ({term.note or term.id})",
                            location=line.text.at(lang) if line.text else line.loc,
                            card=card.id, lang=lang, rule="5.6" if term.id == "counter"
                            else None, hint=f"write '{use}'", extra=_text_key(card, line))


#: The ``extra`` key of a text finding that follows only from data changed against rulebook
#: facts (their keys, space-separated, as in facts.FIXES): the check folds it into the
#: rule-fact finding of the first.
FOLLOWS_FACT = "follows_fact"


def _text_key(card: Card, line: CardLine) -> dict[str, str]:
    """Marks a finding as about this text: the language checks then stay quiet on it."""
    return {"text": f"{card.id}:{line.kind}"}


def _exception(card: Card, line: CardLine, lang: str):
    return next((ex for ex in card.exceptions if ex.line == line.kind and ex.lang == lang), None)


def _check_line(data: GameData, card: Card, line: CardLine, lang: str,
                fixed: tuple[GameData, list[str], list[str]] | None = None
                ) -> Iterable[Finding]:
    written = line.text.get(lang) if line.text else None
    where = line.text.at(lang) if line.text else line.loc
    try:
        canonical = canonical_text(data, card, line, lang) if line.effects else None
    except TextError as exc:
        if exc.unsafe:  # the template's fault, reported once at its line
            yield exc.finding(lang)
            return
        yield error("text-render", f"the {line.kind} line has no canonical {lang} text: {exc}",
                    location=exc.location or line.at("effects"), card=card.id, lang=lang,
                    hint="fix the effects (see the effects findings) or the template")
        canonical = None
    if written is None:
        yield error("missing-text", f"the {line.kind} line has no {lang} text "
                    "(a missing translation is never filled from another language)",
                    location=where, card=card.id, lang=lang, rule="2.36",
                    hint=f"write: {canonical}  (or run 'cardgen check --fill')" if canonical
                    else "add the text")
        return
    forbidden = list(_forbidden(data, card, line, lang, written))
    yield from forbidden
    if forbidden or canonical is None or normalize(written) == normalize(canonical):
        return
    found = _against(data, line, lang, written, canonical, card)
    if found is not None:
        yield _as_the_rules_fix(data, fixed, card, line, lang, written, canonical, found)


def _as_the_rules_fix(data: GameData, fixed: tuple[GameData, list[str], list[str]] | None,
                      card: Card, line: CardLine, lang: str, written: str, canonical: str,
                      found: Finding) -> Finding:
    """``found``, unless the data breaks rulebook facts that change this line's canonical
    text (its effects, the names of cards and places, supply lines): then the line as those
    facts fix it is compared instead, and ``found`` is marked as following them (folded
    into their ``rule-fact``) when the written text says what they fix, or replaced by the
    text's own finding against that text (an edit of its own)."""
    base = data
    keys: list[str] = []
    rules: list[str] = []
    if fixed is not None and normalize(_rendered(fixed[0], lang, line) or canonical) != \
            normalize(canonical):
        base, keys, rules = fixed
    ruled = rulebook_line(base, card, line)
    if ruled is not None:
        keys, rules = [f"{card.id}:{line.kind}", *keys], [*ruled.rules, *rules]
    facts, mine = text_facts(base, lang), text_facts(data, lang)
    have = facts.of(written)
    follows = replace(found, extra={**found.extra, FOLLOWS_FACT: " ".join(keys)})
    off = [(sum(fact_delta(have, facts.of(t)).values()), option, t)
           for option in (ruled.lines if ruled is not None else [line])
           if (t := _rendered(base, lang, option)) is not None
           and normalize(t) != normalize(canonical)]
    if not off:  # an added effect that does not render without the values its fact leaves open
        added = ruled is not None and ruled.added
        return follows if added and not mine.of(canonical) - mine.of(written) else found
    miss, option, as_ruled = min(off, key=lambda o: (o[0], normalize(o[2]) != normalize(written)))
    if miss > sum(fact_delta(mine.of(written), mine.of(canonical)).values()):
        return found  # the facts would not bring the text closer: an edit of its own
    separate = _against(base, option, lang=lang, written=written, canonical=as_ruled,
                        card=card, ruled_by=rules)
    says_it = ruled is not None and ruled.added and not facts.of(as_ruled) - have
    if normalize(written) == normalize(as_ruled) or separate is None or says_it:
        return follows
    return separate


def _rendered(data: GameData, lang: str, line: CardLine) -> str | None:
    try:
        return renderer(data, lang).line(line)
    except TextError:
        return None


def _against(data: GameData, line: CardLine, lang: str, written: str, canonical: str,
             card: Card, ruled_by: list[str] | None = None) -> Finding | None:
    """The finding on ``written`` against ``canonical`` (the text of ``line``'s effects, or
    of the effects as the rules ``ruled_by`` fix them): ``text-differs``, or under a wording
    exception ``text-meaning`` for a differing fact (None when there is none)."""
    where = line.text.at(lang) if line.text else line.loc
    facts = text_facts(data, lang)
    diff, diffs, branches = _differences(facts, written, canonical)
    foreign = [name for pid, name, pat in facts.foreign_places if pat.search(written)]
    if foreign:
        diffs.append(f"place name in another language: {', '.join(foreign)}")
    of = f" (as rule {', '.join(ruled_by)} fixes the data)" if ruled_by else ""
    both = f"\n    written:   {written}\n    canonical{of}: {canonical}"
    rule = _rule_of_clause(data, line, lang, diff, branches)
    effects = unstated(line_facts(data, line, lang), written, canonical)
    if effects:
        diffs.append(f"{EFFECT_FACTS}: {describe(effects)}")
        rule = rule if len(diffs) > 1 else effects[0][0].rule or rule
    reviewed = _exception(card, line, lang)
    if reviewed is None:
        what = (f"does not say what its effects do ({'; '.join(diffs)})" if diffs
                else "is worded differently from the canonical text, though it states "
                "every fact of its effects")
        return error("text-differs", f"the {line.kind} text {what}{both}", location=where,
                     card=card.id, lang=lang, rule=rule, extra=_text_key(card, line),
                     hint="write the canonical text, change the wording template in "
                     f"card_data/text/{lang}.yaml, or record the reviewed wording on the line: "
                     f'wording_exception: {{{lang}: "reason"}}' if not diffs else
                     "make the text match the effects, or the effects the text (a wording "
                     "exception never allows a changed fact)")
    if diffs:
        return error("text-meaning", f"the {line.kind} text may be worded otherwise "
                     f"(wording exception at {reviewed.loc}), but it must still say what its "
                     f"effects do ({'; '.join(diffs)}){both}", location=where, card=card.id,
                     lang=lang, rule=rule, extra=_text_key(card, line),
                     hint="make the text state every fact of the canonical text"
                     + (", each in its clause" if diffs[0] in (_MOVED, _BRANCHES) else ""))
    return None


def check_templates(data: GameData) -> list[Finding]:
    """Every op template and label in card_data/text/*.yaml compiles and stays inside the
    sandbox (:mod:`cardgen.wording.sandbox`): one finding per template, at its line."""
    return [exc.finding(lang)
            for lang in LANGS for exc in renderer(data, lang).template_errors()]


def check_vocabulary(data: GameData) -> list[Finding]:
    """Every regular expression of the ``meaning:`` and ``clauses:`` tables compiles: a
    broken one is a ``text-vocabulary`` error at its line (the check leaves it out)."""
    out = []
    for lang in LANGS:
        tables = data.templates.get(lang) or {}
        meaning = tables.get("meaning")
        lists = [(f"meaning '{k}'", v) for k, v in meaning.items()] \
            if isinstance(meaning, dict) else []
        lists.append(("clauses", tables.get("clauses")))
        for what, patterns in lists:
            for i, source in enumerate(patterns if isinstance(patterns, list) else ()):
                try:
                    bounded(str(source))
                except PatternError as exc:
                    out.append(error("text-vocabulary", f"{what}: {source!r} is refused: {exc}",
                                     lang=lang,
                                     location=patterns.at(i) if hasattr(patterns, "at") else
                                     Location(f"card_data/text/{lang}.yaml"),
                                     hint="escape ( ) [ ] ? * + with a backslash, or fix the "
                                     "pattern"))
    return out


def check_texts(data: GameData, cache: CheckCache | None = None) -> list[Finding]:
    """Every card's written text against its canonical text (the effects as the rulebook
    facts fix them); with a ``cache``, only the cards whose record or shared inputs changed
    are checked again."""
    out = check_templates(data) + check_vocabulary(data)
    if not data.schema.get("ops"):
        return out  # no usable rule schema (reported by the load and effects checks): no canonical text
    fixed = rulebook_data(data)
    base = list(out)
    shared = digest(text_key(data), repr(fixed[1:] if fixed else None)) if cache is not None else ""
    for card in data.cards:
        found = (cache.findings(card_key("texts", shared, card),
                                partial(lambda card: _card_texts(data, card, fixed, base), card))
                 if cache is not None else _card_texts(data, card, fixed, base))
        out.extend(f for f in found if f not in out)
    return out


def _card_texts(data: GameData, card: Card, fixed: tuple[GameData, list[str], list[str]] | None,
                base: list[Finding]) -> list[Finding]:
    """One card's text findings; a line whose every text differs alike is one finding."""
    out: list[Finding] = []
    for kind in [ln.kind for ln in card.lines]:
        line = card.line(kind)
        if line is None:
            continue
        found = {lang: [f for f in _check_line(data, card, line, lang, fixed)
                        if f not in out and f not in base] for lang in LANGS}
        both = _one_for_both(data, card, line, found)
        out.extend([both] if both else [f for fs in found.values() for f in fs])
    return out


def _shifts(data: GameData, lang: str, written: str, canonical: str) -> dict:
    """How many more (+) or fewer (-) of each fact the written text states than the
    canonical text, for the facts named alike in every language."""
    facts = text_facts(data, lang)
    have, want = facts.of(written), facts.of(canonical)
    return {k: have[k] - want[k] for k in have | want
            if have[k] != want[k] and k[0] not in ("glossary terms", "sentences")}


def _one_for_both(data: GameData, card: Card, line: CardLine, found: dict[str, list[Finding]]
                  ) -> Finding | None:
    """One finding at the effect whose clause differs when every language's text differs
    from the effects the same way (the same numbers, places, names, shields, currencies;
    where none of these differ, a meaning they share): the effects changed while the texts
    stayed (or every text changed alike)."""
    texts = {lang: fs[0] for lang, fs in found.items() if len(fs) == 1}
    if len(texts) != len(LANGS) or not line.text or any(
            f.code not in ("text-differs", "text-meaning") or FOLLOWS_FACT in f.extra
            for f in texts.values()) or rulebook_line(data, card, line) is not None:
        return None
    canonical = {lang: _rendered(data, lang, line) for lang in LANGS}
    if None in canonical.values():
        return None
    shifts = [_shifts(data, lang, line.text.get(lang) or "", canonical[lang] or "")
              for lang in LANGS]
    plain = [{k: n for k, n in s.items() if k[0] != "meaning"} for s in shifts]
    shared = set.intersection(*({(k, n) for k, n in s.items() if k[0] == "meaning"}
                                for s in shifts))
    unsaid = [unstated(line_facts(data, line, lang), line.text.get(lang) or "",
                       canonical[lang] or "") for lang in LANGS]
    alike = set.intersection(*({f.name for f, _ in u} for u in unsaid))
    if any(p != plain[0] for p in plain) or not (plain[0] or shared or alike):
        return None
    diff = Counter({k: abs(n) for k, n in shifts[0].items()})
    effect = _clause_effect(data, line, LANGS[0], diff)
    described = describe_delta(*(text_facts(data, LANGS[0]).of(t) for t in (
        line.text.get(LANGS[0]) or "", canonical[LANGS[0]] or "")))
    if unsaid[0]:
        described.append(f"{EFFECT_FACTS}: {describe(unsaid[0])}")
    said = "; ".join(described)
    listed = " and ".join(f"{lang} ({f.location})" for lang, f in texts.items())
    shown = "".join(f"\n    written ({lang}):   {line.text.get(lang)}\n    canonical ({lang}): "
                    f"{canonical[lang]}" for lang in LANGS)
    return error("text-differs", f"the {listed} {line.kind} texts both say otherwise than "
                 f"the line's effects ({said}){shown}",
                 location=effect.loc if effect else line.at("effects"), card=card.id,
                 rule=texts[LANGS[0]].rule, extra=_text_key(card, line),
                 hint="put the effects right, or, if they are right, correct every text")
