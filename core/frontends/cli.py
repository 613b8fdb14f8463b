"""The ``tabletop`` command line: list, info, play, resume, replay, render, simulate, report,
rules, validate, new, schema, serve.

Every error is one line on standard error and a non-zero exit; no traceback.

The engine's modules (matches, records, views, data files) are imported by the commands that
use them, not here, so that ``tabletop list`` and ``tabletop --version`` start quickly.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..engine.errors import ReplayDivergence, TabletopError
from ..engine.registry import agent_names, listing, load_game, make_agent, registered

if TYPE_CHECKING:
    from ..engine.agents import Agent
    from ..engine.canonical import JSON
    from ..engine.match import Game, Match

EXIT_ERROR = 2
EXIT_DIVERGED = 1
SEED_LIMIT = 2**63
"""Seeds are whole numbers from 0 to SEED_LIMIT - 1 (what fits a signed 64-bit field)."""


class SeedType(click.ParamType):  # type: ignore[type-arg]
    """A random seed: a whole number from 0 to 2**63 - 1, refused otherwise in one line."""

    name = "SEED"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        """The seed as an int, or a usage error that says what a seed may be."""
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if not re.fullmatch("[0-9]+", text):
                self.fail(f"{value!r} is not a seed: a seed is a whole number from 0 to "
                          f"{SEED_LIMIT - 1}", param, ctx)
            number = int(text)
        if not 0 <= number < SEED_LIMIT:
            self.fail(f"{value!r} is out of range: a seed is a whole number from 0 to "
                      f"{SEED_LIMIT - 1}", param, ctx)
        return number


SEED = SeedType()


def _print_error(message: str, code: int) -> int:
    """Print an error as one line on standard error (any line breaks in it joined) and
    return the exit code."""
    click.echo("error: " + " ".join(str(message).split()), err=True)
    return code


def _parse_pairs(pairs: Sequence[str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key or not value:
            raise click.BadParameter(f"{what} {pair!r} must look like NAME=VALUE")
        out[key] = value
    return out


def _parse_options(pairs: Sequence[str]) -> dict[str, JSON]:
    out: dict[str, JSON] = {}
    for key, raw in _parse_pairs(pairs, "--option").items():
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out


def _game_of(record: dict[str, Any], game_dirs: Sequence[str] = ()) -> Game:
    """The game a record is for, by its id: an installed game or one of the ``--game-dir``
    folders; nothing the record says is imported (see registry.game_for_record)."""
    from ..engine.record import game_of_record

    return game_of_record(record, game_dirs)


def _game_dir_option(f: Any) -> Any:
    """The ``--game-dir FOLDER`` option of the commands that read a record."""
    return click.option("--game-dir", "game_dirs", multiple=True, metavar="FOLDER",
                        type=click.Path(file_okay=False),
                        help="A game folder the record's game may come from (by its id), "
                             "besides the installed games; repeatable.")(f)


def _agents(game: Game, specs: Mapping[str, str], *, auto: bool, seed: int) -> dict[str, Agent | None]:
    """One agent per side; None marks a side played by a person at the terminal."""
    info = game.info
    for side in specs:
        if side not in info.players:
            raise TabletopError(f"game {info.id} has no side {side!r} (sides: {', '.join(info.players)})")
    human = info.human_side or info.players[0]
    agents: dict[str, Agent | None] = {}
    for side in info.players:
        name = specs.get(side) or ("human" if side == human and not auto else game.default_bot(side))
        agents[side] = None if name == "human" else make_agent(game, side, name, seed)
    return agents


class Hangup(Exception):
    """The terminal was closed (SIGHUP) during a person's game."""


class Interrupted(TabletopError):
    """A person's game was interrupted (Ctrl-C, a closed terminal); it is kept in its save."""


def _on_hangup(signum: int, frame: Any) -> None:
    raise Hangup()


