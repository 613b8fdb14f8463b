"""The cost of a fork, an undo and a resume, as ratios to OpenSpiel-Python tic-tac-toe moves.

Run: python benchmarks/bench_fork.py [--games N] [--only GAME ...] [--openspiel PATH]   (prints figures only)

For every playable registered game and the example: whole games played by the default bots
(seeds 1..N), a :meth:`Match.fork` timed at every decision (CPU time of this process), and
the median and 95th percentile of those times in microseconds and in tic-tac-toe moves (the
yardstick of ``bench_ratio.py``, measured before and after each game's figures), with how
the forks were made (``resume``: a copy of the state, the flow entered again; ``snapshot``:
from the last snapshot, the decisions since replayed; ``replay``: from the start). Goals: a
fork at most 50 moves for iwo_1945 and iwo_bonins, 150 for iwo_valor and manila45. Each fork
is timed as the search agents fork: with the objects alive before it moved out of the
collector's way (``gc.freeze``), so that a full collection walking the whole match (its log,
its map) is not charged to whichever fork happens to set it off; ``--no-freeze`` times them
without.

Then, at the end of a Valor of Arms campaign (seed 3, the default bots): an undo of the last
decision (a match allowing free undo, so the undo is not stopped by the last roll), a resume
of the saved game as ``tabletop resume`` and the web server's restart do (read the save,
rebuild the match from its restore point and check it against the hashes it states), each
under 50 ms as the goal; then a resume verified by replaying the whole record (``tabletop
resume --verify``), and a save after one more decision (the log file appended to), for
comparison. Wall-clock and CPU time of this process.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tabletop.core.engine.match import Game, Match
from tabletop.core.engine.record import read_record, replay, write_save
from tabletop.core.engine.registry import load_game, make_agent
from tabletop.core.engine.resume import resume

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ratio import openspiel_per_move, openspiel_tictactoe, playable_games

GOALS = {"iwo_bonins": 50, "iwo_1945": 50, "iwo_valor": 150, "manila45": 150}
"""The most tic-tac-toe moves a fork may cost, median and 95th percentile."""


def fork_times(game: Game, seeds: range, scenario: str | None = None, *,
               freeze: bool = True) -> tuple[list[float], dict[str, int]]:
    """(µs of a fork at every decision of whole default-bot games, how the forks were made)."""
    times: list[float] = []
    ways: dict[str, int] = {"resume": 0, "snapshot": 0, "replay": 0}
    clock = time.process_time
    for seed in seeds:
        match = Match(game, seed=seed, scenario=scenario)
        agents = {s: make_agent(game, s, game.default_bot(s), seed) for s in game.info.players}
        while match.pending is not None:
            if freeze:
                gc.freeze()  # as a search forks: the objects alive before it frozen (see the docs)
            t0 = clock()
            twin = match.fork()
            times.append((clock() - t0) * 1e6)
            if freeze:
                gc.unfreeze()
            ways[twin.forked_by.split()[0]] += 1
            decision = match.pending
            match.decide(agents[decision.player].choose(match.view(decision.player), decision))
    return times, ways


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def campaign_end(runs: int) -> dict[str, float]:
    """Figures at the end of a Valor of Arms campaign, each the median of ``runs`` (the
    verified replay: one run), in ms: ``undo``, ``resume`` (from the restore point) and
    ``resume_cpu``, ``verify`` (a resume by verified replay), ``save`` and ``save_cpu`` (a save
    after one more decision), and ``decisions``."""
    game = load_game("iwo_valor")
    match = Match(game, seed=3, scenario="campaign", free_undo=True)
    match.run({s: make_agent(game, s, game.default_bot(s), 3) for s in game.info.players},
              max_decisions=None)
    if match.finished:  # undo the last decision of a finished game: play to one before
        answers = match.decisions
        match = Match(game, seed=3, scenario="campaign", free_undo=True)
        for value in answers[:-1]:
            match.decide(value)
    undos, resumes, cpu, saves, saves_cpu = [], [], [], [], []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "save.json"
        write_save(match, path)
        for _ in range(runs):
            probe = match.fork()
            last = probe.pending
            assert last is not None
            probe.decide(last.options[0].value)
            t0 = time.perf_counter()
            probe.undo(1)
            undos.append((time.perf_counter() - t0) * 1e3)
            t0, c0 = time.perf_counter(), time.process_time()
            again, how = resume(game, read_record(path), path)  # as `tabletop resume` does
            resumes.append((time.perf_counter() - t0) * 1e3)
            cpu.append((time.process_time() - c0) * 1e3)
            assert how == "restored" and again.state_hash() == match.state_hash()
            pending = again.pending
            assert pending is not None
            again.decide(pending.options[0].value)
            t0, c0 = time.perf_counter(), time.process_time()
            write_save(again, path)  # as an autosave: the new events appended to its log file
            saves.append((time.perf_counter() - t0) * 1e3)
            saves_cpu.append((time.process_time() - c0) * 1e3)
            write_save(match, path)  # back to the campaign's end for the next run
        t0 = time.perf_counter()
        verified = replay(game, read_record(path))  # `tabletop resume --verify`
        verify = (time.perf_counter() - t0) * 1e3
        assert verified.state_hash() == match.state_hash()
    return {"undo": statistics.median(undos), "resume": statistics.median(resumes),
            "resume_cpu": statistics.median(cpu), "verify": verify,
            "save": statistics.median(saves), "save_cpu": statistics.median(saves_cpu),
            "decisions": float(len(match.decisions))}


def main(argv: list[str] | None = None) -> int:
    """Print every game's fork figures, then the undo and resume at a campaign's end."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="whole games a game (default 10)")
    parser.add_argument("--playouts", type=int, default=2000, help="tic-tac-toe playouts (default 2000)")
    parser.add_argument("--openspiel", default=os.environ.get("OPENSPIEL_TTT"),
                        help="path of OpenSpiel's python/games/tic_tac_toe.py")
    parser.add_argument("--only", nargs="+", default=None, metavar="GAME",
                        help="only these games (ids, or 'skirmish' for the example)")
    parser.add_argument("--no-campaign", action="store_true", help="skip the campaign's undo and resume")
    parser.add_argument("--no-freeze", action="store_true", help="time forks with the collector as it is")
    args = parser.parse_args(argv)
    if args.games < 1 or args.playouts < 1:
        parser.error("--games and --playouts must be at least 1")
    spiel = openspiel_tictactoe(args.openspiel)

    def yardstick() -> float | None:
        return None if spiel is None else openspiel_per_move(spiel, args.playouts)

    games = playable_games()
    if args.only is not None:
        games = [(label, name) for label, name in games if label in args.only]
    print(f"python {sys.version.split()[0]}; forks at every decision of {args.games} default-bot "
          "games a game, CPU time, one process")
    for label, name in games:
        game = load_game(name)
        before = yardstick()
        times, ways = fork_times(game, range(1, args.games + 1), freeze=not args.no_freeze)
        after = yardstick()
        med, p95 = statistics.median(times), percentile(times, 0.95)
        made = ", ".join(f"{k} {v / len(times):.0%}" for k, v in ways.items() if v)
        line = f"{label:<11} {len(times):6d} forks  median {med:8.1f} µs  p95 {p95:8.1f} µs"
        if before is not None and after is not None:
            move = (before + after) / 2
            goal = GOALS.get(label)
            verdict = "" if goal is None else (
                f"  goal ≤ {goal}: {'met' if max(med, p95) / move <= goal else 'NOT met'}")
            line += f"  = {med / move:6.1f} / {p95 / move:6.1f} moves{verdict}"
        print(f"{line}   ({made})")
    if not args.no_campaign:
        end = campaign_end(5)
        print(f"iwo_valor campaign, {end['decisions']:.0f} decisions: undo of the last decision "
              f"{end['undo']:.1f} ms, resume of the save {end['resume']:.1f} ms "
              f"({end['resume_cpu']:.1f} ms CPU) (goal < 50 ms each; wall-clock, median of 5); "
              f"resume verified by replay {end['verify']:.0f} ms; a save after one more "
              f"decision {end['save']:.1f} ms ({end['save_cpu']:.1f} ms CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
