"""Ridge Line, rule by rule: each test starts where its rule is (a position at a phase),
forces the roll it means and names the section it checks (RULES.md beside this folder).

Run them with ``pytest docs/example/ridge/tests``; ``tabletop rules docs/example/ridge``
counts them against the rulebook's sections.
"""

from __future__ import annotations

from pathlib import Path

from tabletop.core.designer.testing import (
    answer,
    check_conformance,
    check_dice_used,
    check_event_numbers,
    check_forks,
    check_golden,
    force,
    golden_games,
    start,
    texts,
)
from tabletop.core.designer.validation import validate_path
from tabletop.core.engine.match import Match
from tabletop.core.engine.position import load_position
from tabletop.core.engine.registry import load_game, make_agent

GAME = load_game(str(Path(__file__).resolve().parents[1]))
FAR = {"R3": {"at": "0901"}}  # a Red unit out of the way, so that Red is not wiped out (5.2)


def costs(m: Match) -> dict[str, float]:
    """The destinations of the pending move with their costs."""
    return {str(o.value): float(str(o.detail["cost"])) for o in m.pending.options if "cost" in o.detail}


def combat(m: Match) -> dict[str, object]:
    """The data of the last combat event."""
    return m.log.of_kind("combat")[-1].data


def test_conformance_and_forks() -> None:
    """Random games end and replay; every decision forks by resuming; events state no
    number their data lacks."""
    check_conformance(GAME, range(2))
    assert check_forks(GAME, range(1))["replay"] == 0
    check_event_numbers(GAME, range(2))


def test_golden_games() -> None:
    """Three seeded games of the heuristic bots end exactly as pinned in golden.json (a
    change of play re-pins with TABLETOP_REGOLD=1 and bumps the game's version)."""
    check_golden(Path(__file__).parent / "golden.json", golden_games(GAME, (1, 2, 3)))


def test_2_0_the_game_lasts_six_turns_and_5_1_decides_it() -> None:
    """2.0, 5.1: a bot game ends after turn 6 (or at once under 5.2) with a result citing 5.x."""
    m = Match(GAME, seed=2)
    m.run({s: make_agent(GAME, s, "heuristic", 2) for s in GAME.info.players})
    assert m.result is not None and m.result.section in ("5.1", "5.2")
    assert m.state.turn == 6 or m.result.section == "5.2"


def test_1_1_1_2_1_3_the_map_units_and_crt_validate() -> None:
    """1.1, 1.2, 1.3: every data file checks against its model and the kit's cross-checks."""
    lines = validate_path(str(Path(__file__).resolve().parents[1]))
    assert any("cross-checks passed (7 units" in line for line in lines)


def test_2_1_2_2_2_3_2_4_the_four_phases_of_a_turn() -> None:
    """2.1-2.4: Blue moves, Blue attacks, Red moves, Red attacks."""
    m = Match(GAME, seed=1)
    m.run({s: make_agent(GAME, s, "heuristic", 1) for s in GAME.info.players}, max_decisions=60)
    phases = [e.data["phase"] for e in m.log.of_kind("phase") if e.turn == 1]
    assert phases == ["blue_move", "blue_combat", "red_move", "red_combat"]


def test_3_1_woods_cost_two_a_tank_three_a_ridge_one_more() -> None:
    """3.1: from 0504, woods 0503 costs 2 (a tank 3); 0604 across the ridge costs 1 + 1."""
    m = start(GAME, start="blue_move", turn=1, clear=["Blue", "Red"], pieces={"B1": {"at": "0504"}, **FAR})
    answer(m, "B1")
    assert (costs(m)["0503"], costs(m)["0604"], costs(m)["0404"]) == (2, 2, 1)
    m = start(GAME, start="blue_move", turn=1, clear=["Blue", "Red"], pieces={"B4": {"at": "0504"}, **FAR})
    answer(m, "B4")
    assert costs(m)["0503"] == 3


