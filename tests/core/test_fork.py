"""Forks of a match (Match.fork): independent copies at the same decision, taken from a
copy of the state where the flow can be entered again, else from a snapshot and a replay;
and undo by the same snapshots."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.core.designer.testing import check_forks
from tabletop.core.engine.decisions import Decision, Option, ResumePoint
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Flow, Match
from tabletop.core.engine.record import make_record, replay
from tabletop.core.engine.registry import load_game

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = load_game(str(ROOT / "docs" / "example" / "skirmish"))
TICTACTOE = load_game(str(ROOT / "benchmarks" / "tictactoe"))


def random_answers(match: Match, rng: random.Random, count: int) -> list[object]:
    """Take up to ``count`` random legal decisions; the answers taken."""
    taken = []
    for _ in range(count):
        if match.pending is None:
            break
        value = rng.choice(match.pending.options).value
        match.decide(value)
        taken.append(value)
    return taken


@given(seed=st.integers(0, 2**16), before=st.integers(0, 80), after=st.integers(1, 40))
def test_a_fork_and_the_match_given_the_same_answers_stay_equal(seed: int, before: int,
                                                                 after: int) -> None:
    """Forked at any decision and given the same answers (so the same dice), a fork and its
    match pass through the same states and logs."""
    rng = random.Random(seed)
    match = Match(SKIRMISH, seed=seed)
    random_answers(match, rng, before)
    twin = match.fork()
    assert twin.state_hash() == match.state_hash() and twin.pending == match.pending
    for _ in range(after):
        if match.pending is None:
            break
        value = rng.choice(match.pending.options).value
        match.decide(value)
        twin.decide(value)
        assert twin.state_hash() == match.state_hash()
    assert [e.to_json() for e in twin.log] == [e.to_json() for e in match.log]


@given(seed=st.integers(0, 2**16), before=st.integers(0, 60))
def test_playing_a_fork_never_changes_its_match(seed: int, before: int) -> None:
    """A fork shares nothing that changes with its match: the fork played on to the end, its
    pieces, variables and decks changed by hand, the match is as it was (and the other way)."""
    rng = random.Random(seed)
    match = Match(SKIRMISH, seed=seed)
    random_answers(match, rng, before)
    hash_before, log_before = match.state_hash(), len(match.log)
    twin = match.fork()
    random_answers(twin, rng, 1000)
    for piece in twin.state.pieces:
        piece.attrs["touched"] = [1]
        piece.steps += 1
    twin.state.vars["lost"]["Blue"] = 99
    assert match.state_hash() == hash_before and len(match.log) == log_before
    other = match.fork()
    random_answers(match, rng, 1000)
    assert other.state_hash() == hash_before


def test_a_fork_record_replays_to_its_state() -> None:
    """A fork's record (the match's header, the decisions up to the fork and its own) replays
    and verifies like any other."""
    rng = random.Random(5)
    match = Match(SKIRMISH, seed=5)
    random_answers(match, rng, 30)
    twin = match.fork()
    random_answers(twin, rng, 1000)
    assert twin.finished
    again = replay(SKIRMISH, make_record(twin))
    assert again.state_hash() == twin.state_hash()


def test_a_fork_at_a_resumable_decision_copies_the_state_and_enters_the_flow_again() -> None:
    """Where the pending decision carries a resume point, the fork is made from a copy of
    the state (no replay), in tic-tac-toe at every move and the example game at every
    decision of whole games."""
    match = Match(TICTACTOE, seed=1)
    match.decide(4)
    assert match.fork().forked_by == "resume"
    made = check_forks(TICTACTOE, range(3), agents={"x": "random", "o": "random"}, ahead=3)
    assert made["resume"] >= 15 and made["snapshot"] == made["replay"] == 0
    made = check_forks(SKIRMISH, range(3), ahead=3)
    assert made["resume"] > 100 and made["snapshot"] == made["replay"] == 0


class BrokenResume(type(TICTACTOE)):  # type: ignore[misc]
    """Tic-tac-toe whose flow, entered again, asks another question than the one marked."""

    def resume_flow(self, match: Match, point: ResumePoint) -> Flow:
        yield Decision("x", "something else?", "move", (Option(0, "cell 0"),), resume=point)
        return None


def test_a_resume_point_that_asks_another_decision_is_refused_or_replayed() -> None:
    """A resume point is a promise: a flow entered again that asks another decision makes a
    strict fork fail naming the decision, and a plain fork replay instead (still right)."""
    game = BrokenResume()
    match = Match(game, seed=2)
    match.decide(4)
    with pytest.raises(TabletopError, match="does not ask 'your mark where\\?'"):
        match.fork(strict=True)
    twin = match.fork()
    assert twin.forked_by == "replay" and twin.state_hash() == match.state_hash()
    twin.decide(0)
    assert twin.pending is not None and twin.pending.player == "x"


@given(seed=st.integers(0, 2**16), taken=st.integers(40, 160), back=st.integers(1, 40))
def test_undo_through_a_snapshot_is_undo_by_replay(seed: int, taken: int, back: int) -> None:
    """An undo starts from the last snapshot before the decision it goes back to and
    replays from there: the same state, log and pending decision as replaying the record
    from the start."""
    rng = random.Random(seed)
    match = Match(SKIRMISH, seed=seed, free_undo=True)
    answers = random_answers(match, rng, taken)
    back = min(back, len(answers))
    match.undo(back)
    fresh = Match(SKIRMISH, seed=seed, free_undo=True)
    for value in answers[:len(answers) - back]:
        fresh.decide(value)
    assert match.state_hash() == fresh.state_hash() and match.pending == fresh.pending
    assert [e.to_json() for e in match.log] == [e.to_json() for e in fresh.log]


def test_a_search_holds_the_collector_off_the_old_objects_and_lets_go_at_its_end() -> None:
    """frozen_collector: inside (nested too) the objects alive are frozen out of the cyclic
    collector; the last search to end unfreezes them, so nothing stays frozen after."""
    import gc

    from tabletop.core.engine.match import frozen_collector

    assert gc.get_freeze_count() == 0
    with frozen_collector():
        frozen = gc.get_freeze_count()
        assert frozen > 0
        with frozen_collector():
            assert gc.get_freeze_count() >= frozen
        assert gc.get_freeze_count() >= frozen
    assert gc.get_freeze_count() == 0


def test_a_search_does_not_freeze_the_garbage_dropped_before_it() -> None:
    """frozen_collector: cyclic garbage dropped before a search (the last search's forks)
    is collected, not frozen with the objects alive: a full collection during the search
    frees it. Frozen, it would stay until a full collection ran between two searches, and a
    searched game grew by every decision's forks."""
    import gc
    import weakref

    from tabletop.core.engine.match import frozen_collector

    class Cycle:
        def __init__(self) -> None:
            self.me = self

    gc.collect()
    dropped = Cycle()
    alive = weakref.ref(dropped)
    del dropped
    assert alive() is not None  # a cycle: only the collector frees it
    with frozen_collector():
        gc.collect()
        assert alive() is None


def test_searches_free_in_time_the_old_garbage_dropped_before_them() -> None:
    """frozen_collector: cyclic garbage that grew old before it was dropped (a fork that
    lived through collections) is freed within FULL_COLLECTION_EVERY searches, not frozen
    again by each of them."""
    import gc
    import weakref

    from tabletop.core.engine.match import FULL_COLLECTION_EVERY, frozen_collector

    class Cycle:
        def __init__(self) -> None:
            self.me = self

    kept = Cycle()
    gc.collect()  # kept survives it: it is in the old generation now
    alive = weakref.ref(kept)
    del kept
    for _ in range(FULL_COLLECTION_EVERY):
        with frozen_collector():
            gc.collect()
    assert alive() is None
