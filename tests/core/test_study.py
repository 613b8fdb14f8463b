"""Balance studies (capability: simulate at scale): the same rows game for game whether a study
runs in this process, in local processes or on a Dask cluster, a dead worker's games played
again, sweeps on shared seeds, and the statistics (Wilson and Newcombe intervals)."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.registry import load_game
from tabletop.core.frontends.cli import main
from tabletop.core.studies.stats import describe, paired_difference, wilson
from tabletop.core.studies.study import Study, default_chunk_size, plan_chunks, plan_settings, run_study

PIG = "tests.core.piggame:GAME"
SKIRMISH = str(Path(__file__).resolve().parents[2] / "docs" / "example" / "skirmish")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the CLI in-process; return (exit code, stdout, stderr)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def skirmish_study(count: int = 24, turns: tuple[int, ...] = (6, 8)) -> Study:
    """A two-setting study of the example game (about 17 ms a game)."""
    game = load_game(SKIRMISH)
    return Study(game.source, None, 1, count, plan_settings(game, {"turns": list(turns)}, {}))


# ----------------------------------------------------------------------------- statistics

def test_wilson_interval_matches_the_published_values() -> None:
    """Wilson's interval: 81 of 263 is 0.2553–0.3662 (Wilson 1927 via Newcombe 1998, table I);
    0 of 10 is 0–0.2775; the interval always holds the share and stays within 0..1."""
    low, high = wilson(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    for k in range(0, 21):
        lo, hi = wilson(k, 20)
        assert 0 <= lo <= k / 20 <= hi <= 1


def test_paired_difference_uses_the_discordant_pairs() -> None:
    """Newcombe's paired interval: identical outcomes give 0 inside the interval; a setting that
    wins 30 more seeds of 100 than the baseline excludes zero; the estimate is the share gap."""
    same = [i % 3 == 0 for i in range(100)]
    d = paired_difference(same, same)
    assert d["difference"] == 0 and d["ci95"][0] < 0 < d["ci95"][1] and not d["excludes_zero"]
    base = [i < 30 for i in range(100)]
    better = [i < 60 for i in range(100)]
    d = paired_difference(base, better)
    assert d["difference"] == 0.3 and d["excludes_zero"] and d["ci95"][0] > 0
    assert d["discordant"] == [0, 30]
    # pairing narrows the interval against independent samples of the same shares
    hi1 = wilson(30, 100)[1]
    lo2 = wilson(60, 100)[0]
    independent = ((60 - lo2 * 100) ** 2 + (hi1 * 100 - 30) ** 2) ** 0.5 / 100
    assert 0.3 - d["ci95"][0] < independent


def test_describe_gives_mean_sd_median_and_quartiles() -> None:
    """Score summaries: sample sd (n − 1) and interpolated quartiles (numpy's default)."""
    d = describe([1, 2, 3, 4, 10])
    assert d == {"n": 5, "mean": 4.0, "sd": 3.5355, "median": 3, "q1": 2, "q3": 4, "min": 1, "max": 10}
    assert describe([7])["sd"] == 0.0 and describe([])["n"] == 0


# ----------------------------------------------------------------------------- planning

def test_sweeps_make_a_grid_on_the_same_seeds() -> None:
    """--option and --agent with several values make every combination, labelled by what varies;
    the chunks interleave the settings so that a study stopped early still has pairs."""
    game = load_game(PIG)
    settings = plan_settings(game, {"target": [10, 20]}, {"A": ["random", "first"], "B": ["random"]})
    assert [s.label for s in settings] == ["target=10 A=random", "target=10 A=first",
                                           "target=20 A=random", "target=20 A=first"]
    assert settings[1].options == {"target": 10} and settings[1].agents == {"A": "first", "B": "random"}
    chunks = plan_chunks(Study(PIG, None, 5, 7, settings), 3)
    assert [(c.setting_index, c.start, c.stop) for c in chunks[:5]] == [
        (0, 5, 8), (1, 5, 8), (2, 5, 8), (3, 5, 8), (0, 8, 11)]
    assert sum(c.size for c in chunks) == 28
    assert default_chunk_size(10_000, 2) == 20 and default_chunk_size(12, 2) == 2
    with pytest.raises(TabletopError, match="not one of"):
        plan_settings(game, {"target": [10, 15]}, {})
    with pytest.raises(TabletopError, match="bots only"):
        plan_settings(game, {}, {"A": ["human"]})


# ----------------------------------------------------------------------------- runners

def test_local_processes_give_the_rows_of_one_process() -> None:
    """jobs=2 plays the same games as jobs=1: rows identical game for game, in (setting, seed) order."""
    study = skirmish_study(12)
    here = run_study(study, chunk_size=5)
    pool = run_study(study, jobs=2, chunk_size=5)
    assert here.rows == pool.rows and len(here.rows) == 24 and not pool.interrupted
    assert [(r["setting"], r["seed"]) for r in here.rows[:13]] == (
        [("turns=6", s) for s in range(1, 13)] + [("turns=8", 1)])


def test_a_dead_local_worker_has_its_games_played_again() -> None:
    """A pool worker killed in the middle of a study: the pool is rebuilt, the unfinished chunks
    are sent again, and the rows are those of an undisturbed run."""
    study = skirmish_study(30)
    expected = run_study(study, chunk_size=4).rows
    killed: list[int] = []
    others = {p.pid for p in multiprocessing.active_children()}  # not the study's (a cluster's)

    def kill_one(_: int) -> None:
        if not killed:
            victim = next(p for p in multiprocessing.active_children() if p.pid not in others)
            killed.append(victim.pid or 0)
            os.kill(victim.pid or 0, signal.SIGKILL)

    rerun = run_study(study, jobs=2, chunk_size=4, progress=kill_one)
    assert killed and rerun.pool_restarts >= 1
    assert rerun.rows == expected


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A Dask LocalCluster of two worker processes on this machine, stopped after the tests."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as local:
        yield local


def test_sequential_jobs_and_a_dask_cluster_write_the_same_rows(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, cluster: Any) -> None:
    """`simulate` with a sweep writes the same rows sequentially, with --jobs 2 and with
    --scheduler pointing at a LocalCluster, and prints the same statistics."""
    args = ["simulate", SKIRMISH, "-n", "15", "--option", "turns=6,8", "--json", "--chunk-size", "4"]
    outputs = {}
    for name, extra in (("one", []), ("jobs", ["--jobs", "2"]),
                        ("dask", ["--scheduler", cluster.scheduler_address])):
        code, out, err = run(capsys, *args, *extra, "--rows", str(tmp_path / f"{name}.jsonl"))
        assert code == 0, err
        outputs[name] = json.loads(out)
    rows = {n: (tmp_path / f"{n}.jsonl").read_text() for n in outputs}
    assert rows["one"] == rows["jobs"] == rows["dask"]
    assert len(rows["one"].splitlines()) == 30
    assert outputs["one"] == outputs["jobs"] == outputs["dask"]


def test_a_search_plays_the_same_rows_sequentially_with_jobs_and_on_dask(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, cluster: Any) -> None:
    """The search agent draws everything from its seed: a study comparing it with a bot writes
    the same rows and statistics in this process, with --jobs 2 and on a Dask cluster."""
    args = ["simulate", SKIRMISH, "-n", "3", "--agent", "Red=pusher,mcts:playouts=2,depth=40",
            "--json", "--chunk-size", "1"]
    outputs = {}
    for name, extra in (("one", []), ("jobs", ["--jobs", "2"]),
                        ("dask", ["--scheduler", cluster.scheduler_address])):
        code, out, err = run(capsys, *args, *extra, "--rows", str(tmp_path / f"{name}.jsonl"))
        assert code == 0, err
        outputs[name] = json.loads(out)
    rows = {n: (tmp_path / f"{n}.jsonl").read_text() for n in outputs}
    assert rows["one"] == rows["jobs"] == rows["dask"]
    assert len(rows["one"].splitlines()) == 6 and "mcts:playouts=2,depth=40" in rows["one"]
    assert outputs["one"] == outputs["jobs"] == outputs["dask"]


def test_a_killed_dask_worker_does_not_change_the_results(cluster: Any) -> None:
    """A Dask worker process killed while the study runs: the scheduler sends its chunks to a
    worker still alive (the nanny restarts the dead one) and the rows are unchanged."""
    distributed = pytest.importorskip("distributed")
    study = skirmish_study(40)
    expected = run_study(study, chunk_size=4).rows
    with distributed.Client(cluster, set_as_default=False) as client:
        before = client.run(os.getpid)
        killed: list[int] = []

        def kill_one(_: int) -> None:
            if not killed:
                killed.append(sorted(before.values())[0])
                os.kill(killed[0], signal.SIGKILL)

        rerun = run_study(study, scheduler=cluster.scheduler_address, chunk_size=4, progress=kill_one)
        assert killed and rerun.rows == expected
        client.wait_for_workers(2, timeout=30)
        assert killed[0] not in client.run(os.getpid).values()


def test_a_worker_with_another_game_version_is_refused() -> None:
    """Rows from a copy of the game at another version are refused with a clear message."""
    with pytest.raises(TabletopError, match="install the same tabletop on every worker"):
        run_study(skirmish_study(2), check_version="0.0-other")


def test_an_unreachable_scheduler_is_one_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    """A scheduler address where nothing listens is a clear error; --jobs with --scheduler is
    refused at the command line before any game, in one line."""
    pytest.importorskip("distributed")
    with pytest.raises(TabletopError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:9"):
        run_study(skirmish_study(2), scheduler="tcp://127.0.0.1:9", connect_timeout=1.0)
    code, _, err = run(capsys, "simulate", PIG, "-n", "2", "--scheduler", "tcp://127.0.0.1:9", "--jobs", "2")
    assert code == 2 and "give one of them" in err and err.count("\n") == 1


# ----------------------------------------------------------------------------- memory

def test_the_spool_writes_chunks_in_seed_order_whatever_order_they_come_in() -> None:
    """Studies keep rows on disk, not in memory: chunks that come early wait only for the
    chunks before them, and each setting's rows read back in seed order, fields in order."""
    from tabletop.core.studies.study import ChunkResult, Spool

    def chunk(setting: int, start: int) -> ChunkResult:
        return ChunkResult(setting, start, [{"seed": s, "setting": str(setting), "z": 1, "a": [s]}
                                            for s in range(start, start + 3)], 0.5)

    spool = Spool(2)
    spool.expect(plan_chunks(skirmish_study(9), 3))
    for setting, start in ((1, 4), (0, 7), (0, 1), (1, 1), (1, 7), (0, 4)):
        spool.append(chunk(setting, start))
    assert spool._waiting == [{}, {}]  # everything written as it became due
    spool.finish()
    rows = list(spool.rows(0))
    assert [r["seed"] for r in rows] == list(range(1, 10)) and list(rows[0]) == ["seed", "setting", "z", "a"]
    assert [r["seed"] for r in spool.rows(1)] == list(range(1, 10))
    assert spool.games == 18 and spool.game_seconds == 3.0
    spool.close()


def test_a_ctrl_c_while_the_spool_keeps_a_chunk_loses_none_of_its_rows(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C keeps the games finished: a Ctrl-C that comes while the spool writes a chunk
    is acted on once the chunk is written and counted, so the rows on disk and the games
    counted agree (the summary of an interrupted study counts the rows it wrote)."""
    import signal

    from tabletop.core.studies.study import ChunkResult, Spool

    study = skirmish_study(6)
    spool = Spool(len(study.settings))
    spool.expect(plan_chunks(study, 3))
    write = Spool._write

    def interrupted_write(self: Spool, index: int, rows: list[dict[str, object]]) -> None:
        signal.raise_signal(signal.SIGINT)  # as if the player pressed Ctrl-C just now
        write(self, index, rows)

    monkeypatch.setattr(Spool, "_write", interrupted_write)
    rows = [{"seed": s, "result": "win"} for s in (1, 2, 3)]
    with pytest.raises(KeyboardInterrupt):
        spool.append(ChunkResult(0, 1, rows, 0.1))
    assert [r["seed"] for r in spool.rows(0)] == [1, 2, 3] and spool.games == 3
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    spool.close()


def test_statistics_read_rows_once_as_they_come() -> None:
    """Summaries of a study: the figures from rows given one at a time (a generator) are the
    figures from the list, whatever order the games came in."""
    from tabletop.core.studies.stats import compare, summarise

    rows: list[dict[str, Any]] = [
        {"seed": s, "result": "win" if s % 3 else "loss", "winner": "A" if s % 3 else "B",
         "turns": 5 + s % 4, "decisions": 40 + s, "scores": {"vp": float(s % 5) - 1.5}}
        for s in range(1, 40)]
    other = [dict(r, winner="A" if r["seed"] % 2 else "B") for r in rows]
    assert summarise(iter(rows), ["A", "B"]) == summarise(rows, ["A", "B"]) \
        == summarise(list(reversed(rows)), ["A", "B"]) | {"results": summarise(rows, ["A", "B"])["results"]}
    assert compare(iter(rows), iter(other), ["A", "B"]) == compare(rows, list(reversed(other)), ["A", "B"])
    assert summarise(rows, ["A"])["scores"]["vp"] == describe([float(s % 5) - 1.5 for s in range(1, 40)])
