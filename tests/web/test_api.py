"""The web API (`tabletop serve`): starting, playing, undo, autosave and restart, replays, and
clear refusals of bad requests that change nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from tabletop.core.engine.agents import RandomAgent
from tabletop.core.engine.match import Match
from tabletop.core.engine.record import make_record
from tabletop.core.frontends.web import create_app

from .conftest import EXAMPLE, HOSTS, game, room_match, seat_of, start

JSON_TYPE = {"Content-Type": "application/json"}


def test_home_lists_installed_and_given_games(client: TestClient) -> None:
    """The home page's list: the given example game first, then the installed games."""
    games = client.get("/api/games").json()["games"]
    ids = [g["id"] for g in games]
    assert ids[0] == "skirmish"
    assert {"iwo_bonins", "iwo_1945"} <= set(ids)
    bonins = next(g for g in games if g["id"] == "iwo_bonins")
    assert [s["id"] for s in bonins["scenarios"]] == ["solitaire", "two_player"]
    assert bonins["players"] == ["US", "Japan"]
    assert client.get("/").status_code == 200
    assert "home.js" in client.get("/").text


def test_a_decision_on_the_map_is_taken_and_autosaved(client: TestClient, data_dir: Path) -> None:
    """Options naming a piece or a hex carry it as their map target; a decision moves the match
    on, the bot answers, the log grows, and the room is saved after it."""
    created = start(client, "skirmish", seed=3, sides={"Blue": "here", "Red": "bot:pusher"})
    mid, tok = created["id"], seat_of(created, "Blue")
    st = client.get(f"/api/matches/{mid}", headers={"X-Seat": tok}).json()
    assert st["side"] == "Blue" and st["your_turn"]
    units = {o["value"]: o["targets"] for o in st["pending"]["options"]}
    assert units["B1"] == ["B1"] and units["done"] == []
    assert 'data-piece="B1"' in st["svg"]
    st2 = client.post(f"/api/matches/{mid}/decide", headers={"X-Seat": tok},
                      json={"index": 0, "value": "B1", "version": st["version"]}).json()
    assert st2["version"] == st["version"] + 1
    hexes = [o for o in st2["pending"]["options"] if o["targets"]]
    assert hexes and all(o["targets"] == [o["value"]] for o in hexes)
    assert len(st2["log"]) > len(st["log"])
    saved = json.loads((data_dir / f"match-{mid}.json").read_text())
    assert saved["save"]["decisions"] == ["B1"] and saved["version"] == st2["version"]


def test_a_page_holding_the_picture_is_sent_the_layers_over_its_map(client: TestClient) -> None:
    """An answer to a page that sends back the picture it holds (``?picture=``, the
    ``picture`` of its last answer) carries the layers drawn over the map and the picture's
    size, not the whole SVG; the whole picture of that position is the same map with those
    layers in it; a page holding another picture, or none, is sent the whole SVG."""
    created = start(client, "skirmish", seed=3, sides={"Blue": "here", "Red": "bot:pusher"})
    mid, seat = created["id"], {"X-Seat": seat_of(created, "Blue")}
    st = client.get(f"/api/matches/{mid}", headers=seat).json()
    key = st["picture"]
    assert "svg" in st and "layers" not in st
    held = client.get(f"/api/matches/{mid}?picture={key}", headers=seat).json()
    assert "svg" not in held and held["picture"] == key
    assert list(held["layers"]) == ["heading", "map", "panel"]
    after = st
    for _ in range(2):  # a unit, then the hex it moves to
        option = after["pending"]["options"][0]
        after = client.post(f"/api/matches/{mid}/decide?picture={key}", headers=seat,
                            json={"index": 0, "value": option["value"], "version": after["version"]}).json()
        assert "svg" not in after and after["picture"] == key
    assert after["layers"]["map"] != held["layers"]["map"]  # a counter moved
    whole = client.get(f"/api/matches/{mid}", headers=seat).json()
    assert whole["picture"] == key

    def fixed(svg: str, layers: dict[str, str]) -> str:
        for name, text in layers.items():
            assert f'<g data-layer="{name}">{text}</g>' in svg
            svg = svg.replace(f'<g data-layer="{name}">{text}</g>', f'<g data-layer="{name}"></g>')
        return re.sub(r'height="[^"]*" viewBox="[^"]*"', "", svg, count=1)  # the size: a layer's

    assert fixed(whole["svg"], after["layers"]) == fixed(st["svg"], held["layers"])
    height = float(whole["svg"].split(' height="')[1].split('"')[0])
    assert after["size"][1] == height
    for other in ("", "?picture=0123abcd"):
        assert "svg" in client.get(f"/api/matches/{mid}{other}", headers=seat).json()


