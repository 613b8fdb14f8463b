"""The cost of a step through PettingZoo, as a ratio to the engine's own step.

Run: python benchmarks/bench_env.py [--episodes N] [--steps N] [--rounds N] [--only GAME ...]
(prints figures only)

For every playable registered game and the example: random episodes (seeds 1..N, each cut
at ``--steps`` decisions), played twice with the same random choices:

- the engine's own step: the random agent reads the side's view and answers
  (``match.decide(agent.choose(match.view(side), decision))``, what ``Match.run`` does);
- the PettingZoo step: ``env.last()`` (the observation of the side to move: board tensor,
  vector and mask, what its view shows), a random legal index from the mask, ``env.step(index)``.

It prints the mean CPU time of a step of each in microseconds and their ratio. The goal: a
PettingZoo step costs at most 1.5 times the engine's own step.

Both sides are timed alike. Each episode is set up (the match, or the environment and its
reset) outside the clock and timed ``--rounds`` times, each time after a garbage collection
that sets aside what the process already holds (``gc.collect`` then ``gc.freeze``, undone
after): a full collection's cost depends on everything the process keeps (the games loaded,
the episodes played before), and which side met one would otherwise be chance. The least
time of each side's rounds is kept (the usual estimate under other load on the machine).
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game, registered
from tabletop.env import pettingzoo_env

EXAMPLE = str(Path(__file__).resolve().parents[1] / "docs" / "example" / "skirmish")
GOAL = 1.5

Episode = Callable[[], int]
"""A random episode set up and ready: playing it returns the steps taken."""


def engine_episode(game_name: str, seed: int, steps: int) -> Episode:
    """A random episode of ``steps`` engine steps, set up."""
    match = Match(load_game(game_name), seed=seed)
    rng = random.Random(seed)

    def play() -> int:
        taken = 0
        while match.pending is not None and taken < steps:
            decision = match.pending
            view = match.view(decision.player)  # what Match.run hands its agent
            assert view["player"] == decision.player
            match.decide(decision.options[rng.randrange(len(decision.options))].value)
            taken += 1
        return taken

    return play


def pettingzoo_episode(game_name: str, seed: int, steps: int) -> Episode:
    """The same random episode of ``steps`` PettingZoo steps, set up (the environment
    made and reset)."""
    env = pettingzoo_env(game_name)
    env.reset(seed=seed)
    rng = random.Random(seed)

    def play() -> int:
        taken = 0
        while taken < steps:
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                break
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            taken += 1
        return taken

    return play


def timed(episode: Episode) -> tuple[float, int]:
    """CPU seconds of playing a set-up episode, and the steps it took (see the module on
    the garbage collection before)."""
    gc.collect()
    gc.freeze()
    try:
        start = time.process_time()
        taken = episode()
        return time.process_time() - start, taken
    finally:
        gc.unfreeze()


def engine_steps(game_name: str, seed: int, steps: int) -> tuple[float, int]:
    """CPU seconds of ``steps`` engine steps of a random episode, and the steps taken."""
    return timed(engine_episode(game_name, seed, steps))


def pettingzoo_steps(game_name: str, seed: int, steps: int) -> tuple[float, int]:
    """CPU seconds of ``steps`` PettingZoo steps of the same random episode."""
    return timed(pettingzoo_episode(game_name, seed, steps))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3,
                        help="times each episode is timed on each side (the least kept)")
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
            zoo_best = engine_best = float("inf")
            for _ in range(args.rounds):
                zoo_time, taken = pettingzoo_steps(name, seed, args.steps)
                engine_time, same = engine_steps(name, seed, args.steps)
                if taken != same:
                    print(f"{name}: the two episodes differ ({taken} and {same} steps)", file=sys.stderr)
                    return 1
                zoo_best, engine_best = min(zoo_best, zoo_time), min(engine_best, engine_time)
            engine, zoo, count = engine + engine_best, zoo + zoo_best, count + taken
        ratio = zoo / engine
        worst = max(worst, ratio)
        print(f"{load_game(name).info.id:<12} {count:>6} {engine / count * 1e6:>10.0f} "
              f"{zoo / count * 1e6:>14.0f} {ratio:>6.2f}", flush=True)
    print(f"worst ratio {worst:.2f} (goal: at most {GOAL})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
