"""Positions for Manila '45 rule tests: a match past set-up, pieces moved by hand."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from tabletop.core.match import Match
from tabletop.games.manila45 import GAME
from tabletop.games.manila45 import common as c
from tabletop.games.manila45.bots import heuristic_setup


def bot_setup(seed: int = 0) -> dict[str, str]:
    """The Japanese bot's set-up as the 'setup' option mapping."""
    return dict(heuristic_setup(Match(GAME, seed=seed), seed))


def position(japan: Mapping[str, str], us: Mapping[str, str], *, turn: int = 3,
             options: Mapping[str, object] | None = None) -> Match:
    """A match whose only units on the map are the given ones (others in the dead piles or
    their boxes), on the given turn, with these game options; Japanese units placed here
    are still face down."""
    m = Match(GAME, seed=0, options={"setup": bot_setup(), **(options or {})})
    pieces = m.state.pieces
    for p in list(pieces):
        if p.side == "Japan":
            pieces.move(p.id, japan.get(p.id, c.JP_DEAD))
            p.attrs["setup_hex"] = p.location
        elif p.side == "US" and p.id in us:
            pieces.move(p.id, us[p.id])
    m.state.turn = turn
    return m


@pytest.fixture
def make_position():
    return position
