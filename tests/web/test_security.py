"""What `tabletop serve` refuses to anyone who can make a browser send it a request: games
outside its catalogue (nothing named by a request is imported), changes from another site or
without a JSON body, requests addressed to another host (DNS rebinding), bodies nested too
deep; and how it stops on Ctrl-C."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tabletop.core.engine.agents import RandomAgent
from tabletop.core.engine.match import Match
from tabletop.core.engine.record import make_record, make_save
from tabletop.core.frontends.web import create_app, guard
from tabletop.core.frontends.web.guard import own_names, too_deep

from .conftest import EXAMPLE, HOSTS, ROOT, game, room_match, seat_of, start

JSON_TYPE = {"Content-Type": "application/json"}
EVIL = "http://attacker.example"


@pytest.fixture
def planted(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A game folder whose ``__init__.py`` leaves a marker file when it is imported."""
    folder = tmp_path / "planted_game"
    folder.mkdir()
    marker = tmp_path / "imported.txt"
    (folder / "__init__.py").write_text(
        f"from pathlib import Path\nPath({str(marker)!r}).write_text('ran')\nGAME = None\n")
    assert "this" not in sys.modules  # the module a request names as "this:GAME"
    yield {"folder": str(folder), "marker": marker}
    assert not marker.exists(), "the planted folder was imported"
    assert "planted_game" not in sys.modules and "this" not in sys.modules


def _bot_game(seed: int, decisions: int | None = None) -> Match:
    match = Match(game("skirmish"), seed=seed)
    match.run({"Blue": RandomAgent("Blue", seed), "Red": RandomAgent("Red", seed + 1)},
              max_decisions=decisions)
    return match


def _refused_for_the_catalogue(res: Any) -> None:
    assert res.status_code == 404, res.text
    error = res.json()["error"]
    assert "skirmish" in error and "iwo_bonins" in error, error  # it names the games served


# -- the catalogue --------------------------------------------------------------------------

def test_a_new_match_names_only_a_game_of_the_catalogue(client: TestClient, planted: dict[str, Any],
                                                         data_dir: Path) -> None:
    """A folder, a module:attr, an entry's source path or an unknown id is a 404 naming the
    games served, and nothing is imported."""
    for name in (planted["folder"], "this:GAME", "planted_game:GAME", EXAMPLE, "no_such_game"):
        _refused_for_the_catalogue(client.post("/api/matches", json={"game": name}))
    assert not list(data_dir.glob("match-*.json"))
    assert start(client, "skirmish", seed=1)["id"]  # the id of a game served still starts


def test_a_record_is_replayed_by_its_header_game_id_never_its_source(
        client: TestClient, planted: dict[str, Any]) -> None:
    """A record whose header names a folder or a module (as its game or its source) is not
    imported: its game id is looked up in the catalogue alone."""
    record = make_record(_bot_game(4))
    for header in ({"game": planted["folder"]}, {"game": "this:GAME"},
                   {"game": "planted_game", "source": planted["folder"]},
                   {"game": "gone", "source": "this:GAME"}):
        bad = dict(record, header={**record["header"], **header})
        _refused_for_the_catalogue(client.post("/api/replays", json={"record": bad}))
    # a record of a game served is found by its id; the source it names is a field tabletop
    # does not write, so verification refuses the record, and nothing is imported
    sourced = dict(record, header={**record["header"], "source": planted["folder"]})
    res = client.post("/api/replays", json={"record": sourced})
    assert res.status_code == 400 and "header.source" in res.json()["error"], res.text
    assert client.post("/api/replays", json={"record": record}).status_code == 201


def test_a_save_is_resumed_by_its_header_game_id_never_its_source(
        client: TestClient, planted: dict[str, Any]) -> None:
    """The resume endpoint looks a save's game up in the catalogue by id, like the viewer."""
    save = make_save(_bot_game(11, 15))
    for header in ({"game": planted["folder"]}, {"game": "this:GAME"},
                   {"game": "planted_game", "source": planted["folder"]}):
        bad = dict(save, header={**save["header"], **header})
        _refused_for_the_catalogue(client.post("/api/matches/resume", json={"save": bad}))
    sourced = dict(save, header={**save["header"], "source": planted["folder"]})
    res = client.post("/api/matches/resume", json={"save": sourced, "sides": {"Red": "bot:random"}})
    assert res.status_code == 400 and "header.source" in res.json()["error"], res.text
    res = client.post("/api/matches/resume", json={"save": save, "sides": {"Red": "bot:random"}})
    assert res.status_code == 201, res.text


