"""The heuristic Marine bot's reading of the rules it plays by."""

from __future__ import annotations

from typing import Any

from tabletop.games.iwo_valor import common as c
from tabletop.games.iwo_valor.bots import SURGE, HeuristicMarines

JP_HEX = "1025"


def _company(unit: str, hex_id: str) -> dict[str, Any]:
    _, battalion, regiment, division = unit.split("/")
    return {"id": unit, "location": hex_id, "side": c.US, "kind": "infantry", "face": "front",
            "attrs": {"regiment": regiment, "battalion": battalion, "division": division}}


def _view(fatigue: int) -> dict[str, Any]:
    """Three companies of 1/23 and two of 2/23 next to one Japanese unit."""
    around = c.neighbours(JP_HEX)
    units = ("A/1/23/4", "B/1/23/4", "C/1/23/4", "E/2/23/4", "F/2/23/4")
    pieces = [{"id": "jp", "location": JP_HEX, "side": c.JAPAN, "kind": "unit", "attrs": {}},
              *(_company(u, h) for u, h in zip(units, around, strict=False))]
    return {"pieces": pieces, "tracks": {"fatigue:23": fatigue}, "turn": 8, "vars": {}}


def test_IV_D_a_tired_regiment_keeps_only_its_lead_battalion_in_contact() -> None:
    """IV.D.1-2: two battalions of a regiment next to the enemy raise its Fatigue each turn;
    from Fatigue SURGE on, the bot keeps only the battalion with most companies in contact
    there (each battalion used to count itself the one in contact, and both stayed)."""
    bot = HeuristicMarines()
    view = _view(SURGE)
    jp = bot._jp_hexes(view)
    assert bot._may_engage(view, jp, "A/1/23/4")
    assert bot._may_engage(view, jp, "C/1/23/4")
    assert not bot._may_engage(view, jp, "E/2/23/4")
    assert not bot._may_engage(view, jp, "F/2/23/4")


def test_IV_D_a_fresh_regiment_may_commit_a_second_battalion() -> None:
    """IV.D.1-3: below Fatigue SURGE both battalions may stay in contact."""
    bot = HeuristicMarines()
    view = _view(SURGE - 1)
    jp = bot._jp_hexes(view)
    assert bot._may_engage(view, jp, "A/1/23/4") and bot._may_engage(view, jp, "E/2/23/4")


def test_IV_G_the_units_that_score_stay_open_to_companies() -> None:
    """IV.G.1-2: a unit in or south of the First Line scores every turn, one between the
    lines from turn 7 (the bot closes from turn 6); north of the Second Line it does not."""
    comp = c.components()
    by_belt = {belt: sorted(comp.hexes_where("belt", belt))[0] for belt in (1, 2, 3)}
    assert HeuristicMarines._scores(by_belt[1], 2)
    assert not HeuristicMarines._scores(by_belt[2], 5) and HeuristicMarines._scores(by_belt[2], 6)
    assert not HeuristicMarines._scores(by_belt[3], 14)