def _run(match: Match, agents: Mapping[str, Agent | None], *, save: str | None, quiet: bool,
         show_from: int = 0, autosave: bool | Path = True, started: str | None = None) -> bool:
    """Play until the end or until a person quits; returns False when the person quit.

    In a person's game the match is kept in ``save``, else in an autosave file: ``autosave``
    names the one to go on with (a resumed game's), or True makes a new one for this game
    (see :mod:`tabletop.core.frontends.saves`; no other game's file is touched). It is written after
    every decision the person takes and before every prompt, so Ctrl-C, a closed terminal or
    a crash lose at most the person's decision being made; nothing is written after an
    interruption, when the state may be half-changed. A finished game's file is kept, marked
    finished.
    """
    import signal

    from .saves import new_autosave_path
    from .terminal import QuitGame, TerminalSession

    humans = {side for side, agent in agents.items() if agent is None}
    session = None
    if humans:
        auto_file = None
        if not save and autosave is not False:
            auto_file = autosave if isinstance(autosave, Path) else new_autosave_path(match)
        session = TerminalSession(match, humans, save_path=save, show_from=show_from,
                                  autosave=auto_file, started=started)
    kept = session.autosave_file if session else None
    previous = signal.signal(signal.SIGHUP, _on_hangup) if session and hasattr(signal, "SIGHUP") else None
    try:
        if session is not None:
            session.autosave()
        while match.pending is not None:
            decision = match.pending
            agent = agents.get(decision.player)
            if agent is None:
                if session is None:
                    raise TabletopError(f"no agent for side {decision.player!r}")
                index = session.ask(decision)
                if index is not None:  # None: the match moved (undo); read the pending decision again
                    match.decide_index(index)
                    session.decided(decision.player)
            else:
                match.decide(agent.choose(match.view(decision.player), decision))
        if session is not None:
            session.autosave()  # the end of the game: kept, marked finished
        elif isinstance(autosave, Path) and not save:  # a kept game the bots played on
            from .saves import now_text, write_autosave

            write_autosave(match, autosave, started=started or now_text(), people=())
    except QuitGame:
        click.echo("quit" + (f"; saved to {kept} (resume: tabletop resume {kept})" if kept else ""),
                   err=quiet)
        return False
    except (KeyboardInterrupt, Hangup):
        if kept is None:
            raise
        raise Interrupted(f"interrupted; the game is kept in {kept} "
                          f"(resume: tabletop resume {kept})") from None
    finally:
        if previous is not None:
            signal.signal(signal.SIGHUP, previous)
    if session is not None:
        session.show_new_events()
    return True


def _outcome(match: Match) -> dict[str, JSON]:
    result = match.result
    out: dict[str, JSON] = {
        "game": match.game.info.id,
        "scenario": match.scenario,
        "seed": match.seed,
        "options": dict(match.options),
        "finished": match.finished,
        "winner": result.winner if result else None,
        "result": result.level if result else None,
        "section": result.section if result else None,
        "reason": result.reason if result else None,
        "turns": match.state.turn,
        "decisions": len(match.decisions),
        "events": len(match.log),
        "state_hash": match.state_hash(),
    }
    if result:
        out["scores"] = dict(result.scores)
        for key, value in result.scores.items():
            out.setdefault(key, value)
    for key, value in match.game.summary(match).items():
        out.setdefault(key, value)
    return out


def _check_outputs(**paths: str | None) -> None:
    """Files the command will write (by option name): each must be writable where it is named,
    checked before any game is played, so that a typo does not throw the work away."""
    for option, path in paths.items():
        if not path or path == "-":
            continue
        target = Path(path)
        parent = target.parent if str(target.parent) else Path(".")
        if target.is_dir():
            raise TabletopError(f"--{option.replace('_', '-')} {path}: is a directory, not a file")
        if not parent.is_dir():
            raise TabletopError(f"--{option.replace('_', '-')} {path}: no directory {parent} to write it in")


def _check_log_for(game: Game, log_path: str | None, log_for: str | None) -> None:
    """--log-for names one of the game's sides and goes with --log (checked before play)."""
    if log_for is None:
        return
    if log_for not in game.info.players:
        raise TabletopError(f"game {game.info.id} has no side {log_for!r} for --log-for "
                            f"(sides: {', '.join(game.info.players)})")
    if not log_path:
        raise TabletopError("--log-for needs --log FILE (where to write that side's log)")


def _side_saves(game: Game, pairs: Sequence[str]) -> dict[str, str]:
    """``--save-for SIDE=FILE`` pairs, each side checked and each file writable."""
    out = _parse_pairs(pairs, "--save-for")
    for side in out:
        if side not in game.info.players:
            raise TabletopError(f"--save-for: game {game.info.id} has no side {side!r} "
                                f"(sides: {', '.join(game.info.players)})")
    for path in out.values():
        _check_outputs(save_for=path)
    return out


def _finish(match: Match, *, save: str | None, log: str | None, as_json: bool, completed: bool,
            log_for: str | None = None, save_for: Mapping[str, str] | None = None) -> None:
    from ..engine.files import atomic_write_text
    from ..engine.resume import write_save
    from ..engine.views import make_side_save

    if save:
        write_save(match, save)
    for side, path in (save_for or {}).items():
        atomic_write_text(path, json.dumps(make_side_save(match, side), indent=1, ensure_ascii=False) + "\n")
    if log:
        match.log.write(log, log_for)
    if as_json:
        click.echo(json.dumps(_outcome(match), sort_keys=True))
    elif completed and match.result:
        r = match.result
        who = r.winner or "nobody"
        click.echo(f"Game over after turn {match.state.turn}: {r.level} "
                   f"(winner: {who}; {match.game.cite(r.section)})")
        if r.reason:
            click.echo(f"  {r.reason}")
        if r.scores:
            click.echo("  " + ", ".join(f"{k} {v}" for k, v in r.scores.items()))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tabletop-engine", prog_name="tabletop")
def cli() -> None:
    """tabletop: play, replay, render and simulate board wargames."""


