"""The rule schema against the rules engine: every op a card may use must be playable.

A schema op with no resolver in :data:`cardgen.engine.OPS` is an error at the op's line in
schema.yaml and at every card line using it, so the schema and the engine cannot drift apart.
"""

from __future__ import annotations

from ..engine import OPS, Rules, RulesError
from ..engine.rules import walk
from ..errors import Finding, Location, error
from ..model import GameData

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
        except (RulesError, ValueError, KeyError) as exc:
            findings.append(error("engine-data", f"the rules engine cannot set up a game: {exc}",
                                  location=Location("card_data")))
    return findings
