"""The report's words in one language: labels and sentences from ``playtest:`` in
card_data/text/<lang>.yaml, numbers in the language's format (Czech: decimal comma,
non-breaking spaces), nouns after numbers in their CLDR plural form, and the language's
typography on every text."""

from __future__ import annotations

from typing import Any

from babel.numbers import format_decimal
from jinja2 import TemplateError
from jinja2.sandbox import SecurityError

from ..board.base import display_name
from ..data.model import GameData
from ..errors import CardgenError, Finding, Location, error
from ..tables.glossary import SORT_KEYS, english_key
from ..wording.language import NBSP, plural_category
from ..wording.sandbox import WordingSandbox
from ..wording.templates import TextError, compile_wording, typography

MINUS = "\u2212"

#: Every label the report prints, under ``playtest:`` (dotted paths); ``player.<kind>`` is
#: optional (a player without words is named by its id).
LABELS: tuple[str, ...] = (
    "title", "subtitle", "nouns.game", "units.pp", "and", "none", "findings", "findings_note",
    *(f"finding.{k}" for k in (
        "house", "house_balanced", "electors_held", "holder", "elector", "card_stronger",
        "card_weaker", "no_card_effect", "component_short", "component", "first_player",
        "more", "less", "last_round", "more_rounds")),
    "about", "players", "limits", "houses", "houses_caption", "axis_share", "axis_effect",
    "axis_round", "axis_games", "axis_per_game", "electors", "electors_caption", "first",
    "first_caption", "cards", "cards_caption", "cards_none", "cards_table", "components",
    "components_caption", "components_unmeasured",
    *(f"component.{k}" for k in ("vote_markers", "influence", "military", "currency", "reminder")),
    "compare", "compare_caption", "compare_paired", "compare_unpaired", "compare_none",
    "compare_headline", "compare_beyond", "compare_within", "compare_others",
    *(f"figure.{k}" for k in ("win", "crecy", "end_round", "tie", "purchases", "control",
                              "bought", "played", "peak", "short")),
    "appendix", "ladder", "ladder_caption", "ends", "ends_caption", "purchases",
    "purchases_caption", "economy", "uses", "uses_caption", "never",
)
#: Table heads and their column counts.
HEADS = {"ladder_head": 4, "electors_head": 4, "first_head": 5, "cards_head": 6, "components_head": 6,
         "compare_head": 5, "economy_head": 8, "uses_head": 10}


def _file(lang: str) -> str:
    return f"card_data/text/{lang}.yaml"


