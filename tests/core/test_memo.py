"""The state's memo (tabletop.core.engine.memo): kept while the pieces it derives from stand still,
thrown away by their changes, and made anew with every new state (undo, replay, snapshot)."""

from __future__ import annotations

from collections.abc import Callable

from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import Piece, Pieces
from tabletop.core.engine.registry import load_game, make_agent
from tabletop.core.engine.state import State


def _state() -> State:
    state = State()
    for pid, loc in (("a", "0101"), ("b", "0101"), ("c", "0202")):
        state.pieces.add(Piece(pid, "inf", "A", location=loc))
    return state


def _counting() -> tuple[list[int], Callable[[], int]]:
    built: list[int] = []

    def build() -> int:
        built.append(1)
        return len(built)
    return built, build


def test_on_layout_is_kept_until_a_piece_moves_and_not_after_a_status_change() -> None:
    """An answer about what stands where survives a status change and goes with a move."""
    state = _state()
    built, build = _counting()
    assert state.memo.on_layout("k", build) == 1
    state.pieces["a"].attrs["moved"] = True
    assert state.memo.on_layout("k", build) == 1
    state.pieces.move("a", "0303")
    assert state.memo.on_layout("k", build) == 2
    assert len(built) == 2


def test_on_change_goes_with_any_change_of_a_piece() -> None:
    """An answer about the pieces' status is thrown away when a status changes."""
    state = _state()
    _, build = _counting()
    assert state.memo.on_change("k", build) == 1
    assert state.memo.on_change("k", build) == 1
    state.pieces["c"].attrs["moved"] = True
    assert state.memo.on_change("k", build) == 2


def test_by_place_drops_only_the_places_whose_stack_changed() -> None:
    """A move drops the entries of the places it left and entered, and keeps the others."""
    state = _state()
    table = state.memo.by_place("t")
    table.update({"0101": "ab", "0202": "c", "0404": ""})
    state.pieces.move("c", "0404")
    assert state.memo.by_place("t") == {"0101": "ab"}


def test_another_states_changes_keep_this_memo() -> None:
    """Each state's pieces count their own changes: a change to another state's pieces throws
    away nothing of this state's memo, and a change to its own does."""
    state, other = _state(), _state()
    built, build = _counting()
    assert state.memo.on_change("k", build) == 1
    other.pieces["a"].attrs["moved"] = True
    other.pieces.move("c", "0303")
    assert state.memo.on_change("k", build) == 1
    state.pieces["a"].attrs["moved"] = True
    assert state.memo.on_change("k", build) == 2
    assert len(built) == 2


def test_of_registry_is_kept_across_changes_until_the_registry_is_replaced() -> None:
    """What a game keeps current itself stays through every change to the pieces, and a
    replaced registry (an undo's, a snapshot's) starts it afresh."""
    state = _state()
    kept: dict[str, int] = state.memo.of_registry("k", dict)
    kept["seen"] = 1
    state.pieces.move("a", "0303")
    state.pieces["b"].attrs["moved"] = True
    assert state.memo.of_registry("k", dict) is kept
    state.pieces = Pieces.from_json(state.pieces.to_json())
    assert state.memo.of_registry("k", dict) == {}


def test_a_new_registry_or_a_new_state_starts_from_an_empty_memo() -> None:
    """Replacing the pieces throws everything away; a state rebuilt from JSON has its own."""
    state = _state()
    _, build = _counting()
    state.memo.on_layout("k", build)
    state.memo.by_place("t")["0101"] = "ab"
    state.pieces = Pieces.from_json(state.pieces.to_json())
    assert state.memo.by_place("t") == {}
    assert state.memo.on_layout("k", build) == 2
    again = State.from_json(state.to_json())
    assert again.memo is not state.memo and again.memo.by_place("t") == {}


def test_two_matches_share_no_memo_and_undo_brings_a_fresh_one() -> None:
    """Each match's state has its own memo; an undo (a replay) puts a new state, with a new
    memo, in place, and the same decisions taken again give the same hash as before."""
    game = load_game("iwo_1945")
    one, two = Match(game, seed=3, free_undo=True), Match(game, seed=3, free_undo=True)
    assert one.state.memo is not two.state.memo
    agents = {side: make_agent(game, side, game.default_bot(side), 3) for side in game.info.players}
    one.run(agents, max_decisions=60)
    before, memo, last = one.state_hash(), one.state.memo, one.decisions[-5:]
    one.undo(5)
    assert one.state.memo is not memo
    for value in last:
        one.decide(value)
    assert one.state_hash() == before
    assert one.restart().state.memo is not one.state.memo
