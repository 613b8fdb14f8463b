"""A search's determinization of Bonins: what the US cannot see is dealt again, and the rules
then act on what was dealt (9.1: the attack on a hidden hex resolves against the unit dealt
to it), never on the unit truly there."""

from __future__ import annotations

import random

from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game, make_agent
from tabletop.games.iwo_bonins import common as c

GAME = load_game("iwo_bonins")


def _at_the_markers_question() -> Match:
    """Seed 1 with the default bots, at the US question of how many bombardment markers to
    put on the attack on 1410 (decision 312), its Japanese defender still face-down."""
    match = Match(GAME, seed=1)
    agents = {side: make_agent(GAME, side, GAME.default_bot(side), 1) for side in GAME.info.players}
    while len(match.decisions) < 311:
        decision = match.pending
        assert decision is not None
        match.decide(agents[decision.player].choose(match.view(decision.player), decision))
    assert match.pending is not None and match.pending.prompt.startswith("Bombard 1410")
    return match


def test_9_1_a_determinized_attack_resolves_against_the_unit_dealt_to_the_hex() -> None:
    match = _at_the_markers_question()
    truth = c.units_at(match, "1410", c.JAPAN)[0].id
    dealt = set()
    for k in range(6):
        twin = GAME.determinize(match, "US", random.Random(k))
        defender = c.units_at(twin, "1410", c.JAPAN)[0].id
        dealt.add(defender)
        start = len(twin.log)
        twin.decide(0)  # no markers: the attack resolves (9.1 b-c reveals the defender)
        revealed = [e.data["unit"] for e in twin.log.since(start) if e.kind == "reveal"]
        assert revealed[:1] == [defender], (k, defender, revealed)
    assert dealt - {truth}, "the determinizations never dealt another unit to 1410"


def test_9_1_the_defender_shown_stays_itself_in_a_determinization() -> None:
    """Once the defender was shown (9.1 b-c) and the attack is being resolved, the US
    remembers it: a determinization keeps it where it was shown."""
    match = _at_the_markers_question()
    match.decide(0)
    pending = match.pending
    assert pending is not None and pending.resume is not None
    shown = pending.resume.args["defender"]
    for k in range(6):
        twin = GAME.determinize(match, "US", random.Random(k))
        assert twin.state.pieces[shown].location == match.state.pieces[shown].location
        assert twin.pending is not None and twin.pending.prompt == pending.prompt
