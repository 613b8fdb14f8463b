"""Views share one board between decisions (core/engine/views.py SharedBoard): what a side is shown
must be exactly what a board built afresh shows, whatever changed in between."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import Attrs, Piece, Pieces, RevisionClock
from tabletop.core.engine.registry import load_game
from tabletop.core.engine.views import SharedBoard, View

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "docs" / "example" / "skirmish")


def _view(match: Match, player: str | None) -> View:
    """A side's view of the match, as the :class:`View` every game here returns."""
    view = match.view(player)
    assert isinstance(view, View), type(view)
    return view


def _afresh(match: Match, player: str | None) -> tuple[list[dict[str, Any]], dict[str, list[str]]]:
    board = SharedBoard()
    reg = match.state.pieces
    stacks = {k: list(v) for k, v in board.stacks(reg, player).items()}
    return [dict(p) for p in board.pieces(reg, player)], stacks


def _shown(match: Match, player: str | None) -> tuple[list[dict[str, Any]], dict[str, list[str]]]:
    view = View(match, player)
    return [dict(p) for p in view["pieces"]], view["stacks"]


def _check_every_side(match: Match, last: dict[str | None, Any] | None = None) -> None:
    """Every side's view equals a board built afresh; with ``last`` (side -> what it was shown
    and the board revision then, kept between calls), the revision moved whenever what the
    side is shown changed."""
    for player in (*match.game.info.players, None):
        shown = _shown(match, player)
        assert shown == _afresh(match, player), f"the view of {player} after " \
            f"decision {len(match.decisions)}"
        if last is not None:
            revision = View(match, player).board_revision
            if player in last:
                before, then = last[player]
                assert revision != then or shown == before, f"the board revision of " \
                    f"{player} after decision {len(match.decisions)}"
            last[player] = (shown, revision)


@pytest.mark.parametrize("name", [EXAMPLE, "iwo_bonins", "iwo_1945"])
def test_the_shared_board_equals_a_board_built_afresh_after_every_decision(name: str) -> None:
    """Views (hidden information): after every decision of a random game, every side's pieces
    and stacks (and the game master's) are those of a board built from scratch: hidden
    pieces, changed statuses, moves and reveals all show at once."""
    game = load_game(name)
    rng = random.Random(3)
    match = Match(game, seed=3)
    last: dict[str | None, Any] = {}
    for _ in range(400 if name == EXAMPLE else 250):
        if match.pending is None:
            break
        _check_every_side(match, last)
        match.decide_index(rng.randrange(len(match.pending.options)))
    _check_every_side(match, last)


def test_changes_made_by_hand_show_in_the_next_view() -> None:
    """Views: a piece's fields and status changed directly (not by the rules' usual helpers),
    including a list inside its status changed in place, show in the next view."""
    match = Match(load_game(EXAMPLE), seed=1)
    piece = next(p for p in match.state.pieces if p.side == "Blue")
    last: dict[str | None, Any] = {}
    _check_every_side(match, last)
    piece.attrs["orders"] = ["hold"]
    _check_every_side(match, last)
    piece.attrs["orders"].append("fire")  # in place: not stamped, compared with a copy
    shown = next(p for p in View(match, "Blue")["pieces"] if p["id"] == piece.id)
    assert shown["attrs"]["orders"] == ("hold", "fire")
    _check_every_side(match, last)
    piece.attrs["flat"] = 1  # a flat status is shown through a live window: still a change
    _check_every_side(match, last)
    piece.hidden = True
    _check_every_side(match, last)
    piece.steps, piece.face = 0, "back"
    del piece.attrs["orders"]
    _check_every_side(match, last)
    match.state.pieces.to_top(piece.id)
    match.state.pieces.move(piece.id, "0101")
    _check_every_side(match, last)


def test_the_board_revision_is_blind_to_what_a_side_may_not_see() -> None:
    """Views (hidden information): a hidden piece's change that shows no differently to the
    other side leaves that side's board revision as it was; its owner's moves on; the
    numbers of two matches never meet."""
    match = Match(load_game(EXAMPLE), seed=1)
    piece = next(p for p in match.state.pieces if p.side == "Blue")
    piece.hidden = True
    red, blue = View(match, "Red").board_revision, View(match, "Blue").board_revision
    piece.attrs["orders"] = "advance"
    piece.face = "back"
    assert View(match, "Red").board_revision == red
    assert View(match, "Blue").board_revision != blue
    other = Match(load_game(EXAMPLE), seed=1)
    assert View(other, "Red").board_revision not in (red, View(match, "Red").board_revision)


