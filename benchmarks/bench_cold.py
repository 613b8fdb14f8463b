"""Cold start: what `tabletop list`, `tabletop --version` and each game's data load cost in a
fresh process.

Run: python benchmarks/bench_cold.py [--runs N] [--only GAME ...]   (prints figures; never a
timed test)

Every figure is a fresh child process, timed after one warm-up run (so the operating system's
file cache and Python's bytecode cache are warm, as they are for anyone who runs tabletop
twice): the median and the least wall-clock seconds and CPU seconds (user + system, of the
child) over N runs. CPU is the steadier figure on a shared machine; the load average is
printed with the figures. The goals: `list` and `--version` under 0.3 s, a game's
data under 0.1 s.

A game's data load is ``Game.load_data()`` (every data file read, validated and cross-checked)
in a process that has imported the game and nothing more (the engine's and the game's
imports are printed beside it), once with the parsed-YAML cache as
it is (``core.data.load_yaml_cached``: filled by the warm-up run) and once with it turned off
(``TABLETOP_CACHE_DIR=off``: every file parsed, about what the first run after an edit of a
data file pays). The example game reads its files when it is built, so its figure is building
a second ``SkirmishGame()`` plus its ``load_data()``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from tabletop.core.engine.registry import registered

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = str(ROOT / "docs" / "example" / "skirmish")
WIDTH = 26  # of a figure's label

DATA_LOAD = """\
import json, sys, time
name, example = sys.argv[1], sys.argv[2] == "1"
marks = [(time.perf_counter(), time.process_time())]
from tabletop.core.engine.match import Match  # the engine a game imports
from tabletop.core.engine.registry import load_game
marks.append((time.perf_counter(), time.process_time()))
game = load_game(name)
marks.append((time.perf_counter(), time.process_time()))
if example:
    game = type(game)()
game.load_data()
marks.append((time.perf_counter(), time.process_time()))
spans = [[b[0] - a[0], b[1] - a[1]] for a, b in zip(marks, marks[1:])]
print(json.dumps(dict(zip(("engine", "game", "data"), spans))))
"""


def tabletop_command() -> list[str]:
    """The installed `tabletop` script next to this Python, else the CLI module."""
    script = Path(sys.executable).parent / "tabletop"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "tabletop.core.frontends.cli"]


def timed(args: Sequence[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """(wall s, CPU s of the child, its standard output) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, check=False, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def figures(values: Sequence[float]) -> str:
    """Median and least of a few seconds, as "median (min)"."""
    return f"{statistics.median(values):.3f} ({min(values):.3f})"


def bench_command(label: str, args: Sequence[str], runs: int) -> None:
    """Print the wall and CPU figures of a command run ``runs`` times after a warm-up."""
    timed(args)
    walls, cpus = zip(*(timed(args)[:2] for _ in range(runs)), strict=True)
    print(f"{label:<{WIDTH}} wall {figures(walls)} s   CPU {figures(cpus)} s")


def bench_data(name: str, runs: int, *, cache: bool) -> None:
    """Print a game's import and data-load figures, each measured inside a fresh process."""
    env = dict(os.environ)
    if not cache:
        env["TABLETOP_CACHE_DIR"] = "off"
    args = [sys.executable, "-c", DATA_LOAD, name, "1" if name == EXAMPLE else "0"]
    timed(args, env)
    rows = [json.loads(timed(args, env)[2]) for _ in range(runs)]
    label = f"{Path(name).name} data" + ("" if cache else ", no cache")
    data_wall, data_cpu = zip(*(r["data"] for r in rows), strict=True)
    line = f"{label:<{WIDTH}} wall {figures(data_wall)} s   CPU {figures(data_cpu)} s"
    if cache:  # the imports before it, once a game
        for part in ("engine", "game"):
            wall, cpu = zip(*(r[part] for r in rows), strict=True)
            line += f"   [{part} import: CPU {figures(cpu)} s, wall {figures(wall)} s]"
    print(line)


def main(argv: list[str] | None = None) -> int:
    """Print the cold-start figures: the CLI's quick commands, then each game's data load."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each figure (default 7)")
    parser.add_argument("--only", nargs="+", default=None, metavar="GAME",
                        help="data loads of these games only (ids, or 'example')")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    games = [*sorted(registered()), EXAMPLE]
    if args.only:
        games = [g for g in games if Path(g).name in args.only
                 or ("example" in args.only and g == EXAMPLE)]
    cli = tabletop_command()
    print(f"python {sys.version.split()[0]}; {os.cpu_count()} CPUs; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; median (least) of {args.runs} runs "
          f"after a warm-up, each a fresh process")
    bench_command("python -c pass", [sys.executable, "-c", "pass"], args.runs)
    bench_command("tabletop --version", [*cli, "--version"], args.runs)
    bench_command("tabletop list", [*cli, "list"], args.runs)
    for name in games:
        bench_data(name, args.runs, cache=True)
        bench_data(name, args.runs, cache=False)
    print(f"load average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
