"""Manila '45 whole games: hidden information (6.5), the state machine, golden games, replay."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis.stateful import invariant

from tabletop.core.designer.testing import check_golden, check_replay, game_state_machine, golden_games
from tabletop.core.engine.canonical import dumps
from tabletop.core.engine.decisions import Decision
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import make_agent
from tabletop.games.manila45 import GAME
from tabletop.games.manila45.components import components

from .conftest import seen

GOLDEN = Path(__file__).parent / "golden"


def hidden_ids(match: Match) -> set[str]:
    """The Japanese units face down right now."""
    return {p.id for p in match.state.pieces if p.side == "Japan" and p.hidden}


def unique_names(ids: set[str]) -> set[str]:
    """The names of those units that no other counter shares (so seeing one names the unit)."""
    names = [x.name for x in components().counters.values()]
    out = set()
    for i in ids:
        name = components().counters[i].name
        if sum(1 for n in names if name in n) == 1:  # in no other counter's name
            out.add(name)
    return out


def leaks(text: str, ids: set[str]) -> list[str]:
    """Ids (quoted) and unique names (whole words, three letters or more) of hidden units
    found in a JSON text."""
    found = [f'"{i}"' for i in ids if f'"{i}"' in text]
    for name in unique_names(ids):
        if len(name) >= 3 and re.search(r"(?<![\w/])" + re.escape(name) + r"(?![\w])", text):
            found.append(name)
    return found


def test_6_5_no_hidden_field_in_us_view_decisions_or_log() -> None:
    """6.5, hidden-information model: while a Japanese unit is face down, nothing of it (id,
    name, values) is in the US view, in any US decision, or in the US log; the game master's
    log keeps everything."""
    match = Match(GAME, seed=11)
    agents = {s: make_agent(GAME, s, "heuristic", 11) for s in GAME.info.players}
    seen_us_events = 0
    checked = 0
    while match.pending is not None:
        decision: Decision = match.pending
        ids = hidden_ids(match)
        if ids and len(match.decisions) % 7 == 0:
            view = dumps(seen(match, "US"))
            assert not leaks(view, ids), leaks(view, ids)
            for p in json.loads(view)["pieces"]:
                if p["side"] == "Japan" and p["kind"] == "hidden":
                    assert set(p) == {"id", "kind", "side", "location"}
            checked += 1
        if decision.player == "US":
            assert not leaks(dumps(decision.to_json()), ids)
        events = match.log.visible("US", seen_us_events)
        seen_us_events = len(match.log)
        assert not leaks("".join(dumps(e.to_json()) for e in events), ids)
        match.decide(agents[decision.player].choose(match.view(decision.player), decision))
    assert checked > 50
    us_log = match.log.to_jsonl("US")
    for uid in hidden_ids(match):
        assert f'"{uid}"' not in us_log
    assert all(f'"{p.id}"' in match.log.to_jsonl() for p in match.state.pieces if p.side == "Japan")


def test_5_5_auto_games_end_with_a_winner() -> None:
    """4.2, 4.3, 5.5: bot games end with a winner (no draws) and replay to the same hash."""
    for seed in (0, 5):
        match = Match(GAME, seed=seed)
        match.run({s: make_agent(GAME, s, "heuristic", seed) for s in GAME.info.players})
        assert match.result is not None and match.result.winner in ("US", "Japan")
        assert match.result.section in ("4.2", "4.3")
        check_replay(match)


def test_random_bot_games_end() -> None:
    """4.2, 5.5: random-legal bots on both sides finish a game."""
    match = Match(GAME, seed=2)
    match.run({s: make_agent(GAME, s, "random", 2) for s in GAME.info.players})
    assert match.result is not None and match.result.winner in ("US", "Japan")


def test_golden_games() -> None:
    """Golden playthroughs: two seeded heuristic games pinned (result, decisions, hash)."""
    check_golden(GOLDEN / "heuristic.json", golden_games(GAME, [1, 2]))


class _Machine(game_state_machine(GAME)):  # type: ignore[misc]
    """6.1-6.4 stacking, 8.3 static units, 8.13 no unit at sea, one place a piece, 6.5 revealed
    stays revealed (the game's invariants) plus no face-down field in the US view."""

    @invariant()
    def us_view_hides_face_down_units(self) -> Any:
        if self.match is not None:
            ids = hidden_ids(self.match)
            assert not leaks(dumps(self.match.view("US").to_json()), ids)


_Machine.TestCase.settings = settings(max_examples=3, stateful_step_count=6, deadline=None,
                                      suppress_health_check=list(HealthCheck))
TestManilaMachine = _Machine.TestCase


def test_rubble_and_bridges_are_drawn_on_the_map() -> None:
    """10.19, 10.20, 8.9: rubble markers, bridge demolished markers and pontoon bridges (public
    facts, 6.5) are drawn on both sides' SVG maps and listed under the terminal map."""
    from tabletop.core.board.render import ascii as ascii_render
    from tabletop.core.board.render.svg import render_match
    from tabletop.games.manila45 import common as c

    match = Match(GAME, seed=1)
    match.state.vars[c.V_RUBBLE] = ["2430"]
    match.state.vars[c.V_DEMOLISHED] = [c.side_key("2530", "2430")]
    match.state.vars[c.V_PONTOONS] = {"u-117": c.side_key("2523", "2623")}
    for side in (None, "US", "Japan"):
        svg_text = render_match(match, hidden_from=side)
        for at in ('data-at="2430"', 'data-at="2430-2530"', 'data-at="2523-2623"'):
            assert at in svg_text
    text = ascii_render.render_match(match, player="Japan")
    assert "rubble (10.20): 2430" in text and "bridge demolished (10.19): 2430/2530" in text
    assert "pontoon bridge (8.9): 2523/2623" in text
