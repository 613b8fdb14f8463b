"""Balance studies: many bot games under one or several settings, in this process, in local
processes or on a Dask cluster, with the same rows whatever plays them.

A :class:`Study` is a game, a scenario, a run of seeds and one or more :class:`Setting`\\ s
(game options and the bot of each side); every setting plays the same seeds, so settings are
compared game by game. The work is cut into :class:`Chunk`\\ s of consecutive seeds of one
setting (up to 20 games by default, not one task a game), interleaved across settings so that
a study stopped early still has paired games. :func:`play_game` is the one place a game of a study is
played and turned into its row; every runner calls it, which is why the rows are identical
game for game whether the study ran sequentially (``jobs=1``), in a pool of local processes
(``jobs=N``) or on a Dask scheduler (``scheduler=ADDRESS``). A pool whose worker dies is
rebuilt and its unfinished chunks sent again; Dask's scheduler re-runs the tasks of a dead
worker itself. Ctrl-C stops a study and keeps the games finished so far.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import itertools
import json
import math
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.canonical import JSON, dumps
from ..engine.errors import TabletopError
from ..engine.match import Game, Match
from ..engine.registry import load_game, make_agent
from ..engine.search import is_reproducible

if TYPE_CHECKING:
    from multiprocessing.synchronize import Event

MAX_CHUNK = 20
"""Most games in a chunk by default: small enough for a live progress bar and an even spread
over workers, large enough that a 10,000-game study is a few hundred tasks."""

POOL_RESTARTS = 3
"""How many times in a row a pool of local processes may be rebuilt after a worker died
without any chunk finishing in between, before the study gives up."""

Row = dict[str, JSON]
Progress = Callable[[int], object]
"""Told how many more games have finished (the runners call it as chunks come back)."""


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting of a study: a label, the game options given, and the bot of every side."""

    label: str
    options: dict[str, JSON]
    agents: dict[str, str]


@dataclass(frozen=True, slots=True)
class Study:
    """What a study plays: a game (as it is loaded: name, ``module:attr`` or folder), a
    scenario, ``count`` seeds from ``first_seed``, and the settings each seed is played under."""

    game: str
    scenario: str | None
    first_seed: int
    count: int
    settings: tuple[Setting, ...]

    @property
    def planned(self) -> int:
        """How many games the whole study plays."""
        return self.count * len(self.settings)

    @property
    def seeds(self) -> range:
        """The seeds every setting plays."""
        return range(self.first_seed, self.first_seed + self.count)


@dataclass(frozen=True, slots=True)
class Chunk:
    """A task: consecutive seeds ``start`` to ``stop - 1`` of one setting (by index)."""

    game: str
    scenario: str | None
    setting_index: int
    setting: Setting
    start: int
    stop: int

    @property
    def size(self) -> int:
        """How many games the chunk plays."""
        return self.stop - self.start


