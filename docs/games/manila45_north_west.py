"""4.3 sudden death when the Japanese set-up neglects the north-west (docs/games/manila45.md).

Run: python docs/games/manila45_north_west.py FIRST_SEED GAMES KEEP

Each game takes the Japanese bot's set-up, keeps only KEEP mobile units north of the Pasig and
west of the San Juan (the rest of them moved to the nearest legal set-up hex outside it, 3.2
and 6.3 kept), passes it as the ``setup`` option and plays heuristic against heuristic.
Prints the count of (winner, section, last turn).
"""

from __future__ import annotations

import sys
from collections import Counter

from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import make_agent
from tabletop.games.manila45 import GAME
from tabletop.games.manila45 import common as c
from tabletop.games.manila45.bots import heuristic_setup
from tabletop.games.manila45.components import components
from tabletop.games.manila45.setup import setup_hexes


def thin_setup(seed: int, keep: int) -> dict[str, str]:
    """The bot's set-up with all but ``keep`` mobile units moved out of the north-west."""
    setup = dict(heuristic_setup(Match(GAME, seed=seed), seed))
    count = Counter(setup.values())
    counters = components().counters
    static_at = {h for u, h in setup.items() if counters[u].org == "static"}
    probe = Match(GAME, seed=seed)
    kept = 0
    for uid, where in sorted(setup.items()):
        if not c.is_north_west(where):
            continue
        static = counters[uid].org == "static"
        if kept < keep and not static:
            kept += 1
            continue
        spots = sorted((h for h in setup_hexes(probe, probe.state.pieces[uid])
                        if not c.is_north_west(h) and count[h] < 2
                        and not (static and h in static_at)),
                       key=lambda h: (c.distance(where, h), h))
        count[where] -= 1
        setup[uid] = spots[0]
        count[spots[0]] += 1
        if static:
            static_at.discard(where)
            static_at.add(spots[0])
    return setup


def main(argv: list[str]) -> int:
    """Play the games and print the outcomes."""
    first, games, keep = (int(a) for a in argv[:3])
    out: Counter[tuple[str, str, int]] = Counter()
    for seed in range(first, first + games):
        agents = {s: make_agent(GAME, s, "heuristic", seed) for s in GAME.info.players}
        match = Match(GAME, seed=seed, options={"setup": thin_setup(seed, keep)})
        result = match.run(agents)
        assert result is not None
        out[(result.winner, result.section, match.state.turn)] += 1
    for key, n in sorted(out.items()):
        print(n, *key)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
