"""Forks of Iwo Jima 1945 matches: every decision of the rules can be asked again from a copy
of the state (its resume point), so a fork never replays the game; the fork asks the same
decision and goes on exactly as the match (the fork conformance check)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

from tabletop.core.designer.testing import check_forks
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import make_agent
from tabletop.games.iwo_1945 import GAME


def _resumed_everywhere(made: Mapping[str, int]) -> None:
    """Every fork took the resume path: none from a snapshot, none replayed from the start."""
    assert made["resume"] > 0
    assert made["replay"] == 0, made
    assert made["snapshot"] == 0, made


def _kinds_asked(seeds: Iterable[int], agent: str, most: int) -> set[str]:
    """The kinds of decision the first ``most`` decisions of these games ask (USMC ``agent``)."""
    kinds: set[str] = set()
    for seed in seeds:
        m = Match(GAME, seed=seed)
        sides = {s: make_agent(GAME, s, agent if s == "USMC" else GAME.default_bot(s), seed)
                 for s in GAME.info.players}
        while m.pending is not None and len(m.decisions) < most:
            d = m.pending
            kinds.add(d.kind)
            m.decide(sides[d.player].choose(m.view(d.player), d))
    return kinds


def test_a_fork_at_any_decision_continues_as_the_match() -> None:
    """6.0: forked at each of the first 100 decisions of three games of the heuristic USMC,
    the fork is at the same decision and state and goes on as the match, by the resume path."""
    made = check_forks(GAME, (0, 1, 2), max_decisions=100)
    _resumed_everywhere(made)
    assert made["resume"] == 3 * 100


# (USMC agent, seeds, decisions): games whose openings ask, between them, every kind of
# decision the rules have, down to the rare ones: a rotation's partner and payer (random
# 6), the kamikaze discard (random 12), Japanese dice rerolled by Counter-Battery Fire
# (heuristic 35), a follow after an advance (heuristic 34), Star Shells cancelling (heuristic 7).
EVERY_KIND: tuple[tuple[str, tuple[int, ...], int], ...] = (
    ("random", (6, 12), 145),
    ("heuristic", (7, 34, 35), 50),
)


def test_every_kind_of_decision_is_asked_again_from_its_resume_point() -> None:
    """6.0, 3.0: forks at every decision of games that ask every kind of decision of the
    rules (actions, attacks and rerolls, advances and follows, rotations, new waves, tactic
    cards in both turns, Japanese dice rerolled, cancellations, the kamikaze discard) all
    resume there, and go on as the match."""
    asked: set[str] = set()
    for agent, seeds, most in EVERY_KIND:
        _resumed_everywhere(check_forks(GAME, seeds, agents={"USMC": agent}, max_decisions=most))
        asked |= _kinds_asked(seeds, agent, most)
    assert asked == set(GAME.decision_kinds)


def _fork_everywhere(seed: int, options: Mapping[str, JSON], most: int) -> dict[str, int]:
    """Fork a random USMC game with ``options`` at each of its first ``most`` decisions
    (strict: a resume point that does not ask its decision again fails), holding each fork
    to the match over its next two decisions; how many forks were made each way."""
    played = Match(GAME, seed=seed, options=options)
    agents = {s: make_agent(GAME, s, "random", seed) for s in GAME.info.players}
    hashes = [played.state_hash()]
    while played.pending is not None and len(played.decisions) < most:
        d = played.pending
        played.decide(agents[d.player].choose(played.view(d.player), d))
        hashes.append(played.state_hash())
    again = Match(GAME, seed=seed, options=options)
    made = {"resume": 0, "snapshot": 0, "replay": 0}
    for taken, answer in enumerate(played.decisions):
        twin = again.fork(strict=True)
        made[twin.forked_by.split()[0]] += 1
        assert twin.pending == again.pending and twin.state_hash() == hashes[taken]
        for step in range(taken, min(taken + 2, len(played.decisions))):
            twin.decide(played.decisions[step])
            assert twin.state_hash() == hashes[step + 1], (seed, options, taken, step)
        again.decide(answer)
    return made


@pytest.mark.parametrize("options", [
    {"usmc_discards": "any", "full_control_end": "immediately"},
    {"rotation_checks": "both", "usmc_move": "through_friendly", "landing": "historical"},
])
def test_forks_resume_under_the_options_that_change_the_turn(options: dict[str, JSON]) -> None:
    """6.0 options: with discards offered during the USMC turn and the game ended as soon as
    the USMC control every position (7.0), or rotations checked by both regiments and moves
    through friendly positions, every decision still resumes and the fork goes on alike."""
    for seed in (3, 4):
        _resumed_everywhere(_fork_everywhere(seed, options, 120))


@pytest.mark.slow
def test_whole_games_fork_by_resume_at_every_decision() -> None:
    """6.0, 7.0: whole games, the heuristic USMC and a random one, forked at every decision
    to the end: never a replay, always the resume path."""
    _resumed_everywhere(check_forks(GAME, range(4)))
    _resumed_everywhere(check_forks(GAME, range(4), agents={"USMC": "random"}))
