"""The tables in one language: the facts of :mod:`.facts` in the words of card_data.

Every word comes from data: table titles, heads and row labels from ``tables:`` in
card_data/text/<lang>.yaml; terms and definitions from the glossary; names of cards,
places and shields from their records; kinds, bonuses and reminder texts from
components.yaml (the board's own words). Czech typography is applied to every cell.
"""

from __future__ import annotations

import re
from typing import Any

from ..board.base import display_name
from ..data.model import INVENTORY_GROUPS, CardLine, GameData
from ..errors import CardgenError, Finding, Location, Severity, error, has_errors, warning
from ..wording.components import Components
from ..wording.sandbox import WordingSandbox
from ..wording.templates import (
    TextError,
    compile_wording,
    normalize,
    renderer,
    run_wording,
    typography,
)
from . import facts as f
from .glossary import SORT_KEYS, headword
from .table import Cell, Document, Icon, Row, Table

#: Column count of each table: its ``head`` in text/<lang>.yaml must have as many.
COLUMNS = {"key_terms": 3, "inventory": 3, "countries": 4, "battlegrounds": 4, "shields": 5}

#: Every label under ``tables:`` the tables print (dotted paths).
LABELS: tuple[str, ...] = (
    "title", "subtitle", "prototype_mark", "prototype_note", "none", "copies", "per",
    *(f"{t}.{k}" for t in COLUMNS for k in ("number", "title", "head")),
    *(f"inventory.{k}" for k in (
        "cards", "components", *INVENTORY_GROUPS, "physical_cards", "board", "shield_markers",
        "round_marker", "loyalty_marker", "card_play_marker", "vote_markers", "influence",
        "military", "currency", "reminders", "tokens", "side", "currency_each")),
    "shields.event",
)

#: Labels that are words only, never rendered as templates
_PLAIN_SUFFIXES = (".head", ".number")


def _file(lang: str) -> str:
    return f"card_data/text/{lang}.yaml"


def _lookup(root: Any, path: str) -> tuple[Any, Location | None]:
    node, loc = root, getattr(root, "loc", None)
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            return None, loc
        loc = node.at(key) if hasattr(node, "at") else loc
        node = node[key]
    return node, loc


def label_findings(data: GameData, lang: str) -> list[Finding]:
    """Missing table labels (errors) and glossary terms the Key terms table can't define
    (warnings), checked before a build."""
    root = (data.templates.get(lang) or {}).get("tables")
    where = getattr(root, "loc", None) or Location(_file(lang))
    out: list[Finding] = []
    if not isinstance(root, dict):
        return [error("missing-label", f"{_file(lang)} has no 'tables:' section", lang=lang,
                      location=where, hint="add the tables' titles and heads (see en.yaml)")]
    missing = [p for p in LABELS if _lookup(root, p)[0] is None]
    if missing:
        out.append(error("missing-label", f"{_file(lang)} has no {', '.join(missing)} under "
                         "tables", lang=lang, location=where,
                         hint="add the labels the rulebook tables print"))
    for table, columns in COLUMNS.items():
        head, loc = _lookup(root, f"{table}.head")
        if head is not None and (not isinstance(head, list) or len(head) != columns):
            out.append(error("table-head", f"tables.{table}.head must list {columns} column "
                             "heads", lang=lang, location=loc or where))
    out += _forbidden_findings(data, lang, root)
    out += _template_findings(lang, root)
    for term in data.glossary:
        if term.rule is None or term.definition is None or not term.definition.get(lang):
            out.append(warning("term-undefined", f"glossary term '{term.id}' has no {lang} "
                               "definition or no rule; 1.4 Key terms leaves the cell empty",
                               lang=lang, location=term.loc,
                               hint="add 'rule: \"x.y\"' and 'definition: {en: …, cs: …}'"))
    return out