@cli.command("list")
def list_games() -> None:
    """List the registered games."""
    for name, ep in sorted(registered().items()):
        try:
            entry = listing(name, ep)  # from the game's game.toml, without importing it
        except TabletopError as exc:
            click.echo(f"{name:<12} (broken plugin: {exc})")
            continue
        status = "" if entry.playable else "  [not yet playable]"
        click.echo(f"{name:<12} {entry.title}{status}")


def _typed(value: Any) -> str:
    """An option value as a player types it after ``--option NAME=``: text as it is, any
    other value as JSON (``true``, ``6``)."""
    return value if isinstance(value, str) else json.dumps(value)


@cli.command()
@click.argument("game_name", metavar="GAME")
def info(game_name: str) -> None:
    """Describe a game: sides, scenarios, options, bots."""
    game = load_game(game_name)
    gi = game.info
    click.echo(f"{gi.title} ({gi.id} {gi.version}){'' if gi.playable else '  [not yet playable]'}")
    if gi.description:
        click.echo(gi.description)
    click.echo(f"sides: {', '.join(gi.players)}" + (f" (you play {gi.human_side})" if gi.human_side else ""))
    click.echo("scenarios: " + "; ".join(f"{s.id} — {s.name}" for s in gi.scenarios))
    for opt in gi.options:
        default = _typed(opt.default) if opt.default not in ({}, [], "", None) else "none"
        click.echo(f"option {opt.id} — {opt.description} (default {default})")
        if opt.labels:
            for c in opt.choices:
                click.echo(f"    {_typed(c)}: {opt.label_of(c)}")
        elif opt.choices:
            click.echo(f"    one of {', '.join(_typed(c) for c in opt.choices)}")
    click.echo("agents: " + ", ".join(sorted(agent_names(game))))
    if gi.rulebook:
        click.echo(f"rulebook: {gi.rulebook}")


def _common_play_options(f: Any) -> Any:
    f = click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the outcome.")(f)
    f = click.option("--log-for", "log_for", default=None, metavar="SIDE",
                     help="Write to --log only the events SIDE may see (default: all of them).")(f)
    f = click.option("--log", "log_path", type=click.Path(dir_okay=False),
                     help="Write the event log (JSONL).")(f)
    f = click.option("--save", "save_path", type=click.Path(dir_okay=False), help="Save the match here.")(f)
    f = click.option("--save-for", "save_for", multiple=True, metavar="SIDE=FILE",
                     help="Also write what SIDE may see (no seed, its view and log), for play by "
                          "e-mail; repeatable.")(f)
    f = click.option("--auto", is_flag=True, help="Every side is a bot; run to the end.")(f)
    f = click.option("--agent", "agent_specs", multiple=True, metavar="SIDE=NAME",
                     help="Who plays a side: human, random, first, greedy (the game's ai.yaml a "
                          "step ahead), mcts[:OPTIONS] (the search; see docs/simulation.md), or "
                          "a game bot.")(f)
    return f


@cli.command()
@click.argument("game_name", metavar="GAME")
@click.option("--scenario", default=None, help="Scenario id (see tabletop info).")
@click.option("--seed", type=SEED, default=None,
              help="Random seed, 0 to 2**63-1 (default: a fresh one, printed).")
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE", help="A game option.")
@click.option("--position", "position_path", type=click.Path(dir_okay=False), default=None,
              help="Start from this position file (YAML/JSON; it names scenario and options).")
@click.option("--free-undo", is_flag=True,
              help="Let undo go back past dice and reveals (the record says so; dice are keyed "
                   "by the position in the game).")
@_common_play_options
def play(game_name: str, scenario: str | None, seed: int | None, option_pairs: tuple[str, ...],
         position_path: str | None, free_undo: bool, agent_specs: tuple[str, ...], auto: bool,
         save_path: str | None, save_for: tuple[str, ...], log_path: str | None,
         log_for: str | None, as_json: bool) -> None:
    """Play GAME: against its AI or bots, hot-seat, or bots only with --auto."""
    from ..engine.match import Match

    game = load_game(game_name)
    if not game.info.playable:
        raise TabletopError(f"game {game.info.id} is not playable yet")
    _check_log_for(game, log_path, log_for)
    _check_outputs(save=save_path, log=log_path)
    side_saves = _side_saves(game, save_for)
    if position_path is not None:
        match = _match_from_position(game, position_path, scenario=scenario, seed=seed,
                                     options=option_pairs, free_undo=free_undo)
        seed = match.seed
    fresh_seed = seed is None
    if seed is None:
        import secrets

        seed = secrets.randbelow(2**31)
    agents = _agents(game, _parse_pairs(agent_specs, "--agent"), auto=auto, seed=seed)
    if position_path is None:
        match = Match(game, scenario=scenario, seed=seed, options=_parse_options(option_pairs),
                      free_undo=free_undo)
    if fresh_seed and not as_json:
        click.echo(f"seed {seed}")  # once the match has started: an error is shown alone
    completed = _run(match, agents, save=save_path, quiet=as_json)
    _finish(match, save=save_path, log=log_path, as_json=as_json, completed=completed, log_for=log_for,
            save_for=side_saves)


