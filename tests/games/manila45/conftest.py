"""Positions for Manila '45 rule tests: a match past set-up, pieces moved by hand."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.match import Match
from tabletop.core.engine.views import View
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


def seen(match: Match, side: str) -> dict[str, JSON]:
    """What a side sees of the match, as the JSON its view serialises to."""
    view = match.view(side)
    assert isinstance(view, View), type(view)
    return view.to_json()


@pytest.fixture
def make_position() -> Callable[..., Match]:
    """The position builder above, for tests that take it as a fixture."""
    return position
