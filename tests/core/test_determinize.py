"""Determinization: a fork in which what one side cannot see is drawn again, and only that.

A determinization for a side shows that side exactly what the match shows it; the pieces
hidden from it are dealt again among their hidden counters, the cards of the piles secret
from it among those piles, the dice seeded anew; it depends on what the side sees alone
(two truths the side sees alike give the same determinization); it keeps the games'
invariants; and it is the only way from a view to a match.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tabletop.core.engine.determinize import determinize, determinize_view, hidden_slots
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Game, Match
from tabletop.core.engine.registry import load_game, make_agent
from tabletop.core.engine.views import View

SKIRMISH = str(Path(__file__).resolve().parents[2] / "docs" / "example" / "skirmish")
PIG = "tests.core.piggame:GAME"


def played(game: Game, seed: int, decisions: int) -> Match:
    """A match of ``game`` played ``decisions`` decisions by its default bots."""
    match = Match(game, seed=seed)
    bots = {side: make_agent(game, side, game.default_bot(side), seed) for side in game.info.players}
    while match.pending is not None and len(match.decisions) < decisions:
        decision = match.pending
        match.decide(bots[decision.player].choose(match.view(decision.player), decision))
    return match


def shown(match: Match, side: str) -> dict[str, object]:
    """What ``side`` sees of the match, bar the pending decision's place in the record."""
    view = match.view(side)
    assert isinstance(view, View)
    return dict(view.to_json())


def test_a_determinization_shows_its_side_what_the_match_shows() -> None:
    """Every piece, stack, pile, track and variable the side sees, and its decision, are the
    match's; the state behind them is not (the hidden pieces are dealt again)."""
    game = load_game(SKIRMISH)
    match = played(game, 1, 10)
    assert hidden_slots(match, "Blue")  # Red's units are hidden from Blue
    for seed in range(5):
        twin = game.determinize(match, "Blue", random.Random(seed))
        assert shown(twin, "Blue") == shown(match, "Blue")
        assert twin.pending == match.pending
    differs = [game.determinize(match, "Blue", random.Random(s)).state.to_json() != match.state.to_json()
               for s in range(5)]
    assert any(differs)


def test_hidden_pieces_are_dealt_again_among_their_counters() -> None:
    """Each of Red's hidden units stands, across determinizations for Blue, on more than one of
    Red's hidden counters, and only on them; Blue's own pieces never move."""
    game = load_game(SKIRMISH)
    match = played(game, 2, 6)
    slots = hidden_slots(match, "Blue")["Red"]
    counters = {(place, n) for place, n, _ in slots}
    seen: dict[str, set[tuple[str, int]]] = {}
    blue = {p.id: p.location for p in match.state.pieces.select(side="Blue")}
    for seed in range(20):
        twin = determinize(match, "Blue", random.Random(seed))
        for place, n, pid in hidden_slots(twin, "Blue")["Red"]:
            seen.setdefault(pid, set()).add((place, n))
        assert {p.id: p.location for p in twin.state.pieces.select(side="Blue")} == blue
        assert game.invariants(twin) == []
    assert set(seen) == {pid for _, _, pid in slots}
    assert all(places <= counters for places in seen.values())
    assert any(len(places) > 1 for places in seen.values())


def test_secret_cards_are_dealt_again_and_the_side_keeps_its_own_hand() -> None:
    """In Pig each player holds one card, the rest is the draw pile: a determinization for A
    keeps A's hand and deals B's hand and the draw pile again, sizes kept."""
    game = load_game(PIG)
    match = played(game, 3, 2)
    deck = match.state.decks["cards"]
    sizes = {name: len(cards) for name, cards in deck.piles.items()}
    hands_of_b = set()
    for seed in range(20):
        twin = determinize(match, "A", random.Random(seed))
        piles = twin.state.decks["cards"].piles
        assert piles["hand:A"] == deck.piles["hand:A"]
        assert {name: len(cards) for name, cards in piles.items()} == sizes
        assert sorted(piles["draw"] + piles["hand:B"]) == sorted(deck.piles["draw"] + deck.piles["hand:B"])
        hands_of_b.add(tuple(piles["hand:B"]))
    assert len(hands_of_b) > 1