def _match_from_position(game: Game, path: str, *, scenario: str | None, seed: int | None,
                         options: Sequence[str], free_undo: bool = False) -> Match:
    """``play --position``: the match from a position file (its seed replaced by --seed)."""
    from ..engine.match import Match
    from ..engine.position import PositionError, load_position

    if scenario is not None or options:
        raise TabletopError("--position names the scenario and options itself; drop "
                            "--scenario and --option")
    position = load_position(path)
    if position.game != game.info.id:
        raise PositionError(f"{path}: game: the position is for {position.game!r}, not "
                            f"{game.info.id!r}")
    if seed is not None:
        position = position.model_copy(update={"seed": seed})
    return Match.from_position(game, position, source=path, free_undo=free_undo)


@cli.command()
@click.argument("save_file", metavar="[N | SAVE_FILE]", type=click.Path(dir_okay=False), required=False)
@click.option("--list", "list_only", is_flag=True,
              help="List the kept games (newest first) and resume none.")
@click.option("--verify", "verify", is_flag=True,
              help="Rebuild the save by replaying all its decisions and check everything it "
                   "states, its restore point included (slower; its log file is not read).")
@click.option("--no-verify", "no_verify", is_flag=True,
              help="Rebuild the save by replay without verifying it (a save made by an older tabletop).")
@_common_play_options
@_game_dir_option
def resume(save_file: str | None, list_only: bool, verify: bool, no_verify: bool,
           agent_specs: tuple[str, ...], auto: bool, save_path: str | None,
           save_for: tuple[str, ...], log_path: str | None, log_for: str | None, as_json: bool,
           game_dirs: tuple[str, ...]) -> None:
    """Resume a saved match and play on: from its restore point, checked against the hashes
    it states (--verify: by a replay of all its decisions, checking everything). Without
    SAVE_FILE: the only unfinished autosaved game, else the one chosen from the list; N: the
    list's game N."""
    from ..engine.record import read_record
    from ..engine.resume import resume as resume_save
    from .saves import is_autosave, started_of

    if verify and no_verify:
        raise TabletopError("--verify and --no-verify contradict each other: give one of them")
    if list_only:
        if save_file is not None:
            raise TabletopError("--list lists the kept games: give it no game")
        _list_kept()
        return
    if save_file is None or (re.fullmatch("[0-9]+", save_file) and not Path(save_file).exists()):
        save_file = str(_choose_kept(None if save_file is None else int(save_file), quiet=as_json))
    record = read_record(save_file)
    game = _game_of(record, game_dirs)
    _check_log_for(game, log_path, log_for)
    _check_outputs(save=save_path, log=log_path)
    side_saves = _side_saves(game, save_for)
    match, how = resume_save(game, record, save_file,
                             verify=True if verify else False if no_verify else None)
    if no_verify:  # said once; the match goes on saved in the current, verifiable form
        click.echo(f"resumed {save_file} without verification", err=True)
    elif how.endswith("rebuilt by a verified replay"):
        click.echo(how, err=True)
    agents = _agents(game, _parse_pairs(agent_specs, "--agent"), auto=auto, seed=match.seed)
    # a resumed autosave goes on in its own file (and is kept, marked finished, at the end);
    # another save file is written after every decision as the --save file would be
    kept = is_autosave(save_file)
    target = save_path or (None if kept else save_file)
    completed = _run(match, agents, save=target, quiet=as_json, show_from=len(match.log) - 20,
                     autosave=Path(save_file) if kept else True,
                     started=started_of(save_file) if kept else None)
    _finish(match, save=target, log=log_path, as_json=as_json, completed=completed, log_for=log_for,
            save_for=side_saves)


@cli.command("replay")
@click.argument("record_file", type=click.Path(dir_okay=False))
@click.option("--log", "log_path", type=click.Path(dir_okay=False), help="Write the replayed log (JSONL).")
@click.option("--log-for", "log_for", default=None, metavar="SIDE",
              help="Write to --log only the events SIDE may see (default: all of them).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the outcome.")
@click.option("--no-verify", "no_verify", is_flag=True,
              help="Rebuild the match without checking what the record states (for records of "
                   "an older tabletop); never reported as verified.")
@_game_dir_option
def replay_cmd(record_file: str, log_path: str | None, log_for: str | None, as_json: bool,
               no_verify: bool, game_dirs: tuple[str, ...]) -> None:
    """Replay a record or save; exit 0 only if everything it states (header, decisions,
    result, counts, event-log and state hashes, snapshot) is what its replay gives."""
    from ..engine.record import read_record, replay

    record = read_record(record_file)
    game = _game_of(record, game_dirs)
    _check_log_for(game, log_path, log_for)
    _check_outputs(log=log_path)
    match = replay(game, record, verify=not no_verify)
    if not no_verify:
        from ..engine.resume import check_log_file

        wrong = check_log_file(record, record_file)
        if wrong is not None:
            raise ReplayDivergence(f"{record_file}: {wrong}; its record verifies: resume it "
                                   "with --verify, which writes its log file anew")
    if log_path:
        match.log.write(log_path, log_for)
    if as_json:
        click.echo(json.dumps({**_outcome(match), "verified": not no_verify}, sort_keys=True))
    else:
        said = "replayed without verification" if no_verify else "replay verified"
        click.echo(f"{said}: {len(match.decisions)} decisions, {len(match.log)} events, "
                   f"state {match.state_hash()[:16]}")


