"""Positions as data: a match set up by hand and started at a phase of its sequence of play.

A *position* names the game, scenario, options and seed, then says what differs from the
scenario's set-up: where pieces stand (face, steps, hidden, attrs, and game status through
the game's named helpers), the game's variables, tracks and deck piles, the turn, the entry
point of the sequence of play to start at, and the dice to force or the shuffles to stack.
:meth:`Match.from_position` builds the set-up, applies the position, refuses it if the game
finds it inconsistent, and starts the game's flow at the entry point, so the pending
decision is computed from the position. The position goes into the record's header: a
match started from one saves, resumes, undoes and replays like any other.

A position is written in YAML or JSON (:func:`load_position`) or built in Python
(:class:`Position`, ``Position.build``). Errors name the file, the path inside it and the
piece: ``pos.yaml: pieces.305.at: no place 9999 in iwo_bonins``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, model_validator

from .canonical import JSON, dumps
from .data import StrictModel, read_data_file, validate
from .dice import ForcedRoll, RollPurpose, StackedShuffle, resolve_purpose, roll_purposes
from .errors import DataError, TabletopError
from .pieces import OFF_BOARD, Piece
from .state import State

if TYPE_CHECKING:
    from .match import Game, Match

START = "start"
"""The entry point every game has: its whole flow from the beginning (after set-up)."""

SEED_LIMIT = 2**63
"""Seeds are whole numbers from 0 to SEED_LIMIT - 1 (what fits a signed 64-bit field), as the
command line's ``--seed`` takes them."""


class PositionError(DataError):
    """A position the game cannot start from: the message names the file, the path inside
    it and the piece or value at fault."""


class PiecePlacement(StrictModel):
    """Where one piece stands and how: every field left out keeps the set-up's value."""

    at: str | None = None
    face: Literal["front", "back"] | None = None
    steps: int | None = Field(default=None, ge=0)
    hidden: bool | None = None
    top: bool = False  # put it on top of the stack where it stands (default: the bottom)
    attrs: dict[str, Any] = Field(default_factory=dict)  # merged into the piece's attrs
    status: dict[str, Any] = Field(default_factory=dict)  # the game's named status helpers


class ForcedRollSpec(StrictModel):
    """A roll forced by its section and purpose (see :class:`tabletop.core.engine.dice.ForcedRoll`)."""

    roll: str = Field(min_length=1)
    faces: tuple[int, ...] = Field(min_length=1)


class StackSpec(StrictModel):
    """A shuffle whose result starts with named cards (see ``StackedShuffle``)."""

    shuffle: str = Field(min_length=1)
    top: tuple[str, ...] = Field(min_length=1)


class Position(StrictModel):
    """A position: a game, its scenario and options, and what differs from the set-up."""

    game: str
    scenario: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int = Field(default=0, ge=0, lt=SEED_LIMIT)
    start: str = START  # the entry point of the sequence of play (Game.entry_points)
    turn: int | None = Field(default=None, ge=0)  # at most the game's last (Game.turn_limits)
    description: str = ""
    pieces: dict[str, PiecePlacement] = Field(default_factory=dict)
    off_board: tuple[str, ...] = ()  # pieces taken out of play (the neutral off-board place)
    # sides or piece kinds: their pieces not listed go off board, from the map and from every
    # off-map box (reserves, reinforcements, pools, the eliminated) alike
    clear: tuple[str, ...] = ()
    clear_map: tuple[str, ...] = ()  # the same, from the map only: off-map boxes keep theirs
    vars: dict[str, Any] = Field(default_factory=dict)  # merged into state.vars (dicts deeply)
    tracks: dict[str, int] = Field(default_factory=dict)
    decks: dict[str, dict[str, tuple[str, ...]]] = Field(default_factory=dict)  # top cards
    dice: tuple[ForcedRollSpec | StackSpec, ...] = ()
    state: dict[str, Any] | None = None  # a whole state (State.to_json) instead of changes

    @model_validator(mode="after")
    def _state_is_whole(self) -> Position:
        """A whole ``state`` replaces the set-up: changes to it beside would be ignored."""
        if self.state is not None:
            given = [f for f in ("pieces", "off_board", "clear", "clear_map", "vars", "tracks",
                                 "decks") if getattr(self, f)]
            if given:
                raise ValueError(f"a whole state is given with {', '.join(given)}: put those "
                                 "changes in the state, or give changes without a state")
        return self

    @classmethod
    def build(cls, game: str | Game, **fields: Any) -> Position:
        """A position built in Python; ``game`` may be the game object or its id."""
        gid = game if isinstance(game, str) else game.info.id
        return validate(cls, {"game": gid, **fields}, source="position")

    def to_json(self) -> dict[str, JSON]:
        """The position as it goes into a record header (defaults left out)."""
        data: dict[str, JSON] = self.model_dump(mode="json", exclude_defaults=True)
        data["game"] = self.game
        return data

    def forced(self) -> list[ForcedRoll | StackedShuffle]:
        """Fresh forced rolls and stacked shuffles for a new match."""
        return forced_from_json([d.model_dump() for d in self.dice])


