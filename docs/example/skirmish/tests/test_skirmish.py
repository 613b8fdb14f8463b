"""Skirmish at Hill 50, rule by rule, exercised through the whole API: each test names the
section of RULES.md (beside this folder) it checks.

Run them with ``pytest docs/example/skirmish/tests``; ``tabletop rules docs/example/skirmish``
counts them against the rulebook's sections.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import settings

from tabletop.core.designer.testing import (
    answer,
    check_conformance,
    check_event_numbers,
    check_forks,
    check_golden,
    force,
    game_state_machine,
    golden_games,
    start,
)
from tabletop.core.engine.errors import IllegalDecision, TabletopError
from tabletop.core.engine.events import modifier
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game, make_agent

GAME = load_game(str(Path(__file__).resolve().parents[1]))
GOLDEN = Path(__file__).parent / "golden.json"


def bots_match(seed: int) -> Match:
    """A whole match between the example's 'pusher' bots."""
    m = Match(GAME, seed=seed)
    m.run({s: make_agent(GAME, s, "pusher", seed) for s in GAME.info.players})
    return m


def goto(m: Match, *values: object) -> None:
    """Take a sequence of decisions."""
    for v in values:
        m.decide(v)


def test_conformance() -> None:
    """API test: random games end, replay byte for byte, save/resume, views serialise."""
    check_conformance(GAME, range(4))


TestSkirmishMachine = game_state_machine(GAME).TestCase
TestSkirmishMachine.settings = settings(max_examples=10, stateful_step_count=15, deadline=None)


def test_3_1_movement_costs_and_options() -> None:
    """3.1: B4 (tank, 6 MP) may reach 0402 (1+1+1... MP) and not the lake 0407."""
    m = Match(GAME, seed=1)
    goto(m, "B4")
    d = m.pending
    assert d is not None and d.section == "3.1" and d.kind == "select_hex"
    assert "0407" not in d.values and "0203" not in d.values
    labels = {o.value: o.label for o in d.options}
    assert labels["0303"] == "0303 (2 MP)"  # woods


def test_3_2_entering_an_enemy_zone_stops_the_unit() -> None:
    """3.2: no offered destination is reached through an enemy-controlled hex."""
    from tabletop.core.board.movement import reachable

    m = Match(GAME, seed=1)
    goto(m, "B4")
    piece = m.state.pieces["B4"]
    enemy = {GAME.map.hex(p.location) for p in m.state.pieces.select(side="Red")}  # type: ignore[attr-defined]
    ezoc = {n for h in enemy for n in GAME.map.neighbors(h)}  # type: ignore[attr-defined]
    reach = reachable(GAME.map, GAME.map.hex(piece.location), 6,  # type: ignore[attr-defined]
                      GAME.terrain.costs("tank"),  # type: ignore[attr-defined]
                      enemy=enemy, ezoc=ezoc, zoc_stops=True, zoc_to_zoc=False)
    offered = [GAME.map.hex(str(v)) for v in m.pending.values]  # type: ignore[attr-defined,union-attr]
    assert any(h in ezoc for h in offered)  # the test means something: ZOC hexes are offered
    for h in offered:
        assert not any(step in ezoc for step in reach.path_to(h)[1:-1])


