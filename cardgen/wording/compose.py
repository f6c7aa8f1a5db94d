"""Compose stage: typed model → one :class:`~cardgen.wording.face.CardFace` per card and
language.

The printed text is the line's WRITTEN text (``line.text``), which ``cardgen check``
compares with the canonical one (:mod:`.templates`); ``cardgen check --fill`` writes the
canonical text into lines that have none yet, through :mod:`cardgen.data.yamledit`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..data.model import DECKS, LINE_KINDS, Card, GameData, Shield
from ..data.yamledit import TextEdit, apply_edits, edit_files
from ..errors import CardgenError, Finding, Location, error
from ..files.safepath import inside
from .face import CardFace, CurrencyStyle, ShieldStyle, TextLine
from .templates import INLINE_TOKEN, TextError, canonical_text, capitalised, renderer, typography


def _art_names(project: Path) -> frozenset[str]:
    """The names in art/, case-folded (as a case-blind file system finds them)."""
    try:
        return frozenset(p.name.casefold() for p in (project / "art").iterdir())
    except OSError:
        return frozenset()


def _art(project: Path, card: Card, names: frozenset[str]) -> Path | None:
    """The card's art file; ``names`` (:func:`_art_names`) spares a file-system look-up per
    extension for the many cards without art."""
    stem = card.art or card.id
    for ext in ("png", "jpg", "jpeg"):
        name = f"{stem}.{ext}"
        listed = name.casefold() in names or "/" in name or "\\" in name
        if not listed or not (project / "art" / name).is_file():
            continue
        try:
            return inside(project / "art", f"{stem}.{ext}")
        except CardgenError:
            return None  # not a file name in art/: an art-path finding of the check
    return None


def _currency_styles(data: GameData, lang: str, ids: set[str]) -> tuple[CurrencyStyle, ...]:
    return tuple(CurrencyStyle(c.id, c.name.get(lang) or c.id, c.colour, c.mark)
                 for c in data.currencies.values() if c.id in ids)


def _shield_style(shield: Shield, lang: str) -> ShieldStyle:
    return ShieldStyle(shield.id, shield.name.get(lang) or shield.id, shield.colour, shield.charge)


def card_order(data: GameData) -> list[Card]:
    return sorted(data.cards, key=lambda c: (DECKS.index(c.deck) if c.deck in DECKS else 99,
                                             c.number, c.id))


def _face(data: GameData, card: Card, lang: str, project: Path,
          art_names: frozenset[str]) -> CardFace:
    r = renderer(data, lang)
    lines: list[TextLine] = []
    for kind in LINE_KINDS:
        line = card.line(kind)
        if line is None:
            continue
        text = line.text.get(lang) if line.text else None
        if text is None:
            continue  # a missing translation is a check finding, never an English fallback
        title = None
        if kind in ("deed", "writing_history") and line.name is not None:
            title = line.name.get(lang)
        elif kind == "counter":
            title = r.labels.get("counter_title")
        lines.append(TextLine(kind, typography(text, lang), title,
                              line.cost if kind == "boost" else ()))
        if kind == "event" and line.attrs.get("uncounterable"):
            lines.append(TextLine("note", r.label("uncounterable")))
    if card.kind == "john" and r.labels.get("john_note"):
        lines.append(TextLine("note", r.label("john_note")))
    shown = set(card.yields) | set(card.cost)
    inline_shields: set[str] = set()
    for ln in lines:
        tokens = set(INLINE_TOKEN.findall(ln.text))
        shown |= set(ln.cost) | {t for t in tokens if t in data.currencies}
        inline_shields |= {t.removeprefix("shield-") for t in tokens if t.startswith("shield-")}
    shield = data.shields.get(card.shield or "")
    kind_label = r.labels.get(f"kind_{card.kind}") if card.is_event else None
    return CardFace(
        card_id=card.id,
        lang=lang,
        kind=card.kind,
        side=card.side,
        name=capitalised(card.name.get(lang) or ""),  # a title: "the Teutonic Order" → "The …"
        political=card.political,
        military=card.military,
        yields=card.yields,
        cost=card.cost,
        use_cost=card.use_cost,
        use_cost_label=r.label("use_cost", n=card.use_cost) if card.use_cost else None,
        shield=_shield_style(shield, lang) if shield else None,
        crown=card.crown,
        year=card.year,
        lines=tuple(lines),
        deck_label=r.labels["deck_set_aside" if card.id in data.game.set_aside else
                            "deck_market" if card.deck == "market" else "deck_starter"],
        number=card.number,
        deck=card.deck,
        version=data.game.data_version,
        art=_art(project, card, art_names),
        currencies=_currency_styles(data, lang, shown),
        kind_label=kind_label,
        copies=card.copies,
        shields=tuple(_shield_style(s, lang) for s in data.shields.values()
                      if s.id in inline_shields),
    )


def compose_faces(data: GameData, lang: str, project: Path) -> list[CardFace]:
    """One face per card record in ``lang``, in deck and number order."""
    try:
        art_names = _art_names(project)
        return [_face(data, card, lang, project, art_names) for card in card_order(data)]
    except TextError as exc:
        raise CardgenError(error(exc.code if exc.unsafe else "compose",
                                 f"cannot compose the {lang} faces: {exc}",
                                 location=exc.location or Location(f"card_data/text/{lang}.yaml"),
                                 lang=lang)) from None
    except KeyError as exc:
        raise CardgenError(error("compose", f"cannot compose the {lang} faces: missing {exc}",
                                 location=Location(f"card_data/text/{lang}.yaml"),
                                 lang=lang)) from None


# --fill --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TextChange:
    """One canonical text written into a card file by ``cardgen check --fill``."""

    file: Path
    line: int
    card: str
    kind: str
    lang: str
    text: str

    def format(self) -> str:
        return f"{self.file}:{self.line}: card {self.card} {self.kind} ({self.lang}): {self.text}"


def fill_texts(data: GameData, project: Path, problems: list[Finding] | None = None
               ) -> list[TextChange]:
    """Write canonical text into card YAML wherever a line has no text in a language.

    With ``problems``, a file that cannot be edited is reported there and left as it was,
    and only the changes actually written are returned; without it, that raises.

    The files are written through :mod:`cardgen.data.yamledit`, the one surgical YAML editor:
    a missing language is added to the line's ``text`` mapping, a missing ``text`` is added
    to the line; nothing else in the file changes.
    """
    edits: list[TextEdit] = []
    changes: list[TextChange] = []
    for card in data.cards:
        for line in card.lines:
            missing = [lang for lang in ("en", "cs")
                       if line.effects and not (line.text and line.text.get(lang))]
            texts = {}
            for lang in missing:
                try:
                    texts[lang] = canonical_text(data, card, line, lang)
                except TextError:
                    continue
            if not texts:
                continue
            if line.text is None:
                edits.append(TextEdit(line.loc, texts, key="text", style='"'))
            else:
                edits += [TextEdit(line.text.loc, text, key=lang, style='"')
                          for lang, text in texts.items()]
            where = line.at("text") if line.text is not None else line.loc
            path = Path(where.file) if Path(where.file).is_absolute() else project / where.file
            changes += [TextChange(path, where.line, card.id, line.kind, lang, text)
                        for lang, text in texts.items()]
    if problems is None:
        apply_edits(project, edits)
        return changes
    outcome = edit_files(project, edits)
    problems.extend(outcome.findings)
    written = set(outcome.changed)
    return [c for c in changes if c.file in written]