@cli.command()
@click.argument("game_name", metavar="[GAME]", required=False)
@click.option("--from", "from_save", type=click.Path(dir_okay=False),
              help="Draw this save's position (verified by replay; GAME may then be left out).")
@click.option("--scenario", default=None)
@click.option("--seed", type=SEED, default=0, help="Random seed, 0 to 2**63-1.")
@click.option("--for", "--side", "for_side", default=None,
              help="Draw what this side sees (hidden pieces face-down).")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="FILE.svg, FILE.txt (ASCII), or - for ASCII on the terminal.")
@_game_dir_option
def render(game_name: str | None, from_save: str | None, scenario: str | None, seed: int,
           for_side: str | None, output: str, game_dirs: tuple[str, ...]) -> None:
    """Draw GAME's map (with the pieces of a save, or of the opening set-up)."""
    if not (output == "-" or output.endswith((".txt", ".svg"))):
        raise TabletopError(f"output {output!r} must end in .svg or .txt, or be -")
    _check_outputs(output=output)
    from ..board.render import ascii as ascii_render
    from ..board.render import svg as svg_render
    from ..engine.match import Match
    from ..engine.record import read_record, replay

    if game_name is None and not from_save:
        raise TabletopError("name the GAME to draw (or a save to draw with --from)")
    record = read_record(from_save) if from_save else None
    game = load_game(game_name) if game_name is not None else _game_of(record or {}, game_dirs)
    match: Match | None = None
    if record is not None:
        if record["header"]["game"] != game.info.id:
            raise TabletopError(f"{from_save} is a {record['header']['game']} save, not {game.info.id}")
        match = replay(game, record)
    elif game.info.playable:
        match = Match(game, scenario=scenario, seed=seed)
    elif game.board(None) is None:
        raise TabletopError(f"game {game.info.id} has no map to draw yet")
    if output == "-" or output.endswith(".txt"):
        if match is None:
            raise TabletopError(f"game {game.info.id} has no map to draw yet")
        text = ascii_render.render_match(match, player=for_side)
        if output == "-":
            click.echo(text)
        else:
            from ..engine.files import atomic_write_text

            atomic_write_text(output, text)
        return
    svg = svg_render.render_game(game, match, hidden_from=for_side)
    from ..engine.files import atomic_write_text

    atomic_write_text(output, svg)
    click.echo(f"wrote {output}")


@cli.command()
@click.argument("game_name", metavar="GAME")
@click.option("-n", "count", type=click.IntRange(min=1), required=True, help="How many games (a setting).")
@click.option("--seed", type=SEED, default=1, help="First seed; games use seed, seed+1, ...")
@click.option("--scenario", default=None)
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=A[,B...]",
              help="A game option; several values are compared on the same seeds (a grid with others).")
@click.option("--agent", "agent_specs", multiple=True, metavar="SIDE=A[,B...]",
              help="The bot of a side; several names are compared on the same seeds "
                   "(an agent's options stay with it: US=heuristic,mcts:playouts=400,depth=60).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with every statistic.")
@click.option("--jobs", type=click.IntRange(min=1), default=1,
              help="Play in this many local processes (the results do not depend on it).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Play on a Dask distributed cluster, e.g. tcp://host:8786 (see docs/simulation.md).")
@click.option("--chunk-size", type=click.IntRange(min=1), default=None,
              help="Games a task (default: a few tasks a worker, at most 20 games each).")
@click.option("--rows", "rows_path", type=click.Path(dir_okay=False), default=None,
              help="Write one row a game here: .parquet, .csv, or JSON Lines (any other name).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def simulate(game_name: str, count: int, seed: int, scenario: str | None, option_pairs: tuple[str, ...],
             agent_specs: tuple[str, ...], as_json: bool, jobs: int, scheduler: str | None,
             chunk_size: int | None, rows_path: str | None, quiet: bool) -> int:
    """Play N bot games (under each setting) and print the statistics of the results."""
    from ..studies.rows import check_row_format, write_rows
    from ..studies.study import Study, plan_settings, progress_bar, run_study
    from ..studies.summary import format_summary, study_summary

    if seed + count > SEED_LIMIT:
        raise TabletopError(f"seeds {seed}..{seed + count - 1} run past the largest seed {SEED_LIMIT - 1}")
    game = load_game(game_name)
    if not game.info.playable:
        raise TabletopError(f"game {game.info.id} is not playable yet")
    if scheduler and jobs > 1:
        raise TabletopError("--jobs plays on this machine, --scheduler on a cluster: give one of them")
    game.info.scenario(scenario)
    settings = plan_settings(game, _parse_sweep(option_pairs, "--option", json_values=True),
                             _parse_sweep(agent_specs, "--agent", json_values=False))
    _check_outputs(rows=rows_path)
    if rows_path:
        check_row_format(rows_path)
    study = Study(game.source or game_name, scenario, seed, count, settings)
    with progress_bar(study.planned, quiet=quiet) as advance:
        run = run_study(study, jobs=jobs, scheduler=scheduler, chunk_size=chunk_size, progress=advance,
                        check_version=game.info.version)
    try:  # the rows are on disk (the run's files), read back as they are written out
        if rows_path:
            write_rows(rows_path, run.all_rows)
        summary = study_summary(run, game)
    finally:
        run.close()
    click.echo(json.dumps(summary, sort_keys=True) if as_json else format_summary(summary))
    if run.interrupted:
        click.echo(f"interrupted: kept the {run.games} games finished of {study.planned}"
                   + (f" (rows in {rows_path})" if rows_path else ""), err=True)
        return 130
    return 0


