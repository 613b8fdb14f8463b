"""Test harness every game plugin reuses: a hypothesis state machine and a conformance check.

The state machine drives a game with random legal decisions, checks the game's declared
invariants after every decision, offers illegal answers that must change nothing, and at
the end replays the record to the same state hash. Requires hypothesis (a dev dependency).
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from collections.abc import Generator, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from ..engine.agents import decision_kinds_of
from ..engine.canonical import JSON, dumps
from ..engine.decisions import Decision, asks_digest
from ..engine.dice import (
    ForcedRoll,
    RollPurpose,
    ScriptedDice,
    StackedShuffle,
    force,
    purpose_of,
    roll_purposes,
    stack,
)
from ..engine.errors import IllegalDecision
from ..engine.events import unstated_numbers
from ..engine.match import Game, Match
from ..engine.pieces import OFF_BOARD
from ..engine.position import Position, load_position
from ..engine.record import make_record, make_save, read_record, replay
from ..engine.resume import resume, write_save
from ..engine.visibility import find_leaks, secrets_of

__all__ = [
    "OFF_BOARD", "InvariantBroken", "Position", "answer", "check_agent_read_only",
    "check_conformance", "check_decision_kinds", "check_dice_used", "check_event_numbers",
    "check_forks", "check_golden", "check_invariants", "check_replay", "check_resume",
    "check_rolls_declared", "check_search_leaks", "event_number_gaps", "force",
    "game_state_machine", "golden_games", "load_position", "play_random_game", "random_step",
    "rolls", "run_procedure", "stack", "start", "texts", "undeclared_rolls",
]

T = TypeVar("T")


class InvariantBroken(AssertionError):
    """A game invariant failed after a decision; the message names the decision and the rule."""


def check_invariants(match: Match, where: str = "") -> None:
    """Raise InvariantBroken if the game reports any broken invariant."""
    problems = match.game.invariants(match)
    if problems:
        at = f" after decision {len(match.decisions)}{' (' + where + ')' if where else ''}"
        raise InvariantBroken(f"{match.game.info.id} seed {match.seed}{at}: " + "; ".join(problems[:5]))


def random_step(match: Match, rng: random.Random) -> None:
    """Take one uniformly random legal option of the pending decision."""
    assert match.pending is not None
    match.decide_index(rng.randrange(len(match.pending.options)))


def play_random_game(game: Game, seed: int, *, scenario: str | None = None,
                     options: Mapping[str, JSON] | None = None, max_decisions: int = 100_000,
                     check_every: int = 1, asked: dict[str, set[str]] | None = None) -> Match:
    """Play one whole game with random legal decisions, checking invariants as it goes;
    ``asked``, when given, gathers the kinds of decision asked of each side."""
    match = Match(game, scenario=scenario, seed=seed, options=options)
    rng = random.Random(f"play_random_game:{seed}")
    check_invariants(match, "set-up")
    while match.pending is not None and len(match.decisions) < max_decisions:
        if asked is not None:
            asked.setdefault(match.pending.player, set()).add(match.pending.kind)
        random_step(match, rng)
        if len(match.decisions) % check_every == 0:
            check_invariants(match)
    check_invariants(match, "end")
    return match


def check_conformance(game: Game, seeds: range = range(3), *, scenario: str | None = None,
                      options: Mapping[str, JSON] | None = None, max_decisions: int = 100_000) -> None:
    """The API test every game passes (like OpenSpiel's api_test).

    For each seed: a random game ends (within ``max_decisions``) with a result; the same
    seed and decisions replay byte for byte (events and state hash); the save file's JSON
    round-trips and resumes to the same hash; every view is JSON-serialisable; an illegal
    decision is refused without changing the state; and the kinds of decision asked are
    those the game declares, each answered by its bots (:func:`check_decision_kinds`).
    """
    asked: dict[str, set[str]] = {}
    for seed in seeds:
        match = play_random_game(game, seed, scenario=scenario, options=options,
                                 max_decisions=max_decisions, asked=asked)
        assert match.finished and match.result is not None, \
            f"{game.info.id} seed {seed}: no end after {len(match.decisions)} decisions"
        again = replay(game, json.loads(json.dumps(make_record(match))))
        assert again.log.to_jsonl() == match.log.to_jsonl(), f"seed {seed}: replay events differ"
        assert again.state_hash() == match.state_hash()
        save = json.loads(json.dumps(make_save(match)))
        assert replay(game, save).state_hash() == match.state_hash()
        for player in game.info.players:
            dumps(match.view(player))
        fresh = Match(game, scenario=scenario, seed=seed, options=options)
        if fresh.pending is not None:
            before = fresh.state_hash()
            try:
                fresh.decide({"not": "an option"})
            except IllegalDecision:
                pass
            else:  # pragma: no cover - a failure path
                raise AssertionError("an illegal decision was accepted")
            assert fresh.state_hash() == before
    check_decision_kinds(game, asked)


def event_number_gaps(match: Match, *, since: int = 0) -> list[str]:
    """Each event of a match (from ``since``) whose text states a number its data does not
    carry, as one line: its kind, section, text and the numbers missing from its data."""
    gaps = []
    for event in match.log.since(since):
        missing = unstated_numbers(event)
        if missing:
            gaps.append(f"{event.kind} ({event.section}) {event.text!r}: no data for "
                        + ", ".join(missing))
    return gaps


def check_event_numbers(game: Game, seeds: Iterable[int] = range(2), *,
                        scenario: str | None = None, options: Mapping[str, JSON] | None = None,
                        max_decisions: int = 100_000) -> None:
    """Events carry their numbers as data: in random games (one per seed), every number an
    event's text states (a strength, a modifier, a roll, a result, a hex) is also in its
    data, its section or its turn, so that a rule test reads fields and never parses text."""
    gaps: list[str] = []
    for seed in seeds:
        match = play_random_game(game, seed, scenario=scenario, options=options,
                                 max_decisions=max_decisions, check_every=10**9)
        gaps.extend(f"seed {seed}: {gap}" for gap in event_number_gaps(match))
    if gaps:
        kinds = sorted({gap.split(" ", 3)[2] for gap in gaps})
        raise AssertionError(f"{len(gaps)} events state numbers their data lacks "
                             f"(kinds {', '.join(kinds)}); the first:\n" + "\n".join(gaps[:8]))


def undeclared_rolls(match: Match, declared: Sequence[RollPurpose] | None = None, *,
                     since: int = 0) -> tuple[list[str], set[RollPurpose]]:
    """The rolls and shuffles of a match (from ``since``) that the game's ``rolls.yaml``
    (or ``declared``) does not declare, or declares with other dice, one line each; and the
    declarations the others are."""
    purposes = roll_purposes(match.game) if declared is None else tuple(declared)
    problems: list[str] = []
    seen: set[RollPurpose] = set()
    for event in match.log.since(since):
        if event.kind not in ("roll", "shuffle"):
            continue
        purpose = str(event.data.get("purpose"))
        sides, count = int(event.data.get("sides") or 0), len(event.data.get("faces") or [])
        found = purpose_of(purpose, event.section, purposes)
        if found is None:
            problems.append(f"{event.kind} {event.section} {purpose!r} is not declared")
        elif not found.shows(event.kind, sides, count):
            shown = "a shuffle" if event.kind == "shuffle" else f"{count}d{sides}"
            problems.append(f"{found.label()} is declared {found.dice}, rolled {shown}")
        else:
            seen.add(found)
    return problems, seen


def check_rolls_declared(game: Game, seeds: Iterable[int] = range(2), *,
                         scenario: str | None = None, options: Mapping[str, JSON] | None = None,
                         bots: bool = False, max_decisions: int = 100_000) -> set[RollPurpose]:
    """Every roll and shuffle of random games (one per seed; with ``bots``, also a game of
    each side's default bot per seed) is declared in the game's ``rolls.yaml`` with the
    dice it shows, so that ``tabletop rules GAME --rolls`` lists every roll a test may
    force. Returns the declarations that came up (a caller checks the rest are ``rare``)."""
    from ..engine.registry import make_agent

    declared = roll_purposes(game)
    if not declared:
        raise AssertionError(f"{game.info.id} declares no rolls (rolls.yaml beside its code)")
    problems: list[str] = []
    seen: set[RollPurpose] = set()
    for seed in seeds:
        matches = [play_random_game(game, seed, scenario=scenario, options=options,
                                    max_decisions=max_decisions, check_every=10**9)]
        if bots:
            match = Match(game, scenario=scenario, seed=seed, options=options)
            match.run({side: make_agent(game, side, game.default_bot(side), seed)
                       for side in game.info.players})
            matches.append(match)
        for match in matches:
            found, came = undeclared_rolls(match, declared)
            problems.extend(f"seed {seed}: {line}" for line in found)
            seen |= came
    if problems:
        raise AssertionError(f"{game.info.id}: {len(problems)} rolls not as rolls.yaml "
                             "declares them; the first:\n" + "\n".join(problems[:8]))
    return seen


def check_decision_kinds(game: Game, asked: Mapping[str, Iterable[str]] | None = None) -> None:
    """The kinds of decision a game asks against the kinds its bots answer.

    A bot that answers decisions by kind declares the kinds it answers
    (:func:`~.agents.handles`, :func:`~.agents.decision_kinds_of`); a game whose bots do
    declares every kind it may ask (:attr:`Game.decision_kinds`). Then each of the game's bots
    (every name of :meth:`Game.bots`, built for every side) answers no kind the game does not
    declare, and together its sides answer every kind declared; and each kind ``asked`` of a
    side (side -> kinds, as seen in play: :func:`play_random_game`'s ``asked``) is declared
    and answered by each bot built for that side. A bot that declares nothing (the random and
    first-option agents) answers every kind alike. Fails with an AssertionError naming the
    bot, the side and the kinds.
    """
    declared = game.decision_kinds
    problems: list[str] = []
    gid = game.info.id
    bots: dict[str, dict[str, frozenset[str] | None]] = {
        name: {side: decision_kinds_of(make(side, 0)) for side in game.info.players}
        for name, make in game.bots().items()}
    declaring = any(a is not None for sides in bots.values() for a in sides.values())
    if declaring and not declared:
        problems.append(f"{gid}: its bots declare the decision kinds they answer, but the game "
                        "declares none (Game.decision_kinds)")
    if declared:
        for name, sides in bots.items():
            known = {side: a for side, a in sides.items() if a is not None}
            for side, answered in known.items():
                extra = sorted(answered - declared)
                if extra:
                    problems.append(f"{gid}: bot {name!r} for {side} answers kinds the game "
                                    f"does not declare: {', '.join(extra)}")
            if known and len(known) == len(sides):
                missing = sorted(declared - frozenset().union(*known.values()))
                if missing:
                    problems.append(f"{gid}: no side of bot {name!r} answers the declared "
                                    f"kinds {', '.join(missing)}")
        for side, seen in (asked or {}).items():
            kinds = set(seen)
            undeclared = sorted(kinds - declared)
            if undeclared:
                problems.append(f"{gid}: {side} was asked decision kinds the game does not "
                                f"declare: {', '.join(map(repr, undeclared))}")
            for name, sides in bots.items():
                answers = sides.get(side)
                unanswered = sorted(kinds & declared - answers) if answers is not None else []
                if unanswered:
                    problems.append(f"{gid}: bot {name!r} for {side} does not answer the "
                                    f"decision kinds it was asked: {', '.join(unanswered)}")
    assert not problems, "; ".join(problems)


def check_forks(game: Game, seeds: Iterable[int] = range(2), *, scenario: str | None = None,
                agents: Mapping[str, str] | None = None, ahead: int = 2, every: int = 1,
                max_decisions: int | None = None) -> dict[str, int]:
    """Fork matches of ``game`` (its default bots, or ``agents``: side -> agent name) at every
    ``every``-th decision and hold each fork to the original: the same pending decision,
    state hash and log, and the same hashes over the next ``ahead`` decisions taken alike
    by both (:meth:`~tabletop.core.engine.match.Match.fork`). A decision marked resumable
    whose resume point does not ask it again fails at once (``strict``). Returns how many
    forks were made each way (``resume``, ``snapshot``, ``replay``), for a test to see
    that a game's decisions are resumable and a benchmark to say so."""
    from tabletop.core.engine.registry import make_agent

    made = {"resume": 0, "snapshot": 0, "replay": 0}
    for seed in seeds:
        match = Match(game, seed=seed, scenario=scenario)
        sides = {side: make_agent(game, side, (agents or {}).get(side) or game.default_bot(side), seed)
                 for side in game.info.players}
        hashes = [match.state_hash()]
        while match.pending is not None and (max_decisions is None
                                             or len(match.decisions) < max_decisions):
            decision = match.pending
            match.decide(sides[decision.player].choose(match.view(decision.player), decision))
            hashes.append(match.state_hash())
        answers, logged = match.decisions, [e.to_json() for e in match.log]
        again = Match(game, seed=seed, scenario=scenario)
        held = 0  # the events of ``again`` held to the original's so far
        for taken, value in enumerate(answers):
            if [e.to_json() for e in again.log.since(held)] != logged[held:len(again.log)]:
                raise AssertionError(f"{game.info.id} seed {seed} decision {taken + 1}: the "
                                     "match played again logs otherwise")
            held = len(again.log)
            if taken % every == 0:
                where = f"{game.info.id} seed {seed} decision {taken + 1}"
                twin = again.fork(strict=True)
                made[twin.forked_by.split()[0]] += 1
                if twin.pending != again.pending or twin.state_hash() != hashes[taken]:
                    raise AssertionError(f"{where}: the fork ({twin.forked_by}) is not at the "
                                         "same decision and state")
                # the fork's log against the match's, held to the original's above: events
                # compare by their fields (the same objects when the fork shares them)
                if len(twin.log) != len(again.log) or list(twin.log) != list(again.log):
                    raise AssertionError(f"{where}: the fork's log ({twin.forked_by}) differs")
                for step in range(taken, min(taken + ahead, len(answers))):
                    twin.decide(answers[step])
                    if twin.state_hash() != hashes[step + 1]:
                        raise AssertionError(f"{where}: the fork ({twin.forked_by}) diverged "
                                             f"from the match at decision {step + 1}")
            again.decide(value)
        if [e.to_json() for e in again.log.since(held)] != logged[held:] or len(again.log) != len(logged):
            raise AssertionError(f"{game.info.id} seed {seed}: the match played again logs otherwise")
    return made


def check_resume(game: Game, seeds: Iterable[int] = range(2), *, scenario: str | None = None,
                 agents: Mapping[str, str] | None = None, every: int = 16, ahead: int = 3,
                 max_decisions: int | None = None, folder: str | Path | None = None) -> dict[str, int]:
    """Save matches of ``game`` (its default bots, or ``agents``: side -> agent name) at
    every ``every``-th decision (and the last), as ``tabletop`` saves them
    (:func:`~tabletop.core.engine.resume.write_save`: the same file each time, its event log
    appended to), resume each save (:func:`~tabletop.core.engine.resume.resume`) and hold
    the resumed match to the original: the same pending decision, state hash and log, and
    the same hashes over the next ``ahead`` decisions taken alike. A save that has a restore
    point must resume from it, without replaying the game. Also fails a game that changes a
    decision once it is answered (its context or options: ask each decision with its own
    lists). Saves go to ``folder`` (a temporary one when None). Returns how many saves were
    ``restored`` from their restore point and how many ``replayed`` (saves without one)."""
    from tabletop.core.engine.registry import make_agent

    made = {"restored": 0, "replayed": 0}
    with tempfile.TemporaryDirectory() as spare:
        path = Path(folder if folder is not None else spare) / f"{game.info.id}.json"
        for seed in seeds:
            match = Match(game, seed=seed, scenario=scenario)
            sides = {side: make_agent(game, side, (agents or {}).get(side)
                                      or game.default_bot(side), seed)
                     for side in game.info.players}
            hashes = [match.state_hash()]
            while match.pending is not None and (max_decisions is None
                                                 or len(match.decisions) < max_decisions):
                decision = match.pending
                asked = asks_digest(decision)
                match.decide(sides[decision.player].choose(match.view(decision.player), decision))
                if asks_digest(decision) != asked:
                    raise AssertionError(
                        f"{game.info.id} seed {seed}: decision {len(match.decisions)} "
                        f"({decision.kind or decision.prompt!r}) was changed after it was "
                        "answered: give each decision its own context and options")
                hashes.append(match.state_hash())
            answers = match.decisions
            again = Match(game, seed=seed, scenario=scenario)
            for taken in range(len(answers) + 1):
                if taken % every == 0 or taken == len(answers):
                    where = f"{game.info.id} seed {seed} saved after decision {taken}"
                    write_save(again, path)
                    record = read_record(path)
                    twin, how = resume(game, record, path)
                    if "resume" in record and how != "restored":
                        raise AssertionError(f"{where}: the save has a restore point but "
                                             f"was not restored from it ({how})")
                    made["restored" if how == "restored" else "replayed"] += 1
                    if twin.pending != again.pending or twin.state_hash() != hashes[taken]:
                        raise AssertionError(f"{where}: the resumed match is not at the same "
                                             "decision and state")
                    if [e.to_json() for e in twin.log] != [e.to_json() for e in again.log]:
                        raise AssertionError(f"{where}: the resumed match's log differs")
                    for step in range(taken, min(taken + ahead, len(answers))):
                        twin.decide(answers[step])
                        if twin.state_hash() != hashes[step + 1]:
                            raise AssertionError(f"{where}: the resumed match diverged from "
                                                 f"the match at decision {step + 1}")
                if taken < len(answers):
                    again.decide(answers[taken])
    return made


def run_procedure(gen: Generator[Decision, JSON, T], answers: Sequence[JSON] = ()) -> T:
    """Run one rule procedure, answering its decisions in order; returns its value.

    Fails if the procedure asks more than it was given, if an answer is not legal, or if
    answers are left over.
    """
    todo = list(answers)
    try:
        d = next(gen)
        while True:
            assert todo, f"unanswered decision: {d.prompt} ({d.section}) {d.values}"
            ans = todo.pop(0)
            assert d.is_legal(ans), f"{ans!r} is not legal for {d.prompt}: {d.values}"
            d = gen.send(ans)
    except StopIteration as stop:
        assert not todo, f"answers left over: {todo}"
        value: T = stop.value
        return value


def golden_games(game: Game, seeds: Iterable[int], *, bot: str = "", scenario: str | None = None,
                 options: Mapping[str, JSON] | None = None) -> dict[str, JSON]:
    """Play seeded bot games (each side its default bot, or ``bot``) and summarise each one:
    result, its scores, decisions taken, events logged and the final state hash."""
    from ..engine.registry import make_agent

    out: dict[str, JSON] = {}
    for seed in seeds:
        match = Match(game, scenario=scenario, seed=seed, options=options)
        agents = {side: make_agent(game, side, bot or game.default_bot(side), seed)
                  for side in game.info.players}
        match.run(agents)
        out[str(seed)] = {"result": match.result.level if match.result else None,
                          "scores": dict(match.result.scores) if match.result else {},
                          "decisions": len(match.decisions), "events": len(match.log),
                          "state_hash": match.state_hash()}
    return out


def check_agent_read_only(game: Game, agent_name: str, seed: int = 0, *, decisions: int = 300,
                          scenario: str | None = None, options: Mapping[str, JSON] | None = None) -> None:
    """An agent must not change the match while it chooses: plays up to ``decisions``
    decisions with ``agent_name`` on every side, checking that each choice leaves the state
    hash as it was (a view is a copy built for its side, so writing to it changes nothing;
    this guards against an agent that reaches the match some other way)."""
    from ..engine.registry import make_agent

    match = Match(game, scenario=scenario, seed=seed, options=options)
    agents = {side: make_agent(game, side, agent_name, seed) for side in game.info.players}
    for n in range(decisions):
        decision = match.pending
        if decision is None:
            return
        before = match.state_hash()
        value = agents[decision.player].choose(match.view(decision.player), decision)
        assert match.state_hash() == before, (
            f"agent {agent_name!r} changed the match while choosing (decision {n}: "
            f"{decision.prompt})")
        match.decide(value)


class HiddenInformationLeak(AssertionError):
    """A side was told something it may not see; the message names the side, where and what."""


def hidden_information_leaks(match: Match, player: str, *, since: int = 0,
                             hidden_before: Iterable[str] = (), known: Iterable[str] = (),
                             render: bool = False) -> list[str]:
    """What ``player`` is told now that names a piece hidden from it: its view, its pending
    decision, the events from ``since`` on that it may see, and, with ``render``, the SVG and
    terminal maps drawn for it.

    Events are checked against the pieces hidden from the player both now and in
    ``hidden_before``, less those ``known`` to it: pieces the rules showed it (an event with
    ``revealed`` in its data, see :meth:`Match.reveal`) that have not moved since. A piece
    revealed by an event may be named by that event and the ones after it.
    """
    from ..board.render.ascii import render_match as ascii_match
    from ..board.render.svg import render_match as svg_match

    secrets = secrets_of(match, player)
    leaks = find_leaks(secrets, "the view", match.view(player))
    pending = match.pending
    if pending is not None and pending.player == player:
        leaks += find_leaks(secrets, f"the decision {pending.prompt!r} ({pending.section})",
                            pending.to_json())
    if render:
        leaks += find_leaks(secrets, "the SVG map", svg_match(match, hidden_from=player))
        leaks += find_leaks(secrets, "the terminal map", ascii_match(match, player=player))
    before, told = set(hidden_before), set(known)
    still = {tok: pid for tok, pid in secrets.items() if pid in before and pid not in told}
    for event in match.log.visible(player, since):
        shown = event.data.get("revealed")
        if shown:  # the rules show it: it may be named from here on
            still = {tok: pid for tok, pid in still.items() if pid != shown}
        leaks += find_leaks(still, f"event {event.seq} [{event.section}] {event.text!r}",
                            event.to_json())
    return leaks


def _revealed_to(match: Match, player: str, since: int) -> list[str]:
    """The pieces the events from ``since`` on showed ``player`` (``revealed`` in their data)."""
    return [str(e.data["revealed"]) for e in match.log.visible(player, since) if e.data.get("revealed")]


def check_hidden_information(game: Game, seeds: Iterable[int] = range(3), *,
                             scenario: str | None = None, options: Mapping[str, JSON] | None = None,
                             bot: str = "random", render_every: int = 50,
                             max_decisions: int = 100_000) -> int:
    """The hidden-information conformance check every game and scenario passes.

    Plays each seed with ``bot`` on every side (each bot given only its side's view, so the
    view is shown to be enough to play) and after every decision, for every side, looks for
    the id or name of every piece hidden from that side in its view, its pending decision,
    the new events it may see and (every ``render_every`` decisions, and at the end) the maps
    drawn for it. A side may be told of a piece the rules showed it while that piece stays
    where it was shown (see :func:`hidden_information_leaks`). Raises
    :class:`HiddenInformationLeak` naming the first leaks; returns the
    number of decisions checked.
    """
    from ..engine.registry import make_agent

    checked = 0
    for seed in seeds:
        match = Match(game, scenario=scenario, seed=seed, options=options)
        agents = {side: make_agent(game, side, bot, seed) for side in game.info.players}
        mark = 0
        sides = game.info.players
        hidden = {side: set(secrets_of(match, side).values()) for side in sides}
        known: dict[str, dict[str, str]] = {side: {} for side in sides}  # piece -> where shown
        while True:
            leaks: list[str] = []
            render = match.pending is None or (render_every > 0 and checked % render_every == 0)
            for side in sides:
                leaks += [f"{side}: {leak}" for leak in hidden_information_leaks(
                    match, side, since=mark, hidden_before=hidden[side], known=known[side],
                    render=render)]
                pieces = match.state.pieces
                known[side].update((pid, pieces[pid].location) for pid in _revealed_to(match, side, mark))
                known[side] = {pid: loc for pid, loc in known[side].items() if pieces[pid].location == loc}
            if leaks:
                raise HiddenInformationLeak(
                    f"{game.info.id} ({match.scenario}) seed {seed} after decision "
                    f"{len(match.decisions)}: " + "; ".join(leaks[:6])
                    + (f" (+{len(leaks) - 6} more)" if len(leaks) > 6 else ""))
            decision = match.pending
            if decision is None or len(match.decisions) >= max_decisions:
                break
            mark = len(match.log)
            hidden = {side: set(secrets_of(match, side).values()) for side in game.info.players}
            match.decide(agents[decision.player].choose(match.view(decision.player), decision))
            checked += 1
    return checked


class SearchLeak(AssertionError):
    """The search agent chose differently on two matches its side sees alike, given the same
    determinizations: it read the hidden truth some other way."""


def check_search_leaks(game: Game, seeds: Iterable[int] = range(2), *,
                       scenario: str | None = None, options: Mapping[str, JSON] | None = None,
                       search: str = "mcts:playouts=8", every: int = 5,
                       max_checks: int = 10, agent: Any = None) -> int:
    """The search agent never reads the real hidden state: its choices are the same whatever
    the hidden truth is, when the determinizations it plays on are the same.

    Plays each seed with the default bots; at every ``every``-th decision whose side has
    something hidden from it (a hidden piece, a secret card), makes a second truth that side
    sees alike (:meth:`~tabletop.core.engine.match.Game.determinize` of the match: what is
    hidden dealt again; the check holds the two views equal) and asks two search agents
    (``search``, as ``--agent`` names it, or ``agent(game, side, seed, determinizer)``
    building one) with the same seed to choose, one given the match's view, the other the
    second truth's, both drawing their determinizations from the match. Raises
    :class:`SearchLeak` when they choose differently, or search differently (what the
    search reports of its last decision, its time aside: the playouts each option got, or
    each option's mean score); returns the number of decisions checked (at most ``max_checks`` a
    seed)."""
    from ..engine.determinize import hidden_slots
    from ..engine.registry import make_agent
    from ..engine.search import SearchAgent, parse_options
    from ..engine.views import View
    from ..engine.visibility import is_secret_pile

    def build(side: str, seed: int, determinizer: Any) -> Any:
        if agent is not None:
            return agent(game, side, seed, determinizer)
        return SearchAgent(game, side, seed, parse_options(search), determinizer=determinizer)

    def has_secrets(match: Match, side: str) -> bool:
        return bool(hidden_slots(match, side)) or any(
            cards and is_secret_pile(game, name, side)
            for deck in match.state.decks.values() for name, cards in deck.piles.items())

    checked = 0
    for seed in seeds:
        match = Match(game, scenario=scenario, seed=seed, options=options)
        bots = {side: make_agent(game, side, game.default_bot(side), seed) for side in game.info.players}
        found = 0
        while match.pending is not None and found < max_checks:
            decision = match.pending
            side = decision.player
            if (len(match.decisions) % every == 0 and len(decision.options) > 1
                    and has_secrets(match, side)):
                where = f"{game.info.id} seed {seed} decision {len(match.decisions) + 1} ({side})"
                other = game.determinize(match, side, random.Random(f"other truth:{seed}:{found}"))
                seen, seen_other = View(match, side).to_json(), View(other, side).to_json()
                if seen != seen_other:
                    raise AssertionError(f"{where}: the determinization shows {side} something "
                                         "other than the match does")

                def from_match(view: Any, rng: random.Random, truth: Match = match,
                               who: str = side) -> Match:
                    return game.determinize(truth, who, rng)

                first, second = build(side, seed, from_match), build(side, seed, from_match)
                chosen = first.choose(match.view(side), decision)
                again = second.choose(other.view(side), other.pending)
                if chosen != again or _searched(first.last) != _searched(second.last):
                    raise SearchLeak(f"{where}: the search chose {chosen!r} on the match and "
                                     f"{again!r} on another truth {side} sees alike, from the same "
                                     "determinizations")
                found += 1
                checked += 1
            match.decide(bots[side].choose(match.view(side), decision))
    return checked


def _searched(last: Mapping[str, Any]) -> dict[str, Any]:
    """What a search did at its last decision, but its time (what two searches alike share)."""
    return {k: v for k, v in last.items() if k != "seconds"}


def check_replay(match: Match) -> None:
    """A match is its record: its record, through JSON, replays to the same events and hash."""
    again = replay(match.game, json.loads(json.dumps(make_record(match))))
    assert again.state_hash() == match.state_hash(), "replay reached another state"
    assert again.log.to_jsonl() == match.log.to_jsonl(), "replay logged other events"


def check_golden(path: str | Path, got: JSON) -> None:
    """Compare a summary with its pinned golden file; TABLETOP_REGOLD=1 (re)writes the file.

    A missing golden file fails (so a forgotten file cannot pass silently).
    """
    target = Path(path)
    if os.environ.get("TABLETOP_REGOLD"):
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if not target.exists():
        raise AssertionError(f"golden file {target} is missing; run the test with TABLETOP_REGOLD=1")
    pinned = json.loads(target.read_text(encoding="utf-8"))
    assert pinned == got, f"{target}: the games no longer play as pinned (TABLETOP_REGOLD=1 re-pins)"


def game_state_machine(game: Game, *, scenario: str | None = None,
                       options: Mapping[str, JSON] | None = None,
                       max_decisions: int = 100_000) -> type[RuleBasedStateMachine]:
    """A hypothesis state machine class that plays ``game`` with random legal decisions.

    Use it in a test module as ``TestMyGame = game_state_machine(GAME).TestCase``. Each
    step takes a run of random decisions (invariants checked after every one); one rule
    plays to the end; teardown replays the record and compares the state hash.
    """

    class GameMachine(RuleBasedStateMachine):
        """Random legal play of one game with invariants checked after every decision."""

        def __init__(self) -> None:
            super().__init__()
            self.match: Match | None = None

        @initialize(seed=st.integers(min_value=0, max_value=2**31 - 1))
        def start(self, seed: int) -> None:
            self.match = Match(game, scenario=scenario, seed=seed, options=options)
            check_invariants(self.match, "set-up")

        def _live(self) -> bool:
            return self.match is not None and self.match.pending is not None

        @precondition(lambda self: self._live())
        @rule(count=st.integers(min_value=1, max_value=60), rng=st.randoms(use_true_random=False))
        def take_decisions(self, count: int, rng: random.Random) -> None:
            assert self.match is not None
            for _ in range(count):
                if self.match.pending is None:
                    break
                random_step(self.match, rng)
                check_invariants(self.match)

        @precondition(lambda self: self._live())
        @rule(junk=st.one_of(st.text(max_size=5), st.integers(), st.lists(st.integers(), max_size=3)))
        def illegal_answer_changes_nothing(self, junk: Any) -> None:
            assert self.match is not None and self.match.pending is not None
            if self.match.pending.is_legal(junk):
                return
            before, events = self.match.state_hash(), len(self.match.log)
            try:
                self.match.decide(junk)
            except IllegalDecision:
                pass
            else:
                raise AssertionError(f"illegal answer {junk!r} was accepted")
            assert self.match.state_hash() == before and len(self.match.log) == events

        @precondition(lambda self: self._live())
        @rule(rng=st.randoms(use_true_random=False))
        def play_to_the_end(self, rng: random.Random) -> None:
            assert self.match is not None
            while self.match.pending is not None and len(self.match.decisions) < max_decisions:
                random_step(self.match, rng)
                check_invariants(self.match)

        @precondition(lambda self: not self._live())
        @rule()
        def finished_game_has_a_result(self) -> None:
            assert self.match is not None and self.match.result is not None
            assert self.match.pending is None

        @invariant()
        def views_serialise(self) -> None:
            if self.match is not None:
                for player in game.info.players:
                    dumps(self.match.view(player))

        def teardown(self) -> None:
            if self.match is None:
                return
            again = replay(game, json.loads(json.dumps(make_record(self.match))))
            assert again.state_hash() == self.match.state_hash(), "replay reached another state"

    GameMachine.__name__ = f"{game.info.id.title().replace('_', '')}Machine"
    return GameMachine


# -- rule tests in ten lines: positions, forced dice, answers ----------------------------------
# A rule test starts a match from a position at the phase the rule belongs to, forces the
# rolls it means by section and purpose, answers the decisions it needs, and checks the
# outcome and that every forced roll came up.

def start(game: Game, *, forced: Sequence[ForcedRoll | StackedShuffle] = (),
          dice_script: list[int] | None = None, **fields: Any) -> Match:
    """A match from a position given as keyword fields of :class:`Position` (``start``,
    ``turn``, ``pieces``, ``vars``, ``tracks``, ``decks``, ``clear``, ``clear_map``, ``off_board``,
    ``dice``...), its pending decision computed from the position. ``forced`` adds forced
    rolls (``force("9.1 CRT", 6)``) or stacked shuffles (``stack(...)``); all go into the
    record, so the match replays."""
    return Match.from_position(game, Position.build(game, **fields), forced=forced,
                               dice_script=dice_script)


def answer(match: Match, *values: JSON) -> None:
    """Answer the pending decisions with these option values, in order; an answer that is
    not legal fails the test naming the decision, its rule section and the legal values."""
    for n, value in enumerate(values, start=1):
        decision = match.pending
        assert decision is not None, f"answer {n} ({value!r}): the match is over"
        assert decision.is_legal(value), (
            f"answer {n}: {value!r} is not legal for {decision.prompt!r} ({decision.section}); "
            f"legal: {[o.value for o in decision.options][:20]}")
        match.decide(value)


def check_dice_used(match: Match) -> None:
    """Fail if a forced roll never came up (its section and purpose were never rolled), a
    stacked shuffle never happened, or scripted dice are left unused."""
    left = match.dice.unused_forced()
    assert not left, "forced dice never rolled: " + "; ".join(
        f"{f.key!r} ({f.left} face(s) left)" if isinstance(f, ForcedRoll)
        else f"shuffle {f.key!r}" for f in left)
    if isinstance(match.dice, ScriptedDice):
        assert match.dice.remaining == 0, \
            f"{match.dice.remaining} scripted dice left unused: {match.dice.script[-match.dice.remaining:]}"


def texts(match: Match, kind: str, *, since: int = 0) -> list[str]:
    """The texts of the events of one kind in the log (from event ``since``)."""
    return [e.text for e in match.log.since(since) if e.kind == kind]


def rolls(match: Match, *, since: int = 0) -> list[tuple[str, str, list[int]]]:
    """Every roll in the log as (section, purpose, faces), to see what a rule rolled."""
    return [(e.section, str(e.data.get("purpose")), list(e.data.get("faces") or []))
            for e in match.log.since(since) if e.kind == "roll"]
