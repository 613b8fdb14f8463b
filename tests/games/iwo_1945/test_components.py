"""The reconstructed components of Iwo Jima 1945 agree with every statement of the rulebook.

Each test's docstring names the rule (section of shared/rules/iwo_1945.txt) it checks; tests
marked "ours" check a reconstruction choice documented in docs/games/iwo_1945.md.
"""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import BaseModel

from tabletop.core.board.areamap import AreaMap
from tabletop.core.board.counters import ART_FILE, CounterArt
from tabletop.core.engine.ai import AI_FILE, AIFile
from tabletop.core.engine.data import validate
from tabletop.core.engine.errors import DataError
from tabletop.games.iwo_1945.components import (
    DATA_DIR,
    DATA_MODELS,
    AddAttackDice,
    Banzai,
    CancelJapanese,
    Components,
    ExtraActions,
    FieldsOfFire,
    FireAttack,
    ForbidActions,
    Infiltrate,
    MoveMarkers,
    PlaceBunker,
    RaiseCohesion,
    ReduceCohesion,
    Reroll,
    card_id_of,
    expand_deck,
    load_components,
    resolve_knob,
)

REGIMENTS = ["3/3", "3/9", "3/21", "4/23", "4/24", "4/25", "5/26", "5/27", "5/28"]
ATTACKS = (FireAttack, FieldsOfFire, Banzai)


@pytest.fixture(scope="module")
def comps() -> Components:
    return load_components()


def _xy(c: Components, area_id: str) -> tuple[float, float]:
    area = next(a for a in c.board.areas if a.id == area_id)
    return area.x, area.y


def _japanese_effects(c: Components) -> list[Any]:
    return [e for card in c.japanese_deck.cards for e in card.effects]


def _usmc_effects(c: Components) -> list[Any]:
    return [e for card in c.usmc_deck.cards for e in card.effects]


# ---------------------------------------------------------------------------- 2.0 board


def test_four_beaches(comps: Components) -> None:
    """2.0 On the island are 4 beach positions: Green, Yellow, Red, and Blue."""
    assert [comps.name(b) for b in comps.beaches()] == [
        "Green Beach", "Red Beach", "Yellow Beach", "Blue Beach"]


def test_three_slots_everywhere(comps: Components) -> None:
    """2.0 Each beach has 3 slots; only 3 markers may ever occupy an island or beach position."""
    assert all(p.slots == 3 for p in comps.positions.values())


def test_ten_numbered_island_positions(comps: Components) -> None:
    """2.0 There are ten island positions, each labeled with a circled number and a name."""
    islands = comps.island_positions()
    assert len(islands) == 10
    assert sorted(comps.positions[a].number or 0 for a in islands) == list(range(1, 11))
    assert all(comps.name(a) for a in islands)
    assert len({comps.name(a) for a in islands}) == 10


def test_positions_named_in_the_rulebook(comps: Components) -> None:
    """6.0, 10.0 #2 The Neck, #3 Field 1, #5 Turkey Knob, #6 Airfield 3; Mt. Suribachi (2.0)."""
    assert comps.name(comps.by_number(2)) == "The Neck"
    assert comps.name(comps.by_number(3)) == "Field 1"
    assert comps.name(comps.by_number(5)) == "Turkey Knob"
    assert comps.name(comps.by_number(6)) == "Airfield 3"
    assert "Mt. Suribachi" in [comps.name(a) for a in comps.island_positions()]


def test_four_mountains_suribachi_among_them(comps: Components) -> None:
    """2.0 Four of the island positions have mountain icons (Mt. Suribachi is a mountain, ours)."""
    mountains = comps.mountains()
    assert len(mountains) == 4
    assert "mt_suribachi" in mountains
    assert all(not comps.positions[m].beach for m in mountains)


def test_the_neck_is_not_a_mountain(comps: Components) -> None:
    """10.0 The 3/9 attacks #2 The Neck with five dice (6.0: mountains are attacked with four)."""
    assert not comps.positions["the_neck"].mountain


