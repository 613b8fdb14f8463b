"""Snapshots keep the decision as it was asked: a game may change a decision object once it
is answered (a list in its context it goes on filling), and undo, forks and the restore
point of a save still start from the snapshot, not from a replay of the whole game."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from tabletop.core.designer.testing import check_resume
from tabletop.core.engine.decisions import Decision, Option, ResumePoint, asks_digest
from tabletop.core.engine.errors import SaveError
from tabletop.core.engine.match import Flow, Game, Match, Result
from tabletop.core.engine.registry import load_game, make_agent, registered
from tabletop.core.engine.resume import restore_point
from tabletop.games.iwo_1945 import GAME as IWO_1945

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE = load_game(str(ROOT / "benchmarks" / "tictactoe"))


def _first_resumes(flow: Flow, scribble: bool) -> Flow:
    """``flow`` with only its first decision asked again from a resume point, and (when
    ``scribble``) every decision's context changed once it is answered (the answer written
    into it)."""
    first, value = True, None
    while True:
        try:
            asked = next(flow) if first else flow.send(value)
        except StopIteration as stop:
            ended: Result | None = stop.value
            return ended
        shown = asked if first else dataclasses.replace(asked, resume=None)
        first = False
        value = yield shown
        if scribble:
            shown.context.setdefault("answers", []).append(value)


class FirstResumes(type(TICTACTOE)):  # type: ignore[misc]
    """Tic-tac-toe whose flow can be entered again only at its first move: a fork or a save
    later in the game starts from the snapshot taken there."""

    scribble = False

    def play(self, match: Match) -> Flow:
        return _first_resumes(super().play(match), self.scribble)

    def resume_flow(self, match: Match, point: ResumePoint) -> Flow:
        return _first_resumes(super().resume_flow(match, point), self.scribble)


class Scribbling(FirstResumes):
    """FirstResumes writing each answer into the context of the decision it answers."""

    scribble = True


class AsksAnother(type(TICTACTOE)):  # type: ignore[misc]
    """Tic-tac-toe whose flow, entered again, asks another question than the one marked."""

    def resume_flow(self, match: Match, point: ResumePoint) -> Flow:
        yield Decision("x", "something else?", "move", (Option(0, "cell 0"),), resume=point)
        return None


@pytest.fixture
def restarts(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the matches started again from the beginning (an undo or fork that replays
    the whole game rather than starting from a snapshot)."""
    made: list[int] = []
    start = Match.restart

    def counted(self: Match) -> Match:
        made.append(len(self.decisions))
        return start(self)

    monkeypatch.setattr(Match, "restart", counted)
    yield made


def test_a_decision_changed_after_its_answer_still_serves_its_snapshot(restarts: list[int]) -> None:
    """The first move's decision, its context written to once answered, is the snapshot's:
    a fork at a later decision (which cannot be asked again) and an undo start from it."""
    match = Match(Scribbling(), seed=3)
    first = match.pending
    assert first is not None
    asked = asks_digest(first)
    for cell in (4, 0, 8):
        match.decide(cell)
    assert asks_digest(first) != asked  # the game did change it
    twin = match.fork()
    assert twin.forked_by == "snapshot 0"
    snap = match.last_snapshot()
    assert snap is not None and snap.at == 0 and snap.asks == asked
    assert twin.state_hash() == match.state_hash() and twin.pending == match.pending
    match.undo(2)
    assert restarts == []
    again = Match(Scribbling(), seed=3)
    again.decide(4)
    assert match.state_hash() == again.state_hash() and match.decisions == [4]
    assert match.asked_again(snap) is not None


def test_a_snapshot_asking_another_decision_is_not_a_restore_point() -> None:
    """A snapshot whose flow, entered again, asks another decision than the one asked when
    it was taken serves neither a fork nor a save: the fork replays, the save has no
    restore point there."""
    match = Match(Scribbling(), seed=3)
    match.decide(4)
    snap = match.last_snapshot()
    assert snap is not None
    assert match.pending is not None
    other = Decision("x", "another question?", "move", match.pending.options)
    match._snapshots[-1] = dataclasses.replace(snap, asks=asks_digest(other))
    assert match.asked_again(match._snapshots[-1]) is None
    assert match.fork().forked_by == "replay"
    assert restore_point(match) is None


