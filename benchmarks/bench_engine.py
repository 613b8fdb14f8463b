"""Engine cost per decision: a null game (pure engine overhead) and the example game.

Run: python benchmarks/bench_engine.py   (prints figures; never a timed test)
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from tabletop.core.engine.decisions import Decision, Option
from tabletop.core.engine.match import Flow, Game, GameInfo, Match, Result
from tabletop.core.engine.record import make_record, replay
from tabletop.core.engine.registry import load_game, make_agent

ROOT = Path(__file__).resolve().parents[1]


class NullGame(Game):
    """A game whose flow does nothing but ask: what is left is the engine's own cost."""

    info = GameInfo(id="null", title="Null", version="1", players=("A",))

    def __init__(self, decisions: int) -> None:
        self.n = decisions

    def setup(self, match: Match) -> None:
        """Nothing to set up."""

    def play(self, match: Match) -> Flow:
        """Ask the same two-option question n times."""
        decision = Decision("A", "left or right?", "1.0", (Option("left"), Option("right")))
        for _ in range(self.n):
            decision._keys = None  # a fresh decision each time, as a game would build one
            yield decision
        return Result(None, "done", "1.0")


def per_decision_null(n: int = 50_000, repeats: int = 5) -> list[float]:
    """Microseconds per decision of engine overhead (validate, record, log, resume the flow)."""
    out = []
    for _ in range(repeats):
        m = Match(NullGame(n), seed=1)
        t0 = time.perf_counter()
        for i in range(n):
            m.decide("left" if i % 2 else "right")
        out.append((time.perf_counter() - t0) / n * 1e6)
    return out


def example_game(seeds: range) -> tuple[float, float, int]:
    """Whole bot games of the example: ms per game, µs per decision, decisions in all."""
    game = load_game(str(ROOT / "docs" / "example" / "skirmish"))
    total = 0.0
    decisions = 0
    for seed in seeds:
        t0 = time.perf_counter()
        m = Match(game, seed=seed)
        m.run({s: make_agent(game, s, "pusher", seed) for s in game.info.players})
        total += time.perf_counter() - t0
        decisions += len(m.decisions)
    return total / len(seeds) * 1e3, total / decisions * 1e6, decisions


def replay_cost(seed: int = 1) -> float:
    """Milliseconds to replay and verify one example game from its record."""
    game = load_game(str(ROOT / "docs" / "example" / "skirmish"))
    m = Match(game, seed=seed)
    m.run({s: make_agent(game, s, "pusher", seed) for s in game.info.players})
    record = make_record(m)
    t0 = time.perf_counter()
    for _ in range(20):
        replay(game, record)
    return (time.perf_counter() - t0) / 20 * 1e3


def main() -> int:
    """Print the figures."""
    print(f"python {sys.version.split()[0]}")
    null = per_decision_null()
    print(f"engine overhead per decision (null game, 50k decisions x5): "
          f"median {statistics.median(null):.2f} µs, min {min(null):.2f} µs")
    ms, us, n = example_game(range(1, 51))
    print(f"example game, 50 bot games ({n} decisions): {ms:.1f} ms a game, {us:.1f} µs a decision "
          f"(engine + rules + bots)")
    print(f"replay and verify one example game: {replay_cost():.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