class Words:
    """``w("houses")`` is a label, ``w("finding.house", side=…)`` a rendered sentence."""

    def __init__(self, data: GameData, lang: str):
        self.data, self.lang = data, lang
        root = (data.templates.get(lang) or {}).get("playtest")
        if not isinstance(root, dict):
            raise CardgenError(error(
                "missing-label", f"{_file(lang)} has no 'playtest:' section", lang=lang,
                location=Location(_file(lang)),
                hint="add the playtest report's words (copy the section of en.yaml and translate it)"))
        self.root = root
        self.sandbox = WordingSandbox({}, {})  # labels get values only, no helpers
        self._compiled: dict[str, Any] = {}
        problems = self.problems()
        if problems:
            raise CardgenError(problems)

    def problems(self) -> list[Finding]:
        """Every missing label, wrong table head and template that does not compile, at once
        (before any game is played)."""
        where = getattr(self.root, "loc", None) or Location(_file(self.lang))
        missing = [p for p in (*LABELS, *HEADS) if not self.has(p)]
        out = []
        if missing:
            out.append(error("missing-label", f"{_file(self.lang)} has no " + ", ".join(
                f"playtest.{p}" for p in missing), lang=self.lang, location=where,
                hint="add them under playtest: (see en.yaml)"))
        for path, columns in HEADS.items():
            if path not in missing and (not isinstance(self.raw(path), list)
                                        or len(self.raw(path)) != columns):
                out.append(error("table-head", f"playtest.{path} must list {columns} column heads",
                                 lang=self.lang, location=self._lookup(path)[1]))
        for path in LABELS:
            source = None if path in missing else self.raw(path)
            if isinstance(source, str):
                what = f"the {self.lang} template 'playtest.{path}'"
                try:
                    self._compiled[path] = compile_wording(self.sandbox, source, what,
                                                           self._lookup(path)[1])
                except TextError as exc:
                    out.append(exc.finding(self.lang))
        return out

    def _lookup(self, path: str) -> tuple[Any, Location]:
        node: Any = self.root
        loc = getattr(node, "loc", None) or Location(_file(self.lang))
        for key in path.split("."):
            if not isinstance(node, dict) or key not in node:
                raise CardgenError(error(
                    "missing-label", f"{_file(self.lang)} has no 'playtest.{path}'",
                    lang=self.lang, location=loc, hint=f"add '{key}:' under playtest (see en.yaml)"))
            loc = node.at(key) if hasattr(node, "at") else loc
            node = node[key]
        return node, loc

    def raw(self, path: str) -> Any:
        return self._lookup(path)[0]

    def has(self, path: str) -> bool:
        try:
            self._lookup(path)
        except CardgenError:
            return False
        return True

    def __call__(self, path: str, **values: Any) -> str:
        source, where = self._lookup(path)
        what = f"the {self.lang} template 'playtest.{path}'"
        try:
            if path not in self._compiled:
                self._compiled[path] = compile_wording(self.sandbox, str(source), what, where)
            text = self.sandbox.render(self._compiled[path], values)
        except TextError as exc:
            raise CardgenError(exc.finding(self.lang)) from None
        except (SecurityError, TemplateError) as exc:
            raise CardgenError(error("label-template", f"{what} does not render: {exc}",
                                     lang=self.lang, location=where)) from None
        return typography(text, self.lang)

    def typo(self, text: str) -> str:
        return typography(text, self.lang)

    def head(self, path: str) -> list[str]:
        return [typography(str(h), self.lang) for h in self.raw(path)]

    # -- numbers ------------------------------------------------------------------------
    def num(self, x: float, decimals: int = 0) -> str:
        pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
        text = format_decimal(abs(x), pattern, locale=self.lang).replace("\u202f", NBSP)
        return (MINUS if x < 0 and round(abs(x), decimals) else "") + text

    def signed(self, x: float, decimals: int = 0) -> str:
        text = self.num(x, decimals)
        return text if text.startswith(MINUS) or round(x, decimals) == 0 else "+" + text

    def pct(self, share: float, decimals: int = 0) -> str:
        """78 % (a non-breaking space before the sign, in both languages)."""
        return f"{self.num(100 * share, decimals)}{NBSP}%"

    def ci(self, interval: list[float], scale: float = 100, decimals: int = 0) -> str:
        """[76–80]: an interval in the unit of the number before it."""
        lo, hi = (self.num(scale * x, decimals) for x in interval)
        dash = f"{NBSP}\u2013 " if MINUS in lo + hi else "\u2013"  # [−19 – −5], [5–19]
        return f"[{lo}{dash}{hi}]"

    def pp(self, diff: float, decimals: int = 0) -> str:
        """A difference of rates in percentage points: +12 pp / +12 p. b."""
        return f"{self.signed(100 * diff, decimals)}{NBSP}{self.raw('units.pp')}".replace(" ", NBSP)

    def count(self, n: int, noun: str) -> str:
        """2 000 her / 2,000 games."""
        forms = self.raw(f"nouns.{noun}")
        form = forms.get(plural_category(n, self.lang)) or forms.get("other")
        return f"{self.num(n)}{NBSP}{form}"

    # -- names --------------------------------------------------------------------------
    def side(self, side: str) -> str:
        return typography(self.data.sides[side].name.get(self.lang) or side, self.lang)

    def card(self, cid: str) -> str:
        """A card's name; a name two cards share (John's, 3.32) with whose card it is, as the
        rules tables print it (``tables.side_card``)."""
        card = self.data.card(cid)
        name = (card.name.get(self.lang) if card else None) or cid
        if card is not None and card.side and any(
                c.id != cid and c.name.get(self.lang) == name for c in self.data.cards):
            labels = ((self.data.templates.get(self.lang) or {}).get("tables") or {}).get("side_card") or {}
            name = f"{name} ({labels.get(card.side) or self.side(card.side)})"
        return typography(name, self.lang)

    def collate(self, text: str) -> tuple:
        """The language's sort key, the glossary's (Czech: ch after h, Ř after R)."""
        return SORT_KEYS.get(self.lang, english_key)(text)

    def player_name(self, kind: str) -> str:
        """A player's short name (``player_name.<kind>``; its id if the words lack it)."""
        return self.typo(str(self.raw(f"player_name.{kind}"))) if self.has(f"player_name.{kind}") else kind

    def place(self, pid: str, heading: bool = True) -> str:
        """A place's name as a label ("Palatinate"), or in a sentence ("the Palatinate")."""
        place = self.data.places.get(pid)
        name = (place.name.get(self.lang) if place else None) or pid
        return typography(display_name(name, self.lang) if heading else name, self.lang)

    def join(self, parts: list[str]) -> str:
        """a, b and c / a, b a c."""
        if len(parts) < 2:
            return "".join(parts)
        return ", ".join(parts[:-1]) + f" {self.raw('and')} " + parts[-1]
