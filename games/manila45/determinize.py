"""Manila '45's determinization: what a side cannot see drawn again within the rules (6.0, 8.3).

A search on a side's behalf plays on forks of the match in which what that side cannot see
is drawn again (:meth:`~tabletop.core.engine.match.Game.determinize`). The core's default
deals the identities of a side's hidden pieces among all its hidden counters, which here
breaks the rules on where units may stand:

- **Seen by the US** (6.5): the face-down Japanese units. Both mobility classes show the
  same battle flag, but a static unit is never moved from its set-up hex (8.3) and no stack
  holds two static units (6.3). Every face-down counter's moves are seen on the table (the
  log shows "a face-down Japanese unit moves A -> B"), so the US knows which counters have
  left the hex where they were set up: only a counter that has not may be a static unit.
  The hidden identities are dealt so that the static ones go to such counters, at most one
  to a hex, none to a hex where a revealed static unit stands; the mobile ones take the
  rest. A counter's status (its set-up hex, what it did this phase) is the counter's, seen
  on the table, and stays with it: the unit dealt to it takes it over.
- **Seen by Japan** (6.5): the US units under the top of a stack, and the dead pile. A
  division's units never stack with another division's (6.2): a unit dealt under a
  division's top unit is of that division or of XIV Corps; under a XIV Corps unit, any.
  What is hidden in a box (the dead pile, an entry box, the air units' boxes) is dealt only
  within that box, and what is hidden on the map only on the map: how many units each
  place holds is seen, and boxes hold units of their own kind (an entry box its
  organisation's, 3.4; the air boxes the air units, 10.23). A unit keeps its own status.

Everything else is the core's (:func:`tabletop.core.engine.determinize.determinize`): the
fork, nothing of the match's snapshots kept, new dice. The draw reads only what the side
sees and the counters' public history, never which unit truly stands where: the slots are
taken in the order of the places' names, the units in the order of their ids.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tabletop.core.engine.determinize import determinize as core_determinize
from tabletop.core.engine.determinize import hidden_slots
from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import Pieces

from . import common as c
from .components import JAPAN, US, components

Slot = tuple[str, int, str]  # (place, position in its stack top first, the piece there now)


def determinize(match: Match, side: str, rng: random.Random) -> Match:
    """A fork of ``match`` with what ``side`` cannot see dealt again within 6.2, 6.3 and 8.3
    (see the module's notes)."""
    # The core's fork, dice and secret piles, its own dealing of hidden pieces left out
    # (each piece its own kind): the dealing is done here, within the rules, before the
    # flow is entered again at the pending decision.
    return core_determinize(match, side, rng, alike=lambda p: p.id,
                            mend=lambda twin, draw: _deal(twin, side, draw))


def _deal(twin: Match, side: str, rng: random.Random) -> None:
    """Deal what ``side`` cannot see again in ``twin`` within 6.2, 6.3 and 8.3."""
    slots = hidden_slots(twin, side)
    other = JAPAN if side == US else US
    found = slots.get(other, [])
    if not found:
        return
    on_map = [s for s in found if components().hexmap.is_hex_id(s[0])]
    boxes: dict[str, list[Slot]] = {}
    for s in found:
        if s not in on_map:
            boxes.setdefault(s[0], []).append(s)
    reg = twin.state.pieces
    deal: dict[tuple[str, int], str] = {}
    for place in sorted(boxes):
        box = boxes[place]
        ids = sorted(pid for _, _, pid in box)
        rng.shuffle(ids)
        deal.update({(p, n): pid for (p, n, _), pid in zip(box, ids, strict=True)})
    if other == JAPAN:
        deal.update(_deal_japanese(twin, on_map, rng))
        counter_status = {(p, n): dict(reg[pid].attrs) for p, n, pid in on_map}
    else:
        deal.update(_deal_us(twin, on_map, rng))
        counter_status = {}
    _place(reg, deal)
    for (place, n), status in counter_status.items():  # 6.5: a counter's status is the counter's
        reg[deal[(place, n)]].attrs = status


def _deal_japanese(match: Match, slots: Sequence[Slot], rng: random.Random) -> dict[tuple[str, int], str]:
    """6.3, 8.3: the face-down Japanese units on the map dealt to the face-down counters, the
    static ones to counters still on their set-up hex, at most one a hex and none beside a
    revealed static unit; the mobile ones to the rest."""
    reg = match.state.pieces
    statics = sorted(pid for _, _, pid in slots if c.is_static(reg[pid]))
    mobiles = sorted(pid for _, _, pid in slots if not c.is_static(reg[pid]))
    shown_static = {p.location for p in c.units_on_map(match, JAPAN) if c.is_static(p) and not p.hidden}
    unmoved: dict[str, list[tuple[str, int]]] = {}
    for place, n, pid in slots:
        setup_hex = reg[pid].attrs.get("setup_hex", place)
        if setup_hex == place and place not in shown_static:
            unmoved.setdefault(place, []).append((place, n))
    hexes = sorted(unmoved)
    chosen = rng.sample(hexes, len(statics))  # the true deal is one such choice: enough hexes
    static_slots = [rng.choice(unmoved[h]) for h in chosen]
    rng.shuffle(statics)
    rng.shuffle(mobiles)
    deal = dict(zip(static_slots, statics, strict=True))
    rest = [(p, n) for p, n, _ in slots if (p, n) not in deal]
    deal.update(zip(rest, mobiles, strict=True))
    return deal


def _deal_us(match: Match, slots: Sequence[Slot], rng: random.Random) -> dict[tuple[str, int], str]:
    """6.2: the US units hidden under the top unit of a stack dealt again among those
    places, a division's top unit over its own division's or XIV Corps' units only."""
    reg = match.state.pieces
    ids = sorted(pid for _, _, pid in slots)
    need: dict[tuple[str, int], str] = {}  # the slot -> the division its top unit belongs to
    for place, n, _ in slots:
        top = reg.stack(place)[0]
        org = c.org(top)
        need[(place, n)] = "" if top.side != US or org == "xiv" else org
    order = sorted(need, key=lambda s: (need[s] == "", s))  # a division's slots first
    for _ in range(20):  # a random deal, slot by slot; the truth shows one exists
        free = ids[:]
        rng.shuffle(free)
        deal: dict[tuple[str, int], str] = {}
        for s in order:
            pid = next((p for p in free if not need[s] or c.org(reg[p]) in (need[s], "xiv")), None)
            if pid is None:
                break
            free.remove(pid)
            deal[s] = pid
        else:
            return deal
    # Rarely the random deal runs short of a division's units: fill each division's slots
    # with its own units first, XIV Corps' for the rest, then the open slots with what is left.
    free = ids[:]
    rng.shuffle(free)
    deal = {}
    for s in order:
        if need[s]:
            pid = next((p for p in free if c.org(reg[p]) == need[s]), None) or next(
                p for p in free if c.org(reg[p]) == "xiv")
        else:
            pid = free[0]
        free.remove(pid)
        deal[s] = pid
    return deal


def _place(reg: Pieces, deal: dict[tuple[str, int], str]) -> None:
    """Each piece dealt to the place and position in the stack of its slot."""
    stacks: dict[str, list[str]] = {}
    for place, _ in deal:
        stacks.setdefault(place, list(reg.ids_at(place)))
    for (place, n), pid in deal.items():
        stacks[place][n] = pid
    for (place, _), pid in deal.items():
        if reg[pid].location != place:
            reg.move(pid, place)
    for place, order in stacks.items():
        if list(reg.ids_at(place)) != order:
            for pid in reversed(order):
                reg.to_top(pid)
