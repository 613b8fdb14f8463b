"""Per-side views: what one side may see of a match, built for it, read-only and lazy.

A :class:`View` is what an agent receives. It is a read-only mapping whose entries are
computed from the state the first time they are read, through the filter of
:mod:`.visibility`: another side's hidden pieces show only place, side and kind
``"hidden"``; game variables appear only if declared visible to the side; secret deck piles
show only their size; another player's pending decision shows only whose it is. Each entry is
made of new lists and dicts, a piece's values and attrs being read-only windows
(``MappingProxyType``) rather than copies, so nothing an agent does to a view reaches the
match, and an agent that reads only the entries it needs pays only for those.

A view describes the match at the moment it was made: reading an entry not yet computed
after the match has moved on raises :class:`StaleView` rather than mixing two positions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from .canonical import JSON, thaw
from .errors import TabletopError
from .visibility import is_secret_pile, visible_vars

if TYPE_CHECKING:
    from .match import Match
    from .pieces import Piece


class StaleView(TabletopError):
    """A view's entry was read after the match moved on (take a new view each decision)."""


_SCALARS = (str, int, float, bool, type(None))


def _copy(value: JSON) -> JSON:
    """A copy of a JSON value, scalars as they are (what thaw does, faster where it is flat)."""
    if isinstance(value, Mapping):
        return {k: v if isinstance(v, _SCALARS) else _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [v if isinstance(v, _SCALARS) else _copy(v) for v in value]
    return value


_SCALAR_TYPES = frozenset({str, int, float, bool, type(None)})


def _read_only(value: Any) -> Any:
    """A read-only window on state data: dicts as proxies (nested ones too), lists as tuples;
    scalars as they are."""
    kind = type(value)
    if kind in _SCALAR_TYPES:
        return value
    if kind is dict:
        for v in value.values():
            if type(v) not in _SCALAR_TYPES:
                return MappingProxyType({k: _read_only(v) for k, v in value.items()})
        return MappingProxyType(value)
    if kind is list or kind is tuple:
        return tuple(_read_only(v) for v in value)
    return _copy(value)


_NO_ATTRS: Mapping[str, Any] = MappingProxyType({})


def piece_view(p: Piece, cache: dict[str, tuple[Any, Any]]) -> dict[str, Any]:
    """A piece as a view shows it: a new dict of its fields as they are now, its values and
    attrs through read-only windows, so that nothing an agent does reaches the piece. ``cache``
    keeps each piece's window on its printed values from one view to the next (a live window:
    reusing one shows the same as making it anew)."""
    held = cache.get(p.id)
    if held is None or held[0] is not p.values:
        held = (p.values, MappingProxyType({f: MappingProxyType(v) for f, v in p.values.items()}))
        cache[p.id] = held
    return {"id": p.id, "kind": p.kind, "side": p.side, "name": p.name, "location": p.location,
            "face": p.face, "steps": p.steps, "max_steps": p.max_steps, "values": held[1],
            "hidden": p.hidden, "attrs": _read_only(p.attrs) if p.attrs else _NO_ATTRS}


def _plain(value: Any) -> JSON:
    """A view's entry as plain JSON: piece views and read-only windows copied out."""
    if isinstance(value, Mapping):
        return _copy(value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _pieces(view: View) -> tuple[list[Mapping[str, JSON]], dict[str, list[str]]]:
    match, player = view._match, view._player
    state = match.state
    pieces: list[Mapping[str, JSON]] = []
    stacks: dict[str, list[str]] = {}
    reg = state.pieces
    cache = match.view_cache
    for loc in sorted(reg.occupied()):
        shown: list[str] = []
        for n, p in enumerate(reg.at(loc)):
            if p.hidden and player is not None and p.side != player:  # visibility.is_hidden_from
                pid = f"hidden:{loc}:{n}"
                pieces.append({"id": pid, "kind": "hidden", "side": p.side, "location": loc})
            else:
                pid = p.id
                pieces.append(piece_view(p, cache))
            shown.append(pid)
        stacks[loc] = shown
    return pieces, stacks


def _decks(match: Match, player: str | None) -> dict[str, JSON]:
    decks: dict[str, JSON] = {}
    game = match.game
    for deck_id, deck in sorted(match.state.decks.items()):
        piles: dict[str, JSON] = {}
        for name, cards in sorted(deck.piles.items()):
            piles[name] = {"count": len(cards)} if is_secret_pile(game, name, player) else list(cards)
        decks[deck_id] = piles
    return decks


def _pending_for(match: Match, player: str | None) -> dict[str, JSON] | None:
    """The pending decision in full for its own player; for the others, only who decides."""
    pending = match.pending
    if pending is None:
        return None
    if player is None or pending.player == player:
        full: dict[str, JSON] = thaw(pending.to_json())
        return full
    return {"player": pending.player, "section": pending.section}


Entries = Callable[["View"], dict[str, JSON]]
"""Computes one or more entries of a view (pieces and stacks come together)."""


def _board(v: View) -> dict[str, JSON]:
    pieces, stacks = _pieces(v)
    return {"pieces": pieces, "stacks": stacks}


def _progress(v: View) -> dict[str, JSON]:
    state = v._match.state
    return {"player": v.player, "turn": state.turn, "phase": state.phase, "step": state.step}


def _tracks(v: View) -> dict[str, JSON]:
    return {"tracks": {k: t.value for k, t in sorted(v._match.state.tracks.items())}}


def _deck_piles(v: View) -> dict[str, JSON]:
    return {"decks": _decks(v._match, v.player)}


def _vars(v: View) -> dict[str, JSON]:
    return {"vars": thaw(visible_vars(v._match.game, v._match.state, v.player))}


def _pending(v: View) -> dict[str, JSON]:
    return {"pending": _pending_for(v._match, v.player)}


class View(Mapping[str, Any]):
    """What one side (or, with ``player=None``, the game master) may see of a match now.

    Keys: ``player``, ``turn``, ``phase``, ``step``, ``pieces`` (a list of piece objects, place
    by place, each stack top first), ``stacks`` (place -> piece ids shown), ``tracks``
    (id -> value), ``decks`` (deck -> pile -> cards, or ``{"count": n}``), ``vars`` (the
    declared visible game variables) and ``pending`` (the decision, in full only for its
    own player).
    """

    __slots__ = ("_cache", "_match", "_player", "_stamp")

    _ENTRIES: ClassVar[dict[str, Entries]] = {
        "player": _progress, "turn": _progress, "phase": _progress, "step": _progress,
        "pieces": _board, "stacks": _board,
        "tracks": _tracks, "decks": _deck_piles, "vars": _vars, "pending": _pending,
    }

    def __init__(self, match: Match, player: str | None) -> None:
        self._match = match
        self._player = player
        self._cache: dict[str, JSON] = {}
        self._stamp = match.progress()

    @property
    def player(self) -> str | None:
        """The side this view is for (None: the game master)."""
        return self._player


    def __getitem__(self, key: str) -> Any:
        try:
            return self._cache[key]
        except KeyError:
            pass
        build = self._ENTRIES.get(key)
        if build is None:
            raise KeyError(key)
        self.check_current()
        self._cache.update(build(self))
        return self._cache[key]

    def check_current(self) -> None:
        """Raise StaleView if the match has moved on since this view was made."""
        if self._match.progress() != self._stamp:
            raise StaleView(f"this view of {self._player or 'the game master'} is out of date: "
                            "the match has moved on since it was made")

    def __iter__(self) -> Iterator[str]:
        return iter(self._ENTRIES)

    def __len__(self) -> int:
        return len(self._ENTRIES)

    def __repr__(self) -> str:
        return f"<View of {self._player or 'the game master'}>"

    def to_json(self) -> dict[str, JSON]:
        """The whole view as plain JSON (every entry computed, pieces copied out)."""
        return {k: _plain(self[k]) for k in self._ENTRIES}


SIDE_SAVE_FORMAT = "tabletop-side-save/1"
"""The format of a side's save (see :func:`make_side_save`)."""


def make_side_save(match: Match, player: str) -> dict[str, JSON]:
    """What one side may keep of a match, for play by e-mail: the header without the seed
    (the seed and the other side's choices would tell everything), that side's view and log,
    and the game master's state hash to check it against. It cannot be resumed or replayed;
    the game master's save does that."""
    if player not in match.game.info.players:
        raise TabletopError(f"game {match.game.info.id} has no side {player!r} "
                            f"(sides: {', '.join(match.game.info.players)})")
    # The seed, scripted or forced dice, a starting position (it places hidden units) and an
    # edited match's origin (its seed and decisions) are the game master's alone.
    secret = ("seed", "dice_script", "forced_dice", "position", "edited_from")
    header = {k: v for k, v in match.header().items() if k not in secret}
    return {
        "format": SIDE_SAVE_FORMAT,
        "side": player,
        "header": header,
        "decisions_taken": len(match.decisions),
        "state_hash": match.state_hash(),
        "finished": match.finished,
        "result": match.result.to_json() if match.result else None,
        "view": View(match, player).to_json(),
        "log": [e.to_json() for e in match.log.visible(player)],
    }
