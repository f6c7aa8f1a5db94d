"""Scale test data: `python bench/scale.py --scale N --out DIR`.

Copies the shipped project (card_data/, layouts/, fonts/, art/) to DIR with every card
record N times: copy k ≥ 2 of a card gets its own id (``<id>-<word>``), printed number
(``number + 100·(k-1)``) and name (``<name> <Word>`` in both languages), and its effects
and texts name copy k of the cards they refer to, so cross-card references stay inside one
copy of the deck. The counts of card_data/game.yaml are raised to match, copies of the
events that cannot be countered are listed with them, and copies of a shield's card place
no shield (there are six shields, 11.5): they keep their Deed and their passive only when it
checks a shield. The counts card_data/rules/facts.yaml holds for one copy of the game are
raised the same way. `cardgen check` on the result exits 0 with no errors.

Importable: :func:`make_scaled_project`.
"""

from __future__ import annotations

import argparse
import copy
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("card_data", "layouts", "fonts", "art")
#: game.yaml counts that grow with the deck; the others (shields, retinue copies, John's
#: use cost) are rules of one copy of the game.
SCALED_COUNTS = ("physical_cards", "luxembourg_starters", "wittelsbach_starters", "john_cards",
                 "market_cards", "historical_events", "battle_events", "end_events",
                 "counter_cards")
NUMBER_STEP = 100
#: Longest copy name (characters): longer ones lose their last word to the copy's word, so
#: every name still fits its bar (rule 2.35).
MAX_NAME = 26
_CONSONANTS = "bdfglmprt"
_VOWELS = "aeo"


def copy_word(k: int) -> str:
    """A short made-up word naming copy ``k`` (k ≥ 2): no digits, no Roman numerals, no
    one-letter words (Czech prepositions), distinct for every k."""
    n = k - 2
    syllables = []
    while True:
        syllables.append(_CONSONANTS[n % len(_CONSONANTS)] + _VOWELS[(n // len(_CONSONANTS))
                                                                     % len(_VOWELS)])
        n //= len(_CONSONANTS) * len(_VOWELS)
        if n == 0:
            break
        n -= 1
    return "".join(syllables) + "n"


#: The effect parameter that names a card (type ``card`` in card_data/rules/schema.yaml);
#: shields, places and currencies keep their ids.
CARD_PARAM = "card"


def copy_name(name: str, k: int, longest: str = "") -> str:
    """The name of copy ``k`` of a card named ``name`` (in one language). ``longest``, the
    card's longest name in any language, decides whether the last word gives way, so both
    languages drop the same word (a word kept in one only reads as left untranslated)."""
    word = copy_word(k).capitalize()
    if len(max(name, longest, key=len)) + 1 + len(word) > MAX_NAME and " " in name:
        name = name.rsplit(" ", 1)[0]
    return f"{name} {word}"


def _rename_ids(value: Any, ids: dict[str, str], refs: set[str]) -> Any:
    """``value`` (effects) with every card parameter naming copy k's card; the ids renamed
    are added to ``refs``."""
    if isinstance(value, list):
        return [_rename_ids(v, ids, refs) for v in value]
    if isinstance(value, dict):
        out = {}
        for key, v in value.items():
            if key == CARD_PARAM and isinstance(v, str) and v in ids:
                refs.add(v)
                out[key] = ids[v]
            else:
                out[key] = _rename_ids(v, ids, refs)
        return out
    return value


LINE_KEYS = ("deed", "boost", "counter", "writing_history", "acquire", "passive", "event")


def _only_shield_checks(line: dict) -> bool:
    effects = line.get("effects") or []
    return bool(effects) and all(isinstance(e, dict) and e.get("op") == "if_shield"
                                 for e in effects)


def _copy_card(card: dict, k: int, ids: dict[str, str], names: dict[str, dict[str, str]]
               ) -> dict:
    """Copy ``k`` of one card record (``ids``: card id → copy id, ``names``: card id → its
    name and declined forms per language)."""
    out = copy.deepcopy(card)
    out["id"] = ids[card["id"]]
    out["number"] = card["number"] + NUMBER_STEP * (k - 1)
    out["name"] = {lang: copy_name(text, k, _longest(card)) for lang, text in card["name"].items()}
    if card.get("name_forms"):  # the declined names (a Czech text's "Blanku z Valois")
        out["name_forms"] = {lang: {case: copy_name(form, k, _longest(card))
                                    for case, form in forms.items()}
                             for lang, forms in card["name_forms"].items()}
    if "art" not in card:
        out["art"] = card["id"]  # the same picture as the original
    if card.get("shield"):
        del out["shield"]
        out.pop("acquire", None)
        if "passive" in out and not _only_shield_checks(out["passive"]):
            del out["passive"]
    for key in LINE_KEYS:
        line = out.get(key)
        if not isinstance(line, dict):
            continue
        refs: set[str] = set()
        line["effects"] = _rename_ids(line.get("effects"), ids, refs)
        texts = line.get("text") or {}
        for lang, text in list(texts.items()):
            olds = sorted({n for ref in refs for n in names[ref].get(lang, ()) if n}, key=len,
                          reverse=True)
            if olds:  # one pass, longest first: a name inside a longer one is not renamed twice
                longest = {n: max((names[ref][lang2][0] for lang2 in names[ref]), key=len)
                           for ref in refs for n in names[ref].get(lang, ())}
                text = re.sub("|".join(map(re.escape, olds)),
                              lambda m, longest=longest: copy_name(m.group(0), k, longest[m.group(0)]),
                              text)
            texts[lang] = text
    return out


def _longest(card: dict) -> str:
    return max(card["name"].values(), key=len)


def _all_names(card: dict) -> dict[str, list[str]]:
    """Language → the card's name and its declined forms."""
    forms = card.get("name_forms") or {}
    return {lang: [name, *(forms.get(lang) or {}).values()] for lang, name in card["name"].items()}


def _dump(doc: Any, path: Path) -> None:
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=4096),
                    encoding="utf-8")