def _template_findings(lang: str, root: Any) -> list[Finding]:
    """Each label template compiles inside the wording sandbox (the labels are a
    translator's text, as untrusted as the card templates): one error per template."""
    out = []
    sandbox = WordingSandbox({}, {})
    for path in LABELS:
        source, loc = _lookup(root, path)
        if isinstance(source, str) and not path.endswith(_PLAIN_SUFFIXES):
            try:
                compile_wording(sandbox, source, f"the {lang} template 'tables.{path}'", loc)
            except TextError as exc:
                out.append(exc.finding(lang))
    return out


def _texts(node: Any, loc: Location) -> Any:
    """(text, location) of every string under a labels mapping or list."""
    if isinstance(node, str):
        yield node, loc
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _texts(value, node.at(key) if hasattr(node, "at") else loc)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _texts(value, node.at(i) if hasattr(node, "at") else loc)


def _forbidden_findings(data: GameData, lang: str, root: Any) -> list[Finding]:
    """The glossary decides every word: its forbidden variants (the counter verb, VLA-61)
    are errors in the table labels and the key-term definitions too."""
    texts = list(_texts(root, root.loc if hasattr(root, "loc") else Location(_file(lang))))
    texts += [(t.definition.get(lang), t.definition.at(lang)) for t in data.glossary
              if t.definition is not None and t.definition.get(lang)]
    out = []
    for text, loc in texts:
        for term in data.glossary:
            for pattern, use in term.forbidden.get(lang, ()):
                for m in pattern.finditer(text):
                    out.append(error("lang-forbidden", f"'{m.group()}' is a forbidden variant "
                                     f"of the glossary term '{term.id}'", lang=lang,
                                     location=loc, hint=f"write '{use}'"))
    return out


class Words:
    """The words of one language: table labels, names and glossary terms."""

    def __init__(self, data: GameData, lang: str, comp: Components):
        found = label_findings(data, lang)
        if has_errors(found):
            raise CardgenError([x for x in found if x.severity is Severity.ERROR])
        self.data, self.lang, self.comp = data, lang, comp
        self.root = data.templates[lang]["tables"]
        self.sandbox = WordingSandbox({}, {})  # labels get values only, no helpers
        self._compiled: dict[str, Any] = {}

    def raw(self, path: str) -> Any:
        return _lookup(self.root, path)[0]

    def __call__(self, path: str, **values: Any) -> str:
        source, where = _lookup(self.root, path)
        what = f"the {self.lang} template 'tables.{path}'"
        try:
            if path not in self._compiled:
                self._compiled[path] = compile_wording(self.sandbox, str(source), what, where)
            text = run_wording(self.sandbox, self._compiled[path], values, what, where)
        except TextError as exc:
            raise CardgenError(exc.finding(self.lang)) from None
        return self.typo(text)

    def typo(self, text: str) -> str:
        return typography(text, self.lang)

    def card(self, card_id: str) -> str:
        card = self.data.card(card_id)
        return self.typo((card.name.get(self.lang) if card else None) or card_id)

    def place(self, pid: str) -> str:
        return self.typo(display_name(self.data.places[pid].name.get(self.lang) or pid, self.lang))

    def shield(self, sid: str, heading: bool = True) -> str:
        name = self.data.shields[sid].name.get(self.lang) or sid
        return self.typo(display_name(name, self.lang) if heading else name)

    def join_or(self, parts: list[str]) -> str:
        word = self.comp.label("supply_or", self.lang)
        return ", ".join(parts[:-1]) + f" {word} " + parts[-1] if len(parts) > 1 else "".join(parts)


def document(data: GameData, lang: str, comp: Components, inventory: f.Inventory) -> Document:
    """Every table in ``lang``, in the rulebook's order."""
    w = Words(data, lang, comp)
    version = {"rules": data.game.rules_version, "data": data.game.data_version}
    return Document(lang, w("title"), w("subtitle", **version), w("prototype_mark"),
                    w("prototype_note", **version),
                    (key_terms(w), inventory_table(w, inventory), countries(w),
                     battlegrounds(w), shields(w)))