def test_a_match_survives_a_server_restart(client: TestClient, data_dir: Path) -> None:
    """A second server on the same folder resumes the match where it was, same state hash."""
    created = start(client, "skirmish", seed=5, sides={"Blue": "here", "Red": "bot:random"})
    mid, tok = created["id"], seat_of(created, "Blue")
    agent = RandomAgent("Blue", 1)
    for _ in range(12):
        st = client.get(f"/api/matches/{mid}", headers={"X-Seat": tok}).json()
        if st["result"]:
            break
        match = room_match(client, mid)
        assert match.pending is not None
        value = agent.choose({}, match.pending)
        index = match.pending.index_of(value)
        client.post(f"/api/matches/{mid}/decide", headers={"X-Seat": tok},
                    json={"index": index, "value": value, "version": st["version"]})
    before = room_match(client, mid)
    again = TestClient(create_app(data_dir, {"skirmish": game("skirmish")}, hosts=HOSTS))
    st = again.get(f"/api/matches/{mid}", headers={"X-Seat": tok}).json()
    after = room_match(again, mid)
    assert after.state_hash() == before.state_hash()
    assert after.decisions == before.decisions
    assert st["version"] == client.get(f"/api/matches/{mid}", headers={"X-Seat": tok}).json()["version"]


def test_undo_takes_back_the_seats_last_decision(client: TestClient) -> None:
    """Undo (as at the terminal) goes back to this seat's previous decision, the bots' after it too."""
    created = start(client, "skirmish", seed=3, sides={"Blue": "here", "Red": "bot:pusher"})
    mid, tok = created["id"], seat_of(created, "Blue")
    st = client.get(f"/api/matches/{mid}", headers={"X-Seat": tok}).json()
    assert not st["can_undo"]
    refused = client.post(f"/api/matches/{mid}/undo", headers={"X-Seat": tok},
                          json={"version": st["version"]})
    assert refused.status_code == 409 and "nothing" in refused.json()["error"]
    st = client.post(f"/api/matches/{mid}/decide", headers={"X-Seat": tok},
                     json={"index": 0, "value": "B1", "version": st["version"]}).json()
    assert st["can_undo"]
    back = client.post(f"/api/matches/{mid}/undo", headers={"X-Seat": tok}, json={"version": st["version"]})
    assert back.status_code == 200, back.text
    assert back.json()["decisions"] == 0
    assert back.json()["pending"]["prompt"] == "Move which unit?"
    assert room_match(client, mid).decisions == []


