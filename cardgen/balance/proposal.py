"""output/balance/proposal.yaml: the changed values with their file:line and old → new,
the playtest reports of today's and the proposed data, and `cardgen balance --apply`, which
writes the values into card_data/ through the identity-keeping editor of `check --fix`
(texts whose canonical wording holds a changed number are written anew)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import yaml

from ..data.load import load_or_raise
from ..data.model import LANGS, GameData
from ..data.yamledit import TextEdit, edit_files
from ..errors import CardgenError, Finding, Location, error
from ..files.write import atomic_write
from ..playtest import PlaytestOptions, playtest
from ..translate.translation import STATE_FILE, Record, read_state, state_bytes, text_hash
from ..wording.templates import TextError, canonical_text, normalize, typography
from .paths import PathError, coins, patched, read_slot
from .spec import Spec

OUT = Path("output") / "balance"
PLAY_PARTS = ("card_data", "layouts", "fonts")  # what `cardgen playtest` reads
PROPOSAL = OUT / "proposal.yaml"
HEADER = ("# cardgen balance: values that bring the game to its targets. Take them with\n"
          "# `cardgen balance --apply`; the playtest of the applied proposal against today's\n"
          "# data: output/balance/proposed/ (and current/).\n")


def change_rows(data: GameData, values: dict[str, int]) -> list[dict[str, Any]]:
    rows = []
    for path, new in sorted(values.items()):
        slot = read_slot(data, path)
        row: dict[str, Any] = {"path": path, "at": f"{slot.loc.file}:{slot.loc.line}",
                               "old": slot.value, "new": new}
        if slot.coins is not None:
            row["coins"] = {"old": list(slot.coins), "new": list(coins(slot.coins, new))}
        rows.append(row)
    return rows


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True  # a value written twice is written out twice, never as &id001 / *id001


def write_proposal(project: Path, body: dict[str, Any]) -> Path:
    path = project / PROPOSAL
    path.parent.mkdir(parents=True, exist_ok=True)
    text = HEADER + yaml.dump(body, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100,
                              default_flow_style=None)
    atomic_write(path, text.encode("utf-8"))
    return path


def _copy(project: Path, dest: Path) -> Path:
    for part in PLAY_PARTS:
        if (project / part).is_dir():
            shutil.copytree(project / part, dest / part)
    return dest


def _keep(copy: Path, project: Path, name: str) -> None:
    """The copy's playtest outputs, as output/balance/<name>/…"""
    out = copy / "output" / "playtest"
    for src in sorted(out.rglob("*")):
        if src.is_file():
            dest = project / OUT / name / src.relative_to(out)
            dest.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(dest, src.read_bytes())


def playtest_reports(project: Path, body: dict[str, Any], games: int, seed: int,
                     kinds: tuple[str, str], jobs: int) -> dict[str, dict[str, Any]]:
    """`cardgen playtest` of today's data and of the data with the proposal applied (by
    :func:`apply_proposal`, as the designer would), the same seeded games, each in a copy of
    the project; the reports go to output/balance/current/ and proposed/ (with the
    comparison against today's)."""
    reports: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="cardgen-balance-") as tmp:
        for name in ("current", "proposed"):
            copy = _copy(project, Path(tmp) / name)
            compare = None
            if name == "proposed":
                (copy / PROPOSAL).parent.mkdir(parents=True, exist_ok=True)
                write_proposal(copy, body)
                apply_proposal(copy)
                compare = Path(tmp) / "current" / "output" / "playtest" / "report.json"
            result = playtest(copy, PlaytestOptions(games, seed, kinds, jobs, compare))
            _keep(copy, project, name)
            reports[name] = result.report
    return reports


# --apply --------------------------------------------------------------------------------


def _read_proposal(project: Path) -> list[dict[str, Any]]:
    path = project / PROPOSAL
    where = Location(str(PROPOSAL))
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise CardgenError(error("balance-proposal", f"cannot read the proposal: {exc}",
                                 location=where, hint="run `cardgen balance` first")) from None
    rows = raw.get("changes") if isinstance(raw, dict) else None
    if not isinstance(rows, list) or not all(
            isinstance(r, dict) and isinstance(r.get("path"), str) and isinstance(r.get("old"), int)
            and isinstance(r.get("new"), int) for r in rows):
        raise CardgenError(error("balance-proposal", "the proposal has no list 'changes:' of "
                                 "{path, old, new}", location=where,
                                 hint="run `cardgen balance` again"))
    return rows


