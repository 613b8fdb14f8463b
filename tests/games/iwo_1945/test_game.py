"""Whole games of Iwo Jima 1945: conformance, the hypothesis state machine (invariants of
2.0, 3.0, 4.0 after every decision), replay, bots, golden playthroughs, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings

from tabletop.core.designer.testing import (
    check_agent_read_only,
    check_conformance,
    check_golden,
    check_replay,
    game_state_machine,
    golden_games,
    play_random_game,
)
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game, make_agent
from tabletop.core.frontends.cli import cli
from tabletop.games.iwo_1945 import GAME

GOLDEN = Path(__file__).parent / "golden" / "iwo_1945.json"
LEVELS = {"Japanese Win", "Marginal (Historical Victory)", "Moderate Victory", "Smashing USMC Victory"}


def bot_match(seed: int, bot: str = "heuristic", **options: object) -> Match:
    """A whole game with a USMC bot (the Japanese need none: 6.0 AI)."""
    m = Match(GAME, seed=seed, options=options)
    m.run({"USMC": make_agent(GAME, "USMC", bot, seed)})
    return m


def test_registered_and_playable() -> None:
    """3.0/6.0: the game is registered, version 1.0.0, solitaire with the USMC the human side."""
    g = load_game("iwo_1945")
    assert g.info.playable and g.info.solitaire and g.info.human_side == "USMC"
    assert g.info.version == "1.1.0"
    assert {o.id for o in g.info.options} >= {"japanese_cards", "landing_dice"}


def test_conformance() -> None:
    """6.0, 7.0: random games end with a 7.0 result, replay byte for byte, save and resume."""
    check_conformance(GAME, range(3))


TestIwoMachine = game_state_machine(GAME).TestCase
TestIwoMachine.settings = settings(max_examples=10, stateful_step_count=20, deadline=None)


def test_japanese_side_never_decides() -> None:
    """6.0 Japanese AI turn: the Japanese side needs no input; every decision is the USMC's."""
    m = play_random_game(GAME, 5)
    players = {e.data["player"] for e in m.log.of_kind("decision")}
    assert players == {"USMC"}
    assert m.log.of_kind("japanese_card")


def test_7_0_every_game_ends_with_a_level_and_vp() -> None:
    """7.0: random and heuristic games end with the VP totals and a 7.0 level, under every
    8.0 difficulty and both landing readings."""
    for seed, opts in ((1, {}), (2, {"japanese_cards": 27}), (3, {"japanese_cards": 33}),
                       (4, {"landing_dice": 4, "usmc_move": "through_friendly"}),
                       (5, {"infiltration_cubes": "removed", "landing": "historical"})):
        for bot in ("random", "heuristic"):
            m = bot_match(seed, bot, **opts)
            assert m.result is not None and m.result.level in LEVELS
            sc = m.result.scores
            assert sc["margin"] == sc["usmc_vp"] - sc["japanese_vp"]
            assert (m.result.winner == "USMC") == (sc["margin"] > 0)


def test_replay_of_a_logged_heuristic_game() -> None:
    """A match is its record: a heuristic game replays to the same events and hash."""
    check_replay(bot_match(7))


def test_golden_playthroughs() -> None:
    """Golden games: seeded heuristic games end exactly as pinned (TABLETOP_REGOLD=1 re-pins;
    a missing golden file fails)."""
    check_golden(GOLDEN, golden_games(GAME, (1, 2, 3)))



