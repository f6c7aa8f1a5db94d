"""The typed game model that the load stage produces and every later stage reads.

Every object keeps the :class:`~cardgen.errors.Location` it was loaded from, and
``locs`` maps its field names to the location of each field's value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import Location
from .patterns import BoundedPattern

LANGS: tuple[str, ...] = ("en", "cs")

#: Text line kinds in the printed order of rule 2.36 (events have their own line).
LINE_KINDS: tuple[str, ...] = ("deed", "boost", "counter", "writing_history", "acquire", "passive", "event")

#: Card kinds.
KINDS: tuple[str, ...] = ("card", "king", "retinue", "john", "event", "battle_event", "end_event")
EVENT_KINDS: frozenset[str] = frozenset({"event", "battle_event", "end_event"})

#: Decks a card can belong to; the printed number is unique within each.
DECKS: tuple[str, ...] = ("luxembourg", "wittelsbach", "market")


@dataclass(frozen=True)
class Bilingual:
    """A string per language; a missing language is simply absent (and a finding later)."""

    values: dict[str, str]
    loc: Location
    locs: dict[str, Location] = field(default_factory=dict)

    def get(self, lang: str) -> str | None:
        return self.values.get(lang)

    def at(self, lang: str) -> Location:
        return self.locs.get(lang, self.loc)


@dataclass(frozen=True)
class Effect:
    """One structured effect: an op of the rule schema with its parameters.

    Parameters whose value is a list of effects (``then``, ``else``) hold ``tuple[Effect, ...]``.
    """

    op: str
    params: dict[str, Any]
    loc: Location
    locs: dict[str, Location] = field(default_factory=dict)

    def at(self, param: str) -> Location:
        return self.locs.get(param, self.loc)

    def nested(self) -> Iterator[tuple[str, tuple[Effect, ...]]]:
        """Each parameter that holds a list of effects (``then``, ``otherwise``), with it."""
        for key, value in self.params.items():
            if isinstance(value, tuple) and value and all(isinstance(e, Effect) for e in value):
                yield key, value


def walk(effects: Iterable[Effect]) -> Iterator[Effect]:
    """Every effect of a list, nested lists included, depth first (an effect before its own)."""
    for effect in effects:
        yield effect
        for _key, inner in effect.nested():
            yield from walk(inner)


@dataclass(frozen=True)
class CardLine:
    """A text line of a card (rule 2.36): its structured effects and its written text."""

    kind: str
    effects: tuple[Effect, ...]
    text: Bilingual | None
    loc: Location
    name: Bilingual | None = None  # the Deed's bold name
    cost: tuple[str, ...] = ()  # the boost's cost coins
    attrs: dict[str, Any] = field(default_factory=dict)  # e.g. shield/location, mode
    locs: dict[str, Location] = field(default_factory=dict)

    def at(self, key: str) -> Location:
        return self.locs.get(key, self.loc)


@dataclass(frozen=True)
class ReviewedException:
    """A reviewed difference between written and canonical text, with its reason."""

    line: str
    lang: str
    reason: str
    loc: Location


@dataclass(frozen=True)
class Card:
    id: str
    number: int
    deck: str
    kind: str
    side: str | None
    copies: int
    name: Bilingual
    political: int | None
    military: int | None
    yields: tuple[str, ...]
    cost: tuple[str, ...]
    use_cost: int | None
    shield: str | None
    crown: bool
    year: int | None
    lines: tuple[CardLine, ...]
    art: str | None
    exceptions: tuple[ReviewedException, ...]
    prototype: bool
    loc: Location
    locs: dict[str, Location] = field(default_factory=dict)
    #: lang -> case name -> the name in that case (cs ``acc: Blanku z Valois``), for names
    #: inside running text (``name_forms:`` next to ``name:``)
    name_forms: dict[str, dict[str, str]] = field(default_factory=dict)

    def at(self, key: str) -> Location:
        return self.locs.get(key, self.loc)

    def name_form(self, lang: str, case: str | None) -> str | None:
        """The name in ``case`` (the plain name when ``case`` is None); None if not given."""
        if case is None:
            return self.name.get(lang)
        return self.name_forms.get(lang, {}).get(case)

    def line(self, kind: str) -> CardLine | None:
        return next((ln for ln in self.lines if ln.kind == kind), None)

    @property
    def is_event(self) -> bool:
        return self.kind in EVENT_KINDS

    @property
    def source_key(self) -> str | None:
        """A key over the card file's text this card was read from (see :func:`read_from`);
        None for a card made or changed in code."""
        return self.__dict__.get("_source_key")

    @property
    def types(self) -> tuple[str, ...]:
        """Card types from the printed yield (rules 5.5, 5.51)."""
        if self.kind in ("retinue", "john") or "any" in self.yields:
            return ()
        return tuple(dict.fromkeys(self.yields))


def read_from(card: Card, source_key: str | None) -> Card:
    """``card``, remembering the key of the text it was read from: what the per-card check
    caches key it by. Not a field, so a copy made with :func:`dataclasses.replace` (which may
    differ from that text) has none."""
    if source_key is not None:
        object.__setattr__(card, "_source_key", source_key)  # frozen: a key, not a field
    return card


#: The card groups of the inventory (2.1) whose sizes ``counts`` in game.yaml fix, each with
#: the rule that fixes it. Every physical card is in exactly one group; their copies add up
#: to ``counts.physical_cards``. The checks and the Inventory table count with these.
INVENTORY_GROUPS: dict[str, tuple[str, Callable[[Card], bool]]] = {
    "luxembourg_starters": ("3.31", lambda c: c.deck == "luxembourg" and c.kind != "john"),
    "wittelsbach_starters": ("3.32", lambda c: c.deck == "wittelsbach" and c.kind != "john"),
    "john_cards": ("2.38", lambda c: c.kind == "john"),
    "market_cards": ("3.4", lambda c: c.deck == "market" and not c.is_event),
    "historical_events": ("6.41", lambda c: c.kind == "event"),
    "battle_events": ("6.43", lambda c: c.kind == "battle_event"),
    "end_events": ("6.44", lambda c: c.kind == "end_event"),
}


@dataclass(frozen=True)
class Place:
    """An elector country, battleground or shield location, with its Czech case forms."""

    id: str
    category: str  # country | battleground | location
    name: Bilingual
    forms: dict[str, dict[str, str]]  # lang -> form name -> text (e.g. cs: {in: "v Mohuči"})
    loc: Location
    attrs: dict[str, Any] = field(default_factory=dict)  # stability, kind, bonus, links …
    locs: dict[str, Location] = field(default_factory=dict)

    def form(self, lang: str, form: str) -> str | None:
        return self.forms.get(lang, {}).get(form)


@dataclass(frozen=True)
class Currency:
    id: str
    name: Bilingual  # the adjective used on cards: Church / církevní
    colour: str
    mark: str  # greyscale-safe mark drawn on the coin
    loc: Location


@dataclass(frozen=True)
class Shield:
    id: str
    name: Bilingual
    forms: dict[str, dict[str, str]]
    colour: str
    charge: str
    holder: str  # card id that places it
    loc: Location
    rules: tuple[str, ...] = ()  # the rules about the shield itself (11.5's Rules column)


@dataclass(frozen=True)
class Side:
    id: str
    name: Bilingual
    colour: str
    loc: Location


@dataclass(frozen=True)
class Phase:
    id: str
    rounds: tuple[int, ...]
    plays: int
    hand: int
    loc: Location
    locs: dict[str, Location] = field(default_factory=dict)


@dataclass(frozen=True)
class GlossaryTerm:
    """A term pair: allowed forms per language and forbidden variants with the fix;
    with its one-line definition and defining rule for the Key terms table (1.4)."""

    id: str
    forms: dict[str, tuple[str, ...]]
    forbidden: dict[str, tuple[tuple[BoundedPattern, str], ...]]  # lang -> (variant, use)
    plural: dict[str, dict[str, str]]  # lang -> CLDR category -> form (nouns after numbers)
    note: str | None
    loc: Location
    definition: Bilingual | None = None
    rule: str | None = None
    prototype: bool = False


@dataclass(frozen=True)
class GameInfo:
    rules_version: str
    data_version: str
    prototype: bool
    counts: dict[str, int]
    loc: Location
    locs: dict[str, Location] = field(default_factory=dict)
    uncounterable_events: tuple[str, ...] = ()
    #: starter-deck cards set aside at setup: their bottom strip says so (3.32)
    set_aside: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameData:
    """Everything under card_data/, loaded and typed."""

    root: Path
    game: GameInfo
    cards: tuple[Card, ...]
    places: dict[str, Place]
    currencies: dict[str, Currency]
    shields: dict[str, Shield]
    sides: dict[str, Side]
    phases: tuple[Phase, ...]
    glossary: tuple[GlossaryTerm, ...]
    schema: dict[str, Any]
    templates: dict[str, dict[str, Any]]  # lang -> template tables
    files: tuple[Path, ...]
    #: noun phrases after a number: noun id -> lang -> CLDR category -> form.
    #: Currencies appear as ``currency:<id>``.
    nouns: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)
    #: card_data/rules/facts.yaml as read (file:line kept): what the rulebook fixes.
    rule_facts: Any = None

    def card(self, card_id: str) -> Card | None:
        """The first card with this id (looked up in a table made on first use)."""
        table = self.__dict__.get("_by_id")
        if table is None:
            table = {}
            for c in self.cards:
                table.setdefault(c.id, c)
            object.__setattr__(self, "_by_id", table)  # frozen: a cache, not a field
        return table.get(card_id)
