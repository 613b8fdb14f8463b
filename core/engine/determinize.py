"""Determinization: a fork of a match in which what one side cannot see is drawn again.

A search on a side's behalf (:mod:`.search`) may use only what that side knows. It plays on
*determinizations*: matches that agree with everything the side sees and in which
everything hidden from it is drawn at random, anew for every sample. :func:`determinize` is
the core's default (:meth:`~.match.Game.determinize` calls it):

- **hidden pieces**: the pieces the side sees only as hidden counters (their place, side
  and kind ``"hidden"``: another side's face-down pieces, and whatever the game's
  :meth:`~.match.Game.stack_view` hides) look alike when they belong to the same side. Those
  identities are dealt again among the hidden places and stack positions of that side,
  at random: each piece moves, with everything it carries (steps, face, status), to the
  place and position in the stack of the hidden counter it now stands for;
- **secret piles**: the cards of every deck pile the side sees only the size of
  (:attr:`~.match.Game.secret_piles`, other players' hands) are pooled deck by deck and
  dealt again at random into those piles, each keeping its size;
- **chance**: the fork's dice are seeded anew from the sample, so the rolls to come are
  not the match's (which no side knows), and rolls or shuffles the match's header forces
  (a test's, a position's) are left out;
- **the flow**: a piece the pending decision's resume point names (the unit being moved,
  the defender shown in an attack being resolved) is not dealt (:func:`held_by_flow`), and
  once the deal is done the flow is entered again at the pending decision
  (:func:`enter_again`), so that the rules go on from what was dealt, not from what the
  fork's flow had read of the match.

What the side sees is untouched, so the view of the determinization for that side is the
view of the match. The draw is made from what the side sees alone: the hidden pieces and
the secret cards are taken in an order of their own (by id), never as they truly stand,
so two matches that the side sees alike give the same determinization from the same
random generator. A game overrides :meth:`~.match.Game.determinize` (calling this
function, then mending what its rules constrain) where its rules say more than "any hidden
piece of a side may be any other": a piece that can only stand in some places, a status
tied to a place rather than to the piece, a card known to be on top of the draw pile, what
the game keeps in game variables hidden from the side (:attr:`~.match.Game.var_visibility`;
left as they are here), or a piece shown for a moment and hidden again, which the side
remembers. The determinization keeps the game's invariants (:meth:`~.match.Game.invariants`)
as long as they do not depend on which hidden piece stands where.

A determinization is played on, not forked or undone: it keeps none of the match's snapshots,
and a fork of it where the game's decision is not resumable replays the record from its
header, which gives the match's true hidden state again. Draw a new determinization of the
match instead.

:func:`determinize_view` is the one door from a view (what an agent is given) to a match a
search may play on: a determinization for the view's side, never the match itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .canonical import JSON
from .dice import Dice
from .errors import TabletopError
from .views import View
from .visibility import is_hidden_from, is_secret_pile

if TYPE_CHECKING:
    from .match import Match
    from .pieces import Piece

Alike = Callable[["Piece"], JSON]
"""A game's key for which hidden pieces may trade places in a determinization
(:func:`determinize`'s ``alike``)."""

HIDDEN_PREFIX = "hidden:"
"""How a view names a piece it shows only as a hidden counter (``hidden:PLACE:N``)."""


def held_by_flow(match: Match) -> frozenset[str]:
    """The pieces the pending decision's resume point names (the unit a move is moving, the
    defender of an attack being resolved): the flow holds them, and a game names one there
    only where the side asked knows it (the decision names it, or the rules showed it), so
    a determinization deals them to no other place."""
    pending = match.pending
    if pending is None or pending.resume is None:
        return frozenset()
    pieces = match.state.pieces
    named: set[str] = set()
    todo: list[Any] = [pending.resume.args]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            if item in pieces:
                named.add(item)
        elif isinstance(item, Mapping):
            todo.extend(item.values())
        elif isinstance(item, list | tuple):
            todo.extend(item)
    return frozenset(named)


def hidden_slots(match: Match, side: str) -> dict[str, list[tuple[str, int, str]]]:
    """The pieces ``side`` sees only as hidden counters, by the side that owns them: each as
    (place, its position in the stack there, top first, the piece's id), in the order of
    the places' names and of the stacks; those the pending decision's flow holds
    (:func:`held_by_flow`) left out."""
    game = match.game
    pieces = match.state.pieces
    held = held_by_flow(match)
    found: dict[str, list[tuple[str, int, str]]] = {}
    if match.shared_board._stack_view is None:  # the core's rule: another side's hidden pieces
        if not any(pieces.any_hidden(other) for other in game.info.players if other != side):
            return found
        places = sorted({p.location for p in pieces if is_hidden_from(p, side)})
        for place in places:
            for n, piece in enumerate(pieces.stack(place)):
                if is_hidden_from(piece, side) and piece.id not in held:
                    found.setdefault(piece.side, []).append((place, n, piece.id))
        return found
    stacks: Mapping[str, Any] = View(match, side)["stacks"]  # the game's own rule, as shown
    for place in sorted(stacks):
        shown = stacks[place]
        if not any(str(e).startswith(HIDDEN_PREFIX) for e in shown):
            continue
        stack = pieces.stack(place)
        for n, entry in enumerate(shown):
            if str(entry).startswith(HIDDEN_PREFIX) and stack[n].id not in held:
                piece = stack[n]
                found.setdefault(piece.side, []).append((place, n, piece.id))
    return found


def deal_hidden_pieces(match: Match, side: str, rng: random.Random, *,
                       alike: Alike | None = None) -> None:
    """Deal the identities of the pieces hidden from ``side`` again among their hidden
    counters, side by side (see the module's notes), in ``match`` itself; with ``alike``,
    only among the pieces of one side it gives the same key."""
    reg = match.state.pieces
    groups: dict[tuple[str, JSON], list[tuple[str, int, str]]] = {}
    for owner, found in sorted(hidden_slots(match, side).items()):
        for slot in found:
            key = None if alike is None else alike(reg[slot[2]])
            groups.setdefault((owner, key), []).append(slot)
    for slots in groups.values():
        if len(slots) < 2:
            continue
        ids = sorted(pid for _, _, pid in slots)
        rng.shuffle(ids)
        target = {pid: (place, n) for (place, n, _), pid in zip(slots, ids, strict=True)}
        # the stacks as they will be: each hidden position given the piece dealt to it
        stacks: dict[str, list[str]] = {}
        for place, _, _ in slots:
            stacks.setdefault(place, list(reg.ids_at(place)))
        for pid, (place, n) in target.items():
            stacks[place][n] = pid
        for pid, (place, _) in target.items():
            if reg[pid].location != place:
                reg.move(pid, place)
        for place, order in stacks.items():
            if list(reg.ids_at(place)) != order:
                for pid in reversed(order):
                    reg.to_top(pid)


def deal_secret_cards(match: Match, side: str, rng: random.Random) -> None:
    """Deal the cards of the piles secret from ``side`` again among those piles, deck by
    deck, each pile keeping its size, in ``match`` itself."""
    game = match.game
    for deck_id in sorted(match.state.decks):
        deck = match.state.decks[deck_id]
        names = sorted(name for name in deck.piles if is_secret_pile(game, name, side))
        cards = sorted(card for name in names for card in deck.piles[name])
        if len(cards) < 2:
            continue
        rng.shuffle(cards)
        at = 0
        for name in names:
            pile = deck.piles[name]
            pile[:] = cards[at:at + len(pile)]
            at += len(pile)


def reseed_dice(match: Match, rng: random.Random) -> None:
    """Give ``match`` new dice seeded from ``rng``: the same count of rolls so far, the
    game's declared roll purposes, and no forced roll or stacked shuffle."""
    old = match.dice
    fresh = Dice(rng.getrandbits(63))
    fresh.declare(old.purposes)
    fresh.rolls = old.rolls
    fresh.listener = old.listener
    match.dice = fresh


def enter_again(twin: Match) -> Match:
    """A determinization with its flow entered again at the pending decision, once what is
    hidden has been dealt: the flow a fork is entered with reads the state as it was before
    the deal (the piece in an attacked hex, say), and a flow keeps what it read. Made as a
    strict fork of ``twin`` (the same decision asked at once, nothing rolled, logged or
    changed first); where the decision cannot be asked again (no resume point), or the
    rules would act first on what was dealt, ``twin`` is kept as it is."""
    pending = twin.pending
    if pending is None or pending.resume is None:
        return twin
    try:
        entered = twin.fork(strict=True)
    except TabletopError:
        return twin
    entered._snapshots = []
    return entered


def determinize(match: Match, side: str, rng: random.Random, *,
                alike: Alike | None = None,
                mend: Callable[[Match, random.Random], None] | None = None) -> Match:
    """A fork of ``match`` with what is hidden from ``side`` drawn again from ``rng`` (see
    the module's notes and :meth:`~.match.Game.determinize`): the default every game has.

    ``alike`` is for a game whose hidden pieces of a side cannot all trade places under its
    rules: it gives each hidden piece a key (small JSON: its kind, its division), and a
    piece's identity is dealt only among the hidden pieces of its side with the same key.
    The key is the game's to choose so that it tells nothing the side cannot know (a kind
    the rules pin to some places, say, rather than the piece's id). ``mend`` is for a game
    that deals within its rules itself: called with the fork and ``rng`` once the core's
    dealing is done, it moves what it must. The flow is then entered again at the pending
    decision (:func:`enter_again`), so that it reads the determinized state, not the
    match's."""
    if side not in match.game.info.players:
        raise TabletopError(f"game {match.game.info.id} has no side {side!r} "
                            f"(sides: {', '.join(match.game.info.players)})")
    twin = match.fork()
    # What a fork keeps to be forked again or undone (its snapshots) holds the true hidden
    # state: a determinization keeps only the snapshots it takes of itself from here on.
    twin._snapshots = []
    deal_hidden_pieces(twin, side, rng, alike=alike)
    deal_secret_cards(twin, side, rng)
    reseed_dice(twin, rng)
    if mend is not None:
        mend(twin, rng)
    return enter_again(twin)


def determinize_view(view: Mapping[str, Any], rng: random.Random) -> Match:
    """A determinization (:meth:`~.match.Game.determinize`) for the side a view is for, of
    the match it shows: how a search agent, given only a view, finds a match to play on. The
    view's match itself is read only by the game's determinization, which hides from the
    side what it does not see; nothing else of it reaches the agent.

    The view must be the engine's own, current, and a side's (not the game master's): an
    agent playing over JSON (a remote one) gets no match and cannot search this way."""
    if not isinstance(view, View):
        raise TabletopError("a search agent plays in the same process as the match: it needs the "
                            "engine's view of it, not a copy in JSON")
    return view.determinized(rng)

