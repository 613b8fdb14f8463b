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


def _check_every_side(match: Match) -> None:
    for player in (*match.game.info.players, None):
        assert _shown(match, player) == _afresh(match, player), f"the view of {player} after " \
            f"decision {len(match.decisions)}"


@pytest.mark.parametrize("name", [EXAMPLE, "iwo_bonins", "iwo_1945"])
def test_the_shared_board_equals_a_board_built_afresh_after_every_decision(name: str) -> None:
    """Views (hidden information): after every decision of a random game, every side's pieces
    and stacks (and the game master's) are those of a board built from scratch: hidden
    pieces, changed statuses, moves and reveals all show at once."""
    game = load_game(name)
    rng = random.Random(3)
    match = Match(game, seed=3)
    for _ in range(400 if name == EXAMPLE else 250):
        if match.pending is None:
            break
        _check_every_side(match)
        match.decide_index(rng.randrange(len(match.pending.options)))
    _check_every_side(match)


def test_changes_made_by_hand_show_in_the_next_view() -> None:
    """Views: a piece's fields and status changed directly (not by the rules' usual helpers),
    including a list inside its status changed in place, show in the next view."""
    match = Match(load_game(EXAMPLE), seed=1)
    piece = next(p for p in match.state.pieces if p.side == "Blue")
    _check_every_side(match)
    piece.attrs["orders"] = ["hold"]
    _check_every_side(match)
    piece.attrs["orders"].append("fire")  # in place: not stamped, compared with a copy
    shown = next(p for p in View(match, "Blue")["pieces"] if p["id"] == piece.id)
    assert shown["attrs"]["orders"] == ("hold", "fire")
    _check_every_side(match)
    piece.hidden = True
    _check_every_side(match)
    piece.steps, piece.face = 0, "back"
    del piece.attrs["orders"]
    _check_every_side(match)
    match.state.pieces.to_top(piece.id)
    match.state.pieces.move(piece.id, "0101")
    _check_every_side(match)


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
