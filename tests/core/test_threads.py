"""Matches played in different threads share nothing: the web server plays its rooms in a
thread pool, so the same seeds give the same games one after another or eight at a time.

Each game's seeds are played with its default bots once in this thread, then all of them
again in eight threads told to switch every microsecond (``sys.setswitchinterval``), so that
the threads interleave inside the rules. A game whose rules kept what they derive from the
pieces in a module (one cache for every match) ends with other hashes, or breaks, here.
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tabletop.core.engine.match import Game, Match
from tabletop.core.engine.registry import load_game, make_agent

ROOT = Path(__file__).resolve().parents[2]
THREADS = 8

# (game, seeds, decisions a game at most; None: to the end)
CASES = [
    pytest.param("iwo_1945", range(16), None, id="iwo_1945"),
    pytest.param(str(ROOT / "docs" / "example" / "skirmish"), range(16), None, id="skirmish"),
    pytest.param("iwo_bonins", range(6), None, id="iwo_bonins"),
    pytest.param("manila45", range(4), None, id="manila45"),
    pytest.param("iwo_valor", range(2), 600, id="iwo_valor-opening"),
    pytest.param("iwo_valor", range(4), None, id="iwo_valor", marks=pytest.mark.slow),
]


def _play(game: Game, seed: int, cap: int | None) -> tuple[str, int]:
    """The final state hash and the number of decisions of one game with the default bots."""
    agents = {side: make_agent(game, side, game.default_bot(side), seed) for side in game.info.players}
    match = Match(game, seed=seed)
    match.run(agents, max_decisions=cap)
    return match.state_hash(), len(match.decisions)


@pytest.mark.parametrize(("name", "seeds", "cap"), CASES)
def test_same_seeds_give_the_same_games_in_eight_threads(name: str, seeds: range,
                                                         cap: int | None) -> None:
    """The final hash of every seed is the same played alone and played in eight threads
    interleaving every microsecond."""
    game = load_game(name)
    alone = [_play(game, seed, cap) for seed in seeds]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with ThreadPoolExecutor(max_workers=THREADS) as pool:
            together = list(pool.map(lambda seed: _play(game, seed, cap), seeds))
    finally:
        sys.setswitchinterval(interval)
    assert together == alone
