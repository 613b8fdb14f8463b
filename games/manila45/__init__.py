"""Manila '45: Stalingrad of the Pacific (S&T 2007): the game plugin.

Rulebook: shared/rules/manila45.txt. The components the rulebook does not print are
reconstructed in ``data/`` (docs/games/manila45.md). Two players: the US attacks, Japan holds
the city face down (6.5). Rule modules, one per chapter: ``setup`` (3.0), ``victory`` (4.0),
``common`` (6.0 stacking and fog of war, map facts), ``replacements`` (7.0), ``movement``
(8.0 with the entry of 3.4-3.5), ``defensive_fire`` (9.0), ``offensive_fire`` (10.0, 11.0),
``fire`` (10.3 and shared DRM), ``bots``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import ClassVar

from pydantic import BaseModel

from tabletop.core.board.hexmap import HexMap
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import Decision, ResumePoint
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.flow import PhaseHandler, PhaseSpec
from tabletop.core.engine.marks import MapMark
from tabletop.core.engine.match import AgentFactory, Flow, GameInfo, GameOption, Match, PhasedGame, Result
from tabletop.core.engine.pieces import Piece
from tabletop.core.engine.position import START, Position
from tabletop.core.engine.routes import Routes
from tabletop.core.engine.visibility import is_hidden_from

from . import common as c
from .components import JAPAN, US, components

VERSION = "0.11.0"


class Manila45(PhasedGame):
    """The game: identity, set-up (3.0), sequence of play (5.0), victory (4.0), views (6.5)."""

    #: every kind of decision the rules ask (the conformance check holds the game and its bots to it)
    decision_kinds = frozenset({
        "advance", "close_assault", "coastal_landing", "coastal_rider", "defensive_fire",
        "entry_hex", "entry_org", "entry_unit", "fire_target", "fire_unit", "move_step",
        "pontoon", "replacement_hex", "replacement_unit", "select_mover", "setup_adjust",
        "setup_hex", "setup_mode"
    })
    #: 8.1: the choice of the unit to move, whose steps are then chosen by destination
    mover_kinds = frozenset({"select_mover"})
    #: 6.5: what both players see on the table; nothing about a face-down unit is kept here.
    var_visibility: ClassVar[Mapping[str, str | tuple[str, ...]]] = MappingProxyType({
        name: "public" for name in (c.V_RUBBLE, c.V_DEMOLISHED, c.V_PONTOONS, c.V_ATTACKED,
                                    c.V_AIR_USED, c.V_AMTRAC, c.V_ENTERED, c.V_SETUP_DONE)})

    info = GameInfo(
        id="manila45",
        title="Manila '45: Stalingrad of the Pacific",
        version=VERSION,
        players=(US, JAPAN),
        options=(
            GameOption("lof_along", "10.7: a line of fire running exactly along a hexside",
                       "both", ("both", "either"),
                       ("is blocked only when the hexes on both sides block",
                        "is blocked when the hex on either side blocks")),
            GameOption("indirect_wall", "10.9 against 11.1-11.2: indirect fire and the "
                       "Intramuros wall", "ignored", ("ignored", "stops"),
                       ("indirect fire ignores the wall, as all blocking terrain (11.1)",
                        "the wall stops it in the first hex beyond, as direct fire (10.9)")),
            GameOption("setup", "3.2: a whole Japanese set-up as data, unit id -> hex id "
                       "(empty: the Japanese player sets up by decisions)", {}),
        ),
        playable=True,
        human_side=US,
        rulebook="Manila '45: Stalingrad of the Pacific Rulebook",
        description="The battle for Manila, 3 Feb - 4 Mar 1945, on 0.5 km hexes, 3-day turns.",
    )

    def data_models(self) -> dict[str, type[BaseModel]]:
        """The models of the game's own data files (for `tabletop validate`)."""
        from .components import DATA_MODELS

        return dict(DATA_MODELS)

    def load_data(self) -> str:
        """Load and cross-check every component."""
        return components().summary()

    def board(self, match: Match | None) -> HexMap:
        """The map sheet."""
        return components().hexmap

    def map_marks(self, match: Match, player: str | None) -> list[MapMark]:
        """10.20/10.21 rubble markers, 10.19 bridge demolished markers and 8.9 pontoon bridges:
        facts both players see on the table (6.5), drawn the same for either."""
        v = match.state.vars
        marks = [MapMark("rubble (10.20)", (h,), "R", "#7a6a58") for h in v[c.V_RUBBLE]]
        marks += [MapMark("bridge demolished (10.19)", tuple(k.split("-")), "X", "#b3261e")
                  for k in v[c.V_DEMOLISHED]]
        marks += [MapMark("pontoon bridge (8.9)", tuple(k.split("-")), "P", "#2f5f8a")
                  for k in sorted(v[c.V_PONTOONS].values())]
        return marks

    def setup(self, match: Match) -> None:
        """3.1, 3.3: every counter in place before the Japanese set-up."""
        from .setup import build_pieces, check_setup_mapping

        match.state.vars.update({c.V_RUBBLE: [], c.V_DEMOLISHED: [], c.V_PONTOONS: {},
                                 c.V_ATTACKED: [], c.V_AIR_USED: [], c.V_AMTRAC: "",
                                 c.V_ENTERED: [], c.V_SETUP_DONE: False})
        build_pieces(match)
        given = match.options.get("setup")
        if isinstance(given, dict) and given:
            check_setup_mapping(match, given)
        elif given not in ({}, None, ""):
            raise TabletopError("option setup must be a mapping unit id -> hex id")

    # -- 5.0 sequence of play ------------------------------------------------------------
    def opening(self, match: Match) -> Flow:
        """3.2 the Japanese set-up, before ten game turns of two player turns each (5.1)."""
        return (yield from self._opening(match))

    def _opening(self, match: Match, back: JSON = None) -> Flow:
        """The opening, or (``back``, the args of a set-up decision's resume point) the
        opening entered again at that decision."""
        from .setup import japanese_setup
        from .victory import check_now

        yield from japanese_setup(match, back)
        for p in c.units_on_map(match, JAPAN):
            p.attrs["setup_hex"] = p.location  # 8.3: static units never leave it
        check_now(match)
        return None

    def resume_flow(self, match: Match, point: ResumePoint) -> Flow:
        """The flow entered again at a decision: in a phase (the phase handlers go back to
        it, see docs/games/manila45.md), or in the Japanese set-up (3.2, entry ``setup``),
        then the ten turns."""
        if point.entry != c.SETUP:
            return (yield from super().resume_flow(match, point))
        yield from self._opening(match, match.resumed(c.SETUP))
        return (yield from self.turns(match))

    def phase_handlers(self) -> Mapping[str, PhaseHandler]:
        """5.2: the five phases of a game turn, in its order (no Japanese replacement phase,
        5.3); a position may start at any of them, the Japanese set-up (3.2) done."""
        from .movement import movement_phase
        from .offensive_fire import offensive_fire_phase
        from .replacements import reinforcement_phase

        return {
            "us_reinforce": reinforcement_phase,
            "us_move": lambda m: movement_phase(m, US),
            "us_fire": lambda m: offensive_fire_phase(m, US),
            "jp_move": lambda m: movement_phase(m, JAPAN),
            "jp_fire": lambda m: offensive_fire_phase(m, JAPAN),
        }

    def begin_phase(self, match: Match, phase: PhaseSpec) -> None:
        """The phase's fired and moved flags cleared; 4.1 the Turn marker on the turn."""
        c.reset_phase_flags(match)
        match.state.tracks["turn"].set(match.state.turn)

    def check_end(self, match: Match) -> Result | None:
        """4.2, 4.3: the game is decided at the end of a phase (:func:`victory.result_now`)."""
        from .victory import result_now

        return result_now(match)

    def places(self, match: Match) -> frozenset[str]:
        """2.1: every hex of the map sheet, its boxes, and the ready box of the air units (10.23)."""
        hexmap = components().hexmap
        return frozenset(hexmap.label(h) for h in hexmap.hexes()) | set(hexmap.boxes) | {c.AIR_READY}

    def statuses(self) -> dict[str, str]:
        """The piece statuses a position sets through the rules' own helpers."""
        return {"revealed": "6.5 a Japanese unit: true, flipped face-up for good; false, face "
                            "down (hidden from the US)",
                "pontoon": "8.9 a bridging engineer (117th, 532nd, 556th) on the map: the hex "
                           "across a river hexside of its own hex that its pontoon bridge "
                           "reaches; empty: no pontoon bridge"}

    def set_status(self, match: Match, piece: Piece, name: str, value: JSON) -> None:
        """6.5 revealed: face, hidden and the revealed mark set together (one owner, as
        ``common.reveal`` does in play); 8.9 pontoon: the engineer's bridge in the public
        ``pontoons`` variable, as ``movement.pontoon_step`` sets it in play."""
        if name not in self.statuses():
            super().set_status(match, piece, name, value)
        if name == "pontoon":
            self._set_pontoon(match, piece, value)
            return
        if not isinstance(value, bool):
            raise TabletopError(f"status {name} is true or false, not {value!r}")
        if piece.side != JAPAN:
            raise TabletopError("6.5: only Japanese units are face down or revealed")
        piece.hidden, piece.face = (False, "front") if value else (True, "back")
        if value:
            piece.attrs["revealed"] = True
        else:
            piece.attrs.pop("revealed", None)

    @staticmethod
    def _set_pontoon(match: Match, piece: Piece, value: JSON) -> None:
        """8.9: a bridging engineer's pontoon bridge across one river hexside of its hex."""
        from .movement import river_sides

        if not c.is_unit(piece) or not c.has(piece, "bridging"):
            raise TabletopError("8.9: only a bridging engineer (117th, 532nd, 556th) builds a "
                                "pontoon bridge")
        pontoons = match.state.vars[c.V_PONTOONS]
        if value in ("", None, False):
            pontoons.pop(piece.id, None)
            return
        if not isinstance(value, str):
            raise TabletopError(f"status pontoon is the hex across the river its bridge reaches, "
                                f"or empty, not {value!r}")
        if not components().hexmap.is_hex_id(piece.location):
            raise TabletopError(f"8.9: the engineer must stand on the map to bridge a river (it "
                                f"is in {piece.location}; give its hex with at:)")
        across = river_sides(piece.location)
        if value not in across:
            raise TabletopError(f"8.9: {value} is not across a river hexside from "
                                f"{piece.location} (across a river from it: "
                                f"{', '.join(across) or 'none'})")
        pontoons[piece.id] = c.side_key(piece.location, value)

    def settle_position(self, match: Match, position: Position) -> None:
        """3.2, 8.3: a position that starts at a phase of a turn has the Japanese set-up
        done: units still in the set-up pool take their hexes from the ``setup`` option when
        it gives them, and every Japanese unit on the map keeps its hex as its set-up hex
        (8.3: a static unit never leaves it). 7.1, 7.5: from turn 3, once the US Replacement
        & Reinforcement Phase is past, the air units still waiting for turn 3 are available.
        A position at ``start`` plays the set-up."""
        if position.start == START:
            return
        given = match.options.get("setup")
        pieces = match.state.pieces
        if isinstance(given, dict) and given:
            for p in [p for p in pieces if p.side == JAPAN and p.location == c.JP_POOL]:
                pieces.move(p.id, str(given[p.id]))
        match.state.vars[c.V_SETUP_DONE] = True
        for p in c.units_on_map(match, JAPAN):
            p.attrs.setdefault("setup_hex", p.location)
        turn = match.state.turn
        if turn > c.AIR_TURN or (turn == c.AIR_TURN and position.start != "us_reinforce"):
            for p in list(pieces.at(c.AIR_LATER)):
                pieces.move(p.id, c.AIR_READY)

    def position_problems(self, match: Match) -> list[str]:
        """The invariants; 3.2: once the set-up is done no Japanese unit is left in the
        set-up pool (place it, give the ``setup`` option, or ``clear: [Japan]``); 6.5: a
        Japanese unit face down exactly when hidden, a US unit face-up; 7.1: no air
        unit available before turn 3; the public markers a position may set as variables:
        rubble only in urban and heavy structures hexes (10.20, 10.21), demolished bridges
        only on printed bridges (10.19), pontoon bridges only by a bridging engineer across
        a river hexside of its hex (8.9)."""
        from .movement import river_sides

        out = self.invariants(match)
        v = match.state.vars
        if v.get(c.V_SETUP_DONE):
            out += [f"3.2: {p.id} is still in the set-up pool at a phase of a turn (place it, give "
                    f"the setup option, or clear: [Japan])"
                    for p in match.state.pieces if p.side == JAPAN and p.location == c.JP_POOL]
        for p in match.state.pieces:
            if not c.is_unit(p):
                continue
            if p.side == US and (p.face != "front" or p.hidden):
                out.append(f"6.5: US unit {p.id} is face down; US units are always face-up")
            elif p.side == JAPAN and (p.face == "back") != p.hidden:
                out.append(f"6.5: Japanese unit {p.id} shows its {p.face} with hidden "
                           f"{str(p.hidden).lower()}: set its status revealed (true or false) "
                           f"instead of face or hidden")
        if match.state.turn < c.AIR_TURN:
            out += [f"7.1: the air unit {p.id} is available before turn {c.AIR_TURN} (leave it in "
                    f"{c.AIR_LATER})" for p in match.state.pieces.at(c.AIR_READY)]
        hm = components().hexmap
        for h in v[c.V_RUBBLE]:
            if not hm.is_hex_id(h) or c.terrain(h) not in ("urban", "heavy"):
                out.append(f"10.20, 10.21: rubble {h!r} is not an urban or heavy structures hex")
        bridges = {c.side_key(hm.label(s.a), hm.label(s.b)) for s in hm.hexsides_with("bridge")}
        out += [f"10.19: bridges_demolished {k!r} is not a printed bridge (bridges: "
                f"{', '.join(sorted(bridges))})" for k in v[c.V_DEMOLISHED] if k not in bridges]
        for eng, key in v[c.V_PONTOONS].items():
            known = eng in match.state.pieces
            piece = match.state.pieces[eng] if known else None
            ok = piece is not None and c.is_unit(piece) and c.has(piece, "bridging") \
                and hm.is_hex_id(piece.location) and key in {
                    c.side_key(piece.location, n) for n in river_sides(piece.location)}
            if not ok:
                out.append(f"8.9: pontoons {eng}: {key!r} is not a river hexside of a bridging "
                           f"engineer's hex (set it with the engineer's status pontoon)")
        return out

    def final_result(self, match: Match) -> Result:
        """4.2 at the end of turn 10."""
        from .victory import final

        return final(match)

    def summary(self, match: Match) -> dict[str, JSON]:
        """Units left and lost."""
        from .victory import scores

        return scores(match)

    def invariants(self, match: Match) -> list[str]:
        """6.1-6.4 stacking, 8.3 static units in place, 8.13 no unit at sea, one place each."""
        out = match.state.pieces.check() + c.stacking_problems(match)
        for p in match.state.pieces:
            if p.attrs.get("revealed") and p.hidden:
                out.append(f"6.5: {p.id} was revealed and is face down again")
            if components().hexmap.is_hex_id(p.location) and c.terrain(p.location) == "sea":
                out.append(f"8.13: {p.id} is on the all-sea hex {p.location}")
            if c.is_unit(p) and c.is_static(p) and "setup_hex" in p.attrs \
                    and p.location not in (p.attrs["setup_hex"], c.JP_DEAD):
                out.append(f"8.3: static {p.id} left {p.attrs['setup_hex']} for {p.location}")
        return out

    def determinize(self, match: Match, side: str, rng: random.Random) -> Match:
        """6.2, 6.3, 8.3: what ``side`` cannot see dealt again within the stacking rules and
        the static units' set-up hexes (:mod:`.determinize`)."""
        from .determinize import determinize

        return determinize(match, side, rng)

    def stack_view(self, place: str, stack: Sequence[Piece], viewer: str) -> list[bool] | None:
        """6.5: the US sees face-down Japanese units as battle flags (the core's rule for
        hidden pieces); the Japanese player sees only the top unit of a US stack and nothing
        of the US dead pile."""
        if viewer != JAPAN:
            return None
        return [is_hidden_from(p, viewer) or (p.side == US and (n >= 1 or place == c.US_DEAD))
                for n, p in enumerate(stack)]

    def bots(self) -> dict[str, AgentFactory]:
        """Random-legal is built in; the heuristic bots play either side."""
        from .bots import HeuristicAgent

        return {"heuristic": HeuristicAgent}

    def routes(self, match: Match, decision: Decision) -> Routes | None:
        """8.1-8.14: a unit's move by destination (:func:`.movement.move_routes`)."""
        from .movement import move_routes

        return move_routes(match, decision)

    def default_bot(self, side: str) -> str:
        """--auto plays heuristic against heuristic."""
        return "heuristic"


GAME = Manila45()
