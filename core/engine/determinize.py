"""Determinization: a fork of a match in which what one side cannot see is drawn again."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .errors import TabletopError

if TYPE_CHECKING:
    from .match import Match


def determinize(match: Match, side: str, rng: random.Random) -> Match:
    """A fork of ``match`` with what is hidden from ``side`` drawn again (see
    :meth:`~.match.Game.determinize`)."""
    raise TabletopError("determinization is not written yet")
