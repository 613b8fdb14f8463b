"""Where a whole auto game's time goes, by profile: the split a decision and the top functions.

Run: python benchmarks/profile_games.py [--only GAME ...] [--seeds N ...] [--top K]   (prints figures only)

Plays whole games with the default bots exactly as ``bench_ratio.py`` does (``Match.run``
with ``make_agent(game, side, game.default_bot(side), seed)``), first unprofiled for the CPU
microseconds a decision and the ratio to OpenSpiel's Python tic-tac-toe moves, then under
cProfile. From the profile it prints:

* the time a decision in the rules' flow (everything ``Match.run`` does outside the
  agents) and in the bots' ``choose`` (a second profiler runs while an agent chooses);
* in each, every function's own time put in one of five groups by its file and name
  (:func:`own_group`): rules (the flow), bots, views and board reading, option and text
  building, dice/log/events (the time of builtins and of the standard library goes to the
  group of the project function that called them);
* the top functions by own time, with their share and call counts (call counts do not
  depend on the machine's load), the files with the most own time, and the project
  functions with the most inclusive time.

Shares are of the profiled time; the µs split scales them to the unprofiled µs a decision.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_ratio import GOALS, openspiel_per_move, openspiel_tictactoe

from tabletop.core.engine.agents import Agent
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import Decision
from tabletop.core.engine.match import Game, Match
from tabletop.core.engine.registry import load_game, make_agent

GAMES = ("iwo_bonins", "iwo_1945", "manila45", "iwo_valor")
GROUPS = ("rules", "bots", "views/board", "options/text", "dice/log/events")
Func = tuple[str, int, str]

TEXT_WORDS = ("label", "option", "text", "describe", "ordinal", "__str__", "name", "info",
              "format", "title", "words", "spell")
DICE_FILES = ("/engine/dice.py", "/engine/events.py", "/engine/record.py", "/random.py")
DICE_NAMES = ("emit", "reveal", "_on_roll", "heard", "log", "roll")
VIEW_FILES = ("/engine/views.py", "/engine/boardreader.py", "/engine/visibility.py", "/board/")
VIEW_NAMES = ("view", "stack_view", "box_cards", "map_marks")


def own_group(func: Func) -> str | None:
    """The group of a project function by its file and name, or None outside the project."""
    path, _, name = func
    path = path.replace("\\", "/")
    if any(path.endswith(f) for f in DICE_FILES):
        return "dice/log/events"
    if "/tabletop/" not in path and "/core/" not in path and "/games/" not in path:
        return None
    if name in DICE_NAMES:
        return "dice/log/events"
    if path.endswith("/engine/decisions.py") or path.endswith("/engine/text.py"):
        return "options/text"
    if any(w in name.lower() for w in TEXT_WORDS):
        return "options/text"
    if any(f in path for f in VIEW_FILES) or name in VIEW_NAMES or name.endswith("_view"):
        return "views/board"
    if "/bots" in path or path.endswith("/engine/agents.py") or path.endswith("/engine/odds.py"):
        return "bots"
    return "rules"


def groups_of(stats: dict[Func, Any]) -> dict[str, float]:
    """Own time a group, builtins and the standard library charged to their callers' groups."""
    memo: dict[Func, dict[str, float]] = {}

    def shares(func: Func, seen: frozenset[Func]) -> dict[str, float]:
        """The fractions of a function's time by group (its own, or its callers')."""
        if func in memo:
            return memo[func]
        group = own_group(func)
        if group is not None:
            out = {group: 1.0}
        else:
            callers = stats[func][4]
            total = sum(edge[2] for edge in callers.values()) or 1.0
            out = defaultdict(float)
            for caller, edge in callers.items():
                if caller in seen or caller not in stats:
                    out["rules"] += edge[2] / total
                    continue
                for g, share in shares(caller, seen | {func}).items():
                    out[g] += share * edge[2] / total
            out = dict(out) or {"rules": 1.0}
        memo[func] = out
        return out

    totals = dict.fromkeys(GROUPS, 0.0)
    for func, (_, _, tt, _, _) in stats.items():
        for g, share in shares(func, frozenset({func})).items():
            totals[g] += tt * share
    return totals


class Switched:
    """An agent whose ``choose`` runs under a second profiler: the bots' time kept apart."""

    def __init__(self, agent: Agent, flow: cProfile.Profile, bots: cProfile.Profile) -> None:
        self.agent, self.flow, self.bots = agent, flow, bots
        self.name = agent.name

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """The agent's answer, profiled by ``bots`` while ``flow`` rests."""
        self.flow.disable()
        self.bots.enable()
        try:
            return self.agent.choose(view, decision)
        finally:
            self.bots.disable()
            self.flow.enable()


