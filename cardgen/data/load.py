"""Load stage: card_data/ YAML → typed :class:`~cardgen.data.model.GameData`.

Shape problems (unknown keys, wrong types, missing fields) are collected as findings for
every file in one pass; a YAML syntax error skips only that file.
"""

from __future__ import annotations

import gc
import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import CardgenError, Finding, Location, error, has_errors
from ..files.oserrors import read_input
from ..files.safepath import in_project
from . import model as m
from .cardcache import CardFileCache
from .fields import (
    MAX_PRINTED,
    Field,
    bilingual_shape,
    check_record,
    id_findings,
    items,
    printable_findings,
)
from .patterns import BoundedPattern, PatternError, bounded
from .project import Documents
from .ranges import held, range_findings
from .shape import check_shape
from .specs import CARD_SPEC, EXCEPTION_SPEC, LINE_SPEC, RULE_NUMBERS, SCHEMA_SHAPE, TEXT_SHAPE
from .yamlsrc import LocList, LocMap, load_yaml_bytes


def _texts(value: Any) -> tuple[str, ...]:
    """A list's items as text; anything else (a wrong type, reported by check_record) as
    nothing, so later checks do not trip over it."""
    return tuple(str(x) for x in value) if isinstance(value, list) else ()

class _Loader:
    def __init__(self, project: Path, documents: Documents):
        self.project = project
        self.documents = documents
        self.root = project / "card_data"
        self.findings: list[Finding] = []
        self.files: list[Path] = []

    def rel(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.project))
        except ValueError:
            return str(path)

    def read(self, path: Path) -> Any:
        self.files.append(path)
        try:
            return self.documents.read(self.rel(path))
        except CardgenError as exc:
            self.findings.extend(exc.findings)
            return None

    def mapping(self, value: Any, where: Location, what: str) -> LocMap:
        if isinstance(value, LocMap):
            return value
        if value is not None:
            self.findings.append(error("shape", f"{what} must be a mapping", location=where))
        empty = LocMap()
        empty.loc, empty.locs, empty.key_locs = where, {}, {}
        return empty

    def bilingual(self, value: Any, where: Location, what: str, card: str | None = None
                  ) -> m.Bilingual:
        found = bilingual_shape(value, where, what, m.LANGS, card)
        self.findings.extend(found)
        if not isinstance(value, LocMap):
            return m.Bilingual({}, where)
        values = {k: v for k, v in value.items() if isinstance(v, str) and k in m.LANGS}
        for lang, text in values.items():
            self.findings.extend(printable_findings(text, value.at(lang), what, lang, card))
            values[lang] = text[:MAX_PRINTED]  # reported above when longer
        return m.Bilingual(values, value.loc, {k: value.at(k) for k in values})

    # shared data -----------------------------------------------------------------

    def game(self) -> tuple[m.GameInfo, LocMap]:
        """game.yaml: the game facts, and the raw mapping (sides and phases are read from it)."""
        path = self.root / "game.yaml"
        data = self.mapping(self.read(path), Location(self.rel(path)), "game.yaml")
        self.findings.extend(check_record(data, {
            "rules_version": Field(str, required=True),
            "data_version": Field(str, required=True),
            "prototype": Field(bool),
            "counts": Field(dict, required=True),
            "sides": Field(dict, required=True),
            "phases": Field(list, required=True),
            "uncounterable_events": Field(list),
            "set_aside": Field(list),
        }, data.loc, "game.yaml"))
        counts = data["counts"] if isinstance(data.get("counts"), LocMap) else LocMap()
        for key, value in counts.items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                self.findings.append(error(
                    "wrong-type", f"counts.{key} must be a whole number, not {value!r}",
                    location=counts.at(key), hint="write how many, e.g. 4"))
        return m.GameInfo(
            rules_version=str(data.get("rules_version", "?")),
            data_version=str(data.get("data_version", "?")),
            prototype=bool(data.get("prototype", False)),
            counts={k: v for k, v in counts.items() if isinstance(v, int)},
            uncounterable_events=_texts(data.get("uncounterable_events")),
            set_aside=_texts(data.get("set_aside")),
            loc=data.loc,
            locs=({k: counts.at(k) for k in counts} if counts else {})
            | {k: data.at(k) for k in ("rules_version", "set_aside") if k in data},
        ), data

    def sides(self, data: LocMap) -> dict[str, m.Side]:
        out = {}
        sides = self.mapping(data.get("sides"), data.at("sides"), "sides")
        for sid, rec in sides.items():
            where = sides.at(sid)
            self.findings.extend(check_record(rec, {"name": Field(dict, True),
                                                    "colour": Field(str, True)}, where, f"side {sid}"))
            if isinstance(rec, LocMap):
                out[sid] = m.Side(sid, self.bilingual(rec.get("name"), rec.at("name"), "name"),
                                  str(rec.get("colour", "#000000")), where)
        return out

    def phases(self, data: LocMap) -> tuple[m.Phase, ...]:
        out = []
        for rec, where in items(data.get("phases")):
            spec = {"id": Field(str, True), "rounds": Field(list, True),
                    "plays": Field(int, True), "hand": Field(int, True)}
            found = check_record(rec, spec, where, "phase")
            self.findings.extend(found)
            if not found:
                out.append(m.Phase(rec["id"], tuple(rec["rounds"]), rec["plays"], rec["hand"], where,
                                   {k: rec.at(k) for k in rec}))
        return tuple(out)

    def forms(self, value: Any, where: Location, what: str) -> dict[str, dict[str, str]]:
        rec = self.mapping(value, where, what)
        out: dict[str, dict[str, str]] = {}
        for lang, table in rec.items():
            if lang not in m.LANGS:
                self.findings.append(error("unknown-key", f"unknown language '{lang}' in {what}",
                                           location=rec.key_locs[lang],
                                           hint=f"use one of: {', '.join(m.LANGS)}"))
                continue
            if isinstance(table, LocMap):
                out[lang] = {str(k): str(v) for k, v in table.items()}
        return out

    def places(self) -> dict[str, m.Place]:
        path = self.root / "places.yaml"
        data = self.mapping(self.read(path), Location(self.rel(path)), "places.yaml")
        self.findings.extend(check_record(data, {"countries": Field(dict, True),
                                                 "battlegrounds": Field(dict, True),
                                                 "locations": Field(dict, True)},
                                          data.loc, "places.yaml"))
        specs = {
            "countries": ("country", {"kind": Field(str, True, ("ecclesiastical", "secular")),
                                      "stability": Field(int, True)}),
            "battlegrounds": ("battleground", {"bonus": Field(str, True, ("card", "play")),
                                               "links": Field(list, True)}),
            "locations": ("location", {"city": Field(dict), "side": Field(str)}),
        }
        out: dict[str, m.Place] = {}
        for group, (category, extra) in specs.items():
            table = self.mapping(data.get(group), data.at(group), group)
            for pid, rec in table.items():
                where = table.at(pid)
                self.findings.extend(id_findings(pid, table.key_locs.get(pid, where), category))
                spec = {"name": Field(dict, True), "forms": Field(dict, True), **extra}
                found = check_record(rec, spec, where, f"{category} {pid}")
                self.findings.extend(found)
                if not isinstance(rec, LocMap):
                    continue
                attrs = {k: rec[k] for k in extra if k in rec}
                if "city" in attrs:
                    attrs["city"] = self.bilingual(rec["city"], rec.at("city"), "city")
                out[pid] = m.Place(
                    pid, category, self.bilingual(rec.get("name"), rec.at("name"), "name"),
                    self.forms(rec.get("forms"), rec.at("forms"), f"forms of {pid}"),
                    where, attrs, {k: rec.at(k) for k in rec})
        return out

    def currencies(self) -> tuple[dict[str, m.Currency], dict[str, dict[str, dict[str, str]]]]:
        path = self.root / "currencies.yaml"
        data = self.mapping(self.read(path), Location(self.rel(path)), "currencies.yaml")
        out, plurals = {}, {}
        for cid, rec in data.items():
            where = data.at(cid)
            self.findings.extend(id_findings(cid, data.key_locs.get(cid, where), "currency"))
            spec = {"name": Field(dict, True), "colour": Field(str, True),
                    "mark": Field(str, True), "plural": Field(dict, True)}
            self.findings.extend(check_record(rec, spec, where, f"currency {cid}"))
            if isinstance(rec, LocMap):
                out[cid] = m.Currency(cid, self.bilingual(rec.get("name"), rec.at("name"), "name"),
                                      str(rec.get("colour", "#888888")), str(rec.get("mark", "blank")),
                                      where)
                plurals[cid] = self.forms(rec.get("plural"), rec.at("plural"), f"plural of {cid}")
        return out, plurals

    def shields(self) -> dict[str, m.Shield]:
        path = self.root / "shields.yaml"
        data = self.mapping(self.read(path), Location(self.rel(path)), "shields.yaml")
        out = {}
        for sid, rec in data.items():
            where = data.at(sid)
            self.findings.extend(id_findings(sid, data.key_locs.get(sid, where), "shield"))
            spec = {"name": Field(dict, True), "forms": Field(dict, True),
                    "colour": Field(str, True), "charge": Field(str, True),
                    "holder": Field(str, True), "rules": Field(list)}
            self.findings.extend(check_record(rec, spec, where, f"shield {sid}"))
            if isinstance(rec, LocMap):
                out[sid] = m.Shield(sid, self.bilingual(rec.get("name"), rec.at("name"), "name"),
                                    self.forms(rec.get("forms"), rec.at("forms"), f"forms of {sid}"),
                                    str(rec.get("colour", "#888888")), str(rec.get("charge", "")),
                                    str(rec.get("holder", "")), where,
                                    tuple(str(r) for r in rec.get("rules") or ()))
        return out

    def glossary(self) -> tuple[tuple[m.GlossaryTerm, ...], dict[str, dict[str, dict[str, str]]]]:
        path = self.root / "glossary.yaml"
        data = self.mapping(self.read(path), Location(self.rel(path)), "glossary.yaml")
        self.findings.extend(check_record(data, {"terms": Field(list, True),
                                                 "nouns": Field(dict, True)}, data.loc, "glossary.yaml"))
        terms = []
        for rec, where in items(data.get("terms")):
            spec = {"id": Field(str, True), "en": Field(list, True), "cs": Field(list, True),
                    "forbidden": Field(dict), "note": Field(str), "rule": Field(str),
                    "definition": Field(dict), "prototype": Field(bool)}
            found = check_record(rec, spec, where, "glossary term")
            rule = rec.get("rule") if isinstance(rec, LocMap) else None
            if isinstance(rule, str) and not RULE_NUMBERS.fullmatch(rule):
                found.append(error("bad-value", f"'rule' of glossary term '{rec.get('id')}' "
                                   f"must be a rule number like \"5.3\" (or several: "
                                   f"\"5.6, 6.46\"), not {rule!r}",
                                   location=rec.at("rule"), hint="write the number in quotes"))
            self.findings.extend(found)
            if found:
                continue
            self.findings.extend(id_findings(rec["id"], rec.at("id"), "glossary term"))
            forbidden: dict[str, tuple[tuple[BoundedPattern, str], ...]] = {}
            fb = rec.get("forbidden") or {}
            for lang, entries in fb.items():
                pairs: list[tuple[BoundedPattern, str]] = []
                for entry, eloc in items(entries):
                    ef = check_record(entry, {"pattern": Field(str, True), "use": Field(str, True)},
                                      eloc, "forbidden variant")
                    self.findings.extend(ef)
                    if not ef:
                        try:
                            pattern = bounded(entry["pattern"], entry.at("pattern"))
                        except PatternError as exc:
                            self.findings.append(error(
                                "bad-pattern", f"forbidden variant {entry['pattern']!r} of "
                                f"glossary term '{rec['id']}' is refused: {exc}",
                                location=entry.at("pattern"),
                                hint="escape ( ) [ ] ? * + with a backslash, or simplify the "
                                "pattern"))
                            continue
                        pairs.append((pattern, entry["use"]))
                forbidden[lang] = tuple(pairs)
            definition = rec.get("definition")
            terms.append(m.GlossaryTerm(
                rec["id"], {lang: tuple(str(x) for x in rec[lang]) for lang in m.LANGS},
                forbidden, {}, rec.get("note"), where,
                definition=None if definition is None else self.bilingual(
                    definition, rec.at("definition"), f"definition of {rec['id']}"),
                rule=rule, prototype=bool(rec.get("prototype", False))))
        nouns = self.mapping(data.get("nouns"), data.at("nouns"), "nouns")
        noun_forms = {k: self.forms(v, nouns.at(k), f"noun {k}") for k, v in nouns.items()}
        return tuple(terms), noun_forms

    def schema(self) -> dict[str, Any]:
        """The rule schema; one with a broken shape is reported and not used."""
        path = self.root / "rules" / "schema.yaml"
        data = self.read(path)
        if data is None:
            return {}
        found = check_shape(data, SCHEMA_SHAPE, getattr(data, "loc", Location(self.rel(path))),
                            "schema")
        self.findings.extend(found)
        return data if isinstance(data, LocMap) and not found else {}

    def rule_facts(self) -> Any:
        """card_data/rules/facts.yaml, the facts the rulebook fixes (checked in the check
        stage, cardgen/check/facts.py). Missing or empty, it is an error: without it the
        rulebook checks would silently not run."""
        path = self.root / "rules" / "facts.yaml"
        where = Location(self.rel(path))
        if not path.exists() and not path.is_symlink():
            self.findings.append(error(
                "facts-missing", f"{self.rel(path)} is missing: the checks against the "
                "rulebook cannot run", location=where,
                hint="restore the file from the project's history"))
            return None
        found = self.read(path)
        if found is None and not any(f.location == where for f in self.findings):
            self.findings.append(error(
                "facts-missing", f"{self.rel(path)} is empty: the checks against the rulebook "
                "cannot run", location=where, hint="restore the file from the project's history"))
        return found

    def templates(self) -> dict[str, dict[str, Any]]:
        out = {}
        for lang in m.LANGS:
            path = self.root / "text" / f"{lang}.yaml"
            data = self.read(path)
            found = check_shape(data, TEXT_SHAPE, getattr(data, "loc", Location(self.rel(path))),
                                f"text/{lang}.yaml") if data is not None else []
            self.findings.extend(found)
            out[lang] = data if isinstance(data, LocMap) and not found else {}
        return out

    # cards --------------------------------------------------------------------------

    def effects(self, value: Any, where: Location, card: str) -> tuple[m.Effect, ...]:
        if value is None:
            return ()
        if not isinstance(value, LocList):
            self.findings.append(error("wrong-type", "'effects' must be a list of effects",
                                       location=where, card=card))
            return ()
        out = []
        for rec, loc in items(value):
            if not isinstance(rec, LocMap) or not isinstance(rec.get("op"), str):
                self.findings.append(error("missing-key", "an effect needs 'op: <name>'",
                                           location=loc, card=card,
                                           hint="see card_data/rules/schema.yaml for the ops"))
                continue
            params: dict[str, Any] = {}
            for key, val in rec.items():
                if key == "op":
                    continue
                if isinstance(val, LocList) and val and all(
                        isinstance(x, LocMap) and "op" in x for x in val):
                    params[key] = self.effects(val, rec.at(key), card)
                else:
                    params[key] = val
            out.append(m.Effect(rec["op"], params, loc, {k: rec.at(k) for k in rec}))
        return tuple(out)

    def line(self, kind: str, rec: LocMap, where: Location, card: str) -> m.CardLine:
        self.findings.extend(check_record(rec, LINE_SPEC, where, f"{kind} line", card))
        name = rec.get("name")
        text = rec.get("text")
        attrs = {k: rec[k] for k in ("mode", "uncounterable") if k in rec}
        return m.CardLine(
            kind=kind,
            effects=self.effects(rec.get("effects"), rec.at("effects"), card),
            text=self.bilingual(text, rec.at("text"), f"{kind} text", card) if text is not None else None,
            loc=where,
            name=self.bilingual(name, rec.at("name"), "deed name", card) if name is not None else None,
            cost=_texts(rec.get("cost")),
            attrs=attrs,
            locs={k: rec.at(k) for k in rec},
        )

    def wording_exceptions(self, kind: str, rec: LocMap, card: str | None
                           ) -> list[m.ReviewedException]:
        """A line's ``wording_exception: {cs: "reason"}``: reviewed other wording per language."""
        value = rec.get("wording_exception")
        if value is None:
            return []
        where = rec.at("wording_exception")
        if not isinstance(value, LocMap) or not value:
            self.findings.append(error(
                "wrong-type", f"'wording_exception' of the {kind} line must map a language to "
                "the reason", location=where, card=card,
                hint='wording_exception: {cs: "why this wording is better"}'))
            return []
        out = []
        for lang, reason in value.items():
            if lang not in m.LANGS or not isinstance(reason, str) or not reason.strip():
                self.findings.append(error(
                    "wrong-type", f"wording_exception of the {kind} line: '{lang}' needs a "
                    f"language ({', '.join(m.LANGS)}) and a reason", location=value.at(lang),
                    card=card, hint='wording_exception: {cs: "why this wording is better"}'))
                continue
            out.append(m.ReviewedException(kind, lang, reason, value.at(lang)))
        return out

    def card(self, rec: Any, where: Location) -> m.Card | None:
        cid = rec.get("id") if isinstance(rec, LocMap) else None
        card = cid if isinstance(cid, str) else None
        found = check_record(rec, CARD_SPEC, where, f"card {cid or '?'}", card)
        self.findings.extend(found)
        if not isinstance(rec, LocMap) or any(f.code in ("missing-key", "shape") for f in found):
            return None
        if card is not None:
            self.findings.extend(id_findings(card, rec.at("id"), "card"))
        lines = tuple(
            self.line(kind, rec[kind], rec.at(kind), card or "?") for kind in rec
            if kind in m.LINE_KINDS and isinstance(rec[kind], LocMap)
        )
        exceptions = []
        for ex, eloc in items(rec.get("exceptions")):
            ef = check_record(ex, EXCEPTION_SPEC, eloc, "exception", card)
            self.findings.extend(ef)
            if not ef:
                exceptions.append(m.ReviewedException(ex["line"], ex["lang"], ex["reason"], eloc))
        for kind in rec:
            if kind in m.LINE_KINDS and isinstance(rec[kind], LocMap):
                exceptions += self.wording_exceptions(kind, rec[kind], card)

        def opt_int(key: str) -> int | None:
            v = rec.get(key)
            return v if isinstance(v, int) and not isinstance(v, bool) else None

        copies = opt_int("copies")
        return m.read_from(m.Card(
            id=card or "?",
            number=rec["number"] if isinstance(rec["number"], int) else 0,
            # a wrong type is already a finding; keep later checks from tripping over it
            deck=rec["deck"] if isinstance(rec["deck"], str) else "?",
            kind=rec["kind"] if isinstance(rec["kind"], str) else "?",
            side=rec.get("side") if isinstance(rec.get("side"), str) else None,
            copies=1 if copies is None else copies,  # 0 stays 0: out of range, an error
            name=self.bilingual(rec.get("name"), rec.at("name"), "card name", card),
            political=opt_int("political"),
            military=opt_int("military"),
            yields=_texts(rec.get("yield")),
            cost=_texts(rec.get("cost")),
            use_cost=opt_int("use_cost"),
            shield=rec.get("shield"),
            crown=bool(rec.get("crown", False)),
            year=opt_int("year"),
            lines=lines,
            art=rec.get("art"),
            exceptions=tuple(exceptions),
            prototype=bool(rec.get("prototype", True)),
            loc=where,
            locs={k: rec.at(k) for k in rec} | {f"key:{k}": rec.key_locs[k] for k in rec},
            name_forms=self.forms(rec["name_forms"], rec.at("name_forms"), f"name_forms of {card}")
            if "name_forms" in rec else {},
        ), rec.source_key())

    def cards(self, cache: CardFileCache) -> tuple[m.Card, ...]:
        out: list[m.Card] = []
        folder = self.root / "cards"
        for path in sorted(folder.glob("*.yaml")):
            self.files.append(path)
            name = self.rel(path)
            try:
                in_project(path, self.project, what="card file")
                raw = read_input(path, name)
            except CardgenError as exc:
                self.findings.extend(exc.findings)
                continue
            sha = hashlib.sha256(raw).hexdigest()
            hit = cache.get(name, sha)
            if hit is None:
                start, first = len(self.findings), len(out)
                self.card_file(raw, name, out)
                hit = out[first:], self.findings[start:]
                if not any(self.names_project(f) for f in hit[1]):  # kept: relative only
                    cache.put(name, sha, *hit)
            else:
                out += hit[0]
                self.findings += hit[1]
        return tuple(out)

    def names_project(self, finding: Finding) -> bool:
        """Whether ``finding`` names the project's folder (not true of another copy)."""
        text = repr(finding)
        return any(len(p) > 1 and p in text for p in (str(self.project),
                                                       str(self.project.resolve())))

    def card_file(self, raw: bytes, name: str, out: list[m.Card]) -> None:
        """The cards of one card file (its bytes ``raw``) onto ``out``, findings onto ours."""
        try:
            data = load_yaml_bytes(raw, name)
        except CardgenError as exc:
            self.findings.extend(exc.findings)
            return
        if data is None:
            return
        if not isinstance(data, LocMap) or not isinstance(data.get("cards"), LocList):
            where = data.loc if hasattr(data, "loc") else Location(name)
            self.findings.append(error("shape", "a card file holds 'cards:' with a list of cards",
                                       location=where))
            return
        for rec, where in items(data["cards"]):
            card = self.card(rec, where)
            if card is not None:
                out.append(card)