def test_a_status_stamps_its_changes() -> None:
    """Pieces (revisions): every way of changing the status or fields of a piece on the table
    moves its stamps, and a status given as a plain dict is kept as a copy that stamps."""
    given = {"n": 1}
    piece = Pieces([Piece("x", "unit", "A", location="a", attrs=given)])["x"]
    assert isinstance(piece.attrs, Attrs) and piece.attrs == given and piece.attrs is not given
    changes: tuple[Callable[[Attrs], object], ...] = (
        lambda a: a.__setitem__("m", 2), lambda a: a.pop("m"), lambda a: a.update(k=3),
        lambda a: a.setdefault("z", 0), lambda a: a.__delitem__("z"), lambda a: a.popitem(),
        lambda a: a.clear())
    for change in changes:
        before = piece.attrs.revision
        change(piece.attrs)
        assert piece.attrs.revision > before
    before = piece.revision
    piece.face = "back"
    assert piece.revision > before
    reg = Pieces([Piece("y", "unit", "A", location="a")])
    layout = reg.layout
    reg.move("y", "b")
    assert reg.layout > layout and reg.stamps["a"] > layout and reg.stamps["b"] > layout


def _by_place(match: Match, player: str | None) -> dict[str, list[dict[str, Any]]]:
    """The view's pieces grouped by place, in the view's order (a copy of each)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for p in match.view(player)["pieces"]:
        out.setdefault(p["location"], []).append(dict(p))
    return out


@pytest.mark.parametrize("name", [EXAMPLE, "iwo_bonins", "iwo_1945", "manila45"])
def test_board_places_and_changes_follow_the_pieces_after_every_decision(name: str) -> None:
    """Views (hidden information): a view's pieces by place (``board_places``, read-only
    windows, no copies) are its ``pieces`` entry grouped by place, for every side (a game's own
    view too: manila45 hides more), after every decision of a random game; ``board_changes``
    since a side's earlier revision names every place it now sees differently."""
    game = load_game(name)
    rng = random.Random(5)
    match = Match(game, seed=5)
    last: dict[str | None, tuple[int, dict[str, list[dict[str, Any]]]]] = {}
    for _ in range(300 if name == EXAMPLE else 200):
        for player in (*game.info.players, None):
            view = _view(match, player)
            places = view.board_places()
            plain = {loc: [dict(p) for p in ps] for loc, ps in places.items()}
            assert plain == _by_place(match, player), f"{player} after {len(match.decisions)}"
            for ps in places.values():
                with pytest.raises(TypeError):
                    ps[0]["location"] = "elsewhere"  # type: ignore[index]
            revision = view.board_revision
            if player in last:
                then, before = last[player]
                changed = view.board_changes(then)
                if changed is not None:
                    differ = {loc for loc in before.keys() | plain.keys()
                              if before.get(loc) != plain.get(loc)}
                    assert differ <= changed, f"{player} after {len(match.decisions)}"
                    if revision == then:
                        assert not changed
            last[player] = (revision, plain)
        if match.pending is None:
            break
        match.decide_index(rng.randrange(len(match.pending.options)))


def test_board_changes_cannot_tell_for_a_revision_it_does_not_know() -> None:
    """Views: ``board_changes`` since a revision of another match, or one too old, says it
    cannot tell (None) rather than naming too few places."""
    match = Match(load_game(EXAMPLE), seed=1)
    other = Match(load_game(EXAMPLE), seed=1)
    theirs = _view(other, "Blue").board_revision
    assert _view(match, "Blue").board_changes(theirs) is None
    now = _view(match, "Blue").board_revision
    assert _view(match, "Blue").board_changes(now) == frozenset()
    piece = next(p for p in match.state.pieces if p.side == "Blue")
    for n in range(SharedBoard._KEPT + 1):
        piece.attrs["n"] = n
        _view(match, "Blue").board_revision  # noqa: B018 - a new revision each time
    assert _view(match, "Blue").board_changes(now) is None