def _table(w: Words, table_id: str, rows: list[Row], widths: tuple[float, ...]) -> Table:
    head = tuple(w.typo(str(h)) for h in w.raw(f"{table_id}.head"))
    return Table(table_id, str(w.raw(f"{table_id}.number")), w(f"{table_id}.title"), head,
                 tuple(rows), widths)


def key_terms(w: Words) -> Table:
    """One row per headword; terms sharing one ("získat": acquire 6.2, gain 2.4) are one
    row with numbered senses, as a dictionary prints them."""
    senses: dict[str, list[Any]] = {}
    for term in w.data.glossary:
        senses.setdefault(headword(term, w.lang), []).append(term)
    rows = []
    for name, terms in senses.items():
        texts = [(t.definition.get(w.lang) if t.definition else None) or "" for t in terms]
        definition = texts[0] if len(texts) == 1 else " ".join(
            f"{i}. {text}" for i, text in enumerate(texts, 1))
        rule = ", ".join(dict.fromkeys(t.rule for t in terms if t.rule))
        # a definition is wording, not a prototype value: no "*" (DECISIONS: key terms)
        rows.append((SORT_KEYS[w.lang](name), Row((
            Cell(w.typo(name)), Cell(w.typo(definition)),
            Cell(rule, numeric=True)))))
    return _table(w, "key_terms", [r for _k, r in sorted(rows, key=lambda r: r[0])],
                  (0.24, 0.6, 0.16))


#: the space after a regnal number ("Fridrich IV. Norimberský"): a list's wide column keeps
#: a two-part royal name on one line (issue 41, no. 24; typography binds the number itself)
_AFTER_REGNAL = re.compile(r"(?<=[\s\u00a0][IVXL]\.) |(?<=[\s\u00a0][IVXL]{2}\.) "
                           r"|(?<=[\s\u00a0][IVXL]{3}\.) ")


def _parts(w: Words, parts: tuple[f.Part, ...]) -> list[str]:
    names = []
    for part in parts:
        if part.kind == "card":
            names.append(_AFTER_REGNAL.sub("\u00a0", w.card(part.ref)))
        elif part.kind == "shield":
            names.append(w.shield(part.ref, heading=False))
        elif part.kind == "reminder":
            rem = next(r for r in w.comp.tokens.get("reminders") or [] if str(r["id"]) == part.ref)
            names.append(str(rem["text"][w.lang]))
        else:
            names.append(part.ref)
    out = []
    for part, name in zip(parts, names, strict=True):
        card = w.data.card(part.ref) if part.kind == "card" else None
        if card is not None and card.side and names.count(name) > 1:  # John's two cards
            whose = w.raw(f"side_card.{card.side}") or w.data.sides[card.side].name.get(w.lang)
            name = f"{name} ({whose})"
        if part.kind == "count":
            out.append(str(part.count))
        elif part.count != 1 or part.kind == "value":
            # bound to what it counts: "4 ×" never ends a line (issue 41, no. 7)
            out.append(f"{w('copies', n=part.count)}\u00a0{name}")
        else:
            out.append(name)
    return out


def _entry(w: Words, entry: f.Entry) -> Row:
    contents = ", ".join(_parts(w, entry.parts))
    if entry.per:
        contents = w("per", n=contents, what=w(f"inventory.{entry.per}"))
    return Row((Cell(w(f"inventory.{entry.key}")),
                Cell(str(entry.count), entry.prototype, numeric=True),
                Cell(w.typo(contents))))


def inventory_table(w: Words, inv: f.Inventory) -> Table:
    rows = [Row((Cell(w("inventory.cards")), Cell(""), Cell("")), "group")]
    rows += [_entry(w, e) for e in inv.cards]
    rows.append(Row((Cell(w("inventory.physical_cards")), Cell(str(inv.card_total), numeric=True),
                     Cell("")), "total"))
    rows.append(Row((Cell(w("inventory.components")), Cell(""), Cell("")), "group"))
    rows += [_entry(w, e) for e in inv.components]
    rows.append(Row((Cell(w("inventory.tokens")),
                     Cell(str(inv.component_total), w.data.game.prototype, numeric=True),
                     Cell("")), "total"))
    return _table(w, "inventory", rows, (0.3, 0.1, 0.6))


