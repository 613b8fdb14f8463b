"""Manila '45 heuristic bots: a legal set-up that holds the north-west (3.2, 6.3, 4.3), the US
force spread over the Japanese positions, Japanese units slipping away from the US from
turn 3 (4.2) and never into a hex next to a US unit (9.1), the US moving by sea (8.10), the
Japanese raiding lone artillery (9.3, 10.1)."""

from __future__ import annotations

from tabletop.core.engine.decisions import DONE
from tabletop.core.engine.match import Match
from tabletop.games.manila45 import GAME
from tabletop.games.manila45 import common as c
from tabletop.games.manila45.ai import priorities
from tabletop.games.manila45.bots import HeuristicAgent, _crossings, _path_field, heuristic_setup
from tabletop.games.manila45.components import components
from tabletop.games.manila45.movement import movement_phase
from tabletop.games.manila45.setup import check_setup_mapping

from .conftest import position


def test_3_2_4_3_bot_setup_is_legal_holds_the_north_west_and_sets_outposts() -> None:
    """3.2, 6.3: the bot's set-up passes the set-up checks; 4.3 it holds the north-west; its
    outposts stand alone, far from Intramuros, as many and as far as data/ai.yaml says."""
    plan = priorities(GAME).setup
    for seed in range(4):
        m = Match(GAME, seed=seed)
        setup = dict(heuristic_setup(m, seed))
        check_setup_mapping(m, setup)
        assert any(c.is_north_west(h) for h in setup.values())
        count: dict[str, int] = {}
        for h in setup.values():
            count[h] = count.get(h, 0) + 1
        distance = components().hexmap.id_distance
        alone_far = [h for h, n in count.items() if n == 1 and distance(h, "3822") >= plan.outpost_away]
        assert len(alone_far) >= plan.outposts


def _us_target(crowd: dict[str, str]) -> str:
    m = position({"j-cf-1": "2730", "j-cf-2": "2724"}, {"i-1-129": "2728", **crowd})
    view = m.view("US")
    bot = HeuristicAgent("US", 0)
    return bot._target_for(view, "i-1-129", "2728", ["2724", "2730"], _crossings(view))


def test_4_2_us_bot_spreads_over_the_japanese_positions() -> None:
    """4.2 needs every Japanese unit gone: a US unit heads for the nearest Japanese hex, unless
    more than enough of its own units already stand around it."""
    assert _us_target({"c-1-5": "2830", "c-2-5": "2830"}) == "2730"
    crowded = {"c-1-5": "2830", "c-2-5": "2830", "c-1-7": "2631", "c-2-7": "2631"}
    assert _us_target(crowded) == "2724"


def test_4_3_9_1_japanese_bot_slips_away_from_turn_3() -> None:
    """4.3: before turn 3 the Japanese bot keeps still; from turn 3 a mobile unit with US units
    three hexes off moves away from them, never into a hex next to one (9.1)."""
    for turn, moves in ((2, False), (4, True)):
        m = position({"j-cf-1": "2724", "j-s-120a": "2723"}, {"c-1-5": "2727"}, turn=turn)
        bot = HeuristicAgent("Japan", 0)
        gen = movement_phase(m, "Japan")
        d = next(gen)
        pick = bot.choose(m.view("Japan"), d)
        assert (pick == "j-cf-1") is moves
        if not moves:
            assert pick == DONE
            continue
        d = gen.send(pick)
        while d.kind == "move_step":
            step = bot.choose(m.view("Japan"), d)
            if step == DONE:
                break
            distance = components().hexmap.id_distance
            assert distance(str(step), "2727") > 1
            assert distance(str(step), "2727") >= distance(P_loc(m), "2727")
            d = gen.send(step)
        assert components().hexmap.id_distance(P_loc(m), "2727") > 3


def P_loc(m: Match) -> str:
    return m.state.pieces["j-cf-1"].location


def _us_alone(m: Match, keep: set[str]) -> None:
    """The US units not named moved to the dead pile (no late entry, 3.4)."""
    for p in list(m.state.pieces):
        if p.side == "US" and p.id not in keep and not c.has(p, "air"):
            m.state.pieces.move(p.id, c.US_DEAD)


def test_8_10_us_bot_carries_a_far_unit_by_sea() -> None:
    """8.10: a unit stacked with the 672nd on a coastal hex, far by land from the only
    Japanese unit, is carried by sea to the coastal hex nearest it, and moves on from there;
    with the Japanese unit near by land, no coastal move."""
    for japanese, by_sea in (("3407", True), ("4027", False)):
        m = position({"j-nf-n": japanese}, {"x-672": "4230", "i-1-129": "4230"})
        _us_alone(m, {"x-672", "i-1-129"})
        bot = HeuristicAgent("US", 0)
        gen = movement_phase(m, "US")
        d = next(gen)
        assert d.kind == "select_mover"
        pick = bot.choose(m.view("US"), d)
        assert (pick == {"coastal": "x-672"}) is by_sea
        if not by_sea:
            continue
        d = gen.send(pick)
        assert d.kind == "coastal_rider"
        d = gen.send(bot.choose(m.view("US"), d))
        assert d.kind == "coastal_landing"
        landing = bot.choose(m.view("US"), d)
        field = _path_field((japanese,), _crossings(m.view("US")))
        gain = priorities(GAME).coastal.gain
        assert field[str(landing)] + gain <= field["4230"]
        d = gen.send(landing)
        assert m.state.pieces["i-1-129"].location == landing == m.state.pieces["x-672"].location


