"""What every match checks before its first decision, as ``tabletop validate`` does.

The game data's cross-checks (the core's and the game's own ``load_data``), kept on the game
object with the fingerprint of its data files, and the opening checks of a match set up from
a scenario: a piece of no side of the game, a side with no piece, a piece with no step left
on the map, the game's invariants. :mod:`.validation` runs the same functions for every
scenario; :class:`~.match.Match` runs them when it opens, so ``play`` never starts from
data ``validate`` refuses.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from .ai import check_ai
from .errors import DataError
from .flow import SequenceOfPlay
from .position import board_problems

if TYPE_CHECKING:
    from .match import Game, Match

DATA_SUFFIXES = (".yaml", ".yml", ".json")
"""The data files of a game's ``data/`` folder."""


def data_source(game: Game, name: str = "") -> str:
    """How a message names a game's data: the file ``name`` in its data folder when it has
    one, else the folder, else the game."""
    folder = game.data_dir()
    if folder is None:
        return game.info.id
    return str(folder / name) if name and (folder / name).is_file() else str(folder)


def sequence_problems(game: Game) -> list[str]:
    """The core's cross-check of a game's sequence of play (its ``sequence`` attribute, a
    :class:`~.flow.SequenceOfPlay`): every phase is played by one of the game's sides, or by
    none (``player: ""``, an administrative phase)."""
    sequence = getattr(game, "sequence", None)
    if not isinstance(sequence, SequenceOfPlay):
        return []
    sides = game.info.players
    return [f"phases.{n}.player: phase {phase.id} is played by {phase.player!r}, which is not a "
            f"side of {game.info.id} (sides: {', '.join(sides)}; \"\" for none)"
            for n, phase in enumerate(sequence.phases) if phase.player and phase.player not in sides]


def data_fingerprint(game: Game) -> str:
    """A digest of every data file of the game (names and contents): what its checks hold for."""
    digest = hashlib.sha256(game.info.id.encode("utf-8"))
    folder = game.data_dir()
    if folder is not None:
        for path in sorted(folder.rglob("*")):
            if path.suffix in DATA_SUFFIXES and path.is_file():
                digest.update(str(path.relative_to(folder)).encode("utf-8") + b"\0")
                digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def check_game_data(game: Game) -> list[str]:
    """The cross-checks of a game's data, run by ``validate`` and before the first decision of
    every match (``play``, the web server): the core's (:func:`sequence_problems`), then the
    game's own (``Game.load_data``), then its declared AI (``data/ai.yaml``,
    :func:`~.ai.check_ai`); the first problem raises a DataError naming the file.

    The game object loaded its data once, so the answer is kept on it with the fingerprint of
    its data files (:func:`data_fingerprint`): a match after the first costs nothing.
    """
    held = game.checked_data
    if held is not None:
        return list(held[1])
    fingerprint = data_fingerprint(game)
    wrong = sequence_problems(game)
    if wrong:
        raise DataError(f"{data_source(game, 'sequence.yaml')}: {wrong[0]}")
    checked = game.load_data()
    lines = [f"{game.info.id}: cross-checks passed ({checked})"] if checked else []
    declared = check_ai(game)
    if declared:
        lines.append(f"{game.info.id}: {declared}")
    game.checked_data = (fingerprint, tuple(lines))
    return lines


def opening_problems(match: Match) -> list[str]:
    """What a match's opening (its set-up, before any position) must not break: a piece of a
    side the game does not have, a side with no piece (in a game whose pieces belong to
    sides), a piece on the map with no step left (:func:`~.position.board_problems`), and the
    game's invariants."""
    game = match.game
    sides = game.info.players
    problems = [f"piece {p.id} is of side {p.side!r}, not one of {', '.join(sides)} (or \"\" "
                "for none)" for p in match.state.pieces if p.side and p.side not in sides]
    present = {p.side for p in match.state.pieces} - {""}
    if present:
        problems += [f"side {side} has no piece" for side in sides if side not in present]
    return [*problems, *board_problems(match), *game.invariants(match)]


def check_opening(match: Match) -> None:
    """Refuse a match whose set-up breaks :func:`opening_problems` (a DataError naming the
    game's data folder and the scenario): what ``validate`` refuses, ``play`` refuses too."""
    broken = opening_problems(match)
    if broken:
        more = f" (and {len(broken) - 3} more)" if len(broken) > 3 else ""
        raise DataError(f"{data_source(match.game)}: scenario {match.scenario}: the set-up "
                        f"breaks {'; '.join(broken[:3])}{more}")


def check_before_play(match: Match) -> None:
    """What every match runs before its first decision, after its set-up: when it opens from
    the set-up rather than a position (checked by its own rules), :func:`check_opening`. (The
    game data's cross-checks, :func:`check_game_data`, run before the set-up, so data the
    set-up would trip over is refused by name first.)"""
    if match.position is None:
        check_opening(match)
