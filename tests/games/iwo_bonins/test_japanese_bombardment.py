"""16.0 Japanese bombardment: availability 16.1, targeting 16.2, strength 16.3, resolution
16.4, stacks 16.5, and the two-player targeting 18.5.

Each test names the section it checks; the dice are scripted.
"""

from __future__ import annotations

from tabletop.core.engine.match import Match
from tabletop.games.iwo_bonins import common as c
from tabletop.games.iwo_bonins.components import FIRE_SUPPORT_TYPES
from tabletop.games.iwo_bonins.japanese_bombardment import japanese_combat_phase, strength_dice

from .test_japanese_units import Build, drive, jp_match, put, texts

__all__ = ["jp_match"]


def cover(m: Match, boxes: int) -> None:
    """16.1: cover the highest ``boxes`` boxes of the track with HQ and artillery units."""
    fire = [p for p in c.units(m, c.JAPAN, on_map=False) if p.kind in FIRE_SUPPORT_TYPES]
    track = c.components().tracks.bombardment_track.boxes
    for p, box in zip(fire[:boxes], track, strict=False):
        m.state.pieces.move(p.id, box.box)


def spent(m: Match) -> bool:
    """Every scripted die was used (a test that leaves dice unused checks the wrong path)."""
    return getattr(m.dice, "remaining", 0) == 0


def test_availability_from_track(jp_match: Build) -> None:
    """16.1: the highest uncovered number of the track (10 when empty, 7 with three)."""
    m = jp_match()
    assert c.japanese_bombardment_strength(m) == 10
    cover(m, 3)
    assert c.japanese_bombardment_strength(m) == 7


def test_no_markers_no_bombardment(jp_match: Build) -> None:
    """16.1: a fully covered track gives no markers: nothing is rolled."""
    m = jp_match([])
    cover(m, 10)
    put(m, "1/23", "2513")
    drive(japanese_combat_phase(m))
    assert m.state.pieces["1/23"].steps == 2


def test_before_suribachi_beaches_automatic_then_sweep_down(jp_match: Build) -> None:
    """16.2 (1): one marker on each landing beach hex with a US unit, then the sweep from
    2915 downward, 1-3 on 1d6 placing; 16.4: Bombardment column."""
    m = jp_match([
        4,           # sweep: 2313 rolls 4, skipped (the beaches took theirs without a roll)
        6, 6, 6,     # 2513: strength 18 on the beach line -> >=+14
        6,           # CRT 6 -> De -> (D) (9.2.2)
        1, 1, 1,     # 2412: strength 3 -> +3..+4
        1,           # CRT 1 -> A2 -> NE
    ])
    put(m, "1/23", "2513")
    put(m, "2/23", "2412")
    put(m, "3/23", "2313")
    drive(japanese_combat_phase(m))
    assert m.state.pieces["1/23"].steps == 1
    assert m.state.pieces["2/23"].steps == 2
    assert m.state.pieces["3/23"].steps == 2
    assert spent(m)
    targets = texts(m, "jp_target")
    assert targets[0].startswith("16.2: marker on landing beach hex 2513")
    assert targets[1].startswith("16.2: marker on landing beach hex 2412")
    assert "2313 skipped: roll 4" in texts(m, "jp_target_skip")[0]
    # markers go back to the pool
    on_map = c.components().map.is_hex_id
    assert not [p for p in m.state.pieces if p.kind == "bombardment" and on_map(p.location)]


def test_sweep_order_descending_before_suribachi(jp_match: Build) -> None:
    """16.2 (1): inland hexes are checked from the higher-numbered down (2313 before
    1211); a placement needs 1-3."""
    m = jp_match([
        5,           # 2313 skipped
        2,           # 1211 placed
        1, 1, 1, 1,  # 1211: strength 3, CRT 1 -> A2 -> NE
    ])
    cover(m, 8)      # two markers, one placed
    put(m, "3/23", "2313")
    put(m, "1/24", "1211")
    drive(japanese_combat_phase(m))
    order = [e.data["hex"] for e in m.log if e.kind in ("jp_target", "jp_target_skip")]
    assert order == ["2313", "1211"]
    assert spent(m)


