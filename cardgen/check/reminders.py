"""Reminder tokens for "your next purchase" effects (5.43, 6.22, 9.6).

The engine ends an unused next-purchase discount at round end, because the reminder token
that marks it is removed then (DECISIONS, 6.22). Every such effect therefore needs a
reminder token of its amount in ``card_data/components.yaml``; without one the table and
the engine play different games.
"""

from __future__ import annotations

import re

from ..data.model import walk
from ..data.project import Project
from ..errors import Finding, warning
from ..wording.components import load_components


def check_reminders(project: Project) -> list[Finding]:
    data = project.data
    comp, _ = load_components(project)
    if comp is None:  # the component checks report why
        return []
    texts = [str((r.get("text") or {}).get("en", "")) for r in comp.tokens.get("reminders") or []
             if str(r.get("rule")) == "6.22"]
    found: list[Finding] = []
    for card in data.cards:
        for line in card.lines:
            for eff in walk(line.effects):
                if eff.op != "discount_next_purchase":
                    continue
                amount = eff.params.get("amount")
                if any(re.search(rf"[−-]\s*{amount}\b", t) for t in texts):
                    continue
                found.append(warning(
                    "reminder-missing",
                    f"its next-purchase discount of {amount} has no reminder token in "
                    "card_data/components.yaml", location=eff.loc, card=card.id, rule="6.22",
                    hint=f"add a reminder under tokens.reminders with rule \"6.22\" and text "
                         f"\"Next purchase −{amount}\": 9.6 removes it at round end, and the "
                         "engine ends the discount then"))
    return found
