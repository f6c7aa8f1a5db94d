"""Meaning of the board, token, player-aid and sheet texts (``card_data/components.yaml``,
``layouts/sheets.yaml``): what they restate of the rules, the game and the cards.

* A text that restates something names it: ``states: [fact:<id>, game:<path>,
  card:<id>.<op>.<param>]`` beside its ``en`` and ``cs``. ``fact:<id>`` is a game fact of
  card_data/rules/facts.yaml (its ``values`` are numbers, its ``words`` a direction or a side
  per language), ``game:counts.<name>`` / ``game:last_round`` a value of game.yaml,
  ``card:…`` a parameter of a card's effect. Each language must print every number and
  word it restates → ``component-meaning`` at that language's line, naming the source.
* The English and Czech of one text print the same numbers (signs included) and the same
  directions and sides (the ``meaning:`` classes of card_data/text/<lang>.yaml named in
  :data:`PARITY`), whether or not it names a source → ``component-meaning`` at the Czech.
* A board label the rulebook names (a game fact's ``labels``), and a marker count it fixes
  (``tokens``) → ``rule-fact`` at the label or the count.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, cast

from ..data.model import LANGS, GameData, walk
from ..data.project import Project
from ..data.yamlsrc import LocList, LocMap
from ..errors import Finding, Location, error
from ..wording.components import Components, load_components
from ..wording.templates import normalize
from .components import sheet_texts
from .facts import FACTS_FILE

#: The meaning classes both languages of a component text state alike.
PARITY = ("toward Charles", "toward Ludwig", "either way", "away from you", "toward you",
          "Luxembourg", "Wittelsbach",
          # words that order or select (issue 41, item 8)
          "first", "last", "top", "bottom", "next", "previous", "oldest", "newest")
#: A value the generator fills in ({first}, {plays}): its name is no word of the text.
_PLACEHOLDER = re.compile(r"\{\w+\}")
_NUMBER = re.compile(r"(?<![\w.])[+\u2212-]?\d+(?:\.\d+)*(?![\w])")


@dataclass
class _Text:
    """One bilingual text: where it is, its texts and locations per language, its sources."""

    path: str
    texts: dict[str, str]
    locs: dict[str, Location]
    states: list[tuple[str, Location]]


def numbers(text: str) -> Counter[str]:
    """The numbers ``text`` prints, signs included ("+1", "−2" as "-2", "4.0")."""
    return Counter(n.replace("\u2212", "-") for n in _NUMBER.findall(normalize(text)))


def _unsigned(found: Counter[str]) -> Counter[str]:
    out: Counter[str] = Counter()
    for n, k in found.items():
        out[n.lstrip("+-")] += k
    return out


def _component_texts(comp: Components) -> Iterator[_Text]:
    def walk(node: Any, path: str) -> Iterator[_Text]:
        if isinstance(node, LocMap):
            if any(k in LANGS for k in node):
                states = node.get("states")
                yield _Text(path, {k: v for k, v in node.items() if k in LANGS and
                                   isinstance(v, str)},
                            {k: node.at(k) for k in node if k in LANGS},
                            [(str(s), states.at(i) if isinstance(states, LocList) else
                              node.at("states")) for i, s in enumerate(states)]
                            if isinstance(states, list) else [])
                return
            for key, value in node.items():
                yield from walk(value, f"{path}.{key}" if path else str(key))
        elif isinstance(node, LocList):
            for i, value in enumerate(node):
                yield from walk(value, f"{path}[{i}]")

    yield from walk(comp.source.raw, "")


def _sheet_pairs(project: Project) -> Iterator[_Text]:
    pairs: dict[str, _Text] = {}
    for path, lang, text, loc in sheet_texts(project):
        key = path.split(".", 2)[2]  # strings.<lang>.<key>
        if "." in key:  # a plural table: its forms differ by language
            continue
        entry = pairs.setdefault(key, _Text(f"layouts/sheets.yaml strings.{key}", {}, {}, []))
        entry.texts[lang], entry.locs[lang] = text, loc
    yield from pairs.values()


def _game_facts(data: GameData) -> dict[str, Any]:
    raw = data.rule_facts
    facts = raw.get("facts") if isinstance(raw, dict) else None
    return {str(rec["game"]): rec for rec in facts or ()
            if isinstance(rec, dict) and "game" in rec}


@dataclass
class _Source:
    """What a ``states`` entry restates: numbers, words per language, and its citation."""

    numbers: list[int]
    words: dict[str, list[str]]
    cited: str
    rule: str | None = None


def _resolve(data: GameData, ref: str) -> _Source | str:
    """The source ``ref`` names, or why it can't be read."""
    kind, _, what = ref.partition(":")
    if kind == "fact":
        rec = _game_facts(data).get(what)
        if rec is None:
            return f"no game fact '{what}' in {FACTS_FILE}"
        values = rec.get("values") or {}
        words = rec.get("words") or {}
        return _Source([v for v in values.values() if isinstance(v, int)],
                       {k: [str(w) for w in v] for k, v in words.items()},
                       f"rule {rec.get('rule')} ({FACTS_FILE} game: {what})", str(rec.get("rule")))
    if kind == "game":
        if what == "last_round":
            rounds = [r for p in data.phases for r in p.rounds]
            return _Source([max(rounds)] if rounds else [], {}, "game.yaml phases")
        head, _, name = what.partition(".")
        value = data.game.counts.get(name) if head == "counts" else None
        if not isinstance(value, int):
            return f"game.yaml has no {what}"
        return _Source([value], {}, f"game.yaml {what}")
    if kind == "card":
        cid, _, rest = what.partition(".")
        op, _, param = rest.partition(".")
        card = data.card(cid)
        if card is None:
            return f"no card '{cid}'"
        found = next((e.params.get(param) for ln in card.lines for e in walk(ln.effects)
                      if e.op == op and param in e.params), None)
        if not isinstance(found, int):
            return f"card '{cid}' has no {op} effect with a number '{param}'"
        return _Source([found], {}, f"card {cid}, {op} {param}")
    return "a source is fact:<id>, game:counts.<name>, game:last_round or card:<id>.<op>.<param>"