@dataclass(slots=True)
class ChunkResult:
    """A chunk's games as rows, and the seconds spent playing them (for the overhead figures)."""

    setting_index: int
    start: int
    rows: list[Row]
    game_seconds: float


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) back while the block runs, then act on it as it would have
    acted (in the main thread only, where Python handles signals; elsewhere a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught and callable(previous):
        previous(signal.SIGINT, None)


@contextlib.contextmanager
def _ctrl_c_as_flag() -> Iterator[list[int]]:
    """Turn Ctrl-C (SIGINT) into a flag the block polls, instead of a KeyboardInterrupt raised
    wherever the main thread happens to be: raised inside the pool's own bookkeeping (a
    future's lock taken and not yet released), it can leave the pool's manager thread waiting
    for ever and the study deaf to a second Ctrl-C. Outside the main thread a no-op (the list
    stays empty)."""
    caught: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield caught
    finally:
        signal.signal(signal.SIGINT, previous)


class Spool:
    """A study's rows as they come, kept on disk, not in memory: one JSON Lines file a
    setting in a temporary folder, each in seed order (a chunk that comes before the chunks
    ahead of it waits for them). Read back setting by setting (:meth:`rows`), the rows are
    those the games gave, fields in the same order. The folder is removed by :meth:`close`
    (or when the spool is collected, or at exit)."""

    def __init__(self, settings: int, check_version: str | None = None) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="tabletop-study-")
        self._files = [Path(self._folder.name) / f"setting-{i}.jsonl" for i in range(settings)]
        for path in self._files:
            path.touch()
        self._next: list[int | None] = [None] * settings  # the chunk start each file waits for
        self._waiting: list[dict[int, ChunkResult]] = [{} for _ in range(settings)]
        self._check_version = check_version
        self.chunks: set[tuple[int, int]] = set()  # (setting index, start) of the chunks kept
        self.games = 0
        self.game_seconds = 0.0

    def expect(self, chunks: Sequence[Chunk]) -> None:
        """Say which chunk each setting starts with (the first of its seeds)."""
        for chunk in chunks:
            first = self._next[chunk.setting_index]
            if first is None or chunk.start < first:
                self._next[chunk.setting_index] = chunk.start

    def append(self, result: ChunkResult) -> None:
        """Keep a chunk's rows (written as soon as the chunks before it are), all or nothing:
        a Ctrl-C that comes meanwhile is held back until they are kept and counted, so the
        rows on disk and the games counted always agree."""
        for row in result.rows:
            if self._check_version is not None and row["version"] != self._check_version:
                raise TabletopError(f"a worker plays {row['game']} version {row['version']}, "
                                    f"not {self._check_version} as here: install the same "
                                    f"tabletop on every worker")
        with _ctrl_c_held():
            self._keep(result)

    def _keep(self, result: ChunkResult) -> None:
        self.chunks.add((result.setting_index, result.start))
        self.games += len(result.rows)
        self.game_seconds += result.game_seconds
        index = result.setting_index
        waiting = self._waiting[index]
        waiting[result.start] = result
        nxt = self._next[index]
        while nxt is not None and nxt in waiting:
            ready = waiting.pop(nxt)
            self._write(index, ready.rows)
            nxt = self._next[index] = ready.start + max(1, len(ready.rows))

    def finish(self) -> None:
        """Write the chunks still waiting (a stopped study leaves gaps), in seed order."""
        with _ctrl_c_held():
            for index, waiting in enumerate(self._waiting):
                for start in sorted(waiting):
                    self._write(index, waiting.pop(start).rows)

    def _write(self, index: int, rows: Sequence[Row]) -> None:
        if rows:
            text = "".join(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n"
                           for row in rows)
            with self._files[index].open("a", encoding="utf-8") as fh:
                fh.write(text)

    def rows(self, index: int) -> Iterator[Row]:
        """The rows of one setting, in seed order, read from disk as they are asked for."""
        with self._files[index].open(encoding="utf-8") as fh:
            for line in fh:
                yield json.loads(line)

    def close(self) -> None:
        """Remove the spool's files."""
        self._folder.cleanup()


@dataclass(slots=True)
class StudyRun:
    """The outcome of running a study: its rows, kept on disk setting by setting
    (:meth:`setting_rows`, :meth:`all_rows`), and how it went. :meth:`close` removes them."""

    study: Study
    spool: Spool
    interrupted: bool = False
    seconds: float = 0.0
    runner: str = "sequential"
    pool_restarts: int = 0

    @property
    def games(self) -> int:
        """How many games were played (all of them unless interrupted)."""
        return self.spool.games

    @property
    def game_seconds(self) -> float:
        """Seconds the games took to play, summed over whoever played them."""
        return self.spool.game_seconds

    def setting_rows(self, index: int) -> Iterator[Row]:
        """The rows of the setting at ``index``, in seed order, read as they are asked for."""
        return self.spool.rows(index)

    def all_rows(self) -> Iterator[Row]:
        """Every row in (setting, seed) order, read as they are asked for."""
        for index in range(len(self.study.settings)):
            yield from self.spool.rows(index)

    @property
    def rows(self) -> list[Row]:
        """Every row in (setting, seed) order, all in memory (for small studies and tests)."""
        return list(self.all_rows())

    def close(self) -> None:
        """Remove the rows kept on disk."""
        self.spool.close()


# ----------------------------------------------------------------------------- planning

