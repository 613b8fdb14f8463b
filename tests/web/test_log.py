"""The log sent to a page a piece at a time: a page that sends back ``since`` and ``log`` (the
``log_next`` and ``log_key`` of its last answer) is sent only the events after its copy, and
its copy stays exactly its side's log as the core masks it (``match.log.visible``, views
not peeking) across undo (the log cut back), a server restart, a hot-seat change of
side and each seat of a two-player game with hidden units."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from tabletop.core.engine.match import Match
from tabletop.core.engine.visibility import find_leaks, secrets_of
from tabletop.core.frontends.web import create_app
from tabletop.core.frontends.web.seeing import event_json

from .conftest import HOSTS, game, room_match, seat_of, start


class Copy:
    """A page's copy of its side's log, kept as the play page keeps it (play.js ``showLog``)."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.held: dict[str, Any] = {}  # since and log, once an answer has come
        self.parts = 0  # answers that added to the copy
        self.redrawn = 0  # answers that replaced a copy of some events by a whole log

    def take(self, answer: dict[str, Any]) -> None:
        """Add an answer's events to the copy, or replace it by a whole log."""
        if answer["log_from"] == 0:
            self.redrawn += self.held.get("since", 0) > 0
            self.events = list(answer["log"])
        else:
            assert answer["log_from"] == self.held["since"] and answer["log_key"] == self.held["log"]
            self.events += answer["log"]
            self.parts += 1
        self.held = {"since": answer["log_next"], "log": answer["log_key"]}


def whole_log(match: Match, side: str) -> list[dict[str, Any]]:
    """The side's log as the core masks it, as a page shows it."""
    return [event_json(e, match.game) for e in match.log.visible(side)]


def get(client: TestClient, mid: str, tok: str, copy: Copy) -> dict[str, Any]:
    """The seat's state, asked for with the page's copy of the log."""
    res = client.get(f"/api/matches/{mid}", headers={"X-Seat": tok}, params=copy.held)
    assert res.status_code == 200, res.text
    answer: dict[str, Any] = res.json()
    copy.take(answer)
    return answer


def post(client: TestClient, mid: str, tok: str, copy: Copy, what: str,
         body: dict[str, Any]) -> Any:
    """Decide or undo as the page does, its copy of the log sent along."""
    res = client.post(f"/api/matches/{mid}/{what}", headers={"X-Seat": tok}, params=copy.held,
                      json=body)
    if res.status_code == 200:
        copy.take(res.json())
    return res


def test_new_events_added_to_a_copy_are_the_whole_log_across_undo(client: TestClient) -> None:
    """Example game (RULES.md, Blue against a bot): after every decision the page's copy, sent
    only the new events, equals the whole log; an undo (which cuts the log back) and a stale
    copy are answered with the whole log, and the copy goes on growing after it."""
    created = start(client, "skirmish", seed=3, sides={"Blue": "here", "Red": "bot:pusher"})
    mid, tok = created["id"], seat_of(created, "Blue")
    match = room_match(client, mid)
    copy = Copy()
    st = get(client, mid, tok, copy)
    assert st["log_from"] == 0 and copy.events == whole_log(match, "Blue")
    rng = random.Random(5)
    undone, stale = 0, None
    for step in range(80):
        if match.pending is None:
            break
        if st["can_undo"] and (step == 1 or rng.random() < 0.15):
            before, key = len(match.log), st["log_key"]
            res = post(client, mid, tok, copy, "undo", {"version": st["version"]})
            if res.status_code == 200:  # refused past a roll or the bot's answer: nothing changes
                st = res.json()
                assert st["log_from"] == 0 and len(match.log) < before and st["log_key"] != key
                undone += 1
                stale = {"since": before, "log": key}
            else:
                assert res.status_code == 400 and "stands" in res.json()["error"], res.text
        else:
            options = st["pending"]["options"]
            index = rng.randrange(len(options))
            res = post(client, mid, tok, copy, "decide",
                       {"index": index, "value": options[index]["value"], "version": st["version"]})
            assert res.status_code == 200, res.text
            st = res.json()
        assert copy.events == whole_log(match, "Blue"), step
        st = get(client, mid, tok, copy)  # a poll: nothing new
        assert st["log"] == [] and copy.events == whole_log(match, "Blue")
    assert undone >= 2 and copy.parts > 60 and copy.redrawn == undone
    # the copy from before the last undo is stale: the whole log, never an addition to it
    assert stale is not None
    res = client.get(f"/api/matches/{mid}", headers={"X-Seat": tok}, params=stale).json()
    assert res["log_from"] == 0 and res["log"] == whole_log(match, "Blue")