def forced_from_json(items: Sequence[Mapping[str, Any]]) -> list[ForcedRoll | StackedShuffle]:
    """Forced rolls and stacked shuffles from their JSON (a record header, a position)."""
    out: list[ForcedRoll | StackedShuffle] = []
    for item in items:
        if "roll" in item:
            out.append(ForcedRoll(str(item["roll"]), tuple(int(f) for f in item["faces"])))
        else:
            out.append(StackedShuffle(str(item["shuffle"]), tuple(str(c) for c in item["top"])))
    return out


def load_position(path: str | Path) -> Position:
    """Read a position file (YAML or JSON); DataError naming the file and the path inside."""
    return validate(Position, read_data_file(path), source=str(path))


# -- applying a position ------------------------------------------------------------------

def _merge(base: dict[str, Any], changes: Mapping[str, Any]) -> None:
    for key, value in changes.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        else:
            base[key] = copy.deepcopy(value)


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "null"


def _type_mismatch(base: Mapping[str, Any], changes: Mapping[str, Any],
                   path: str) -> tuple[str, str] | None:
    """The first value of ``changes`` whose JSON type differs from the set-up's (a variable
    that starts as null may take any value): (its path, what was expected)."""
    for key, value in changes.items():
        if key not in base or base[key] is None or value is None:
            continue
        here = f"{path}.{key}"
        want, got = _kind(base[key]), _kind(value)
        if want != got:
            return here, f"expected {want} (as at set-up: {base[key]!r}), got {value!r}"
        if isinstance(value, Mapping) and isinstance(base[key], Mapping):
            inner = _type_mismatch(base[key], value, here)
            if inner:
                return inner
    return None


def apply_position(match: Match, position: Position, *, source: str = "position") -> None:
    """Change the set-up state of ``match`` into ``position`` (before its flow starts).

    Raises PositionError naming ``source``, the path inside the position and the piece.
    """
    game = match.game
    state = match.state

    def where(path: str) -> str:
        return f"{source}: {path}"

    if position.turn is not None:
        first, last = game.turn_limits(match)
        if not first <= position.turn <= last:
            raise PositionError(f"{where('turn')}: {position.turn} is not a turn of "
                                f"{game.info.id} (turns {first} to {last})")
    if position.state is not None:
        try:
            match.state = State.from_json(copy.deepcopy(position.state))
        except (KeyError, TypeError, ValueError, AttributeError, TabletopError) as exc:
            raise PositionError(f"{source}: state: not a whole state ({exc})") from None
        return
    places = game.places(match)
    pieces = state.pieces

    for pid, place in position.pieces.items():
        if pid not in pieces:
            raise PositionError(f"{where('pieces.' + pid)}: no piece {pid!r} in {game.info.id}")
        piece = pieces[pid]
        if place.at is not None:
            if places is not None and place.at not in places and place.at != OFF_BOARD:
                raise PositionError(f"{where('pieces.' + pid + '.at')}: piece {pid}: no place "
                                    f"{place.at!r} in {game.info.id}")
            pieces.move(pid, place.at, top=place.top)
        elif place.top:
            pieces.to_top(pid)
        if place.steps is not None and place.steps > piece.max_steps:
            raise PositionError(f"{where('pieces.' + pid + '.steps')}: piece {pid} has at "
                                f"most {piece.max_steps} step(s), not {place.steps}")
        if place.face is not None:
            _set_face(game, piece, place.face, place.steps, where('pieces.' + pid + '.face'))
        if place.steps is not None:
            piece.steps = place.steps
        if place.hidden is not None:
            piece.hidden = place.hidden
        _merge(piece.attrs, place.attrs)
    listed = set(position.pieces)
    for n, pid in enumerate(position.off_board):
        if pid not in pieces:
            raise PositionError(f"{where(f'off_board.{n}')}: no piece {pid!r} in {game.info.id}")
        pieces.move(pid, OFF_BOARD)
    kinds = {p.kind for p in pieces}
    board = game.board(match) if position.clear_map else None
    for name, cleared in (("clear", position.clear), ("clear_map", position.clear_map)):
        for n, what in enumerate(cleared):
            if what not in game.info.players and what not in kinds:
                raise PositionError(f"{where(f'{name}.{n}')}: {game.info.id} has no side or "
                                    f"piece kind {what!r} (sides: {', '.join(game.info.players)}"
                                    f"; kinds: {', '.join(sorted(kinds))})")
            on_map = board if name == "clear_map" else None
            if name == "clear_map" and on_map is None:
                raise PositionError(f"{where(f'{name}.{n}')}: {game.info.id} has no map to "
                                    "clear apart from its boxes: use clear")
            for piece in [p for p in pieces if what in (p.side, p.kind) and p.id not in listed
                          and (on_map is None or p.location in on_map)]:
                pieces.move(piece.id, OFF_BOARD)
    for key in position.vars:
        if key not in state.vars:
            raise PositionError(f"{where('vars.' + key)}: {game.info.id} has no variable "
                                f"{key!r} (variables: {', '.join(sorted(state.vars))})")
    mismatch = _type_mismatch(state.vars, position.vars, "vars")
    if mismatch:
        raise PositionError(f"{where(mismatch[0])}: {mismatch[1]}")
    _merge(state.vars, position.vars)
    for tid, value in position.tracks.items():
        track = state.tracks.get(tid)
        if track is None:
            raise PositionError(f"{where('tracks.' + tid)}: {game.info.id} has no track {tid!r}")
        if not track.minimum <= value <= track.maximum:
            raise PositionError(f"{where('tracks.' + tid)}: {value} is off the track "
                                f"({track.minimum} to {track.maximum})")
        track.value = value
    for did, piles in position.decks.items():
        deck = state.decks.get(did)
        if deck is None:
            raise PositionError(f"{where('decks.' + did)}: {game.info.id} has no deck {did!r}")
        for pile, cards in piles.items():
            for card in reversed(cards):
                if card not in deck.all_cards():
                    raise PositionError(f"{where(f'decks.{did}.{pile}')}: the {did} deck has no "
                                        f"card {card!r}")
                deck.move(card, pile, top=True)
    if position.turn is not None:
        state.turn = position.turn
    for pid, place in position.pieces.items():
        for name, value in place.status.items():
            try:
                game.set_status(match, pieces[pid], name, value)
            except TabletopError as exc:
                raise PositionError(f"{where(f'pieces.{pid}.status.{name}')}: piece {pid}: "
                                    f"{exc}") from None