def _parse_sweep(pairs: Sequence[str], what: str, *, json_values: bool) -> dict[str, list[JSON]]:
    """NAME=A,B,C pairs as name -> values (one value: fixed; several: compared).

    An option value that is JSON as a whole (``[1,2]``) is one value; otherwise it is split on
    commas, each part read as JSON when it is (``27``, ``true``) and as text when not."""
    out: dict[str, list[JSON]] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key or not raw:
            raise click.BadParameter(f"{what} {pair!r} must look like NAME=VALUE or NAME=A,B,C")
        if key in out:
            raise click.BadParameter(f"{what} {key} is given twice; to compare values write {key}=A,B")
        if json_values:
            try:
                out[key] = [json.loads(raw)]
                continue
            except json.JSONDecodeError:
                pass
        parts = raw.split(",") if json_values else agent_list(raw)
        if any(not p for p in parts):
            raise click.BadParameter(f"{what} {pair!r} has an empty value")
        values: list[JSON] = [_json_or_text(p) if json_values else p for p in parts]
        if len({json.dumps(v, sort_keys=True) for v in values}) < len(values):
            raise click.BadParameter(f"{what} {pair!r} names a value twice")
        out[key] = values
    return out


def agent_list(raw: str) -> list[str]:
    """The agents of ``--agent SIDE=A,B,...``, each with its options: a part that is an
    option (``NAME=VALUE``: agent names hold no ``=``) belongs to the agent before it, so
    ``heuristic,mcts:playouts=400,seconds=0.5`` is two agents, ``heuristic`` and
    ``mcts:playouts=400,seconds=0.5``."""
    agents: list[str] = []
    for part in raw.split(","):
        if agents and "=" in part and ":" not in part and ":" in agents[-1]:
            agents[-1] += "," + part
        else:
            agents.append(part)
    return agents


def _json_or_text(raw: str) -> JSON:
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


@cli.command()
@click.argument("rows_file", metavar="ROWS", type=click.Path(dir_okay=False))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="The HTML page to write (plots embedded).")
@click.option("--plots", "plots_dir", type=click.Path(file_okay=False), default=None,
              help="Also write each plot into this folder.")
@click.option("--format", "plot_format", type=click.Choice(["png", "svg"]), default="png",
              help="The format of the --plots files.")
def report(rows_file: str, output: str, plots_dir: str | None, plot_format: str) -> None:
    """Write an HTML report (tables and plots) of a study's rows (from simulate --rows)."""
    from ..studies.report import write_report

    _check_outputs(output=output)
    for line in write_report(rows_file, output, plots_dir=plots_dir, plot_format=plot_format):
        click.echo(line)


@cli.command("sections")
@click.argument("rulebook", type=click.Path(dir_okay=False))
@click.option("-o", "--output", default=None, type=click.Path(dir_okay=False),
              help="Write data/sections.yaml here (default: print it).")
@click.option("--force", is_flag=True, help="Replace an existing --output file.")
def sections_cmd(rulebook: str, output: str | None, force: bool) -> None:
    """Draft a game's data/sections.yaml from its rulebook: every numbered heading and rule
    (``## 1.0 Components``, ``1.1 The map ...``, ``2.1 ...; 2.2 ...``), for `tabletop rules`."""
    from ..designer.coverage import draft_sections, sections_yaml
    from ..engine.files import atomic_write_text

    path = Path(rulebook)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TabletopError(f"{rulebook}: cannot read the rulebook ({exc})") from None
    found = draft_sections(text)
    if not found:
        raise TabletopError(f"{rulebook}: no numbered section found (a section starts a line, "
                            "or follows a ';', with its number: 1.0, 2.1, 2.1.3)")
    yaml_text = sections_yaml(found, path.name)
    if output is None:
        click.echo(yaml_text, nl=False)
        return
    if Path(output).exists() and not force:
        raise TabletopError(f"{output} exists: give --force to replace it")
    _check_outputs(output=output)
    atomic_write_text(output, yaml_text)
    click.echo(f"{output}: {len(found)} sections of {path.name} (check each title)")