def test_a_rows_line_names_only_a_game_of_the_catalogue(client: TestClient,
                                                        planted: dict[str, Any]) -> None:
    """A study's rows line (or the form beside it) naming a folder or a module is a 404."""
    for body in ({"row": {"seed": 1, "game": planted["folder"]}},
                 {"row": {"seed": 1}, "game": planted["folder"]},
                 {"row": {"seed": 1}, "game": "this:GAME"},
                 {"row": {"seed": 1}, "game": EXAMPLE}):
        _refused_for_the_catalogue(client.post("/api/replays", json=body))


def test_files_in_the_data_folder_name_only_games_of_the_catalogue(
        client: TestClient, data_dir: Path, planted: dict[str, Any]) -> None:
    """A match or replay file read back after a restart is not imported from the folder its
    header names: the match is a 404 naming the catalogue, the replay a 404."""
    created = start(client, "skirmish", seed=2)
    mid, tok = created["id"], seat_of(created, "Blue")
    res = client.post("/api/replays", json={"record": make_record(_bot_game(4))})
    rid = res.json()["id"]
    for path, key in ((data_dir / f"match-{mid}.json", "save"), (data_dir / f"replay-{rid}.json", "record")):
        data = json.loads(path.read_text())
        data[key]["header"].update(game=planted["folder"], source=planted["folder"])
        path.write_text(json.dumps(data))
    again = TestClient(create_app(data_dir, {"skirmish": game("skirmish")}, hosts=HOSTS))
    _refused_for_the_catalogue(again.get(f"/api/matches/{mid}", headers={"X-Seat": tok}))
    assert again.get(f"/api/replays/{rid}").status_code == 404


def test_the_home_page_is_not_told_where_a_game_folder_is(client: TestClient) -> None:
    """The games list names each game by its id, the name a request gives back."""
    games = client.get("/api/games").json()["games"]
    assert EXAMPLE not in json.dumps(games)
    assert all("name" not in g for g in games)


# -- JSON and Origin ------------------------------------------------------------------------

def test_cross_origin_text_plain_post_is_refused(client: TestClient, data_dir: Path) -> None:
    """What a page on another site can send without a preflight (a form's or fetch's
    text/plain POST) is refused with 403 and starts nothing."""
    body = json.dumps({"game": "skirmish", "seed": 1})
    for kind in ("text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
                 "multipart/form-data; boundary=x", "application/json"):
        res = client.post("/api/matches", content=body, headers={"Origin": EVIL, "Content-Type": kind})
        assert res.status_code == 403 and "another site" in res.json()["error"], (kind, res.text)
    for origin in ("null", "http://testserver:8080", "https://testserver.attacker.example"):
        res = client.post("/api/matches", content=body, headers={"Origin": origin, **JSON_TYPE})
        assert res.status_code == 403, (origin, res.text)
    assert not list(data_dir.glob("match-*.json"))
    res = client.post("/api/matches", content=body, headers={"Origin": "http://testserver", **JSON_TYPE})
    assert res.status_code == 201, res.text


def test_a_change_needs_a_json_content_type(client: TestClient, data_dir: Path) -> None:
    """Without an Origin (not a browser's cross-site request) a POST must still say it sends
    JSON: 415 otherwise, nothing started."""
    body = json.dumps({"game": "skirmish", "seed": 1})
    for headers in ({"Content-Type": "text/plain"}, {"Content-Type": "application/x-www-form-urlencoded"},
                    {}):
        res = client.post("/api/matches", content=body, headers=headers)
        assert res.status_code == 415 and "application/json" in res.json()["error"], (headers, res.text)
    assert not list(data_dir.glob("match-*.json"))
    res = client.post("/api/matches", content=body,
                      headers={"Content-Type": "Application/JSON; charset=utf-8"})
    assert res.status_code == 201, res.text


