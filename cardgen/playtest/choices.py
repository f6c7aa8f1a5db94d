"""How the players treated one card in a game: offered in a purchase, bought there, played."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.state import Decision


@dataclass
class CardChoices:
    """A ``watch`` for :func:`cardgen.engine.match.play_game` that counts, for one card,
    the purchases that offered it, those that took it, and its plays."""

    card: str
    offered: int = 0
    picked: int = 0
    played: int = 0

    def __call__(self, decision: Decision, choice: Any) -> None:
        if decision.kind == "buy" and self.card in decision.options:
            self.offered += 1
            self.picked += choice == self.card
        elif decision.kind == "play" and choice[0] == self.card:
            self.played += 1
