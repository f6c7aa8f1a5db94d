"""output/balance/proposal.yaml: the changed values with their file:line and old → new,
the playtest reports of today's and the proposed data, and `cardgen balance --apply`, which
writes the values into card_data/ through the identity-keeping editor of `check --fix`
(texts whose canonical wording holds a changed number are written anew). The proposal is
a file anyone could have planted: --apply trusts none of it (see :func:`apply_proposal`)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import yaml

from ..data.load import load_or_raise
from ..data.model import GameData
from ..data.paths import coins, patched, read_slot
from ..data.yamlsrc import LocList, LocMap, load_yaml_text, nests_deeper
from ..errors import CardgenError, Finding, Location, error
from ..files.oserrors import read_input
from ..files.provenance import provenance
from ..files.write import atomic_write
from ..playtest import PlaytestOptions, playtest
from ..progress import Progress
from ..translate.values import ValueChange, write_values
from .outputs import OUT, PROPOSAL_NAME, REPORTS, out_folder, out_path, shown
from .spec import Spec, Tunable, read_spec, rule_errors

PLAY_PARTS = ("card_data", "layouts", "fonts")  # what `cardgen playtest` reads
PROPOSAL = OUT / PROPOSAL_NAME
#: The largest proposal read (one of 26 changed values is about 10 kB).
MAX_PROPOSAL = 1024 * 1024
#: How deep a proposal's YAML may nest (the tool writes 4 levels: changes, a row, coins, a list).
MAX_NESTING = 16
HEADER = ("# cardgen balance: values that bring the game to its targets. Take them with\n"
          "# `cardgen balance --apply`; the playtest of the applied proposal against today's\n"
          "# data: output/balance/proposed/ (and current/).\n")
NO_PROPOSAL_HEADER = ("# cardgen balance found no values to propose (see verdict); `cardgen balance\n"
                      "# --apply` refuses this file. What was tried is under not_proposed.\n")


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
    path = out_path(project, PROPOSAL_NAME)
    head = HEADER if body.get("verdict", "proposal") == "proposal" else NO_PROPOSAL_HEADER
    body = {**body, "provenance": provenance(project).as_json()}  # the data it was made from
    text = head + yaml.dump(body, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100,
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
    out_folder(project, name)
    for src in sorted(out.rglob("*")):
        if src.is_file():
            atomic_write(out_path(project, f"{name}/{src.relative_to(out).as_posix()}"),
                         src.read_bytes())


def playtest_reports(project: Path, body: dict[str, Any], games: int, seed: int,
                     kinds: tuple[str, str], jobs: int, spec: Spec | None = None,
                     proposed: bool = True, progress: Progress | None = None
                     ) -> dict[str, dict[str, Any]]:
    """`cardgen playtest` of today's data and (``proposed``) of the data with the proposal
    applied (by :func:`apply_proposal`, as the designer would), the same seeded games, each
    in a copy of the project; the reports go to output/balance/current/ and proposed/ (with
    the comparison against today's). A proposal that changes nothing is not played: its
    games would be today's again."""
    reports: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="cardgen-balance-") as tmp:
        for name in REPORTS[:2 if proposed else 1]:
            copy = _copy(project, Path(tmp) / name)
            compare = None
            if name == "proposed":
                write_proposal(copy, body)
                apply_proposal(copy, spec)
                compare = Path(tmp) / "current" / "output" / "playtest" / "report.json"
            result = playtest(copy, PlaytestOptions(games, seed, kinds, jobs, compare), progress)
            _keep(copy, project, name)
            reports[name] = result.report
    return reports


# --apply --------------------------------------------------------------------------------


def _number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_proposal(project: Path) -> LocList:
    """proposal.yaml's ``changes:``, read through the walls (a regular file inside output/
    of at most :data:`MAX_PROPOSAL` bytes, nesting at most :data:`MAX_NESTING` deep) and
    checked for its shape: each row ``{path: text, old: whole number, new: whole number}``."""
    name = shown(PROPOSAL_NAME)
    where = Location(name)
    path = out_path(project, PROPOSAL_NAME)
    if not path.exists():
        raise CardgenError(error("balance-proposal", "there is no proposal", location=where,
                                 hint="run `cardgen balance` first"))
    raw = read_input(path, name, limit=MAX_PROPOSAL)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CardgenError(error("file-encoding", f"file is not UTF-8 ({exc.reason} at byte "
                                 f"{exc.start})", location=where,
                                 hint="run `cardgen balance` again")) from None
    if nests_deeper(text, MAX_NESTING):
        raise CardgenError(error("balance-proposal", f"the proposal nests more than "
                                 f"{MAX_NESTING} deep", location=where,
                                 hint="run `cardgen balance` again"))
    doc = load_yaml_text(text, name)
    verdict = doc.get("verdict", "proposal") if isinstance(doc, LocMap) else "proposal"
    if verdict != "proposal":
        raise CardgenError(error("balance-proposal", f"nothing to apply: {verdict}"[:300],
                                 location=doc.at("verdict"), hint="the values stay as they are; "
                                 "change balance.yaml's tunables or ranges, or give the search "
                                 "more games, and run `cardgen balance` again"))
    rows = doc.get("changes") if isinstance(doc, LocMap) else None
    shape = "{path: …, old: N, new: N}"
    if not isinstance(rows, LocList):
        raise CardgenError(error("balance-proposal", f"the proposal has no list 'changes:' of "
                                 f"{shape}", location=doc.at("changes") if isinstance(doc, LocMap)
                                 else where, hint="run `cardgen balance` again"))
    wrong = [error("balance-proposal", f"change {i + 1} is not {shape} with a path and two "
                   "whole numbers", location=rows.at(i), hint="run `cardgen balance` again")
             for i, row in enumerate(rows)
             if not (isinstance(row, LocMap) and isinstance(row.get("path"), str)
                     and _number(row.get("old")) and _number(row.get("new")))]
    if wrong:
        raise CardgenError(wrong)
    return rows


