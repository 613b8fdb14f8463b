"""Per-side views: what one side may see of a match, built for it, read-only and lazy.

A :class:`View` is what an agent receives. It is a read-only mapping whose entries are
computed from the state the first time they are read, through the filter of
:mod:`.visibility`: another side's hidden pieces show only place, side and kind
``"hidden"``; game variables appear only if declared visible to the side; secret deck piles
show only their size; another player's pending decision shows only whose it is. Each entry is
a fresh copy in plain JSON, so nothing an agent does to a view reaches the match, and an
agent that reads only the entries it needs pays only for those.

A view describes the match at the moment it was made: reading an entry not yet computed
after the match has moved on raises :class:`StaleView` rather than mixing two positions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from .canonical import JSON, thaw
from .errors import TabletopError
from .visibility import is_hidden_from, is_secret_pile, visible_vars

if TYPE_CHECKING:
    from .match import Match


class StaleView(TabletopError):
    """A view's entry was read after the match moved on (take a new view each decision)."""


def _pieces(match: Match, player: str | None) -> tuple[list[dict[str, JSON]], dict[str, list[str]]]:
    state = match.state
    pieces: list[dict[str, JSON]] = []
    stacks: dict[str, list[str]] = {}
    reg = state.pieces
    for loc in sorted(reg.occupied()):
        shown: list[str] = []
        for n, p in enumerate(reg.at(loc)):
            if is_hidden_from(p, player):
                pid = f"hidden:{loc}:{n}"
                pieces.append({"id": pid, "kind": "hidden", "side": p.side, "location": loc})
            else:
                pid = p.id
                pieces.append(thaw(p.to_json()))
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
    pieces, stacks = _pieces(v.match, v.player)
    return {"pieces": pieces, "stacks": stacks}


def _progress(v: View) -> dict[str, JSON]:
    state = v.match.state
    return {"player": v.player, "turn": state.turn, "phase": state.phase, "step": state.step}


def _tracks(v: View) -> dict[str, JSON]:
    return {"tracks": {k: t.value for k, t in sorted(v.match.state.tracks.items())}}


def _deck_piles(v: View) -> dict[str, JSON]:
    return {"decks": _decks(v.match, v.player)}


def _vars(v: View) -> dict[str, JSON]:
    return {"vars": thaw(visible_vars(v.match.game, v.match.state, v.player))}


def _pending(v: View) -> dict[str, JSON]:
    return {"pending": _pending_for(v.match, v.player)}


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

    @property
    def match(self) -> Match:
        """The match this view is of (for the entry builders of this module; agents get the
        view, never the match)."""
        return self._match

    def __getitem__(self, key: str) -> Any:
        try:
            return self._cache[key]
        except KeyError:
            pass
        build = self._ENTRIES.get(key)
        if build is None:
            raise KeyError(key)
        if self._match.progress() != self._stamp:
            raise StaleView(f"this view of {self._player or 'the game master'} is out of date: "
                            "the match has moved on since it was made")
        self._cache.update(build(self))
        return self._cache[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._ENTRIES)

    def __len__(self) -> int:
        return len(self._ENTRIES)

    def __repr__(self) -> str:
        return f"<View of {self._player or 'the game master'}>"

    def to_json(self) -> dict[str, JSON]:
        """The whole view as plain JSON (every entry computed)."""
        return {k: self[k] for k in self._ENTRIES}


def generic_view(match: Match, player: str | None) -> View:
    """The view of ``player`` (see :class:`View`); kept for games that call it by name."""
    return View(match, player)


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
    header = {k: v for k, v in match.header().items() if k not in ("seed", "dice_script")}
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


def as_plain(view: Mapping[str, Any]) -> dict[str, JSON]:
    """A view (or any mapping of JSON) as a plain dict, for saving or sending."""
    to_json = getattr(view, "to_json", None)
    return to_json() if callable(to_json) else dict(view)