def test_9_3_10_17_japanese_bot_raids_lone_field_artillery_from_cover() -> None:
    """9.3, 10.1: from turn 3 a Japanese mobile unit moves next to a US stack of field
    artillery alone (which never fires defensively), into cover, by hexes no US defensive
    fire covers; with a US infantry unit covering those hexes it does not go."""
    prio = priorities(GAME)
    for us, raids in (({"c-99fa": "2912"}, True), ({"c-99fa": "2912", "c-1-5": "3112"}, False)):
        m = position({"j-nf-n": "3215", "j-s-120a": "3624"}, us, turn=4)
        _us_alone(m, set(us))
        bot = HeuristicAgent("Japan", 0)
        bot.prio = prio.model_copy(update={"raid": prio.raid.model_copy(update={"keep": 0})})
        gen = movement_phase(m, "Japan")
        d = next(gen)
        pick = bot.choose(m.view("Japan"), d)
        assert ("j-nf-n" in bot._raids and pick == "j-nf-n") is raids
        if not raids:
            assert not bot._raids
            continue
        d = gen.send(pick)
        while d.kind == "move_step":
            step = bot.choose(m.view("Japan"), d)
            if step == DONE:
                break
            assert components().hexmap.id_distance(str(step), "2912") >= 1
            d = gen.send(step)
            assert d.kind != "defensive_fire"
        here = m.state.pieces["j-nf-n"].location
        assert components().hexmap.id_distance(here, "2912") == 1
        assert c.terrain(here) in ("urban", "heavy")


def test_7_2_7_3_us_bot_takes_its_replacements_near_the_japanese() -> None:
    """7.2: the US bot takes a replacement whenever one is offered, 7.3 atop the unit of its
    organisation nearest the Japanese."""
    from tabletop.games.manila45.replacements import reinforcement_phase

    m = position({"j-nf-n": "3407"}, {"i-1-129": "3210", "i-2-129": "4230"})
    _us_alone(m, {"i-1-129", "i-2-129"})
    bot = HeuristicAgent("US", 0)
    gen = reinforcement_phase(m)
    d = next(gen)
    assert d.kind == "replacement_unit"
    pick = bot.choose(m.view("US"), d)
    assert pick != "none" and components().counters[str(pick)].org == "37id"
    d = gen.send(pick)
    assert d.kind == "replacement_hex"
    assert bot.choose(m.view("US"), d) == "3210"


def test_10_17_japanese_bot_advances_only_into_better_cover() -> None:
    """10.17: the Japanese bot declares close assault; after an E it advances from clear
    terrain into an emptied urban hex, never from an urban hex into clear terrain."""
    from tabletop.core.engine.decisions import Option, choose

    bot = HeuristicAgent("Japan", 0)
    for here, target, goes in (("2912", "3012", True), ("3012", "2912", False)):
        m = position({"j-nf-n": here}, {"c-99fa": "2812"}, turn=4)
        _us_alone(m, {"c-99fa"})
        name = m.state.pieces["j-nf-n"].name
        d = choose("Japan", f"10.17: advance {name} into {target}?", "10.17",
                   [Option(True, "advance"), Option(False, "stay")], kind="advance")
        assert bot.choose(m.view("Japan"), d) is goes
        assault = choose("Japan", f"10.17: close assault {target}?", "10.17",
                         [Option(True, "close assault"), Option(False, "no close assault")],
                         kind="close_assault")
        assert bot.choose(m.view("Japan"), assault) is True


def test_10_2_bots_play_on_from_a_position_with_pieces_out_of_play() -> None:
    """10.2, 10.4: a position that clears the map puts the other pieces out of play (the
    neutral off-board place); the heuristic bots choose firers and targets among the pieces
    on the map only, and play the fire phase through."""
    from tabletop.core.designer.testing import start

    m = start(GAME, start="us_fire", turn=3, clear=["US", "Japan"],
              pieces={"i-1-129": {"at": "2320"}, "j-nf-1p": {"at": "1917"},
                      "j-nf-2p": {"at": "2321", "status": {"revealed": True}}})
    bots = {side: HeuristicAgent(side, 0) for side in ("US", "Japan")}
    for _ in range(40):
        d = m.pending
        if d is None or d.section not in ("10.2", "10.4", "10.17"):
            break
        m.decide(bots[d.player].choose(m.view(d.player), d))
    assert m.pending is None or m.pending.section not in ("10.2", "10.4", "10.17"), \
        "the US fire phase did not end"