def test_without_since_or_with_a_foreign_copy_the_whole_log_is_sent(client: TestClient,
                                                                   data_dir: Path) -> None:
    """A request without ``since`` gets the whole log as before; so does one whose copy is of
    another log (a key made up, a count past the log's end, a server restarted since); a
    ``since`` that is not a number is refused and the decision is not taken."""
    created = start(client, "skirmish", seed=3, sides={"Blue": "here", "Red": "bot:pusher"})
    mid, tok = created["id"], seat_of(created, "Blue")
    match = room_match(client, mid)
    copy = Copy()
    st = get(client, mid, tok, copy)
    st = post(client, mid, tok, copy, "decide",
              {"index": 0, "value": "B1", "version": st["version"]}).json()
    assert st["log_from"] > 0 and copy.events == whole_log(match, "Blue")
    plain = client.get(f"/api/matches/{mid}", headers={"X-Seat": tok}).json()
    assert plain["log_from"] == 0 and plain["log"] == whole_log(match, "Blue")
    for held in ({"since": st["log_next"], "log": "made-up:Blue"},
                 {"since": len(match.log) + 1, "log": st["log_key"]},
                 {"since": -1, "log": st["log_key"]}):
        res = client.get(f"/api/matches/{mid}", headers={"X-Seat": tok}, params=held).json()
        assert res["log_from"] == 0 and res["log"] == whole_log(match, "Blue"), held
    version, decisions = st["version"], list(match.decisions)
    option = st["pending"]["options"][0]
    bad = client.post(f"/api/matches/{mid}/decide", headers={"X-Seat": tok},
                      params={"since": "x", "log": st["log_key"]},
                      json={"index": 0, "value": option["value"], "version": version})
    assert bad.status_code == 400 and "since" in bad.json()["error"]
    assert match.decisions == decisions
    again = TestClient(create_app(data_dir, {"skirmish": game("skirmish")}, hosts=HOSTS))
    res = again.get(f"/api/matches/{mid}", headers={"X-Seat": tok}, params=copy.held).json()
    assert res["log_from"] == 0 and res["log"] == whole_log(room_match(again, mid), "Blue")


def test_each_seat_of_two_player_bonins_is_sent_only_its_own_new_events(client: TestClient) -> None:
    """18.0 two-player Bonins through two seat links, the Japanese set-up secret (18.1): each
    seat's copy, sent only new events, is after every decision exactly its side's masked log;
    the new events sent to the US seat name no Japanese unit hidden from it, and where it is
    to go on from counts no hidden event; a seat that sends the other side's key gets its own
    whole log, never the other side's."""
    created = start(client, "iwo_bonins", scenario="two_player", seed=2,
                    sides={"US": "link", "Japan": "link"})
    mid = created["id"]
    tokens = {"US": seat_of(created, "US"), "Japan": seat_of(created, "Japan")}
    match = room_match(client, mid)
    copies = {side: Copy() for side in tokens}
    states = {side: get(client, mid, tokens[side], copies[side]) for side in tokens}
    rng = random.Random(1)
    for step in range(120):
        if match.pending is None:
            break
        side = match.pending.player
        st = states[side]
        options = st["pending"]["options"]
        index = rng.randrange(len(options))
        res = post(client, mid, tokens[side], copies[side], "decide",
                   {"index": index, "value": options[index]["value"], "version": st["version"]})
        assert res.status_code == 200, res.text
        states[side] = res.json()
        other = "US" if side == "Japan" else "Japan"
        hidden = secrets_of(match, other)
        states[other] = get(client, mid, tokens[other], copies[other])
        assert not find_leaks(hidden, f"the events sent to {other}", states[other]["log"]), step
        for viewer in tokens:
            assert copies[viewer].events == whole_log(match, viewer), (step, viewer)
            # where to go on from counts no event hidden from the seat (not the log's length)
            last = copies[viewer].events[-1]["seq"] + 1 if copies[viewer].events else 0
            assert states[viewer]["log_next"] == last, (step, viewer)
    assert secrets_of(match, "US"), "some Japanese units are still hidden"
    assert copies["US"].events != copies["Japan"].events
    for side in tokens:  # the US copy stays empty through the secret set-up (18.1)
        assert copies[side].parts >= 60 and copies[side].redrawn == 0
    japan = copies["Japan"].held
    assert japan["since"] > 5
    res = client.get(f"/api/matches/{mid}", headers={"X-Seat": tokens["US"]},
                     params={"since": japan["since"] - 5, "log": japan["log"]}).json()
    assert res["log_from"] == 0 and res["log"] == whole_log(match, "US")


def test_a_hot_seat_copy_is_redrawn_when_the_side_shown_changes(client: TestClient) -> None:
    """Hot-seat at one browser (both sides here; Red's units hidden from Blue, RULES.md): the
    side shown follows the decision, and the copy of one side's log is never added to
    another's: at each change of side the whole log of the new side is sent."""
    created = start(client, "skirmish", seed=8, sides={"Blue": "here", "Red": "here"})
    mid, tok = created["id"], seat_of(created, "Blue")
    match = room_match(client, mid)
    copy = Copy()
    st = get(client, mid, tok, copy)
    rng = random.Random(2)
    changes = 0
    for _ in range(60):
        if match.pending is None:
            break
        shown, options = st["side"], st["pending"]["options"]
        index = rng.randrange(len(options))
        res = post(client, mid, tok, copy, "decide",
                   {"index": index, "value": options[index]["value"], "version": st["version"]})
        assert res.status_code == 200, res.text
        st = res.json()
        if st["side"] != shown:
            changes += 1
            assert st["log_from"] == 0 and copy.redrawn == changes
        assert copy.events == whole_log(match, st["side"])
    assert changes >= 2 and copy.parts > 10