@cli.command("rules")
@click.argument("game_name", metavar="GAME")
@click.option("--tests", "tests_dir", type=click.Path(file_okay=False), default=None,
              help="The game's tests folder (default: tests/games/GAME of the source tree).")
@click.option("-v", "--verbose", is_flag=True, help="List the hooks and tests of each section.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
@click.option("--rolls", "list_rolls", is_flag=True,
              help="List every roll GAME makes (its rolls.yaml): the keys tests force, "
                   "their dice, and the rulebook section of each.")
def rules(game_name: str, tests_dir: str | None, verbose: bool, as_json: bool,
          list_rolls: bool) -> None:
    """Print GAME's rule coverage: every section, the hooks citing it, the tests naming it;
    with --rolls, every roll it makes, its dice, its rule and the rulebook section holding
    it (with its title)."""
    from ..designer.coverage import (
        SECTIONS_FILE,
        coverage,
        find_tests_dir,
        load_sections,
        render,
        roll_lines,
        roll_rule,
    )
    from ..engine.dice import roll_purposes

    game = load_game(game_name)
    module = sys.modules.get(type(game).__module__)
    code_dir = Path(getattr(module, "__file__", "") or ".").parent
    if list_rolls:
        purposes = roll_purposes(game)
        if not purposes:
            raise TabletopError(f"game {game.info.id} ships no rolls.yaml: no list of its rolls")
        spec = load_sections(code_dir) if (code_dir / "data" / SECTIONS_FILE).is_file() else None
        if as_json:
            click.echo(json.dumps({"game": game.info.id, "rolls": [
                {"key": p.label(), "name": p.name, "section": p.section, "dice": p.dice,
                 "rule": roll_rule(p, spec)[0], "title": roll_rule(p, spec)[1],
                 "text": p.text or p.name, "rare": p.rare} for p in purposes]}, indent=1))
        else:
            for line in roll_lines(purposes, spec):
                click.echo(line)
        return
    if not (code_dir / "data" / "sections.yaml").is_file():
        raise TabletopError(f"game {game.info.id} ships no data/sections.yaml: no list of its "
                            "rulebook's sections to cover (draft it from the rulebook: "
                            "tabletop sections RULES.md -o data/sections.yaml)")
    tests = Path(tests_dir) if tests_dir else find_tests_dir(code_dir, game.info.id)
    rows, found = coverage(code_dir, tests)
    if as_json:
        click.echo(json.dumps({"game": game.info.id, "tests": str(tests) if tests else None,
                               "sections": [{"id": r.id, "title": r.title, "hooks": list(r.hooks),
                                             "tests": list(r.tests), "no_hook": r.no_hook,
                                             "no_test": r.no_test, "flags": r.flags}
                                            for r in rows],
                               "unknown_citations": found.unknown}, indent=1))
        return
    title = f"{game.info.id} — {game.info.title}: rule coverage (tests: {tests or 'not found'})"
    for line in render(title, rows, found, tests_known=tests is not None, verbose=verbose):
        click.echo(line)


@cli.command()
@click.argument("path")
@click.option("--game", "game_name", default=None, metavar="GAME",
              help="Check a single data file against this game's model for its file name.")
def validate(path: str, game_name: str | None) -> None:
    """Check a game's data files (a game name or folder) or one data file."""
    from ..designer.validation import validate_file, validate_path

    if game_name is not None:
        if not Path(path).is_file():
            raise TabletopError(f"--game checks one data file; {path} is not a file")
        game = load_game(game_name)
        lines = [validate_file(Path(path), game.data_models(), game=game)]
    else:
        lines = validate_path(path)
    for line in lines:
        click.echo(line)


@cli.command()
@click.argument("name")
@click.option("--dir", "parent", default=".", metavar="DIR",
              help="The folder to write the game's folder in (default: the current folder).")
def new(name: str, parent: str) -> None:
    """Write a new game plugin, the folder DIR/NAME: a small game that plays, validates and
    passes its tests as written, to change rule by rule (docs/designer-guide.md)."""
    from ..designer.scaffold import new_game

    folder = new_game(name, parent)
    click.echo(f"wrote {folder}: play it with `tabletop play {folder} --auto`, check it with "
               f"`tabletop validate {folder}`, test it with `pytest {folder / 'tests'}`")


@cli.command()
@click.argument("game_name", metavar="[GAME]", required=False)
@click.option("--model", "model_name", default=None, help="Only this model's schema.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None)
def schema(game_name: str | None, model_name: str | None, output: str | None) -> None:
    """Print the JSON Schema of the data-file models (for editors); with GAME, also the
    game's own data files' (by file name)."""
    from ..designer.validation import data_models, game_models

    models = game_models(load_game(game_name)) if game_name else data_models()
    if model_name is not None:
        if model_name not in models:
            raise TabletopError(f"no model {model_name!r} (models: {', '.join(sorted(models))})")
        models = {model_name: models[model_name]}
    doc = {name: m.model_json_schema() for name, m in sorted(models.items())}
    text = json.dumps(doc if model_name is None else doc[model_name], indent=2)
    if output:
        from ..engine.files import atomic_write_text

        atomic_write_text(output, text + "\n")
    else:
        click.echo(text)


@cli.command()
@click.argument("game_names", nargs=-1, metavar="[GAME]...")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=int, default=8000, show_default=True, help="Port to listen on.")
@click.option("--data", "data_dir", type=click.Path(file_okay=False), default=None,
              help="Folder for the autosaved matches (default: web/ in $TABLETOP_HOME, "
                   "else ~/.local/state/tabletop).")
@click.option("--allow-host", "allow", multiple=True, metavar="NAME",
              help="Another name or address the server answers to (besides localhost, "
                   "127.0.0.1, [::1] and --host), e.g. this machine's address on the network.")
def serve(game_names: tuple[str, ...], host: str, port: int, data_dir: str | None,
          allow: tuple[str, ...]) -> None:
    """Play and watch in the browser: a local web server (installed games, plus GAME folders)."""
    from .web.server import serve as run_server

    run_server(game_names, host=host, port=port, data_dir=data_dir, echo=click.echo, allow=allow)


def _list_kept() -> None:
    """``resume --list``: every kept game, newest first (the unfinished ones numbered)."""
    from .saves import autosave_dir, kept_games, listing

    games = kept_games()
    if not games:
        click.echo(f"no kept games in {autosave_dir()}")
        return
    click.echo(f"kept games in {autosave_dir()}, newest first (resume one: tabletop resume N):")
    for line in listing(games):
        click.echo(line)


def _choose_kept(number: int | None, *, quiet: bool) -> Path:
    """The autosave ``resume`` goes on with: game ``number`` of the list; without a number the
    only unfinished game, or the one the person picks from the list (at a terminal)."""
    from .saves import autosave_dir, kept_games, listing

    games = kept_games()
    open_games = [g for g in games if g.resumable]
    if number is not None:
        if not 1 <= number <= len(open_games):
            have = f"1 to {len(open_games)}" if open_games else "none"
            raise TabletopError(f"no kept game {number} (unfinished games: {have}; "
                                "see tabletop resume --list)")
        chosen = open_games[number - 1].path
    elif not open_games:
        finished = sum(1 for g in games if g.problem is None)
        more = f" ({finished} finished: tabletop resume --list)" if finished else ""
        raise TabletopError(f"no autosaved game to resume in {autosave_dir()}{more}; name a save file")
    elif len(open_games) == 1:
        chosen = open_games[0].path
    else:
        click.echo(f"unfinished games in {autosave_dir()}, newest first:", err=quiet)
        for line in listing(games):
            click.echo(line, err=quiet)
        if quiet or not _at_terminal():
            raise TabletopError(f"{len(open_games)} unfinished games: choose one with "
                                "tabletop resume N (its number above) or tabletop resume FILE")
        chosen = open_games[_pick(len(open_games)) - 1].path
    if not quiet:
        click.echo(f"resuming {chosen}")
    return chosen


def _at_terminal() -> bool:
    """Whether a person is at a terminal to answer (standard input and output both are one)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _pick(count: int) -> int:
    """Ask at the terminal which of ``count`` listed games to resume (a number from 1)."""
    while True:
        try:
            answer = input(f"resume which game? (1-{count}, q to leave) ").strip().lower()
        except EOFError:
            answer = "q"
        if answer in ("q", "quit"):
            raise TabletopError("no game chosen")
        if re.fullmatch("[0-9]+", answer) and 1 <= int(answer) <= count:
            return int(answer)
        click.echo(f"choose a number from 1 to {count}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; turn every failure into one line and an exit code."""
    args = list(argv) if argv is not None else sys.argv[1:]
    if not args:  # run bare: the usage, as help rather than as an error
        with click.Context(cli, info_name="tabletop") as ctx:
            click.echo(cli.get_help(ctx))
        return 0
    try:
        rv = cli.main(args=args, prog_name="tabletop",
                      standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.exceptions.Abort:
        return _print_error("interrupted", 130)
    except click.ClickException as exc:
        return _print_error(exc.format_message(), exc.exit_code or EXIT_ERROR)
    except ReplayDivergence as exc:
        return _print_error(f"replay diverges: {exc}", EXIT_DIVERGED)
    except Interrupted as exc:
        return _print_error(str(exc), 130)
    except TabletopError as exc:
        return _print_error(str(exc), EXIT_ERROR)
    except KeyboardInterrupt:
        return _print_error("interrupted", 130)
    except Exception as exc:  # a bug: still one line, with a way to see more
        if os.environ.get("TABLETOP_DEBUG"):
            raise
        where = "; ".join(getattr(exc, "__notes__", ()))
        where = f" in {where}" if where else ""
        return _print_error(f"internal error: {type(exc).__name__}: {exc}{where}. Please report "
                            "it with this line and the game's save or record (--save FILE; "
                            "set TABLETOP_DEBUG=1 for a traceback)", 3)
    return rv if isinstance(rv, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
