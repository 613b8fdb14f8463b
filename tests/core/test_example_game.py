"""The example game (docs/example/skirmish, rules in its RULES.md) exercised through the whole API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import settings

from tabletop.core.errors import IllegalDecision, TabletopError
from tabletop.core.match import Match
from tabletop.core.registry import load_game, make_agent
from tabletop.core.testing import check_conformance, check_golden, game_state_machine, golden_games

ROOT = Path(__file__).resolve().parents[2]
GAME = load_game(str(ROOT / "docs" / "example" / "skirmish"))
GOLDEN = Path(__file__).parent / "golden" / "skirmish.json"


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
    from tabletop.core.movement import reachable

    m = Match(GAME, seed=1)
    goto(m, "B4")
    piece = m.state.pieces["B4"]
    enemy = GAME.enemy_hexes(m, "Blue")  # type: ignore[attr-defined]
    ezoc = {n for h in enemy for n in GAME.map.neighbors(h)}  # type: ignore[attr-defined]
    reach = reachable(GAME.map, GAME.map.hex(piece.location), 6, GAME.costs,  # type: ignore[attr-defined]
                      enemy=enemy, ezoc=ezoc, zoc_stops=True, zoc_to_zoc=False)
    offered = [GAME.map.hex(str(v)) for v in m.pending.values]  # type: ignore[attr-defined,union-attr]
    assert any(h in ezoc for h in offered)  # the test means something: ZOC hexes are offered
    for h in offered:
        assert not any(step in ezoc for step in reach.path_to(h)[1:-1])


def test_4_2_moving_adjacent_reveals_hidden_units() -> None:
    """4.1-4.2: Red units start hidden from Blue and are revealed when a Blue unit ends adjacent."""
    m = Match(GAME, seed=1)
    view = m.view("Blue")
    assert not any(p.get("id") == "R1" for p in view["pieces"])  # type: ignore[union-attr]
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
    assert option.info.startswith("diff +0 on woods")
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
    path.write_text(json.dumps({"1": {**got["1"], "state_hash": "0"}}))  # type: ignore[dict-item]
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


def test_undo_sees_a_reveal_even_without_a_reveal_event() -> None:
    """Honest undo: a piece turned face up without any event still counts as revealed."""

    class Quiet(type(GAME)):  # type: ignore[misc]
        """The example game with reveals that log nothing."""

        def reveal_adjacent(self, match: Match, hex_id: str) -> None:
            for n in self.map.neighbors(self.map.hex(hex_id)):
                for p in match.state.pieces.at(self.map.label(n)):
                    p.hidden = False

    m = _blue_move_that_reveals(Quiet())
    assert not m.log.of_kind("reveal")
    with pytest.raises(TabletopError, match="revealed"):
        m.undo()