def plan_settings(game: Game, options: Mapping[str, Sequence[JSON]],
                  agents: Mapping[str, Sequence[str]]) -> tuple[Setting, ...]:
    """The grid of settings: every combination of the option values and agent names given.

    ``options`` and ``agents`` map a name (an option id, a side) to its values; a name with
    one value is fixed, a name with several is swept, the grid being taken in the order the
    names are given. Every option value and agent name is checked here, before any game.
    The label of a setting names the swept values (``japanese_cards=27 USMC=random``); a study
    with nothing swept is labelled by what was given, or ``defaults``.
    """
    info = game.info
    for side, names in agents.items():
        if side not in info.players:
            raise TabletopError(f"game {info.id} has no side {side!r} (sides: {', '.join(info.players)})")
        for name in names:
            if name == "human":
                raise TabletopError(f"simulate plays bots only: side {side} cannot be 'human'")
            make_agent(game, side, name, 0)
            if not is_reproducible(name):
                raise TabletopError(f"agent {name!r} for {side}: a search capped by seconds plays "
                                    "as many playouts as the machine manages, so the same seed "
                                    "would not give the same game; give a study a budget of "
                                    "playouts alone (no seconds=)")
    dims: list[tuple[str, str, Sequence[JSON]]] = [("option", k, v) for k, v in options.items()]
    dims += [("agent", k, v) for k, v in agents.items()]
    swept = [d for d in dims if len(d[2]) > 1]
    settings: list[Setting] = []
    for combo in itertools.product(*(values for _, _, values in dims)):
        chosen = {(kind, name): value for (kind, name, _), value in zip(dims, combo, strict=True)}
        given = {name: value for (kind, name), value in chosen.items() if kind == "option"}
        info.resolve_options(given)
        sides = {side: str(chosen.get(("agent", side), game.default_bot(side))) for side in info.players}
        shown = swept or dims
        label = " ".join(f"{name}={_text(chosen[(kind, name)])}" for kind, name, _ in shown) or "defaults"
        settings.append(Setting(label, given, sides))
    return tuple(settings)


def _text(value: JSON) -> str:
    return value if isinstance(value, str) else dumps(value)


def plan_chunks(study: Study, chunk_size: int) -> list[Chunk]:
    """The study's tasks: blocks of ``chunk_size`` seeds, each block under every setting in
    turn, so that the settings advance together."""
    chunks: list[Chunk] = []
    for start in range(study.first_seed, study.first_seed + study.count, chunk_size):
        stop = min(start + chunk_size, study.first_seed + study.count)
        for index, setting in enumerate(study.settings):
            chunks.append(Chunk(study.game, study.scenario, index, setting, start, stop))
    return chunks


def default_chunk_size(games: int, workers: int) -> int:
    """A chunk size giving each worker several chunks, at most :data:`MAX_CHUNK` games."""
    return max(1, min(MAX_CHUNK, math.ceil(games / (4 * max(1, workers)))))


# ----------------------------------------------------------------------------- playing

@functools.lru_cache(maxsize=8)
def _game(source: str) -> Game:
    """The game of a study, loaded once a process (games are immutable rule sets)."""
    return load_game(source)


def play_game(game: Game, scenario: str | None, setting: Setting, seed: int) -> Row:
    """Play one game of a study with bots and return its row.

    The row holds everything needed to replay the game (game, version, scenario, options,
    agents, seed) and to check the replay (turns, decisions, state hash), and nothing that
    depends on where or how fast it was played.
    """
    agents = {side: make_agent(game, side, name, seed) for side, name in setting.agents.items()}
    match = Match(game, scenario=scenario, seed=seed, options=setting.options, snapshots=False)
    result = match.run(agents)
    if result is None:  # pragma: no cover - run() returns only at the end
        raise TabletopError(f"game with seed {seed} did not finish")
    scores = {k: float(v) for k, v in result.scores.items()
              if isinstance(v, int | float) and not isinstance(v, bool)}
    return {
        "seed": seed,
        "setting": setting.label,
        "game": game.info.id,
        "version": game.info.version,
        "scenario": match.scenario,
        "options": dict(match.options),
        "agents": dict(setting.agents),
        "result": result.level,
        "winner": result.winner,
        "turns": match.state.turn,
        "decisions": len(match.decisions),
        "scores": scores,
        "state_hash": match.state_hash(),
    }


