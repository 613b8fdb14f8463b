"""Pictures of the table: SVG documents (:mod:`.svg`) and terminal text (:mod:`.ascii`).

Both renderers draw any game's board from the generic map objects (:class:`~..hexmap.HexMap`,
:class:`~..areamap.AreaMap`) and pieces; nothing here knows a particular game. This package
holds what the two share: stacking pieces by place, side colours and letters, the default
counter label and the face-down rule of per-player views.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from ...engine.pieces import Piece

if TYPE_CHECKING:
    from ...engine.match import Match

PieceLabel = Callable[[Piece], str]
"""Gives a counter's printed text, e.g. ``"1/23 4-3-4"`` (name, then values on its face)."""

BoxCards = Mapping[str, "Sequence[str] | int"]
"""Cards shown in off-map boxes: box id -> card labels (face up, top first) or a count of
face-down cards (a game's ``box_cards(match, player)``)."""

FaceDown = Callable[[Piece], bool]
"""Says whether a piece is drawn face-down (its side shown, its identity and values not)."""

# Counter colours for sides without a colour of their own, in the order the sides appear:
# strong, distinct hues that keep white or black text readable.
PALETTE: tuple[str, ...] = (
    "#3b6fb6", "#c8a23c", "#b6423b", "#4f8a3a", "#7a4f9e", "#2f8f8f", "#a0602a", "#5a5a5a",
)
NEUTRAL_COLOR = "#e9e4d4"  # markers that belong to no side ("")


def default_piece_label(piece: Piece) -> str:
    """The counter text used when no ``piece_label`` is given: name (or id) and face values."""
    vals = piece.values.get(piece.face, {})
    nums = "-".join(str(v) for v in vals.values())
    return f"{piece.name or piece.id} {nums}".strip()


def is_hidden(piece: Piece) -> bool:
    """The default face-down rule of a picture for nobody in particular: ``piece.hidden``."""
    return piece.hidden


def face_down_for(side: str | None) -> FaceDown:
    """The face-down rule of ``side``'s view: other sides' hidden pieces (none when None).

    With no side the picture is the designer's: every piece is shown face-up.
    """
    if side is None:
        return lambda piece: False
    return lambda piece: piece.hidden and piece.side != side


def face_down_in_view(match: Match, side: str | None) -> FaceDown:
    """The face-down rule of ``side``'s picture of a match, read from that side's own view:
    a piece the view does not name (a hidden piece, or anything more the game's view keeps
    from the side, such as the lower units of an enemy stack) is drawn face-down, so a
    picture never shows more than the view. With no side every piece is face-up."""
    if side is None:
        return face_down_for(None)
    stacks = match.view(side)["stacks"]
    reg = match.state.pieces
    down: set[str] = set()
    for loc in reg.occupied():
        shown = stacks.get(loc, ())
        for n, piece in enumerate(reg.at(loc)):
            if n >= len(shown) or shown[n] != piece.id:
                down.add(piece.id)
    return lambda piece: piece.id in down


def cards_text(cards: Sequence[str] | int) -> str:
    """Cards in a box as one line of text: "3 cards face down" or "Snipers, Banzai Charge"."""
    if isinstance(cards, int):
        return f"{cards} card{'s' if cards != 1 else ''} face down"
    return ", ".join(cards) if cards else "no cards"


def stacks(pieces: Iterable[Piece]) -> dict[str, list[Piece]]:
    """The pieces grouped by place, in the order given: the first piece of a place is on top."""
    out: dict[str, list[Piece]] = {}
    for piece in pieces:
        out.setdefault(piece.location, []).append(piece)
    return out


def match_pieces(match: Match) -> list[Piece]:
    """Every piece of a match, place by place, each stack top first (the order renderers want)."""
    reg = match.state.pieces
    return [p for loc in sorted(reg.occupied()) for p in reg.at(loc)]


def sides_of(pieces: Iterable[Piece], known: Sequence[str] = ()) -> list[str]:
    """The sides to show in a key: ``known`` first (a game's players), then others as met."""
    seen = list(known)
    for piece in pieces:
        if piece.side not in seen:
            seen.append(piece.side)
    return seen


def assign_side_colors(sides: Sequence[str], given: Mapping[str, str] | None = None) -> dict[str, str]:
    """A counter colour for each side: the given ones, the rest from :data:`PALETTE` in turn."""
    given = dict(given or {})
    out: dict[str, str] = {}
    k = 0
    for side in sides:
        if side in given:
            out[side] = given[side]
        elif side == "":
            out[side] = NEUTRAL_COLOR
        else:
            out[side] = PALETTE[k % len(PALETTE)]
            k += 1
    for side, color in given.items():
        out.setdefault(side, color)
    return out


def side_letters(sides: Sequence[str], *, taken: Iterable[str] = (), neutral: str = "*") -> dict[str, str]:
    """A distinct one-letter marker per side for the terminal map (``"japan"`` -> ``"J"``).

    A side takes the first letter of its name not yet taken (so "us" and "usmc" differ),
    avoiding ``taken`` (the map's own symbols); neutral markers ("") are ``neutral``.
    """
    out: dict[str, str] = {}
    taken = {neutral, *taken}
    for side in sides:
        if side in out:
            continue
        if side == "":
            out[side] = neutral
            continue
        letters = [c.upper() for c in side if c.isalnum()] + [chr(c) for c in range(65, 91)]
        letter = next((c for c in letters if c not in taken), "?")
        taken.add(letter)
        out[side] = letter
    return out