def _checked_values(rows: LocList, spec: Spec, problems: list[Finding]
                    ) -> list[tuple[Tunable, LocMap]]:
    """The rows that name a tunable of balance.yaml once, with a new value inside its range,
    made for today's value; a problem at the row's line for each other one."""
    tunables = {t.path: t for t in spec.tunables}
    seen: set[str] = set()
    out = []
    for row in rows:
        tunable = tunables.get(row["path"])
        path = row["path"] if len(row["path"]) <= 80 else row["path"][:70] + "…"
        if tunable is None:
            problems.append(error(
                "balance-proposal", f"{path} is not a tunable of card_data/balance.yaml",
                location=row.at("path"), hint="a proposal changes only the values balance.yaml "
                "lists: run `cardgen balance` again"))
        elif tunable.path in seen:
            problems.append(error("balance-proposal", f"{path} is changed twice",
                                  location=row.at("path"), hint="run `cardgen balance` again"))
        elif not tunable.low <= row["new"] <= tunable.high:
            problems.append(error(
                "balance-proposal", f"{path}: {row['new']} is outside its range "
                f"[{tunable.low}, {tunable.high}] (at {tunable.spec_loc})",
                location=row.at("new"), hint="run `cardgen balance` again, or widen the range "
                "in balance.yaml"))
        elif tunable.slot.value != row["old"]:
            problems.append(error(
                "balance-stale", f"{path} is {tunable.slot.value} now, the proposal was made "
                f"for {row['old']}", location=tunable.slot.loc,
                hint="the data changed since: run `cardgen balance` again"))
        else:
            out.append((tunable, row))
        seen.add(row["path"])
    return out


def _rules_kept(data: GameData, values: dict[str, int], problems: list[Finding]) -> None:
    """A problem for each rule fact, count or schema bound the new values break that today's
    data keeps (the checks of `cardgen check`, as balance.yaml's ranges are checked)."""
    broken = sorted(rule_errors(patched(data, values)) - rule_errors(data))
    problems += [error("balance-proposal", f"the proposal breaks {code}: {message}",
                       location=Location(shown(PROPOSAL_NAME)),
                       hint="these values are fixed by the rulebook or game.yaml; run "
                       "`cardgen balance` again") for code, message in broken]


def apply_proposal(project: Path, spec: Spec | None = None) -> list[str]:
    """Write the proposal's values (and the texts they change) into card_data/; the lines
    say what changed where. The proposal is checked first: only tunables of balance.yaml,
    each inside its range and made for today's value, together breaking no rule fact.
    Nothing is written when any value or text cannot be."""
    rows = _read_proposal(project)
    data = load_or_raise(project)
    spec = spec or read_spec(project, data)
    problems: list[Finding] = []
    checked = _checked_values(rows, spec, problems)
    values = {t.path: row["new"] for t, row in checked}
    if not problems:
        _rules_kept(data, values, problems)
    if problems:
        raise CardgenError(problems)
    changes = [ValueChange(t.slot.path, t.slot.loc, t.slot.value if t.slot.coins is None
                           else t.slot.coins, row["new"] if t.slot.coins is None
                           else coins(t.slot.coins, row["new"]))
               for t, row in checked]
    return write_values(project, data, changes, code="balance-text")


def proposal_body(spec: Spec, options: Any, study: str, outcome: Any, data: GameData,
                  confirmation: dict[str, Any] | None, power: dict[str, Any] | None = None,
                  verdict: str = "proposal") -> dict[str, Any]:
    """proposal.yaml: ``changes`` holds the values to apply only when ``verdict`` is
    "proposal"; otherwise they are under ``not_proposed`` and --apply refuses the file."""
    from .search import changed
    rows = change_rows(data, changed(outcome.best.values, spec))
    proposed = verdict == "proposal"
    return {
        "verdict": verdict,
        "search": {"seed": options.seed, "players": list(options.players),
                   "games_per_trial": options.games, "trials": outcome.trials,
                   "study": study, "interrupted": outcome.interrupted,
                   "taken_back": outcome.reverted},
        "targets": [{"measure": t.measure, "value": t.value, "tolerance": t.tolerance}
                    for t in spec.targets],
        "power": power or {},
        "search_result": {"today": outcome.baseline.measured, "proposed": outcome.best.measured,
                          "measured_on_games": outcome.games or options.games,
                          "score": outcome.best.score},
        "each_change_alone": outcome.directions,
        "changes": rows if proposed else [],
        "not_proposed": [] if proposed else rows,
        "confirmation": confirmation,
    }
