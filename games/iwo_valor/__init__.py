"""Iwo Jima: Valor of Arms (SPI, S&T #92): the game plugin.

Rulebook: shared/rules/iwo_valor.txt. The components the rulebook does not print are
reconstructed in ``data/`` (see docs/games/iwo_valor.md). Solitaire: the player is the
Marine task force commander; the Japanese side is the rules' own procedure (mandatory
attacks, the Attack Priorities Chart, the night rolls) and never decides anything.

Rule modules, by part of the rulebook: ``setup`` (III, XI set-ups), ``planning`` (IV.A),
``movement`` (IV.B, V, VI, landings), ``common`` (VII supply, III.3 fog of war, losses,
the VP track), ``japanese_combat`` (IV.C, IX), ``marine_combat`` (IV.D, VIII),
``turn_end`` (IV.E, IV.F, IV.G), this module (X victory, XI scenarios), ``bots``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import ClassVar

from pydantic import BaseModel

from tabletop.core.board.fog import reveal_near
from tabletop.core.board.hexmap import HexMap
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import Decision, ResumePoint
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.flow import PhaseHandler, PhaseSpec
from tabletop.core.engine.match import (
    AgentFactory,
    EntryPoint,
    Flow,
    GameInfo,
    GameOption,
    Match,
    PhasedGame,
    Result,
    ScenarioInfo,
)
from tabletop.core.engine.pieces import Piece
from tabletop.core.engine.position import START, Position
from tabletop.core.engine.routes import Routes
from tabletop.core.engine.tables import parse_span

from . import common as c
from .components import DATA_MODELS, VPLevel

VERSION = "1.1.0"
NARROW_MULTIPLIER = Fraction("2.667")  # XI.C "multiply ... by 2667": read as 2.667
TWO_THIRDS_MULTIPLIER = Fraction("1.625")  # XI.C "1625": read as 1.625 (variant not offered)


#: IV: steps within a phase a position may start at (entry: section, description, the
#: phase, and the args of a decision of that step, with which its handler skips the steps
#: before it)
STEP_ENTRIES: Mapping[str, tuple[str, str, str, Mapping[str, JSON]]] = MappingProxyType({
    "reinforcements": ("IV.B.2", "Marine Movement Phase, Step 2: reinforcements land (on turn 1 "
                       "the second wave first); Step 1's moves skipped", "movement",
                       MappingProxyType({"stage": "IV.B.2", "landed": (), "at": "second_wave"})),
    "regular_fire": ("IV.C.4", "Japanese Combat Phase, Step 4: regular fire; Steps 1-3's artillery "
                     "strikes skipped", "jp_combat",
                     MappingProxyType({"step": "regular", "at": "fire_order", "fired": ()})),
    "attacks": ("IV.D.4", "Marine Combat Phase, Step 4: attacks announced; Steps 1-3's fatigue "
                "skipped", "marine_combat", MappingProxyType({"at": "attack", "announced": ()})),
    "banzai": ("IV.F.3", "Night Phase, Step 3: a Banzai Charge; Step 1's roll skipped", "night",
               MappingProxyType({"at": "banzai"})),
})


class Valor(PhasedGame):
    """The game: identity, set-up (III), sequence of play (IV), victory (X), scenarios (XI)."""

    #: IV.B.1: the choice of the unit to move, whose destination is then chosen on the map
    mover_kinds = frozenset({"select_unit"})

    info = GameInfo(
        id="iwo_valor",
        title="Iwo Jima: Valor of Arms",
        version=VERSION,
        players=(c.US, c.JAPAN),
        starter_scenario=c.LOD,
        scenarios=(
            ScenarioInfo(c.FULL, "The 35-turn game (X)",
                         "19 Feb - 25 Mar 1945: clear the island by the end of turn 35.",
                         automatic=(c.JAPAN,)),
            ScenarioInfo(c.LOD, "Line of Departure (XI.A)", "Six turns; the schedule printed in XI.A.",
                         automatic=(c.JAPAN,)),
            ScenarioInfo(c.SANDS, "Sands of Iwo Jima (XI.B)",
                         "Fourteen turns; the schedule printed in XI.B.", automatic=(c.JAPAN,)),
            ScenarioInfo(c.NARROW, "The Narrow Game (XI.C, S. V. Cole)",
                         "The 4th Division against the Southern and Eastern areas from turn 4; "
                         "VP x 2.667 (the article's '2667') at the end.", automatic=(c.JAPAN,)),
            ScenarioInfo(c.VERY_SHORT, "The Very Short Game (XI.C, S. V. Cole) - partly RECONSTRUCTED",
                         "D/312, E/312, B/312 on Suribachi against the 28th Marines from turn 2, 2 "
                         "support points a turn, until the three are eliminated. Ours: the result "
                         "(the Japanese VP total, no victory level), the cap at turn 35, the beach "
                         "the 28th landed on (Minami), no replacements (the game's notes in the "
                         "documentation say why).",
                         automatic=(c.JAPAN,)),
        ),
        options=(
            GameOption("regular_fire", "IX.C against IV.C.4: which Japanese units fire at the "
                       "Marines", "adjacent", ("adjacent", "within_two"),
                       ("those next to Marines (IX.C)", "those within two hexes (IV.C.4)")),
            GameOption("borrow_support", "XI.C Narrow Game option: borrowing support points, "
                       "repaid next turn plus one", "no", ("no", "yes"),
                       ("not allowed", "allowed")),
            GameOption("narrow_deadline", "XI.C Narrow Game: its 60 and 120 VP (X.A's 160 and 320 "
                       "over 2.667) end the game", "before", ("before", "on_or_before"),
                       ("before turns 7 and 15, as X.A times them",
                        "on or before them, as the article words it")),
            GameOption("ind_beach", "VII.B against IV.A.3: where the Independent Regiment traces "
                       "Supply to", "hex", ("hex", "beach"),
                       ("a beach hex on which Marine units previously landed (VII.B)",
                        "any hex of a beach on which Marine units previously landed (IV.A.3)")),
        ),
        playable=True,
        solitaire=True,
        human_side=c.US,
        rulebook="Iwo Jima: Valor of Arms Rulebook",
        description="Iwo Jima, 19 Feb - 25 Mar 1945, company level on 250 m hexes; solitaire.",
    )

    #: every kind of decision the rules ask (the conformance check holds the game and its bots to it)
    decision_kinds = frozenset({
        "armour", "attack", "banzai", "banzai_target", "beach", "borrow", "destination",
        "fire_order", "independent", "infiltration", "land", "loss", "overstack",
        "priority_tie", "replacement", "select_landing", "select_unit", "setup", "support",
        "wave", "withdraw"
    })
    #: Every game variable is public (on the map or the tracks for all to see); none names a
    #: face-down unit (III.3): the opportunity-fire record names only units that fired, which
    #: were revealed first.
    var_visibility: ClassVar[Mapping[str, str | tuple[str, ...]]] = MappingProxyType({
        key: "public" for key in (
            c.V_SCENARIO, c.V_BEACH, c.V_LANDED, c.V_IND, c.V_CLASS1, c.V_FLAG_TURN, c.V_MOVED,
            c.V_HQ_HEXES, c.V_FIRED, c.V_STRUCK, c.V_ATTACKED, c.V_FIRST_TURN, c.V_LAST_TURN,
            c.V_FRACTIONS, c.V_DEBT, c.V_PAYING, c.V_ARMOUR_USED, "narrow_areas")})

    # -- data --------------------------------------------------------------------------
    def data_models(self) -> dict[str, type[BaseModel]]:
        """The models of the game's own data files (for `tabletop validate`)."""
        return dict(DATA_MODELS)

    def load_data(self) -> str:
        """Load and cross-check every component."""
        return c.components().summary()

    # -- III set-up ----------------------------------------------------------------------
    def setup(self, match: Match) -> None:
        """II, III.1-3: every piece in place, the Japanese face-down in their areas."""
        from .setup import build

        build(match)
        match.state.turn = match.state.vars[c.V_FIRST_TURN]

    # -- IV sequence of play -----------------------------------------------------------
    def opening(self, match: Match) -> Flow:
        """III.4-6 (or XI's set-up), before the first Game Turn."""
        from .setup import opening

        yield from opening(match)
        return None

    def resume_flow(self, match: Match, point: ResumePoint) -> Flow:
        """The flow entered again at a decision (a fork, ``Match.fork``): the opening's (III.4,
        XI.C's set-ups, entry :data:`~common.OPENING`) from the units still to place, then
        the turns; a phase's from its handler, which reads the point's args
        (``match.resumed``)."""
        if point.entry != c.OPENING:
            return (yield from super().resume_flow(match, point))
        from .setup import opening

        match.resumed(c.OPENING)
        yield from opening(match, resumed=True)
        return (yield from self.turns(match))

    def entry_points(self) -> tuple[EntryPoint, ...]:
        """IV: the beginning of each phase, and the steps within a phase a rule test starts
        at, the phase's earlier steps skipped (:data:`STEP_ENTRIES`)."""
        return (*super().entry_points(),
                *(EntryPoint(e, section, text) for e, (section, text, _, _) in STEP_ENTRIES.items()))

    def play_from(self, match: Match, entry: str) -> Flow:
        """The turns from a phase, or from a step of one (:data:`STEP_ENTRIES`): the phase is
        entered as a decision of that step enters it again (its handler reads the step's
        args, ``match.resumed``), so the steps before it are not played."""
        step = STEP_ENTRIES.get(entry)
        if step is None:
            return (yield from super().play_from(match, entry))
        _, _, phase, args = step
        self.begin_phase(match, next(p for p in self.sequence.phases if p.id == phase))
        match.resuming = ResumePoint(phase, {k: list(v) if isinstance(v, tuple) else v
                                             for k, v in args.items()})
        return (yield from super().play_from(match, phase))

    def phase_handlers(self) -> Mapping[str, PhaseHandler]:
        """IV: the phases of a Game Turn (a position may start at any of them, the opening
        of III.4-6 or of XI.C's set-ups done)."""
        from . import japanese_combat, marine_combat, movement, planning, turn_end

        return {
            "planning": planning.planning_phase,
            "movement": movement.movement_phase,
            "jp_combat": japanese_combat.japanese_combat_phase,
            "marine_combat": marine_combat.combat_phase,
            "replacement": turn_end.replacement_phase,
            "night": turn_end.night_phase,
            "record": self.record_phase,
        }

    def begin_phase(self, match: Match, phase: PhaseSpec) -> None:
        """A phase's bookkeeping starts empty (but the Record Phase's, which reads it)."""
        if phase.id != "record":
            c.reset_phase_vars(match)

    def record_phase(self, match: Match) -> Flow:
        """IV.G.1-5 (``turn_end.record_phase``); the hexes struck by artillery this turn
        (IV.C.2) are forgotten."""
        from . import turn_end

        turn_end.record_phase(match)
        match.state.vars[c.V_STRUCK] = []
        return None
        yield  # a generator, though it asks nothing

    def first_turn(self, match: Match) -> int:
        """XI: the scenario's first Game Turn."""
        return int(match.state.vars[c.V_FIRST_TURN])

    def last_turn(self, match: Match) -> int:
        """X, XI: the scenario's last Game Turn."""
        return int(match.state.vars[c.V_LAST_TURN])

    # -- positions (the designer's toolkit) ----------------------------------------------
    def places(self, match: Match) -> frozenset[str]:
        """II: every hex of the map, its boxes, and the place of units out of a scenario (XI)."""
        hexmap = c.components().map
        return frozenset(hexmap.label(h) for h in hexmap.hexes()) | set(hexmap.boxes) | {c.OUT_OF_PLAY}

    def statuses(self) -> dict[str, str]:
        """The piece statuses a position sets through the rules' own helpers."""
        return {"disrupted": "IX.H a Marine HQ: true, on its DISRUPTED side; false, undisrupted",
                "revealed": "III.3 a Japanese unit: true, face-up for good; false, face down",
                "fatigue": "IV.D a Marine infantry unit: its regiment's Fatigue Level, 0 to 9",
                "independent": "IV.A.3 a Marine infantry unit: true, its regiment is the Independent "
                               "Regiment (IND markers); false, it is not",
                "landed": "VII.B a Marine unit: the Game Turn it entered the game (Supplied all of "
                          "that turn)",
                "class1": "III.6 a Japanese unit in a Class 2 position: true, the position is "
                          "reduced to Class 1 (its \"1\" marker); false, not"}

    def set_status(self, match: Match, piece: Piece, name: str, value: JSON) -> None:
        """Each status through ``common``'s helper (its one owner): IX.H disrupted (an HQ's
        back face), III.3 revealed (a Japanese unit's hidden flag), IV.D fatigue (the
        regiment's track), IV.A.3 independent (the Independent Regiment), VII.B landed (the
        unit's entry turn), III.6 class1 (the Class 1 hexes)."""
        if name not in self.statuses():
            super().set_status(match, piece, name, value)
        if name in ("fatigue", "landed"):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TabletopError(f"status {name} is a whole number, not {value!r}")
        elif not isinstance(value, bool):
            raise TabletopError(f"status {name} is true or false, not {value!r}")
        if name == "disrupted":
            if not (piece.side == c.US and piece.kind == "hq"):
                raise TabletopError("IX.H: only a Marine HQ is disrupted")
            c.set_disrupted(piece, bool(value))
        elif name == "revealed":
            if piece.side != c.JAPAN:
                raise TabletopError("III.3: only Japanese units are face down or revealed")
            c.set_revealed(piece, bool(value))
        elif name in ("fatigue", "independent"):
            if not (piece.side == c.US and piece.kind == "infantry"):
                raise TabletopError(f"IV.D, IV.A.3: {name} is set on a Marine infantry unit "
                                    f"(for its regiment), not on {piece.id}")
            regiment = c.regiment_key(piece)
            if name == "fatigue":
                track = match.state.tracks.get(f"{c.FATIGUE}:{regiment}")
                low, high = (0, 9) if track is None else (track.minimum, track.maximum)
                assert isinstance(value, int)
                if not low <= value <= high:
                    raise TabletopError(f"IV.D: a Fatigue Level is {low} to {high}, not {value}")
                c.set_fatigue(match, regiment, value)
            elif value:
                c.set_independent(match, regiment)
            elif match.state.vars[c.V_IND] == regiment:
                c.set_independent(match, None)
        elif name == "landed":
            if piece.side != c.US:
                raise TabletopError("VII.B: only Marine units land")
            assert isinstance(value, int)
            c.set_landed(piece, value)
        else:
            if piece.side != c.JAPAN:
                raise TabletopError("III.6: the \"1\" marker is placed on a Japanese unit's position")
            if c.attr(piece.location, "position") != 2:
                raise TabletopError(f"III.6: only a Class 2 position is reduced to Class 1; "
                                    f"{piece.id} is not in one (set its hex first: at)")
            c.set_class1(match, piece.location, bool(value))

    def settle_position(self, match: Match, position: Position) -> None:
        """A position that starts at a phase of a Game Turn has the opening done: the beach
        is the Minami beach unless the position's ``vars`` name one (III.4, as in history),
        every beach hex of it counts as landed on unless ``landed_hexes`` is given (VII.A),
        Marine units on the island landed on the scenario's first turn (VII.B), and Japanese
        units within two hexes of a Marine unit are face-up (III.3). A position at ``start``
        plays the opening. Anywhere, a Marine unit given fewer steps than its counter's shows
        its Reduced Strength side (II.C: the back), as the rules turn it."""
        for p in match.state.pieces:
            if p.side == c.US and p.kind != "hq" and 1 <= p.steps < p.max_steps:
                p.face = "back"
        if position.start == START:
            return
        v = match.state.vars
        if v[c.V_BEACH] is None:
            v[c.V_BEACH] = "minami"
        if not v[c.V_LANDED]:
            v[c.V_LANDED] = sorted(c.components().hexes_where("beach", v[c.V_BEACH]))
        hexmap = c.components().map
        for p in sorted((p for p in match.state.pieces if p.side == c.US and c.on_island(p)),
                        key=lambda p: p.id):
            p.attrs.setdefault("landed", int(v[c.V_FIRST_TURN]))
            reveal_near(match.state.pieces, hexmap, hexmap.hex(p.location), 2, observer=c.US)

    def position_problems(self, match: Match) -> list[str]:
        """The invariants, each unit's status (:func:`common.status_problems`), III.4 the
        beach is one of the two, IV.A.3 the Independent Regiment one of the sheet's, III.6
        the "1" markers on Class 2 positions."""
        out = self.invariants(match)
        for p in match.state.pieces:
            out += c.status_problems(match, p)
        v = match.state.vars
        if v.get(c.V_BEACH) not in (None, "minami", "nishi"):
            out.append(f"III.4: the beach is minami or nishi, not {v[c.V_BEACH]!r}")
        regiments = {r for _, r in c.components().regiments()}
        if v.get(c.V_IND) is not None and v[c.V_IND] not in regiments:
            out.append(f"IV.A.3: vars.independent is a regiment ({', '.join(sorted(regiments))}) or "
                       f"null, not {v[c.V_IND]!r}")
        for h in v.get(c.V_CLASS1) or ():
            if c.attr(h, "position") != 2:
                out.append(f"III.6: vars.class1_hexes names {h}, not a Class 2 position")
        return out

    # -- X victory -----------------------------------------------------------------------
    def check_end(self, match: Match) -> Result | None:
        """X.A: checked at the end of each Game Turn Record Phase."""
        if match.state.phase != "record":
            return None
        turn, vp = match.state.turn, match.state.tracks["vp"].value
        scenario = match.scenario
        if not c.marines(match):
            return Result(c.JAPAN, "JAPANESE DECISIVE VICTORY", "X.A", self.scores(match),
                          "no Marine units are left on the island")
        if not c.japanese(match):
            return self.final_result(match)
        if scenario == c.NARROW:
            # XI.C: X.A's checks scaled by the article's multiplier (160 and 320 over 2.667),
            # at X.A's turns ("prior to" 7 and 15) unless the option takes its "on or before".
            last = 0 if match.options.get("narrow_deadline") == "on_or_before" else 1
            if (turn <= 7 - last and vp >= 60) or (turn <= 15 - last and vp >= 120):
                words = "on or before" if last == 0 else "before"
                return Result(c.JAPAN, "JAPANESE DECISIVE VICTORY", "XI.C", self.scores(match),
                              f"{vp} VP by turn {turn} (60 {words} turn 7, 120 {words} turn 15)")
        elif scenario != c.VERY_SHORT:
            if turn < 7 and vp >= 160:
                return Result(c.JAPAN, "JAPANESE DECISIVE VICTORY", "X.A", self.scores(match),
                              f"{vp} VP before turn 7: the Marines are withdrawn from the island")
            if turn < 15 and vp >= 320:
                return Result(c.JAPAN, "JAPANESE DECISIVE VICTORY", "X.A", self.scores(match),
                              f"{vp} VP before turn 15: the conquest is seriously delayed")
        if turn >= match.state.vars[c.V_LAST_TURN]:
            return self.final_result(match)
        return None

    def schedule(self, scenario: str) -> tuple[VPLevel, ...]:
        """X.B, XI.A, XI.B: the VP schedule a scenario reads."""
        tracks = c.components().tracks
        return {c.LOD: tracks.line_of_departure_schedule,
                c.SANDS: tracks.sands_schedule}.get(scenario, tracks.vp_schedule)

    def scores(self, match: Match) -> dict[str, JSON]:
        """The score fields of a result."""
        pieces = match.state.pieces
        return {"vp": match.state.tracks["vp"].value, "turn": match.state.turn,
                "japanese_left": len(c.japanese(match)),
                "marines_eliminated": sum(1 for p in pieces if p.location == c.US_ELIMINATED)}

    def final_result(self, match: Match) -> Result:
        """X.B: the VP total on the schedule (XI.C Narrow Game: times 2.667 first); the game's
        winner is X.B's last paragraph's: a Marine Marginal Victory loses the game."""
        scores = self.scores(match)
        vp = match.state.tracks["vp"].value
        if match.scenario == c.VERY_SHORT:
            return Result(None, f"Japanese VP total {vp}", "XI.C", scores,
                          "the Very Short Game is played for the lowest Japanese VP total")
        section = {c.LOD: "XI.A", c.SANDS: "XI.B", c.NARROW: "XI.C"}.get(match.scenario, "X.B")
        read = vp
        if match.scenario == c.NARROW:
            read = math.floor(vp * NARROW_MULTIPLIER + Fraction(1, 2))  # half up
            scores["vp_read"] = read
        for row in self.schedule(match.scenario):
            if parse_span(row.vp).contains(read):
                why = f"{read} Japanese VP on the schedule"
                if row.game is not None and row.game != row.winner:
                    # X.B: "you may have taken the island, but you have most certainly lost the game"
                    why += "; the battle won, the game lost (X.B: only Substantial or Decisive wins)"
                return Result(row.game or row.winner, row.level, section, scores, why)
        raise AssertionError("the schedules cover every total")  # pragma: no cover

    def summary(self, match: Match) -> dict[str, JSON]:
        """Score fields for --json."""
        return self.scores(match)

    # -- invariants, board, bots -----------------------------------------------------------
    def invariants(self, match: Match) -> list[str]:
        """V.M stacking after the movement phase; V.G no unit at sea (but the second wave
        before it lands); V.J no armour in Bloody Gorge; steps in range; one place a piece;
        tracks in range."""
        problems = match.state.pieces.check()
        s = c.Situation.of(match)
        check_stack = match.state.phase not in ("planning", "movement", "")  # V.M: after movement
        for hid, units in s.marine_hexes.items():
            if hid in s.jp:
                problems.append(f"V.B: Marine and Japanese units share {hid}")
            if check_stack:
                for kind in ("infantry", "armour", "hq"):
                    n = sum(1 for p in units if p.kind == kind)
                    if n > 1:
                        problems.append(f"V.M: {n} {kind} units in {hid}")
            for p in units:
                if p.kind == "armour" and hid in c.GORGE_SET:
                    problems.append(f"V.J: {p.id} is in Bloody Gorge ({hid})")
        for p in match.state.pieces:
            if p.side not in c.SIDES:
                continue
            at_sea = c.components().map.is_hex_id(p.location) and not c.is_land(p.location)
            waiting = at_sea and p.side == c.US and match.state.turn == 1 \
                and c.attr(p.location, "second_wave")
            if at_sea and not waiting:
                problems.append(f"V.G: {p.id} is on an all-sea hex {p.location}")
            placed = c.components().map.is_hex_id(p.location)
            lo = 1 if placed else 0
            if not lo <= p.steps <= p.max_steps or (p.side == c.JAPAN and not 2 <= p.max_steps <= 4):
                problems.append(f"II.C: {p.id} has {p.steps} of {p.max_steps} steps")
        for t in match.state.tracks.values():
            if not t.minimum <= t.value <= t.maximum:
                problems.append(f"{t.section}: track {t.id} at {t.value}")
        return problems

    def board(self, match: Match | None) -> HexMap:
        """The island."""
        return c.components().map

    def piece_label(self, piece: Piece) -> str:
        """A unit's id and the strength its steps show (armour: its steps)."""
        if piece.side not in c.SIDES:
            return str(piece.name or piece.kind)
        if piece.kind == "armour":
            return f"{piece.id} ({piece.steps})"
        if piece.kind == "hq" and piece.face == "back":
            return f"{piece.id} DISRUPTED"
        return f"{piece.id} {c.strength(piece)}"

    def bots(self) -> dict[str, AgentFactory]:
        """The game's bots (see bots.py)."""
        from .bots import BOTS

        return dict(BOTS)

    def routes(self, match: Match, decision: Decision) -> Routes | None:
        """V.A-D: a unit's move by destination (:func:`.movement.move_routes`)."""
        from .movement import move_routes

        return move_routes(match, decision)

    def default_bot(self, side: str) -> str:
        """--auto: the heuristic Marine bot (the Japanese side is the rules)."""
        return "heuristic"


GAME = Valor()
__all__ = ["GAME", "Valor"]
