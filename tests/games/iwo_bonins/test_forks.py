"""Forks (``Match.fork``): every decision of the game is resumable, so a fork copies the
state and the flow asks the same decision again, with no replay; the fork then plays on as
the match does (the fork conformance check, ``check_forks``, and the same check under the
``bombardment_timing=phase_start`` option, which ``check_forks`` does not take)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import pytest

from tabletop.core.designer.testing import check_forks
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import make_agent
from tabletop.games.iwo_bonins import GAME

PHASE_START = {"bombardment_timing": "phase_start"}


def all_resumed(made: Mapping[str, int]) -> bool:
    """Every fork took the resume path: none from a snapshot, none replayed from the start."""
    return made["resume"] > 0 and made["snapshot"] == 0 and made["replay"] == 0


def forks_with_options(seed: int, options: Mapping[str, JSON], *,
                       max_decisions: int | None = None, ahead: int = 2) -> Counter[str]:
    """``check_forks`` for a match with game options: play it with the default bots, then
    fork at every decision (strict: a resume point that does not ask its decision again
    fails) and hold each fork to the match over the next ``ahead`` decisions. Returns how
    many forks were made each way."""
    match = Match(GAME, seed=seed, options=options)
    agents = {s: make_agent(GAME, s, GAME.default_bot(s), seed) for s in GAME.info.players}
    hashes = [match.state_hash()]
    while match.pending is not None and (max_decisions is None or len(match.decisions) < max_decisions):
        d = match.pending
        match.decide(agents[d.player].choose(match.view(d.player), d))
        hashes.append(match.state_hash())
    answers, logged = match.decisions, [e.to_json() for e in match.log]
    again = Match(GAME, seed=seed, options=options)
    made: Counter[str] = Counter()
    for taken, value in enumerate(answers):
        twin = again.fork(strict=True)
        made[twin.forked_by.split()[0]] += 1
        assert twin.pending == again.pending and twin.state_hash() == hashes[taken], taken
        assert [e.to_json() for e in twin.log] == logged[:len(again.log)], taken
        for step in range(taken, min(taken + ahead, len(answers))):
            twin.decide(answers[step])
            assert twin.state_hash() == hashes[step + 1], (taken, step)
        again.decide(value)
    return made


def test_a_fork_at_any_decision_continues_as_the_match() -> None:
    """5.1.1-5.1.4, 9.0-9.4, 11.2: the solitaire game's opening turns (the beachhead, landings,
    moves, attacks with their markers, losses, retreats and advances): every fork resumes."""
    made = check_forks(GAME, (1, 2), max_decisions=180)
    assert all_resumed(made) and made["resume"] == 360, made


def test_a_fork_in_the_two_player_game_continues_as_the_match() -> None:
    """18.1-18.5: the Japanese player's deployment, moves, tunnels, attacks and targets resume
    too (the opening turns of a two-player game)."""
    made = check_forks(GAME, (3,), scenario="two_player", max_decisions=300)
    assert all_resumed(made) and made["resume"] == 300, made


def test_a_fork_in_the_literal_bombardment_step_continues_as_the_match() -> None:
    """8.2 read literally (``bombardment_timing=phase_start``): a fork within the declarations
    of the bombardment step, or within the resolution of the attacks declared, resumes with
    the attacks declared so far."""
    made = forks_with_options(3, PHASE_START, max_decisions=200)
    assert made == Counter(resume=200), made


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 4])
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
    made = forks_with_options(5, PHASE_START)
    assert set(made) == {"resume"}, made
