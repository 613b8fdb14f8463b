"""The ``tabletop`` command line: list, info, play, resume, replay, render, simulate, validate, schema.

Every error is one line on standard error and a non-zero exit; no traceback.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click

from .agents import Agent
from .canonical import JSON
from .errors import ReplayDivergence, TabletopError
from .match import Game, Match
from .record import atomic_write_text, read_record, replay, write_save
from .registry import load_game, make_agent, registered
from .views import make_side_save

EXIT_ERROR = 2
EXIT_DIVERGED = 1


def _print_error(message: str, code: int) -> int:
    click.echo(f"error: {message}", err=True)
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


def _game_of(record: dict[str, Any]) -> Game:
    header = record["header"]
    source = header.get("source")
    return load_game(source if isinstance(source, str) and source else header["game"])


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


def _run(match: Match, agents: Mapping[str, Agent | None], *, save: str | None, quiet: bool,
         show_from: int = 0) -> bool:
    """Play until the end or until a person quits; returns False when the person quit."""
    from .terminal import QuitGame, TerminalSession

    humans = {side for side, agent in agents.items() if agent is None}
    session = TerminalSession(match, humans, save_path=save, show_from=show_from) if humans else None
    try:
        while match.pending is not None:
            decision = match.pending
            agent = agents.get(decision.player)
            if agent is None:
                if session is None:
                    raise TabletopError(f"no agent for side {decision.player!r}")
                index = session.ask(decision)
                if index is not None:  # None: the match moved (undo); read the pending decision again
                    match.decide_index(index)
            else:
                match.decide(agent.choose(match.view(decision.player), decision))
    except QuitGame:
        click.echo("quit" + (f"; saved to {save}" if save else ""), err=quiet)
        return False
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
        click.echo(f"Game over after turn {match.state.turn}: {r.level} (winner: {who}; rule {r.section})")
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
            game = load_game(name)
        except TabletopError as exc:
            click.echo(f"{name:<12} (broken plugin: {exc})")
            continue
        status = "" if game.info.playable else "  [not yet playable]"
        click.echo(f"{name:<12} {game.info.title}{status}")
        del ep


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
        choices = f" {list(opt.choices)}" if opt.choices else ""
        click.echo(f"option {opt.id}={opt.default!r}{choices}: {opt.description}")
    click.echo("agents: " + ", ".join(sorted({*game.bots(), "random", "first", "human"})))
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
                     help="Who plays a side: human, random, first, or a game bot.")(f)
    return f


@cli.command()
@click.argument("game_name", metavar="GAME")
@click.option("--scenario", default=None, help="Scenario id (see tabletop info).")
@click.option("--seed", type=int, default=None, help="Random seed (default: a fresh one, printed).")
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE", help="A game option.")
@_common_play_options
def play(game_name: str, scenario: str | None, seed: int | None, option_pairs: tuple[str, ...],
         agent_specs: tuple[str, ...], auto: bool, save_path: str | None, save_for: tuple[str, ...],
         log_path: str | None, log_for: str | None, as_json: bool) -> None:
    """Play GAME: against its AI or bots, hot-seat, or bots only with --auto."""
    game = load_game(game_name)
    if not game.info.playable:
        raise TabletopError(f"game {game.info.id} is not playable yet")
    _check_log_for(game, log_path, log_for)
    _check_outputs(save=save_path, log=log_path)
    side_saves = _side_saves(game, save_for)
    if seed is None:
        seed = secrets.randbelow(2**31)
        if not as_json:
            click.echo(f"seed {seed}")
    agents = _agents(game, _parse_pairs(agent_specs, "--agent"), auto=auto, seed=seed)
    match = Match(game, scenario=scenario, seed=seed, options=_parse_options(option_pairs))
    completed = _run(match, agents, save=save_path, quiet=as_json)
    _finish(match, save=save_path, log=log_path, as_json=as_json, completed=completed, log_for=log_for,
            save_for=side_saves)


@cli.command()
@click.argument("save_file", type=click.Path(dir_okay=False))
@_common_play_options
def resume(save_file: str, agent_specs: tuple[str, ...], auto: bool, save_path: str | None,
           save_for: tuple[str, ...], log_path: str | None, log_for: str | None, as_json: bool) -> None:
    """Resume a saved match (checked by replay) and play on."""
    record = read_record(save_file)
    game = _game_of(record)
    _check_log_for(game, log_path, log_for)
    _check_outputs(save=save_path, log=log_path)
    side_saves = _side_saves(game, save_for)
    match = replay(game, record)
    agents = _agents(game, _parse_pairs(agent_specs, "--agent"), auto=auto, seed=match.seed)
    target = save_path or save_file
    completed = _run(match, agents, save=target, quiet=as_json, show_from=len(match.log) - 20)
    _finish(match, save=target, log=log_path, as_json=as_json, completed=completed, log_for=log_for,
            save_for=side_saves)


@cli.command("replay")
@click.argument("record_file", type=click.Path(dir_okay=False))
@click.option("--log", "log_path", type=click.Path(dir_okay=False), help="Write the replayed log (JSONL).")
@click.option("--log-for", "log_for", default=None, metavar="SIDE",
              help="Write to --log only the events SIDE may see (default: all of them).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the outcome.")
def replay_cmd(record_file: str, log_path: str | None, log_for: str | None, as_json: bool) -> None:
    """Replay a record or save; exit 0 only if it reproduces the recorded state."""
    record = read_record(record_file)
    game = _game_of(record)
    _check_log_for(game, log_path, log_for)
    _check_outputs(log=log_path)
    match = replay(game, record)
    if log_path:
        match.log.write(log_path, log_for)
    if as_json:
        click.echo(json.dumps({**_outcome(match), "verified": True}, sort_keys=True))
    else:
        click.echo(f"replay verified: {len(match.decisions)} decisions, {len(match.log)} events, "
                   f"state {match.state_hash()[:16]}")


@cli.command()
@click.argument("game_name", metavar="GAME")
@click.option("--from", "from_save", type=click.Path(dir_okay=False), help="Draw this save's position.")
@click.option("--scenario", default=None)
@click.option("--seed", type=int, default=0)
@click.option("--for", "--side", "for_side", default=None,
              help="Draw what this side sees (hidden pieces face-down).")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="FILE.svg, FILE.txt (ASCII), or - for ASCII on the terminal.")
def render(game_name: str, from_save: str | None, scenario: str | None, seed: int,
           for_side: str | None, output: str) -> None:
    """Draw GAME's map (with the pieces of a save, or of the opening set-up)."""
    if not (output == "-" or output.endswith((".txt", ".svg"))):
        raise TabletopError(f"output {output!r} must end in .svg or .txt, or be -")
    _check_outputs(output=output)
    from .render import ascii as ascii_render
    from .render import svg as svg_render

    game = load_game(game_name)
    match: Match | None = None
    if from_save:
        record = read_record(from_save)
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
            from .record import atomic_write_text

            atomic_write_text(output, text)
        return
    svg = svg_render.render_game(game, match, hidden_from=for_side)
    from .record import atomic_write_text

    atomic_write_text(output, svg)
    click.echo(f"wrote {output}")