def test_a_decision_from_another_site_changes_nothing(client: TestClient, data_dir: Path) -> None:
    """Even with the seat's token, a decision or undo posted from another origin is refused;
    so is any other changing method, on any route."""
    created = start(client, "skirmish", seed=3)
    mid, tok = created["id"], seat_of(created, "Blue")
    saved = (data_dir / f"match-{mid}.json").read_bytes()
    st = client.get(f"/api/matches/{mid}", headers={"X-Seat": tok}).json()
    option = st["pending"]["options"][0]
    decision = {"index": 0, "value": option["value"], "version": st["version"]}
    res = client.post(f"/api/matches/{mid}/decide", json=decision, headers={"X-Seat": tok, "Origin": EVIL})
    assert res.status_code == 403
    res = client.post(f"/api/matches/{mid}/decide", content=json.dumps(decision),
                      headers={"X-Seat": tok, "Content-Type": "text/plain"})
    assert res.status_code == 415
    for method in ("PUT", "PATCH", "DELETE"):
        res = client.request(method, f"/api/matches/{mid}", headers={"X-Seat": tok, "Origin": EVIL})
        assert res.status_code == 403, method
    assert room_match(client, mid).decisions == []
    assert (data_dir / f"match-{mid}.json").read_bytes() == saved


# -- Host -----------------------------------------------------------------------------------

def test_a_request_to_another_host_is_refused_on_every_route(client: TestClient) -> None:
    """DNS rebinding: a page of another domain pointed at this machine sends its own name as
    Host; every route answers 421 to it, pages and static files included."""
    created = start(client, "skirmish", seed=1)
    mid, tok = created["id"], seat_of(created, "Blue")
    for host in ("attacker.example", "testserver:8080", "testserver.attacker.example", "localhost"):
        for path in ("/", "/api/games", f"/api/matches/{mid}", f"/play/{mid}", "/static/style.css",
                     "/no/such/page"):
            res = client.get(path, headers={"Host": host, "X-Seat": tok})
            assert res.status_code == 421 and "does not answer to the host" in res.json()["error"], \
                (host, path, res.text)
        res = client.post("/api/matches", json={"game": "skirmish"}, headers={"Host": host})
        assert res.status_code == 421
    assert client.get("/api/games").status_code == 200


def test_a_server_answers_to_its_loopback_names_and_its_address_with_its_port() -> None:
    """The names `tabletop serve` gives the application: the loopback names and the bound
    address, with the bound port; more only by --allow-host."""
    assert own_names("127.0.0.1", 8000) == ["localhost:8000", "127.0.0.1:8000", "[::1]:8000"]
    assert own_names("::1", 81) == ["localhost:81", "127.0.0.1:81", "[::1]:81"]
    assert own_names("0.0.0.0", 8000, ["192.168.1.5", "box.lan:9000"])[-3:] == \
        ["0.0.0.0:8000", "192.168.1.5:8000", "box.lan:9000"]


def test_serve_refuses_a_bad_allowed_host_or_port_0_in_one_line(capsys: Any, tmp_path: Path) -> None:
    """`--allow-host` takes a host name or address (with a port or not), nothing else; port 0
    (any free port) is refused, as the server must know the port its Host names carry."""
    from tabletop.core.frontends.cli import main

    for argv, words in ((["--allow-host", "box.lan/path"], "box.lan/path"), (["--port", "0"], "--port 0")):
        assert main(["serve", *argv, "--data", str(tmp_path)]) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1, err


@pytest.mark.parametrize("base", ["http://localhost:8000", "http://127.0.0.1:8000", "http://[::1]:8000"])
def test_the_loopback_names_with_the_port_are_answered(data_dir: Path, base: str) -> None:
    """An application made for 127.0.0.1:8000 answers its loopback names on that port (and
    the same-origin changes of its own pages), nothing else."""
    app = create_app(data_dir, {"skirmish": game("skirmish")}, hosts=own_names("127.0.0.1", 8000))
    with TestClient(app, base_url=base) as local:
        assert local.get("/api/games").status_code == 200
        res = local.post("/api/matches", json={"game": "skirmish"}, headers={"Origin": base})
        assert res.status_code == 201, res.text
    for other in ("http://localhost:8001", "http://localhost", "http://rebound.attacker.example:8000"):
        with TestClient(app, base_url=other) as away:
            assert away.get("/").status_code == 421, other