@contextmanager
def _uncollected() -> Iterator[None]:
    """Keep the cyclic garbage collector off the model while it is made and after.

    The model is a tree of many small objects with no reference cycle; the collector would
    walk all of them ever more often while they pile up (a third of a large deck's check)
    and at every full collection after. Frozen (:func:`gc.freeze`), they are still freed by
    reference counting when the model is dropped. What an earlier load froze goes back to the
    collector, and is collected once it has doubled since the last collection here: the
    cycles made since (a template renderer and its sandbox refer to each other) would
    otherwise be frozen again, and a long-running watch, serve or test run would keep every
    earlier project's garbage.
    """
    collect = gc.get_freeze_count() > 2 * _FROZEN_AFTER_COLLECTION[0]  # garbage as large as the rest
    gc.unfreeze()
    if collect:
        gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collect:
            _FROZEN_AFTER_COLLECTION[0] = gc.get_freeze_count()
        if enabled:
            gc.enable()


#: How many objects the last load that collected left frozen: a later load collects again
#: once twice as many are frozen, so earlier projects' garbage stays at most as large as what
#: lives, at the cost of a rare full collection rather than one at every load.
_FROZEN_AFTER_COLLECTION = [0]


def load(project: Path, cache: CardFileCache | None = None, documents: Documents | None = None
         ) -> tuple[m.GameData, list[Finding]]:
    """Load card_data/ under ``project``; return the model and every shape finding.

    With a ``cache`` (cardgen/cardcache.py), card files whose bytes it holds are not parsed
    again; ``documents`` keeps every other file parsed for the later stages
    (:func:`cardgen.data.project.load_project`)."""
    with _uncollected():
        return _load(project, cache or CardFileCache(), documents or Documents(project))