def test_after_suribachi_sweep_up_no_beach_automatic(jp_match: Build) -> None:
    """16.2 (2): after Suribachi falls the sweep starts at 0213 upward and beach hexes get no
    automatic marker; 16.3: 2d6 with a Japanese-held hill in the target's sector."""
    m = jp_match([
        2,           # 1211 (sector 2) placed
        5,           # 1413 skipped
        6,           # 2513 (beach) skipped: no automatic marker
        6, 6,        # 1211: 2d6 = 12 on clear -> +11..+13
        5,           # CRT 5 -> De -> (D)
    ])
    m.state.vars[c.V_SURIBACHI] = True
    put(m, "309", "1414")  # a hill in sector 2
    put(m, "1/24", "1211")
    put(m, "2/24", "1413")
    put(m, "1/23", "2513")
    drive(japanese_combat_phase(m))
    assert m.state.pieces["1/24"].steps == 1
    assert m.state.pieces["2/24"].steps == 2 and m.state.pieces["1/23"].steps == 2
    assert any("lost" in t for t in texts(m, "jp_bombardment"))
    assert spent(m)


def test_strength_dice_after_suribachi(jp_match: Build) -> None:
    """16.3: 3 dice before Suribachi is cleared; after, 2 with a Japanese-occupied hill in
    the target's sector, 1 without."""
    m = jp_match()
    put(m, "309", "1414")
    assert strength_dice(m, "1211")[0] == 3
    m.state.vars[c.V_SURIBACHI] = True
    assert strength_dice(m, "1211")[0] == 2  # sector 2: hill 1414 held
    assert strength_dice(m, "1205")[0] == 1  # sector 3: no held hill
    m.state.pieces.move("309", c.JP_POOL)
    assert strength_dice(m, "1211")[0] == 1


def test_ex_and_d2_second_roll(jp_match: Build) -> None:
    """16.4: Ex: 1-4 a step loss, 5-6 no effect; D2: no retreat, 1-2 a step loss."""
    m = jp_match([
        6, 6, 5,     # 2513: strength 17 on beach -> >=+14
        1,           # CRT 1 -> D2 (clear line row 1, last column)
        2,           # 16.4 D2: 1-2 -> (D)
    ])
    cover(m, 9)
    put(m, "1/23", "2513")
    drive(japanese_combat_phase(m))
    bn = m.state.pieces["1/23"]
    assert bn.steps == 1 and bn.location == "2513"  # no retreat
    assert spent(m)


def test_stack_resolved_per_unit(jp_match: Build) -> None:
    """16.5: a bombardment is resolved separately against each unit in a stacked hex."""
    m = jp_match([
        6, 6, 6,     # strength 18
        6,           # 1/23: CRT 6 -> De -> (D)
        1, 6,        # FT/23: CRT 1 -> D2, then 6 -> no effect
    ])
    cover(m, 9)
    put(m, "1/23", "2513")
    put(m, "FT/23", "2513")
    drive(japanese_combat_phase(m))
    assert m.state.pieces["1/23"].steps == 1
    assert m.state.pieces["FT/23"].location == "2513"
    assert spent(m)
    assert all(t.startswith("16.5") for t in texts(m, "jp_bombardment_result"))


def test_two_player_targets_chosen_before_suribachi(jp_match: Build) -> None:
    """18.5: before Suribachi falls the Japanese player chooses the hexes, 1-3 to place."""
    m = jp_match([
        5,           # 2313 tried: missed
        3,           # 1211 tried: placed
        1, 1, 1, 1,  # 1211: strength 3, CRT 1 -> NE
    ])
    m.state.vars[c.V_TWO_PLAYER] = True
    cover(m, 8)  # two markers
    put(m, "3/23", "2313")
    put(m, "1/24", "1211")
    asked, _ = drive(japanese_combat_phase(m), ["2313", "1211"])
    assert [d.section for d in asked] == ["18.5", "18.5"]
    assert all(d.player == c.JAPAN for d in asked)
    assert "2313" not in asked[1].values  # a hex is tried once
    assert spent(m)
