"""What a side may see (issue 42): a side's guessed copy of the table resamples exactly what
it can't see and keeps what it has seen."""

from __future__ import annotations

import random
from collections import Counter

from cardgen.engine import Game, new_game
from cardgen.engine.players import GreedyPlayer, RandomPlayer
from cardgen.engine.rules import LUX
from cardgen.engine.search import SearchPlayer
from tests.engine_helpers import blank, drive, hidden_reshuffled, rules, start_play


def _guess(g: Game, side: int, rng: random.Random) -> Game:
    return g.observe(side).sample(rng)


def _deck_of(g: Game, left: int) -> None:
    """The market deck down to its bottom ``left`` cards, the others revealed and gone."""
    g.removed.extend(g.market[left:])
    del g.market[left:]


def test_the_guessed_market_deck_does_not_know_its_top_card():
    """3.43, 3.45: of the last 7 market cards the side knows only that Crécy lies among the
    bottom 6; the guessed top card is any of the other 6 (about 1 in 6), not the real one."""
    hits = tries = 0
    for seed in range(6):
        g = new_game(rules(), seed)
        _deck_of(g, 7)
        assert rules().crecy in g.market[:6]
        rng = random.Random(seed)
        for _ in range(50):
            c = _guess(g, g.decision.side, rng)
            assert rules().crecy in c.market[:6]
            hits += c.market[-1] == g.market[-1]
            tries += 1
    assert 0.08 < hits / tries < 0.28, (hits, tries)


def _chronicle() -> Game:
    """Luxembourg plays Peter of Zittau's Royal Chronicle (6.5) on a full market deck."""
    g = blank()
    r = rules()
    g.market = [c for c in r.market if not r.cards[c].is_event][:20]
    g.wallet[LUX] = [4, 4, 4, 4]
    start_play(g, LUX, ["peter-of-zittau"])
    drive(g, ("peter-of-zittau", "deed"))
    assert g.decision.kind == "chronicle_buy"
    return g


def test_royal_chronicle_keeps_the_seen_cards_on_top():
    """6.5, 6.53: the looker's copies keep the 3 cards it saw on top, and putting them back
    in any order leaves the market deck the same cards (none doubled, none lost)."""
    g = _chronicle()
    top = g.market[-3:]
    rng = random.Random(3)
    for _ in range(50):
        c = _guess(g, LUX, rng)
        assert c.market[-3:] == top
        c.step(None)
        assert c.decision.kind == "order_market"
        c.step(c.decision.options[-1])
        assert Counter(c.market) == Counter(g.market)


def _one_per_kind(games: int) -> dict[str, Game]:
    """A table at the first decision of each kind that random games reach."""
    found: dict[str, Game] = {}
    for seed in range(games):
        g = new_game(rules(), seed)
        pick = RandomPlayer(seed)
        while not g.over:
            d = g.decision
            found.setdefault(d.kind, g.clone())
            g.step(pick.choose(g.observe(d.side)))
    return found


def test_same_knowledge_same_choices_for_every_decision_kind():
    """Two tables a side can't tell apart (they differ only in hidden order: the opponent's
    hand and draw pile, the side's draw order, the market deck) have the same
    information-state key, and every player makes the same choices on them, seed by seed."""
    tables = _one_per_kind(6)
    assert len(tables) >= 28, sorted(tables)
    differ = 0
    for kind, g in sorted(tables.items()):
        side = g.decision.side
        h = hidden_reshuffled(g, side, 7)
        differ += (h.hand, h.draw, h.market) != (g.hand, g.draw, g.market)
        a, b = g.observe(side), h.observe(side)
        assert a.key() == b.key(), kind
        for player in (RandomPlayer, GreedyPlayer, SearchPlayer):
            for seed in (1, 2):
                assert player(seed).choose(g.observe(side)) == player(seed).choose(h.observe(side)), \
                    (kind, player.__name__, seed)
    assert differ >= len(tables) - 2
