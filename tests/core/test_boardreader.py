"""The board reader (core/engine/boardreader.py): the pieces a view shows by place, id, side and kind, kept
current place by place from the view's board changes, and agreeing with a fresh read."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tabletop.core.engine.boardreader import BoardReader, PlaceIndex
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game
from tabletop.core.engine.views import View

EXAMPLE = str(Path(__file__).resolve().parents[2] / "docs" / "example" / "skirmish")
GAME = load_game(EXAMPLE)


def _plain(reader: BoardReader, sides: Sequence[str]) -> tuple[Any, ...]:
    """Everything a reader answers, as plain values to compare."""
    places = {loc: [dict(p) for p in here] for loc, here in reader.places.items()}
    by_id = {pid: dict(p) for pid, p in reader.by_id().items()}
    by_side = {side: {loc: [dict(p) for p in here] for loc, here in reader.side_at(side).items()}
               for side in sides}
    kinds = {loc: dict(reader.kinds_at(loc)) for loc in reader.places}
    return places, by_id, by_side, kinds


class _Stacks(PlaceIndex):
    """A place index keeping each place's piece count and noting what it was handed."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: dict[str, int] = {}
        self.handed: set[str] = set()

    def clear(self) -> None:
        self.counts = {}

    def drop(self, place: str) -> None:
        self.counts.pop(place, None)
        self.handed.add(place)

    def add(self, place: str, pieces: Sequence[Mapping[str, Any]]) -> None:
        self.counts[place] = len(pieces)


def test_a_reader_kept_from_decision_to_decision_agrees_with_a_fresh_read() -> None:
    """By place, by id, by side and by kind, the reader each side keeps over a whole random
    game reads what a reader made afresh from the view's ``pieces`` reads, and most reads
    are of the changed places alone."""
    sides = GAME.info.players
    match = Match(GAME, seed=3)
    rng = random.Random(3)
    kept = {side: BoardReader() for side in sides}
    for side in sides:  # the side indexes exist from the start, so they are kept current
        kept[side].read(match.view(side)).side_at(side)
    in_part = reads = 0
    while match.pending is not None:
        side = match.pending.player
        view = match.view(side)
        reader = kept[side].read(view)
        reads += 1
        in_part += reader.changed is not None
        fresh = BoardReader().read({"pieces": view["pieces"]})
        assert fresh.changed is None and fresh.revision is None
        assert _plain(reader, sides) == _plain(fresh, sides)
        for pid, p in fresh.by_id().items():
            assert reader.piece(pid) == p
        match.decide_index(rng.randrange(len(match.pending.options)))
    assert reads > 50 and in_part > reads // 2


def test_a_view_showing_the_same_board_reads_no_place() -> None:
    """Read twice at one board revision, the second read changes nothing."""
    match = Match(GAME, seed=1)
    side = GAME.info.players[0]
    reader = BoardReader().read(match.view(side))
    assert reader.changed is None
    held = reader.places
    assert reader.read(match.view(side)).changed == frozenset()
    assert reader.places is held


def test_a_plain_mapping_is_read_in_full_every_time() -> None:
    """A view's JSON tells no revision: every read is a fresh one."""
    match = Match(GAME, seed=1)
    side = GAME.info.players[0]
    plain = {"pieces": match.view(side)["pieces"]}
    reader = BoardReader()
    for _ in range(2):
        assert reader.read(plain).changed is None
        assert reader.revision is None


def test_the_game_masters_view_shows_a_rule_every_piece() -> None:
    """Rules read the board through ``View(match, None)``: no piece hidden, each by its id."""
    match = Match(GAME, seed=2)
    reader = BoardReader().read(View(match, None))
    ids = {p.id for p in match.state.pieces if p.location}
    assert ids <= set(reader.by_id())
    for place, here in reader.places.items():
        assert [p["id"] for p in here] == [p.id for p in match.state.pieces.at(place)]
        assert sum(reader.kinds_at(place).values()) == len(here)
    assert reader.kinds_at("nowhere") == {} and reader.at("nowhere") == ()


def test_a_place_index_is_handed_the_changed_places_alone() -> None:
    """A PlaceIndex is handed every place at a fresh read, then only the places the view
    says changed, and keeps what a fresh index keeps."""
    match = Match(GAME, seed=4)
    rng = random.Random(4)
    side = GAME.info.players[0]
    index = _Stacks()
    index.read(match.view(side))
    for _ in range(200):
        if match.pending is None:
            break
        match.decide_index(rng.randrange(len(match.pending.options)))
        view = match.view(side)
        assert isinstance(view, View)
        since = index.board.revision
        index.handed = set()
        index.read(view)
        changed = index.board.changed
        assert changed is not None and index.handed == set(changed)
        assert since is not None and changed == (view.board_changes(since) or frozenset())
        assert index.counts == _Stacks().read(view).counts
