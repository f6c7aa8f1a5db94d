"""The rule schema against the rules engine: every op a card may use must be playable.

A schema op with no resolver in :data:`cardgen.engine.OPS` is an error at the op's line in
schema.yaml and at every card line using it, so the schema and the engine cannot drift apart.
"""

from __future__ import annotations

from functools import partial

from ..data.model import Card, CardLine, GameData, walk
from ..engine import OPS, Rules, probe
from ..errors import Finding, Location, Severity, error, warning
from ..files.incremental import digest
from .cache import CheckCache, card_key, rules_key
from .effects import check_effects
from .facts import check_rule_facts

SCHEMA_FILE = "card_data/rules/schema.yaml"


def _schema_loc(data: GameData, op: str) -> Location:
    ops = (data.schema or {}).get("ops")
    key_locs = getattr(ops, "key_locs", None) or {}
    if op in key_locs:
        return key_locs[op]
    at = getattr(ops, "at", None)
    return at(op) if at else Location(SCHEMA_FILE)


def check_engine(data: GameData) -> list[Finding]:
    findings: list[Finding] = []
    ops = dict((data.schema or {}).get("ops") or {})
    missing = sorted(op for op in ops if op not in OPS)
    for op in missing:
        findings.append(error(
            "op-no-resolver", f"the rules engine has no resolver for op '{op}'",
            location=_schema_loc(data, op), rule=str(ops[op].get("rule", "")) or None,
            hint="add a resolver to cardgen/engine/ops.py (OPS) or remove the op from the schema"))
    for card in data.cards:
        for line in card.lines:
            for eff in walk(line.effects):
                if eff.op in missing:
                    findings.append(error(
                        "op-not-playable", f"{line.kind} uses op '{eff.op}', which the rules "
                        "engine cannot resolve", location=eff.loc, card=card.id,
                        hint="use an op the engine resolves, or add its resolver"))
    if not findings and ops:
        try:
            Rules.from_data(data)
        except Exception as exc:  # damaged data of any shape: a finding, never a crash
            findings.append(error("engine-data", f"the rules engine cannot set up a game: {exc}",
                                  location=getattr(exc, "location", None) or Location("card_data")))
    return findings


#: Card lines resolved in sequence (passive, counter and Writing History lines are looked up).
PROBED_LINES = ("deed", "boost", "acquire", "event")


def check_deeds(data: GameData, cache: CheckCache | None = None) -> list[Finding]:
    """Play every line in sampled game states (5.31): a crash is an error; an effect that
    does nothing in every state, or a Deed that can't be resolved in some state though the
    card doesn't say when, is a warning.

    With a ``cache``, a card is played again only when its record or what the engine plays
    with (:func:`~cardgen.check.cache.rules_key`) changed; the games are sampled only then.
    """
    if check_engine(data) or any(f.severity is Severity.ERROR
                                 for f in (*check_effects(data), *check_rule_facts(data))):
        return []  # reported by those checks; a game can't be trusted on such data (nor on
        # data against the rulebook: a round end removed plays rounds the game never has)
    game: list[tuple[Rules, list]] = []

    def setup() -> list[Finding]:
        try:
            rules = Rules.from_data(data)
            game.append((rules, probe.sample_states(rules)))
        except Exception as exc:  # the data cannot even be played
            return [error("engine-data", f"the rules engine cannot play a game: {exc}",
                          location=Location("card_data"))]
        return []

    def one_card(card: Card) -> list[Finding]:
        if not game and (failed := setup()):
            return failed
        rules, states = game[0]
        found: list[Finding] = []
        for line in card.lines:
            if line.kind not in PROBED_LINES or not line.effects:
                continue
            try:
                found.extend(_probe_line(rules, states, card.id, line))
            except Exception as exc:  # the probe itself failed on this line's data
                found.append(error("deed-crash", f"the {line.kind} line can't be played: "
                                   f"{type(exc).__name__}: {exc}", location=line.loc,
                                   card=card.id, rule="5.3"))
        return found

    shared = rules_key(data) if cache is not None else ""
    failed = cache.findings(digest("deeds", shared, "setup"), setup) if cache is not None else setup()
    if failed:
        return failed
    findings: list[Finding] = []
    for card in data.cards:
        findings += (cache.findings(card_key("deeds", shared, card), partial(one_card, card))
                     if cache is not None else one_card(card))
    return findings


def _probe_line(rules: Rules, states: list, card: str, line: CardLine) -> list[Finding]:
    effects = line.effects
    if line.kind == "boost" and not rules.cards[card].boost_replaces:
        effects = (*rules.cards[card].deed, *effects)
    for i, state in enumerate(states):
        out = probe.run_effects(state, effects, probe.acting_side(rules, card, i), card, i)
        if out.error and out.culprit == card:  # another card's failure is reported there
            return [error("deed-crash", f"the {line.kind} line fails when played: {out.error}",
                          location=line.loc, card=card, rule="5.3",
                          hint="fix the line's effects or report the engine bug")]
    found: list[Finding] = []
    for eff, controlled in probe.leaves(line.effects):
        if eff.op == "draw":  # 5.32: always choosable, does something while cards remain
            continue
        if not any(probe.run_effects(s, (eff,), probe.acting_side(rules, card, i), card, i,
                                     i % 2 if controlled else None).changed
                   for i, s in enumerate(states)):
            found.append(warning("effect-does-nothing",
                                 f"'{eff.op}' changed nothing in any of {len(states)} sampled "
                                 "game states", location=eff.loc, card=card, rule="5.31",
                                 hint="check its parameters (a place nobody reaches, a card "
                                 "that never enters)"))
    if line.kind == "deed" and not any(e.op in probe.SAYS_WHEN for e in line.effects):
        blocked = sum(1 for i, s in enumerate(states)
                      if probe.unresolvable(s, line.effects, probe.acting_side(rules, card, i) or 0, card))
        if blocked:
            found.append(warning("deed-unresolvable", f"the Deed can't be resolved in {blocked} of "
                                 f"{len(states)} sampled states, and the card doesn't say when",
                                 location=line.loc, card=card, rule="5.31",
                                 hint="word the Deed so it says when it can't be used"))
    return found