def play(game: Game, seed: int, profiles: tuple[cProfile.Profile, cProfile.Profile] | None = None) -> int:
    """One whole default-bot game as bench_ratio plays it; its number of decisions."""
    agents = {s: make_agent(game, s, game.default_bot(s), seed) for s in game.info.players}
    if profiles is None:
        match = Match(game, seed=seed)
        match.run(agents)
        return len(match.decisions)
    flow, bots = profiles
    switched = {s: Switched(a, flow, bots) for s, a in agents.items()}
    flow.enable()
    match = Match(game, seed=seed)
    match.run(switched)
    flow.disable()
    return len(match.decisions)


def short(func: Func) -> str:
    """A function as file:line(name), the path from the package on."""
    path, line, name = func
    path = path.replace("\\", "/")
    for root in ("/games/", "/core/"):
        if root in path:
            path = root.strip("/") + "/" + path.split(root, 1)[1]
            break
    else:
        path = path.rsplit("/", 1)[-1]
    return f"{path}:{line}({name})"


def main(argv: list[str] | None = None) -> int:
    """Profile each game and print its split and top functions."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--only", nargs="+", default=list(GAMES), choices=GAMES, metavar="GAME",
                        help=f"games to profile (default: all of {', '.join(GAMES)})")
    parser.add_argument("--seeds", nargs="+", type=int, default=[1], metavar="N",
                        help="seeds of the games played (default 1)")
    parser.add_argument("--top", type=int, default=10, help="functions listed (default 10)")
    parser.add_argument("--playouts", type=int, default=4000,
                        help="tic-tac-toe playouts a yardstick (default 4000)")
    args = parser.parse_args(argv)
    if args.top < 1 or args.playouts < 1:
        parser.error("--top and --playouts must be at least 1")
    spiel = openspiel_tictactoe(None)
    for name in args.only:
        game = load_game(name)
        play(game, 0)
        yard = openspiel_per_move(spiel, args.playouts) if spiel is not None else None
        t0 = time.process_time()
        decisions = sum(play(game, seed) for seed in args.seeds)
        us = (time.process_time() - t0) / decisions * 1e6
        if spiel is not None and yard is not None:
            yard = (yard + openspiel_per_move(spiel, args.playouts)) / 2
        flow, bots = cProfile.Profile(), cProfile.Profile()
        for seed in args.seeds:
            play(game, seed, (flow, bots))
        parts: dict[str, dict[Func, Any]] = {
            "flow": pstats.Stats(flow).stats,  # type: ignore[attr-defined]
            "choose": pstats.Stats(bots).stats,  # type: ignore[attr-defined]
        }
        stats: dict[Func, Any] = pstats.Stats(flow).add(bots).stats  # type: ignore[attr-defined]
        total = sum(entry[2] for entry in stats.values())
        ratio = f", {us / yard:.2f} moves (yardstick {yard:.1f} µs; goal ≤ {GOALS[name]:g})" \
            if yard else ""
        print(f"\n== {name}: seeds {args.seeds}, {decisions // len(args.seeds)} decisions a game, "
              f"{us:.0f} µs a decision{ratio}; profiled {total / decisions * 1e6:.0f} µs")
        for part, part_stats in parts.items():
            groups = groups_of(part_stats)
            share = sum(groups.values()) / total
            print(f"{part:>6} {share * us:4.0f} µs ({share:.0%}): " + ", ".join(
                f"{g} {v / total * us:.0f}" for g, v in groups.items()))
        top = sorted(stats.items(), key=lambda item: item[1][2], reverse=True)[:args.top]
        print(f"{'own %':>6} {'cum %':>6} {'calls/dec':>9}  function")
        for func, (_, nc, tt, ct, _) in top:
            print(f"{tt / total:6.1%} {ct / total:6.1%} {nc / decisions:9.1f}  {short(func)}")
        by_file: dict[tuple[str, str], float] = defaultdict(float)
        for part, part_stats in parts.items():
            for func, entry in part_stats.items():
                if own_group(func) is not None:
                    by_file[(part, short(func).split(":")[0])] += entry[2]
        print("own time by file: " + ", ".join(
            f"{part} {path} {tt / total:.0%}" for (part, path), tt in
            sorted(by_file.items(), key=lambda item: item[1], reverse=True)[:args.top]))
        inclusive = sorted(((entry[3], func) for func, entry in stats.items()
                            if own_group(func) is not None
                            and func[2] not in ("run", "decide", "decide_index", "choose", "_advance")),
                           reverse=True)[:args.top]
        print("inclusive: " + ", ".join(f"{short(func)} {ct / total:.0%}" for ct, func in inclusive))
        calls_total = sum(entry[1] for entry in stats.values())
        print(f"function calls a decision: {calls_total / decisions:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
