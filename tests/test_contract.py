"""The contract between the engine and its players (issue 42): the engine names every kind
of decision in one enum, the players group kinds by what the engine says they are about,
and no player reaches into the engine's own machinery."""

from __future__ import annotations

import ast
from pathlib import Path

from cardgen.data.model import walk
from cardgen.engine import new_game
from cardgen.engine import players as bots
from cardgen.engine.kinds import Concern, DecisionKind, Option, fits
from cardgen.engine.players import RandomPlayer
from tests.engine_helpers import ROOT, rules

BOTS = [ROOT / "cardgen/engine/players.py", ROOT / "cardgen/engine/search.py"]
#: The engine's machinery: how frames run, what a decision resumes, what each side saw.
INTERNAL = frozenset({"pending", "stack", "ctx", "resume", "push", "ask", "ask_later", "run",
                      "restore", "snapshot", "log", "market_seen", "top_seen", "bottom_seen",
                      "hand_seen", "pools"})


def test_every_decision_asked_is_a_decision_kind():
    """Random games ask only enum kinds (4.3 plays, 6.1 purchases, … 12.24 votes)."""
    seen = set()
    for seed in range(4):
        g = new_game(rules(), seed)
        pick = RandomPlayer(seed)
        while not g.over:
            assert isinstance(g.decision.kind, DecisionKind), g.decision.kind
            seen.add(g.decision.kind)
            g.step(pick.choose(g.observe(g.decision.side)))
    assert len(seen) >= 20


def test_the_players_groupings_come_from_the_kinds():
    assert {k for k in DecisionKind if k.starts_action} == bots.BOUNDARY
    groups = [bots.INFLUENCE, bots.MILITARY, bots.RULED, bots.DEEP]
    for i, a in enumerate(groups):
        for b in groups[i + 1:]:
            assert not a & b
    assert {k.concern for k in DecisionKind} == set(Concern)
    assert {k.option for k in DecisionKind} == set(Option)
    assert DecisionKind.KEEP in bots.BOUNDARY & bots.RULED  # 9.6: its own step, a rule of thumb


def _names(path: Path) -> tuple[set[str], set[str]]:
    """Attribute names a module reads, and the names it defines itself."""
    used, own = set(), set()
    for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(n, ast.Attribute):
            used.add(n.attr)
            if isinstance(n.ctx, ast.Store):
                own.add(n.attr)
        elif isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            own.add(n.name)
    return used, own


def test_no_player_reads_an_engine_internal():
    """The players read the information state, the decision's public fields and the game's
    public methods, never a private name (``ev._control``) or the machinery (``pending``)."""
    used, own = set(), set()
    for path in BOTS:
        u, o = _names(path)
        used |= u
        own |= o
    private = {n for n in used if n.startswith("_") and not n.startswith("__")} - own
    assert not private
    assert not used & INTERNAL


def test_players_and_search_import_no_cycle():
    """The registry (engine/match.py) imports the players; no player imports it back, and the
    players don't import the search."""
    for path, banned in ((BOTS[0], {"search", "match"}), (BOTS[1], {"match"})):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not {m.rsplit(".", 1)[-1] for m in imported} & banned, path.name


def test_every_option_has_its_kinds_shape():
    """Each kind declares what its options are (a card play is (card, use), 5.1; a payment is
    cubes per currency, 6.12; …); every option random games are offered has that shape."""
    r = rules()
    offered = set()
    for seed in range(4):
        g = new_game(r, seed)
        pick = RandomPlayer(seed)
        while not g.over:
            d = g.decision
            for opt in d.options:
                assert fits(d.kind.option, opt, r), (d.kind, opt)
            offered.add(d.kind.option)
            g.step(pick.choose(g.observe(d.side)))
    assert len(offered) >= 12
    assert not fits(DecisionKind.PLAY.option, ("louis-iv", "vote"), r)
    assert not fits(DecisionKind.PAYMENT.option, (1, 0, 0), r)


def _params(node: ast.expr) -> bool:
    """Whether an expression names an effect's parameters (``eff.params``, ``p``)."""
    text = ast.unparse(node)
    return text == "p" or text.endswith(".params")


def test_schema_defaults_are_filled_at_load_and_read_from_there():
    """Every card effect the engine resolves carries each parameter the rule schema gives a
    default (``who: you``, ``where: any``, …), so the resolvers don't state the defaults
    again."""
    r = rules()
    defaults = r.defaults
    for info in r.cards.values():
        for eff in walk((*info.deed, *info.boost, *info.counter, *info.acquire, *info.passive,
                         *info.event)):
            assert defaults.get(eff.op, {}).keys() <= eff.params.keys(), (info.id, eff.op)
    named = {name for params in defaults.values() for name in params}
    tree = ast.parse((ROOT / "cardgen/engine/ops.py").read_text(encoding="utf-8"))
    again = [ast.unparse(n) for n in ast.walk(tree)
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == "get" and n.args and isinstance(n.args[0], ast.Constant)
             and n.args[0].value in named and _params(n.func.value)]
    assert not again
