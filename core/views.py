"""Per-player views: what one side may see of a match (hidden pieces and cards masked)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .canonical import JSON, thaw

if TYPE_CHECKING:
    from .match import Match


def generic_view(match: Match, player: str) -> dict[str, JSON]:
    """The state as ``player`` sees it.

    A piece that is ``hidden`` and belongs to another side shows only its place, side and
    kind "hidden" (no id, no values). Of a deck, the player sees the cards of its own hand
    (``hand:<player>``) and of open piles (discard and any not starting with ``hand:`` or
    ``draw``), and only the size of the others.
    Another player's pending decision shows only whose turn it is.
    """
    state = match.state
    pieces: list[dict[str, JSON]] = []
    stacks: dict[str, list[str]] = {}
    for loc in sorted(state.pieces.occupied()):
        shown: list[str] = []
        for n, p in enumerate(state.pieces.at(loc)):
            if p.hidden and p.side != player:
                pid = f"hidden:{loc}:{n}"
                pieces.append({"id": pid, "kind": "hidden", "side": p.side, "location": loc})
            else:
                pid = p.id
                pieces.append(p.to_json())
            shown.append(pid)
        stacks[loc] = shown
    decks: dict[str, JSON] = {}
    for deck_id, deck in sorted(state.decks.items()):
        piles: dict[str, JSON] = {}
        for name, cards in sorted(deck.piles.items()):
            secret = name == "draw" or (name.startswith("hand:") and name != f"hand:{player}")
            piles[name] = {"count": len(cards)} if secret else list(cards)
        decks[deck_id] = piles
    return {
        "player": player,
        "turn": state.turn,
        "phase": state.phase,
        "pieces": pieces,
        "stacks": stacks,
        "tracks": {k: t.value for k, t in sorted(state.tracks.items())},
        "decks": decks,
        "vars": thaw(state.vars),
        "pending": _pending_for(match, player),
    }


def _pending_for(match: Match, player: str) -> dict[str, JSON] | None:
    """The pending decision in full for its own player; for the others, only who decides."""
    pending = match.pending
    if pending is None:
        return None
    if pending.player == player:
        return pending.to_json()
    return {"player": pending.player, "section": pending.section}
