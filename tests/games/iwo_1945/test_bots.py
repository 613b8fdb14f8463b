"""The heuristic USMC bot's choices in set positions: it must pick legal, sensible actions
of 6.0 (Move, Regroup, Attack) from the USMC view alone."""

from __future__ import annotations

from tabletop.core.engine.decisions import DONE, Decision, choose
from tabletop.core.engine.match import Match
from tabletop.games.iwo_1945 import positions as P
from tabletop.games.iwo_1945.bots import HeuristicBot, reroll_plan

from .helpers import empty_board, new_match, put_japanese, put_regiment


def _last_stand(m: Match) -> None:
    """Only The Gorge still Japanese (3 markers); every other island position USMC-held."""
    empty_board(m)
    for pos in P.islands():
        if pos != "the_gorge":
            m.state.vars["held"][pos] = P.USMC
            m.state.vars["control"][pos] = P.USMC
    put_japanese(m, "the_gorge", 3)


def _menu(*values: str) -> Decision:
    return choose(P.USMC, "USMC turn: your action?", "6.0", list(values), kind="usmc_turn")


def test_6_0_bot_moves_a_fresh_regiment_towards_the_fighting() -> None:
    """6.0 Move: with no regiment fit to attack, the bot brings a fresh one an arrow nearer
    the last Japanese position instead of passing its action."""
    m = new_match(seed=3)
    _last_stand(m)
    put_regiment(m, "4/23", "airfield_3", cohesion=3)  # next to The Gorge, too worn to attack
    put_regiment(m, "5/26", "mt_suribachi", cohesion=12)  # four arrows away
    bot = HeuristicBot(seed=1)
    assert bot.choose(m.view(P.USMC), _menu("move", "regroup", DONE)) == "move"
    assert bot.plan == {"kind": "move", "regiment": "5/26", "dest": "the_neck"}


def test_6_0_bot_attacks_with_a_fresh_regiment_in_reach() -> None:
    """6.0 Attack: a fresh regiment next to the Japanese attacks rather than moving up."""
    m = new_match(seed=3)
    _last_stand(m)
    put_regiment(m, "4/23", "airfield_3", cohesion=11)
    put_regiment(m, "5/26", "mt_suribachi", cohesion=12)
    bot = HeuristicBot(seed=1)
    assert bot.choose(m.view(P.USMC), _menu("attack", "move", "regroup", DONE)) == "attack"
    assert bot.plan == {"kind": "attack", "regiment": "4/23", "target": "the_gorge"}


def test_6_0_bot_regroups_rather_than_wasting_its_action() -> None:
    """6.0 Regroup: when nothing can attack or usefully move, the bot regroups the regiment
    nearest the fighting (a regroup banks 3 cohesion) instead of ending the turn idle."""
    m = new_match(seed=3)
    _last_stand(m)
    put_regiment(m, "5/26", "the_neck", cohesion=6)  # fit neither to attack nor to move up
    put_regiment(m, "4/23", "mt_suribachi", cohesion=9)  # behind it, no vacant way forward
    bot = HeuristicBot(seed=1)
    assert bot.choose(m.view(P.USMC), _menu("move", "regroup", DONE)) == "regroup"
    assert bot.plan == {"kind": "regroup", "regiment": "5/26"}


def test_6_0_bot_rerolls_a_pair_of_ones_and_keeps_a_winning_pair() -> None:
    """6.0 attack dice: double 1s would cost a marker, so the bot rerolls them; a pair of 6s
    that takes the last Japanese marker is kept."""
    # counts of 1, 2, 5, 6: two 1s and a 6 against two defenders, cohesion cheap
    plan = reroll_plan((2, 0, 0, 1), need=2, lam=0.15)
    assert plan is not None and plan[0] == 2
    assert reroll_plan((0, 0, 0, 2), need=1, lam=0.15) is None


def test_settled_dice_outcomes_are_every_composition_in_order() -> None:
    """6.0 (the bot's dice plan): k settled dice as counts of 1, 2, 4, 5, 6 are exactly the
    5-tuples adding up to k, in the order a filtered product gives them, with chances adding
    up to one."""
    import itertools

    from tabletop.games.iwo_1945.bots import _outcomes

    for k in range(0, 11):
        comps = [c for c in itertools.product(range(k + 1), repeat=5) if sum(c) == k]
        got = _outcomes(k)
        assert [c for c, _ in got] == comps
        assert abs(sum(p for _, p in got) - 1) < 1e-9


def test_the_bots_board_kept_between_decisions_equals_a_fresh_read() -> None:
    """Bots (speed): the heuristic bot's board index, updated only where the view says the
    board changed, reads after every decision of a random game what a fresh index reads and
    what a plain mapping of the view's entries gives."""
    import random

    from tabletop.games.iwo_1945.bots import BoardIndex

    rng = random.Random(2)
    match = new_match(seed=2)
    kept = BoardIndex()
    for _ in range(400):
        if match.pending is None:
            break
        view = match.view("USMC")
        fresh, plain = BoardIndex().read(view).state(), BoardIndex().read(dict(view)).state()
        assert kept.read(view).state() == fresh == plain
        match.decide_index(rng.randrange(len(match.pending.options)))
