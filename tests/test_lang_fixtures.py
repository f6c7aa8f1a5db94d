"""Helpers for the translation tests: a project copy with small card files written in code."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

from cardgen.data.load import load
from cardgen.data.model import GameData

ROOT = Path(__file__).resolve().parent.parent
SHARED = ("game.yaml", "glossary.yaml", "places.yaml", "shields.yaml", "currencies.yaml")

CARDS = """\
# Test cards for the translation checks.
cards:
  - id: philip-vi   # the French king
    number: 20
    deck: market
    kind: card
    name: {en: Philip VI, cs: "Filip\u00a0VI."}
    political: 2
    military: 3
    yield: [western]
    cost: [western, western]
    deed:
      name: {en: Auld Alliance, cs: Starý spolek}
      text:
        en: Draw 2 cards. Move John 1 step toward Charles.
        cs: Lízni 2 karty. Posuň Jana o 1 pole ke Karlovi.
  - id: blanche-de-valois
    number: 3
    deck: luxembourg
    kind: card
    side: luxembourg
    name:
      en: Blanche de Valois
      cs: Blanka z Valois
    political: 1
    military: 0
    yield: [western]
    deed:
      text:
        en: "Place 2 influence in Mainz."
        cs: "Umísti 2 vlivy v Mohuči."
"""


NB = "\u00a0"
#: CARDS with Czech typography right (non-breaking spaces), so only planted faults show.
CLEAN = (CARDS.replace("Lízni 2 karty. Posuň Jana o 1 pole", f"Lízni 2{NB}karty. Posuň Jana o{NB}1{NB}pole")
         .replace("Blanka z Valois", f"Blanka z{NB}Valois")
         .replace("Umísti 2 vlivy v Mohuči.", f"Umísti 2{NB}vlivy v{NB}Mohuči."))


def make_project(tmp_path: Path, cards: str = CARDS, name: str = "test.yaml") -> Path:
    n = 0
    while (tmp_path / f"project{n}").exists():
        n += 1
    project = tmp_path / f"project{n}"
    data = project / "card_data"
    (data / "cards").mkdir(parents=True)
    for file in SHARED:
        shutil.copy(ROOT / "card_data" / file, data / file)
    (data / "cards" / name).write_text(textwrap.dedent(cards), encoding="utf-8")
    return project


def load_cards(tmp_path: Path, cards: str = CARDS) -> GameData:
    data, _ = load(make_project(tmp_path, cards))
    return data