# -- bodies ---------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/api/matches", "/api/matches/resume", "/api/replays"])
def test_a_deeply_nested_body_is_a_clear_400(client: TestClient, path: str) -> None:
    """A body nested past the bound is one 400, not a 500: far past it (the parser's own
    limit) and just past it (the bound checked on what was parsed)."""
    for raw in ("[" * 100_000 + "]" * 100_000, "[" * 100_000,
                '{"game": ' + "[" * 100 + "]" * 100 + "}",
                '{"game": ' + '{"a": ' * 5000 + "1" + "}" * 5000 + "}",
                '{"save": ' + "[" * 2000 + "]" * 2000 + ', "record": ' + "[" * 2000 + "]" * 2000 + "}"):
        res = client.post(path, content=raw, headers=JSON_TYPE)
        assert res.status_code == 400 and "levels deep" in res.json()["error"], (path, raw[:20], res.text)


def test_a_rows_line_sent_as_text_is_held_to_the_same_bound(client: TestClient) -> None:
    """A rows line given as a JSON string inside the body is parsed with the body's bound."""
    for row in ("[" * 100_000, '{"seed": 1, "x": ' + "[" * 100 + "]" * 100 + "}"):
        res = client.post("/api/replays", json={"row": row, "game": "skirmish"})
        assert res.status_code == 400 and "levels deep" in res.json()["error"], res.text


def test_the_depth_bound_allows_the_bound_itself() -> None:
    """Arrays and objects count alike; scalars and strings with brackets in them do not."""
    bound = guard.MAX_DEPTH

    def nest(n: int) -> Any:
        data: Any = "[[[["
        for k in range(n):
            data = [data] if k % 2 else {"k": data, "x": 1}
        return data

    assert not too_deep(nest(bound)) and too_deep(nest(bound + 1))
    assert not too_deep(json.loads(json.dumps({"a": "[" * 1000, "b": [[[["x"]]]], "c": 2})))
    assert not too_deep("[[[[")


def test_a_body_larger_than_the_bound_is_a_413(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Refused by its Content-Length, or once its stream passes the bound when it has none."""
    monkeypatch.setattr(guard, "MAX_BODY", 1000)
    big = json.dumps({"game": "skirmish", "pad": "x" * 2000})
    res = client.post("/api/matches", content=big, headers=JSON_TYPE)
    assert res.status_code == 413 and "too large" in res.json()["error"]

    def chunks() -> Iterator[bytes]:
        for _ in range(20):
            yield b" " * 100

    res = client.post("/api/matches", content=chunks(), headers=JSON_TYPE)
    assert res.status_code == 413


def test_a_decision_or_undo_missing_a_field_names_it(client: TestClient, data_dir: Path) -> None:
    """An empty body or a missing field is a 400 naming the field, not "moved on"; nothing changes."""
    created = start(client, "skirmish", seed=3)
    mid, tok = created["id"], seat_of(created, "Blue")
    st = client.get(f"/api/matches/{mid}", headers={"X-Seat": tok}).json()
    saved = (data_dir / f"match-{mid}.json").read_bytes()
    seat = {"X-Seat": tok, **JSON_TYPE}
    for path, body, missing in (("decide", b"", "index"), ("decide", b"{}", "index"),
                                ("decide", b'{"index": 0}', "value"),
                                ("decide", json.dumps({"index": 0, "value": "B1"}).encode(), "version"),
                                ("undo", b"", "version"), ("undo", b"{}", "version")):
        res = client.post(f"/api/matches/{mid}/{path}", content=body, headers=seat)
        error = res.json()["error"]
        assert res.status_code == 400 and f"missing {missing!r}" in error, (path, body, error)
    assert room_match(client, mid).decisions == []
    assert (data_dir / f"match-{mid}.json").read_bytes() == saved
    assert client.get(f"/api/matches/{mid}", headers={"X-Seat": tok}).json()["version"] == st["version"]


# -- stopping -------------------------------------------------------------------------------

@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl_c", "sigterm"])
def test_ctrl_c_or_sigterm_stops_the_server_in_one_line(tmp_path: Path, sig: signal.Signals) -> None:
    """SIGINT (Ctrl-C) or SIGTERM (a service manager's stop) to `tabletop serve` on a free
    local port: "stopped", exit 0, nothing on stderr."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "tabletop.core.frontends.cli", "serve",
                             "--port", str(port), "--data", str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=5).read()
                break
            except (urllib.error.URLError, ConnectionError):
                assert proc.poll() is None and time.monotonic() < deadline, "tabletop serve did not start"
                time.sleep(0.2)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, (out, err)
    assert err == ""
    assert out.splitlines()[-1] == "tabletop serve: stopped", out