def make_scaled_project(out: Path, scale: int, source: Path = ROOT) -> Path:
    """Write the project ``source`` to ``out`` with its deck ``scale`` times; return ``out``.

    ``out`` must not exist yet or be empty.
    """
    if scale < 1:
        raise ValueError("scale must be at least 1")
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} is not empty")
    for part in PARTS:
        if (source / part).is_dir():
            shutil.copytree(source / part, out / part, dirs_exist_ok=True)
    if scale == 1:
        return out
    card_files = sorted((out / "card_data" / "cards").glob("*.yaml"))
    docs = {p: yaml.safe_load(p.read_text(encoding="utf-8")) for p in card_files}
    cards = [c for doc in docs.values() for c in doc["cards"]]
    names = {c["id"]: _all_names(c) for c in cards}
    game_path = out / "card_data" / "game.yaml"
    game = yaml.safe_load(game_path.read_text(encoding="utf-8"))
    uncounterable = list(game.get("uncounterable_events") or [])
    for doc in docs.values():
        originals = list(doc["cards"])
        for k in range(2, scale + 1):
            ids = {cid: f"{cid}-{copy_word(k)}" for cid in names}
            doc["cards"] += [_copy_card(c, k, ids, names) for c in originals]
            uncounterable += [ids[cid] for cid in game.get("uncounterable_events") or []]
    for path, doc in docs.items():
        _dump(doc, path)
    for name in SCALED_COUNTS:
        if name in game["counts"]:
            game["counts"][name] *= scale
    game["uncounterable_events"] = uncounterable
    _dump(game, game_path)
    facts_path = out / "card_data" / "rules" / "facts.yaml"
    facts = yaml.safe_load(facts_path.read_text(encoding="utf-8"))
    for fact in facts["facts"]:
        for name in fact.get("counts") or {}:
            if name in SCALED_COUNTS:
                fact["counts"][name] *= scale
    _dump(facts, facts_path)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=int, required=True, help="deck size as a multiple of today's")
    ap.add_argument("--out", type=Path, required=True, help="a new (or empty) folder")
    ap.add_argument("--source", type=Path, default=ROOT, help="the project to copy")
    args = ap.parse_args(argv)
    try:
        make_scaled_project(args.out, args.scale, args.source)
    except (ValueError, FileExistsError) as exc:
        print(f"scale: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