def _has(text: str, word: str) -> bool:
    try:
        return re.search(rf"(?<!\w){word}(?!\w)", normalize(text), re.IGNORECASE) is not None
    except re.error:
        return normalize(word).lower() in normalize(text).lower()


def _restated(data: GameData, item: _Text) -> Iterator[Finding]:
    sources: list[_Source] = []
    for ref, where in item.states:
        source = _resolve(data, ref)
        if isinstance(source, str):
            yield error("component-meaning", f"{item.path}: states '{ref}': {source}",
                        location=where, hint="name a game fact, a game.yaml value or a card's "
                        "effect parameter")
        else:
            sources.append(source)
    for lang in LANGS:
        text = item.texts.get(lang)
        if text is None or not sources:
            continue
        wanted = Counter(str(n) for s in sources for n in s.numbers)
        missing = wanted - _unsigned(numbers(text))
        lacking = [(w, s) for s in sources for w in s.words.get(lang, ()) if not _has(text, w)]
        if not missing and not lacking:
            continue
        cited = [s for s in sources if any(str(n) in missing for n in s.numbers)
                 or any(s is t for _w, t in lacking)]
        said = ", ".join([*(f"the number {n}" for n in sorted(missing.elements())),
                          *(f"\u201c{w}\u201d" for w, _s in lacking)])
        rules = [s.rule for s in cited if s.rule]
        yield error("component-meaning", f"{item.path}: the {lang} text does not print {said} "
                    f"that it restates from {' and '.join(s.cited for s in cited)}: "
                    f"\u201c{text}\u201d", location=item.locs[lang], lang=lang,
                    rule=rules[0] if rules else None, hint="print what the source says, or, if "
                    "the source changed, name the right one in `states:`")


