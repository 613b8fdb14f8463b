"""Forks of Iwo Jima: Valor of Arms: every decision of the game (the opening's of III.4 and
XI.C, and every phase's of IV.A-F) is marked resumable, so ``Match.fork`` copies the state
and enters the flow again at the decision, and the fork goes on as the match does (the
core's conformance check, ``check_forks``: the same decision, state hash and log, and the
same hashes over the next decisions)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from tabletop.core.designer.testing import check_forks
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Decision
from tabletop.core.engine.match import Match
from tabletop.core.engine.position import Position
from tabletop.core.engine.registry import make_agent
from tabletop.games.iwo_valor import GAME
from tabletop.games.iwo_valor import common as c

SCENARIOS = (c.FULL, c.LOD, c.SANDS, c.NARROW, c.VERY_SHORT)


def resumed_everywhere(made: dict[str, int]) -> bool:
    """Every fork took the resume path: none started from a snapshot or from the start."""
    return made["resume"] > 0 and made["snapshot"] == 0 and made["replay"] == 0


def hold_forks(match: Match, answer: Callable[[Decision], JSON], limit: int = 250) -> Counter[str]:
    """``check_forks`` for a match it cannot make (game options, a position): fork at each of
    the first ``limit`` decisions (strict: a resume point that does not ask its decision again
    fails), hold the fork to the match (the same decision, state hash and log), then give both
    the same ``answer`` and hold the fork to the match again. Counts the forks by the way they
    were made and by the kind and section of the decision (``kind:`` keys)."""
    made: Counter[str] = Counter()
    while match.pending is not None and len(match.decisions) < limit:
        decision = match.pending
        twin = match.fork(strict=True)
        made[twin.forked_by.split()[0]] += 1
        made[f"kind:{decision.kind} {decision.section}"] += 1
        where = f"decision {len(match.decisions) + 1} ({decision.kind}, {decision.section})"
        assert twin.pending == decision, where
        assert twin.state_hash() == match.state_hash(), where
        logged = len(match.log)
        assert len(twin.log) == logged, where
        value = answer(decision)
        match.decide(value)
        twin.decide(value)
        assert twin.state_hash() == match.state_hash(), where
        assert [e.to_json() for e in list(twin.log)[logged:]] == \
            [e.to_json() for e in list(match.log)[logged:]], where
    return made


def bot_answers(match: Match) -> Callable[[Decision], JSON]:
    """The default bot's answers for ``match`` (each side's)."""
    sides = {side: make_agent(GAME, side, GAME.default_bot(side), match.seed) for side in GAME.info.players}
    return lambda decision: sides[decision.player].choose(match.view(decision.player), decision)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_fork_at_any_decision_continues_as_the_match(scenario: str) -> None:
    """The opening (III.4's beach and waves, XI.C's set-ups) and the first turns, played by the
    default bot: a fork at every decision resumes there and goes on as the match."""
    made = check_forks(GAME, [1], scenario=scenario, max_decisions=250)
    assert resumed_everywhere(made), made


def test_a_fork_resumes_where_random_play_leads_the_flow() -> None:
    """Random play ends moves in crowded hexes (V.M's removals at the end of the movement
    phase), lands where the bot never does and loses fast: its forks resume too."""
    made = check_forks(GAME, [1, 2], scenario=c.LOD, agents={c.US: "random"}, max_decisions=200)
    assert resumed_everywhere(made), made


def test_a_fork_resumes_at_the_decisions_the_options_add() -> None:
    """XI.C's borrowing of support points (``borrow_support=yes``: a decision each planning
    phase with no debt), regular fire within two hexes (IV.C.4's reading: a face-down unit
    fires, revealed first) and the Independent Regiment's beach (IV.A.3's reading)."""
    match = Match(GAME, seed=1, scenario=c.NARROW, options={
        "borrow_support": "yes", "regular_fire": "within_two", "ind_beach": "beach"})
    made = hold_forks(match, bot_answers(match), limit=220)
    assert made["kind:borrow XI.C"] >= 1, made
    assert made["snapshot"] == 0 and made["replay"] == 0 and made["resume"] > 0, made


def test_a_fork_resumes_at_the_armour_loss_of_an_ambush_IX_B_4() -> None:
    """IX.B.4: two tanks committed to the attacks on one hex (IV.D.4) support the first; it
    draws an ambush that costs the attacker a step, and the armour loss roll comes up: which
    tank loses the step is the player's choice, asked in the middle of the attacks' resolution
    (rare in play: the bots seldom commit two tanks to one hex). Its fork resumes there too."""
    marines = {"A/1/23/4": "0921", "A/4TK": "0921", "B/1/23/4": "0923", "C/4TK": "0923"}
    position = Position.build(
        GAME, scenario=c.FULL, start="marine_combat", turn=6, clear=(c.US, c.JAPAN),
        pieces={"109 Div HQ": {"at": "0922", "hidden": False},
                **{pid: {"at": at, "attrs": {"landed": 6}} for pid, at in marines.items()}},
        dice=[{"roll": "Marine attack", "faces": [1, 1]},  # 2 +2 armour: "A" (VIII.B)
              {"roll": "ambush attack", "faces": [6, 6]},  # strength 6 +1 armour: a step (IX.B.3)
              {"roll": "armour loss", "faces": [6]}])  # IX.B.4: a tank loses a step
    match = Match(GAME, position=position)
    attacks = [["A/1/23/4", "0922"], ["B/1/23/4", "0922"], DONE]

    def answer(decision: Decision) -> JSON:
        if decision.kind == "attack":
            return attacks.pop(0) if attacks else DONE
        return True if decision.kind == "armour" else decision.options[0].value

    made = hold_forks(match, answer, limit=6)  # three attack, two armour and the loss decisions
    assert made["kind:loss IX.B.4"] == 1, made
    assert made["snapshot"] == 0 and made["replay"] == 0 and made["resume"] == len(match.decisions), made


@pytest.mark.slow
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_fork_at_every_decision_of_a_whole_game_resumes(scenario: str) -> None:
    """Every other decision of a whole game by the default bot (the campaign's 35 turns and
    its withdrawals of IV.A.2 included) forks by the resume path (the quick tests fork at
    every decision of each scenario's first 250)."""
    made = check_forks(GAME, [3], scenario=scenario, every=2)
    assert resumed_everywhere(made), made
