"""A scenario's automatic sides (ScenarioInfo.automatic) are played by the rules: the home
page gives them no seat, so they must never be asked a decision."""

from __future__ import annotations

import pytest

from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game, make_agent

SCENARIOS = [(gid, s.id) for gid in ("iwo_bonins", "iwo_1945", "iwo_valor", "manila45")
             for s in load_game(gid).info.scenarios if s.automatic]


def test_the_solitaire_opponents_are_declared_automatic() -> None:
    """Solitaire Bonins (1.0, 13.0-17.0), Iwo Jima 1945 (8.0) and every Valor of Arms
    scenario have the Japanese played by the rules; two-player Bonins (18.0) and Manila '45
    do not."""
    assert ("iwo_bonins", "solitaire") in SCENARIOS and ("iwo_bonins", "two_player") not in SCENARIOS
    assert ("iwo_1945", "standard") in SCENARIOS
    valor = {s.id for s in load_game("iwo_valor").info.scenarios}
    assert {s for g, s in SCENARIOS if g == "iwo_valor"} == valor
    assert not any(g == "manila45" for g, _ in SCENARIOS)


@pytest.mark.parametrize("game_id, scenario", SCENARIOS)
def test_an_automatic_side_is_never_asked_a_decision(game_id: str, scenario: str) -> None:
    """Random games of each scenario with automatic sides (capped at 1,500 decisions): every
    decision goes to a side a person may play."""
    game = load_game(game_id)
    automatic = set(game.info.scenario(scenario).automatic)
    for seed in range(2):
        match = Match(game, seed=seed, scenario=scenario)
        agents = {s: make_agent(game, s, "random", seed) for s in game.info.players}
        for _ in range(1500):
            decision = match.pending
            if decision is None:
                break
            assert decision.player not in automatic, (seed, decision.prompt)
            match.decide(agents[decision.player].choose(match.view(decision.player), decision))