def _parity(vocab: dict[str, dict[str, re.Pattern[str]]], item: _Text) -> Iterator[Finding]:
    if not all(lang in item.texts for lang in LANGS):
        return
    en, cs = (item.texts[lang] for lang in LANGS)
    said = []
    if numbers(en) != numbers(cs):
        said.append(f"numbers {_listed(numbers(cs))} where the {LANGS[0]} has "
                    f"{_listed(numbers(en))}")
    for name in PARITY:
        pats = [vocab.get(lang, {}).get(name) for lang in LANGS]
        if None in pats:
            continue
        counts = [len(cast("re.Pattern[str]", p).findall(_PLACEHOLDER.sub(" ", normalize(t))))
                  for p, t in zip(pats, (en, cs), strict=True)]  # no None: skipped above
        if counts[0] != counts[1]:
            said.append(f"'{name}' {counts[1]}\u00d7 where the {LANGS[0]} says it {counts[0]}\u00d7")
    if said:
        yield error("component-meaning", f"{item.path}: the {LANGS[1]} text states "
                    f"{'; '.join(said)} ({item.locs[LANGS[0]]})\n    {LANGS[0]}: {en}\n    "
                    f"{LANGS[1]}: {cs}", location=item.locs[LANGS[1]], lang=LANGS[1],
                    hint="both languages state the same numbers, directions and sides")


def _listed(found: Counter[str]) -> str:
    return ", ".join(sorted(found.elements())) or "none"


def _vocabulary(data: GameData) -> dict[str, dict[str, re.Pattern[str]]]:
    out: dict[str, dict[str, re.Pattern[str]]] = {}
    for lang in LANGS:
        meaning = (data.templates.get(lang) or {}).get("meaning") or {}
        for name in PARITY:
            patterns = [str(p) for p in meaning.get(name) or ()]
            if patterns:
                try:
                    out.setdefault(lang, {})[name] = re.compile(
                        rf"(?<!\w)(?:{'|'.join(patterns)})(?!\w)", re.IGNORECASE)
                except re.error:  # reported by check_vocabulary
                    continue
    return out


def _labels(comp: Components, data: GameData) -> Iterator[Finding]:
    raw = comp.source.raw.get("labels")
    for rec in _game_facts(data).values():
        for key, want in (rec.get("labels") or {}).items():
            have = raw.get(key) if isinstance(raw, LocMap) else None
            wrong = [lang for lang in LANGS if not isinstance(have, dict) or normalize(
                str(have.get(lang) or "")).casefold() != normalize(str(want.get(lang))).casefold()]
            if wrong:
                shown = ", ".join(f"{(have or {}).get(lang)!r} ({lang})" for lang in wrong)
                named = ", ".join(f"{want.get(lang)!r} ({lang})" for lang in wrong)
                yield error("rule-fact", f"label {key}: the board has {shown}, the rulebook names "
                            f"it {named} (rule {rec.get('rule')}: \"{_quote(rec)}\")",
                            location=have.at(wrong[0]) if isinstance(have, LocMap) else
                            comp.source.at("labels"), lang=wrong[0] if len(wrong) == 1 else None,
                            rule=str(rec.get("rule")), hint="use the rulebook's name in both "
                            "languages")


def _tokens(comp: Components, data: GameData) -> Iterator[Finding]:
    """Marker counts the rulebook fixes (a game fact's ``tokens``) against components.yaml."""
    raw = comp.source.raw.get("tokens")
    for rec in _game_facts(data).values():
        for key, want in (rec.get("tokens") or {}).items():
            have = comp.tokens.get(key)
            if have != want:
                yield error("rule-fact", f"tokens.{key}: components.yaml has {have}, rule "
                            f"{rec.get('rule')} fixes {want} (\"{_quote(rec)}\")",
                            location=raw.at(key) if isinstance(raw, LocMap) and key in raw
                            else comp.source.at("tokens"), rule=str(rec.get("rule")),
                            hint="the rulebook fixes this count; it is not a prototype value")


def _quote(rec: dict) -> str:
    quote = rec.get("quote")
    return " / ".join(map(str, quote.values())) if isinstance(quote, dict) else str(quote)


def check_restated(project: Project) -> list[Finding]:
    data = project.data
    """Every board, token, aid and sheet text against what it restates, and its two
    languages against each other (see the module docstring)."""
    vocab = _vocabulary(data)
    comp, _ = load_components(project)
    texts = list(_sheet_pairs(project))
    out: list[Finding] = []
    if comp is not None:  # else the build reports why
        out += [*_labels(comp, data), *_tokens(comp, data)]
        texts = [*_component_texts(comp), *texts]
    for item in texts:
        restated = list(_restated(data, item))
        out.extend(restated)
        if not restated:  # one mistake, one finding: the source names the line to fix
            out.extend(_parity(vocab, item))
    return out
