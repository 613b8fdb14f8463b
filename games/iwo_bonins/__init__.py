"""Iwo: Bloodbath in the Bonins (Decision Games folio): the game plugin.

Rulebook: shared/rules/iwo_bonins.txt. The components the rulebook does not print are
reconstructed in ``data/`` (see docs/games/iwo_bonins.md). Solitaire: the player is the US;
the Japanese side is run by rules 13.0-17.0 with no input. Two-player (scenario
``two_player``): the Japanese side is a player under 18.0.

Rule modules, one per chapter: ``common`` (shared state, losses, sectors 13.0, Suribachi
17.0, retreat 9.3), ``movement`` (6.0, 7.0, the US movement phases), ``landings`` (11.0),
``support`` (12.0), ``us_bombardment`` (8.0), ``combat`` (9.0, the US combat phases),
``japanese_units`` (14.0), ``japanese_operations`` (15.0), ``japanese_bombardment`` (16.0),
``two_player`` (18.0), ``bots``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Any, ClassVar

from pydantic import BaseModel

from tabletop.core.board.hexmap import HexMap
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import ResumePoint
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.flow import PhaseHandler, PhaseSpec
from tabletop.core.engine.match import (
    AgentFactory,
    Flow,
    GameInfo,
    GameOption,
    Match,
    PhasedGame,
    Procedure,
    Result,
    ScenarioInfo,
)
from tabletop.core.engine.pieces import Piece
from tabletop.core.engine.visibility import PUBLIC

from . import common as c
from .components import INITIAL_DEPLOYMENT
from .queries import controls, is_supplied, strength

VERSION = "1.1.0"


class Bonins(PhasedGame):
    """The game: identity, set-up (3.0), sequence of play (5.0), victory (4.0), invariants."""

    info = GameInfo(
        id="iwo_bonins",
        title="Iwo: Bloodbath in the Bonins",
        version=VERSION,
        players=(c.US, c.JAPAN),
        scenarios=(
            ScenarioInfo("solitaire", "Solitaire (1.0)",
                         "You are the US; the Japanese side follows rules 13.0-17.0.",
                         automatic=("Japan",)),
            ScenarioInfo("two_player", "Two players (18.0)",
                         "A second player (or bot) commands the Japanese under 18.0."),
        ),
        options=(
            GameOption("banzai_crmt", "Banzai results (9.2.3 against 15.5 step 3)", "regular",
                       ("regular", "15.5"),
                       ("read as 9.2.3 reads them (retreats)",
                        "D2 and D3 become (D), as 15.5 step 3 says")),
            GameOption("other_beaches", "6.3b on the beaches not chosen", "strict",
                       ("strict", "support"),
                       ("no stacking at all", "support units may still stack there (12.1)")),
            GameOption("retreat_toward_beach", "9.3: a retreat 'should end closer to a landing "
                       "beach'", "when_possible", ("when_possible", "advice"),
                       ("only such hexes are offered when there are any",
                        "advice: every legal hex is offered")),
            GameOption("bombardment_timing", "8.2 against 9.0: when US bombardment markers are "
                       "placed", "per_attack", ("per_attack", "phase_start"),
                       ("on each attack, right after it is declared",
                        "8.2 as written: every bombarded attack is declared at the start of the "
                        "first combat phase, all markers rolled, then those attacks resolved")),
        ),
        playable=True,
        solitaire=True,
        human_side=c.US,
        rulebook="Iwo: Bloodbath in the Bonins Rulebook",
        description="Iwo Jima, 19 Feb - 17 Mar 1945, at battalion scale on 350-yard hexes.",
    )
    #: every kind of decision the rules ask (the conformance check holds the game and its bots to it)
    decision_kinds = frozenset({
        "advance", "attack_add", "attack_defender", "banzai_result", "beachhead",
        "bombardment_attack", "bombardment_markers", "jp_attack_add", "jp_attack_target",
        "jp_bombard_hex", "jp_deploy_hex", "jp_ex_loss", "jp_move_action", "jp_move_hex",
        "jp_place_hex", "jp_substitute", "jp_tunnel_hex", "landing_hex", "move_hex",
        "movement_menu", "retreat_hex", "step_loss"
    })
    #: what both sides may read of the game variables: the US side's own bookkeeping and the
    #: public state of the battle. ``attacked`` and ``suppressed`` list Japanese units by id
    #: (9.0, 8.3), which the US may not see under a fortification marker (14.2): they stay
    #: the game master's.
    var_visibility: ClassVar[Mapping[str, str | tuple[str, ...]]] = MappingProxyType({
        name: PUBLIC for name in (
            c.V_BEACHHEAD, c.V_WEATHER, c.V_RESERVES, c.V_SURIBACHI, c.V_CLEARED,
            c.V_REPLACEMENTS, c.V_LANDED, c.V_NO_LAND, c.V_NO_MOVE, c.V_MOVED, c.V_ATTACKERS,
            c.V_MUST_ATTACK, c.V_TF_COLLINS, c.V_TWO_PLAYER, c.V_BOMBARDMENT, c.V_REPAIRABLE,
            c.V_REBUILT)
    })

    # -- data -------------------------------------------------------------------------
    def data_models(self) -> dict[str, type[BaseModel]]:
        """The models of the game's own data files (for `tabletop validate`)."""
        from .components import DATA_MODELS

        return dict(DATA_MODELS)

    def load_data(self) -> str:
        """Load and cross-check every component (map, counters, tables, tracks)."""
        return c.components().summary()

    # -- 3.0 set-up -------------------------------------------------------------------
    def setup(self, match: Match) -> None:
        """3.1-3.5: the Turn marker on Clear, the Japanese face-down on the initial deployment
        hexes (3.2; in the two-player game they wait in a pool for 18.1), the 4th and 5th
        Divisions in Available for Landing, the 3rd in Reserves (3.4), the Flag set aside,
        the eleven bombardment markers in the pool (3.5)."""
        comp = c.components()
        two_player = match.scenario == "two_player"
        match.state.vars.update(c.initial_vars(two_player=two_player))
        pieces = match.state.pieces
        japanese: list[str] = []
        for spec in comp.counters.counters:
            prof = comp.counters.profile_of(spec)
            values = {"front": prof.front.model_dump()}
            if prof.back is not None:
                values["back"] = prof.back.model_dump()
            attrs: dict[str, Any] = {"type": prof.type, "size": prof.size, "formation": spec.formation,
                                     "support": prof.support}
            if spec.division is not None:
                attrs["division"] = spec.division
            if spec.regiment is not None:
                attrs["regiment"] = spec.regiment
            if spec.back is not None:  # 12.4: TF Collins on a tank battalion's back
                values["back"] = comp.counters.profiles[spec.back].front.model_dump()
                attrs["tf_collins"] = False
            if prof.side == c.JAPAN:
                where = c.JP_POOL if two_player else c.CONTAINER
                pieces.add(Piece(spec.id, prof.type, c.JAPAN, spec.name, where, face="back",
                                 values=values, hidden=True, attrs=attrs))
                japanese.append(spec.id)
            else:
                pieces.add(Piece(spec.id, prof.type, c.US, spec.name, spec.setup, steps=prof.steps,
                                 max_steps=prof.steps, values=values, attrs=attrs))
        for marker in comp.counters.markers:
            for n in range(1, marker.count + 1):
                pid = marker.id if marker.count == 1 else f"{marker.id}-{n}"
                where = {"bombardment": c.MARKER_POOL, "turn": c.TURN_TRACK}.get(marker.id, c.SET_ASIDE)
                pieces.add(Piece(pid, marker.id, "", marker.front, where))
        if not two_player:
            # 3.2: mix the face-down units and place one on each initial deployment hex.
            match.dice.shuffle(japanese, purpose="mix the face-down Japanese units", section="3.2")
            for hex_id, unit_id in zip(sorted(comp.hexes_where(deploy="initial")), japanese, strict=True):
                pieces.move(unit_id, hex_id)
            match.emit("setup", "3.2", f"{len(japanese)} Japanese units placed face-down, one on "
                       "each initial deployment hex", units=len(japanese))
        match.state.turn = 1

    # -- 5.0 sequence of play ---------------------------------------------------------
    def opening(self, match: Match) -> Flow:
        """3.3 the beachhead, after 18.1 the two-player deployment; 5.1 the turns follow."""
        from . import two_player

        if match.state.vars[c.V_TWO_PLAYER]:
            yield from two_player.initial_deployment(match)
        yield from self.beachhead(match)
        return None

    def beachhead(self, match: Match) -> Flow:
        """3.3: the US chooses its beaches."""
        side = yield from choose_beachhead(match)
        match.state.vars[c.V_BEACHHEAD] = side
        match.emit("beachhead", "3.3", f"the US invades the {side} beaches")
        return None

    def resume_flow(self, match: Match, point: ResumePoint) -> Flow:
        """The flow entered again at a decision (a fork): within a phase (its handler goes
        back to the decision from the args of its resume point), or in the opening at the
        18.1 deployment of the next unit or the 3.3 beachhead, then the turns."""
        from . import two_player

        if point.entry == two_player.DEPLOYMENT:
            yield from two_player.initial_deployment(match, back=point.args)
        elif point.entry != BEACHHEAD:
            return (yield from super().resume_flow(match, point))
        yield from self.beachhead(match)
        return (yield from self.turns(match))

    def phase_handlers(self) -> Mapping[str, PhaseHandler]:
        """5.1: the seven phases of a turn (a position may start at any of them)."""
        from . import combat, japanese_bombardment, japanese_operations, movement, two_player

        return {
            "us_move_1": lambda m: movement.us_movement_phase(m, first=True),
            "us_combat_1": lambda m: combat.us_combat_phase(m, first=True),
            "us_move_2": lambda m: movement.us_movement_phase(m, first=False),
            "us_combat_2": lambda m: combat.us_combat_phase(m, first=False),
            "jp_move": lambda m: japanese_operations.japanese_movement_phase(
                m, player_moves=two_player.japanese_movement),
            "jp_combat": japanese_bombardment.japanese_combat_phase,
            "admin": self.administrative_phase,
        }

    def begin_phase(self, match: Match, phase: PhaseSpec) -> None:
        """A phase's bookkeeping starts empty (units moved, attackers, suppressions)."""
        c.reset_phase_vars(match)

    def end_phase(self, match: Match, phase: PhaseSpec) -> None:
        """13.0: the sectors cleared as the phase left them."""
        c.update_cleared_sectors(match)

    def last_turn(self, match: Match) -> int:
        """4.1, 11.4: turn 16, one turn less for each reserve regiment committed."""
        return last_turn(match)

    # -- positions: places, status ---------------------------------------------------
    def places(self, match: Match) -> frozenset[str]:
        """2.1, 3.0: every hex of the map, the map's boxes and the places it does not print."""
        return _places()

    def statuses(self) -> dict[str, str]:
        """The piece statuses a position sets through the rules' own helpers."""
        return {"dug_in": "14.2 a Japanese unit: true, fortification side up and hidden; "
                          "false, face up",
                "reduced": "2.3 a two-step US unit: true, on its reduced side (1 step); "
                           "false, at full strength"}

    def set_status(self, match: Match, piece: Piece, name: str, value: JSON) -> None:
        """14.2 dug in / 2.3 reduced, set through ``common``'s helpers (one owner)."""
        if name not in self.statuses():
            super().set_status(match, piece, name, value)
        if not isinstance(value, bool):
            raise TabletopError(f"status {name} is true or false, not {value!r}")
        if name == "dug_in":
            if piece.side != c.JAPAN:
                raise TabletopError("14.2: only Japanese units dig in")
            (c.dig_in if value else c.reveal)(piece)
        else:
            if piece.side != c.US or piece.max_steps != 2:
                raise TabletopError("2.3: only two-step US units are reduced")
            (c.reduce_us if value else c.restore_us)(piece)

    def position_problems(self, match: Match) -> list[str]:
        """The invariants, each piece's status (:func:`common.status_problems`), and 3.3 a
        beachhead chosen once US units are ashore."""
        problems = self.invariants(match)
        for p in match.state.pieces:
            problems += c.status_problems(p)
        v = match.state.vars
        if v[c.V_BEACHHEAD] not in (None, "east", "west"):
            problems.append(f"3.3: vars.beachhead is east or west, not {v[c.V_BEACHHEAD]!r}")
        if v[c.V_WEATHER] not in ("Clear", "Storm"):
            problems.append(f"5.1.7: vars.weather is Clear or Storm, not {v[c.V_WEATHER]!r}")
        if not 0 <= int(v[c.V_RESERVES]) <= 3:
            problems.append(f"11.4: vars.reserves_committed is 0 to 3, not {v[c.V_RESERVES]!r}")
        if v[c.V_BEACHHEAD] is None and c.units(match, c.US):
            problems.append("3.3: US units stand on the map but no beachhead was chosen "
                            "(set vars.beachhead to east or west)")
        return problems

    def administrative_phase(self, match: Match) -> Flow:
        """5.1.7: b) roll on the Storm table by this turn's weather and flip the Turn marker;
        c) storm effects follow from the weather (halved movement, weaker support fires)."""
        storm = c.components().tables["storm"]
        weather = match.state.vars[c.V_WEATHER]
        roll = match.dice.d6(purpose="storm check", section="5.1.7")
        nxt = storm.lookup(weather, roll)
        match.state.vars[c.V_WEATHER] = nxt
        match.state.pieces["turn"].face = "back" if nxt == "Storm" else "front"
        match.emit("weather", "5.1.7", f"storm check ({weather} column) roll {roll}: next turn is {nxt}",
                   weather=nxt, column=weather, roll=roll)
        return None
        yield  # a generator, though it asks nothing

    # -- 4.0 victory ------------------------------------------------------------------
    def check_end(self, match: Match) -> Result | None:
        """4.1: the game ends at once when no Japanese unit is left on the map."""
        if not c.units(match, c.JAPAN):
            return self.final_result(match)
        return None

    def casualties(self, match: Match) -> dict[str, int]:
        """4.3: the US casualty count and its parts."""
        pieces = match.state.pieces
        marines = [p for p in pieces if p.side == c.US and p.kind == "marine"]
        eliminated = sum(1 for p in marines if p.location == c.US_ELIMINATED)
        reduced = sum(1 for p in marines if p.steps == 1 and p.max_steps == 2
                      and (c.components().map.is_hex_id(p.location) or p.location == c.AVAILABLE))
        remaining = max(0, last_turn(match) - match.state.turn)
        return {"eliminated_battalions": eliminated, "reduced_battalions": reduced,
                "turns_remaining": remaining,
                "casualties": 2 * eliminated + reduced - 2 * remaining}

    def final_result(self, match: Match) -> Result:
        """4.2 a Japanese unit on the map at the end is an epic Japanese victory; else 4.3:
        12 or fewer casualties a US victory, 20 or more a Japanese victory, else a draw."""
        scores: dict[str, JSON] = dict(self.casualties(match))
        left = c.units(match, c.JAPAN)
        scores["japanese_on_map"] = len(left)
        if left:
            return Result(c.JAPAN, "Japanese epic victory", "4.2", scores,
                          f"{len(left)} Japanese unit(s) still on the map at the end of turn "
                          f"{match.state.turn}")
        total = int(str(scores["casualties"]))
        if total <= 12:
            return Result(c.US, "US victory", "4.3", scores, f"{total} casualties (12 or fewer)")
        if total >= 20:
            return Result(c.JAPAN, "Japanese victory", "4.3", scores, f"{total} casualties (20 or more)")
        return Result(None, "Draw", "4.3", scores, f"{total} casualties (13 to 19)")

    def standing(self, match: Match, player: str) -> list[str]:
        """4.1-4.3 Victory as it stands, in words: when the game ends, the 4.2 epic victory,
        the 4.3 casualty count and its thresholds (all public: face-down units are seen as
        counters on the map)."""
        cas = self.casualties(match)
        left = len(c.units(match, c.JAPAN))
        return [
            *super().standing(match, player)[:1],
            f"The game ends after Turn {last_turn(match)} (4.1: Turn 16, one turn sooner for each "
            f"reserve regiment committed, 11.4); this is Turn {match.state.turn}.",
            f"4.2: a Japanese unit still on the map at the end is a Japanese epic victory; "
            f"{left} are on the map now.",
            f"4.3: otherwise the US casualty count decides: 12 or fewer a US victory, 20 or more "
            f"a Japanese victory, 13 to 19 a draw. Now {cas['casualties']} = 2 x "
            f"{cas['eliminated_battalions']} battalions eliminated + {cas['reduced_battalions']} "
            f"reduced - 2 x {cas['turns_remaining']} turns to spare.",
        ]

    def summary(self, match: Match) -> dict[str, JSON]:
        """Score fields for --json: the 4.3 count, reserves committed, Suribachi."""
        return {**self.casualties(match), "reserves_committed": match.state.vars[c.V_RESERVES],
                "suribachi_cleared": match.state.vars[c.V_SURIBACHI],
                "last_turn": last_turn(match)}

    # -- invariants, board, bots ------------------------------------------------------
    def invariants(self, match: Match) -> list[str]:
        """6.3, 11.3, 12.1 stacking; 6.3a Japanese never stack; no unit on prohibited terrain;
        every piece in exactly one place; steps and marker counts in range."""
        problems = match.state.pieces.check()
        comp = c.components()
        beaches = set(c.landing_beach_hexes(match))
        for loc in match.state.pieces.occupied():
            if not c.components().map.is_hex_id(loc):
                continue
            here = c.units_at(match, loc)
            us = [p for p in here if p.side == c.US]
            jp = [p for p in here if p.side == c.JAPAN]
            if len(jp) > 1:
                problems.append(f"6.3a: {len(jp)} Japanese units stack in {loc}")
            if us and jp and loc not in beaches:
                problems.append(f"6.2d: US and Japanese units share {loc}")
            if loc not in beaches and us and not c.may_stack(match, us, loc):
                problems.append(f"6.3/12.1: US units {[p.id for p in us]} overstack {loc}")
            if here and comp.map.is_prohibited(comp.map.hex(loc)):
                problems.append(f"6.2e: a unit stands on prohibited {loc}")
        for p in match.state.pieces:
            if p.side == c.US:
                lo = 0 if p.location in (c.US_ELIMINATED, c.OUT_OF_GAME) else 1
                if not lo <= p.steps <= p.max_steps:
                    problems.append(f"2.3: {p.id} has {p.steps} steps")
        count = sum(1 for p in match.state.pieces if p.kind == "bombardment")
        if count != 11:
            problems.append(f"3.5: {count} bombardment markers instead of 11")
        return problems

    def board(self, match: Match | None) -> HexMap:
        """The island map."""
        return c.components().map

    def piece_label(self, piece: Piece) -> str:
        """`id a-d-m` of the face that is up; a dug-in Japanese unit shows nothing."""
        if piece.side not in c.SIDES:
            return piece.kind
        if c.is_dug_in(piece):
            return "dug in"
        v = piece.values["front"] if piece.side == c.JAPAN else piece.values.get(piece.face, {})
        return f"{piece.id} {v.get('attack')}-{v.get('defense')}-{v.get('movement')}"

    def bots(self) -> dict[str, AgentFactory]:
        """The game's bots (see bots.py)."""
        from .bots import BOTS

        return dict(BOTS)

    def default_bot(self, side: str) -> str:
        """--auto: the heuristic bots."""
        return "heuristic"