@cli.command()
@click.argument("game_name", metavar="GAME")
@click.option("-n", "count", type=click.IntRange(min=1), required=True, help="How many games.")
@click.option("--seed", type=int, default=1, help="First seed; games use seed, seed+1, ...")
@click.option("--scenario", default=None)
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE")
@click.option("--agent", "agent_specs", multiple=True, metavar="SIDE=NAME")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the distribution.")
@click.option("--jobs", type=click.IntRange(min=1), default=1,
              help="Play in this many processes (the results do not depend on it).")
@click.option("--rows", "rows_path", type=click.Path(dir_okay=False), default=None,
              help="Also write one JSON line a game (seed, result, winner, turns, scores) here.")
def simulate(game_name: str, count: int, seed: int, scenario: str | None, option_pairs: tuple[str, ...],
             agent_specs: tuple[str, ...], as_json: bool, jobs: int, rows_path: str | None) -> None:
    """Play N games with bots and print the distribution of results."""
    game = load_game(game_name)
    specs = _parse_pairs(agent_specs, "--agent")
    options = _parse_options(option_pairs)
    _agents(game, specs, auto=True, seed=seed)  # check the sides and agent names up front
    game.info.resolve_options(options)
    _check_outputs(rows=rows_path)
    levels: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    score_sums: dict[str, float] = {}
    turns = 0
    work = [(game_name, scenario, s, options, specs) for s in range(seed, seed + count)]
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            outcomes = list(pool.map(_simulate_one, work, chunksize=max(1, count // (4 * jobs))))
    else:
        outcomes = [_simulate_one(job, game) for job in work]
    score_values: dict[str, list[float]] = {}
    for level, winner, turn, scores in outcomes:  # in seed order, whatever the jobs
        levels[level] += 1
        winners[winner if winner is not None else "draw"] += 1
        turns += turn
        for key, value in scores.items():
            score_sums[key] = score_sums.get(key, 0.0) + value
            score_values.setdefault(key, []).append(value)
    if rows_path:
        from .canonical import dumps
        from .record import atomic_write_text

        atomic_write_text(rows_path, "".join(
            dumps({"seed": s, "result": level, "winner": winner, "turns": turn, "scores": scores}) + "\n"
            for s, (level, winner, turn, scores) in zip(range(seed, seed + count), outcomes, strict=True)))
    summary: dict[str, JSON] = {
        "game": game.info.id, "scenario": game.info.scenario(scenario).id, "games": count,
        "seeds": [seed, seed + count - 1], "options": game.info.resolve_options(options),
        "results": dict(levels.most_common()), "winners": dict(winners.most_common()),
        "mean_turns": round(turns / count, 3),
        # each score over the games whose result gives it (a draw may give none)
        "mean_scores": {k: round(v / len(score_values[k]), 3) for k, v in sorted(score_sums.items())},
        "score_spread": {k: _spread(v) for k, v in sorted(score_values.items())},
    }
    if as_json:
        click.echo(json.dumps(summary, sort_keys=True))
        return
    click.echo(f"{count} games of {game.info.id}, seeds {seed}..{seed + count - 1}")
    for level, n in levels.most_common():
        click.echo(f"  {level:<40} {n:>6}  {100 * n / count:5.1f}%")
    click.echo("  winners: " + ", ".join(f"{w} {n}" for w, n in winners.most_common()))
    click.echo(f"  mean turns {turns / count:.2f}")
    for key, value in sorted(score_sums.items()):
        spread = _spread(score_values[key])
        some = f", {spread['n']:g} of {count} games" if spread["n"] < count else ""
        click.echo(f"  mean {key} {value / spread['n']:.3f}  (sd {spread['sd']}, "
                   f"{spread['min']}..{spread['max']}{some})")


def _spread(values: list[float]) -> dict[str, float]:
    """A score's spread over the games that give it: how many, population standard deviation,
    least, greatest."""
    import statistics

    return {"n": len(values), "sd": round(statistics.pstdev(values), 3), "min": min(values),
            "max": max(values)}


def _simulate_one(job: tuple[str, str | None, int, dict[str, JSON], dict[str, str]],
                  game: Game | None = None) -> tuple[str, str | None, int, dict[str, float]]:
    """Play one bot game of a simulation: (result level, winner or None, turns, numeric scores)."""
    game_name, scenario, seed, options, specs = job
    game = game or load_game(game_name)
    agents = _agents(game, specs, auto=True, seed=seed)
    match = Match(game, scenario=scenario, seed=seed, options=options)
    result = match.run({k: v for k, v in agents.items() if v is not None})
    assert result is not None
    scores = {k: float(v) for k, v in result.scores.items()
              if isinstance(v, int | float) and not isinstance(v, bool)}
    return result.level, result.winner, match.state.turn, scores


@cli.command()
@click.argument("path")
def validate(path: str) -> None:
    """Check a game's data files (a game name or folder) or one data file."""
    from .validation import validate_path

    for line in validate_path(path):
        click.echo(line)


@cli.command()
@click.option("--model", "model_name", default=None, help="Only this model's schema.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None)
def schema(model_name: str | None, output: str | None) -> None:
    """Print the JSON Schema of the data-file models (for editors)."""
    from .validation import data_models

    models = data_models()
    if model_name is not None:
        if model_name not in models:
            raise TabletopError(f"no model {model_name!r} (models: {', '.join(sorted(models))})")
        models = {model_name: models[model_name]}
    doc = {name: m.model_json_schema() for name, m in sorted(models.items())}
    text = json.dumps(doc if model_name is None else doc[model_name], indent=2)
    if output:
        from .record import atomic_write_text

        atomic_write_text(output, text + "\n")
    else:
        click.echo(text)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; turn every failure into one line and an exit code."""
    try:
        rv = cli.main(args=list(argv) if argv is not None else None, prog_name="tabletop",
                      standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.exceptions.Abort:
        return _print_error("interrupted", 130)
    except click.ClickException as exc:
        return _print_error(exc.format_message(), exc.exit_code or EXIT_ERROR)
    except ReplayDivergence as exc:
        return _print_error(f"replay diverges: {exc}", EXIT_DIVERGED)
    except TabletopError as exc:
        return _print_error(str(exc), EXIT_ERROR)
    except KeyboardInterrupt:
        return _print_error("interrupted", 130)
    except Exception as exc:  # a bug: still one line, with a way to see more
        if os.environ.get("TABLETOP_DEBUG"):
            raise
        return _print_error(f"internal error: {type(exc).__name__}: {exc} "
                            "(set TABLETOP_DEBUG=1 for a traceback)", 3)
    return rv if isinstance(rv, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
