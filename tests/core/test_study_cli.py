"""`tabletop simulate` and `tabletop report` as a designer uses them (capability: balance
studies): sweeps side by side with paired differences, every statistic in --json, rows in
JSON Lines, Parquet and CSV, the progress bar on a terminal only, Ctrl-C keeping the games
finished, and the HTML report with its plots."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import select
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tabletop.core.frontends.cli import main
from tabletop.core.studies.rows import read_rows

from .as_typed import tabletop_command

PIG = "tests.core.piggame:GAME"
SKIRMISH = str(Path(__file__).resolve().parents[2] / "docs" / "example" / "skirmish")
ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the CLI in-process; return (exit code, stdout, stderr)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_sweep_prints_the_settings_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    """--option NAME=A,B plays the same seeds under each value and prints one column a setting,
    with intervals, then each setting's paired difference from the first."""
    code, out, err = run(capsys, "simulate", SKIRMISH, "-n", "30", "--option", "turns=6,4")
    assert code == 0, err
    assert "seeds 1..30 under each of 2 settings" in out
    header = next(line for line in out.splitlines() if "turns=6" in line)
    assert header.index("turns=6") < header.index("turns=4")
    assert re.search(r"Blue wins\s+\d+\.\d% \(\d+\.\d–\d+\.\d\)\s+\d+\.\d% \(", out)
    assert "Paired by seed, each setting minus turns=6" in out
    assert re.search(r"Blue win rate\s+[-+]\d+\.\d \([-+]\d+\.\d to [-+]\d+\.\d\)", out)
    assert err == ""  # no progress bar when standard error is not a terminal


def test_json_gives_every_statistic(capsys: pytest.CaptureFixture[str]) -> None:
    """--json: per setting the results and each side's win rate (count, share, Wilson interval),
    scores (mean, sd, median, quartiles), turns and decisions; paired differences per side."""
    code, out, _ = run(capsys, "simulate", PIG, "-n", "40", "--option", "target=10,30",
                       "--agent", "A=random", "--json")
    data = json.loads(out)
    assert code == 0 and data["games"] == 80 and data["planned"] == 80 and data["interrupted"] is False
    assert [s["setting"] for s in data["settings"]] == ["target=10", "target=30"]
    first = data["settings"][0]
    assert first["options"]["target"] == 10 and first["agents"] == {"A": "random", "B": "random"}
    assert sum(r["count"] for r in first["results"].values()) == 40
    for side in ("A", "B"):
        rate = first["win_rate"][side]
        assert set(rate) == {"count", "share", "ci95"} and rate["ci95"][0] <= rate["share"] <= rate["ci95"][1]
    assert set(first["scores"]["A"]) == {"n", "mean", "sd", "median", "q1", "q3", "min", "max"}
    assert first["turns"]["n"] == 40 and first["decisions"]["mean"] > 0
    (comparison,) = data["comparisons"]
    assert comparison["baseline"] == "target=10" and comparison["setting"] == "target=30"
    assert comparison["pairs"] == 40
    diff = comparison["win_rate"]["A"]
    assert diff["difference"] == round(data["settings"][1]["win_rate"]["A"]["share"]
                                       - first["win_rate"]["A"]["share"], 4)
    assert diff["excludes_zero"] == (diff["ci95"][0] > 0 or diff["ci95"][1] < 0)
    assert "results" not in data  # the one-setting fields are for one setting only


def test_an_agent_sweep_compares_bots_on_the_same_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    """--agent SIDE=a,b: one setting a bot, the same seeds; a bot that never holds (first: always
    roll) wins less often than the random one, by an interval that excludes zero."""
    code, out, _ = run(capsys, "simulate", PIG, "-n", "30", "--agent", "A=random,first", "--json")
    data = json.loads(out)
    assert code == 0 and [s["setting"] for s in data["settings"]] == ["A=random", "A=first"]
    assert [s["agents"]["A"] for s in data["settings"]] == ["random", "first"]
    diff = data["comparisons"][0]["win_rate"]["A"]
    assert diff["difference"] < 0 and diff["excludes_zero"] and diff["ci95"][1] < 0