def test_undo_is_honest_never_past_a_die_roll(client: TestClient) -> None:
    """Undo through the browser is the terminal's honest undo:
    once a die has been rolled after the seat's last decision, undo is refused with one
    message saying what stands, and the match and its version are unchanged."""
    created = start(client, "skirmish", seed=3, sides={"Blue": "here", "Red": "bot:pusher"})
    mid, tok = created["id"], seat_of(created, "Blue")
    agent = RandomAgent("Blue", 4)
    for _ in range(200):
        match = room_match(client, mid)
        kinds = [e.kind for e in match.log]
        mine = max((i for i, e in enumerate(match.log)
                    if e.kind == "decision" and e.data.get("player") == "Blue"), default=-1)
        if mine >= 0 and "roll" in kinds[mine:]:
            break
        st = client.get(f"/api/matches/{mid}", headers={"X-Seat": tok}).json()
        assert st["pending"] is not None, "the game ended before any die was rolled"
        assert match.pending is not None
        value = agent.choose(match.view("Blue"), match.pending)
        index = [o.value for o in match.pending.options].index(value)
        res = client.post(f"/api/matches/{mid}/decide", headers={"X-Seat": tok},
                          json={"index": index, "value": value, "version": st["version"]})
        assert res.status_code == 200, res.text
    else:
        raise AssertionError("no die was rolled in 200 decisions")
    st = client.get(f"/api/matches/{mid}", headers={"X-Seat": tok}).json()
    before = (len(room_match(client, mid).decisions), room_match(client, mid).state.hash())
    res = client.post(f"/api/matches/{mid}/undo", headers={"X-Seat": tok}, json={"version": st["version"]})
    assert res.status_code == 400 and "roll" in res.json()["error"], res.text
    assert (len(room_match(client, mid).decisions), room_match(client, mid).state.hash()) == before
    assert client.get(f"/api/matches/{mid}", headers={"X-Seat": tok}).json()["version"] == st["version"]


def test_bad_requests_get_a_clear_error_and_change_nothing(client: TestClient, data_dir: Path) -> None:
    """Unknown games, sides, seeds and bots; malformed bodies; bad option indexes; stale pages."""
    for body, words, status in (({"game": "no_such_game"}, "no game", 404),
                                ({"game": "skirmish", "sides": {"Green": "here"}}, "no side", 400),
                                ({"game": "skirmish", "seed": "x"}, "seed", 400),
                                ({"game": "skirmish", "sides": {"Blue": "bot:nobody"}}, "no agent", 400),
                                ({"game": "skirmish", "sides": {"Blue": "bot:random", "Red": "bot:random"}},
                                 "every side is a bot", 400),
                                ({"game": "skirmish", "options": {"turns": 5}}, "not one of", 400)):
        res = client.post("/api/matches", json=body)
        assert res.status_code == status and words in res.json()["error"], (body, res.text)
    assert client.post("/api/matches", content=b"{not json", headers=JSON_TYPE).status_code == 400
    assert not list(data_dir.glob("match-*.json"))
    created = start(client, "skirmish", seed=3)
    mid, tok = created["id"], seat_of(created, "Blue")
    path = data_dir / f"match-{mid}.json"
    saved = path.read_bytes()
    st = client.get(f"/api/matches/{mid}", headers={"X-Seat": tok}).json()
    url = f"/api/matches/{mid}/decide"
    for sent, status in (({"index": 99, "value": "B1", "version": st["version"]}, 400),
                         ({"index": "0", "value": "B1", "version": st["version"]}, 400),
                         ({"index": 0, "value": "B2", "version": st["version"]}, 409),
                         ({"index": 0, "value": "B1", "version": st["version"] - 1}, 409),
                         ({"index": 0, "value": "B1"}, 400)):
        res = client.post(url, headers={"X-Seat": tok}, json=sent)
        assert res.status_code == status and res.json()["error"], (sent, res.text)
    assert client.post(url, headers={"X-Seat": tok, **JSON_TYPE}, content=b"[1,2]").status_code == 400
    assert client.get("/api/matches/0000000000aa", headers={"X-Seat": tok}).status_code == 404
    assert client.get("/api/matches/../../etc", headers={"X-Seat": tok}).status_code == 404
    assert client.get("/api/replays/nothing").status_code == 404
    assert path.read_bytes() == saved
    assert room_match(client, mid).decisions == []


