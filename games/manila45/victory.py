"""4.0 How to win: 4.2 normal victory at the end of turn 10 (or at once when no Japanese unit
is left), 4.3 the US sudden death victory before the start of turn 3. 5.5: no draws."""

from __future__ import annotations

from tabletop.core.engine.match import Match, Result
from tabletop.core.engine.pieces import Piece

from . import common as c
from .components import JAPAN, US


def japanese_left(match: Match) -> int:
    """How many Japanese units are on the map."""
    return len(c.units_on_map(match, JAPAN))


def north_west_held(match: Match) -> bool:
    """4.3: a Japanese unit stands in a hex north of the Pasig and west of the San Juan."""
    return any(c.is_north_west(p.location) for p in c.units_on_map(match, JAPAN))


def scores(match: Match) -> dict[str, object]:
    """Score fields for --json: units left and lost on each side."""
    return {"japanese_left": japanese_left(match),
            "japanese_lost": match.state.pieces.count_at(c.JP_DEAD),
            "us_dead_now": match.state.pieces.count_at(c.US_DEAD), "turn": match.state.turn}


def result_now(match: Match) -> Result | None:
    """4.2, 4.3, 5.5: the result if the game is decided at this moment (None otherwise)."""
    if not match.state.vars.get(c.V_SETUP_DONE):
        return None
    if japanese_left(match) == 0:
        return Result(US, "US victory: no Japanese unit is left", "4.2", dict(scores(match)))
    if match.state.turn <= 2 and not north_west_held(match):
        return Result(US, "US sudden death victory: no Japanese unit north of the Pasig and "
                      "west of the San Juan", "4.3", dict(scores(match)))
    return None


def check_now(match: Match) -> None:
    """4.2, 4.3: end the match at once when it is decided (called after every elimination,
    Japanese move and fire)."""
    result = result_now(match)
    if result is not None:
        match.end(result)


def final(match: Match) -> Result:
    """4.1, 4.2, 5.5: at the end of turn 10, any Japanese unit on the map wins for Japan;
    no draw."""
    now = result_now(match)
    if now is not None:
        return now
    return Result(JAPAN, f"Japanese victory: {japanese_left(match)} Japanese unit(s) still in "
                  "Manila at the end of turn 10", "4.2", dict(scores(match)))


def eliminate(match: Match, piece: Piece, section: str, *, decide: bool = True) -> None:
    """10.16: an eliminated unit goes to its side's dead pile; then 4.2, 4.3: the match ends
    at once if that decides it (``decide=False``: the caller checks once the rest of the
    result is applied, as an offensive fire's rubble roll, 10.20)."""
    where = piece.location
    dead = c.US_DEAD if piece.side == US else c.JP_DEAD
    if piece.side == JAPAN and piece.hidden:
        c.reveal(match, [piece], "is eliminated")
    match.state.pieces.move(piece.id, dead)
    piece.attrs["fired"] = False
    piece.attrs["moved"] = False
    c.say(match, "eliminated", section, "{name} in {hex} is eliminated", unit=piece.id,
          name=piece.name, hex=where, side=piece.side)
    if decide:
        check_now(match)
