"""The search agent (``mcts``): information-set MCTS over determinizations, for any game and
side with no game code: its options and their one-line errors, its strength (tic-tac-toe
never lost against random, drawn against itself; the example game won more often than by
its heuristic bot), its reproducibility from the seed, its time cap, and that it never reads
the hidden truth of the match it plays."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tabletop.core.designer.testing import SearchLeak, check_agent_read_only, check_search_leaks
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import Decision, ResumePoint, choose
from tabletop.core.engine.determinize import determinize_view
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Flow, Game, GameInfo, Match, Result
from tabletop.core.engine.pieces import Piece
from tabletop.core.engine.registry import load_game, make_agent
from tabletop.core.engine.search import SearchAgent, SearchOptions, is_reproducible, parse_options
from tabletop.core.frontends.cli import agent_list, main
from tabletop.core.studies.stats import compare
from tabletop.core.studies.study import Study, plan_settings, run_study

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE = str(ROOT / "benchmarks" / "tictactoe")
SKIRMISH = str(ROOT / "docs" / "example" / "skirmish")
PIG = "tests.core.piggame:GAME"


def outcomes(game: Game, side: str, search: str, opponent: str, seeds: range) -> dict[str, int]:
    """How the search playing ``side`` fared against ``opponent`` on each seed."""
    counts = {"won": 0, "drawn": 0, "lost": 0}
    for seed in seeds:
        match = Match(game, seed=seed)
        agents = {s: make_agent(game, s, search if s == side else opponent, seed)
                  for s in game.info.players}
        result = match.run(agents)
        assert result is not None
        counts["drawn" if result.winner is None else "won" if result.winner == side else "lost"] += 1
    return counts


# ----------------------------------------------------------------------------- options

def test_options_are_read_after_the_name() -> None:
    """``mcts:NAME=VALUE,...`` sets the search's options; the agent's name says those given."""
    assert parse_options("mcts") == SearchOptions()
    opts = parse_options("mcts:playouts=400,seconds=0.5,rollout=random,depth=60,c=0.7")
    assert opts == SearchOptions(playouts=400, seconds=0.5, rollout="random", depth=60, c=0.7)
    assert parse_options("mcts:root=paired,z=1.5") == SearchOptions(root="paired", z=1.5)
    assert parse_options("mcts:root=paired,z=2").spec() == "mcts:root=paired"
    agent = make_agent(load_game(PIG), "A", "mcts:depth=60,playouts=400", 3)
    assert isinstance(agent, SearchAgent) and agent.name == "mcts:playouts=400,depth=60"
    assert is_reproducible("mcts:playouts=400") and not is_reproducible("mcts:seconds=1")
    assert is_reproducible("random")


@pytest.mark.parametrize(("spec", "says"), [
    ("mcts:playouts=0", "playouts=0 is out of range"),
    ("mcts:playouts=many", "playouts=many has a value of the wrong kind"),
    ("mcts:seconds=-1", "seconds=-1 is out of range"),
    ("mcts:rollout=smart", "rollout=smart is not one of default, random"),
    ("mcts:root=flat", "root=flat is not one of tree, paired"),
    ("mcts:z=-1", "z=-1 is out of range"),
    ("mcts:speed=3", "speed=3 is no option of mcts"),
    ("mcts:playouts", "playouts must look like NAME=VALUE"),
    ("mcts:playouts=3,playouts=4", "playouts is given twice"),
    ("random:playouts=3", "'random' takes no options"),
])
def test_a_bad_option_is_one_clear_message(spec: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A bad option names itself and lists the options, raised by make_agent and printed by
    the CLI as one line with a non-zero exit, before any game."""
    with pytest.raises(TabletopError, match=says.replace("(", r"\(")):
        make_agent(load_game(PIG), "A", spec, 0)
    code = main(["play", PIG, "--seed", "1", "--auto", "--agent", f"A={spec}"])
    err = capsys.readouterr().err
    assert code != 0 and says in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_an_agent_list_keeps_each_agents_options() -> None:
    """In ``--agent SIDE=A,B``, a part that is an option belongs to the agent before it (agent
    names hold no ``=``), so a search's options and a list of agents do not clash."""
    assert agent_list("heuristic,mcts:playouts=400,seconds=0.5") == [
        "heuristic", "mcts:playouts=400,seconds=0.5"]
    assert agent_list("mcts:playouts=4,depth=9,random,mcts") == ["mcts:playouts=4,depth=9", "random", "mcts"]
    settings = plan_settings(load_game(PIG), {}, {"A": agent_list("random,mcts:playouts=4,depth=9")})
    assert [s.agents["A"] for s in settings] == ["random", "mcts:playouts=4,depth=9"]
    assert [s.label for s in settings] == ["A=random", "A=mcts:playouts=4,depth=9"]