def test_resume_a_save_file(client: TestClient) -> None:
    """A save made elsewhere (here: a bot game stopped half-way) resumes as a new match."""
    match = Match(game("skirmish"), seed=11)
    match.run({"Blue": RandomAgent("Blue", 1), "Red": RandomAgent("Red", 2)}, max_decisions=15)
    save = make_record(match)
    res = client.post("/api/matches/resume", json={"save": save, "sides": {"Red": "bot:random"}})
    assert res.status_code == 201, res.text
    created = res.json()
    resumed = room_match(client, created["id"])
    assert resumed.decisions[:15] == match.decisions
    broken = dict(save, decisions=[*save["decisions"][:3], "nonsense"])
    res = client.post("/api/matches/resume", json={"save": broken})
    assert res.status_code == 400 and "does not resume" in res.json()["error"]


def test_replay_viewer_steps_through_a_record(client: TestClient) -> None:
    """A record opens in the viewer; every step is the position after that many decisions, seen
    by a side (hidden pieces face-down) or by everyone; a record that diverges is refused."""
    match = Match(game("skirmish"), seed=4)
    match.run({"Blue": RandomAgent("Blue", 4), "Red": RandomAgent("Red", 5)})
    record = make_record(match)
    res = client.post("/api/replays", json={"record": record})
    assert res.status_code == 201, res.text
    rid, total = res.json()["id"], res.json()["total"]
    assert total == len(match.decisions)
    start_view = client.get(f"/api/replays/{rid}?step=0&side=Blue").json()
    assert start_view["step"] == 0 and start_view["pending"]["player"] == "Blue"
    assert 'data-piece="R1"' not in start_view["svg"]
    gm = client.get(f"/api/replays/{rid}?step=0").json()
    assert 'data-piece="R1"' in gm["svg"]
    end = client.get(f"/api/replays/{rid}?step={total}").json()
    assert end["result"]["level"] == match.result.level if match.result else end["result"] is None
    mid = client.get(f"/api/replays/{rid}?step={total // 2}").json()
    assert len(mid["log"]) < len(end["log"]) and mid["step"] == total // 2
    assert client.get(f"/api/replays/{rid}?step={total + 1}").status_code == 400
    assert client.get(f"/api/replays/{rid}?step=x").status_code == 400
    assert client.get(f"/api/replays/{rid}?side=Green").status_code == 400
    bad = dict(record, decisions=[*record["decisions"][:-1], "nowhere"])
    res = client.post("/api/replays", json={"record": bad})
    assert res.status_code == 400 and "does not replay" in res.json()["error"]


def test_replay_a_row_of_a_study(client: TestClient, tmp_path: Path) -> None:
    """A line of `tabletop simulate --rows` is played again by the same bots from its seed and
    ends as the row says; a row whose result the replay does not reach is refused (the study
    used other settings)."""
    from tabletop.core.frontends.cli import main

    rows = tmp_path / "rows.jsonl"
    assert main(["simulate", EXAMPLE, "-n", "2", "--seed", "6", "--rows", str(rows)]) == 0
    line = rows.read_text().splitlines()[1]
    res = client.post("/api/replays", json={"row": line, "game": "skirmish"})
    assert res.status_code == 201, res.text
    rid = res.json()["id"]
    end = client.get(f"/api/replays/{rid}").json()
    assert end["result"]["level"] == json.loads(line)["result"]
    assert json.loads(line)["state_hash"]  # the study's row pins the whole game down
    row = json.dumps({"seed": 7, "result": "not " + end["result"]["level"]})
    res = client.post("/api/replays", json={"row": row, "game": "skirmish"})
    assert res.status_code == 400 and "as the row says" in res.json()["error"]