def _load(project: Path, cache: CardFileCache, documents: Documents
          ) -> tuple[m.GameData, list[Finding]]:
    loader = _Loader(project, documents)
    if not loader.root.is_dir():
        raise CardgenError(error("no-card-data", f"no card_data/ folder in {project}",
                                 location=Location(str(project)),
                                 hint="run cardgen in a project folder or pass --project DIR"))
    game, gdata = loader.game()
    currencies, currency_plurals = loader.currencies()
    terms, nouns = loader.glossary()
    data = m.GameData(
        root=project,
        game=game,
        cards=loader.cards(cache),
        places=loader.places(),
        currencies=currencies,
        shields=loader.shields(),
        sides=loader.sides(gdata),
        phases=loader.phases(gdata),
        glossary=terms,
        schema=loader.schema(),
        templates=loader.templates(),
        files=tuple(loader.files),
        nouns=nouns | {f"currency:{k}": v for k, v in currency_plurals.items()},
        rule_facts=loader.rule_facts(),
    )
    # numbers outside the schema's ranges: an error each (unless its value already has one:
    # a wrong type), and held inside them for the later stages
    taken = {f.location for f in loader.findings}
    ranged = [f for f in range_findings(data) if f.location not in taken]
    return held(data), loader.findings + ranged


def load_or_raise(project: Path) -> m.GameData:
    data, findings = load(project)
    if has_errors(findings):
        raise CardgenError(findings)
    return data
