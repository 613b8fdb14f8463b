"""Speed: the answers the rules and the bot keep from one decision to the next
(common.Board, common.PlaceMemo, Board.of_side, the bot's _Position) equal the same answers
worked out afresh, at every decision of whole games (both scenarios). Each test names the
section whose answers it checks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.core.board.hexgrid import distance
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import make_agent
from tabletop.games.iwo_bonins import GAME, bots
from tabletop.games.iwo_bonins import combat as K
from tabletop.games.iwo_bonins import common as c
from tabletop.games.iwo_bonins import movement as mv

GAMES = [("solitaire", "heuristic", 3), ("two_player", "heuristic", 2), ("solitaire", "random", 5)]


def _decisions(scenario: str, bot: str, seed: int) -> Iterator[Match]:
    """A whole game, the match handed out before each decision is answered."""
    m = Match(GAME, scenario=scenario, seed=seed)
    agents = {s: make_agent(GAME, s, bot, seed) for s in GAME.info.players}
    while m.pending is not None:
        yield m
        d = m.pending
        m.decide(agents[d.player].choose(m.view(d.player), d))


@pytest.mark.parametrize(("scenario", "bot", "seed"), GAMES)
def test_board_answers_equal_fresh_ones(scenario: str, bot: str, seed: int) -> None:
    """6.3, 7.0, 14.2: a side's units on the map, the hexes it holds, the units in each hex
    and the units a dug-in defender may be, as kept across revisions (by the side's stamps,
    worked out from the revision clock's journal, and the places' stamps), equal those
    worked out from the pieces at every decision; a side's stamp moves whenever one of its
    pieces' fields does."""
    stamps: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {}
    for m in _decisions(scenario, bot, seed):
        pieces, board = m.state.pieces, c.board(m)
        for side in c.SIDES:
            mine = pieces.select(side=side)
            full = (len(mine), max(p.revision for p in mine))
            stamp = board.side_stamp(side)
            held = stamps.get(side)
            assert stamp[0] == full[0]
            assert held is None or full == held[0] or stamp != held[1]
            stamps[side] = (full, stamp)
            on_map = tuple(p for p in mine if c.components().map.is_hex_id(p.location))
            assert board.on_map(side) == on_map
            assert all(a is b for a, b in zip(board.on_map(side), on_map, strict=True))
            assert board.hex_ids(side) == frozenset(p.location for p in on_map)
        for place in pieces.occupied():
            stack = pieces.stack(place)
            for viewer in (None, *c.SIDES):
                assert board.at(place, viewer) == tuple(
                    p for p in stack if p.side in c.SIDES and (viewer is None or p.side == viewer))
        kinds = board.of_side(c.JAPAN, "14.2 unknown defenders", K._unknown_kinds)
        assert kinds == K._unknown_kinds(pieces)
        for p in board.on_map(c.JAPAN):
            assert K._defender_items(m, p) == K._kind_items(K.defender_kinds(m, p))


def _defenders_by_hex(m: Match) -> list[str]:
    """9.0's defenders worked out hex by hex (each US hex's attacking units)."""
    done = set(m.state.vars[c.V_ATTACKED])
    beach = c.landing_beach_hexes_of(m.state.vars.get(c.V_BEACHHEAD))
    attackers = set(m.state.vars[c.V_ATTACKERS])
    by_any: set[str] = set()
    by_tanks: set[str] = set()
    on_map = c.components().map.is_hex_id
    for hid in {p.location for p in m.state.pieces.select(side=c.US) if on_map(p.location)}:
        able = K._attacking(m, hid, beach, attackers, True)
        if able:
            (by_tanks if all(c.is_tank(p) for p in able) else by_any).update(
                c.components().map.neighbor_ids(hid))
    return [p.id for p in m.state.pieces.select(side=c.JAPAN) if c.components().map.is_hex_id(p.location)
            and p.id not in done and (p.location in by_any
                                      or (p.location in by_tanks and K.tanks_may_attack(p.location)))]


@pytest.mark.parametrize(("scenario", "bot", "seed"), GAMES)
def test_defenders_equal_those_found_hex_by_hex(scenario: str, bot: str, seed: int) -> None:
    """9.0, 12.3: the defenders found in one pass over the US units are those found from
    each US hex's attacking units, at every decision of the US combat phases."""
    checked = 0
    for m in _decisions(scenario, bot, seed):
        if m.pending is not None and m.pending.kind in ("attack_defender", "attack_add"):
            assert [p.id for p in K.defenders(m)] == _defenders_by_hex(m)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize(("scenario", "bot", "seed"), GAMES[:2])
