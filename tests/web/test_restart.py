"""A restarted server reads each match back from its restore point (not by replaying it),
checked against the hashes its file states; a damaged file is refused with one message and
the match is not loaded."""

from __future__ import annotations

import json
from pathlib import Path

from starlette.testclient import TestClient

from tabletop.core.engine.agents import RandomAgent
from tabletop.core.engine.resume import LazyEventLog
from tabletop.core.frontends.web import create_app

from .conftest import HOSTS, game, room_match, seat_of, start


def played(client: TestClient, decisions: int) -> tuple[str, str]:
    """A match of the example in which Blue (a person) has taken some decisions."""
    created = start(client, "skirmish", seed=5, sides={"Blue": "here", "Red": "bot:random"})
    mid, tok = created["id"], seat_of(created, "Blue")
    agent = RandomAgent("Blue", 1)
    for _ in range(decisions):
        st = client.get(f"/api/matches/{mid}", headers={"X-Seat": tok}).json()
        match = room_match(client, mid)
        if st["result"] or match.pending is None:
            break
        value = agent.choose({}, match.pending)
        client.post(f"/api/matches/{mid}/decide", headers={"X-Seat": tok},
                    json={"index": match.pending.index_of(value), "value": value,
                          "version": st["version"]})
    return mid, tok


def restarted(data_dir: Path) -> TestClient:
    """A second server on the same folder."""
    return TestClient(create_app(data_dir, {"skirmish": game("skirmish")}, hosts=HOSTS))


def test_a_restarted_server_restores_the_match_without_replaying_it(client: TestClient,
                                                                    data_dir: Path) -> None:
    """The match comes back from its restore point (its log read lazily from the file beside
    the room's), equal to the one before; it plays on and is saved again by appending."""
    mid, tok = played(client, 10)
    before = room_match(client, mid)
    assert json.loads((data_dir / f"match-{mid}.json").read_text())["save"]["format"] == "tabletop-save/2"
    again = restarted(data_dir)
    st = again.get(f"/api/matches/{mid}", headers={"X-Seat": tok}).json()
    after = room_match(again, mid)
    assert isinstance(after.log, LazyEventLog)
    assert after.state_hash() == before.state_hash() and after.decisions == before.decisions
    assert after.log.to_jsonl() == before.log.to_jsonl()
    if after.pending is not None:
        index = 0
        value = after.pending.options[0].value
        res = again.post(f"/api/matches/{mid}/decide", headers={"X-Seat": tok},
                         json={"index": index, "value": value, "version": st["version"]})
        assert res.status_code == 200, res.text
        third = room_match(restarted(data_dir), mid)
        assert third.state_hash() == room_match(again, mid).state_hash()
    assert len(list(data_dir.glob(f"match-{mid}.json.events.*.jsonl"))) == 1


def test_a_damaged_log_file_is_refused_and_the_match_not_loaded(client: TestClient,
                                                                data_dir: Path) -> None:
    """A restarted server finding a room's log file changed answers with one message naming
    the match and what is wrong, loads nothing, and leaves the files as they were."""
    mid, tok = played(client, 6)
    (log,) = data_dir.glob(f"match-{mid}.json.events.*.jsonl")
    log.write_bytes(log.read_bytes().replace(b'"text":"', b'"text":"X', 1))
    files = {p.name: p.read_bytes() for p in data_dir.iterdir()}
    again = restarted(data_dir)
    res = again.get(f"/api/matches/{mid}", headers={"X-Seat": tok})
    assert res.status_code == 500
    error = res.json()["error"]
    assert f"match {mid} cannot be resumed" in error and "was changed since it was saved" in error
    assert "\n" not in error
    assert {p.name: p.read_bytes() for p in data_dir.iterdir()} == files
    app = again.app
    assert mid not in app.state.web.rooms._rooms  # type: ignore[attr-defined]