def test_3_1_to_3_3_every_destination_menu_is_a_fresh_search_of_the_board() -> None:
    """3.1-3.3: in random games, every destination menu (its options kept by start, MP and
    enemy hexes) offers exactly what a fresh search of the board as it stands finds: the
    hexes reached past the enemy and its zones of control, none full, with their costs."""
    from tabletop.core.board.movement import adjacent_hexes, reachable

    menus = 0
    for seed in range(8):
        m = Match(GAME, seed=seed)
        agents = {s: make_agent(GAME, s, "random", seed) for s in GAME.info.players}
        while m.pending is not None:
            d = m.pending
            if d.kind == "select_hex":
                pieces, board = m.state.pieces, GAME.map  # type: ignore[attr-defined]
                piece = pieces[d.context["unit"]]
                enemy = {board.hex(p.location) for p in pieces if p.side != d.player and p.location in board}
                fresh = reachable(board, board.hex(piece.location), piece.value("move"),
                                  GAME.terrain.costs(piece.kind),  # type: ignore[attr-defined]
                                  enemy=enemy, ezoc=adjacent_hexes(board, enemy),
                                  zoc_stops=True, zoc_to_zoc=False,
                                  can_end=lambda h: pieces.count_at(board.label(h)) < 2)  # noqa: B023
                assert [(o.value, o.label) for o in d.options] == \
                    [(hid, f"{hid} ({c:g} MP)") for hid, c in fresh.costs_by_id().items()]
                menus += 1
            m.decide(agents[d.player].choose(m.view(d.player), d))
    assert menus > 30  # the test means something: many menus, from many boards


def test_4_2_moving_adjacent_reveals_hidden_units() -> None:
    """4.1-4.2: Red units start hidden from Blue and are revealed when a Blue unit ends adjacent."""
    m = Match(GAME, seed=1)
    view = m.view("Blue")
    assert not any(p.get("id") == "R1" for p in view["pieces"])
    goto(m, "B4", "0503")
    assert not m.state.pieces["R1"].hidden
    assert any(e.kind == "reveal" and e.section == "4.2" for e in m.log)


def test_5_3_combat_shows_odds_and_applies_the_crt() -> None:
    """5.2-5.4 with scripted dice: B4 attacks R1 at 6-6=0 on woods line (hill), roll 1 -> EX."""
    m = Match(GAME, seed=1, dice_script=[1, 1, 1, 1, 1, 1])
    goto(m, "B4", "0503", "done")
    d = m.pending
    assert d is not None and d.kind == "select_target" and d.section == "5.1"
    option = next(o for o in d.options if o.value == "0504")
    # the odds shown are the woods line's at +0: EX on 1-2, A1 on 3-6
    assert option.detail["read"] == "+0" and option.detail["odds"] == {"EX": 1 / 3, "A1": 2 / 3}
    assert "6 vs defence 6: +0" in option.info
    goto(m, "0504", "B4")  # the only eligible attacker: the attack resolves at once (5.2)
    combat = m.log.of_kind("combat")[-1]
    # Differential 0 on the woods line (clear shifted -1) reads the "-2..-1" column: roll 1 -> EX.
    assert combat.section == "5.3" and combat.data["result"] == "EX"
    assert m.state.pieces["B4"].location == "box:eliminated"
    assert m.state.pieces["R1"].location == "box:eliminated"


def test_illegal_decision_is_refused() -> None:
    """Decisions: an option that is not legal changes nothing."""
    m = Match(GAME, seed=3)
    before = m.state_hash()
    with pytest.raises(IllegalDecision):
        m.decide("R1")  # Blue cannot move a Red unit
    assert m.state_hash() == before


def test_golden_playthroughs() -> None:
    """Golden games: seeded bot games end exactly as pinned (set TABLETOP_REGOLD=1 to re-pin)."""
    check_golden(GOLDEN, golden_games(GAME, (1, 2, 3)))