def _set_face(game: Game, piece: Piece, face: str, steps: int | None, where: str) -> None:
    """A position's ``face:`` for one piece. Where the counter's back is its reduced side
    (:meth:`Game.back_is_reduced`), the face gives the steps too — ``back`` one step short
    of full strength (or the ``steps`` given, if fewer), ``front`` full strength — and a
    ``steps`` that disagrees is refused. Where it is not, ``back`` is refused, saying to give
    ``steps`` for lost steps or the game's ``status`` for what the back shows; a piece that
    prints no values (a marker) turns to either face."""
    if game.back_is_reduced(piece):
        full = piece.max_steps
        if face == "back" and steps == full:
            raise PositionError(f"{where}: piece {piece.id}'s back is its reduced side, but "
                                f"steps {steps} is its full strength: leave steps out (the "
                                f"back is {full - 1} step(s)) or give fewer")
        if face == "front" and steps is not None and 0 < steps < full:
            raise PositionError(f"{where}: piece {piece.id}'s front is its full-strength side "
                                f"({full} steps), not {steps} step(s): give face back for "
                                "the reduced unit")
        piece.face = face
        if steps is None:
            piece.steps = full if face == "front" else min(piece.steps, full - 1)
        return
    if face == "back" and (piece.max_steps > 1 or (piece.values and "back" not in piece.values)):
        printed = " (its counter prints no back)" if piece.values and "back" not in piece.values \
            else ""
        fixes = [f"give steps: N for the steps it has left (at most {piece.max_steps})"] \
            if piece.max_steps > 1 else []
        statuses = list(game.statuses())
        if statuses:
            fixes.append(f"the status its back shows ({game.info.id}: {', '.join(statuses)})")
        hint = f": {', or '.join(fixes)}" if fixes else ""
        raise PositionError(f"{where}: piece {piece.id}'s back is not its reduced side"
                            f"{printed}{hint}")
    if face not in piece.values and piece.values:
        raise PositionError(f"{where}: piece {piece.id} has no {face} side")
    piece.face = face


def check_position(match: Match, position: Position, *, source: str = "position") -> None:
    """Let the game settle what it derives, then refuse a position it finds inconsistent."""
    game = match.game
    game.settle_position(match, position)
    problems = [*board_problems(match), *game.position_problems(match)]
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise PositionError(f"{source}: inconsistent position: {problems[0]}{more}")


def entry_ids(game: Game) -> list[str]:
    """The entry points a game's flow may start from: ``start`` and the game's own."""
    return [START, *(e.id for e in game.entry_points())]