def test_studies_refuse_a_search_capped_by_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    """A search stopped by the clock cannot be played again: a study refuses it before any game."""
    with pytest.raises(TabletopError, match="capped by seconds"):
        plan_settings(load_game(PIG), {}, {"A": ["random", "mcts:playouts=50,seconds=0.5"]})
    code = main(["simulate", PIG, "-n", "2", "--agent", "A=random,mcts:seconds=0.5"])
    err = capsys.readouterr().err
    assert code != 0 and "capped by seconds" in err and len(err.strip().splitlines()) == 1


# ----------------------------------------------------------------------------- behaviour

def test_a_seconds_cap_stops_the_search() -> None:
    """However many playouts the budget allows, a search past its time stops after the
    playout in hand (at least one)."""
    game = load_game(TICTACTOE)
    agent = make_agent(game, "x", "mcts:playouts=100000,seconds=0.000000001", 0)
    assert isinstance(agent, SearchAgent)
    match = Match(game, seed=0)
    assert match.pending is not None
    value = agent.choose(match.view("x"), match.pending)
    assert match.pending.is_legal(value) and agent.last["playouts"] == 1


def test_the_search_is_reproducible_from_its_seed() -> None:
    """With a budget of playouts, the same seed plays the same game; the record replays."""
    game = load_game(SKIRMISH)

    def game_of(seed: int) -> Match:
        match = Match(game, seed=1)
        match.run({"Blue": make_agent(game, "Blue", "pusher", 1),
                   "Red": make_agent(game, "Red", "mcts:playouts=3", seed)})
        return match

    first, again = game_of(5), game_of(5)
    assert first.decisions == again.decisions and first.state_hash() == again.state_hash()


def test_with_one_playout_the_search_answers_as_the_games_bot() -> None:
    """The side's default bot says which option a search tries first and breaks its ties: a
    search of one playout plays the very game the bot plays (same seed, same decisions)."""
    game = load_game(SKIRMISH)
    games = []
    for red in ("pusher", "mcts:playouts=1"):
        match = Match(game, seed=4)
        match.run({"Blue": make_agent(game, "Blue", "pusher", 4), "Red": make_agent(game, "Red", red, 4)})
        games.append((match.decisions, match.state_hash()))
    assert games[0] == games[1]


def test_the_search_plays_a_plugin_and_every_side_of_a_solitaire_game() -> None:
    """No game code is needed: the search plays both sides of Pig (a plugin of the tests)
    to the end, and the side a person plays in Iwo Jima 1945, a solitaire game whose other
    side the rules run, never changing the match while it chooses."""
    pig = load_game(PIG)
    match = Match(pig, seed=2)
    assert match.run({side: make_agent(pig, side, "mcts:playouts=10", 2) for side in pig.info.players})
    check_agent_read_only(pig, "mcts:playouts=5", seed=4, decisions=40)
    iwo = load_game("iwo_1945")
    match = Match(iwo, seed=3)
    agents = {side: make_agent(iwo, side, "mcts:playouts=2,depth=8", 3) for side in iwo.info.players}
    asked: set[str] = set()
    searched = 0
    while match.pending is not None and searched < 12:
        decision = match.pending
        before = match.state_hash()
        value = agents[decision.player].choose(match.view(decision.player), decision)
        assert match.state_hash() == before and decision.is_legal(value)
        if len(decision.options) > 1:
            asked.add(decision.player)
            searched += 1
        match.decide(value)
    assert searched == 12 and asked == {"USMC"}


@pytest.mark.parametrize("side", ["x", "o"])
def test_tic_tac_toe_is_never_lost_against_random(side: str) -> None:
    """Twelve games as either side against the random agent, none lost (a hundred, slow, below)."""
    assert outcomes(load_game(TICTACTOE), side, "mcts:playouts=400", "random", range(12))["lost"] == 0