def test_only_usmc_on_beaches_and_beaches_have_no_priority_number(comps: Components) -> None:
    """2.0 Only USMC regiments may occupy beach positions; 6.0 beaches rank left to right."""
    for b in comps.beaches():
        p = comps.positions[b]
        assert p.beach and p.kind == "beach" and p.number is None and p.priority is None
        assert b not in comps.setup.japanese


def test_arrows_run_both_ways_and_join_the_whole_board(comps: Components) -> None:
    """2.0 Positions are adjacent when arrows connect them; movement follows them (ours: two-way)."""
    assert not any(c.directed for c in comps.board.connections)
    graph = AreaMap.from_spec(comps.board)
    for a in comps.positions:
        for b in comps.positions:
            assert graph.distance(a, b) is not None
        assert set(graph.neighbors(a)) == set(comps.neighbours(a))


def test_beaches_are_joined_only_to_island_positions(comps: Components) -> None:
    """Ours (2.0 is silent): no arrow joins two beaches; each beach reaches two island positions."""
    for b in comps.beaches():
        nbrs = comps.neighbours(b)
        assert len(nbrs) == 2
        assert all(not comps.positions[n].beach for n in nbrs)


def test_green_and_red_reach_the_neck(comps: Components) -> None:
    """10.0 The 3/3 in Green beach and the 3/9 in Red beach both attack #2 The Neck."""
    assert comps.is_adjacent("green_beach", "the_neck")
    assert comps.is_adjacent("red_beach", "the_neck")


def test_blue_reaches_turkey_knob_which_reaches_airfield_3(comps: Components) -> None:
    """6.0 Advance example: #5 Turkey Knob attacks #6 Airfield 3; Blue beach is adjacent to it."""
    assert comps.is_adjacent("turkey_knob", "airfield_3")
    assert comps.is_adjacent("blue_beach", "turkey_knob")


def test_blue_beach_has_a_second_neighbour(comps: Components) -> None:
    """6.0 Advance example: "If there had been a USMC regiment adjacent to Blue beach" needs one."""
    assert [n for n in comps.neighbours("blue_beach") if n != "turkey_knob"]


def test_every_beach_faces_japanese_fire_at_the_landing(comps: Components) -> None:
    """6.0 Special Landing Phase fires on beaches adjacent to Japanese positions; 10.0 all four."""
    for b in comps.beaches():
        assert any(comps.setup.japanese.get(n, 0) > 0 for n in comps.neighbours(b))


def test_attack_priorities_run_one_to_ten(comps: Components) -> None:
    """6.0 1 is the highest priority island position; 10 is the lowest."""
    prios = [comps.positions[a].priority for a in comps.island_positions()]
    assert prios == list(range(1, 11))


def test_priority_is_the_circled_number(comps: Components) -> None:
    """6.0 read with 2.0 (ours): the circled number is the attack priority."""
    for a in comps.island_positions():
        assert comps.positions[a].priority == comps.positions[a].number


def test_beach_priority_follows_adjacent_island_priority(comps: Components) -> None:
    """6.0 Beaches are prioritized Green, Red, Yellow, Blue, by the adjacent island position.

    "A USMC regiment in Green beach would take Japanese attack priority over a USMC regiment
    Yellow beach": the best adjacent island priority must rise strictly left to right.
    """
    best = [min(comps.positions[n].priority or 99 for n in comps.neighbours(b))
            for b in comps.beaches()]
    assert best == sorted(best) and len(set(best)) == 4
    assert comps.positions["green_beach"].beach_order == 1
    assert comps.positions["blue_beach"].beach_order == 4


def test_island_positions_are_worth_victory_points(comps: Components) -> None:
    """7.0 Marines 2 VP per USMC-controlled island position; Japanese 3 VP per one they control."""
    for a in comps.island_positions():
        assert comps.positions[a].vp_usmc == 2
        assert comps.positions[a].vp_japanese == 3
    for b in comps.beaches():
        assert comps.positions[b].vp_usmc is None


