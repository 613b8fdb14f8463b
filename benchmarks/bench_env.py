"""The cost of a step through PettingZoo, as a ratio to the engine's own step.

Run: python benchmarks/bench_env.py [--episodes N] [--steps N] [--only GAME ...]   (prints figures only)

For every playable registered game and the example: random episodes (seeds 1..N, each cut
at ``--steps`` decisions), played twice with the same random choices:

- the engine's own step: the random agent reads the side's view and answers
  (``match.decide(agent.choose(match.view(side), decision))``, what ``Match.run`` does);
- the PettingZoo step: ``env.last()`` (the observation of the side to move: board tensor,
  vector and mask from its view), a random legal index from the mask, ``env.step(index)``.

It prints the mean CPU time of a step of each in microseconds and their ratio. The goal: a
PettingZoo step costs at most 1.5 times the engine's own step.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game, registered
from tabletop.env import pettingzoo_env

EXAMPLE = str(Path(__file__).resolve().parents[1] / "docs" / "example" / "skirmish")
GOAL = 1.5


def engine_steps(game_name: str, seed: int, steps: int) -> tuple[float, int]:
    """CPU seconds of ``steps`` engine steps of a random episode, and the steps taken."""
    game = load_game(game_name)
    match = Match(game, seed=seed)
    rng = random.Random(seed)
    taken = 0
    start = time.process_time()
    while match.pending is not None and taken < steps:
        decision = match.pending
        view = match.view(decision.player)  # what Match.run hands its agent
        assert view["player"] == decision.player
        match.decide(decision.options[rng.randrange(len(decision.options))].value)
        taken += 1
    return time.process_time() - start, taken


def pettingzoo_steps(game_name: str, seed: int, steps: int) -> tuple[float, int]:
    """CPU seconds of ``steps`` PettingZoo steps of the same random episode."""
    env = pettingzoo_env(game_name)
    env.reset(seed=seed)
    rng = random.Random(seed)
    taken = 0
    start = time.process_time()
    while taken < steps:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        taken += 1
    return time.process_time() - start, taken


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--only", nargs="*", default=None,
                        help="only these games (ids, or 'skirmish' for the example)")
    args = parser.parse_args(argv)
    games = [EXAMPLE if n == "skirmish" else n for n in args.only or ()] or \
        [*sorted(n for n in registered() if load_game(n).info.playable), EXAMPLE]
    worst = 0.0
    print(f"{'game':<12} {'steps':>6} {'engine us':>10} {'pettingzoo us':>14} {'ratio':>6}")
    for name in games:
        pettingzoo_steps(name, 0, args.steps)  # warm up: the game's own first imports and tables
        engine_steps(name, 0, args.steps)
        engine = zoo = 0.0
        count = 0
        for seed in range(1, args.episodes + 1):
            zoo_time, taken = pettingzoo_steps(name, seed, args.steps)
            engine_time, same = engine_steps(name, seed, args.steps)
            if taken != same:
                print(f"{name}: the two episodes differ ({taken} and {same} steps)", file=sys.stderr)
                return 1
            engine, zoo, count = engine + engine_time, zoo + zoo_time, count + taken
        ratio = zoo / engine
        worst = max(worst, ratio)
        print(f"{load_game(name).info.id:<12} {count:>6} {engine / count * 1e6:>10.0f} "
              f"{zoo / count * 1e6:>14.0f} {ratio:>6.2f}")
    print(f"worst ratio {worst:.2f} (goal: at most {GOAL})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
