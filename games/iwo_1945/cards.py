"""3.0 and 6.0 Tactic Cards: the USMC hand, when a card may be played, and what it does.

A card is offered only at a moment its timing allows (the bottom of the card: USMC turn,
Japanese turn, either) and only when one of its effects can be carried out (6.0 "If a
card's effect cannot be played, then the card may not be played"). Moments:

``usmc_main``  the USMC turn, before, between or after actions (6.0 Note)
``attack``     a USMC attack, after the target is chosen and before the dice are rolled
``reroll``     a USMC attack, at each reroll decision (6.0 Note "during"; Medal of Honor
               "Play during an attack"): free-reroll and cohesion cards
``japanese``   the Japanese turn, before and after the card is followed (6.0 Note)
``cancel``     a Japanese effect a card can cancel is about to be carried out
``counter``    the dice of a Japanese attack have been rolled
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from tabletop.core.engine.decisions import Option, ask_str, choose
from tabletop.core.engine.text import in_words

from . import cohesion as coh
from .components import (
    AddAttackDice,
    CancelJapanese,
    ExtraActions,
    PlaceBunker,
    RaiseCohesion,
    RemoveBunker,
    Reroll,
    UsmcCard,
    card_id_of,
)
from .positions import (
    USMC,
    Flow,
    bunker_at,
    bunker_supply,
    can_new_wave,
    cohesion,
    comps,
    is_exhausted,
    is_island,
    is_mountain,
    islands,
    label,
    name,
    on_board,
    place_bunker,
    regiment_at,
)
from .resume import NOWHERE, Back, Frame, Path, step

if TYPE_CHECKING:
    from tabletop.core.engine.match import Match

DECK = "usmc"
HAND = "hand:USMC"
TIMING: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "usmc_main": ("usmc_turn", "either"),
    "attack": ("usmc_turn", "either"),
    "reroll": ("usmc_turn", "either"),
    "japanese": ("japanese_turn", "either"),
    "cancel": ("japanese_turn", "either"),
    "counter": ("japanese_turn", "either"),
})


@cache
def card(inst: str) -> UsmcCard:
    """3.0: the printed card of a physical card id (``naval_gunfire#2``): the components
    are loaded once a process, so each card is looked up once."""
    return comps().usmc_deck.card(card_id_of(inst))


def hand(m: Match) -> list[str]:
    """6.0: the USMC hand of tactic cards (at most 3)."""
    return list(m.state.decks[DECK].pile(HAND))


def title(inst: str) -> str:
    """The printed title of a card."""
    return card(inst).title


def card_effects(inst: str) -> list[dict[str, Any]]:
    """3.0: a card's effects as an event's data carries them, each with its fields (dice,
    amount, rerolls...) and the rule's bound its text states (a cohesion raise: ``maximum``
    12, 4.0)."""
    top = comps().pieces.usmc.cohesion_track.top
    return [{**e.model_dump(mode="json"), **({"maximum": top} if isinstance(e, RaiseCohesion) else {})}
            for e in card(inst).effects]


def _effect_applies(m: Match, eff: Any, moment: str, ctx: dict[str, Any]) -> bool:
    """6.0: whether one effect of a card can be carried out at this moment."""
    if isinstance(eff, RaiseCohesion):
        return moment in ("usmc_main", "japanese", "reroll") \
            and any(cohesion(m, r) < 12 for r in on_board(m))
    if isinstance(eff, PlaceBunker):
        return moment in ("usmc_main", "japanese") and bool(bunker_targets(m))
    if isinstance(eff, ExtraActions):
        turn = m.state.vars.get("turn") or {}
        if moment != "usmc_main" or eff.regiments <= int(turn.get("allow", 1)):
            return False
        if eff.only and "place_new_wave" in eff.only:
            # 6.0 "If a card's effect cannot be played": an extra new wave needs a reserve,
            # a vacant beach and no Bad Weather this turn.
            return can_new_wave(m)
        return True
    if isinstance(eff, AddAttackDice):
        if moment != "attack":
            return False
        mountain = is_mountain(ctx["target"])
        return (eff.against == "any" or (eff.against == "mountain") == mountain)
    if isinstance(eff, RemoveBunker):
        if moment != "attack" or ctx.get("kind") != "markers":
            return False
        if eff.against != "any" and (eff.against == "mountain") != is_mountain(ctx["target"]):
            return False  # Flame Tanks: "on a position without a mountain"
        return bunker_at(m, ctx["target"]) is not None
    if isinstance(eff, Reroll):
        return (moment in ("attack", "reroll")) if eff.dice == "usmc" else (moment == "counter")
    if isinstance(eff, CancelJapanese):
        return moment == "cancel" and ctx.get("kind") in eff.kinds
    return False  # forbid_actions: only as drawn (Bad Weather); hooks: none in this deck


def playable(m: Match, inst: str, moment: str, ctx: dict[str, Any] | None = None) -> bool:
    """6.0 Tactic Cards: the card's timing allows this moment and an effect can be played."""
    c = card(inst)
    if c.play not in TIMING[moment]:
        return False
    return any(_effect_applies(m, e, moment, ctx or {}) for e in c.effects)


def playable_cards(m: Match, moment: str, ctx: dict[str, Any] | None = None) -> list[str]:
    """6.0: the cards of the hand that may be played now, one per title."""
    seen: set[str] = set()
    out = []
    for inst in hand(m):
        cid = card_id_of(inst)
        if cid not in seen and playable(m, inst, moment, ctx):
            seen.add(cid)
            out.append(inst)
    return out


def card_options(m: Match, moment: str, ctx: dict[str, Any] | None = None) -> list[Option]:
    """Options "play <card>" for every playable card."""
    return [_play_option(inst) for inst in playable_cards(m, moment, ctx)]


