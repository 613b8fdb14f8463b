"""Forks of a Manila '45 match: every decision can be asked again from a copy of the state.

Each decision the flow asks carries a resume point (the phase, or the Japanese set-up, and
the facts its procedures need), so ``Match.fork()`` copies the state and enters the flow
there instead of replaying the game. The fork conformance check (``check_forks``) holds each
fork to the match: the same decision, state and log, and the same states after the same
answers; ``strict`` makes a resume point that does not ask its decision again fail at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from tabletop.core.designer.testing import check_forks
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Decision
from tabletop.core.engine.match import Match
from tabletop.core.engine.position import Position
from tabletop.core.engine.registry import make_agent
from tabletop.games.manila45 import GAME

QUICK = 330
"""Decisions of seed 1 (default bots) the quick run forks at: the set-up, the entry of
turn 1 (3.4), moves, defensive and offensive fire, a close assault, an advance and the
first replacement (7.2)."""


def kinds_asked(seed: int, count: int | None, agents: dict[str, str] | None = None) -> Counter[str]:
    """The kinds of the first ``count`` decisions of a game (default bots, or ``agents``)."""
    match = Match(GAME, seed=seed)
    sides = {s: make_agent(GAME, s, (agents or {}).get(s) or GAME.default_bot(s), seed)
             for s in GAME.info.players}
    asked: Counter[str] = Counter()
    while match.pending is not None and (count is None or len(match.decisions) < count):
        decision = match.pending
        asked[decision.kind] += 1
        match.decide(sides[decision.player].choose(match.view(decision.player), decision))
    return asked


def hold_forks(match: Match, answer: Callable[[Decision], JSON], count: int) -> Counter[str]:
    """Answer ``count`` decisions of ``match`` (from a position, which ``check_forks`` does
    not start from), forking strictly before each: the fork is made by resuming, asks the
    same decision from the same state and log, and after the same answer is in the same
    state at the same next decision. Returns the kinds forked at."""
    forked: Counter[str] = Counter()
    for _ in range(count):
        decision = match.pending
        if decision is None:
            break
        twin = match.fork(strict=True)
        assert twin.forked_by == "resume", (decision.kind, twin.forked_by)
        assert twin.pending == decision and twin.state_hash() == match.state_hash()
        assert [e.to_json() for e in twin.log] == [e.to_json() for e in match.log]
        value = answer(decision)
        twin.decide(value)
        match.decide(value)
        assert twin.state_hash() == match.state_hash() and twin.pending == match.pending, decision.kind
        forked[decision.kind] += 1
    return forked


def test_a_fork_at_any_decision_continues_as_the_match() -> None:
    """3.2-10.17: at each of the first decisions of a game played by the default bots, the
    fork resumes (no replay, no snapshot) and goes on as the match."""
    made = check_forks(GAME, [1], max_decisions=QUICK)
    assert made == {"resume": QUICK, "snapshot": 0, "replay": 0}
    assert set(kinds_asked(1, QUICK)) >= {
        "setup_mode", "setup_adjust", "entry_org", "entry_unit", "entry_hex", "move_step",
        "defensive_fire", "select_mover", "fire_target", "fire_unit", "close_assault",
        "advance"}


def test_a_fork_in_a_set_up_placed_unit_by_unit_continues_as_the_match() -> None:
    """3.2: each unit placed, or the bot's set-up adjusted unit by unit (the default
    Japanese bot adjusts nothing): random play forks there, by resuming."""
    agents = {"US": "random", "Japan": "random"}
    for seed, count in ((2, 70), (1, 130)):
        made = check_forks(GAME, [seed], agents=agents, max_decisions=count)
        assert made == {"resume": count, "snapshot": 0, "replay": 0}
    assert kinds_asked(2, 70, agents)["setup_hex"] > 50  # placed one by one
    assert kinds_asked(1, 130, agents)["setup_adjust"] > 1


def test_a_fork_in_replacements_entries_and_a_coastal_move_continues_as_the_match() -> None:
    """7.2-7.3 a replacement and where it goes, 3.4 units entering after turn 1, 8.9 a
    pontoon bridge, 8.10 the 672nd's coastal move and its passenger moving on, which the
    default bots reach late or never: a fork at each of these decisions resumes."""
    pos = Position.build(GAME, start="us_reinforce", turn=3, clear=("US", "Japan"),
                         pieces={"j-cf-1": {"at": "3720"}, "j-s-120a": {"at": "3822"},
                                 "x-672": {"at": "3509"}, "x-44tk": {"at": "3509"},
                                 "x-117": {"at": "3021"}, "c-1-5": {"at": "box:us_1cav"},
                                 "c-2-5": {"at": "box:us_1cav"}, "c-1-7": {"at": "2730"},
                                 "c-1-8": {"at": "box:us_dead"}})
    match = Match.from_position(GAME, pos)
    steps: Counter[str] = Counter()

    def answer(decision: Decision) -> JSON:
        """The first option that goes on (a coastal move first), each unit two steps."""
        values = decision.values
        coastal = [v for v in values if isinstance(v, dict) and "coastal" in v]
        if decision.kind == "select_mover" and coastal:
            return coastal[0]
        if decision.kind == "move_step":
            steps[str(decision.context["unit"])] += 1
            if steps[str(decision.context["unit"])] > 2:
                return DONE
        going = [v for v in values if v not in (DONE, "none", False)]
        return going[0] if going and decision.kind != "select_mover" else values[0]

    forked = hold_forks(match, answer, 40)
    assert set(forked) >= {"replacement_unit", "replacement_hex", "entry_unit", "entry_hex",
                           "pontoon", "select_mover", "coastal_rider", "coastal_landing",
                           "move_step"}


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1])
def test_a_fork_at_every_decision_of_a_whole_game_continues_as_the_match(seed: int) -> None:
    """Every decision of whole games played by the default bots is forked by resuming."""
    made = check_forks(GAME, [seed])
    assert made["resume"] > 2000 and made["snapshot"] == made["replay"] == 0


@pytest.mark.slow
def test_a_fork_at_every_decision_of_a_whole_random_game_continues_as_the_match() -> None:
    """Random play reaches what the bots never do (a set-up placed unit by unit, 3.2; a
    coastal move, 8.10): every decision of a whole game is forked by resuming."""
    agents = {"US": "random", "Japan": "random"}
    made = check_forks(GAME, [2], agents=agents)
    assert made["snapshot"] == made["replay"] == 0
    assert made["resume"] == sum(kinds_asked(2, None, agents).values())
