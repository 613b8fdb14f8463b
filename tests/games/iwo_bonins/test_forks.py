"""Forks (``Match.fork``): every decision of the game is resumable, so a fork copies the
state and the flow asks the same decision again, with no replay; the fork then plays on as
the match does (the fork conformance check, ``check_forks``, and the same check under the
``bombardment_timing=phase_start`` option, which ``check_forks`` does not take)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence

import pytest

from tabletop.core.designer.testing import check_forks
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.match import Match
from tabletop.core.engine.position import Position
from tabletop.core.engine.registry import make_agent
from tabletop.games.iwo_bonins import GAME

PHASE_START = {"bombardment_timing": "phase_start"}


def all_resumed(made: Mapping[str, int]) -> bool:
    """Every fork took the resume path: none from a snapshot, none replayed from the start."""
    return made["resume"] > 0 and made["snapshot"] == 0 and made["replay"] == 0


def forks_hold(make: Callable[[], Match], *, answers: Sequence[JSON] = (),
               max_decisions: int | None = None, ahead: int = 2) -> Counter[str]:
    """``check_forks`` for a match ``make`` builds (game options, a position): answer
    ``answers`` first, then play on with the default bots; then fork at every decision
    (strict: a resume point that does not ask its decision again fails) and hold each fork
    to the match over the next ``ahead`` decisions. Returns how many forks were made each
    way."""
    match = make()
    agents = {s: make_agent(GAME, s, GAME.default_bot(s), match.seed) for s in GAME.info.players}
    hashes = [match.state_hash()]
    while match.pending is not None and (max_decisions is None or len(match.decisions) < max_decisions):
        d = match.pending
        taken = len(match.decisions)
        match.decide(answers[taken] if taken < len(answers)
                     else agents[d.player].choose(match.view(d.player), d))
        hashes.append(match.state_hash())
    played, logged = match.decisions, [e.to_json() for e in match.log]
    again = make()
    made: Counter[str] = Counter()
    for taken, value in enumerate(played):
        twin = again.fork(strict=True)
        made[twin.forked_by.split()[0]] += 1
        assert twin.pending == again.pending and twin.state_hash() == hashes[taken], taken
        assert [e.to_json() for e in twin.log] == logged[:len(again.log)], taken
        for step in range(taken, min(taken + ahead, len(played))):
            twin.decide(played[step])
            assert twin.state_hash() == hashes[step + 1], (taken, step)
        again.decide(value)
    return made


def japanese_attacks_position() -> Match:
    """18.3, two-player, Turn 2's Japanese Combat Phase: 309 and 310, turned up this turn,
    beside FT/23 (defense 1) in clear 1311; 311 and 312 beside FT/24 in rough 1711; 314
    dug in far off. Both attacks roll 6 on the CRT: +5 on the clear line is D2 (the US
    picks D2 or (D), 9.2.3), on the rough line Ex (the Japanese pick the attacker lost)."""
    up = {"face": "front", "hidden": False, "attrs": {"revealed": 2}}
    position = Position.build(
        GAME, scenario="two_player", start="jp_combat", turn=2, vars={"beachhead": "east"},
        clear=["Japan"], dice=[{"roll": "18.3 CRT (Japanese attack)", "faces": [6, 6]}],
        pieces={"309": {"at": "1312", **up}, "310": {"at": "1211", **up},
                "311": {"at": "1712", **up}, "312": {"at": "1611", **up},
                "314": {"at": "0213", "status": {"dug_in": True}},
                "FT/23": {"at": "1311"}, "FT/24": {"at": "1711"}})
    return Match.from_position(GAME, position)


def test_a_fork_at_any_decision_continues_as_the_match() -> None:
    """5.1.1-5.1.4, 9.0-9.4, 11.2: the solitaire game's opening turns (the beachhead, landings,
    moves, attacks with their markers, losses, retreats and advances): every fork resumes."""
    made = check_forks(GAME, (1, 2), max_decisions=180)
    assert all_resumed(made) and made["resume"] == 360, made


def test_a_fork_in_the_two_player_game_continues_as_the_match() -> None:
    """18.1-18.5: the Japanese player's deployment, placements, moves, tunnels, attacks,
    substitutes and targets resume too (the opening turns of a two-player game, the Japanese
    played at random so that it moves and attacks)."""
    made = check_forks(GAME, (7,), scenario="two_player", agents={"Japan": "random"},
                       max_decisions=240)
    assert all_resumed(made) and made["resume"] == 240, made


def test_a_fork_within_japanese_attacks_continues_as_the_match() -> None:
    """18.3, 9.2.3, 9.3: forks at the target, each attacker added, the US choice of D2 or
    (D), the retreat it leads to, and the Japanese choice of the attacker an Ex costs, then
    on through the 18.5 targeting and the next turn: each resumes."""
    match = japanese_attacks_position()
    answers = ["1311", "309", "310", "D2", "1409", "1711", "311", "312", "312"]
    kinds = []
    for value in answers:
        assert match.pending is not None
        kinds.append(match.pending.kind)
        match.decide(value)
    assert kinds == ["jp_attack_target", "jp_attack_add", "jp_attack_add", "banzai_result",
                     "retreat_hex", "jp_attack_target", "jp_attack_add", "jp_attack_add",
                     "jp_ex_loss"]
    made = forks_hold(japanese_attacks_position, answers=answers, max_decisions=60)
    assert made == Counter(resume=60), made


def forced_beach_position(seed: int, options: Mapping[str, JSON]) -> Callable[[], Match]:
    """11.2, Turn 2's first combat phase: 1/23 landed on 2211 and 2/23 on 2111, two beach
    hexes each held by a dug-in Japanese unit, must attack them; 3/23 in 2212 may join."""
    position = Position.build(
        GAME, start="us_combat_1", turn=2, seed=seed, options=dict(options), clear=["Japan"],
        vars={"beachhead": "east", "must_attack": {"2211": ["1/23"], "2111": ["2/23"]}},
        pieces={"309": {"at": "2211", "status": {"dug_in": True}},
                "312": {"at": "2111", "status": {"dug_in": True}},
                "310": {"at": "0213", "status": {"dug_in": True}},
                "1/23": {"at": "2211"}, "2/23": {"at": "2111"}, "3/23": {"at": "2212"}})
    return lambda: Match.from_position(GAME, position)


@pytest.mark.parametrize(("seed", "options"), [(2, {}), (5, {}), (3, PHASE_START)])
def test_a_fork_within_forced_beach_attacks_continues_as_the_match(
        seed: int, options: Mapping[str, JSON]) -> None:
    """11.2 (with 8.2 either way): forks within the forced attacks, at their attackers, markers,
    losses and advances, and at the attacks after them, resume with the beach hex attacked
    and the units that landed there."""
    make = forced_beach_position(seed, options)
    first = make().pending
    assert first is not None and first.kind == "attack_add" and "cancel" not in first.values
    made = forks_hold(make, max_decisions=24)
    assert made == Counter(resume=24), made


def test_a_fork_in_the_literal_bombardment_step_continues_as_the_match() -> None:
    """8.2 read literally (``bombardment_timing=phase_start``): a fork within the declarations
    of the bombardment step, or within the resolution of the attacks declared, resumes with
    the attacks declared so far."""
    made = forks_hold(lambda: Match(GAME, seed=3, options=PHASE_START), max_decisions=200)
    assert made == Counter(resume=200), made


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3])
def test_a_fork_at_any_decision_of_a_whole_game_continues_as_the_match(seed: int) -> None:
    """A whole solitaire game (Suribachi, Banzai attacks 15.5, redeployments 15.3, the end):
    every fork resumes."""
    made = check_forks(GAME, (seed,))
    assert all_resumed(made), made


@pytest.mark.slow
def test_a_fork_at_any_decision_of_a_whole_two_player_game_continues_as_the_match() -> None:
    """A whole two-player game (18.0): every fork resumes."""
    made = check_forks(GAME, (3,), scenario="two_player")
    assert all_resumed(made), made


@pytest.mark.slow
def test_a_fork_at_any_decision_of_a_whole_game_with_the_bombardment_step_continues() -> None:
    """A whole solitaire game under ``bombardment_timing=phase_start`` (8.2): every fork resumes."""
    made = forks_hold(lambda: Match(GAME, seed=5, options=PHASE_START))
    assert set(made) == {"resume"}, made
