"""No observation, info dict or OpenSpiel string shows a side what its view hides."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

pytest.importorskip("pettingzoo")

import numpy as np

from tabletop.core.board.render import face_down_in_view
from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import Piece
from tabletop.core.engine.visibility import is_hidden_from
from tabletop.env import pettingzoo_env
from tabletop.env.encoding import Encoder

from .conftest import EXAMPLE

HIDING = ["iwo_bonins", "iwo_valor", "manila45", EXAMPLE]
def _names(word: str, text: str) -> bool:
    """Whether ``text`` names ``word`` as a whole (hex 2312 does not name unit 312)."""
    return re.search(rf"(?<![\w/]){re.escape(word)}(?![\w/])", text) is not None


IDENTITY = ("kind", "name", "values", "face", "steps", "max_steps", "attrs")


@contextmanager
def redrawn(match: Match, side: str, rng: random.Random) -> Iterator[None]:
    """Within the block, the identities (kind, name, values, face, steps, status) of the
    pieces ``side``'s view does not show are dealt again among the hidden pieces of each
    side: what ``side`` cannot see is changed, nothing else; put back after."""
    down = face_down_in_view(match, side)
    by_side: dict[str, list[Piece]] = {}
    for piece in match.state.pieces:
        if down(piece):
            by_side.setdefault(piece.side, []).append(piece)
    kept = {p.id: tuple(getattr(p, f) for f in IDENTITY) for ps in by_side.values() for p in ps}
    try:
        for pieces in by_side.values():
            identities = [kept[p.id] for p in pieces]
            rng.shuffle(identities)
            for piece, identity in zip(pieces, identities, strict=True):
                _set(piece, identity)
        yield
    finally:
        for pieces in by_side.values():
            for piece in pieces:
                _set(piece, kept[piece.id])


def _set(piece: Piece, identity: tuple[object, ...]) -> None:
    for field, value in zip(IDENTITY, identity, strict=True):
        setattr(piece, field, value)


@pytest.mark.parametrize("game", HIDING)
def test_observations_do_not_change_when_hidden_pieces_are_drawn_again(game: str) -> None:
    """At every step of random episodes, each side's observation of the match equals its
    observation of a fork in which every piece hidden from it is dealt another identity,
    and no info dict names a piece hidden from its agent."""
    env = pettingzoo_env(game, max_steps=120)
    rng = random.Random(7)
    other = Encoder(env.game, env.table.new_match(0))
    hidden_seen = 0
    for seed in (1, 2):
        env.reset(seed=seed)
        for _agent in env.agent_iter(120):
            obs, _, terminated, truncated, _info = env.last()
            match = env.match
            for side in env.possible_agents:
                secret = [p for p in match.state.pieces if is_hidden_from(p, side)]
                hidden_seen += len(secret)
                mine = env.observe(side)
                with redrawn(match, side, rng):
                    other.forget()
                    theirs = other.observe(match, side)
                for key in ("board", "vector", "action_mask"):
                    assert np.array_equal(mine[key], theirs[key]), (side, key, len(match.decisions))
                said = repr(env.infos.get(side, {}))
                leaked = [p.id for p in secret if _names(p.id, said) or (p.name and _names(p.name, said))]
                assert not leaked, (side, leaked, said)
            env.step(None if terminated or truncated else
                     rng.choice(list(np.flatnonzero(obs["action_mask"]))))
    assert hidden_seen, "the episodes met no hidden piece: the test proved nothing"
