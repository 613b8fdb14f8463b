"""Properties of the Japanese phases (5.1.5, 5.1.6) over many random positions.

Each check names the rule it guards: 6.3a no Japanese stacking, 14.5/15.3 units only on
deployment hexes, 14.2 dug in off Suribachi, 17.0 nobody redeploys to Suribachi, 14.1 every
Japanese unit in exactly one of map, container, track.
"""

from __future__ import annotations

import random

from tabletop.core.engine.match import Match
from tabletop.games.iwo_bonins import GAME
from tabletop.games.iwo_bonins import common as c
from tabletop.games.iwo_bonins.japanese_bombardment import japanese_combat_phase
from tabletop.games.iwo_bonins.japanese_operations import japanese_movement_phase, redeploy

from .test_japanese_units import Build, jp_match

__all__ = ["jp_match"]


def drive_first(m: Match, gen: object) -> None:
    """Run a procedure, answering any (US) decision with its first option."""
    from collections.abc import Generator

    assert isinstance(gen, Generator)
    try:
        d = next(gen)
        while True:
            assert d.player == c.US, f"the solitaire Japanese side asked {d.prompt}"
            d = gen.send(d.values[0])
    except StopIteration:
        pass


def random_position(m: Match, rng: random.Random) -> None:
    """US units on random empty land hexes, some Japanese units in the container, some
    sectors cleared, Suribachi fallen or not."""
    comp = c.components()
    free = [h for h in comp.hex_attrs if not c.units_at(m, h)]
    rng.shuffle(free)
    for unit, hex_id in zip([p for p in c.units(m, c.US, on_map=False)][:rng.randint(3, 20)],
                            free, strict=False):
        m.state.pieces.move(unit.id, hex_id)
    japanese = c.units(m, c.JAPAN)
    for p in rng.sample(japanese, rng.randint(0, 12)):
        c.eliminate_jp(m, p, "test")
    m.state.vars[c.V_SURIBACHI] = rng.random() < 0.5
    m.state.vars[c.V_CLEARED] = sorted(rng.sample(range(1, 7), rng.randint(0, 5)))
    m.state.vars[c.V_WEATHER] = rng.choice(["Clear", "Storm"])


def check(m: Match, suribachi_before: set[str]) -> None:
    comp = c.components()
    assert GAME.invariants(m) == []
    japanese = [p for p in m.state.pieces if p.side == c.JAPAN]
    assert len(japanese) == 48
    for p in japanese:
        if c.components().map.is_hex_id(p.location):
            assert comp.hex_attrs[p.location].deploy is not None, f"14.5: {p.id} on {p.location}"
            if c.in_suribachi_sector(p.location):
                assert p.id in suribachi_before, f"17.0: {p.id} redeployed to Suribachi"
            else:
                assert c.is_dug_in(p), f"14.2: {p.id} face up on {p.location}"
        else:
            assert p.location == c.CONTAINER or p.location.startswith("jp_bombardment_")


def test_japanese_phases_keep_the_invariants(jp_match: Build) -> None:
    """5.1.5, 5.1.6, 6.3a, 14.1, 14.2, 14.5, 17.0 over 30 random positions and dice."""
    for seed in range(30):
        rng = random.Random(seed)
        m = jp_match(None, empty=False, seed=seed)
        random_position(m, rng)
        before = {p.id for p in c.units(m, c.JAPAN) if c.in_suribachi_sector(p.location)}
        drive_first(m, japanese_movement_phase(m))
        check(m, before)
        drive_first(m, japanese_combat_phase(m))
        check(m, before)


def test_redeploy_keeps_the_invariants(jp_match: Build) -> None:
    """15.3, 15.4, 17.0: any unit redeploying, in place or not, keeps the invariants."""
    for seed in range(30):
        rng = random.Random(seed)
        m = jp_match(None, empty=False, seed=seed)
        random_position(m, rng)
        before = {p.id for p in c.units(m, c.JAPAN) if c.in_suribachi_sector(p.location)}
        for p in rng.sample(c.units(m, c.JAPAN), 5):
            if c.components().map.is_hex_id(p.location):
                drive_first(m, redeploy(m, p, in_place=rng.random() < 0.5, section="test"))
                check(m, before)


def test_solitaire_japan_never_decides_and_cites_rules(jp_match: Build) -> None:
    """1.0, 13.0-17.0: in the solitaire game the Japanese side never gets a Decision, and
    every event of the Japanese phases carries the rule section that caused it."""
    from tabletop.core.designer.testing import play_random_game

    allowed = ("5.1", "9.", "13.", "14.", "15.", "16.", "17.")
    for seed in (0, 1):
        m = play_random_game(GAME, seed, scenario="solitaire", max_decisions=20000, check_every=100)
        assert m.finished
        assert all(e.data.get("player") != c.JAPAN for e in m.log.of_kind("decision"))
        jp = [e for e in m.log if e.phase in ("jp_move", "jp_combat")
              and e.kind not in ("phase", "roll", "shuffle", "decision")]
        assert jp, "the Japanese phases did something"
        for e in jp:
            assert e.section.startswith(allowed), f"{e.kind} {e.section}: {e.text}"


def test_two_player_game_with_the_japanese_bot(jp_match: Build) -> None:
    """18.0: a whole two-player game, the Japanese bot against the random US, ends; every
    Japanese decision cites an 18.x section."""
    from tabletop.core.engine.agents import RandomAgent
    from tabletop.games.iwo_bonins.bots_japan import JapaneseBot

    m = Match(GAME, scenario="two_player", seed=4)
    m.run({c.US: RandomAgent(c.US, 4), c.JAPAN: JapaneseBot(c.JAPAN, 4)}, max_decisions=20000)
    assert m.finished
    sections = {e.section for e in m.log.of_kind("decision") if e.data.get("player") == c.JAPAN}
    assert sections and all(s.startswith("18.") for s in sections)
    assert GAME.invariants(m) == []