def test_two_truths_a_side_sees_alike_give_the_same_determinization() -> None:
    """The draw is made from what the side sees: a second truth (the hidden pieces and cards
    dealt otherwise) gives, from the same generator, the very same state."""
    for name, side, decisions in ((SKIRMISH, "Blue", 12), (PIG, "A", 3)):
        game = load_game(name)
        match = played(game, 4, decisions)
        truths = (game.determinize(match, side, random.Random(f"truth {k}")) for k in range(20))
        other = next(t for t in truths if t.state.to_json() != match.state.to_json())
        assert shown(other, side) == shown(match, side)
        for seed in range(3):
            a = game.determinize(match, side, random.Random(seed))
            b = game.determinize(other, side, random.Random(seed))
            assert a.state_hash() == b.state_hash(), name


def test_the_dice_to_come_are_drawn_again() -> None:
    """A determinization does not roll the match's next dice: the same answers give other
    rolls in some determinizations, and the same rolls from the same generator."""
    game = load_game(PIG)
    match = played(game, 5, 1)
    truth = match.fork()
    truth.decide("roll")
    faces = set()
    for seed in range(8):
        twin = determinize(match, "A", random.Random(seed))
        twin.decide("roll")
        faces.add(twin.state_hash())
        again = determinize(match, "A", random.Random(seed))
        again.decide("roll")
        assert again.state_hash() == twin.state_hash()
    assert len(faces) > 1


def test_the_games_invariants_hold_in_their_determinizations() -> None:
    """The default keeps what the games that rely on it check (hidden units of a side trade
    places freely under their rules) for every side, half-way into a game."""
    for name, decisions in ((SKIRMISH, 30), ("iwo_bonins", 200), ("iwo_valor", 200), ("iwo_1945", 150)):
        game = load_game(name)
        match = played(game, 3, decisions)
        for side in game.info.players:
            for seed in range(2):
                twin = game.determinize(match, side, random.Random(seed))
                assert game.invariants(twin) == [], (name, side)
                assert shown(twin, side) == shown(match, side), (name, side)


def test_alike_keys_keep_pieces_among_their_own_kind() -> None:
    """A game whose hidden pieces cannot all trade places gives each a key: a piece is dealt
    only among the hidden counters of pieces with its key."""
    game = load_game(SKIRMISH)
    match = played(game, 6, 6)
    slots = hidden_slots(match, "Blue")["Red"]
    assert len(slots) >= 2
    where = {pid: (place, n) for place, n, pid in slots}
    keep = slots[0][2]  # one piece in a class of its own stays where it is
    for seed in range(10):
        twin = determinize(match, "Blue", random.Random(seed), alike=lambda p: p.id == keep)
        moved = {pid: (place, n) for place, n, pid in hidden_slots(twin, "Blue")["Red"]}
        assert moved[keep] == where[keep]


def test_only_an_engine_view_of_a_side_leads_to_a_determinization() -> None:
    """A view copied out as JSON, the game master's view and a view of a match that moved on
    are refused with one clear message; a side's current view gives a determinization."""
    game = load_game(PIG)
    match = played(game, 7, 1)
    rng = random.Random(0)
    view = match.view("A")
    assert isinstance(view, View)
    with pytest.raises(TabletopError, match="same process"):
        determinize_view(view.to_json(), rng)
    with pytest.raises(TabletopError, match="game master"):
        determinize_view(match.view(None), rng)
    twin = determinize_view(view, rng)
    assert twin is not match and shown(twin, "A") == shown(match, "A")
    match.decide("hold")
    with pytest.raises(TabletopError, match="out of date"):
        determinize_view(view, rng)
    with pytest.raises(TabletopError, match="no side"):
        determinize(match, "C", rng)


def test_a_determinization_keeps_no_snapshot_of_the_match_it_came_from() -> None:
    """A snapshot holds the whole state, hidden truth included: a determinization keeps none
    of the match's (it could be rewound to the truth), only those it takes of itself."""
    game = load_game(str(Path(__file__).resolve().parents[2] / "benchmarks" / "tictactoe"))
    match = played(game, 8, 4)
    assert any(s.at < 4 for s in match._snapshots)
    twin = game.determinize(match, "x", random.Random(1))
    assert all(s.at >= 4 for s in twin._snapshots)
    twin.run({side: make_agent(game, side, "random", 1) for side in game.info.players})
    assert twin.finished and all(s.at >= 4 for s in twin._snapshots)