def test_cli_auto_json_render_and_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """7.0 via the CLI: --auto --json gives the VP and level; render draws the board (2.0);
    the terminal game shows the hand and the Japanese card, and quits cleanly."""
    runner = CliRunner()
    out = runner.invoke(cli, ["play", "iwo_1945", "--auto", "--seed", "3", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["finished"] and data["result"] in LEVELS and "usmc_vp" in data
    monkeypatch.chdir(tmp_path)
    out = runner.invoke(cli, ["render", "iwo_1945", "-o", "board.svg"])
    assert out.exit_code == 0, out.output
    svg = Path("board.svg").read_text()
    assert "Suribachi" in svg and "<svg" in svg
    out = runner.invoke(cli, ["play", "iwo_1945", "--auto", "--seed", "4", "--save", "g.json"])
    assert out.exit_code == 0, out.output
    out = runner.invoke(cli, ["replay", "g.json"])
    assert out.exit_code == 0 and "replay verified" in out.output
    out = runner.invoke(cli, ["play", "iwo_1945", "--seed", "3"], input="3\n1\nm\nq\n")
    assert "hand:" in out.output and "Japanese AI card" in out.output
    assert "Mt. Suribachi" in out.output


def test_every_event_carries_its_section() -> None:
    """Principle 1 (DESIGN.md): every event of a whole game names the rule section behind it."""
    m = bot_match(11)
    assert all(e.section for e in m.log), [e.text for e in m.log if not e.section][:5]
    assert {e.section for e in m.log} >= {"2.0", "4.0", "5.0", "6.0", "7.0"}


def test_3_0_5_0_the_decks_are_drawn_in_their_board_spaces() -> None:
    """3.0, 5.0, 6.0: the picture shows the draw decks as face-down counts, the discard
    piles by title (the last played on top) and the USMC hand face up to the USMC only; the
    cards set aside unseen at set-up appear nowhere."""
    m = Match(GAME, seed=9)
    bot = make_agent(GAME, "USMC", "heuristic", 9)
    for _ in range(40):
        assert m.pending is not None
        m.decide(bot.choose(m.view("USMC"), m.pending))
    usmc, japanese = m.state.decks["usmc"], m.state.decks["japanese"]
    seen = GAME.box_cards(m, "USMC")
    assert seen["japanese_draw"] == len(japanese.pile("draw"))
    assert seen["marine_draw"] == len(usmc.pile("draw"))
    titles = seen["japanese_discard"]
    assert isinstance(titles, list) and len(titles) == len(japanese.pile("discard")) > 0
    last = [e for e in m.log if e.kind == "japanese_card" and "card" in e.data][-1]
    assert titles[0] == last.text.split(": ", 1)[1].split(" — ")[0]  # the last one played
    hand = seen["usmc_hand"]
    assert isinstance(hand, list) and len(hand) == len(usmc.pile("hand:USMC"))
    assert GAME.box_cards(m, "Japan")["usmc_hand"] == len(hand)
    shown = sum(len(v) if isinstance(v, list) else v for v in seen.values())
    assert shown == 72 - len(usmc.pile("out")) - len(japanese.pile("out"))
    from tabletop.core.board.render import svg

    picture = svg.render_match(m, hidden_from="USMC")
    assert all(t in picture for t in titles)


def test_heuristic_bot_only_reads_its_view() -> None:
    """The USMC heuristic bot never changes the match through its view."""
    check_agent_read_only(GAME, "heuristic", seed=5, decisions=400)


def test_2_0_board_picture_boxes_never_overlap_positions_or_each_other() -> None:
    """2.0: the board picture puts the cohesion tracks, the emblem, the Rising Sun squares,
    the decks and the other boxes on the board itself; at set-up, in mid-game and at the end
    of seeded games no box covers a position or another box, whatever they hold."""
    import xml.etree.ElementTree as ET

    from tabletop.core.board.render import svg

    ns = {"s": "http://www.w3.org/2000/svg"}

    def rects(picture: str) -> dict[str, tuple[float, float, float, float]]:
        root = ET.fromstring(picture)
        out = {}
        for g in root.iter("{http://www.w3.org/2000/svg}g"):
            cls = g.get("class") or ""
            if cls in ("area", "box placed"):
                r = next(e for e in g.findall("s:rect", ns) if e.get("fill-opacity") != "0.18")
                x, y = float(r.get("x", 0)), float(r.get("y", 0))
                out[g.get("data-area") or g.get("data-box") or ""] = (
                    x, y, x + float(r.get("width", 0)), y + float(r.get("height", 0)))
        return out

    states = [Match(GAME, seed=1)]
    for seed in (9, 14):
        m = Match(GAME, seed=seed)
        bot = make_agent(GAME, "USMC", "heuristic", seed)
        for n in range(10_000):
            if m.pending is None:
                break
            m.decide(bot.choose(m.view("USMC"), m.pending))
            if n == 150:  # a mid-game position: the same decisions replayed into a new match
                snap = Match(GAME, seed=seed)
                for v in list(m.decisions):
                    snap.decide(v)
                states.append(snap)
        states.append(m)
    for m in states:
        boxes = rects(svg.render_match(m))
        assert len(boxes) == 14 + 22
        names = sorted(boxes)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                ax0, ay0, ax1, ay1 = boxes[a]
                bx0, by0, bx1, by1 = boxes[b]
                assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0, (a, b, m.state.turn)


def test_honest_undo_takes_back_a_card_of_your_own_hand_but_not_a_card_drawn() -> None:
    """6.0 / honest undo: playing one of the USMC's own cards shows the Japanese side nothing
    it could use, so the person may take it back; a card turned from a draw pile was seen and
    stays seen (no undo past it)."""
    m = Match(GAME, seed=0)
    agents = {s: make_agent(GAME, s, GAME.default_bot(s), 0) for s in GAME.info.players}
    played = drawn = False
    while m.pending is not None and not (played and drawn) and len(m.decisions) < 400:
        decision = m.pending
        value = agents[decision.player].choose(m.view(decision.player), decision)
        events = len(m.log)
        m.decide(value)
        if m.pending is None or m.pending.player != "USMC" \
                or any(e.kind in ("roll", "shuffle", "reveal") for e in m.log.since(events)):
            continue
        floor = m.undo_limit(by={"USMC"})[0]
        if str(value).startswith("card:") and not played:
            assert floor < len(m.decisions), "a card of one's own hand cannot be taken back"
            assert m.undo_limit()[0] == len(m.decisions)  # the Japanese side did see it
            played = True
        elif floor == len(m.decisions) and not drawn:
            before = m.state_hash()
            with pytest.raises(TabletopError, match="revealed"):
                m.undo(by={"USMC"})
            assert m.state_hash() == before
            drawn = True
    assert played and drawn


def test_2_0_positions_read_in_player_words_with_no_field_name() -> None:
    """2.0: under each position's name, on the SVG (and so the browser) and the terminal map,
    the player reads its terrain and printed values (``Mountain · 3 slots · 2 VP``), never a
    data field's name (``vp_usmc``, ``beach_order``...) nor the position's id."""
    import re
    import xml.etree.ElementTree as ET

    from tabletop.core.board.render import ascii as ascii_render
    from tabletop.core.board.render import svg
    from tabletop.games.iwo_1945.components import PositionAttrs

    snake = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
    raw = re.compile(r"\b(" + "|".join(PositionAttrs.model_fields) + r") \d")  # "slots 3"
    m = Match(GAME, seed=3)
    for _ in range(40):
        if m.pending is None:
            break
        m.decide(m.pending.options[0].value)
    ns = {"s": "http://www.w3.org/2000/svg"}
    root = ET.fromstring(svg.render_match(m))
    areas = root.findall(".//s:g[@data-area]", ns)
    assert len(areas) == 14
    shown: dict[str, tuple[str, str]] = {}
    for g in areas:
        sub = next(t.text or "" for t in g.iterfind(".//s:text", ns) if "area-sub" in (t.get("class") or ""))
        title = g.findtext("s:title", "", ns)
        shown[g.get("data-area", "")] = (sub, title)
        for words in (sub, title):
            assert not snake.search(words), f"{g.get('data-area')}: {words!r}"
            assert not raw.search(words), words
    assert shown["mt_suribachi"][0] == "Mountain · 3 slots · 2 VP"
    assert shown["green_beach"][0] == "Beach · 3 slots"
    assert shown["field_1"][0] == "Airfield · 3 slots · 2 VP"
    lines = ascii_render.render_match(m).splitlines()
    assert "Mt. Suribachi  (Mountain · 3 slots · 2 VP)" in lines
    for ln in lines:
        assert not snake.search(ln), ln