def countries(w: Words) -> Table:
    rows = []
    for c in f.countries(w.data):
        linked = [w.place(b) for b in c.battlegrounds]
        rows.append(Row((
            Cell(w.place(c.id)),
            Cell(w.typo(w.comp.label(c.kind, w.lang)),
                 icon=Icon("mitre" if c.kind == "ecclesiastical" else "crown")),
            Cell(str(c.stability), c.stability_prototype, numeric=True),
            Cell(", ".join(linked) if linked else w("none"), c.links_prototype))))
    return _table(w, "countries", rows, (0.27, 0.25, 0.13, 0.35))


def battlegrounds(w: Words) -> Table:
    rows = []
    for b in f.battlegrounds(w.data):
        rows.append(Row((
            Cell(w.place(b.id)),
            Cell(w.typo(w.comp.label(f"bonus_{b.bonus}", w.lang)), b.bonus_prototype,
                 icon=Icon(b.bonus)),
            Cell(w.join_or([w.place(x) for x in b.links]) or w("none"), b.links_prototype),
            Cell(w.card(b.battle_event) if b.battle_event else w("none")))))
    return _table(w, "battlegrounds", rows, (0.25, 0.2, 0.28, 0.27))


def _passive_texts(w: Words, s: f.ShieldFacts) -> tuple[str, bool]:
    """What the shield gives: every line that checks it (another card's with its name),
    then the lasting effects of the event that placed it; and whether any is prototype."""
    forms = w.data.shields[s.id].forms.get(w.lang, {})
    inline = forms.get("the") or forms.get("nom") or w.shield(s.id)
    texts: list[str] = []
    proto = False
    for check in s.checks:
        card = w.data.card(check.card)
        line = card.line(check.line) if card else None
        if check.card == s.holder and line is not None and line.text is not None:
            text = line.text.get(w.lang) or ""
        else:  # another card's line: only the clauses about this shield, once (12.12)
            hooks = CardLine(check.line, check.hooks, None, w.data.shields[s.id].loc)
            said = renderer(w.data, w.lang)
            if any(_said(said.body(h.params.get("then")), t) for h in check.hooks for t in texts):
                continue
            text = f"{w.card(check.card)}: {said.line(hooks)}"
        texts.append(text.replace(f":shield-{s.id}:", inline))
        proto = proto or bool(card and card.prototype)
    if s.states:
        line = CardLine("event", s.states, None, w.data.shields[s.id].loc)
        stated = renderer(w.data, w.lang).line(line)
        if not any(stated in text for text in texts):  # a card's own line may say it (5.52)
            texts.insert(0, stated)
        holder = w.data.card(s.holder)
        proto = proto or bool(holder and holder.prototype)
    return w.typo(" ".join(texts)), proto


def _said(clause: str, text: str) -> bool:
    """Whether ``text`` already states ``clause`` (typography set aside)."""
    return bool(clause) and normalize(clause).lower() in normalize(text).lower()


def shields(w: Words) -> Table:
    rows = []
    for s in f.shields(w.data):
        holder = w.data.card(s.holder)
        placed_by = w.card(s.holder)
        if holder is not None and holder.is_event:
            placed_by = f"{placed_by} ({w('shields.event')})"
        passive, proto = _passive_texts(w, s)
        rows.append(Row((
            Cell(w.shield(s.id), icon=Icon("shield", s.id)),
            Cell(w.typo(placed_by)),
            Cell(w.place(s.location) if s.location else w("none")),
            Cell(passive, proto),
            Cell(", ".join(s.rules)))))
    return _table(w, "shields", rows, (0.2, 0.17, 0.16, 0.37, 0.1))
