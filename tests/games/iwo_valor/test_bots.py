"""The heuristic Marine bot's reading of the rules it plays by."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

import pytest

from tabletop.core.board.hexgrid import distance
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game, make_agent
from tabletop.core.engine.views import View
from tabletop.games.iwo_valor import common as c
from tabletop.games.iwo_valor.ai import priorities
from tabletop.games.iwo_valor.bots import HeuristicMarines, _Board, _Gaps

MAP = c.components().map  # the printed map, whose hexes the tests name by id

JP_HEX = "1025"


def _company(unit: str, hex_id: str) -> dict[str, Any]:
    _, battalion, regiment, division = unit.split("/")
    return {"id": unit, "location": hex_id, "side": c.US, "kind": "infantry", "face": "front",
            "attrs": {"regiment": regiment, "battalion": battalion, "division": division}}


def _view(fatigue: int) -> dict[str, Any]:
    """Three companies of 1/23 and two of 2/23 next to one Japanese unit."""
    around = MAP.passable_neighbor_ids(JP_HEX)
    units = ("A/1/23/4", "B/1/23/4", "C/1/23/4", "E/2/23/4", "F/2/23/4")
    pieces = [{"id": "jp", "location": JP_HEX, "side": c.JAPAN, "kind": "unit", "attrs": {}},
              *(_company(u, h) for u, h in zip(units, around, strict=False))]
    return {"pieces": pieces, "tracks": {"fatigue:23": fatigue}, "turn": 8, "vars": {}}


def test_IV_D_a_tired_regiment_keeps_only_its_lead_battalion_in_contact() -> None:
    """IV.D.1-2: two battalions of a regiment next to the enemy raise its Fatigue each turn;
    from the Fatigue of the ``surge`` priority (data/ai.yaml) on, the bot keeps only the
    battalion with most companies in contact there (each battalion used to count itself the
    one in contact, and both stayed)."""
    bot = HeuristicMarines()
    view = _view(priorities().surge)
    jp = bot._jp_hexes(view)
    assert bot._may_engage(view, jp, "A/1/23/4")
    assert bot._may_engage(view, jp, "C/1/23/4")
    assert not bot._may_engage(view, jp, "E/2/23/4")
    assert not bot._may_engage(view, jp, "F/2/23/4")


def test_IV_D_a_fresh_regiment_may_commit_a_second_battalion() -> None:
    """IV.D.1-3: below the ``surge`` Fatigue both battalions may stay in contact."""
    bot = HeuristicMarines()
    view = _view(priorities().surge - 1)
    jp = bot._jp_hexes(view)
    assert bot._may_engage(view, jp, "A/1/23/4") and bot._may_engage(view, jp, "E/2/23/4")


def test_IV_G_the_units_that_score_stay_open_to_companies() -> None:
    """IV.G.1-2: a unit in or south of the First Line scores every turn, one between the
    lines from turn 7 (the bot closes from turn 6); north of the Second Line it does not."""
    comp = c.components()
    by_belt = {belt: sorted(comp.hexes_where("belt", belt))[0] for belt in (1, 2, 3)}
    assert HeuristicMarines._scores(by_belt[1], 2)
    assert not HeuristicMarines._scores(by_belt[2], 5) and HeuristicMarines._scores(by_belt[2], 6)
    assert not HeuristicMarines._scores(by_belt[3], 14)


def _by_gap(targets: tuple[str, ...], hexes: list[str], key: Callable[[str], Any]) -> str | None:
    """The least of ``hexes`` by (hexes to the nearest target, key), by a scan of each."""
    return min(hexes, key=lambda h: (min(MAP.id_distance(h, j) for j in targets), key(h)), default=None)


def test_V_A_the_destination_search_by_gap_agrees_with_a_scan_of_every_hex() -> None:
    """V.A: the bot's destinations are read a gap to the open front at a time (``_Gaps``):
    the hex it finds is the least by (gap, key) of those passing the test, as a scan of
    every hex finds it, on every gap the search stops at or passes."""
    rng = random.Random(7)
    land = sorted(h for h in c.hex_index() if c.is_land(h))
    for _ in range(40):
        targets = tuple(rng.sample(land, rng.randint(1, 6)))
        pool = set(rng.sample(land, rng.randint(1, 80)))
        skip = frozenset(rng.sample(sorted(pool), len(pool) // 3))
        key = partial(_key_unless, skip)
        gaps = _Gaps(targets)
        gaps(rng.choice(land))  # a hex worked out before, outside the pool
        fits = [h for h in pool if h not in skip]
        assert gaps.least(pool, key, _even) == _by_gap(targets, [h for h in fits if _even(h)], key)
        assert gaps.least(pool, key) == _by_gap(targets, fits, key)


def test_V_A_a_gap_read_from_rings_of_hexes_is_the_hex_distance() -> None:
    """V.A: the bot's gap to the nearest Japanese unit is read from rings of neighbouring
    hexes grown around the units (``_Gaps``): on this map, a whole rectangle of hexes, it is
    the hex distance, for every pair of hexes, and for several units the least of theirs."""
    every = sorted(c.hex_index())
    at = {h: MAP.hex(h) for h in every}
    for source in every:
        gaps = _Gaps((source,))
        assert [gaps(h) for h in every] == [distance(at[source], at[h]) for h in every], source
    rng = random.Random(11)
    for _ in range(20):
        targets = tuple(rng.sample(every, rng.randint(2, 8)))
        gaps = _Gaps(targets)
        for h in rng.sample(every, 200):
            assert gaps(h) == min(MAP.id_distance(h, j) for j in targets)
    with pytest.raises(ValueError):
        _Gaps(())("0304")


def _key_unless(skip: frozenset[str], h: str) -> tuple[int, str] | None:
    """A key that tells every two hexes apart (None for those in ``skip``)."""
    return None if h in skip else (len(h) % 3, h)


def _even(h: str) -> bool:
    """A test some hexes pass."""
    return int(h[-1]) % 2 == 0


def _read_in_full(view: Mapping[str, Any]) -> _Board:
    """The board read from the view's ``pieces``, every place anew."""
    return _Board().read({"pieces": view["pieces"]})


def test_VII_A_the_board_read_place_by_place_agrees_with_a_full_read() -> None:
    """VII.A, IV.D, V: the pieces the bot's Supply, contact and movement tests read are
    re-read at each new board only where it changed (``View.board_changes``); they are
    those a full read of the view's pieces finds, decision after decision."""
    game = load_game("iwo_valor")
    bot = HeuristicMarines(c.US, 1)
    m = Match(game, scenario="campaign", seed=1)
    japanese = make_agent(game, c.JAPAN, game.default_bot(c.JAPAN), 1)
    read_in_part = 0
    for _ in range(600):
        d = m.pending
        assert d is not None
        view = m.view(d.player)
        assert isinstance(view, View), type(view)
        if d.player == c.US:
            since = bot._board.board.revision
            board = bot._read_board(view)
            read_in_part += since is not None and view.board_changes(since) is not None
            full = _read_in_full(view)
            assert (board.jp, board.jp_at, board.us, board.inf, board.held, board.heads) == \
                   (full.jp, full.jp_at, full.us, full.inf, full.held, full.heads)
            assert {k: dict(p) for k, p in board.by_id.items()} == \
                   {k: dict(p) for k, p in full.by_id.items()}
            assert list(map(dict, board.pieces_on_map())) == list(map(dict, full.pieces_on_map()))
            m.decide(bot.choose(view, d))
        else:
            m.decide(japanese.choose(view, d))
    assert read_in_part > 100