def test_may_end_equals_may_stack(scenario: str, bot: str, seed: int) -> None:
    """6.3, 11.3, 12.1: whether a moving unit may end in a hex, kept per hex while its stack
    is unchanged, equals may_stack asked afresh, for every unit that may move and every
    occupied hex, at every US movement menu."""
    checked = 0
    m_hex = c.components().map
    for m in _decisions(scenario, bot, seed):
        if m.pending is None or m.pending.kind != "movement_menu":
            continue
        occupied = [h for h in m.state.pieces.occupied() if c.components().map.is_hex_id(h)]
        for p in mv.movable(m):
            can_end: Callable[..., bool] = mv._may_end(m, p)
            for hid in occupied:
                fresh = not m.state.pieces.count_at(hid) or c.may_stack(m, [p], hid)
                assert can_end(m_hex.hex(hid)) == fresh, (p.id, hid)
                checked += 1
    assert checked > 1000


def test_redeploy_distance_equals_the_hexes_near_the_japanese() -> None:
    """6.5: a hex is at least four hexes from every Japanese unit exactly when it is not
    within three hexes of one (the set the movement rules read), for every hex of the map
    at each US movement menu of a game."""
    m_hex = c.components().map
    seen: set[frozenset[str]] = set()
    for m in _decisions("solitaire", "heuristic", 6):
        japanese = c.board(m).hex_ids(c.JAPAN)
        if m.pending is None or m.pending.kind != "movement_menu" or japanese in seen:
            continue
        seen.add(japanese)
        enemy = c.hexes_of(m, c.JAPAN)
        near = mv._near(japanese)
        for h in m_hex.hexes():
            assert (h not in near) == mv._far_from_japanese(h, enemy)
    assert len(seen) > 10


def test_bot_position_equals_distances_worked_out_afresh() -> None:
    """19.2 (the US bot): the hexes next to a Japanese unit and each hex's distance to the
    nearest target (Suribachi's hexes counting nearer until it falls), read from each hex's
    distances to the whole map, equal those worked out with hexgrid.distance, for every hex
    of the map and the Japanese positions of a game, with and without the pull."""
    m_hex = c.components().map
    seen: set[frozenset[str]] = set()
    for m in _decisions("solitaire", "heuristic", 7):
        japanese = c.board(m).hex_ids(c.JAPAN)
        if japanese in seen or len(seen) > 12:
            continue
        seen.add(japanese)
        for bonus in (0, 4):
            pos = bots._Position(japanese, bonus)
            for h in m_hex.hexes():
                hid = m_hex.label(h)
                want = (min(distance(h, m_hex.hex(j)) - (bonus if c.in_suribachi_sector(j) else 0)
                            for j in japanese) if japanese else 0)
                assert pos.distance(hid) == float(want)
                assert (hid in pos.near) == any(n in japanese for n in m_hex.neighbor_ids(hid))
    assert len(seen) > 5


def test_place_memo_answers_only_for_an_unchanged_stack() -> None:
    """6.3 (the memo's invalidation): an answer kept for a place is given back while no
    piece enters, leaves or is reordered there, and not after."""
    m = Match(GAME, seed=1)
    m.decide("east")
    memo = c.place_memo(m, "a test question")
    place = c.AVAILABLE
    memo.put(place, ("answer",))
    assert memo.get(place) == ("answer",)
    unit = m.state.pieces.select(side=c.US, location=place)[0]
    m.state.pieces.move(unit.id, c.RESERVES)
    assert memo.get(place) is None
    memo.put(place, ("again",))
    assert memo.get(place) == ("again",)
    m.state.pieces.move(unit.id, place)
    assert memo.get(place) is None
    assert Counter(K._unknown_kinds(m.state.pieces)) == K._unknown_kinds(m.state.pieces)


@given(st.integers(0, 20), st.lists(st.integers(1, 6), max_size=2),
       st.sampled_from(("beach", "broken", "mountain", "hill")),
       st.lists(st.tuples(st.integers(1, 6), st.sampled_from((None, 2, 4)), st.integers(1, 5)),
                min_size=1, max_size=4, unique_by=lambda t: (t[0], t[1])),
       st.sampled_from(((0, 1), (1, 3), (5, 9))), st.booleans())
def test_option_odds_as_floats_are_the_exact_odds_rounded(
        attack: int, tanks: list[int], line: str, kinds: list[tuple[int, int | None, int]],
        suppress: tuple[int, int], suribachi: bool) -> None:
    """9.1, 12.3, 8.3b (an attack option's detail): the odds shown as floats are the
    floats of the exact odds, effect by effect, in the same order."""
    counts = Counter({K.DefenderKind(d, a): n for d, a, n in kinds})
    items = K._kind_items(counts)
    exact = K.outcome_odds(attack, tanks, line, counts, suppress=Fraction(*suppress),
                           suribachi=suribachi)
    _, shown = K._facts(attack, tuple(tanks), line, items, suppress, suribachi)
    assert shown == tuple((k, float(p)) for k, p in exact.items())
