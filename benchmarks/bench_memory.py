"""Peak memory of `tabletop simulate` against the number of games: a study keeps rows, not matches.

Run: python benchmarks/bench_memory.py [--games 1000 10000] [--game PATH_OR_ID]
(prints figures; never a timed test). Each count runs ``tabletop simulate GAME -n N --rows
FILE`` in a fresh child process (through the installed CLI, whatever module implements it)
and reads the child's peak resident set size from the operating system. If the peak grows
with N, something keeps every match (or its log) alive.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = str(ROOT / "docs" / "example" / "skirmish")


def peak_of_simulate(game: str, games: int) -> tuple[float, float]:
    """(peak RSS in MiB, CPU seconds) of one `simulate` child process."""
    with tempfile.TemporaryDirectory() as folder:
        rows = Path(folder) / "rows.jsonl"
        code = ("import resource, sys; from tabletop.core.frontends.cli import main; "
                "code = main(sys.argv[1:]); "
                "u = resource.getrusage(resource.RUSAGE_SELF); "
                "print('PEAK', u.ru_maxrss, u.ru_utime + u.ru_stime, file=sys.stderr); sys.exit(code)")
        done = subprocess.run([sys.executable, "-c", code, "simulate", game, "-n", str(games),
                               "--rows", str(rows), "--json"],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"simulate failed: {done.stderr.strip()}")
        line = next(ln for ln in done.stderr.splitlines() if ln.startswith("PEAK"))
        _, kib, cpu = line.split()
        return int(kib) / 1024, float(cpu)  # ru_maxrss is in KiB on Linux


def main(argv: list[str] | None = None) -> int:
    """Print the peak memory of simulate at each number of games."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10_000])
    parser.add_argument("--game", default=EXAMPLE, help="game id or folder (default: the example)")
    args = parser.parse_args(argv)
    if any(n < 1 for n in args.games):
        parser.error("--games must be at least 1")
    print(f"python {sys.version.split()[0]}; `tabletop simulate {Path(args.game).name} -n N --rows FILE`, "
          f"one child process each")
    assert resource.RUSAGE_SELF is not None
    for n in args.games:
        t0 = time.perf_counter()
        peak, cpu = peak_of_simulate(args.game, n)
        print(f"{n:>7} games: peak RSS {peak:7.1f} MiB, {cpu:7.1f} CPU s "
              f"({time.perf_counter() - t0:.1f} s wall)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
