"""Views share one board between decisions (core/views.py SharedBoard): what a side is shown
must be exactly what a board built afresh shows, whatever changed in between."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tabletop.core.match import Match
from tabletop.core.pieces import Attrs, Piece, Pieces
from tabletop.core.registry import load_game
from tabletop.core.views import SharedBoard, View

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "docs" / "example" / "skirmish")


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
    """Pieces (revisions): every way of changing a piece's status or fields moves its stamps,
    and a status given as a plain dict is kept as a copy that stamps."""
    given = {"n": 1}
    piece = Piece("x", "unit", "A", attrs=given)
    assert isinstance(piece.attrs, Attrs) and piece.attrs == given and piece.attrs is not given
    for change in (lambda a: a.__setitem__("m", 2), lambda a: a.pop("m"), lambda a: a.update(k=3),
                   lambda a: a.setdefault("z", 0), lambda a: a.__delitem__("z"), lambda a: a.popitem(),
                   lambda a: a.clear()):
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
