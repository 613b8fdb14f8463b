"""5.0 Game Set Up, and the 6.0 Special Landing Phase that precedes the first round."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from tabletop.core.engine.pieces import Deck, Piece

from .components import Setup, expand_deck
from .positions import (
    JAPAN,
    RESERVE,
    SUPPLY,
    USMC,
    Flow,
    adjacent,
    beaches,
    comps,
    is_japanese_occupied,
    is_usmc_occupied,
    positions,
    priority,
    regiment_ids,
    track_id,
)

if TYPE_CHECKING:
    from tabletop.core.engine.match import Match


def setup_for(m: Match) -> Setup:
    """5.0, 8.0: the set-up with the match's options applied (setup.yaml's variants); the
    caller must not change it (kept by the options that shape it: see _setup_for)."""
    return _setup_for(m.options.get("landing") == "historical",
                      None if (deal := m.options.get("japanese_cards")) is None else str(deal),
                      None if (dice := m.options.get("landing_dice")) is None else str(dice))


@lru_cache(maxsize=64)
def _setup_for(historical: bool, deal_option: str | None, dice_option: str | None) -> Setup:
    """:func:`setup_for` from the options it reads (a pure function of them and of the
    components, which are loaded once a process)."""
    base = comps().setup
    ids = ["historical_landing"] if historical else []
    s = base.with_options(*ids)
    deal = int(deal_option if deal_option is not None else str(s.decks.japanese_deal))
    dice = int(dice_option if dice_option is not None else str(s.special_landing.dice))
    data = s.model_dump()
    data["decks"]["japanese_deal"] = deal
    data["special_landing"]["dice"] = dice
    return Setup.model_validate(data)


def build(m: Match) -> None:
    """5.0: three Japanese markers in each island position, one regiment on each beach and
    five in reserve, every cohesion cube on 12, the three gold cubes on the Rising Sun
    squares, bunkers and other cubes beside the board, 30 (27/33, 8.0) Japanese and 30
    USMC cards dealt unseen, the rest set aside, and a starting hand of 3."""
    c = comps()
    s = setup_for(m)
    st = m.state
    where = {rid: beach for beach, rid in s.landing.items()}
    for rid in regiment_ids():
        loc = where.get(rid, RESERVE)
        for k in range(1, c.pieces.usmc.markers_per_regiment + 1):
            st.pieces.add(Piece(f"{rid} #{k}", "marine", USMC, name=rid, location=loc,
                                attrs={"regiment": rid}))
        st.track(track_id(rid), s.cohesion_start, c.pieces.usmc.cohesion_track.bottom,
                 c.pieces.usmc.cohesion_track.top, section="4.0")
        st.pieces.add(Piece(f"cohesion {rid}", "cohesion", "", name=f"{rid} cohesion",
                            location=c.pieces.regiment(rid).track,
                            attrs={"regiment": rid, "value": s.cohesion_start}))
    n = 0
    for pos, count in s.japanese.items():
        for _ in range(count):
            n += 1
            st.pieces.add(Piece(f"IJA #{n}", "ija", JAPAN, name="IJA", location=pos))
    k = 0
    for box, count in s.infiltration.items():
        for _ in range(count):
            k += 1
            st.pieces.add(Piece(f"infiltration #{k}", "infiltration", JAPAN, name="infiltrator",
                                location=box))
    for kind in ("bunker", "exhaustion"):
        for i in range(1, c.pieces.cube(kind).count + 1):
            st.pieces.add(Piece(f"{kind} #{i}", kind, "", name=kind, location=SUPPLY))
    st.pieces.add(Piece("suribachi", "suribachi", USMC, name="Suribachi flag", location=SUPPLY))
    held = {p: (USMC if is_usmc_occupied(m, p) else JAPAN) for p in positions()}
    st.vars.update({"held": held, "control": dict(held), "turn": None, "japanese_card": None,
                    "landing_dice": s.special_landing.dice})
    _deal(m, s)
    from .usmc_turn import draw_up

    draw_up(m, setup=True)


def _deal(m: Match, s: Setup) -> None:
    """5.0: shuffle both decks, deal the cards used, set the rest aside unseen."""
    c = comps()
    for deck_id, spec, deal in (("japanese", c.japanese_deck, s.decks.japanese_deal),
                                ("usmc", c.usmc_deck, s.decks.usmc_deal)):
        cards = expand_deck(spec)
        m.dice.shuffle(cards, purpose=f"shuffle the {deck_id} deck", section="5.0")
        deck = m.state.deck(Deck(deck_id, cards[:deal], piles=("discard", "out")))
        deck.pile("out").extend(cards[deal:])
        if deck_id == "usmc":
            deck.pile("hand:USMC")


def special_landing(m: Match) -> Flow:
    """6.0 Special Landing Phase: once, before the first round, a Japanese fire attack of 3
    dice (4 with the option ``landing_dice``) against every USMC-occupied beach adjacent to
    a Japanese-occupied position; 1s count for nothing; no cards are played."""
    from .japanese_turn import fire

    dice = int(m.state.vars["landing_dice"])
    m.state.phase = "landing"
    m.emit("phase", "6.0", f"Special Landing Phase: {dice} dice against each beach under fire",
           dice=dice)
    for b in beaches():
        srcs = [q for q in adjacent(b) if is_japanese_occupied(m, q)]
        if is_usmc_occupied(m, b) and srcs:
            yield from fire(m, min(srcs, key=priority), b, dice, "Special Landing Phase",
                            landing=True)