def test_cohesion_track_per_regiment_in_the_bottom_left(comps: Components) -> None:
    """2.0 Cohesion tracks in the bottom left: 3 divisions of 3 regiments, each 12 to 1."""
    boxes = {b.id for b in comps.board.boxes}
    for r in comps.pieces.usmc.regiments:
        assert r.track in boxes
        pos = next(b for b in comps.board.boxes if b.id == r.track)
        assert pos.x is not None and pos.y is not None and pos.x < 300 and pos.y > 650
    assert (comps.pieces.usmc.cohesion_track.top, comps.pieces.usmc.cohesion_track.bottom) == (12, 1)


def test_suribachi_emblem_above_the_tracks(comps: Components) -> None:
    """2.0 Mt. Suribachi: above the Cohesion tracks is a USMC emblem (one cube, one time)."""
    def at(box_id: str) -> tuple[float, float]:
        b = next(b for b in comps.board.boxes if b.id == box_id)
        assert b.x is not None and b.y is not None
        return b.x, b.y
    ex, ey = at("suribachi_emblem")
    tracks = [at(r.track) for r in comps.pieces.usmc.regiments]
    assert ey < min(y for _, y in tracks)
    assert min(x for x, _ in tracks) - 100 <= ex <= max(x for x, _ in tracks) + 100
    assert comps.pieces.cube("suribachi").count == 1


def test_three_rising_sun_squares_on_the_right(comps: Components) -> None:
    """2.0 On the right side of the board are 3 Japanese Rising Sun squares."""
    squares = [b for b in comps.board.boxes if b.id.startswith("rising_sun")]
    assert len(squares) == 3
    assert all(b.capacity == 1 for b in squares)
    assert all(b.x is not None and b.x > 900 for b in squares)


def test_draw_and_discard_spaces_on_the_board(comps: Components) -> None:
    """5.0 Japanese Draw space, Japanese discard pile, Marine Draw space, Marine Discard pile."""
    boxes = {b.id: b for b in comps.board.boxes}
    assert boxes["japanese_draw"].blind and boxes["marine_draw"].blind
    assert not boxes["japanese_discard"].blind and not boxes["marine_discard"].blind


# ---------------------------------------------------------------------- geography (ours)


def test_suribachi_bottom_left_plateau_top_right(comps: Components) -> None:
    """Ours (reference: Suribachi at the SW tip, plateau in the north): the drawing's shape."""
    islands = comps.island_positions()
    sx, sy = _xy(comps, "mt_suribachi")
    assert sx == min(_xy(comps, a)[0] for a in islands)
    assert sy == max(_xy(comps, a)[1] for a in islands)
    north = [a for a in islands if (comps.positions[a].priority or 0) >= 6]
    assert all(_xy(comps, a)[0] > 600 or _xy(comps, a)[1] < 400 for a in north)


def test_neck_and_airfields_run_south_west_to_north_east(comps: Components) -> None:
    """Ours (reference): Suribachi, the Neck, Airfield 1, 2, 3 lie in that order up the island."""
    chain = ["mt_suribachi", "the_neck", "field_1", "airfield_2", "airfield_3"]
    ys = [_xy(comps, a)[1] for a in chain]
    assert ys == sorted(ys, reverse=True)


def test_beaches_lie_left_to_right_on_the_south_east_coast(comps: Components) -> None:
    """6.0 beaches left to right; reference: Green to Blue from Suribachi north-east, SE coast."""
    xs = [_xy(comps, b)[0] for b in comps.beaches()]
    assert xs == sorted(xs)
    for b in comps.beaches():
        bx, by = _xy(comps, b)
        for n in comps.neighbours(b):
            nx_, ny = _xy(comps, n)
            assert by > ny or bx > nx_  # the beach lies seaward, below or right of its inland neighbour


