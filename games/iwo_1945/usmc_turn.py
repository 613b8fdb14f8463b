"""6.0 USMC Turn: draw up to 3 tactic cards, play cards and take the action(s), discard."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from tabletop.core.engine.decisions import DONE, Option, ask_str, choose

from . import actions, cards
from .components import ForbidActions
from .positions import USMC, Flow, usmc_controls_all
from .resume import Frame, Path, step

if TYPE_CHECKING:
    from tabletop.core.engine.match import Match


_ACTION_OPTIONS: Mapping[str, Option] = MappingProxyType(
    {k: Option(k, title) for k, title in actions.TITLES.items()})
"""6.0: the option of each kind of action (the same for every decision: options never change)."""


def new_turn_vars() -> dict[str, object]:
    """6.0: one action a turn unless a card says more; nothing played yet."""
    return {"allow": 1, "only": None, "free": 1, "taken": 0, "kinds": [], "used": [],
            "played": False, "forbid": []}


def draw_up(m: Match, *, setup: bool = False) -> None:
    """6.0 Tactic Cards: draw until the hand holds 3 (none if the deck is out: it is never
    reshuffled). A Bad Weather card drawn takes effect at once and is discarded with no
    replacement (5.0 at set-up: simply discarded)."""
    deck = m.state.decks[cards.DECK]
    size = 3 - len(cards.hand(m))
    for _ in range(max(0, size)):
        drawn = deck.draw(1, to=cards.HAND)
        if not drawn:
            m.emit("card", "6.0", "the Marine Draw deck is empty: no card drawn")
            return
        inst = drawn[0]
        c = cards.card(inst)
        if setup and c.discard_at_setup:
            cards.discard(m, inst, "5.0", "drawn in the starting hand; no replacement")
        elif c.play == "when_drawn":
            deck.move(inst, "discard")
            forbid = [a for e in c.effects if isinstance(e, ForbidActions) for a in e.actions]
            turn = m.state.vars.get("turn")
            if turn is not None:
                turn["forbid"] = sorted(set(turn["forbid"]) | set(forbid))
            m.emit("card", "6.0", f"{c.title} is drawn and takes effect: {c.text}", card=inst,
                   effects=cards.card_effects(inst))
        else:
            m.emit("card", "6.0", f"USMC draws {c.title}", card=inst)


def hand_text(m: Match) -> str:
    """The hand as the player sees it."""
    h = cards.hand(m)
    return "hand: " + (", ".join(cards.title(i) for i in h) if h else "empty")


def usmc_turn(m: Match, *, reentered: bool = False) -> Flow:
    """6.0 USMC Turn: draw (from round 2: in round 1 the 5.0 starting hand is played as
    dealt, as 10.0 does), then cards (any number, 6.0 Note: before, during or after the
    action) and the action(s) in the player's order, then the optional discard.

    ``reentered``: the turn is restarted from a position taken inside it (an edit of the
    running match, before its first decision): the turn's record (``vars["turn"]``, with
    what a Bad Weather card drawn at its start forbids) is kept and nothing is drawn again.
    Entered again at one of its decisions (resume entry ``usmc``, :mod:`.resume`), the turn
    goes back to it: its record and the hand are in the state."""
    frame, back = step(m.resumed("usmc"))
    if frame is None and not (reentered and m.state.vars.get("turn") is not None):
        m.state.vars["turn"] = new_turn_vars()
        if m.state.turn > 1:
            draw_up(m)  # 5.0, 10.0: in round 1 the starting hand is the hand (no refill)
    turn = m.state.vars["turn"]
    while frame is None or frame["at"] == "turn":
        if frame is not None and back is not None:
            v = frame["v"]  # entered again inside what this answer began
        else:
            opts = [_ACTION_OPTIONS[k] for k in actions.available(m)]
            opts += cards.card_options(m, "usmc_main")
            if m.options.get("usmc_discards", "one_if_none_played") == "any":
                opts += [Option(f"discard:{i}", f"discard {cards.title(i)}") for i in cards.hand(m)]
            opts.append(Option(DONE, "end the USMC turn"))
            left = turn["allow"] - turn["taken"]
            v = yield from ask_str(_TURN.mark(choose(
                USMC, f"USMC turn {m.state.turn}: {left} action(s) left; {hand_text(m)}", "6.0",
                opts, kind="usmc_turn", context={"actions_left": left, "hand": cards.hand(m)}),
                _AT_TURN))
        frame = None
        if v == DONE:
            break
        if v.startswith("card:"):
            yield from cards.play(m, v[5:], "usmc_main", at=_TURN.into({"at": "turn", "v": v}),
                                  back=back)
        elif v.startswith("discard:"):
            cards.discard(m, v[8:], "6.0", "by choice (option usmc_discards=any)")
        else:
            yield from actions.perform(m, v, at=_TURN.into({"at": "turn", "v": v}), back=back)
            if m.options.get("full_control_end", "end_of_turn") == "immediately" \
                    and usmc_controls_all(m):
                m.emit("phase", "7.0", "the USMC controls every island position: the game "
                       "ends at once (option full_control_end=immediately)")
                m.state.vars["turn"] = None
                return
        back = None
    yield from end_discard(m)
    m.state.vars["turn"] = None


_TURN = Path("usmc")
"""The path of the USMC turn's own decisions and of what they begin."""
_AT_TURN: Frame = MappingProxyType({"at": "turn"})
"""The USMC turn at its decision of what to do next (6.0)."""
_AT_DISCARD: Frame = MappingProxyType({"at": "discard"})
"""The USMC turn at its last decision, the discard (6.0)."""


def end_discard(m: Match) -> Flow:
    """6.0: if no tactic card was played this turn, the player may discard 1 card (with the
    option ``usmc_discards=any`` the discards were offered during the turn instead)."""
    turn = m.state.vars["turn"]
    h = cards.hand(m)
    if turn["played"] or not h or m.options.get("usmc_discards", "one_if_none_played") == "any":
        return
    v = yield from ask_str(_TURN.mark(choose(
        USMC, "No card was played this turn: discard one?", "6.0",
        [Option("keep", "keep the hand"),
         *[Option(f"card:{i}", f"discard {cards.title(i)}") for i in h]], kind="discard"),
        _AT_DISCARD))
    if v != "keep":
        cards.discard(m, v[5:], "6.0", "by choice, no card played this turn")
