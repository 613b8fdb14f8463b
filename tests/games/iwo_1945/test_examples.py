"""The rulebook's own worked examples, replayed with scripted dice: the attack example of
6.0 and the set-up and turn example of 10.0."""

from __future__ import annotations

from tabletop.core.engine.decisions import DONE
from tabletop.core.engine.match import Match
from tabletop.games.iwo_1945 import Iwo1945
from tabletop.games.iwo_1945 import positions as P
from tabletop.games.iwo_1945.attacks import attack
from tabletop.games.iwo_1945.setup import build

from .helpers import drive, empty_board, give_hand, new_match, put_japanese, put_regiment, script


def test_6_0_attack_example_cohesion_dice_rerolls_and_exhaustion() -> None:
    """6.0 attack example: cohesion 6 -> 5 to attack; 6 5 4 3 1: the 4 removed, the 3
    rerolled free to a 1; the two 1s rerolled at cohesion 5 -> 4: 3 and 1, the 3 again
    rerolled to a 5; 6 5 5 1 removes one Japanese marker; an exhaustion check at 4."""
    m = new_match()
    empty_board(m)
    put_regiment(m, "3/9", "red_beach", cohesion=6)
    put_japanese(m, "field_1", 3)
    give_hand(m)
    script(m, [6, 5, 4, 3, 1, 1, 3, 1, 5, 4])
    drive(m, attack(m, "3/9", "field_1"), [1, 1, "roll", DONE])
    assert P.cohesion(m, "3/9") == 4
    assert len(P.japanese_at(m, "field_1")) == 2
    assert len(P.regiment_markers(m, "3/9")) == 3
    ends = [e for e in m.log if e.kind == "attack" and "ends the attack" in e.text]
    assert ends[-1].data["faces"] == [1, 5, 5, 6] and ends[-1].data["japanese_lost"] == 1
    checks = [e for e in m.log if e.kind == "exhaustion"]
    assert checks and checks[-1].section == "4.0" and checks[-1].data["cohesion"] == 4
    assert checks[-1].data["die"] == 4 and not checks[-1].data["exhausted"]
    fours = [e for e in m.log if e.kind == "dice" and "four" in e.text]
    assert fours and fours[0].section == "6.0"


class TenExample(Iwo1945):
    """10.0: the example's starting hand: Fighting Seabees, Command Coordination, Bad Weather."""

    def setup(self, match: Match) -> None:
        build(match)
        deck = match.state.decks["usmc"]
        for inst in list(deck.pile("hand:USMC")):
            deck.move(inst, "draw", top=True)
        for inst in ("bad_weather#1", "command_coordination#1", "fighting_seabees#1"):
            deck.move(inst, "draw", top=True)
        from tabletop.games.iwo_1945.usmc_turn import draw_up

        draw_up(match, setup=True)


def test_10_0_setup_landing_and_first_turn() -> None:
    """10.0 (and 5.0, 6.0): Bad Weather discarded at set-up with no replacement; the four-dice
    landing (option landing_dice=4) costs 3/3 a marker and 1 cohesion, 3/9 three cohesion
    (12 -> 9), 3/21 two markers, 4/23 nothing (two 2s, two 1s); Command Coordination gives
    three actions: 3/3 attacks The Neck (one marker), 3/9 attacks (-1 to 8), rerolls its two
    1s (-1 to 7) into a 6 and a 5, clears The Neck and advances; the 4/24 lands as a new wave
    on Red Beach at 12; Fighting Seabees raises 3/9 from 7 to 10."""
    landing = [6, 5, 1, 1, 5, 4, 4, 1, 6, 6, 1, 1, 2, 2, 1, 1]
    turn = [6, 6, 5, 1, 4, 6, 5, 4, 1, 1, 6, 5]
    m = Match(TenExample(), seed=10, options={"landing_dice": 4},
              dice_script=landing + turn + [2] * 60)
    hand = m.state.decks["usmc"].pile("hand:USMC")
    assert sorted(hand) == ["command_coordination#1", "fighting_seabees#1"]
    assert "bad_weather#1" in m.state.decks["usmc"].pile("discard")
    assert [len(P.regiment_markers(m, r)) for r in ("3/3", "3/9", "3/21", "4/23")] == [2, 3, 1, 3]
    assert [P.cohesion(m, r) for r in ("3/3", "3/9", "3/21", "4/23")] == [11, 9, 12, 12]
    for v in ("card:command_coordination#1", "attack", "3/3", "the_neck", DONE):
        m.decide(v)
    assert P.cohesion(m, "3/3") == 10 and len(P.japanese_at(m, "the_neck")) == 2
    for v in ("attack", "3/9", "the_neck"):
        m.decide(v)
    assert P.cohesion(m, "3/9") == 8
    for answer in (1, 1, "roll"):
        m.decide(answer)
    assert P.cohesion(m, "3/9") == 7
    for v in (DONE, "advance"):
        m.decide(v)
    assert P.regiment_pos(m, "3/9") == "the_neck" and P.control(m, "the_neck") == P.USMC
    for v in ("place_new_wave", "4/24", "red_beach"):
        m.decide(v)
    assert P.regiment_pos(m, "4/24") == "red_beach" and P.cohesion(m, "4/24") == 12
    m.decide("card:fighting_seabees#1")
    m.decide("3/9")
    assert P.cohesion(m, "3/9") == 10
    assert m.pending is not None and m.pending.values == [DONE]
    assert m.state.decks["usmc"].pile("hand:USMC") == []
    m.decide(DONE)
    # 6.0: the Japanese AI turn follows (no USMC card to offer), then round 2's USMC turn
    assert m.log.of_kind("japanese_card") and m.state.turn == 2 and m.state.phase == "usmc"
    assert m.pending is not None and m.pending.kind == "usmc_turn"