@cache
def _play_option(inst: str) -> Option:
    """The option "play <card>" of a physical card (the same for every decision)."""
    return Option(f"card:{inst}", f"play {title(inst)}", card(inst).text)


def bunker_targets(m: Match) -> list[str]:
    """3.0: USMC-occupied island positions without a bunker (a USMC bunker card's places)."""
    if bunker_supply(m) == 0:
        return []
    return [p for p in islands() if regiment_at(m, p) is not None and bunker_at(m, p) is None]


def discard(m: Match, inst: str, section: str, why: str) -> None:
    """6.0: a card goes to the Marine discard pile (never reshuffled)."""
    m.state.decks[DECK].move(inst, "discard")
    m.emit("card", section, f"{title(inst)} is discarded ({why})", card=inst)


def play(m: Match, inst: str, moment: str, ctx: dict[str, Any] | None = None, *,
         at: Path = NOWHERE, back: Back = None) -> Flow:
    """3.0, 6.0: play a tactic card: to the discard pile, then carry out its effects.

    Returns (as the flow's value) the attack modifiers it gives: extra dice, free rerolls,
    Japanese dice to reroll, cancellations. Entered again (``back``) at the effect that
    asked a decision, the card already played and the modifiers so far in its frame.
    """
    ctx = ctx or {}
    c = card(inst)
    turn = m.state.vars.get("turn")
    frame, back = step(back)
    if frame is None:
        m.state.decks[DECK].move(inst, "discard")
        if turn is not None and moment in ("usmc_main", "attack", "reroll"):
            turn["played"] = True
        m.emit("card", "6.0", f"USMC plays {c.title}: {c.text}", card=inst, moment=moment,
               effects=card_effects(inst))
        mods: dict[str, int] = {"dice": 0, "free": 0, "japanese_rerolls": 0, "cancel": 0}
        first = 0
    else:
        mods, first = dict(frame["mods"]), frame["effect"]
    for i, eff in enumerate(c.effects):
        if i < first:
            continue
        if not _effect_applies(m, eff, moment, ctx):
            if not isinstance(eff, ExtraActions):
                m.emit("card", "6.0", f"{c.title}: an effect ({in_words(eff.type)}) cannot apply "
                       "and is ignored",
                       card=inst, effect=eff.type)
            continue
        if isinstance(eff, RaiseCohesion):
            yield from _raise(m, c, eff, at.into({"at": "effect", "effect": i, "mods": dict(mods)}))
        elif isinstance(eff, PlaceBunker):
            yield from _dig_in(m, c, at.into({"at": "effect", "effect": i, "mods": dict(mods)}))
        elif isinstance(eff, ExtraActions):
            assert turn is not None
            turn["free"] = turn["allow"] if eff.only else eff.regiments
            turn["allow"] = eff.regiments
            turn["only"] = list(eff.only) if eff.only else None
            m.emit("card", "6.0", f"{c.title}: {eff.regiments} actions this turn"
                   + (f" (the others only {', '.join(in_words(k) for k in eff.only)})"
                      if eff.only else ""),
                   card=inst, regiments=eff.regiments, only=list(eff.only or ()))
        elif isinstance(eff, AddAttackDice):
            mods["dice"] += eff.n
        elif isinstance(eff, RemoveBunker):
            bunker = bunker_at(m, ctx["target"])
            if bunker is not None:
                m.state.pieces.move(bunker.id, "cube_supply")
                m.emit("bunker", "3.0", f"{c.title} destroys the bunker in {name(ctx['target'])}",
                       card=inst, position=ctx["target"])
        elif isinstance(eff, Reroll):
            mods["free" if eff.dice == "usmc" else "japanese_rerolls"] += eff.n
        elif isinstance(eff, CancelJapanese):
            mods["cancel"] += eff.count
    return mods


_AT_CHOICE: Frame = MappingProxyType({"at": "choice"})
"""A card's effect at its one decision (the regiment or the position it applies to)."""


def _raise(m: Match, c: UsmcCard, eff: RaiseCohesion, at: Path = NOWHERE) -> Flow:
    """4.0, 9.0 #3: a card raises the cohesion of one regiment, or of all on the board
    (its decision is its first step: entered again, it is asked again)."""
    if eff.target == "all_on_board":
        targets = [r for r in on_board(m) if cohesion(m, r) < 12]
    else:
        cands = [r for r in on_board(m) if cohesion(m, r) < 12]
        rid = yield from ask_str(at.mark(choose(
            USMC, f"{c.title}: raise which regiment's cohesion by {eff.amount}?", "4.0",
            [Option(r, label(r, m)) for r in cands], kind="card_regiment",
            context={"card": c.id}), _AT_CHOICE))
        targets = [rid]
    for rid in targets:
        coh.raise_(m, rid, eff.amount, "4.0", c.title)
        if is_exhausted(m, rid):
            coh.raised_exhausted(m, rid, "4.0", f"raised by {c.title}")


def _dig_in(m: Match, c: UsmcCard, at: Path = NOWHERE) -> Flow:
    """3.0: a USMC card places a bunker in a USMC-occupied island position of the player's
    (its decision is its first step: entered again, it is asked again)."""
    cands = bunker_targets(m)
    pos = yield from ask_str(at.mark(choose(
        USMC, f"{c.title}: place a bunker where?", "3.0",
        [Option(p, f"{name(p)} ({regiment_at(m, p)})") for p in cands],
        kind="card_position", context={"card": c.id}), _AT_CHOICE))
    assert is_island(pos)
    place_bunker(m, pos, "3.0", c.title)