def test_arrows_do_not_cross_on_the_drawing(comps: Components) -> None:
    """Ours: the board drawing is readable, no two arrows cross."""

    def ccw(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    segs = [(c.a, c.b) for c in comps.board.connections]
    for (a, b), (c, d) in itertools.combinations(segs, 2):
        if {a, b} & {c, d}:
            continue
        pa, pb, pc, pd = (_xy(comps, x) for x in (a, b, c, d))
        crosses = (ccw(pa, pb, pc) * ccw(pa, pb, pd) < 0) and (ccw(pc, pd, pa) * ccw(pc, pd, pb) < 0)
        assert not crosses, f"{a}-{b} crosses {c}-{d}"


def test_positions_do_not_overlap_on_the_drawing(comps: Components) -> None:
    """Ours: position boxes (drawn 160 wide, about 80 high with three markers) stay apart."""
    for a, b in itertools.combinations(comps.positions, 2):
        (ax, ay), (bx, by) = _xy(comps, a), _xy(comps, b)
        assert abs(ax - bx) >= 170 or abs(ay - by) >= 120, f"{a} overlaps {b}"


def test_every_data_file_has_a_model() -> None:
    """DESIGN 2: each file in data/ is validated by a model (``tabletop validate``): the
    game's own, or the core's counter art and AI file."""
    files = {p.name for p in DATA_DIR.iterdir() if p.suffix == ".yaml"}
    models: dict[str, type[BaseModel]] = {**DATA_MODELS, ART_FILE: CounterArt, AI_FILE: AIFile}
    assert files == set(models)
    for name, model in models.items():
        validate(model, yaml.safe_load((DATA_DIR / name).read_text(encoding="utf-8")),
                 source=name)


def test_summary_names_what_was_checked(comps: Components) -> None:
    """DESIGN 9: validation says what it checked."""
    assert "10 island positions" in comps.summary() and "36 USMC" in comps.summary()


# ------------------------------------------------------------------------- 3.0 pieces


def test_nine_regiments_three_per_division(comps: Components) -> None:
    """3.0 Nine USMC regiments, three each in the 3rd, 4th and 5th USMC divisions."""
    regs = comps.pieces.usmc.regiments
    assert [r.id for r in regs] == REGIMENTS
    for div in (3, 4, 5):
        assert sum(r.division == div for r in regs) == 3


def test_three_green_markers_per_regiment(comps: Components) -> None:
    """3.0 Each regiment is a set of 3 green wooden markers with a USMC label."""
    assert comps.pieces.usmc.markers_per_regiment == 3
    assert comps.pieces.usmc.color == "green"


def test_thirty_golden_japanese_markers(comps: Components) -> None:
    """3.0 / 5.0 Golden IJA markers, three in each of the ten island positions."""
    assert comps.pieces.japanese.color == "gold"
    assert comps.pieces.japanese.label == "IJA"
    assert comps.pieces.japanese.markers == 30


def test_cubes(comps: Components) -> None:
    """2.0-5.0 Three gold infiltration cubes, brown bunkers, red exhaustion and cohesion cubes."""
    assert (comps.pieces.cube("infiltration").count, comps.pieces.cube("infiltration").color) == (
        3, "gold")
    assert comps.pieces.cube("bunker").color == "brown"
    assert comps.pieces.cube("exhaustion").color == "red"
    assert comps.pieces.cube("cohesion").color == "red"
    assert comps.pieces.cube("cohesion").count == 9


def test_enough_bunkers_for_every_island_position(comps: Components) -> None:
    """3.0 No more than one bunker per position, placed in island positions (ours: never short)."""
    assert comps.pieces.cube("bunker").count >= len(comps.island_positions())


# -------------------------------------------------------------------------- 5.0 set-up


def test_three_japanese_markers_in_each_island_position(comps: Components) -> None:
    """5.0 Place 3 Japanese markers in each numbered island position."""
    assert comps.setup.japanese == {a: 3 for a in comps.island_positions()}


def test_landing_as_in_the_example(comps: Components) -> None:
    """10.0 3/3 Green, 3/9 Red, 3/21 Yellow, 4/23 Blue; 5.0 one regiment in each beach."""
    assert comps.setup.landing == {"green_beach": "3/3", "red_beach": "3/9",
                                   "yellow_beach": "3/21", "blue_beach": "4/23"}


def test_five_regiments_in_reserve(comps: Components) -> None:
    """5.0 The other 5 regiments are kept off board; 10.0 the 4/24 lands as a new wave."""
    assert len(comps.setup.reserves) == 5
    assert "4/24" in comps.setup.reserves
    assert sorted([*comps.setup.landing.values(), *comps.setup.reserves]) == sorted(REGIMENTS)


def test_cohesion_starts_at_twelve(comps: Components) -> None:
    """5.0 Place a cube in the #12 space of each track; 10.0 a new wave starts at 12 too."""
    assert comps.setup.cohesion_start == 12 == comps.pieces.usmc.cohesion_track.top


def test_infiltration_cubes_on_the_three_squares(comps: Components) -> None:
    """5.0 Place the three gold cubes in the three Japanese Infiltration squares."""
    assert comps.setup.infiltration == {"rising_sun_1": 1, "rising_sun_2": 1, "rising_sun_3": 1}


def test_deal_thirty_and_thirty_hand_of_three(comps: Components) -> None:
    """5.0 Deal 30 Japanese and 30 USMC cards; draw 3 as the starting hand."""
    d = comps.setup.decks
    assert (d.japanese_deal, d.usmc_deal, d.hand_size) == (30, 30, 3)


def test_difficulty_options(comps: Components) -> None:
    """8.0 Harder: 27 Japanese cards; easier: 33."""
    assert comps.setup.with_options("harder").decks.japanese_deal == 27
    assert comps.setup.with_options("easier").decks.japanese_deal == 33


def test_special_landing_three_dice_or_four_as_in_the_example(comps: Components) -> None:
    """6.0 Special Landing Phase rolls 3 dice, 1s no result; 10.0 rolls 4 (option)."""
    assert comps.setup.special_landing.dice == 3
    assert comps.setup.special_landing.ones_no_effect
    assert comps.setup.with_options("landing_four_dice").special_landing.dice == 4


def test_historical_landing_option(comps: Components) -> None:
    """Ours: the real D-day regiments on their beaches, the 3rd Division in reserve."""
    s = comps.setup.with_options("historical_landing")
    assert s.landing["green_beach"] == "5/28"
    assert {r for r in s.reserves if r.startswith("3/")} == {"3/3", "3/9", "3/21"}


def test_options_do_not_change_the_base_setup(comps: Components) -> None:
    """5.0 The standard set-up stays as it is when an option is applied to a copy."""
    comps.setup.with_options("harder", "historical_landing")
    assert comps.setup.decks.japanese_deal == 30
    assert comps.setup.landing["green_beach"] == "3/3"


# ------------------------------------------------------------------------- 7.0 victory


@pytest.mark.parametrize(("margin", "level"), [
    (0, None), (-3, None), (1, "Marginal (Historical Victory)"), (5, "Marginal (Historical Victory)"),
    (6, "Moderate Victory"), (9, "Moderate Victory"), (10, "Smashing USMC Victory"),
    (25, "Smashing USMC Victory"),
])
def test_victory_levels(comps: Components, margin: int, level: str | None) -> None:
    """7.0 1-5 VP Marginal, 6-9 Moderate, 10+ Smashing; a tie is a Japanese win."""
    assert comps.victory.level(margin) == level
    assert comps.victory.tie_goes_to == "japanese"


def test_victory_points(comps: Components) -> None:
    """7.0 Japanese 2 VP per USMC marker, 1 per exhausted regiment; Marines 1 per card left."""
    v = comps.victory
    assert v.japanese.per_usmc_marker_eliminated == 2
    assert v.japanese.per_usmc_regiment_exhausted == 1
    assert v.usmc.per_japanese_card_left_after_full_control == 1


# --------------------------------------------------------------------------- 3.0 decks


def test_two_decks_of_thirty_six(comps: Components) -> None:
    """3.0 The USMC has 36 Tactic Cards; the Japanese AI has 36 AI Activation Cards."""
    assert comps.usmc_deck.size == comps.japanese_deck.size == 36
    assert len(expand_deck(comps.usmc_deck)) == 36
    assert len(expand_deck(comps.japanese_deck)) == 36


def test_physical_cards_have_unique_ids(comps: Components) -> None:
    """3.0 Every physical card of a deck can be told apart (copies get #1, #2...)."""
    for deck in (comps.usmc_deck, comps.japanese_deck):
        ids = expand_deck(deck)
        assert len(set(ids)) == len(ids)
        assert {card_id_of(i) for i in ids} == {c.id for c in deck.cards}


def test_some_cards_read_the_same(comps: Components) -> None:
    """1.0 The cards may read the same on some of the cards (duplicates exist)."""
    assert any(c.count > 1 for c in comps.usmc_deck.cards)
    assert any(c.count > 1 for c in comps.japanese_deck.cards)


def test_every_card_has_title_instructions_and_history(comps: Components) -> None:
    """3.0 A card shows a title bar, the instructions, and some history related to the card."""
    for deck in (comps.usmc_deck, comps.japanese_deck):
        for card in deck.cards:
            assert card.title.strip() and card.text.strip() and card.history.strip()


def test_usmc_cards_say_when_to_play(comps: Components) -> None:
    """3.0 / 6.0 The bottom of a USMC card states during which turn it may be played."""
    plays = {c.play for c in comps.usmc_deck.cards}
    assert plays <= {"usmc_turn", "japanese_turn", "either", "when_drawn"}
    assert "usmc_turn" in plays
    assert plays & {"japanese_turn", "either"}


def test_cards_playable_in_the_japanese_turn(comps: Components) -> None:
    """1.0 #4 / 6.0 The USMC player may play cards during the Japanese turn too."""
    assert sum(c.count for c in comps.usmc_deck.cards if c.play in ("japanese_turn", "either")) >= 6


def test_fighting_seabees(comps: Components) -> None:
    """10.0 Fighting Seabees raises the cohesion of the 3/9 by 3, from 7 to 10."""
    card = comps.usmc_deck.card("fighting_seabees")
    assert card.title == "Fighting Seabees"
    assert card.effects == (RaiseCohesion(type="raise_cohesion", amount=3, target="one_regiment"),)
    assert card.play in ("usmc_turn", "either")  # 10.0 plays it in the USMC turn


def test_command_coordination(comps: Components) -> None:
    """10.0 Command Coordination allows actions by 3 regiments in a turn (a new wave is one)."""
    card = comps.usmc_deck.card("command_coordination")
    assert card.title == "Command Coordination"
    (eff,) = card.effects
    assert isinstance(eff, ExtraActions) and eff.regiments == 3 and eff.only is None
    assert card.play in ("usmc_turn", "either")


def test_bad_weather(comps: Components) -> None:
    """5.0 / 10.0 Bad Weather cards drawn at set-up are discarded, with no replacement."""
    card = comps.usmc_deck.card("bad_weather")
    assert card.title == "Bad Weather" and card.discard_at_setup
    assert [c.id for c in comps.usmc_deck.cards if c.discard_at_setup] == ["bad_weather"]
    assert any(isinstance(e, ForbidActions) for e in card.effects)  # 6.0 "possible penalties"


def test_usmc_cards_give_what_the_rules_mention(comps: Components) -> None:
    """6.0 attack dice "plus any for tactics cards"; 9.0 #3 cards raise cohesion; 3.0 bunkers."""
    kinds = {type(e) for e in _usmc_effects(comps)}
    assert {AddAttackDice, Reroll, RaiseCohesion, PlaceBunker, ExtraActions} <= kinds
    assert all(e.side == "usmc" for e in _usmc_effects(comps) if isinstance(e, PlaceBunker))


def test_most_japanese_cards_attack(comps: Components) -> None:
    """6.0 Most of the Japanese cards are for Japanese positions attacking USMC positions."""
    attacking = sum(c.count for c in comps.japanese_deck.cards
                    if any(isinstance(e, ATTACKS) for e in c.effects))
    assert attacking > 36 / 2


def test_japanese_cards_order_every_kind_the_rules_name(comps: Components) -> None:
    """6.0 / 3.0 fire attacks, fields of fire, Banzai, marker movement, infiltration, bunkers."""
    kinds = {type(e) for e in _japanese_effects(comps)}
    assert {FireAttack, FieldsOfFire, Banzai, MoveMarkers, Infiltrate, PlaceBunker} <= kinds
    assert ReduceCohesion in kinds  # 4.0 cohesion "reduced further due to ... card actions"


def test_japanese_bunkers_are_japanese(comps: Components) -> None:
    """3.0 Bunkers are placed by Japanese cards into occupied (Japanese) island positions."""
    bunkers = [e for e in _japanese_effects(comps) if isinstance(e, PlaceBunker)]
    assert bunkers and all(e.side == "japanese" for e in bunkers)


def test_japanese_dice_follow_the_rules_unless_the_card_says(comps: Components) -> None:
    """6.0 Fire attacks and Fields of Fire roll 3 dice; Banzai attacks roll 5."""
    effects = _japanese_effects(comps)
    assert all(e.dice == 3 for e in effects if isinstance(e, FieldsOfFire))
    assert all(e.dice == 5 for e in effects if isinstance(e, Banzai))
    fire = [e for e in effects if isinstance(e, FireAttack)]
    assert sum(e.dice == 3 for e in fire) > len(fire) / 2


def test_banzai_never_against_beaches() -> None:
    """6.0 Banzai attacks are not allowed against USMC beach positions."""
    with pytest.raises(ValueError, match="target"):
        Banzai.model_validate({"type": "banzai", "target": "beach"})


def test_some_cards_need_no_adjacency(comps: Components) -> None:
    """6.0 Adjacency is not required for Japanese attack or movement on some cards."""
    effects = _japanese_effects(comps)
    assert any(isinstance(e, FireAttack) and not e.adjacent for e in effects)
    assert any(isinstance(e, MoveMarkers) and not e.adjacent for e in effects)


def test_some_moves_pass_through_usmc_positions(comps: Components) -> None:
    """9.0 #2 Certain Japanese cards move markers through USMC occupied positions."""
    assert any(isinstance(e, MoveMarkers) and e.through_usmc for e in _japanese_effects(comps))


def test_markers_move_singly_doubly_or_all(comps: Components) -> None:
    """3.0 Japanese markers move singly, doubly, or all from a position."""
    counts = {e.count for e in _japanese_effects(comps) if isinstance(e, MoveMarkers)}
    assert {1, 2, "all"} <= counts
    with pytest.raises(ValueError, match="count"):
        MoveMarkers.model_validate({"type": "move_markers", "count": 4, "destination": "reinforce"})


def test_japanese_effects_a_usmc_card_can_cancel_exist(comps: Components) -> None:
    """6.0 A tactics card may be played during the activation: what it cancels must occur."""
    japanese_types = {e.type for e in _japanese_effects(comps)}
    for e in _usmc_effects(comps):
        if isinstance(e, CancelJapanese):
            assert set(e.kinds) <= japanese_types


def test_guns_of_suribachi_fire_from_suribachi(comps: Components) -> None:
    """Ours (reference: Suribachi must be taken early): a card fires only from Mt. Suribachi."""
    (eff,) = comps.japanese_deck.card("guns_of_suribachi").effects
    assert isinstance(eff, FireAttack) and eff.from_position == "mt_suribachi"


def test_knobs_never_touch_what_the_rulebook_fixes(comps: Components) -> None:
    """10.0 Seabees +3 and Command Coordination's 3 regiments are the rulebook's, not knobs."""
    fixed = {"fighting_seabees.effects.0.amount", "command_coordination.effects.0.regiments"}
    for deck in (comps.usmc_deck, comps.japanese_deck):
        for knob in deck.knobs:
            assert knob.path not in fixed
            assert knob.min <= resolve_knob(deck, knob.path) <= knob.max
    assert comps.usmc_deck.knobs and comps.japanese_deck.knobs


def test_hooks_declared_with_a_description(comps: Components) -> None:
    """3.0 Card instructions may counter the rules: a hook card says in words what it does."""
    for deck in (comps.usmc_deck, comps.japanese_deck):
        for name, text in deck.hooks.items():
            assert name and text.strip()


# ------------------------------------------------------ the loader's errors (DESIGN 2, 9)


def _copy(tmp_path: Path) -> Path:
    d = tmp_path / "data"
    shutil.copytree(DATA_DIR, d)
    return d


def _edit(d: Path, name: str, change: Callable[[Any], None]) -> None:
    path = d / name
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def _card(data: Any, card_id: str) -> Any:
    return next(c for c in data["cards"] if c["id"] == card_id)


@pytest.mark.parametrize(("name", "change", "expected"), [
    ("usmc_cards.yaml", lambda d: _card(d, "naval_gunfire")["effects"].append({"type": "nuke"}),
     r"usmc_cards\.yaml.*effects"),
    ("usmc_cards.yaml",
     lambda d: _card(d, "naval_gunfire").update(count=_card(d, "naval_gunfire")["count"] + 1),
     r"add up to 37"),
    ("japanese_cards.yaml",
     lambda d: _card(d, "snipers")["effects"].append({"type": "add_attack_dice", "n": 1}),
     r"japanese_cards\.yaml.*effects"),
    ("japanese_cards.yaml", lambda d: _card(d, "kamikaze")["effects"][0].update(name="typhoon"),
     r"japanese_cards\.yaml: cards\.13\.effects\.0\.name: a hook declared"),
    ("japanese_cards.yaml",
     lambda d: _card(d, "guns_of_suribachi")["effects"][0].update(from_position="iwo"),
     r"from_position: an island position"),
    ("japanese_cards.yaml", lambda d: d["knobs"][0].update(max=1), r"knobs\.0.*within 1\.\.1"),
    ("japanese_cards.yaml", lambda d: d["knobs"][0].update(path="snipers.effects.7.n"),
     r"knobs\.0\.path"),
    ("japanese_cards.yaml",
     lambda d: _card(d, "meat_grinder")["effects"][0].update(side="usmc"), r"where"),
    ("board.yaml", lambda d: d["areas"][0]["attrs"].update(priority=3), r"board\.yaml.*areas\.0"),
    ("board.yaml", lambda d: d["areas"][5]["attrs"].update(priority=1), r"priority.*exactly once"),
    ("board.yaml", lambda d: d["connections"].append({"a": "the_neck", "b": "iwo"}),
     r"board\.yaml.*unknown area"),
    ("board.yaml", lambda d: [b.pop("x") for b in d["boxes"] if b["id"] == "rising_sun_2"],
     r"board\.yaml.*both x and y"),
    ("board.yaml", lambda d: [(b.pop("x"), b.pop("y")) for b in d["boxes"] if b["id"] == "usmc_hand"],
     r"board\.yaml: boxes\.20.*drawing position.*usmc_hand"),
    ("pieces.yaml", lambda d: d["usmc"]["regiments"][0].update(id="3/4"), r"disagrees"),
    ("setup.yaml", lambda d: d["japanese"].update(hill_382=4), r"setup\.yaml: japanese\.hill_382"),
    ("setup.yaml", lambda d: d["reserves"].remove("5/28"), r"each regiment"),
    ("setup.yaml", lambda d: d["options"][0]["set"].update({"special_landing.die": 4}),
     r"no set-up value"),
    ("victory.yaml", lambda d: d["levels"][1].update(min_margin=7), r"right after"),
])
def test_bad_data_is_refused_with_file_path_and_expectation(
        tmp_path: Path, name: str, change: Callable[[Any], None], expected: str) -> None:
    """DESIGN 2 / 9: a bad data file is one DataError naming file, path and expectation."""
    d = _copy(tmp_path)
    _edit(d, name, change)
    with pytest.raises(DataError, match=expected):
        load_components(d)


def test_missing_file_is_a_data_error(tmp_path: Path) -> None:
    """DESIGN 9: a missing data file is a DataError naming it, not a traceback."""
    d = _copy(tmp_path)
    (d / "victory.yaml").unlink()
    with pytest.raises(DataError, match=r"victory\.yaml: cannot read"):
        load_components(d)


def test_unknown_option_is_a_data_error(comps: Components) -> None:
    """8.0 options are named; an unknown one is refused with the known ones listed."""
    with pytest.raises(DataError, match="harder"):
        comps.setup.with_options("impossible")


def test_the_shipped_data_loads_from_a_copy(tmp_path: Path) -> None:
    """DESIGN 2: the loader reads any folder holding the data files (the mutation tests rely on it)."""
    assert load_components(_copy(tmp_path)).usmc_deck.size == 36