@cache
def _places() -> frozenset[str]:
    comp = c.components()
    return frozenset([*(comp.map.label(h) for h in comp.map.hexes()), *comp.map.boxes,
                      c.MARKER_POOL, c.SET_ASIDE, c.TURN_TRACK, c.OUT_OF_GAME, c.JP_POOL,
                      c.AVAILABLE, c.RESERVES, c.US_ELIMINATED, c.CONTAINER])


def last_turn(match: Match) -> int:
    """4.1, 11.4: turn 16, one turn less for each reserve regiment committed."""
    return 16 - int(match.state.vars.get(c.V_RESERVES, 0))


BEACHHEAD = "beachhead"
"""The entry of the flow at the 3.3 choice of beaches (:meth:`Bonins.resume_flow`)."""


def choose_beachhead(match: Match) -> Procedure[str]:
    """3.3: before setting up, the US chooses the western or eastern beaches (asked again
    from the set-up alone, a fork)."""
    from tabletop.core.engine.decisions import Option, ask_str, choose

    return (yield from ask_str(choose(c.US, "Invade which side of the island?", "3.3",
                                      [Option("east", "East beaches (Green, Red, Yellow, Blue)"),
                                       Option("west", "West beaches (Purple, Orange, White, Brown)")],
                                      kind="beachhead", resume=ResumePoint(BEACHHEAD))))


GAME = Bonins()
__all__ = ["GAME", "INITIAL_DEPLOYMENT", "Bonins", "controls", "is_supplied", "strength"]
