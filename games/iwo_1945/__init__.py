"""Iwo Jima 1945: the game plugin. The USMC side is the player's; the Japanese side is run by
its AI activation deck (6.0), a rule of the game that needs no input.

Rulebook: shared/rules/iwo_1945.txt. Rule modules by chapter: positions.py (2.0, 3.0),
cohesion.py (4.0), setup.py (5.0 and the 6.0 Special Landing Phase), usmc_turn.py,
cards.py, actions.py and attacks.py (6.0 USMC turn), japanese_turn.py (6.0 Japanese AI
turn), victory.py (7.0), bots.py; resume.py says where the flow is entered again at a
decision (a fork). docs/games/iwo_1945.md maps every rule to its code.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from pydantic import BaseModel

from tabletop.core.board.areamap import AreaMap
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import ResumePoint
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import (
    AgentFactory,
    EntryPoint,
    Game,
    GameInfo,
    GameOption,
    Match,
    Result,
    ScenarioInfo,
)
from tabletop.core.engine.pieces import Piece
from tabletop.core.engine.visibility import PUBLIC

from . import positions as P


def _resuming(match: Match, entry: str) -> bool:
    """Whether the flow is being entered again within the turn ``entry`` (its frames not
    yet taken): the turn is under way, neither begun nor announced again."""
    point = match.resuming
    return point is not None and point.entry == entry


class Iwo1945(Game):
    """Iwo Jima 1945 (Worthington): solitaire, area map, card-driven Japanese AI."""

    info = GameInfo(
        id="iwo_1945",
        title="Iwo Jima 1945",
        version="1.1.0",
        players=("USMC", "Japan"),
        playable=True,
        solitaire=True,
        human_side="USMC",
        scenarios=(ScenarioInfo("standard", "Standard game",
                                "You command the USMC; the Japanese are the card deck (8.0).",
                                automatic=("Japan",)),),
        rulebook="Iwo Jima 1945 Rulebook",
        description="Command the USMC invasion of Iwo Jima against a card-driven Japanese AI.",
        options=(
            GameOption("japanese_cards", "8.0 difficulty: how many Japanese cards are dealt",
                       30, (27, 30, 33), ("27 (harder)", "30 (standard)", "33 (easier)")),
            GameOption("landing_dice", "6.0 Special Landing Phase: dice rolled against each "
                       "beach", 3, (3, 4), ("3 (the rule)", "4 (the 10.0 example)")),
            GameOption("usmc_move", "6.0 Move: where a regiment may move", "adjacent",
                       ("adjacent", "through_friendly"),
                       ("to an adjacent position (2.0)",
                        "any way not through a Japanese-occupied position")),
            GameOption("infiltration_cubes", "6.0: a destroyed infiltration cube", "return",
                       ("return", "removed"),
                       ("returns to a Rising Sun square", "is removed from play")),
            GameOption("landing", "5.0 which regiments land", "rulebook",
                       ("rulebook", "historical"), ("as the rulebook's 10.0 example", "as in 1945")),
            GameOption("usmc_discards", "6.0 USMC discards", "one_if_none_played",
                       ("one_if_none_played", "any"),
                       ("one card at the end of a turn without a card played",
                        "any number of cards during the USMC turn")),
            GameOption("full_control_end", "7.0 #2: full control of the island ends the game",
                       "end_of_turn", ("end_of_turn", "immediately"),
                       ("at the end of the turn (6.0)",
                        "at once, before the turn's other actions (7.0)")),
            GameOption("rotation_checks", "6.0 Rotate Regiments: who makes the exhaustion check "
                       "after a rotation", "payer", ("payer", "both"),
                       ("the regiment that pays (6.0)",
                        "both regiments not exhausted (4.0: a regiment performing an action)")),
            GameOption("beach_infiltration", "2.0 against 6.0: an infiltration cube and a USMC "
                       "beach position with an empty slot", "allowed", ("allowed", "forbidden"),
                       ("may enter it (6.0)",
                        "never enters it (2.0: only USMC regiments may occupy beach positions)")),
            GameOption("cube_slot", "2.0 against 6.0: an infiltration cube's slot", "entry",
                       ("entry", "always"),
                       ("binds only its entry (a whole regiment may then join it)",
                        "holds while it stays (never more than three markers and the cube)")),
            GameOption("japanese_move_route", "6.0 Japanese marker movement: the way a marker "
                       "moves", "clear", ("clear", "any"),
                       ("clear of USMC positions unless the card says through (9.0 #2)",
                        "any way (no adjacency or route needed)")),
        ),
    )
    #: every kind of decision the rules ask (the conformance check holds the game and its bots to it)
    decision_kinds = frozenset({
        "advance", "attack_card", "attack_dice", "cancel_card", "card_position",
        "card_regiment", "counter_card", "counter_die", "discard", "follow",
        "japanese_turn_card", "kamikaze_discard", "new_wave_beach", "new_wave_regiment",
        "select_destination", "select_partner", "select_payer", "select_regiment",
        "select_target", "usmc_turn"
    })
    #: 2.0 control and occupation, the USMC turn's bookkeeping (6.0), the Japanese card in
    #: play (8.0) and the landing dice are on the table for everyone to see
    var_visibility: ClassVar[Mapping[str, str | tuple[str, ...]]] = MappingProxyType({
        "held": PUBLIC, "control": PUBLIC, "turn": PUBLIC, "japanese_card": PUBLIC,
        "landing_dice": PUBLIC})
    #: 5.0: the draw decks and the cards set aside unseen are face down
    secret_piles: ClassVar[frozenset[str]] = frozenset({"draw", "out"})

    # -- data ----------------------------------------------------------------------------------
    def data_models(self) -> dict[str, type[BaseModel]]:
        """The models of the game's own data files (for `tabletop validate`)."""
        from .components import DATA_MODELS

        return dict(DATA_MODELS)

    def load_data(self) -> str:
        """Load and cross-check every component (board, pieces, both decks)."""
        from .components import load_components

        return load_components().summary()

    # -- the match -----------------------------------------------------------------------------
    def setup(self, match: Match) -> None:
        """5.0 Game Set Up."""
        from .setup import build

        build(match)

    def play(self, match: Match) -> P.Flow:
        """6.0 Sequence of Play: the Special Landing Phase, then rounds of a USMC turn and a
        Japanese AI turn; 7.0 the end: all island positions USMC at the end of a USMC
        turn, or the USMC turn after the last Japanese card."""
        from .setup import special_landing

        yield from special_landing(match)
        return (yield from self.rounds(match))

    def rounds(self, match: Match, start: str | None = None) -> P.Flow:
        """6.0: round after round, a USMC turn then a Japanese AI turn, until 7.0 ends the
        game. ``start`` begins inside the current round (a position): at its ``usmc`` turn
        or its ``japanese`` turn; None begins the next round. A turn entered again at one of
        its decisions (:meth:`resume_flow`) is not begun again (no phase event)."""
        from .japanese_turn import japanese_turn
        from .usmc_turn import usmc_turn
        from .victory import result

        while True:
            if start != "japanese":
                if not _resuming(match, "usmc"):
                    if start is None:
                        match.state.turn += 1
                    match.state.phase = "usmc"
                    match.emit("phase", "6.0", f"Round {match.state.turn}: USMC turn")
                yield from usmc_turn(match, reentered=start == "usmc")
                if P.usmc_controls_all(match):
                    return result(match, "the USMC controls every island position (7.0 #2)")
                if not match.state.decks["japanese"].pile("draw"):
                    return result(match, "the USMC turn after the last Japanese card (7.0 #1)")
            start = None
            if not _resuming(match, "japanese"):
                match.state.phase = "japanese"
                match.emit("phase", "6.0", f"Round {match.state.turn}: Japanese AI turn")
            yield from japanese_turn(match)

    def resume_flow(self, match: Match, point: ResumePoint) -> P.Flow:
        """6.0: the rounds entered again at a decision of the state's round, within its USMC
        turn (entry ``usmc``) or its Japanese AI turn (``japanese``); the turn goes back to
        the decision from the point's frames (:mod:`.resume`). The Special Landing Phase
        asks nothing."""
        if point.entry not in ("usmc", "japanese"):
            return (yield from super().resume_flow(match, point))
        return (yield from self.rounds(match, point.entry))

    # -- positions: entry points, places, status ---------------------------------------------
    def entry_points(self) -> tuple[EntryPoint, ...]:
        """6.0: the Special Landing Phase, a round's USMC turn, a round's Japanese AI turn
        (which draws its card as it opens, so an edit cannot restart it)."""
        return (EntryPoint("landing", "6.0", "Special Landing Phase, then round 1"),
                EntryPoint("usmc", "6.0", "the USMC turn of the position's round"),
                EntryPoint("japanese", "6.0", "the Japanese AI turn of the position's round",
                           reenter=False))

    def play_from(self, match: Match, entry: str) -> P.Flow:
        """6.0 from an entry point: the landing phase, or a turn of round ``state.turn``."""
        from .setup import special_landing

        if entry == "landing":
            match.state.turn = 0
            yield from special_landing(match)
            return (yield from self.rounds(match))
        match.state.turn = max(1, match.state.turn)
        return (yield from self.rounds(match, entry))

    def places(self, match: Match) -> frozenset[str]:
        """2.0: every board position and box."""
        board = P.comps().board
        return frozenset([*P.positions(), *(b.id for b in board.boxes)])

    def statuses(self) -> dict[str, str]:
        """The status a position sets on a USMC marker, for its whole regiment."""
        return {"cohesion": "4.0 the regiment's cohesion, 1 to 12 (track and cube together)",
                "exhausted": "4.0 true: the regiment's red exhaustion cube is with it"}

    def set_status(self, match: Match, piece: Piece, name: str, value: JSON) -> None:
        """4.0 cohesion and exhaustion of a marker's regiment, through positions' helpers."""
        if name not in self.statuses():
            super().set_status(match, piece, name, value)
        if piece.kind != "marine":
            raise TabletopError(f"{name} is set on a USMC marker (for its regiment)")
        rid = str(piece.attrs["regiment"])
        if name == "cohesion":
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 12:
                raise TabletopError(f"4.0: cohesion is 1 to 12, not {value!r}")
            P.set_cohesion(match, rid, value)
        else:
            if not isinstance(value, bool):
                raise TabletopError(f"exhausted is true or false, not {value!r}")
            try:
                P.set_exhausted(match, rid, value)
            except ValueError as exc:
                raise TabletopError(str(exc)) from None

    def settle_position(self, match: Match, position: Any) -> None:
        """2.0: positions whose control the position file did not set are held by the side
        whose markers stand there (else as at set-up), and control follows; 3.0 exhaustion
        cubes follow their regiments."""
        given = position.vars if position.state is None else match.state.vars
        held_given = set((given.get("held") or {}).keys())
        control_given = set((given.get("control") or {}).keys())
        for pos in P.positions():
            if pos not in held_given:
                match.state.vars["held"][pos] = P.held_by(match, pos)
        for pos in P.positions():
            if pos not in control_given:
                match.state.vars["control"][pos] = P.expected_control(match, pos)
        for rid in P.regiment_ids():
            cube = P.exhaustion_cube(match, rid)
            where = P.regiment_pos(match, rid)
            if cube is not None and where is not None and cube.location != where \
                    and not any(pid == cube.id for pid in position.pieces):
                match.state.pieces.move(cube.id, where)

    def position_problems(self, match: Match) -> list[str]:
        """The invariants, 2.0 control against the pieces, 4.0 each regiment's cohesion cube
        against its track and exhaustion against cohesion."""
        return [*self.invariants(match), *P.control_problems(match),
                *P.regiment_problems(match)]

    def final_result(self, match: Match) -> Result:
        """7.0: the result now (used if the flow is cut short)."""
        from .victory import result

        return result(match, "game stopped")

    def standing(self, match: Match, player: str) -> list[str]:
        """7.0 Victory as it stands, in words: when the game ends, the VP of each side and
        the margin each level needs."""
        from .positions import comps
        from .victory import scores

        sc = scores(match)
        levels = ", ".join(f"{lvl.name} {lvl.min_margin}"
                           + (f"-{lvl.max_margin}" if lvl.max_margin is not None else "+")
                           for lvl in comps().victory.levels)
        return [
            *super().standing(match, player)[:1],
            "7.0: the game ends when the USMC control every island position at the end of a "
            "USMC turn, or after the USMC turn that follows the last Japanese card.",
            f"USMC {sc['usmc_vp']} VP ({sc['usmc_positions']} island positions held"
            + (f", {sc['japanese_cards_left']} Japanese cards left" if sc["japanese_cards_left"] else "")
            + f"); Japanese {sc['japanese_vp']} VP ({sc['usmc_markers_lost']} USMC markers lost, "
            f"{sc['regiments_exhausted']} regiments exhausted, the island positions they hold).",
            f"Margin {sc['margin']:+d}: the USMC need {levels}; a tie or less is a Japanese win.",
        ]

    def summary(self, match: Match) -> dict[str, JSON]:
        """7.0: the VP totals and what makes them."""
        from .victory import scores

        return dict(scores(match))

    # -- invariants --------------------------------------------------------------------------
    def invariants(self, match: Match) -> list[str]:
        """2.0 at most three markers a position, and with the option ``cube_slot=always``
        at most three markers and an infiltration cube together (with ``entry``, ours, the
        cube's slot binds only its entry); beaches hold no Japanese marker, nor a cube with
        ``beach_infiltration=forbidden``; 6.0 an infiltration cube never with Japanese
        markers; 3.0 one bunker at most, in an occupied island position; 4.0 cohesion 1 to
        12 on every track; every marker, cube and card in exactly one place; 2.0 control."""
        problems = match.state.pieces.check()
        for pos in P.positions():
            marks = P.markers_at(match, pos)
            if len(marks) > P.SLOTS:
                problems.append(f"2.0: {pos} holds {len(marks)} markers")
            cube = P.cube_at(match, pos)
            if cube is not None and P.cube_keeps_its_slot(match) and len(marks) + 1 > P.SLOTS:
                problems.append(f"2.0: {pos} holds {len(marks)} markers and {cube.id} "
                                "(cube_slot=always: the cube keeps its slot)")
            if cube is not None and P.is_beach(pos) \
                    and match.options.get("beach_infiltration", "allowed") == "forbidden":
                problems.append(f"2.0: {cube.id} on {pos} (beach_infiltration=forbidden)")
            if len({p.kind for p in marks}) > 1:
                problems.append(f"2.0: USMC and Japanese markers share {pos}")
            if P.is_beach(pos) and P.japanese_at(match, pos):
                problems.append(f"2.0: Japanese markers on {pos}")
            if P.cube_at(match, pos) is not None and P.japanese_at(match, pos):
                problems.append(f"6.0: an infiltration cube shares {pos} with Japanese markers")
            if len({str(p.attrs.get('regiment')) for p in P.usmc_at(match, pos)}) > 1:
                problems.append(f"3.0: two regiments in {pos}")
            bunkers = [p for p in match.state.pieces.at(pos) if p.kind == "bunker"]
            if len(bunkers) > 1 or (bunkers and (not marks or not P.is_island(pos))):
                problems.append(f"3.0: bunker rule broken in {pos}")
            if P.control(match, pos) != P.expected_control(match, pos):
                problems.append(f"2.0: {pos} control {P.control(match, pos)} should be "
                                f"{P.expected_control(match, pos)}")
            if marks and match.state.vars["held"][pos] != (P.USMC if marks[0].kind == "marine" else P.JAPAN):
                problems.append(f"2.0: {pos} is held by the wrong side")
        for rid in P.regiment_ids():
            t = match.state.tracks[P.track_id(rid)]
            if not 1 <= t.value <= 12:
                problems.append(f"4.0: {rid} cohesion {t.value}")
            cube = P.exhaustion_cube(match, rid)
            if cube is not None and cube.location != P.regiment_pos(match, rid):
                problems.append(f"3.0: {rid}'s exhaustion cube is not with it")
        for deck in match.state.decks.values():
            cards = deck.all_cards()
            if len(cards) != len(set(cards)):
                problems.append(f"3.0: a card of the {deck.id} deck is in two piles")
            if len(cards) != 36:
                problems.append(f"3.0: the {deck.id} deck has {len(cards)} cards, not 36")
        if len(match.state.decks["usmc"].pile("hand:USMC")) > 3:
            problems.append("6.0: more than 3 cards in the USMC hand")
        return problems

    # -- pictures and bots -----------------------------------------------------------------------
    def board(self, match: Match | None) -> AreaMap:
        """2.0: the board as an area map (positions, arrows, boxes)."""
        return AreaMap(P.comps().board)

    def box_cards(self, match: Match, player: str | None) -> dict[str, list[str] | int]:
        """3.0, 5.0, 6.0: the two decks in their board spaces: the draw decks face down (a
        count), the discard piles face up (titles, the last played on top; the cards set aside
        unseen at set-up are not drawn), the USMC hand face up to its owner (a count to others)."""
        from .components import card_id_of

        c = P.comps()
        japanese, usmc = match.state.decks["japanese"], match.state.decks["usmc"]

        def titles(deck: Any, pile: str, lookup: Any) -> list[str]:
            return [lookup(card_id_of(i)).title for i in deck.pile(pile)]

        hand = usmc.pile("hand:USMC")
        return {
            "japanese_draw": len(japanese.pile("draw")),
            "japanese_discard": titles(japanese, "discard", c.japanese_deck.card),
            "marine_draw": len(usmc.pile("draw")),
            "marine_discard": titles(usmc, "discard", c.usmc_deck.card),
            "usmc_hand": titles(usmc, "hand:USMC", c.usmc_deck.card) if player in (None, P.USMC)
            else len(hand),
        }

    def piece_label(self, piece: Piece) -> str:
        """The face of a piece: regiment, IJA, cube kind; cohesion cubes show their value."""
        if piece.kind == "cohesion":
            return f"{piece.attrs.get('regiment')}: {piece.attrs.get('value')}"
        if piece.kind == "exhaustion" and piece.attrs.get("regiment"):
            return f"exhausted {piece.attrs['regiment']}"
        return piece.name or piece.id

    def bots(self) -> dict[str, AgentFactory]:
        """'heuristic': a competent USMC commander ('random' is built in)."""
        from .bots import HeuristicBot

        def make(side: str, seed: int) -> Any:
            return HeuristicBot(side, seed)

        return {"heuristic": make}

    def default_bot(self, side: str) -> str:
        """--auto plays the USMC with the heuristic bot (the Japanese need no bot)."""
        return "heuristic" if side == "USMC" else "random"


GAME = Iwo1945()
