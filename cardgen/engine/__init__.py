"""The rules engine of rules v0.27.4: state, sequence of play, legal choices, a resolver
for every op of the rule schema, and seeded players. Depends on :mod:`cardgen.data.model` only.
"""

from .flow import new_game
from .kinds import DecisionKind
from .ops import OPS
from .rules import SIDES, Rules, RulesError
from .state import Decision, Game, IllegalChoice

__all__ = ["OPS", "SIDES", "Decision", "DecisionKind", "Game", "IllegalChoice", "Rules", "RulesError",
           "new_game"]
