"""7.0 Victory: when the game ends, the victory points, and the level of the result."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop.core.engine.match import Result

from .positions import (
    JAPAN,
    USMC,
    USMC_ELIMINATED,
    comps,
    control,
    is_exhausted,
    islands,
    on_board,
    usmc_controls_all,
)

if TYPE_CHECKING:
    from tabletop.core.engine.match import Match

JAPANESE_WIN = "Japanese Win"


def scores(m: Match) -> dict[str, Any]:
    """7.0 Victory Points: USMC 2 a controlled island position (+1 a Japanese card left
    once they control them all); Japanese 2 a USMC marker eliminated, 1 a regiment
    exhausted, 3 a Japanese-controlled island position."""
    c = comps()
    v = c.victory
    usmc_pos = [p for p in islands() if control(m, p) == USMC]
    japanese_pos = [p for p in islands() if control(m, p) == JAPAN]
    lost = m.state.pieces.count_at(USMC_ELIMINATED)
    exhausted = sum(1 for r in on_board(m) if is_exhausted(m, r))
    cards_left = len(m.state.decks["japanese"].pile("draw")) if usmc_controls_all(m) else 0
    usmc_vp = sum(c.positions[p].vp_usmc or 0 for p in usmc_pos) \
        + cards_left * v.usmc.per_japanese_card_left_after_full_control
    japanese_vp = sum(c.positions[p].vp_japanese or 0 for p in japanese_pos) \
        + lost * v.japanese.per_usmc_marker_eliminated \
        + exhausted * v.japanese.per_usmc_regiment_exhausted
    return {"usmc_vp": usmc_vp, "japanese_vp": japanese_vp, "margin": usmc_vp - japanese_vp,
            "usmc_positions": len(usmc_pos), "usmc_markers_lost": lost,
            "regiments_exhausted": exhausted, "japanese_cards_left": cards_left,
            "japanese_markers_left": sum(1 for p in m.state.pieces.select(kind="ija")
                                         if p.location in islands())}


def result(m: Match, reason: str) -> Result:
    """7.0 Victory Results: a Japanese tie or better is a Japanese win; otherwise the USMC
    margin gives Marginal (1-5), Moderate (6-9) or Smashing (10+)."""
    sc = scores(m)
    level = comps().victory.level(sc["margin"])
    if level is None:
        return Result(JAPAN, JAPANESE_WIN, "7.0", sc,
                      f"{reason}; Japanese {sc['japanese_vp']} VP vs USMC {sc['usmc_vp']} VP")
    return Result(USMC, level, "7.0", sc,
                  f"{reason}; USMC {sc['usmc_vp']} VP vs Japanese {sc['japanese_vp']} VP")