def test_sweep_arguments_are_checked_before_play(capsys: pytest.CaptureFixture[str]) -> None:
    """Bad sweep arguments: one line each, exit 2, nothing played."""
    for args, fragment in (
        (("--option", "target=10,15"), "not one of"),
        (("--option", "target=10", "--option", "target=20"), "given twice"),
        (("--option", "target=10,,20"), "empty value"),
        (("--agent", "A=random,nobody"), "no agent 'nobody'"),
        (("--agent", "C=random"), "no side 'C'"),
        (("--rows", "x.parquet", "--jobs", "0"), "--jobs"),
    ):
        code, out, err = run(capsys, "simulate", PIG, "-n", "3", *args)
        assert code == 2 and fragment in err and err.count("\n") == 1 and out == "", (args, err)


def test_rows_in_jsonl_parquet_and_csv_read_back_the_same(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    """--rows by extension: the three formats hold the same games (seed, setting, options,
    agents, result, winner, turns, decisions, scores, state hash), and a row replays."""
    paths = [tmp_path / f"r.{ext}" for ext in ("jsonl", "parquet", "csv")]
    for path in paths:
        assert run(capsys, "simulate", PIG, "-n", "12", "--seed", "3", "--option", "target=10,20",
                   "--rows", str(path), "-q")[0] == 0
    rows = [read_rows(p) for p in paths]
    assert rows[0] == rows[1] == rows[2] and len(rows[0]) == 24
    row = rows[0][13]
    assert row["setting"] == "target=20" and row["seed"] == 4 and row["options"]["target"] == 20
    for key in ("result", "winner", "turns", "decisions", "scores", "state_hash", "agents", "version"):
        assert key in row
    header = paths[2].read_text().splitlines()[0].split(",")
    assert header[:5] == ["seed", "setting", "game", "version", "scenario"] and "option.target" in header
    code, out, _ = run(capsys, "play", PIG, "--auto", "--seed", str(row["seed"]), "--option", "target=20",
                       "--json")
    assert code == 0 and json.loads(out)["state_hash"] == row["state_hash"]


def test_report_writes_a_self_contained_page(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`tabletop report ROWS -o page.html`: the settings' tables, the paired differences and the
    four plots embedded as PNG data (no outside file); --plots writes them as SVG files too."""
    rows = tmp_path / "r.parquet"
    assert run(capsys, "simulate", SKIRMISH, "-n", "20", "--option", "turns=6,8", "--rows", str(rows))[0] == 0
    page, plots = tmp_path / "report.html", tmp_path / "plots"
    code, out, err = run(capsys, "report", str(rows), "-o", str(page), "--plots", str(plots),
                         "--format", "svg")
    assert code == 0, err
    assert "wrote" in out and "40 games, 2 settings" in out
    text = page.read_text()
    assert "<h1>Balance study: skirmish</h1>" in text
    for fragment in ("turns=6", "turns=8", "Blue victory", "Blue wins", "Red wins", "Paired by seed",
                     "score blue_steps_lost", "decisions", "Wilson", "tabletop play skirmish --auto"):
        assert fragment in text, fragment
    images = re.findall(r'<img alt="([^"]+)" src="data:image/png;base64,([A-Za-z0-9+/=]+)"', text)
    assert len(images) == 4
    assert all(base64.b64decode(data).startswith(b"\x89PNG") for _, data in images)
    assert "http" not in text.replace("http-equiv", "")  # nothing fetched from elsewhere
    names = sorted(p.name for p in plots.iterdir())
    assert names == ["length.svg", "results.svg", "scores.svg", "win_rate.svg"]
    assert "<svg" in (plots / "win_rate.svg").read_text()


def test_a_search_is_compared_with_a_bot_and_each_row_says_who_played(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`--agent Red=pusher,mcts:playouts=2,depth=30`: two agents (the search's options stay
    with it) on the same seeds; the table, every row and the report say which agent played
    each side."""
    rows = tmp_path / "r.jsonl"
    code, out, err = run(capsys, "simulate", SKIRMISH, "-n", "2", "--agent",
                         "Red=pusher,mcts:playouts=2,depth=30", "--rows", str(rows))
    assert code == 0, err
    assert "under each of 2 settings" in out
    assert re.search(r"Red played by\s+pusher\s+mcts:playouts=2,depth=30", out)
    assert re.search(r"Blue played by\s+pusher\s+pusher", out)
    played = [json.loads(line)["agents"] for line in rows.read_text().splitlines()]
    assert played == [{"Blue": "pusher", "Red": "pusher"}] * 2 + [
        {"Blue": "pusher", "Red": "mcts:playouts=2,depth=30"}] * 2
    page = tmp_path / "report.html"
    pytest.importorskip("matplotlib")
    assert run(capsys, "report", str(rows), "-o", str(page))[0] == 0
    text = page.read_text()
    assert "Red played by" in text and "mcts:playouts=2,depth=30" in text


def test_report_refuses_what_is_not_rows(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A missing file or a file of something else: one line, exit 2."""
    other = tmp_path / "x.jsonl"
    other.write_text('{"a": 1}\n')
    for path, fragment in ((tmp_path / "none.jsonl", "no such file"), (other, "not a game row")):
        code, _, err = run(capsys, "report", str(path), "-o", str(tmp_path / "r.html"))
        assert code == 2 and fragment in err and err.count("\n") == 1


def _simulate_on_a_terminal(args: list[str], stop_after: int | None) -> tuple[int, str, str]:
    """Run `tabletop simulate` with standard error on a pseudo-terminal; when ``stop_after``
    games show on its progress bar, press Ctrl-C (SIGINT to its process group)."""
    import pty

    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(tabletop_command("simulate", *args),
                            stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL,
                            start_new_session=True, cwd=ROOT, env=env)
    os.close(slave)
    screen = b""
    sent = False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                screen += os.read(master, 65536)
            except OSError:
                break
        done = [int(n) for n in re.findall(rb"(\d+)/\d+ \[", screen)]
        if stop_after is not None and not sent and done and max(done) >= stop_after:
            os.killpg(proc.pid, signal.SIGINT)
            sent = True
        if proc.poll() is not None and not ready:
            break
    os.close(master)
    if proc.poll() is None:  # never got there: end it rather than wait for the whole study
        proc.kill()
    code = proc.wait(timeout=30)
    # a worker pool's server process may outlive the study and hold its stdout open: end
    # what is left of the study's process group before reading to the end of that pipe
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    out = proc.stdout.read().decode() if proc.stdout else ""
    return code, out, screen.decode(errors="replace")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_keeps_the_games_finished(tmp_path: Path, jobs: str) -> None:
    """Ctrl-C during a study (in one process, or in two): the progress bar was showing games
    done, games a second and time left; the games finished are written as rows and summarised,
    and the exit code is 130."""
    rows = tmp_path / "r.jsonl"
    code, out, screen = _simulate_on_a_terminal(
        [SKIRMISH, "-n", "3000", "--jobs", jobs, "--rows", str(rows), "--json"], stop_after=30)
    assert code == 130, screen[-500:]
    assert re.search(r"\d+/3000 \[\d\d:\d\d<\d\d:\d\d, +\d+\.\d+game/s\]", screen)
    assert "interrupted: kept the" in screen
    summary = json.loads(out)
    kept = read_rows(rows)
    assert summary["interrupted"] is True and 30 <= summary["games"] == len(kept) < 3000
    assert sum(summary["results"].values()) == len(kept)
    if jobs == "1":
        assert [r["seed"] for r in kept] == list(range(1, len(kept) + 1))


def test_quiet_hides_the_progress_bar_on_a_terminal() -> None:
    """--quiet: no progress bar even when standard error is a terminal."""
    code, out, screen = _simulate_on_a_terminal([PIG, "-n", "30", "--quiet"], stop_after=None)
    assert code == 0 and "30 games of pig" in out and "game/s" not in screen
    code, _, screen = _simulate_on_a_terminal([PIG, "-n", "30"], stop_after=None)
    assert code == 0 and "30/30" in screen
