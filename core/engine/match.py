"""Games and matches: the plugin interface, and the decision loop that runs a game.

Control is inverted. A game's procedure is a generator (its *flow*) that yields a
:class:`Decision` whenever a player must choose and receives the chosen option's value.
The caller reads :attr:`Match.pending` and calls :meth:`Match.decide`; the engine never asks
for input. A match is its record: the header (game, version, scenario, options, seed) plus
the decisions taken; replaying them reproduces every event and the final state hash.
"""

from __future__ import annotations

import gc
import random
import sys
import threading
from collections.abc import Callable, Collection, Generator, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn, TypeVar
from weakref import ref

from pydantic import BaseModel

from .. import engine_version
from .canonical import JSON, digest, dumps, thaw
from .decisions import Decision, Option, ResumePoint, asks_digest
from .dice import Dice, ForcedRoll, KeyedDice, ScriptedDice, StackedShuffle, roll_purposes
from .errors import DataError, GameOver, IllegalDecision, TabletopError
from .events import Event, EventLog
from .flow import PhaseHandler, PhaseSpec, SequenceOfPlay, run_turns
from .marks import MapMark
from .opening import check_before_play, check_game_data
from .pieces import Piece
from .position import (
    START,
    Position,
    apply_position,
    check_entry,
    check_position,
    editing,
    forced_from_json,
)
from .state import State
from .text import in_words
from .views import SharedBoard, View
from .visibility import check_declarations, find_leaks, is_hidden_from, is_secret_pile, secrets_of

if TYPE_CHECKING:
    from .agents import Agent
    from .routes import Routes

MAX_TURN = 999
"""The last turn a position may set in a game that names no turn track nor sequence of play."""

CHANCE_EVENTS = frozenset({"roll", "shuffle", "reveal"})
"""Event kinds that show a player something chance or the fog of war decided: an honest undo
never goes back past one of them."""

Flow = Generator[Decision, JSON, "Result | None"]
"""A game procedure: yields decisions, receives option values, may return the result."""

T = TypeVar("T")
Procedure = Generator[Decision, JSON, T]
"""A step of a game procedure that asks players and returns a value: ``Procedure[bool]``."""


@dataclass(frozen=True, slots=True)
class Result:
    """How a match ended: the winner (None for a draw), the victory level in the rulebook's
    words, the section that decides it, and the game's score fields."""

    winner: str | None
    level: str
    section: str
    scores: dict[str, JSON] = field(default_factory=dict)
    reason: str = ""

    def to_json(self) -> dict[str, JSON]:
        """The result as plain JSON."""
        return {"winner": self.winner, "level": self.level, "section": self.section,
                "scores": thaw(self.scores), "reason": self.reason}


