"""What the compose stage hands to layout and render: one card face in one language.

A face holds only resolved, printable facts (strings already in the face's language,
colours as hex strings), so rendering never looks back at card_data.

Inline symbols in ``TextLine.text`` are written as ``:token:`` and drawn as vector icons:
``:church:`` ``:german:`` ``:western:`` ``:eastern:`` ``:any:`` (currency coins),
``:boost:`` (the ⊕ mark), ``:shield-<shield id>:`` (a small shield), ``:crown:``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..files.incremental import digest, file_digest


@dataclass(frozen=True)
class ShieldStyle:
    id: str
    name: str
    colour: str  # "#rrggbb"
    charge: str  # heraldic charge keyword: lion, eagle, cross, keys, fleur, wheel, star …


@dataclass(frozen=True)
class CurrencyStyle:
    id: str  # church | german | western | eastern | any
    name: str
    colour: str
    mark: str  # greyscale-readable mark: cross, eagle, lily, star, blank …


@dataclass(frozen=True)
class TextLine:
    """One printed text line (rule 2.36) in the face's language."""

    kind: str  # deed | boost | counter | writing_history | acquire | passive | event | note
    text: str  # may contain :token: inline symbols
    title: str | None = None  # bold lead-in, e.g. the Deed's name
    cost: tuple[str, ...] = ()  # boost cost coins (currency ids), drawn after :boost:


@dataclass(frozen=True)
class CardFace:
    card_id: str
    lang: str
    kind: str  # card | king | retinue | john | event | battle_event | end_event
    side: str | None  # luxembourg | wittelsbach | None (neutral / market)
    name: str
    political: int | None
    military: int | None
    yields: tuple[str, ...]  # currency ids, may be ("any",) or () for John
    cost: tuple[str, ...]  # currency ids (market cards only)
    use_cost: int | None  # John: "costs 3 to use"
    use_cost_label: str | None  # localized label for use_cost
    shield: ShieldStyle | None
    crown: bool
    year: int | None
    lines: tuple[TextLine, ...]
    deck_label: str  # "Starter" / "Základní" / "Market" / "Trh" …
    number: int
    version: str  # data version printed in the bottom strip
    art: Path | None  # resolved image path, or None for a placeholder
    currencies: tuple[CurrencyStyle, ...]  # styles of every currency the face shows
    kind_label: str | None = None  # e.g. "Event" / "Událost" for event cards
    copies: int = 1
    shields: tuple[ShieldStyle, ...] = ()  # styles of every shield the text shows inline
    deck: str = ""  # luxembourg | wittelsbach | market: where ``number`` counts


def printed_texts(face: CardFace) -> dict[str, str]:
    """The texts ``face`` prints, by the keys of the translatable texts (``name``, a line's
    kind, ``<kind>.name`` for a bold lead-in): what a manifest keeps so that a later proof
    can show word by word what changed."""
    out = {"name": face.name}
    for line in face.lines:
        key = line.kind
        n = 2
        while key in out:  # two note lines on one face stay apart
            key, n = f"{line.kind}.{n}", n + 1
        if line.title:
            out[f"{key}.name"] = line.title
        out[key] = line.text
    return out


def face_key(face: CardFace, card_key: str, project: Path) -> str:
    """What a card's drawing depends on: its resolved face (paths relative to the project,
    so a copied project keeps its cache and manifest), its art's bytes, and ``card_key``
    (code, card layout, fonts). Keys the fit cache; its first 16 digits are the manifest hash.
    """
    art = file_digest(face.art) if face.art and face.art.is_file() else "placeholder"
    return digest(card_key, repr(face).replace(str(project), "<project>"), art)