def test_tic_tac_toe_against_itself_is_drawn() -> None:
    """Perfect play draws: the search against itself draws every game."""
    game = load_game(TICTACTOE)
    for seed in range(2):
        match = Match(game, seed=seed)
        result = match.run({s: make_agent(game, s, "mcts:playouts=1000", seed) for s in game.info.players})
        assert result is not None and result.winner is None, seed


@pytest.mark.slow
@pytest.mark.parametrize("side", ["x", "o"])
def test_tic_tac_toe_is_never_lost_over_a_hundred_games_a_side(side: str) -> None:
    """A hundred games as either side against random (one test a side, so that the two run
    side by side), none lost by the search at its default budget of playouts."""
    assert outcomes(load_game(TICTACTOE), side, "mcts", "random", range(100, 200))["lost"] == 0


@pytest.mark.slow
def test_tic_tac_toe_against_itself_is_drawn_over_twenty_games() -> None:
    """Perfect play draws: the eighteen games after the quick test's two (seeds 2-19), the
    search against itself, are all drawn."""
    game = load_game(TICTACTOE)
    for seed in range(2, 20):
        match = Match(game, seed=seed)
        result = match.run({s: make_agent(game, s, "mcts:playouts=1000", seed) for s in game.info.players})
        assert result is not None and result.winner is None, seed


def test_paired_options_are_played_on_the_same_determinizations() -> None:
    """``root=paired``: each draw deals one determinization again for every option of the
    decision (the same hidden truth, dice and rollout bots: common random numbers), and a
    decision of n options plays ``playouts // n`` draws."""
    game = load_game(SKIRMISH)
    seen: list[int] = []

    def spy(view: Mapping[str, Any], rng: random.Random) -> Match:
        seen.append(random.Random(rng.getrandbits(64)).getrandbits(32))  # what the draw deals from
        return determinize_view(view, rng)

    match = Match(game, seed=2)
    while match.pending is not None and len(match.pending.options) < 3:
        match.decide_index(0)
    decision = match.pending
    assert decision is not None
    count = len(decision.options)
    agent = SearchAgent(game, decision.player, 1, parse_options(f"mcts:root=paired,playouts={3 * count + 1}"),
                        determinizer=spy)
    agent.choose(match.view(decision.player), decision)
    draws = [seen[i:i + count] for i in range(0, len(seen), count)]
    assert len(draws) == 3 and agent.last["playouts"] == 3 * count
    assert all(len(set(d)) == 1 for d in draws) and len({d[0] for d in draws}) == 3


def test_paired_keeps_the_bots_choice_unless_another_is_surely_better() -> None:
    """``root=paired`` overrules the side's bot only when the best option's gain over the
    bot's choice, draw by draw, exceeds z standard errors: with a z no uncertain gain can
    reach, it answers as the bot at every decision but where every draw showed the same
    gain (a standard error of 0); with z=0, wherever the best mean beats the bot's."""
    game = load_game(SKIRMISH)
    for z, overruled in ((1000000.0, "sure gains"), (0.0, "better means")):
        match = Match(game, seed=4)
        blue = make_agent(game, "Blue", "pusher", 4)
        bot = make_agent(game, "Red", "pusher", 4)
        search = make_agent(game, "Red", f"mcts:root=paired,playouts=12,depth=20,z={z}", 4)
        assert isinstance(search, SearchAgent)
        asked = kept = 0
        while match.pending is not None:
            decision = match.pending
            if decision.player == "Blue":
                match.decide(blue.choose(match.view("Blue"), decision))
                continue
            wanted = bot.choose(match.view("Red"), decision)
            chosen = search.choose(match.view("Red"), decision)
            if len(decision.options) > 1:
                last = search.last
                asked += 1
                kept += chosen == wanted
                assert last["bot"] == str(wanted)
                if chosen != wanted:
                    assert chosen == decision.options[[str(o.value) for o in decision.options]
                                                      .index(str(last["rival"]))].value
                    assert isinstance(last["gain"], float) and last["gain"] > 0
                    assert last["error"] == 0.0 if overruled == "sure gains" else True
                else:
                    gain = last["gain"]
                    assert isinstance(gain, float)
                    assert gain <= 0 if overruled == "better means" else True
            match.decide(chosen)
        assert asked > 5 and (kept < asked if overruled == "better means" else kept > 0)