@pytest.mark.parametrize("name", [EXAMPLE, "iwo_bonins", "iwo_1945", "manila45"])
def test_single_entries_read_alone_equal_the_whole_entries(name: str) -> None:
    """Views (hidden information): a variable, a deck pile and a track read alone (``var``,
    ``pile``, ``track``) are what the whole ``vars``, ``decks`` and ``tracks`` entries show
    that side, and a variable it may not read is refused, after every decision of a random
    game."""
    game = load_game(name)
    rng = random.Random(7)
    match = Match(game, seed=7)
    for _ in range(120):
        for player in (*game.info.players, None):
            whole = _view(match, player)
            seen = whole["vars"]
            for var in match.state.vars:
                if var in seen:
                    assert _view(match, player).var(var) == seen[var]
                    assert whole.var(var) == seen[var]  # from the entry already read
                else:
                    with pytest.raises(KeyError):
                        _view(match, player).var(var)
            for deck_id, piles in whole["decks"].items():
                for pile, shown in piles.items():
                    assert _view(match, player).pile(deck_id, pile) == shown
            assert _view(match, player).pile("no such deck", "draw") is None
            for track, value in whole["tracks"].items():
                assert _view(match, player).track(track) == value
        if match.pending is None:
            break
        match.decide_index(rng.randrange(len(match.pending.options)))


def test_the_board_follows_the_pieces_when_the_journal_has_moved_on() -> None:
    """Views (revision journal): after more changes than the pieces' journal keeps, and after
    a piece's status is replaced and then changed, every side's view still equals a board
    built afresh."""
    match = Match(load_game(EXAMPLE), seed=1)
    last: dict[str | None, Any] = {}
    _check_every_side(match, last)
    piece = next(p for p in match.state.pieces if p.side == "Blue")
    piece.attrs["n"] = 1  # then noted no more: the journal moves on with the changes below
    elsewhere = next(p for p in match.state.pieces if p is not piece)
    for n in range(2 * RevisionClock.KEPT + 10):
        elsewhere.attrs["n"] = n
    _check_every_side(match, last)
    piece.attrs = {"orders": "hold"}
    _check_every_side(match, last)
    piece.attrs["orders"] = "advance"
    _check_every_side(match, last)
    assert next(p for p in View(match, "Blue")["pieces"] if p["id"] == piece.id)["attrs"] \
        == {"orders": "advance"}


def test_a_games_stack_view_decides_what_a_side_sees_of_a_stack() -> None:
    """Views (hidden information): a game whose rules hide more of a stack than its face-down
    pieces says so with ``Game.stack_view``; every view of that side shows the pieces it
    names as hidden counters, in ``pieces``, ``stacks`` and ``board_places`` alike, after
    every decision, while the other side and the game master see as the core shows."""
    example = load_game(EXAMPLE)

    class Screened(type(example)):  # type: ignore[misc]
        """The example, where Red sees only the top unit of a Blue stack."""

        def stack_view(self, place: str, stack: Any, viewer: str) -> list[bool]:
            return [(p.hidden and p.side != viewer) or (viewer == "Red" and p.side == "Blue" and n >= 1)
                    for n, p in enumerate(stack)]

    rng = random.Random(7)
    match = Match(Screened(), seed=7)
    screened = 0
    for _ in range(300):
        reg = match.state.pieces
        view = View(match, "Red")
        for loc, ids in view["stacks"].items():
            for n, (pid, shown) in enumerate(zip(reg.stack(loc), ids, strict=True)):
                hidden = (pid.hidden and pid.side != "Red") or (pid.side == "Blue" and n >= 1)
                assert shown == (f"hidden:{loc}:{n}" if hidden else pid.id), (loc, n)
                screened += pid.side == "Blue" and n >= 1
        listed = {p["id"]: p for p in view["pieces"]}
        assert set(listed) == {i for ids in view["stacks"].values() for i in ids}
        assert {loc: [p["id"] for p in ps] for loc, ps in view.board_places().items()} == \
            view["stacks"]
        for player in ("Blue", None):
            assert _shown(match, player) == _afresh(match, player)
        if match.pending is None:
            break
        match.decide_index(rng.randrange(len(match.pending.options)))
    assert screened > 0  # the test means something: Blue stacks were seen by Red
