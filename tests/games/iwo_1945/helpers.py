"""Helpers for the Iwo Jima 1945 rule tests: set a position up by hand, script the dice,
drive one rule's procedure with given answers."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from tabletop.core.designer.testing import run_procedure
from tabletop.core.engine.decisions import Decision
from tabletop.core.engine.dice import ScriptedDice
from tabletop.core.engine.match import Match
from tabletop.games.iwo_1945 import GAME
from tabletop.games.iwo_1945 import positions as P
from tabletop.games.iwo_1945.usmc_turn import new_turn_vars


def new_match(seed: int = 1, **options: Any) -> Match:
    """A match at its first USMC decision (after the Special Landing Phase)."""
    return Match(GAME, seed=seed, options=options)


def script(m: Match, faces: Sequence[int]) -> ScriptedDice:
    """From now on the match rolls exactly these faces."""
    return m.script_dice(faces)


def drive(m: Match, gen: Generator[Decision, Any, Any], answers: Sequence[Any] = ()) -> Any:
    """Run one rule procedure, answering its decisions in order; returns its value."""
    return run_procedure(gen, answers)


def decisions_of(m: Match, gen: Generator[Decision, Any, Any], answers: Sequence[Any]) -> list[Decision]:
    """Like drive, but returns the decisions seen (the last one unanswered, if any)."""
    seen: list[Decision] = []
    todo = list(answers)
    try:
        d = next(gen)
        seen.append(d)
        while todo:
            d = gen.send(todo.pop(0))
            seen.append(d)
    except StopIteration:
        pass
    return seen


def empty_board(m: Match) -> None:
    """Clear every position: regiments to the reserve, Japanese markers eliminated, cubes
    back beside the board; control reset to Japanese (2.0)."""
    st = m.state
    for p in list(st.pieces):
        if p.location in P.positions():
            if p.kind == "marine":
                st.pieces.move(p.id, P.RESERVE)
            elif p.kind == "ija":
                st.pieces.move(p.id, P.JAPANESE_ELIMINATED)
            elif p.kind == "infiltration":
                box = next(b for b in P.RISING_SUN if not st.pieces.at(b))
                st.pieces.move(p.id, box)
            else:
                p.attrs.pop("regiment", None)
                st.pieces.move(p.id, P.SUPPLY)
    for pos in P.positions():
        st.vars["held"][pos] = P.JAPAN
        st.vars["control"][pos] = P.JAPAN
    st.vars["turn"] = new_turn_vars()


def put_regiment(m: Match, rid: str, pos: str, *, cohesion: int = 12, markers: int = 3) -> None:
    """Stand a regiment in a position with this cohesion and number of markers."""
    ps = [p for p in m.state.pieces.select(kind="marine") if p.attrs["regiment"] == rid]
    for k, p in enumerate(ps):
        m.state.pieces.move(p.id, pos if k < markers else P.USMC_ELIMINATED)
    P.set_cohesion(m, rid, cohesion)
    P.update_control(m)


def put_japanese(m: Match, pos: str, n: int) -> None:
    """Put n Japanese markers (from the eliminated box) in a position."""
    spare = [p for p in m.state.pieces.select(kind="ija") if p.location == P.JAPANESE_ELIMINATED]
    for p in spare[:n]:
        m.state.pieces.move(p.id, pos)
    P.update_control(m)


def put_cube(m: Match, kind: str, pos: str, **attrs: Any) -> None:
    """Put a cube (bunker, exhaustion, infiltration) in a position."""
    src = P.RISING_SUN if kind == "infiltration" else (P.SUPPLY,)
    cube = next(p for b in src for p in m.state.pieces.at(b) if p.kind == kind)
    cube.attrs.update(attrs)
    m.state.pieces.move(cube.id, pos)
    P.update_control(m)


def give_hand(m: Match, *card_ids: str) -> list[str]:
    """Replace the USMC hand with one physical copy of each card id; returns the ids."""
    deck = m.state.decks["usmc"]
    for inst in list(deck.pile("hand:USMC")):
        deck.move(inst, "draw")
    out = []
    for cid in card_ids:
        inst = next(c for c in deck.all_cards() if c.split("#")[0] == cid and c not in out
                    and deck.where(c) != "hand:USMC")
        deck.move(inst, "hand:USMC")
        out.append(inst)
    return out


def japanese_top(m: Match, card_id: str) -> str:
    """Put a copy of a Japanese card on top of the Japanese draw deck."""
    deck = m.state.decks["japanese"]
    inst = next(c for c in deck.all_cards() if c.split("#")[0] == card_id)
    deck.move(inst, "draw", top=True)
    return inst