def test_3_2_entering_an_enemy_zone_stops_and_leaving_costs_one_more() -> None:
    """3.2: B1 from 0402 stops in 0504 next to R2 (0604 would cost 4 without it); from 0504
    leaving R2's zone for 0404 costs 1 + 1."""
    m = start(GAME, start="blue_move", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0402"}, "R2": {"at": "0603"}})
    answer(m, "B1")
    assert "0504" in costs(m) and "0604" not in costs(m)
    m = start(GAME, start="blue_move", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0504"}, "R2": {"at": "0603"}})
    answer(m, "B1")
    assert costs(m)["0404"] == 2


def test_3_3_no_more_than_two_units_end_in_a_hex() -> None:
    """3.3: with B1 and B2 in 0403, B3 may not end its move there."""
    m = start(GAME, start="blue_move", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0403"}, "B2": {"at": "0403"}, "B3": {"at": "0402"}, **FAR})
    answer(m, "B3")
    assert "0403" not in costs(m) and "0404" in costs(m)


def test_4_1_each_hex_attacked_and_each_unit_attacking_once() -> None:
    """4.1: after B1 attacks 0603, neither 0603 nor B1 is offered again."""
    m = start(GAME, start="blue_combat", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0602"}, "B2": {"at": "0602"}, "R2": {"at": "0603"},
                      "R1": {"at": "0702"}}, forced=[force("4.2 combat", 3)])
    answer(m, "0603", "B1", "done")
    targets = [o.value for o in m.pending.options]
    assert "0603" not in targets and "0702" in targets
    answer(m, "0702")
    assert "B1" not in [o.value for o in m.pending.options]
    check_dice_used(m)


def test_4_2_odds_rounded_down_in_the_defenders_favour() -> None:
    """4.2, 4.4: 6 + 4 (a reduced tank) against 6 is 10:6, read as 3:2; a 4 there is EX."""
    m = start(GAME, start="blue_combat", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0602"}, "B4": {"at": "0703", "steps": 1, "face": "back"},
                      "R2": {"at": "0603"}, **FAR}, forced=[force("4.2 combat", 4)])
    answer(m, "0603", "B1", "B4")
    data = combat(m)
    assert (data["odds"], data["column"], data["roll"], data["result"]) == ("10:6", "3:2", 4, "EX")
    check_dice_used(m)


def test_4_2_odds_below_1_2_cost_a_step_with_no_roll() -> None:
    """4.2: a reduced 3 against 6 doubled by the ridge (12) is below 1:2: A1, no roll."""
    m = start(GAME, start="blue_combat", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0504", "steps": 1, "face": "back"}, "R1": {"at": "0604"}, **FAR})
    answer(m, "0604", "B1")
    assert (combat(m)["roll"], combat(m)["result"]) == (None, "A1")
    assert m.state.pieces["B1"].location == "box:eliminated"


def test_4_3_the_ridge_doubles_only_when_every_attacker_crosses_it() -> None:
    """4.3: 12 from across the ridge against 6 doubled is 1:1; with B3 from 0605 (not across)
    18 against 6 is 3:1. The doubling is a modifier with its section."""
    pieces = {"B1": {"at": "0504"}, "B2": {"at": "0505"}, "B3": {"at": "0605"}, "R1": {"at": "0604"}, **FAR}
    m = start(GAME, start="blue_combat", turn=1, clear=["Blue", "Red"], pieces=pieces)
    options = {o.value: o.detail.get("column") for o in m.pending.options}
    answer(m, "0604", "B1")
    after_two = {o.value: o.detail.get("column") for o in m.pending.options}
    assert after_two["B2"] == "1:1" and after_two["B3"] == "2:1" and options["0604"] == "3:1"
    m = start(GAME, start="blue_combat", turn=1, clear=["Blue", "Red"], pieces=pieces,
              forced=[force("4.2 combat", 6)])
    answer(m, "0604", "B1", "B2", "done")
    assert combat(m)["multipliers"] == [{"rule": "4.3", "name": "ridge", "value": 2}]


def test_4_3_woods_shift_one_column_left() -> None:
    """4.3: 12 against R3's 5 in woods is 2:1, shifted to 3:2, the shift a modifier of 4.3."""
    m = start(GAME, start="blue_combat", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0705"}, "B2": {"at": "0705"}, "R3": {"at": "0706"}},
              forced=[force("4.2 combat", 6)])
    answer(m, "0706", "B1", "B2")
    assert (combat(m)["odds"], combat(m)["column"]) == ("12:5", "3:2")
    assert combat(m)["shifts"] == [{"rule": "4.3", "name": "woods", "value": -1}]


def test_4_4_4_5_exchange_the_owner_picks_the_attackers_loss() -> None:
    """4.4 EX, 4.5: R2 loses a step, then Blue picks which of B1 and B2 loses one."""
    m = start(GAME, start="blue_combat", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0602"}, "B2": {"at": "0703"}, "R2": {"at": "0603"}, **FAR},
              forced=[force("4.2 combat", 5)])
    answer(m, "0603", "B1", "B2", "B2")
    assert combat(m)["result"] == "EX"
    assert [m.state.pieces[u].steps for u in ("R2", "B1", "B2")] == [1, 2, 1]
    assert m.state.pieces["B2"].face == "back"


def test_4_6_the_owner_picks_the_retreat_and_4_7_one_unit_advances() -> None:
    """4.4 DR, 4.6: R2 retreats two hexes, Red picking the path hex by hex away from Blue's
    zones; 4.7: one attacker advances into 0603."""
    m = start(GAME, start="blue_combat", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0602"}, "R2": {"at": "0603"}, **FAR}, forced=[force("4.2 combat", 1)])
    answer(m, "0603", "B1")
    assert combat(m)["result"] == "DR" and m.pending.kind == "select_retreat"
    answer(m, "0704", "0804")
    assert texts(m, "retreat") == ["2nd Bn retreats 0603 -> 0704 -> 0804"]
    answer(m, "B1")
    assert m.state.pieces["B1"].location == "0603"


def test_4_6_a_blocked_retreat_costs_a_step() -> None:
    """4.6: R1 in 0604 hemmed in by Blue zones of control cannot retreat: it loses a step."""
    m = start(GAME, start="blue_combat", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0605"}, "B2": {"at": "0603"}, "B3": {"at": "0805"},
                      "R1": {"at": "0604"}, **FAR},
              forced=[force("4.2 combat", 1)])
    answer(m, "0604", "B1", "done")
    assert combat(m)["result"] == "DR"
    assert texts(m, "retreat") == ["1st Bn cannot retreat from 0604"]
    assert m.state.pieces["R1"].steps == 1


def test_4_7_the_assault_position_plays_as_its_file_says() -> None:
    """4.2, 4.3, 4.4, 4.7 (positions/assault.yaml): B1 and B2 across the ridge and the tank
    from 0605 make 20 against 6 at 3:1; the forced 1 is DE, and the tank advances."""
    assault = Path(__file__).resolve().parents[1] / "positions" / "assault.yaml"
    m = Match.from_position(GAME, load_position(assault))
    answer(m, "0604", "B1", "B2", "B4")
    assert (combat(m)["attack"], combat(m)["column"], combat(m)["result"]) == (20, "3:1", "DE")
    answer(m, "B4")
    assert m.state.pieces["B4"].location == "0604"
    check_dice_used(m)


def test_5_2_a_side_wiped_out_loses_at_once() -> None:
    """5.2: DE on Red's last unit ends the game at once, Blue winning."""
    m = start(GAME, start="blue_combat", turn=2, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0602"}, "B2": {"at": "0602"}, "B3": {"at": "0703"}, "R2": {"at": "0603"}},
              forced=[force("4.2 combat", 1)])
    answer(m, "0603", "B1", "B2", "B3")
    assert m.result is not None and (m.result.winner, m.result.section) == ("Blue", "5.2")


def test_5_1_blue_alone_on_crest_farm_wins() -> None:
    """5.1: after turn 6, a Blue unit alone on Crest Farm wins; Red there denies it."""
    at_end = {"start": "red_combat", "turn": 6, "clear": ["Blue", "Red"]}
    won = start(GAME, **at_end, pieces={"B1": {"at": "0604"}, **FAR})
    assert GAME.final_result(won).winner == "Blue"
    held = start(GAME, **at_end, pieces={"B1": {"at": "0504"}, **FAR})
    assert GAME.final_result(held).winner == "Red"