def test_golden_check_fails_on_a_changed_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The golden check can fail: a different pinned hash, or a missing file, is reported."""
    monkeypatch.delenv("TABLETOP_REGOLD", raising=False)
    got = golden_games(GAME, (1,))
    path = tmp_path / "g.json"
    with pytest.raises(AssertionError, match="missing"):
        check_golden(path, got)
    path.write_text(json.dumps({"1": {**got["1"], "state_hash": "0"}}))
    with pytest.raises(AssertionError, match="no longer play as pinned"):
        check_golden(path, got)


def _blue_move_that_reveals(game: object) -> Match:
    """A match stopped just after a Blue decision that revealed a Red unit (no dice since)."""
    for seed in range(20):
        m = Match(game, seed=seed)  # type: ignore[arg-type]
        agents = {s: make_agent(GAME, s, "pusher", seed) for s in GAME.info.players}
        while m.pending is not None:
            hidden = m.secrets()
            m.decide(agents[m.pending.player].choose(m.view(m.pending.player), m.pending))
            if m.pending is not None and hidden - m.secrets() and m.undo_limit()[0] == len(m.decisions) \
                    and m.log[-1].kind != "roll":
                return m
    raise AssertionError("no revealing move found")


def test_undo_cannot_hide_a_unit_already_seen() -> None:
    """4.2 / honest undo: once a Blue move has revealed a Red unit, that move cannot be undone;
    the unit stays face up and the match unchanged."""
    m = _blue_move_that_reveals(GAME)
    before = m.state_hash()
    with pytest.raises(TabletopError, match="reveal"):
        m.undo()
    assert m.state_hash() == before


def test_undo_sees_a_reveal_even_without_a_reveal_event(monkeypatch: pytest.MonkeyPatch) -> None:
    """Honest undo: a piece turned face up without any event still counts as revealed."""

    def quiet_reveal(self: object, match: Match, piece: object, frm: str) -> None:
        """4.2 as the example plays it, but logging nothing."""
        hexmap = GAME.map  # type: ignore[attr-defined]
        if match.state.pieces[piece.id].side == "Blue":  # type: ignore[attr-defined]
            for n in hexmap.neighbor_ids(match.state.pieces[piece.id].location):  # type: ignore[attr-defined]
                for p in match.state.pieces.at(n):
                    p.hidden = False

    monkeypatch.setattr(type(GAME), "after_move", quiet_reveal)
    m = _blue_move_that_reveals(GAME)
    assert not m.log.of_kind("reveal")
    with pytest.raises(TabletopError, match="revealed"):
        m.undo()


def test_1_1_the_map_is_ten_by_eight_hexes_with_hill_50_a_lake_and_a_stream() -> None:
    """1.1: 10 columns by 8 rows numbered XXYY, even columns shifted half a hex down;
    clear, woods, town and lake (prohibited) terrain; Hill 50 (0504, 0604) is the objective;
    a stream runs along some hexsides."""
    hexmap = GAME.map  # type: ignore[attr-defined]
    labels = sorted(hexmap.label(h) for h in hexmap.hexes())
    assert labels == sorted(f"{c:02d}{r:02d}" for c in range(1, 11) for r in range(1, 9))
    # an even column is shifted down: its neighbours in the odd columns are on its row and the next
    assert {hexmap.label(n) for n in hexmap.neighbors(hexmap.hex("0203"))} == {
        "0202", "0204", "0103", "0104", "0303", "0304"}
    # an odd column: its neighbours in the even columns are on its row and the one before
    assert {hexmap.label(n) for n in hexmap.neighbors(hexmap.hex("0303"))} == {
        "0302", "0304", "0202", "0203", "0402", "0403"}
    terrains = {hexmap.terrain(h) for h in hexmap.hexes()}
    assert terrains == {"clear", "woods", "town", "lake"}
    assert all(hexmap.is_prohibited(h) == (hexmap.terrain(h) == "lake") for h in hexmap.hexes())
    assert sorted(GAME.objectives) == ["0504", "0604"]  # type: ignore[attr-defined]
    assert list(hexmap.hexsides_with("stream"))


def test_1_3_the_crt_is_read_on_the_line_of_the_defenders_terrain() -> None:
    """1.3 (and 5.3): the CRT line is the defender's terrain, a hill counting as woods; the
    woods line reads one column left of clear, town two."""
    m = Match(GAME, seed=1)
    hexmap = GAME.map  # type: ignore[attr-defined]
    for h in hexmap.hexes():
        if hexmap.is_prohibited(h):
            continue
        hid = hexmap.label(h)
        line = GAME.combat_terms(m, [hid], [])["line"]  # type: ignore[attr-defined]
        terrain = hexmap.terrain(h)
        hill = hexmap.has_feature(h, "objective")
        assert line == ("woods" if hill and terrain == "clear" else terrain), hid
    crt = GAME.crt  # type: ignore[attr-defined]
    assert [crt.lookup(0, roll, line="clear") for roll in range(1, 7)] == ["D1", "EX", "EX", "NE", "A1", "A1"]
    assert [crt.lookup(0, roll, line="woods") for roll in range(1, 7)] == ["EX", "EX", "A1", "A1", "A1", "A1"]
    assert [crt.lookup(0, roll, line="town") for roll in range(1, 7)] == ["A1"] * 6


def test_2_0_each_turn_plays_its_four_phases_in_order() -> None:
    """2.0: each of the six turns plays 2.1 Blue movement, 2.2 Blue combat, 2.3 Red movement
    and 2.4 Red combat, in that order; in a movement phase only its side moves (3.1), in a
    combat phase only its side attacks (5.1, 5.2), the other only choosing its own losses (5.4)."""
    m = bots_match(1)
    phases = [e.section for e in m.log.of_kind("phase")]
    assert phases == ["2.1", "2.2", "2.3", "2.4"] * 6
    active = {"2.1": ("Blue", {"3.1"}), "2.2": ("Blue", {"5.1", "5.2", "5.4"}),
              "2.3": ("Red", {"3.1"}), "2.4": ("Red", {"5.1", "5.2", "5.4"})}
    phase = ""
    decided = set()
    for e in m.log:
        if e.kind == "phase":
            phase = e.section
        elif e.kind == "decision":
            side, sections = active[phase]
            if e.data["player"] == side:
                assert e.section in sections, (phase, e.text)
            else:
                assert phase in ("2.2", "2.4") and e.section == "5.4", (phase, e.text)
            decided.add(phase)
    assert decided == set(active)  # every phase was played, not skipped


def test_3_3_no_more_than_two_units_end_a_move_in_a_hex() -> None:
    """3.3: a hex holding two units is no destination; a hex with one still is."""
    alone = Match(GAME, seed=1)
    goto(alone, "B2")
    assert "0203" in alone.pending.values  # type: ignore[union-attr]  # B4 alone there
    m = Match(GAME, seed=1)
    goto(m, "B1", "0203", "B2")
    assert m.state.pieces.count_at("0203") == 2
    assert "0203" not in m.pending.values  # type: ignore[union-attr]
    assert GAME.invariants(m) == []
    m.state.pieces.move("B2", "0203")
    assert any(p.startswith("3.3") for p in GAME.invariants(m))


def test_6_1_6_2_a_side_with_no_unit_left_loses_at_once() -> None:
    """6.1: every Red unit eliminated, Blue wins decisively; 6.2: every Blue unit eliminated,
    Red does; while both have a unit, nobody."""
    for loser, winner, section in (("Red", "Blue", "6.1"), ("Blue", "Red", "6.2")):
        m = Match(GAME, seed=1)
        ids = [p.id for p in m.state.pieces.select(side=loser)]
        for pid in ids[:-1]:
            m.state.pieces.move(pid, "box:eliminated")
        assert GAME.check_end(m) is None  # type: ignore[attr-defined]
        m.state.pieces.move(ids[-1], "box:eliminated")
        result = GAME.check_end(m)  # type: ignore[attr-defined]
        assert result is not None
        assert (result.winner, result.level, result.section) == (
            winner, f"{winner} decisive victory", section)


def test_6_3_blue_wins_at_the_end_only_holding_both_hill_hexes_alone() -> None:
    """6.3: at the end Blue wins with Blue units on 0504 and 0604 and no Red unit there;
    one Red unit left on either hex, or one hex not held, is a Red victory."""
    m = Match(GAME, seed=1)
    assert GAME.final_result(m).winner == "Red"  # Red holds the hill
    for red in ("R1", "R2"):
        m.state.pieces.move(red, "box:eliminated")
    m.state.pieces.move("B1", "0504")
    assert GAME.final_result(m).winner == "Red"  # 0604 not held
    m.state.pieces.move("B2", "0604")
    result = GAME.final_result(m)
    assert (result.winner, result.section) == ("Blue", "6.3")
    m.state.pieces.move("R3", "0604")
    assert GAME.final_result(m).winner == "Red"


@pytest.mark.parametrize("turns", [None, 4, 8])
def test_events_carry_the_numbers_their_text_states(turns: int | None) -> None:
    """Every event of random games, in every scenario and under each value of the option,
    carries as data each number its text states (a hex, a unit's name, a roll)."""
    for scenario in (s.id for s in GAME.info.scenarios):
        check_event_numbers(GAME, seeds=range(3), scenario=scenario,
                            options=None if turns is None else {"turns": turns})


def test_5_3_an_attack_across_a_stream_gives_its_strengths_and_shift_as_fields() -> None:
    """5.3: 1/5 and 2/5 (attack 4 each) attack 1st Co (defense 6) on Hill 50, 1/5 across a
    stream: differential +2 on the woods line (a hill counts as woods), one column left, so
    a roll of 1 is EX, not D1. The combat event gives the strengths, the shift as a modifier
    with its rule, the roll and the result, and its text is written from them."""
    m = start(GAME, start="blue_combat", turn=2,
              pieces={"B1": {"at": "0403"}, "B2": {"at": "0503"}, "R1": {"at": "0504", "hidden": False}},
              forced=[force("5.3 combat", 1)])
    answer(m, "0504", "B1", "B2")
    (combat,) = m.log.of_kind("combat")
    assert {k: combat.data[k] for k in ("attack", "defence", "odds", "line", "roll", "result")} == {
        "attack": 8, "defence": 6, "odds": "+2", "line": "woods", "roll": 1, "result": "EX"}
    assert combat.data["shifts"] == [modifier("5.3", "stream", -1)]
    assert combat.text == ("Blue attacks 0504 with B1, B2: attack 8 vs defence 6: +2, -1 stream (5.3) "
                           "-> column 0; roll 1 -> EX")


def test_1_2_the_counter_mix_blue_battalions_and_a_tank_red_companies() -> None:
    """1.2: Blue has three two-step infantry battalions and a one-step tank company; Red three
    one-step infantry companies and a machine-gun company; each counter shows attack, defense
    and movement (a reduced battalion on its back, 2-2-4)."""
    m = Match(GAME, seed=1)
    pieces = {p.id: p for p in m.state.pieces}
    assert [(p.kind, p.max_steps) for p in pieces.values() if p.side == "Blue"] == [
        ("infantry", 2), ("infantry", 2), ("infantry", 2), ("tank", 1)]
    assert [(p.kind, p.max_steps) for p in pieces.values() if p.side == "Red"] == [
        ("infantry", 1), ("infantry", 1), ("infantry", 1), ("mg", 1)]
    assert GAME.piece_label(pieces["B1"]) == "1/5 4-3-4" and GAME.piece_label(pieces["R4"]) == "MG Co 2-5-2"
    pieces["B1"].face = "back"
    assert GAME.piece_label(pieces["B1"]) == "1/5 2-2-4"


def test_every_decision_resumes_at_its_point() -> None:
    """Forks: at every decision of whole games (movement 3.1, attacks 5.1-5.2, step losses 5.4
    in the middle of a resolution), the flow is entered again at the decision's point from a
    copy of the state, never replayed."""
    counts = check_forks(GAME, range(2))
    assert counts["resume"] > 0 and counts["snapshot"] == counts["replay"] == 0, counts
