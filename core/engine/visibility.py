"""Who may see what: the visibility model of game variables, and the secrets of each side.

Everything a side is shown (its view, its log, its pending decision, a map drawn for it)
comes from the state through one filter, and this module holds the filter's rules:

- a *game variable* (``state.vars``) is private to the game master unless the game declares
  it in :attr:`Game.var_visibility` as ``"public"`` or as the sides that may read it;
- a *piece* with ``hidden=True`` shows another side only its place, its side and the kind
  ``"hidden"``: no id, name, values or status;
- a *deck pile* named in :attr:`Game.secret_piles` (``draw`` by default) shows only its size,
  and so does another player's hand (``hand:<player>``).

:func:`secrets_of` lists what a side must never be told (the ids and names of the pieces
hidden from it) and :func:`find_leaks` looks for them in any text or JSON; the conformance
check in :mod:`tabletop.core.designer.testing` runs both after every decision of many random games.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .canonical import JSON
from .errors import TabletopError

if TYPE_CHECKING:
    from .match import Game, Match
    from .state import State

PUBLIC = "public"
"""The visibility of a game variable every side may read."""

Visibility = str | tuple[str, ...]
"""``"public"``, or the sides that may read a variable."""


def check_declarations(game: Game) -> None:
    """Refuse a game whose visibility declarations name no side it has (checked at load)."""
    players = set(game.info.players)
    for name, who in game.var_visibility.items():
        if not isinstance(name, str) or not name:
            raise TabletopError(f"game {game.info.id}: var_visibility has a bad variable name {name!r}")
        if who == PUBLIC:
            continue
        if isinstance(who, str) or not isinstance(who, tuple) or not who:
            raise TabletopError(f"game {game.info.id}: var_visibility[{name!r}] must be {PUBLIC!r} "
                                f"or a tuple of sides, not {who!r}")
        unknown = [s for s in who if s not in players]
        if unknown:
            raise TabletopError(f"game {game.info.id}: var_visibility[{name!r}] names unknown "
                                f"side(s) {unknown} (sides: {sorted(players)})")


def may_read_var(game: Game, name: str, player: str | None) -> bool:
    """Whether ``player`` may read the game variable ``name`` (None: the game master)."""
    if player is None:
        return True
    who = game.var_visibility.get(name)
    if who is None:
        return False
    return who == PUBLIC or player in who


def visible_vars(game: Game, state: State, player: str | None) -> dict[str, Any]:
    """The game variables ``player`` may read (all of them for the game master)."""
    if player is None:
        return dict(state.vars)
    return {k: v for k, v in state.vars.items() if may_read_var(game, k, player)}


def is_hidden_from(piece: Any, player: str | None) -> bool:
    """Whether a piece's identity is hidden from ``player`` (never from the game master)."""
    return player is not None and bool(piece.hidden) and piece.side != player


def is_secret_pile(game: Game, pile: str, player: str | None) -> bool:
    """Whether ``player`` sees only the size of a deck pile (draw piles, others' hands)."""
    if player is None:
        return False
    if pile.startswith("hand:"):
        return pile != f"hand:{player}"
    return pile in game.secret_piles


def secrets_of(match: Match, player: str) -> dict[str, str]:
    """What ``player`` must not be told now: each hidden piece's id and name -> the piece id.

    A name is a secret only if no piece the player may see has it too (two counters of one
    type share a name; seeing one tells nothing of the other).
    """
    hidden = [p for p in match.state.pieces if is_hidden_from(p, player)]
    if not hidden:
        return {}
    seen_names = {p.name for p in match.state.pieces if not is_hidden_from(p, player)}
    out: dict[str, str] = {}
    for p in hidden:
        out[p.id] = p.id
        if p.name and p.name not in seen_names:
            out[p.name] = p.id
    return out


@lru_cache(maxsize=64)
def _compiled(tokens: frozenset[str]) -> re.Pattern[str] | None:
    alts = sorted((t for t in tokens if t), key=len, reverse=True)
    if not alts:
        return None
    body = "|".join(re.escape(t) for t in alts)
    return re.compile(rf"(?<![\w/.-])(?:{body})(?![\w/.-])")


_APART = "\x00"
"""Joins the strings searched at once: no word character, so a token found is one found in a string."""


def _pattern(tokens: Iterable[str]) -> re.Pattern[str] | None:
    return _compiled(frozenset(tokens))


def _strings(value: Any, out: list[str]) -> None:
    """Every string in a JSON value, keys included (numbers are not names), added to ``out``."""
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            out.append(str(k))
            if not isinstance(v, int | float | bool | None):
                _strings(v, out)
    elif isinstance(value, list | tuple):
        for v in value:
            if not isinstance(v, int | float | bool | None):
                _strings(v, out)
    else:
        to_json = getattr(value, "to_json", None)
        if callable(to_json):
            _strings(to_json(), out)


def find_leaks(secrets: Mapping[str, str], where: str, content: JSON | str) -> list[str]:
    """Every secret that ``content`` (a text, or any string inside a JSON value) names.

    A token counts only as a whole word (``R1`` is not found in ``R10``), and only in
    strings: a piece id "309" is not found in an event's sequence number 309.
    """
    pattern = _pattern(secrets)
    if pattern is None:
        return []
    texts: list[str] = []
    _strings(content, texts)
    if any(_APART in tok for tok in secrets):
        found = {tok for text in texts for tok in pattern.findall(text)}
    else:  # one search over the strings kept apart by a character no token holds: the same tokens
        found = set(pattern.findall(_APART.join(texts)))
    return [f"{where} names {tok!r} (hidden piece {secrets[tok]})" for tok in sorted(found)]
