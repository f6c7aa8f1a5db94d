"""Writing changed values into card_data/: the one value writer of `cardgen balance --apply`
and `cardgen sheet import`.

Each value is written where the designer wrote it, through the identity-keeping editor of
`check --fix` (:mod:`cardgen.data.yamledit`: comments, order and formatting kept). A text
whose canonical wording holds a changed effect number is written anew in both languages,
and the Czech translation state follows: a Czech text that was in step with its English
stays in step with the new English (not fuzzy). Nothing is written when any value or text
cannot be: every file is edited in memory first.

This lives in the translation stage, the earliest that knows both the wording (canonical
texts) and the translation state; the balance stage and the sheet import call it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from ..data.model import LANGS, GameData
from ..data.paths import patched
from ..data.project import Documents
from ..data.yamledit import TextEdit, edit_files, edit_yaml
from ..errors import CardgenError, Finding, Location, error
from ..files.oserrors import read_input
from ..files.write import atomic_write
from ..wording.templates import TextError, canonical_text, normalize, typography
from .translation import STATE_FILE, Record, read_state, state_bytes, text_hash

#: What a value may be set to: a whole number, or the coins of a list ``[church, german]``.
Value = int | tuple[str, ...]


@dataclass(frozen=True)
class ValueChange:
    """One value to write: its path (as :mod:`cardgen.data.paths` names it; a card's
    ``number``, ``year`` and a line's ``cost`` are named alike), where it is written,
    today's value and the new one. Only an effect's path decides which texts follow."""

    path: str
    loc: Location
    old: Value
    new: Value

    def line(self) -> str:
        return f"{self.loc.file}:{self.loc.line}: {self.path} {_shown(self.old)} → {_shown(self.new)}"


def _shown(value: Value) -> str:
    return str(value) if isinstance(value, int) else "[" + ", ".join(value) + "]"


def _effect_path(path: str) -> bool:
    parts = path.split(".")
    return parts[0] == "cards" and len(parts) >= 6 and parts[3] == "effects"


def text_edits(old: GameData, new: GameData, problems: list[Finding], code: str
               ) -> tuple[list[TextEdit], dict[str, tuple[str, str]]]:
    """The written texts whose canonical wording changes with the new numbers, and per
    translation context the English before and after; a text written otherwise than
    canonically (a reviewed exception) is a problem (``code``) for the designer."""
    edits = []
    english: dict[str, tuple[str, str]] = {}
    for card_old, card_new in zip(old.cards, new.cards, strict=True):
        for line_old, line_new in zip(card_old.lines, card_new.lines, strict=True):
            if line_old.effects == line_new.effects or line_old.text is None:
                continue
            for lang in LANGS:
                written = line_old.text.get(lang)
                try:
                    before = canonical_text(old, card_old, line_old, lang)
                    after = typography(canonical_text(new, card_new, line_new, lang), lang)
                except TextError:
                    continue
                if written is None or normalize(before) == normalize(after):
                    continue
                if normalize(written) != normalize(before):
                    problems.append(error(
                        code, f"the {line_old.kind} text ({lang}) is not the canonical "
                        f"one, so its numbers cannot be rewritten: the new canonical text is "
                        f"\"{after}\"", location=line_old.text.at(lang), card=card_old.id, lang=lang,
                        hint="write the new text by hand, then apply again"))
                    continue
                edits.append(TextEdit(line_old.text.at(lang), after))
                if lang == "en":
                    english[f"{card_old.id}:{line_old.kind}"] = (written, after)
    return edits, english


def restamp(project: Path, english: dict[str, tuple[str, str]]) -> None:
    """The Czech of a re-rendered text is the canonical rendering of the new English: a text
    that was in step with its English stays so (not fuzzy); a review mark stays on the old
    Czech, so the new one reads as translated, not reviewed."""
    state = read_state(Documents(project))
    changed = False
    for context, (before, after) in english.items():
        rec = state.get(context)
        if rec is not None and rec.source == text_hash(before):
            state[context] = Record(text_hash(after), rec.reviewed)
            changed = True
    if changed:
        atomic_write(project / STATE_FILE, state_bytes(state))


def _dry_run(project: Path, edits: list[TextEdit]) -> list[Finding]:
    """What editing the files would find, every file edited in memory only."""
    by_file: dict[str, list[TextEdit]] = defaultdict(list)
    for edit in edits:
        by_file[edit.loc.file].append(edit)
    found: list[Finding] = []
    for file, file_edits in sorted(by_file.items()):
        try:
            path = Path(file) if Path(file).is_absolute() else project / file
            edit_yaml(read_input(path, file).decode("utf-8"), file_edits, file)
        except CardgenError as exc:
            found.extend(exc.findings)
        except UnicodeDecodeError:
            found.append(error("file-encoding", "file is not UTF-8; nothing was written",
                               location=Location(file), hint="save the file as UTF-8"))
    return found


def planned_edits(data: GameData, changes: list[ValueChange], code: str
                  ) -> tuple[list[TextEdit], list[str], dict[str, tuple[str, str]]]:
    """The edits that write ``changes`` (values, then the texts they re-render), the lines
    saying each, and the English before and after per re-rendered context; raises with
    every problem when any text cannot follow its numbers."""
    edits = [TextEdit(c.loc, c.new) for c in changes]
    lines = [c.line() for c in changes]
    problems: list[Finding] = []
    numbers = {c.path: c.new for c in changes if isinstance(c.new, int) and _effect_path(c.path)}
    written, english = text_edits(data, patched(data, numbers), problems, code)
    if problems:
        raise CardgenError(problems)
    lines += [f"{e.loc.file}:{e.loc.line}: text now \"{e.value}\"" for e in written]
    return edits + written, lines, english


def write_values(project: Path, data: GameData, changes: list[ValueChange], code: str, *,
                 dry_run: bool = False) -> list[str]:
    """Write ``changes`` (and the texts they re-render) into card_data/ and keep the Czech
    translation state in step; the lines say what changed where. Raises, with nothing
    written, when any value or text cannot be written; ``dry_run`` only says it."""
    edits, lines, english = planned_edits(data, changes, code)
    problems = _dry_run(project, edits)
    if problems:
        raise CardgenError(problems)
    if dry_run or not edits:
        return lines
    outcome = edit_files(project, edits)
    if outcome.findings:
        raise CardgenError(outcome.findings)
    restamp(project, english)
    return lines