@dataclass(frozen=True, slots=True)
class ScenarioInfo:
    """A scenario a game offers: its id, name, a line about it, and the sides the rules
    themselves play in it (``automatic``: they never decide, so no person takes their seat;
    the solitaire opponent)."""

    id: str
    name: str
    description: str = ""
    automatic: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GameOption:
    """A game option a match may set (a variant rule, a difficulty), with its allowed values."""

    id: str
    description: str
    default: JSON
    choices: tuple[JSON, ...] = ()
    #: the words a player reads for each choice, in the order of ``choices`` (the value in
    #: words when none are given); the value itself is what ``--option ID=VALUE`` types
    labels: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.labels and len(self.labels) != len(self.choices):
            raise TabletopError(f"option {self.id}: {len(self.labels)} labels for "
                                f"{len(self.choices)} choices; give one label a choice")

    def label_of(self, value: JSON) -> str:
        """The words a player reads for one of the option's values."""
        if self.labels and value in self.choices:
            return self.labels[self.choices.index(value)]
        return in_words(value) if isinstance(value, str) else dumps(value)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game is, declared apart from its behaviour: identity and capabilities."""

    id: str
    title: str
    version: str
    players: tuple[str, ...]
    scenarios: tuple[ScenarioInfo, ...] = (ScenarioInfo("standard", "Standard game"),)
    options: tuple[GameOption, ...] = ()
    playable: bool = True
    description: str = ""
    rulebook: str = ""
    solitaire: bool = False  # one side is run by the rules themselves
    human_side: str = ""  # the side a person plays by default
    #: the scenario a new player is offered first (the shortest whole one); "" for the first
    starter_scenario: str = ""

    def scenario(self, scenario_id: str | None) -> ScenarioInfo:
        """The scenario with this id (the first one when None), or a clear error."""
        if scenario_id is None:
            return self.scenarios[0]
        for s in self.scenarios:
            if s.id == scenario_id:
                return s
        known = ", ".join(s.id for s in self.scenarios)
        raise TabletopError(f"game {self.id} has no scenario {scenario_id!r} (scenarios: {known})")

    def resolve_options(self, given: Mapping[str, JSON] | None) -> dict[str, JSON]:
        """The full option settings: defaults overridden by ``given``, each checked."""
        known = {o.id: o for o in self.options}
        out: dict[str, JSON] = {o.id: o.default for o in self.options}
        for key, value in (given or {}).items():
            if key not in known:
                names = ", ".join(known) or "none"
                raise TabletopError(f"game {self.id} has no option {key!r} (options: {names})")
            spec = known[key]
            if spec.choices and value not in spec.choices:
                shown = ", ".join(_as_typed(c) for c in spec.choices)
                raise TabletopError(f"option {key}={_as_typed(value)} is not one of {shown}")
            out[key] = value
        return out


def _as_typed(value: JSON) -> str:
    """An option value as a player types it after ``--option NAME=``: text as it is, any
    other value as JSON (``true``, ``6``, ``[1, 2]``)."""
    return value if isinstance(value, str) else dumps(value)


@dataclass(frozen=True, slots=True)
class EntryPoint:
    """A point of a game's sequence of play a match may start from (a phase, a step).

    ``reenter``: the flow may be restarted there after an edit of a running match (its
    opening, before the first decision, rolls no dice and does nothing twice).
    """

    id: str
    section: str
    description: str = ""
    reenter: bool = True


AgentFactory = Callable[[str, int], "Agent"]
"""Builds a bot for a side from (side, seed)."""


class Game:
    """The base of every game plugin: declare :attr:`info`, override the hooks.

    Required hooks: :meth:`setup` (build the opening state) and :meth:`play` (the flow).
    The rest have generic defaults a game may refine.
    """

    info: GameInfo
    source: str = ""  # how a person named it (a module path or folder), not an entry point
    #: who may read each game variable (``state.vars``): ``"public"`` or a tuple of sides;
    #: a variable not named here is the game master's alone (see :mod:`.visibility`)
    var_visibility: ClassVar[Mapping[str, str | tuple[str, ...]]] = {}
    #: deck piles every side sees only the size of (besides other players' hands)
    secret_piles: ClassVar[frozenset[str]] = frozenset({"draw"})
    #: the most faces a die of the game shows: a position forcing a higher face is refused
    dice_sides: ClassVar[int] = 6
    #: every kind of decision the game may ask (:attr:`~.decisions.Decision.kind`): the
    #: conformance check (:func:`~.testing.check_decision_kinds`) holds the game to asking no
    #: other, and its bots that declare the kinds they answer to answering these
    decision_kinds: ClassVar[frozenset[str]] = frozenset()
    #: the fingerprint of its data files and what their cross-checks said, once checked
    #: (:func:`~.opening.check_game_data`, before the first match's first decision)
    checked_data: tuple[str, tuple[str, ...]] | None = None

    def setup(self, match: Match) -> None:
        """Build the opening state in ``match.state`` (may roll ``match.dice``)."""
        raise TabletopError(f"game {self.info.id} is not playable yet")

    def play(self, match: Match) -> Flow:
        """The game's whole procedure, from set-up to the end; yields decisions."""
        raise TabletopError(f"game {self.info.id} is not playable yet")
        yield  # pragma: no cover - makes this a generator

    # -- positions (core/engine/position.py) ----------------------------------------------------
    def entry_points(self) -> tuple[EntryPoint, ...]:
        """The points of the sequence of play a position may start at, besides ``start``
        (the whole flow after set-up). A game that declares any implements :meth:`play_from`."""
        return ()

    def play_from(self, match: Match, entry: str) -> Flow:
        """The game's flow from an entry point of :meth:`entry_points`, with the turn and
        state the position set; ``start`` is :meth:`play` itself."""
        raise TabletopError(f"game {self.info.id} declares no entry point {entry!r}")
        yield  # pragma: no cover - makes this a generator

    def resume_flow(self, match: Match, point: ResumePoint) -> Flow:
        """The game's flow entered again at a decision marked resumable
        (:attr:`~.decisions.Decision.resume`), ``match`` holding a copy of the state as it
        stood when that decision was asked: it must ask that decision first, rolling, logging
        and changing nothing before. :meth:`Match.resumed` gives the flow the point's
        ``args`` where it reads them. A game whose decisions carry no resume point needs
        none; a fork then replays the decisions since the last snapshot."""
        raise TabletopError(f"game {self.info.id} has no resume point {point.entry!r}")
        yield  # pragma: no cover - makes this a generator

    def determinize(self, match: Match, side: str, rng: random.Random) -> Match:
        """A fork of ``match`` in which everything hidden from ``side`` (face-down pieces'
        identities, secret piles' order and contents) is drawn again, consistently with what
        ``side`` sees: what a search on that side's behalf may play on. The default
        (:func:`~.determinize.determinize`) shuffles hidden identities among the pieces that
        look alike to ``side`` and shuffles the piles secret from it; a game overrides this
        only where its rules constrain what may be where."""
        from .determinize import determinize

        return determinize(match, side, rng)

    def evaluate(self, match: Match, side: str) -> float:
        """How good ``match`` stands for ``side``, from -1 (lost) to 1 (won): the end of a
        search's rollout cut short. A finished match scores its result (a draw 0); else, by
        default, the evaluation the game declares in its ``data/ai.yaml``
        (:mod:`~.ai`), or 0 when it declares none."""
        result = match.result
        if result is not None:
            return 0.0 if result.winner is None else (1.0 if result.winner == side else -1.0)
        from .ai import evaluate

        return evaluate(match, side)

    def places(self, match: Match) -> Collection[str] | None:
        """Every place a piece may stand (hexes, areas, boxes), to check positions; None
        accepts any. The neutral off-board place (``pieces.OFF_BOARD``) is always valid."""
        return None

    def turn_limits(self, match: Match) -> tuple[int, int]:
        """The first and last turn a position may set (``turn:``), ``match`` at its set-up.
        By default the bounds of the state's ``turn`` track when it has one (and the set-up's
        turn, which may come before the track's first), else 0 to the last turn of the game's
        :class:`~.flow.SequenceOfPlay` (a ``sequence`` attribute), else 0 to
        :data:`MAX_TURN`; a game whose last turn depends on its scenario or options says so."""
        track = match.state.tracks.get("turn")
        if track is not None:
            return min(track.minimum, match.state.turn), track.maximum
        sequence = getattr(self, "sequence", None)
        if isinstance(sequence, SequenceOfPlay):
            return 0, sequence.last_turn
        return 0, MAX_TURN

    def statuses(self) -> Mapping[str, str]:
        """The named piece statuses a position may set (name -> what it means and its rule)."""
        return {}

    def set_status(self, match: Match, piece: Piece, name: str, value: JSON) -> None:
        """Set a piece's game status through the game's own helper (a position's
        ``status:``); raises TabletopError for an unknown status or value."""
        known = ", ".join(self.statuses()) or "none"
        raise TabletopError(f"{self.info.id} has no piece status {name!r} (statuses: {known})")

    def back_is_reduced(self, piece: Piece) -> bool:
        """Whether ``piece``'s back is its step-reduced side, so that a position's ``face:
        back`` gives the reduced unit (its steps follow) and ``face: front`` the full one.
        By default: a piece of more than one step whose counter prints values on both
        sides (the example's two-step infantry, 5.4; Bonins' two-step US units, 2.3). A
        game whose back means something else for such a piece says no here."""
        return piece.max_steps > 1 and "front" in piece.values and "back" in piece.values

    def settle_position(self, match: Match, position: Position) -> None:
        """Bring what the game derives from the pieces up to date after a position is
        applied (what the position did not set itself); by default nothing."""

    def position_problems(self, match: Match) -> list[str]:
        """Why a position cannot be played (a status that disagrees with itself, a broken
        invariant), each naming the piece; by default the game's invariants."""
        return self.invariants(match)

    def final_result(self, match: Match) -> Result:
        """The result when the flow ends without returning one."""
        return Result(None, "no result", "", {})

    def view(self, match: Match, player: str | None) -> Mapping[str, Any]:
        """What one player may see of the match (None: the game master), as a read-only
        :class:`~.views.View`; a game refines what is visible by declaring
        :attr:`var_visibility` and :attr:`secret_piles` and by :meth:`stack_view`, rather
        than by editing views."""
        return View(match, player)

    def stack_view(self, place: str, stack: Sequence[Piece], viewer: str) -> Sequence[bool] | None:
        """What ``viewer`` sees of the pieces at ``place`` (``stack``, top first): for each
        piece, True where the side sees only a hidden counter (its place, side and kind
        ``"hidden"``) rather than the piece. None, by default, is the core's rule: a hidden
        piece of another side (:func:`~.visibility.is_hidden_from`); a game whose rules hide
        more (a stack's lower units, a dead pile) says so here, the core's rule included. The
        game master sees everything and is not asked. The answer may depend on these
        arguments alone: the views keep it until a piece of the stack or its order changes."""
        return None

    def invariants(self, match: Match) -> list[str]:
        """Rule invariants broken by the current state (empty when all hold)."""
        return match.state.pieces.check()

    def bots(self) -> dict[str, AgentFactory]:
        """The game's own bots by name (the random-legal bot is always available)."""
        return {}

    def default_bot(self, side: str) -> str:
        """The bot name ``--auto`` uses for a side."""
        return "random"

    #: the kinds of decision that pick the unit a route decision then moves (see
    #: :meth:`routes`): a person's click on the unit takes it at once, without a confirmation
    mover_kinds: ClassVar[frozenset[str]] = frozenset()

    def routes(self, match: Match, decision: Decision) -> Routes | None:
        """The destinations ``decision``, pending in ``match``, moves a unit to, when it is one
        step (or one leg) of a move a person may choose by destination
        (:mod:`~.routes`): each with its cost, the places passed and the answers that lead
        there, worked out by the game's own movement rules from the state as it stands.
        Asked only by the frontends (never while bots play); None (the default): not a move."""
        return None

    def board(self, match: Match | None) -> Any:
        """The map (HexMap or AreaMap) to draw, or None."""
        return None

    def box_cards(self, match: Match, player: str | None) -> dict[str, list[str] | int]:
        """The cards to show in the board's off-map boxes as ``player`` may see them (None:
        the designer's view): box id -> the cards' labels, top first, or the number of
        face-down cards. Cards are deck piles, not pieces, so a game says where they are drawn;
        by default nowhere."""
        return {}

    def map_marks(self, match: Match, player: str | None) -> Sequence[MapMark]:
        """The marks the rules keep on the map outside the pieces (rubble, a demolished
        bridge) as ``player`` may see them (None: the designer's view), for the renderers;
        by default none."""
        return ()

    def piece_label(self, piece: Any) -> str:
        """A short label for a piece in the terminal and the SVG (values on its face)."""
        vals = piece.values.get(piece.face, {})
        nums = "-".join(str(v) for v in vals.values())
        return f"{piece.name or piece.id} {nums}".strip()

    def data_dir(self) -> Path | None:
        """The folder of the game's data files (``data/`` beside its package), if any."""
        module = sys.modules.get(type(self).__module__)
        file = getattr(module, "__file__", None)
        if not file:
            return None
        folder = Path(file).parent / "data"
        return folder if folder.is_dir() else None

    def data_models(self) -> dict[str, type[BaseModel]]:
        """Models for the game's own data files by file name (for ``tabletop validate``)."""
        return {}

    def load_data(self) -> str:
        """Load and cross-check all the game's data (raises DataError); says what was checked."""
        return ""

    def summary(self, match: Match) -> dict[str, JSON]:
        """Game score fields shown in ``--json`` output (VP, casualties...)."""
        return {}

    def standing(self, match: Match, player: str) -> list[str]:
        """The score and the victory conditions as they stand, in words, as ``player`` may
        know them (the terminal's ``v``). By default: the result if the game ended now, and
        the score fields; a game says more."""
        if match.result is not None:
            r = match.result
            lines = [f"Game over: {r.level} ({r.reason}; {self.cite(r.section)})"]
        else:
            r = self.final_result(match)
            lines = [f"If the game ended now: {r.level} ({r.reason}; {self.cite(r.section)})"]
        fields = self.summary(match)
        if fields:
            lines.append("Score: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in fields.items()))
        return lines

    def phase_name(self, phase_id: str) -> str:
        """The name a player reads for a phase (or step) id of the state: the printed name
        of the entry point of that id, else the id in words ("jp_move" -> "jp move")."""
        for entry in self.entry_points():
            if entry.id == phase_id and entry.description:
                return entry.description
        return in_words(phase_id)

    def guide(self) -> str:
        """The player's guide in our own words (``guide.md`` beside the game's module): how a
        turn goes, how to win, the rulebook's terms; empty if the game has none."""
        module = sys.modules.get(type(self).__module__)
        file = getattr(module, "__file__", None)
        if not file:
            return ""
        path = Path(file).parent / "guide.md"
        return path.read_text(encoding="utf-8") if path.is_file() else ""

    def cite(self, section: str) -> str:
        """A rule citation as a player reads it: the rulebook's name and the section."""
        book = self.info.rulebook or f"the {self.info.title} rules"
        return f"{book}, {section}" if section else book


def announced_game(game_id: str, title: str, players: tuple[str, ...], rulebook: str) -> Game:
    """A declared game whose rules are not written yet: listed, described, never playable."""

    class Announced(Game):
        """A game registered ahead of its rules."""

        info = GameInfo(id=game_id, title=title, version="0.0.0", players=players, playable=False,
                        rulebook=rulebook,
                        description="Not yet playable: the rules are being implemented.")

    Announced.__name__ = Announced.__qualname__ = f"Announced_{game_id}"
    return Announced()


SNAPSHOT_EVERY = 64
"""A match keeps a snapshot of its state at a resumable decision (one that carries a
:class:`~.decisions.ResumePoint`) when this many decisions have been taken since the last:
an undo or a fork where no resume point serves replays fewer than about this many. A match
built with ``snapshots=False`` (a study's) and a fork (a search's) keep none of their own."""


_FROZEN = [0]  # how many searches hold the collector frozen now (frozen_collector)
_FROZEN_LOCK = threading.Lock()
_FREEZES = [0]  # how many times frozen_collector has frozen the collector in this process

FULL_COLLECTION_EVERY = 32
"""Every this many times it freezes the collector, :func:`frozen_collector` first runs a
full collection (the others collect the young generations only)."""


@contextmanager
def frozen_collector() -> Iterator[None]:
    """Hold the cyclic garbage collector off the objects alive now while a search forks:
    ``with frozen_collector(): ...``. A search makes and drops thousands of forks, each a few
    hundred young objects, and every so often a full collection would walk everything alive,
    the match's log and map included, on whichever fork set it off; frozen
    (:func:`gc.freeze`), the old objects are left out of collections until the last search
    running in the process ends (:func:`gc.unfreeze`), and the forks' garbage is still
    collected young. Searches may nest and run in several threads.

    What was dropped since the last search (its forks and tree, garbage in cycles) is
    collected first: frozen with the objects alive, it would never be freed, a full
    collection seldom running between two searches (a searched game of Bonins grew by about
    1 MiB a decision, 18 GB in ten games). The young generations are collected every time,
    and every :data:`FULL_COLLECTION_EVERY` times the old one too, for the forks' objects
    that grew old during the search before they were dropped (Manila '45 grew by about
    0.4 MiB a decision with the young ones alone)."""
    with _FROZEN_LOCK:
        if _FROZEN[0] == 0:
            _FREEZES[0] += 1
            gc.collect(2 if _FREEZES[0] % FULL_COLLECTION_EVERY == 0 else 1)
            gc.freeze()
        _FROZEN[0] += 1
    try:
        yield
    finally:
        with _FROZEN_LOCK:
            _FROZEN[0] -= 1
            if _FROZEN[0] == 0:
                gc.unfreeze()


SNAPSHOTS_KEPT = 64
"""The most snapshots a match keeps: past it, every other one of the older half is dropped,
so a long game keeps them dense near its end and sparse near its start."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A match as it stood at a resumable decision: how many decisions were taken, copies of
    the state and dice (never changed: a match starting from it copies them again), the
    log's length, where the flow is entered again and the digest of the decision it asks
    there (:func:`~.decisions.asks_digest`), taken as it was asked: a game may change the
    decision object once it is answered (a list in its context it goes on filling), and
    what the flow must ask again is the decision as it stood then."""

    at: int
    state: State
    dice: Dice
    log_size: int
    point: ResumePoint
    asks: str


class _MatchEnded(Exception):
    """Raised inside a flow by :meth:`Match.end` to stop the game at once."""

    def __init__(self, result: Result) -> None:
        super().__init__(result.level)
        self.result = result


def _roll_listener(match: Match) -> Callable[[str, str, tuple[int, ...], int], None]:
    """What a match's dice report their rolls to: the match's log, through a weak reference,
    so that the dice do not keep the match alive (no reference cycle: a match nobody holds
    is freed at once, not left to the cyclic garbage collector)."""
    held = ref(match)

    def heard(purpose: str, section: str, faces: tuple[int, ...], sides: int) -> None:
        match = held()
        if match is not None:
            match._on_roll(purpose, section, faces, sides)

    return heard


class PhasedGame(Game):
    """The base of a game played turn after turn in a declared sequence of play
    (:class:`~.flow.SequenceOfPlay`): :meth:`play`, :meth:`entry_points` and
    :meth:`play_from` are built from the sequence and the game's phase handlers.

    The base reads :attr:`sequence` from ``sequence.yaml`` in the game's data folder
    (``data/`` beside its module, or beside that of the game it refines); the game gives
    :meth:`phase_handlers`, one procedure per phase id. It may refine :meth:`opening` (what
    comes before the first turn: set-up decisions),
    :meth:`begin_phase` and :meth:`end_phase` (the bookkeeping every phase shares),
    :meth:`first_turn` and :meth:`last_turn` (a span set by the scenario, an option or the
    play) and :meth:`check_end` (an end before the last turn). A position may start at the
    beginning of any phase (its id is the entry point), the opening done.
    """

    #: the phases of every turn, in order, and the turn span (see :meth:`last_turn`)
    sequence: SequenceOfPlay

    def __init__(self) -> None:
        # data/ beside the module of the game's class, or of the game it refines
        for cls in type(self).__mro__:
            file = getattr(sys.modules.get(cls.__module__), "__file__", None)
            if file and (Path(file).parent / "data").is_dir():
                self.sequence = SequenceOfPlay.load(Path(file).parent / "data" / "sequence.yaml")
                return
        raise DataError(f"game {self.info.id}: no data/ folder beside its module to read its "
                        "sequence of play from (sequence.yaml)")

    def phase_handlers(self) -> Mapping[str, PhaseHandler]:
        """Phase id -> the procedure that plays that phase (each phase of :attr:`sequence`
        has one; :func:`~.flow.run_turns` says which is missing)."""
        raise TabletopError(f"game {self.info.id} gives no phase handlers")

    def opening(self, match: Match) -> Flow:
        """What is played before the first turn (decisions of the set-up); by default
        nothing. A position at a phase of a turn starts after it."""
        return None
        yield  # pragma: no cover - makes this a generator

    def begin_phase(self, match: Match, phase: PhaseSpec) -> None:
        """What every phase does first, once the state names it (clear the phase's
        bookkeeping); by default nothing."""

    def end_phase(self, match: Match, phase: PhaseSpec) -> None:
        """What every phase does last, before :meth:`check_end` (control that follows from
        where the pieces stand); by default nothing."""

    def first_turn(self, match: Match) -> int:
        """The match's first turn: by default the sequence's."""
        return self.sequence.first_turn

    def last_turn(self, match: Match) -> int:
        """The match's last turn, asked again before each turn (it may change as the game
        goes): by default the sequence's."""
        return self.sequence.last_turn

    def check_end(self, match: Match) -> Result | None:
        """Asked after every phase: the result when the game ends there; by default None
        (the game ends after the last turn, :meth:`final_result`)."""
        return None

    def play(self, match: Match) -> Flow:
        """The opening, then the turns from the first."""
        yield from self.opening(match)
        return (yield from self.turns(match))

    def turns(self, match: Match, *, start_turn: int | None = None,
              start_phase: str | None = None, within: bool = False) -> Flow:
        """Every phase of every turn in order (:func:`~.flow.run_turns`), each between
        :meth:`begin_phase` and :meth:`end_phase`; from ``start_turn`` and ``start_phase``
        for a position, else from :meth:`first_turn`."""
        handlers = self.phase_handlers()

        def framed(phase: PhaseSpec) -> PhaseHandler:
            play = handlers[phase.id]

            def run(m: Match) -> Flow:
                if m.resuming is None or m.resuming.entry != phase.id:
                    self.begin_phase(m, phase)  # not again in a phase resumed within
                result = yield from play(m)
                self.end_phase(m, phase)
                return result
            return run

        return (yield from run_turns(
            match, self.sequence,
            {p.id: framed(p) for p in self.sequence.phases if p.id in handlers},
            last_turn=self.last_turn,
            check_end=self.check_end,
            start_turn=self.first_turn(match) if start_turn is None else start_turn,
            start_phase=start_phase, within=within))

    def entry_points(self) -> tuple[EntryPoint, ...]:
        """The beginning of each phase of the sequence of play, by its id."""
        return tuple(EntryPoint(p.id, p.section, p.name) for p in self.sequence.phases)

    def play_from(self, match: Match, entry: str) -> Flow:
        """The turns from the position's turn (at least the first), beginning with phase
        ``entry`` (``start`` is :meth:`play`)."""
        return (yield from self.turns(match, start_turn=max(self.first_turn(match), match.state.turn),
                                      start_phase=entry))

    def resume_flow(self, match: Match, point: ResumePoint) -> Flow:
        """The turns resumed within phase ``point.entry`` of the state's turn, already begun
        (neither entered nor begun again): its handler runs from its start and reads
        ``match.resumed(phase_id)`` to go back to the decision it asked. A game whose
        opening asks decisions resumes those itself (an entry that is no phase id)."""
        if point.entry not in {p.id for p in self.sequence.phases}:
            return (yield from super().resume_flow(match, point))
        return (yield from self.turns(match, start_turn=match.state.turn,
                                      start_phase=point.entry, within=True))


class Match:
    """One game being played: state, dice, log, the pending decision and the record.

    Build it with a game and a seed; read :attr:`pending`; answer with :meth:`decide` until
    :attr:`finished`. ``dice_script`` replaces the seeded dice with fixed faces (tests);
    ``forced`` forces rolls named by section and purpose, or stacks shuffles
    (``dice.force``, ``dice.stack``); ``position`` starts from a position rather than the
    set-up (see :meth:`from_position`). All three are part of the record's header.
    ``free_undo`` lets :meth:`undo` go back past dice and reveals (the record says so, and
    the dice are then keyed by the position in the decision sequence: :class:`KeyedDice`).
    ``snapshots=False`` keeps no snapshots (:data:`SNAPSHOT_EVERY`): a match that is played
    through and never undone (a study's) saves their cost; it undoes by replay.
    """

    def __init__(self, game: Game, *, scenario: str | None = None, seed: int = 0,
                 options: Mapping[str, JSON] | None = None,
                 dice_script: list[int] | None = None,
                 forced: Sequence[ForcedRoll | StackedShuffle] = (),
                 position: Position | None = None, source: str = "position",
                 free_undo: bool = False, snapshots: bool = True) -> None:
        if not game.info.playable:
            raise TabletopError(f"game {game.info.id} is not playable yet")
        check_declarations(game)
        self.game = game
        self.scenario = game.info.scenario(scenario).id
        self.seed = int(seed)
        self.options = game.info.resolve_options(options)
        self.dice_script = list(dice_script) if dice_script is not None else None
        self.free_undo = bool(free_undo)
        self.undos_past_chance = 0  # free undos that went back past a roll or a reveal
        self.forced = [f.to_json() for f in forced]
        self.position = position
        self.edited_from: dict[str, JSON] | None = None
        if position is not None:
            if position.game != game.info.id:
                raise TabletopError(f"{source}: the position is for game {position.game!r}, "
                                    f"not {game.info.id!r}")
            check_entry(game, position, source=source)
        self.dice: Dice = self._new_dice(source)
        self.state = State()
        self.log = EventLog()
        self.decisions: list[JSON] = []
        self.pending: Decision | None = None
        self.result: Result | None = None
        self._flow: Flow | None = None
        self._version = 0
        # the pieces as views show them (views.py), by the game's rule if it has its own
        self.shared_board = SharedBoard(
            None if type(self.game).stack_view is Game.stack_view else self.game.stack_view)
        self._secrets: dict[str, tuple[int, Any, dict[str, str]]] = {}  # see _secrets_of
        #: the resume point a fork's flow is entered at, until the flow takes its args
        self.resuming: ResumePoint | None = None
        self._snapshots: list[Snapshot] = []  # see _keep_snapshot
        #: decisions between two snapshots (0: none taken; a study's match never undoes)
        self.snapshot_every = SNAPSHOT_EVERY if snapshots else 0
        #: how this match was made by :meth:`fork`: "resume" (the state copied, the flow
        #: entered again at the decision), "snapshot N" (from the snapshot at decision N, the
        #: decisions since replayed), "replay" (from the start); "" when not a fork
        self.forked_by = ""
        check_game_data(self.game)  # bad data is one message, not an error in the set-up
        self.game.setup(self)
        if position is None or position.start == START:
            if position is not None:
                self._enter_position(position, source)
            self.flow_start = len(self.log)
            self._flow = self.game.play(self)
        else:
            self._enter_position(position, source)
            self.flow_start = len(self.log)
            self._flow = self.game.play_from(self, position.start)
        check_before_play(self)
        self._advance(None, first=True)

    def _new_dice(self, source: str) -> Dice:
        """The match's dice as its header makes them, before any roll: seeded, scripted or
        keyed (free undo), with the header's and the position's forced rolls."""
        position = self.position
        rigged = [*forced_from_json(self.forced),
                  *(position.forced() if position is not None else ())]
        dice: Dice
        if self.dice_script is not None:
            dice = ScriptedDice(self.dice_script, self.seed, forced=rigged)
        else:
            dice = KeyedDice(self.seed, forced=rigged) if self.free_undo \
                else Dice(self.seed, forced=rigged)
        purposes = roll_purposes(self.game)  # forced rolls name the game's declared rolls
        # a position's entries are named by its file and their place in its `dice:` list
        for n, entry in enumerate(rigged[len(self.forced):] if purposes else ()):
            try:
                entry.resolve(purposes)
            except TabletopError as exc:
                field = "roll" if isinstance(entry, ForcedRoll) else "shuffle"
                raise TabletopError(f"{source}: dice.{n}.{field}: {exc}") from None
        dice.declare(purposes)
        dice.listener = _roll_listener(self)
        return dice

    @classmethod
    def restore(cls, game: Game, *, scenario: str | None, seed: int,
                options: Mapping[str, JSON] | None, dice_script: list[int] | None,
                forced: Sequence[ForcedRoll | StackedShuffle], position: Position | None,
                edited_from: dict[str, JSON] | None, free_undo: bool, undos_past_chance: int,
                state: State, dice: Mapping[str, JSON], log: EventLog, decisions: list[JSON],
                flow_start: int, point: ResumePoint) -> Match:
        """A match rebuilt without replaying its record: the header's facts, the state and
        the dice's progress (:meth:`~.dice.Dice.progress_json`) as they stood when a
        resumable decision was asked, the log and decisions up to it, and the flow entered
        again at its resume point (what a save's restore point keeps; see
        :mod:`~.resume`). The state is the match's own (not copied). The flow must ask a
        decision having rolled, logged and changed nothing, else TabletopError; the caller
        checks it is the decision the save says. A snapshot is kept there, so that undo and
        forks start from it rather than from the beginning."""
        if not game.info.playable:
            raise TabletopError(f"game {game.info.id} is not playable yet")
        check_declarations(game)
        match = cls.__new__(cls)
        match.game = game
        match.scenario = game.info.scenario(scenario).id
        match.seed = int(seed)
        match.options = game.info.resolve_options(options)
        match.dice_script = list(dice_script) if dice_script is not None else None
        match.free_undo = bool(free_undo)
        match.undos_past_chance = undos_past_chance
        match.forced = [f.to_json() for f in forced]
        match.position = position
        match.edited_from = edited_from
        match.dice = match._new_dice("the save")
        try:
            match.dice.restore_progress(dice)
        except ValueError as exc:
            raise TabletopError(f"the saved dice do not fit the match: {exc}") from None
        match.state = state
        match.log = log
        match.decisions = list(decisions)
        match.pending = None
        match.result = None
        match._flow = None
        match._version = 0
        match.shared_board = SharedBoard(
            None if type(game).stack_view is Game.stack_view else game.stack_view)
        match._secrets = {}
        match.resuming = None
        match._snapshots = []
        match.snapshot_every = SNAPSHOT_EVERY
        match.forked_by = ""
        match.flow_start = flow_start
        check_game_data(game)
        if not match._enter(point, None):
            raise TabletopError(f"{game.info.id}: the flow entered again at {point} does not ask "
                                "a decision without rolling, logging or changing anything first")
        if not match._snapshots:  # the flow's first decision took one when it could
            match._keep_snapshot(point)
        return match

    def last_snapshot(self) -> Snapshot | None:
        """The latest snapshot the match keeps (None: none yet): where a save whose pending
        decision cannot be asked again restores from."""
        return self._snapshots[-1] if self._snapshots else None

    def asked_again(self, snapshot: Snapshot) -> Decision | None:
        """The decision the flow asks when entered again at ``snapshot`` (on copies of its
        state and dice): what a save restoring from the snapshot finds asked. None if it is
        not the decision asked when the snapshot was taken (its digest,
        :attr:`Snapshot.asks`), or the flow rolls, logs or changes anything first."""
        twin = self._twin(snapshot.state.copy(), snapshot.dice.copy(), snapshot.log_size,
                          snapshot.at)
        return twin.pending if twin._enter(snapshot.point, snapshot.asks) else None

    def _enter_position(self, position: Position, source: str) -> None:
        apply_position(self, position, source=source)
        check_position(self, position, source=source)
        section = next((e.section for e in self.game.entry_points() if e.id == position.start), "")
        # The description stays in the header (the game master's): it may name hidden units.
        self.emit("position", section, f"start from a position at {position.start!r}",
                  start=position.start)

    @classmethod
    def from_position(cls, game: Game, position: Position, *, source: str = "position",
                      forced: Sequence[ForcedRoll | StackedShuffle] = (),
                      dice_script: list[int] | None = None, free_undo: bool = False) -> Match:
        """A match started from a position: the scenario's set-up changed as the position
        says, checked by the game, its flow started at the position's entry point (so the
        pending decision is computed from the position). ``source`` names the position in
        error messages (a file name)."""
        return cls(game, scenario=position.scenario, seed=position.seed,
                   options=position.options, dice_script=dice_script, forced=forced,
                   position=position, source=source, free_undo=free_undo)

    def edit(self) -> AbstractContextManager[State]:
        """Edit the state of a running match: ``with match.edit() as state: ...`` changes a
        copy, then the flow restarts from it, so the pending decision is recomputed (never
        stale); an edit that cannot be honoured is refused and changes nothing. See
        :func:`tabletop.core.engine.position.editing`."""
        return editing(self)

    def adopt(self, other: Match) -> None:
        """Become ``other`` (a match of the same game): its state, flow, log and record."""
        for name in ("scenario", "seed", "options", "dice_script", "forced", "position",
                     "edited_from", "flow_start", "free_undo", "undos_past_chance"):
            setattr(self, name, getattr(other, name))
        self._take_over(other)

    # -- the loop ----------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        """True once the game has ended (a result is set)."""
        return self.result is not None

    def decide(self, value: JSON) -> None:
        """Answer the pending decision with an option's value and run to the next one.

        An illegal value raises IllegalDecision and changes nothing.
        """
        decision = self.pending
        if decision is None:
            raise GameOver("the match is over; there is no decision to take")
        index = decision.index_of(value)
        if index is None:
            shown = ", ".join(str(o.value) for o in decision.options[:12])
            more = " ..." if len(decision.options) > 12 else ""
            raise IllegalDecision(
                f"{value!r} is not a legal answer to {decision.prompt!r} ({decision.section}); "
                f"legal: {shown}{more}")
        self.decide_index(index)

    def decide_index(self, index: int) -> None:
        """Answer the pending decision with the option at ``index`` (0-based)."""
        decision = self.pending
        if decision is None:
            raise GameOver("the match is over; there is no decision to take")
        if not 0 <= index < len(decision.options):
            raise IllegalDecision(f"option {index} is out of range 0..{len(decision.options) - 1}")
        option = decision.options[index]
        player, value = decision.player, option.value
        self.decisions.append(value)
        text = f"{player}: {decision.prompt} -> {option.label or value}"
        if decision.private:
            self.emit("decision", decision.section, text, player=player, value=value,
                      visible_to=(player,))
        elif kept_from := self._told_secrets(player, [text, value]):
            seen_by = tuple(p for p in self.game.info.players if p not in kept_from)
            self.emit("decision", decision.section, text, player=player, value=value,
                      visible_to=seen_by,
                      mask=f"{player} decides ({decision.section}; not shown: it names a "
                           "unit hidden from you)")
        else:
            self.emit("decision", decision.section, text, player=player, value=value)
        self.dice.at_decision(len(self.decisions))
        self._advance(value)

    def _told_secrets(self, player: str, said: JSON) -> list[str]:
        """The other players who would learn, from what ``player`` said, the identity of one
        of ``player``'s pieces hidden from them (the decision's log line is masked for them)."""
        if not self.state.pieces.any_hidden(player):
            return []
        return [other for other in self.game.info.players
                if other != player and find_leaks(self._secrets_of(other), "", said)]

    def _secrets_of(self, player: str) -> dict[str, str]:
        """:func:`~.visibility.secrets_of` ``player``, kept while no piece changes (the pieces'
        registry's revision clock, :class:`~.pieces.RevisionClock`, has not moved): the caller
        must not change it."""
        reg = self.state.pieces
        now = reg.clock.now
        held = self._secrets.get(player)
        if held is None or held[0] != now or held[1] is not reg:
            held = self._secrets[player] = (now, reg, secrets_of(self, player))
        return held[2]

    def progress(self) -> tuple[int, int]:
        """A stamp that changes whenever the match moves on (decisions, undo, events)."""
        return self._version, len(self.log)

    def _advance(self, value: JSON, *, first: bool = False) -> None:
        self._version += 1
        flow = self._flow
        assert flow is not None
        try:
            pending = self.pending = next(flow) if first else flow.send(value)
        except StopIteration as stop:
            self._finish(stop.value if isinstance(stop.value, Result) else None)
            return
        except _MatchEnded as ended:
            self._finish(ended.result)
            return
        except TabletopError:
            raise
        except Exception as exc:  # a bug in the game (or the engine): say where it came up
            state = self.state
            exc.add_note(f"{self.game.info.id} {self.game.info.version}, scenario "
                         f"{self.scenario}, seed {self.seed}, turn {state.turn}"
                         f"{', ' + state.phase if state.phase else ''}, after decision "
                         f"{len(self.decisions)}")
            raise
        every = self.snapshot_every
        if every and pending.resume is not None:
            kept = self._snapshots
            if not kept or len(self.decisions) - kept[-1].at >= every:
                self._keep_snapshot(pending.resume)

    # -- snapshots and forks -----------------------------------------------------------
    def _keep_snapshot(self, point: ResumePoint) -> None:
        """Keep a copy of the state at the pending decision, which the flow can be entered
        at again (``point``), and the digest of the decision as it is asked now (not the
        object, which the game may change once it is answered): what forks, undos and
        restarts start from."""
        assert self.pending is not None
        kept = self._snapshots
        kept.append(Snapshot(len(self.decisions), self.state.copy(), self.dice.copy(),
                             len(self.log), point, asks_digest(self.pending)))
        if len(kept) > SNAPSHOTS_KEPT:  # thin the older half: undo goes back mostly a little
            half = len(kept) // 2
            kept[:half] = kept[:half:2]

    def resumed(self, entry: str) -> JSON:
        """The args of the resume point the flow is being entered at again when its entry
        is ``entry`` (a phase handler asks with its phase id as it starts), taken once;
        None when the flow is not being resumed there (it runs from the start)."""
        point = self.resuming
        if point is None or point.entry != entry:
            return None
        self.resuming = None
        return point.args

    def fork(self, *, strict: bool = False) -> Match:
        """An independent match at the same decision: the same state, dice, log and record,
        sharing nothing that changes with this one, so that the same answers (and so the
        same dice) give the same states, and a change to one never reaches the other.

        When the pending decision can be asked again (it carries a
        :class:`~.decisions.ResumePoint`), the fork is a copy of the state and the flow
        entered there; else it starts from the last snapshot and replays the decisions
        since (with none, from the start). :attr:`forked_by` says which. A resume point
        that does not ask the decision again is the game's fault: ``strict`` raises
        TabletopError naming it (the fork conformance check), else the fork replays."""
        decision = self.pending
        if decision is not None and decision.resume is not None:
            twin = self._twin(self.state.copy(), self.dice.copy(), len(self.log),
                              len(self.decisions))
            if twin._enter(decision.resume, decision):
                twin.forked_by = "resume"
                return twin
            if strict:
                raise TabletopError(
                    f"{self.game.info.id}: the flow entered again at {decision.resume} does not "
                    f"ask {decision.prompt!r} ({decision.section}, decision "
                    f"{len(self.decisions) + 1}) without rolling, logging or changing anything first")
        return self._rewound(len(self.decisions))

    def _twin(self, state: State, dice: Dice, log_size: int, taken: int) -> Match:
        """A match with this one's header, game and these copies, the first ``taken``
        decisions and ``log_size`` events of this one, and no flow yet."""
        twin = Match.__new__(Match)
        for name in ("game", "scenario", "seed", "options", "dice_script", "free_undo",
                     "undos_past_chance", "forced", "position", "edited_from", "flow_start",
                     "_version"):
            setattr(twin, name, getattr(self, name))
        twin.state, twin.dice = state, dice
        dice.listener = _roll_listener(twin)
        twin.log = self.log.copy(log_size)
        twin.decisions = self.decisions[:taken]
        twin.pending = None
        twin.result = None
        twin._flow = None
        twin.shared_board = SharedBoard(
            None if type(self.game).stack_view is Game.stack_view else self.game.stack_view)
        twin._secrets = {}
        twin.resuming = None
        twin.forked_by = ""
        twin.snapshot_every = 0  # a fork is searched, not undone: it keeps its match's only
        twin._snapshots = [s for s in self._snapshots if s.at <= taken]
        return twin

    def _enter(self, point: ResumePoint, expected: Decision | str | None) -> bool:
        """Enter the game's flow again at ``point`` (:meth:`Game.resume_flow`); True when it
        asks ``expected`` first (a decision equal to it; a decision of that digest,
        :func:`~.decisions.asks_digest`, when a string; any decision when None), having rolled,
        logged and changed nothing: the game kept the promise of its resume point."""
        before = (len(self.log), self.dice.rolls, self.state.pieces.clock.now)
        self.resuming = point
        self._flow = self.game.resume_flow(self, point)
        try:
            self._advance(None, first=True)
        except TabletopError:
            return False
        finally:
            self.resuming = None
        asked = self.pending
        if asked is None or before != (len(self.log), self.dice.rolls, self.state.pieces.clock.now):
            return False
        if isinstance(expected, str):
            return asks_digest(asked) == expected
        return expected is None or asked == expected

    def _rewound(self, taken: int) -> Match:
        """A new match at the moment the first ``taken`` decisions of this one were taken:
        from the last snapshot at or before it, the decisions since replayed (from the
        start when no snapshot serves)."""
        for snap in reversed(self._snapshots):
            if snap.at > taken:
                continue
            twin = self._twin(snap.state.copy(), snap.dice.copy(), snap.log_size, snap.at)
            if twin._enter(snap.point, snap.asks):
                for value in self.decisions[snap.at:taken]:
                    twin.decide(value)
                twin.forked_by = f"snapshot {snap.at}"
                return twin
        fresh = self._replayed(self.decisions[:taken])
        fresh._snapshots = [s for s in fresh._snapshots if s.at <= taken]
        fresh.forked_by = "replay"
        return fresh

    def _finish(self, result: Result | None) -> None:
        self.pending = None
        self.result = result or self.game.final_result(self)
        self.emit("end", self.result.section, f"game over: {self.result.level}",
                  result=self.result.to_json())

    def end(self, result: Result) -> NoReturn:
        """End the game now with this result (called from inside a flow)."""
        raise _MatchEnded(result)

    # -- events ------------------------------------------------------------------------
    def emit(self, kind: str, section: str, text: str, *, visible_to: tuple[str, ...] = (),
             mask: str = "", **data: Any) -> Event:
        """Append an event to the log, stamped with the current turn and phase.

        ``visible_to`` limits who may see it (views, the terminal); empty means everyone. The
        others see nothing of it, or ``mask`` (a text naming nothing hidden from them).
        """
        state = self.state
        return self.log.add(kind, section, text, state.turn, state.phase, data, tuple(visible_to),
                            mask)

    def reveal(self, piece: Piece, section: str, text: str, /, *, to: tuple[str, ...] = (),
               **data: Any) -> Event:
        """The rules show a hidden piece's identity (to every side, or to ``to`` and its own),
        for a moment or for good: the event that says so may name it, and so may later events
        while the piece stays where it was shown (any event with ``revealed=piece.id`` in its
        data says the same). Whether the piece stays hidden is the game's ``piece.hidden``."""
        seen = tuple(dict.fromkeys((*to, piece.side))) if to else ()
        return self.emit("reveal", section, text, visible_to=seen, revealed=piece.id, **data)

    def _on_roll(self, purpose: str, section: str, faces: tuple[int, ...], sides: int) -> None:
        if sides == 0:
            self.emit("shuffle", section, f"shuffle: {purpose}", purpose=purpose)
        else:
            shown = " ".join(str(f) for f in faces)
            self.emit("roll", section, f"roll {len(faces)}d{sides} for {purpose}: {shown}",
                      purpose=purpose, dice=len(faces), faces=list(faces), sides=sides)

    # -- identity, record --------------------------------------------------------------
    def header(self) -> dict[str, JSON]:
        """The record header: game, versions, scenario, options, seed (and any dice script)."""
        head: dict[str, JSON] = {
            "game": self.game.info.id, "game_version": self.game.info.version,
            "engine_version": engine_version(), "scenario": self.scenario,
            "options": thaw(self.options), "seed": self.seed,
        }
        if self.dice_script is not None:
            head["dice_script"] = list(self.dice_script)
        if self.forced:
            head["forced_dice"] = list(self.forced)
        if self.position is not None:
            head["position"] = self.position.to_json()
        if self.edited_from is not None:
            head["edited_from"] = self.edited_from
        if self.free_undo:
            head["free_undo"] = True
            head["undos_past_chance"] = self.undos_past_chance
        return head

    def state_json(self) -> dict[str, JSON]:
        """The whole match state as canonical JSON: the position plus dice and progress."""
        return {
            "state": self.state.to_json(),
            "dice": self.dice.state_json(),
            "decisions": len(self.decisions),
            "result": self.result.to_json() if self.result else None,
        }

    def state_hash(self) -> str:
        """A stable hash of the whole match state (same seed and decisions, same hash)."""
        return digest(self.state_json())

    def legal(self) -> tuple[Option, ...]:
        """The options of the pending decision (empty when the match is over)."""
        return self.pending.options if self.pending else ()

    def view(self, player: str | None) -> Mapping[str, Any]:
        """What one player may see, read-only (see :meth:`Game.view`); None: the game master."""
        return self.game.view(self, player)

    def script_dice(self, faces: Sequence[int]) -> ScriptedDice:
        """From now on roll exactly these faces (for tests of a position built by hand).

        The match's record no longer replays once its dice are replaced this way.
        """
        dice = ScriptedDice(list(faces), self.seed)
        dice.listener = _roll_listener(self)
        self.dice = dice
        return dice

    def undo(self, count: int = 1, *, by: Collection[str] | None = None) -> None:
        """Take back the last ``count`` decisions by replaying the record without them.

        Undo is honest: it never re-rolls a die or un-sees a revealed unit or card. Unless
        the match allows free undo, it may go back to the last roll, shuffle or reveal and
        not past it (:meth:`undo_limit`); a free undo past one is counted in the record.
        ``by`` names the sides played by the people undoing (the terminal's): only what was
        hidden from one of them counts as revealed (a solitaire player's own card shown to
        the rules' side does not); None counts what was hidden from any side.
        """
        if count < 1 or count > len(self.decisions):
            raise TabletopError(f"cannot undo {count} decision(s); {len(self.decisions)} taken")
        keep = len(self.decisions) - count
        floor, why = self.undo_limit(by=by)
        if keep < floor:
            if not self.free_undo:
                most = len(self.decisions) - floor
                raise TabletopError(f"cannot undo {count} decision(s): {why} stands "
                                    f"(at most {most} decision(s) can be undone now)")
            self.undos_past_chance += 1
        self._take_over(self._rewound(keep))

    def undo_limit(self, *, by: Collection[str] | None = None) -> tuple[int, str]:
        """How many decisions an honest undo must keep, and what fixes that limit.

        Every decision taken before the last die roll or shuffle stays taken, and so does
        every decision before a reveal one of ``by`` (every side when None) saw: a ``reveal``
        event shown to them, or a piece hidden from them (or a card in a pile secret from
        them) that is no longer so when a later decision comes up. When ``by`` is given, an
        answer by a side not in it (a bot's) stands too.
        """
        who = tuple(by) if by is not None else tuple(self.game.info.players)
        floor, why, taken = 0, "nothing", 0
        for event in self.log:
            if event.kind == "decision":
                taken += 1
                if by is not None and event.data.get("player") not in who:
                    # another side has answered since: a bot would not answer the same way
                    # twice (its own dice), and its move was seen
                    floor, why = taken, f"{event.data.get('player')}'s answer (decision {taken})"
            elif event.kind in CHANCE_EVENTS and (event.kind != "reveal"
                                                  or any(event.is_visible_to(s) for s in who)):
                said = f" ({event.text})" if not event.visible_to else ""  # quoted only if public
                floor, why = taken, f"the {event.kind} after decision {taken}{said}"
        if floor == len(self.decisions):
            return floor, why
        probe = self._rewound(floor)
        before = probe.secrets(who)
        for n in range(floor, len(self.decisions)):
            probe.decide(self.decisions[n])
            now = probe.secrets(who)
            seen = before - now  # named by count only: the message goes to every side
            if seen:
                floor, why = n + 1, (f"what decision {n + 1} revealed ({len(seen)} hidden "
                                     f"piece(s) or card(s))")
            before = now
        return floor, why

    def secrets(self, players: Collection[str] | None = None) -> frozenset[str]:
        """What one of ``players`` (every side when None) has not seen yet: the pieces hidden
        from them, and the cards in piles secret from them (:attr:`Game.secret_piles`, other
        players' hands)."""
        who = tuple(players) if players is not None else tuple(self.game.info.players)
        out = {f"piece {p.id}" for p in self.state.pieces
               if p.hidden and any(is_hidden_from(p, s) for s in who)}
        for deck_id, deck in self.state.decks.items():
            for name, cards in deck.piles.items():
                if cards and any(is_secret_pile(self.game, name, s) for s in who):
                    out.update(f"card {deck_id}/{card}" for card in cards)
        return frozenset(out)

    def _replayed(self, decisions: Sequence[JSON]) -> Match:
        """A fresh match with the same header, these decisions taken."""
        fresh = self.restart()
        for value in decisions:
            fresh.decide(value)
        return fresh

    def restart(self) -> Match:
        """A new match from the same header: game, scenario, options, seed, dice, position,
        free undo."""
        return Match(self.game, scenario=self.scenario, seed=self.seed, options=self.options,
                     dice_script=self.dice_script, forced=forced_from_json(self.forced),
                     position=self.position, free_undo=self.free_undo)

    def _take_over(self, other: Match) -> None:
        self._version += other._version + 1
        for name in ("dice", "state", "log", "decisions", "pending", "result", "_flow",
                     "_snapshots"):
            setattr(self, name, getattr(other, name))
        self.dice.listener = _roll_listener(self)

    def run(self, agents: Mapping[str, Agent], *, max_decisions: int | None = None) -> Result | None:
        """Let agents answer every decision until the end (or ``max_decisions``)."""
        taken = 0
        while self.pending is not None:
            if max_decisions is not None and taken >= max_decisions:
                return None
            decision = self.pending
            agent = agents.get(decision.player)
            if agent is None:
                raise TabletopError(f"no agent plays side {decision.player!r}")
            self.decide(agent.choose(self.view(decision.player), decision))
            taken += 1
        return self.result