def _snapshots_at_attack_dice(seed: int) -> tuple[Match, list[int]]:
    """A whole Iwo Jima 1945 game of the default bots allowing free undo, and the decisions
    its snapshots were taken at that chose dice to reroll (whose ``chosen`` list the rules
    went on filling after the answer)."""
    match = Match(IWO_1945, seed=seed, free_undo=True)
    sides = {s: make_agent(IWO_1945, s, IWO_1945.default_bot(s), seed)
             for s in IWO_1945.info.players}
    kinds: dict[int, str] = {}
    while match.pending is not None:
        decision = match.pending
        kinds[len(match.decisions)] = decision.kind
        match.decide(sides[decision.player].choose(match.view(decision.player), decision))
    return match, [s.at for s in match._snapshots if kinds[s.at] == "attack_dice"]


def test_iwo_1945_undoes_from_a_snapshot_taken_at_a_reroll_choice(restarts: list[int]) -> None:
    """6.0: undone to just after a snapshot taken where the USMC chose dice to reroll, the
    match starts from that snapshot (none replayed from the start) and reaches the state of
    the game replayed to there."""
    match, points = _snapshots_at_attack_dice(1)
    assert points, "no snapshot at a choice of dice to reroll"
    for at in points:  # the way undo (and a fork that cannot resume) goes back to there
        assert match._rewound(at + 1).forked_by == f"snapshot {at}"
    at = points[-1]
    answers = list(match.decisions)
    snap = next(s for s in match._snapshots if s.at == at)
    assert match.asked_again(snap) is not None
    match.undo(len(answers) - at - 1)
    assert restarts == []
    fresh = Match(IWO_1945, seed=1, free_undo=True)
    for value in answers[:at + 1]:
        fresh.decide(value)
    assert match.state_hash() == fresh.state_hash() and match.pending == fresh.pending
    assert [e.to_json() for e in match.log] == [e.to_json() for e in fresh.log]


@pytest.mark.parametrize("game", [TICTACTOE, FirstResumes()], ids=["tictactoe", "first-resumes"])
def test_the_resume_check_holds_games_whose_saves_restore(game: Game, tmp_path: Path) -> None:
    """check_resume passes a game whose saves restore from their restore points: the
    pending decision's, or (where it cannot be asked again) the last snapshot's."""
    made = check_resume(game, range(3), agents={"x": "random", "o": "random"}, every=1,
                        folder=tmp_path)
    assert made["restored"] >= 15 and made["replayed"] == 0


def test_the_resume_check_fails_a_game_changing_a_decision_once_answered() -> None:
    """check_resume fails a game that changes a decision it asked once it is answered."""
    with pytest.raises(AssertionError, match=r"decision 1 .* was changed after it was answered"):
        check_resume(Scribbling(), range(1), agents={"x": "random", "o": "random"})


def test_the_resume_check_fails_a_game_whose_resume_point_asks_another_decision() -> None:
    """check_resume fails a game whose save does not resume: its flow, entered again at the
    restore point, asks another decision than the one saved."""
    with pytest.raises(SaveError, match="does not ask the decision the save states"):
        check_resume(AsksAnother(), range(1), agents={"x": "random", "o": "random"})


GAMES = [*sorted(n for n in registered() if load_game(n).info.playable),
         str(ROOT / "docs" / "example" / "skirmish")]


@pytest.mark.parametrize("name", GAMES, ids=[Path(n).name for n in GAMES])
def test_every_game_resumes_its_saves_from_their_restore_points(name: str, tmp_path: Path) -> None:
    """Every installed game and the example, saved every 16 decisions of the first 128 of
    two games of its default bots, resumes each save from its restore point (no replay) to
    the match as it was, which goes on alike; and changes no decision once it is answered."""
    made = check_resume(load_game(name), range(2), every=16, max_decisions=128, folder=tmp_path)
    assert made["restored"] >= 4 and made["replayed"] == 0