def board_problems(match: Match) -> list[str]:
    """Pieces standing on the map (a hex or an area of :meth:`Game.board`) with no step left:
    a unit that has lost its last step is eliminated, never on the map."""
    board = match.game.board(match)
    if board is None:
        return []
    return [f"piece {p.id} stands on the map at {p.location} with {p.steps} steps (a unit "
            "with no step left is eliminated)" for p in match.state.pieces
            if p.steps < 1 and isinstance(p.location, str) and p.location in board]


def check_entry(game: Game, position: Position, *, source: str = "position") -> None:
    """Refuse a position whose entry point the game does not declare, or that forces a face
    no die of the game shows (:attr:`Game.dice_sides`), whatever roll it names: such a face
    would otherwise wait, unused and unseen, for a roll that never comes."""
    known = entry_ids(game)
    if position.start not in known:
        raise PositionError(f"{source}: start: {game.info.id} cannot start at "
                            f"{position.start!r} (entry points: {', '.join(known)})")
    purposes = roll_purposes(game)
    for n, spec in enumerate(position.dice):
        if isinstance(spec, ForcedRollSpec):
            # a roll "to choose among equals" of more than six candidates rolls a die of as
            # many faces (Dice.choose): no bound above but the candidates' count, known only
            # when it is rolled
            top = None if _is_choice(spec.roll, purposes) else game.dice_sides
            for k, face in enumerate(spec.faces):
                if face < 1 or (top is not None and face > top):
                    shown = f"1 to {top}" if top is not None else "1 or more"
                    raise PositionError(f"{source}: dice.{n}.faces.{k}: {face} is not a face "
                                        f"of {game.info.id}'s dice ({shown})")


def _is_choice(key: str, purposes: Sequence[RollPurpose]) -> bool:
    """Whether a forced roll's key names a roll declared as a choice among equals (its
    faces unbounded above); a key that names no declared roll is refused where it is used."""
    try:
        purpose, _ = resolve_purpose(key, purposes)
    except TabletopError:
        return False
    return purpose.dice == "choose"


# -- editing a running match ----------------------------------------------------------------

_CHANCE = ("roll", "shuffle")


def edit_entry(match: Match) -> str:
    """The entry point an edit of ``match`` would restart the flow at, or a clear refusal.

    An edit restarts the flow at the entry point the match last passed (the start, or the
    current phase), so that the pending decision is computed from the edited state. That is
    only honest when nothing was decided and no die was rolled since: otherwise the phase
    would be played twice or its dice rolled again, and the edit is refused.
    """
    if match.pending is None:
        raise TabletopError("the match is over: there is nothing to edit")
    since: list[str] = []
    entered = match.position.start if match.position is not None else START
    for n in range(len(match.log) - 1, match.flow_start - 1, -1):  # set-up's rolls are redone
        event = match.log[n]
        if event.kind == "phase":
            entered = match.state.phase or START
            break
        if event.kind == "position":
            break
        since.append(event.kind)
    if "decision" in since:
        raise TabletopError("cannot edit the state here: a decision was taken since the "
                            f"{entered!r} entry point, and restarting there would take it "
                            "again; edit at the start of a phase")
    if any(k in _CHANCE for k in since):
        raise TabletopError("cannot edit the state here: dice were rolled since the "
                            f"{entered!r} entry point, and restarting there would roll them "
                            "again; edit at the start of a phase")
    entries = {e.id: e for e in match.game.entry_points()}
    if entered != START and (entered not in entries or not entries[entered].reenter):
        raise TabletopError(f"cannot edit the state here: {match.game.info.id} cannot restart "
                            f"its flow at {entered!r} (entry points: "
                            f"{', '.join(entry_ids(match.game))})")
    return entered


@contextmanager
def editing(match: Match) -> Iterator[State]:
    """Edit a copy of the match's state; on leaving, restart the flow from it.

    The pending decision is then recomputed from the edited state (the match continues as a
    match started from that position, and its record says so); forced rolls not yet rolled
    stay forced. If the edit cannot be
    honoured (see :func:`edit_entry`) or the game finds the edited state inconsistent, a
    TabletopError is raised and the match is left exactly as it was.
    """
    entry = edit_entry(match)
    work = State.from_json(copy.deepcopy(match.state.to_json()))
    yield work
    if dumps(work.to_json()) == dumps(match.state.to_json()):
        return
    position = Position(game=match.game.info.id, scenario=match.scenario,
                        options=dict(match.options), seed=match.seed, start=entry,
                        turn=work.turn, state=work.to_json())
    left: list[ForcedRoll | StackedShuffle] = [
        ForcedRoll(f.key, f.faces[f.used:]) if isinstance(f, ForcedRoll)
        else StackedShuffle(f.key, f.top) for f in match.dice.unused_forced()]
    fresh = type(match).from_position(match.game, position, source="edited state",
                                      forced=left)
    fresh.edited_from = {"header": match.header(), "decisions": list(match.decisions)}
    match.adopt(fresh)