def _text_edits(old: GameData, new: GameData, problems: list[Finding]
                ) -> tuple[list[TextEdit], dict[str, tuple[str, str]]]:
    """The written texts whose canonical wording changes with the new numbers, and per
    translation context the English before and after; a text written otherwise than
    canonically (a reviewed exception) is a problem for the designer."""
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
                        "balance-text", f"the {line_old.kind} text ({lang}) is not the canonical "
                        f"one, so its numbers cannot be rewritten: the new canonical text is "
                        f"\"{after}\"", location=line_old.text.at(lang), card=card_old.id, lang=lang,
                        hint="write the new text by hand, then apply again"))
                    continue
                edits.append(TextEdit(line_old.text.at(lang), after))
                if lang == "en":
                    english[f"{card_old.id}:{line_old.kind}"] = (written, after)
    return edits, english


def _restamp(project: Path, english: dict[str, tuple[str, str]]) -> None:
    """The Czech of a re-rendered text is the canonical rendering of the new English: a text
    that was in step with its English stays so (not fuzzy); a review mark stays on the old
    Czech, so the new one reads as translated, not reviewed."""
    state = read_state(project)
    changed = False
    for context, (before, after) in english.items():
        rec = state.get(context)
        if rec is not None and rec.source == text_hash(before):
            state[context] = Record(text_hash(after), rec.reviewed)
            changed = True
    if changed:
        atomic_write(project / STATE_FILE, state_bytes(state))


def apply_proposal(project: Path) -> list[str]:
    """Write the proposal's values (and the texts they change) into card_data/; the lines
    say what changed where. Nothing is written when any value or text cannot be."""
    rows = _read_proposal(project)
    data = load_or_raise(project)
    problems: list[Finding] = []
    values: dict[str, int] = {}
    edits: list[TextEdit] = []
    lines: list[str] = []
    for row in rows:
        try:
            slot = read_slot(data, row["path"])
        except PathError as exc:
            problems.append(error("balance-proposal", str(exc), location=Location(str(PROPOSAL))))
            continue
        if slot.value != row["old"]:
            problems.append(error("balance-stale", f"{slot.path} is {slot.value} now, the proposal "
                                  f"was made for {row['old']}", location=slot.loc,
                                  hint="the data changed since: run `cardgen balance` again"))
            continue
        values[slot.path] = row["new"]
        new = coins(slot.coins, row["new"]) if slot.coins is not None else row["new"]
        edits.append(TextEdit(slot.loc, new))
        lines.append(f"{slot.loc.file}:{slot.loc.line}: {slot.path} {row['old']} → {row['new']}")
    english: dict[str, tuple[str, str]] = {}
    if not problems:
        text_edits, english = _text_edits(data, patched(data, values), problems)
        edits += text_edits
        lines += [f"{e.loc.file}:{e.loc.line}: text now \"{e.value}\"" for e in text_edits]
    if problems:
        raise CardgenError(problems)
    outcome = edit_files(project, edits)
    if outcome.findings:
        raise CardgenError(outcome.findings)
    _restamp(project, english)
    return lines


def proposal_body(spec: Spec, options: Any, study: str, outcome: Any, data: GameData,
                  confirmation: dict[str, Any] | None) -> dict[str, Any]:
    from .search import changed
    values = changed(outcome.best.values, spec)
    return {
        "search": {"seed": options.seed, "players": list(options.players),
                   "games_per_trial": options.games, "trials": outcome.trials,
                   "study": study, "interrupted": outcome.interrupted,
                   "taken_back": outcome.reverted},
        "targets": [{"measure": t.measure, "value": t.value, "tolerance": t.tolerance}
                    for t in spec.targets],
        "search_result": {"today": outcome.baseline.measured, "proposed": outcome.best.measured,
                          "proposed_on_games": outcome.games or options.games,
                          "score": outcome.best.score},
        "changes": change_rows(data, values),
        "confirmation": confirmation,
    }