def test_serve_refuses_bad_arguments_in_one_line(capsys: Any, tmp_path: Path) -> None:
    """`tabletop serve` with an unknown game, a bad port or a port in use: one line, exit 2."""
    import socket

    from tabletop.core.frontends.cli import main

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        for argv, words in ((["serve", "no_such_game"], "no game"),
                            (["serve", "--port", "70000"], "not a port"),
                            (["serve", "--port", str(port), "--data", str(tmp_path)], "cannot listen")):
            assert main(argv) == 2
            err = capsys.readouterr().err
            assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_several_matches_run_at_once(client: TestClient) -> None:
    """Matches of different games side by side: a decision in one leaves the others as they were."""
    a = start(client, "skirmish", seed=1)
    b = start(client, "iwo_1945", seed=1)
    c = start(client, "iwo_bonins", scenario="solitaire", seed=1)
    before = {m["id"]: room_match(client, m["id"]).state_hash() for m in (b, c)}
    tok = seat_of(a, "Blue")
    st = client.get(f"/api/matches/{a['id']}", headers={"X-Seat": tok}).json()
    res = client.post(f"/api/matches/{a['id']}/decide", headers={"X-Seat": tok},
                      json={"index": 0, "value": "B1", "version": st["version"]})
    assert res.status_code == 200
    assert {m: room_match(client, m).state_hash() for m in before} == before
    # a seat of one match is no seat of another
    res = client.get(f"/api/matches/{b['id']}", headers={"X-Seat": tok})
    assert res.status_code == 403


def test_the_bot_decides_one_decision_or_the_rest_of_the_phase_for_a_seat(client: TestClient) -> None:
    """The browser's "let the bot decide" (the terminal's b and b phase): the game's bot takes
    the seat's decision, or every one of them until the phase ends; a stale version, another
    side's turn or an unknown scope is refused and changes nothing."""
    created = start(client, "skirmish", seed=3, sides={"Blue": "here", "Red": "bot:pusher"})
    mid, tok = created["id"], seat_of(created, "Blue")
    st = client.get(f"/api/matches/{mid}", headers={"X-Seat": tok}).json()
    refused = client.post(f"/api/matches/{mid}/bot", headers={"X-Seat": tok},
                          json={"version": st["version"], "scope": "game"})
    assert refused.status_code == 400 and "scope" in refused.json()["error"]
    stale = client.post(f"/api/matches/{mid}/bot", headers={"X-Seat": tok},
                        json={"version": st["version"] + 5, "scope": "one"})
    assert stale.status_code == 409
    one = client.post(f"/api/matches/{mid}/bot", headers={"X-Seat": tok},
                      json={"version": st["version"], "scope": "one"}).json()
    assert one["version"] == st["version"] + 1
    assert len(room_match(client, mid).decisions) == 1
    phase = client.post(f"/api/matches/{mid}/bot", headers={"X-Seat": tok},
                        json={"version": one["version"], "scope": "phase"}).json()
    match = room_match(client, mid)
    assert phase["version"] == one["version"] + 1 and len(match.decisions) > 1
    assert match.state.phase != "blue_move" or match.pending is None or match.pending.player != "Blue"


def test_the_score_is_the_victory_standing_in_words(client: TestClient) -> None:
    """The Score dialog's data holds the game's victory standing in words (what the terminal's
    v says), not raw game variables."""
    created = start(client, "skirmish", seed=3, sides={"Blue": "here", "Red": "bot:pusher"})
    mid, tok = created["id"], seat_of(created, "Blue")
    status = client.get(f"/api/matches/{mid}/status", headers={"X-Seat": tok}).json()
    match = room_match(client, mid)
    assert status["standing"] == match.game.standing(match, "Blue")
    assert status["standing"][0].startswith("If the game ended now")


def test_a_decisions_odds_reach_the_page_once_as_a_table() -> None:
    """The page's decision carries its options' odds once, as a table (the results, and a
    row of whole percentages an option that has odds), for the browser to draw under the
    options instead of repeating each option's odds line."""
    from tabletop.core.engine.decisions import Option, choose
    from tabletop.core.frontends.web.seeing import decision_json

    decision = choose("A", "Attack which?", "5.1", [
        Option("x", "attack the hill", "odds…", {"odds": {"DE": 1 / 6, "DR": 1 / 3, "NE": 1 / 2}}),
        Option("done", "no attack")])
    got = decision_json(decision, set())
    assert got["odds"] == {"results": ["DE", "DR", "NE"],
                           "rows": [{"index": 0, "percents": {"DE": 17, "DR": 33, "NE": 50}}]}
    assert "odds" not in decision_json(choose("A", "Go?", "1", ["yes", "no"]), set())