def _play_seeds(chunk: Chunk, seeds: Iterator[int], stop: Event | None) -> ChunkResult:
    game = _game(chunk.game)
    rows: list[Row] = []
    began = time.perf_counter()
    for seed in seeds:
        if stop is not None and stop.is_set():
            break
        rows.append(play_game(game, chunk.scenario, chunk.setting, seed))
    return ChunkResult(chunk.setting_index, chunk.start, rows, time.perf_counter() - began)


def play_chunk(chunk: Chunk) -> ChunkResult:
    """Play a chunk's games (the task a worker runs); stops between games when the study is
    being stopped (local processes only)."""
    return _play_seeds(chunk, iter(range(chunk.start, chunk.stop)), _STOP_IN_WORKER.get("event"))


# A pool worker's handle on the study's stop signal, set once by the pool's initializer in that
# worker process (multiprocessing events are shared by inheritance, not sent with each task).
_STOP_IN_WORKER: dict[str, Event] = {}


def _init_worker(stop: Event) -> None:
    """Start a pool worker: Ctrl-C is the parent's to handle; the worker stops at its signal."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _STOP_IN_WORKER["event"] = stop


# ----------------------------------------------------------------------------- running

@contextlib.contextmanager
def progress_bar(total: int, *, quiet: bool = False) -> Iterator[Progress]:
    """A live progress bar on standard error (games done, games a second, time left), shown
    only when standard error is a terminal and not ``quiet``; yields the function to advance it."""
    from tqdm import tqdm

    shown = not quiet and sys.stderr.isatty()
    try:  # a terminal that does not tell its width (a bare pseudo-terminal) gets 80 columns
        sized = os.get_terminal_size(sys.stderr.fileno()).columns > 0
    except (OSError, ValueError):
        sized = False
    bar = tqdm(total=total, unit="game", file=sys.stderr, disable=not shown, dynamic_ncols=sized,
               ncols=None if sized else 80, nrows=None if sized else 24, mininterval=0.5,
               smoothing=0.05)
    try:
        yield bar.update
    finally:
        bar.close()


def run_study(study: Study, *, jobs: int = 1, scheduler: str | None = None, chunk_size: int | None = None,
              progress: Progress | None = None, check_version: str | None = None,
              connect_timeout: float = 20.0) -> StudyRun:
    """Play a study and return its run, the rows kept on disk in (setting, seed) order as
    they come (close the run to remove them).

    ``jobs=1`` plays in this process; ``jobs=N`` in a pool of N local processes; ``scheduler``
    sends chunks to a Dask distributed scheduler at that address. Ctrl-C (KeyboardInterrupt)
    stops the study: the returned run is marked ``interrupted`` and holds the games finished.
    ``check_version`` refuses rows from a worker whose copy of the game has another version;
    ``connect_timeout`` is how long to try reaching the scheduler, in seconds.
    """
    began = time.perf_counter()
    tell = progress or (lambda n: None)
    spool = Spool(len(study.settings), check_version)
    run = StudyRun(study, spool)
    try:
        if scheduler is not None:
            run.runner = f"dask scheduler {scheduler}"
            _run_dask(study, scheduler, chunk_size, tell, spool, connect_timeout)
        elif jobs > 1:
            run.runner = f"{jobs} local processes"
            _run_pool(study, jobs, chunk_size or default_chunk_size(study.planned, jobs), tell, spool, run)
        else:
            _run_here(study, chunk_size or default_chunk_size(study.planned, 1), tell, spool)
    except KeyboardInterrupt:
        run.interrupted = True
    except BaseException:
        spool.close()
        raise
    spool.finish()
    run.seconds = time.perf_counter() - began
    return run


def _run_here(study: Study, chunk_size: int, tell: Progress, spool: Spool) -> None:
    """Play the chunks in this process, a game at a time (Ctrl-C loses only the game in play)."""
    chunks = plan_chunks(study, chunk_size)
    spool.expect(chunks)
    for chunk in chunks:
        for seed in range(chunk.start, chunk.stop):
            one = _play_seeds(chunk, iter((seed,)), None)
            spool.append(ChunkResult(chunk.setting_index, seed, one.rows, one.game_seconds))
            tell(1)


def _run_pool(study: Study, jobs: int, chunk_size: int, tell: Progress, results: Spool,
              run: StudyRun) -> None:
    """Play the chunks in a pool of local processes, rebuilding the pool if a worker dies."""
    # Workers start from a fresh server process, not a fork of this one: this one has threads
    # (the progress bar's), and forking a process with threads can copy a held lock.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    stop = context.Event()
    todo = plan_chunks(study, chunk_size)
    results.expect(todo)
    failures = 0
    while todo:
        pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init_worker,
                                   initargs=(stop,))
        futures: dict[Future[ChunkResult], Chunk] = {pool.submit(play_chunk, c): c for c in todo}
        try:
            with _ctrl_c_as_flag() as ctrl_c:
                broken = _collect_pool(futures, tell, results, ctrl_c)
                if ctrl_c:
                    raise KeyboardInterrupt
        except KeyboardInterrupt:
            stop.set()  # workers finish the game in hand and return what they played
            pool.shutdown(wait=True, cancel_futures=True)
            _harvest(futures, tell, results)
            raise
        except BaseException:  # a game that fails: stop the other workers before reporting it
            stop.set()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        pool.shutdown(wait=True, cancel_futures=True)
        if broken:  # chunks that finished before the pool broke are kept
            _harvest(futures, tell, results)
        left = [c for c in todo if (c.setting_index, c.start) not in results.chunks]
        if broken:
            progressed = len(left) < len(todo)
            failures = 0 if progressed else failures + 1
            if failures > POOL_RESTARTS:
                raise TabletopError(f"a worker process died {failures} times in a row without "
                                    f"finishing a chunk of games (out of memory, or a crash in the game?)")
            run.pool_restarts += 1
        todo = left


def _harvest(futures: Mapping[Future[ChunkResult], Chunk], tell: Progress, results: Spool) -> None:
    """Keep the chunks of a stopped or broken pool that finished and are not kept yet."""
    for future in futures:
        if future.done() and not future.cancelled() and future.exception() is None:
            result = future.result()
            if (result.setting_index, result.start) not in results.chunks:
                results.append(result)
                tell(len(result.rows))


def _collect_pool(futures: Mapping[Future[ChunkResult], Chunk], tell: Progress, results: Spool,
                  ctrl_c: Sequence[int] = ()) -> bool:
    """Gather a pool's chunks as they finish; True if the pool broke (a worker died). Returns
    early, with chunks still pending, once ``ctrl_c`` is not empty (it is polled a few times a
    second)."""
    pending = set(futures)
    while pending and not ctrl_c:
        finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
        for future in finished:
            try:
                result = future.result()
            except BrokenProcessPool:
                return True
            results.append(result)
            tell(len(result.rows))
    return False


def _run_dask(study: Study, address: str, chunk_size: int | None, tell: Progress,
              results: Spool, connect_timeout: float) -> None:
    """Send the chunks to a Dask scheduler and gather them as they finish.

    A worker that dies while playing a chunk is the scheduler's to handle: it sends the chunk
    to another worker (up to its ``allowed-failures``, 3 by default).
    """
    try:  # untyped library: used through Any
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        from .rows import INSTALL_STUDY

        raise TabletopError(f"--scheduler needs dask.distributed: {INSTALL_STUDY}") from None
    try:
        client = distributed.Client(address, timeout=connect_timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise TabletopError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        workers = sum(client.nthreads().values()) or 1
        chunks = plan_chunks(study, chunk_size or default_chunk_size(study.planned, workers))
        results.expect(chunks)
        tag = uuid.uuid4().hex[:12]  # keys unique to this study on a shared scheduler
        futures = client.map(play_chunk, chunks, pure=False,
                             key=[f"tabletop-{tag}-{c.setting_index}-{c.start}" for c in chunks])
        outstanding = set(futures)
        try:
            for future in distributed.as_completed(futures, loop=client.loop):
                result = future.result()
                outstanding.discard(future)
                future.release()  # kept results would be played again if their worker died
                results.append(result)
                tell(len(result.rows))
        except KeyboardInterrupt:
            client.cancel(list(outstanding))
            raise
        except Exception as exc:
            if isinstance(exc, TabletopError):
                raise
            raise TabletopError(f"a chunk of games failed on the cluster: "
                                f"{type(exc).__name__}: {exc}") from None
    finally:
        client.close()