def test_paired_search_is_reproducible_from_its_seed() -> None:
    """``root=paired`` with a budget of playouts plays the same game from the same seed."""
    game = load_game("iwo_1945")

    def game_of(seed: int) -> list[JSON]:
        match = Match(game, seed=1)
        agent = make_agent(game, "USMC", "mcts:root=paired,playouts=6,depth=10,z=0", seed)
        while match.pending is not None and len(match.decisions) < 40:
            decision = match.pending
            match.decide(agent.choose(match.view(decision.player), decision))
        return match.decisions

    assert game_of(7) == game_of(7)


@pytest.mark.slow
def test_the_search_beats_the_example_games_heuristic_bot() -> None:
    """On the example game, Red played by the search rather than by the game's bot (Blue the
    bot in both) wins more often over 200 paired seeds: the 95% interval of the difference
    in Red's win rate lies above zero. Three playouts a decision are enough (the interval
    runs from about 0.11 to 0.22; with one or two the search plays as the bot does)."""
    game = load_game(SKIRMISH)
    study = Study(game.source, None, 1, 200, plan_settings(game, {}, {"Red": ["pusher", "mcts:playouts=3"]}))
    run = run_study(study, jobs=2)
    try:
        paired = compare(run.setting_rows(0), run.setting_rows(1), ["Blue", "Red"])
    finally:
        run.close()
    red = paired["win_rate"]["Red"]
    assert paired["pairs"] == 200 and red["ci95"][0] > 0, red


# ----------------------------------------------------------------------------- leaks

class ShellGame(Game):
    """B hides a pea under one of three cups (face-down counters alike to A); A lifts one and
    wins if the pea is there: what A should choose depends on nothing but the hidden truth."""

    info = GameInfo(id="shells", title="Shell game", version="1", players=("A", "B"))

    def setup(self, match: Match) -> None:
        """The pea and two empty shells, hidden from A, shuffled among the cups; A's hand."""
        match.state.pieces.add(Piece("hand", "hand", "A", location="table"))
        counters = ["pea", "empty", "empty"]
        match.dice.shuffle(counters, purpose="hide the pea")
        for n, kind in enumerate(counters):
            match.state.pieces.add(Piece(f"{kind}{n}", kind, "B", location=f"cup{n}", hidden=True))

    def play(self, match: Match) -> Flow:
        """A lifts a cup (asked again from the cups alone: a fork copies the state)."""
        cup = yield choose("A", "lift which cup?", "1", [f"cup{n}" for n in range(3)],
                           resume=ResumePoint("lift"))
        found = match.state.pieces.top(str(cup))
        assert found is not None
        return Result("A" if found.kind == "pea" else "B", "found" if found.kind == "pea" else "missed", "2")


    def resume_flow(self, match: Match, point: ResumePoint) -> Flow:
        """The one decision, asked again."""
        return (yield from self.play(match))


SHELLS = ShellGame()


@pytest.mark.parametrize("root", ["tree", "paired"])
def test_the_search_never_reads_the_hidden_truth(root: str) -> None:
    """Given the same determinizations, the search chooses alike on two matches its side
    sees alike whatever stands behind the hidden counters and secret cards (a tree search
    and a paired one)."""
    search = f"mcts:root={root},playouts=8"
    assert check_search_leaks(load_game(SKIRMISH), range(2), max_checks=4, search=search) > 0
    assert check_search_leaks(load_game(PIG), range(2), max_checks=4, search=search) > 0
    assert check_search_leaks(SHELLS, range(6), every=1, search=search) == 6


class Peeking(SearchAgent):
    """A search that cheats: it plays on a fork of the very match its view shows."""

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        truth = view._match  # type: ignore[attr-defined]

        def peek(_: Mapping[str, Any], rng: random.Random) -> Match:
            world: Match = truth.fork()
            return world

        self._determinize = peek
        return super().choose(view, decision)


@pytest.mark.parametrize("root", ["tree", "paired"])
def test_the_leak_check_catches_a_search_that_reads_the_truth(root: str) -> None:
    """The check is able to fail: a search playing on the true match finds the pea, and is
    caught choosing another cup when the pea is elsewhere."""
    def build(game: Game, side: str, seed: int, determinizer: Any) -> SearchAgent:
        return Peeking(game, side, seed, parse_options(f"mcts:root={root},playouts=20"),
                       determinizer=determinizer)

    with pytest.raises(SearchLeak, match="another truth"):
        check_search_leaks(SHELLS, range(6), agent=build, every=1)
