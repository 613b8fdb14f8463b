"""Seats and hidden information over HTTP: each seat is sent only its side's view, and a
decision from the wrong seat, with a stale or forged token, or against an old page is
refused and changes nothing."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from tabletop.core.engine.visibility import find_leaks, secrets_of
from tabletop.core.frontends.web.seeing import event_json

from .conftest import room_match, seat_of, start


def _state(client: TestClient, mid: str, tok: str, picture: str = "") -> dict[str, Any]:
    """The match as the seat sees it; with ``picture`` (one it holds) the board's layers alone."""
    res = client.get(f"/api/matches/{mid}" + (f"?picture={picture}" if picture else ""),
                     headers={"X-Seat": tok})
    assert res.status_code == 200, res.text
    out: dict[str, Any] = res.json()
    return out


def _play_and_watch(client: TestClient, mid: str, tokens: dict[str, str], decisions: int,
                    seed: int) -> int:
    """Play random decisions from the seat whose turn it is; after each, every seat's answer
    (board, whole and as the layers a page holding the map is sent; decision, status) is
    searched for the id or name of a piece hidden from it now (:func:`secrets_of`); its log
    must be exactly the side's log as the core masks it
    (``match.log.visible``), and its new events must name no piece hidden from it before and
    after the step unless the rules revealed it (the model of ``hidden_information_leaks``)."""
    rng = random.Random(seed)
    match = room_match(client, mid)
    mark = {side: 0 for side in tokens}
    known: dict[str, dict[str, str]] = {side: {} for side in tokens}  # piece -> where shown
    taken = 0
    for _ in range(decisions):
        if match.pending is None:
            break
        hidden = {side: set(secrets_of(match, side).values()) for side in tokens}
        side = match.pending.player
        st = _state(client, mid, tokens[side])
        assert st["your_turn"] and st["pending"]["player"] == side
        index = rng.randrange(len(st["pending"]["options"]))
        res = client.post(f"/api/matches/{mid}/decide", headers={"X-Seat": tokens[side]},
                          json={"index": index, "value": st["pending"]["options"][index]["value"],
                                "version": st["version"]})
        assert res.status_code == 200, res.text
        taken += 1
        pieces = match.state.pieces
        for viewer, tok in tokens.items():
            secrets = secrets_of(match, viewer)
            answer = _state(client, mid, tok)
            layered = _state(client, mid, tok, answer["picture"])  # as a page holding the map asks
            assert "layers" in layered and "svg" not in layered
            status = client.get(f"/api/matches/{mid}/status", headers={"X-Seat": tok}).json()
            found = find_leaks(secrets, "the state", {k: v for k, v in answer.items() if k != "log"})
            found += find_leaks(secrets, "the layers", layered["layers"])
            found += find_leaks(secrets, "the status", status)
            assert not found, (viewer, found)
            assert answer["log"] == [event_json(e, match.game) for e in match.log.visible(viewer)]
            still = {t: pid for t, pid in secrets.items()
                     if pid in hidden[viewer] and pid not in known[viewer]}
            for entry in answer["log"][mark[viewer]:]:
                event = match.log[entry["seq"]]
                shown = event.data.get("revealed") if event.is_visible_to(viewer) else None
                if shown:
                    still = {t: pid for t, pid in still.items() if pid != shown}
                    known[viewer][str(shown)] = pieces[str(shown)].location
                found += find_leaks(still, f"event {entry['seq']}", entry)
            assert not found, (viewer, found)
            known[viewer] = {pid: loc for pid, loc in known[viewer].items() if pieces[pid].location == loc}
            mark[viewer] = len(answer["log"])
    return taken


def test_two_seats_of_bonins_never_see_each_others_hidden_units(client: TestClient) -> None:
    """18.0 two-player Bonins through two seat links: the Japanese set-up is secret (18.1), and
    no answer to the US seat names a face-down Japanese unit."""
    created = start(client, "iwo_bonins", scenario="two_player", seed=2,
                    sides={"US": "link", "Japan": "link"})
    mid = created["id"]
    tokens = {"US": seat_of(created, "US"), "Japan": seat_of(created, "Japan")}
    assert tokens["US"] != tokens["Japan"]
    match = room_match(client, mid)
    assert secrets_of(match, "US"), "the Japanese units start hidden"
    taken = _play_and_watch(client, mid, tokens, 80, seed=1)
    assert taken == 80
    assert secrets_of(room_match(client, mid), "US"), "some Japanese units are still hidden"


def test_skirmish_seat_never_sees_the_hidden_enemy(client: TestClient) -> None:
    """Example game: Red's units are hidden from Blue (RULES.md) until revealed."""
    created = start(client, "skirmish", seed=8, sides={"Blue": "here", "Red": "link"})
    tokens = {"Blue": seat_of(created, "Blue"), "Red": seat_of(created, "Red")}
    _play_and_watch(client, created["id"], tokens, 60, seed=3)


def test_the_wrong_seat_a_forged_token_or_an_old_page_change_nothing(client: TestClient,
                                                                     data_dir: Path) -> None:
    """Only the seat whose side must decide may decide, with its own token, on the page version
    it was shown; every refusal leaves the match, its version and its save file as they were."""
    created = start(client, "iwo_bonins", scenario="two_player", seed=2,
                    sides={"US": "link", "Japan": "link"})
    mid = created["id"]
    us, japan = seat_of(created, "US"), seat_of(created, "Japan")
    match = room_match(client, mid)
    assert match.pending is not None and match.pending.player == "Japan"
    st = _state(client, mid, japan)
    us_view = _state(client, mid, us)
    assert not us_view["your_turn"] and "options" not in us_view["pending"]
    assert us_view["pending"] == {"player": "Japan", "section": match.pending.section}
    path = data_dir / f"match-{mid}.json"
    saved, digest = path.read_bytes(), match.state_hash()
    value = st["pending"]["options"][0]["value"]
    good = {"index": 0, "value": value, "version": st["version"]}
    url = f"/api/matches/{mid}/decide"
    refusals = [
        ({"X-Seat": us}, good, 403, "not this seat's"),
        ({"X-Seat": us[:-2] + ("AA" if not us.endswith("AA") else "BB")}, good, 403, "not valid"),
        ({"X-Seat": "forged"}, good, 403, "not valid"),
        ({}, good, 403, "not valid"),
        ({"X-Seat": japan}, {**good, "version": st["version"] + 1}, 409, "moved on"),
        ({"X-Seat": japan}, {**good, "index": 1}, 409, "reload"),
    ]
    for headers, body, status, words in refusals:
        res = client.post(url, headers=headers, json=body)
        assert res.status_code == status and words in res.json()["error"], (headers, body, res.text)
    for tok in (us, "forged"):
        res = client.post(f"/api/matches/{mid}/undo", headers={"X-Seat": tok},
                          json={"version": st["version"]})
        assert res.status_code in (403, 409)
    # the record names every secret placement: not for a seat while the other plays on
    for tok in (us, japan):
        res = client.get(f"/api/matches/{mid}/record?seat={tok}")
        assert res.status_code == 403 and "over" in res.json()["error"]
    assert path.read_bytes() == saved
    assert room_match(client, mid).state_hash() == digest
    assert _state(client, mid, japan)["version"] == st["version"]
    # a token of another match opens nothing here
    other = start(client, "iwo_bonins", scenario="two_player", seed=3, sides={"US": "link", "Japan": "link"})
    res = client.post(url, headers={"X-Seat": seat_of(other, "Japan")}, json=good)
    assert res.status_code == 403
    res = client.post(url, headers={"X-Seat": japan}, json=good)
    assert res.status_code == 200


def test_undo_never_takes_back_another_persons_decision(client: TestClient) -> None:
    """With two people at two seats, undo stops at the other person's decision."""
    created = start(client, "skirmish", seed=8, sides={"Blue": "link", "Red": "link"})
    mid = created["id"]
    tokens = {"Blue": seat_of(created, "Blue"), "Red": seat_of(created, "Red")}
    match = room_match(client, mid)
    while match.pending is not None and match.pending.player == "Blue":
        st = _state(client, mid, tokens["Blue"])
        last = len(st["pending"]["options"]) - 1  # "done" ends the movement sooner
        client.post(f"/api/matches/{mid}/decide", headers={"X-Seat": tokens["Blue"]},
                    json={"index": last, "value": st["pending"]["options"][last]["value"],
                          "version": st["version"]})
    assert match.pending is not None and match.pending.player == "Red"
    red = _state(client, mid, tokens["Red"])
    assert not red["can_undo"]
    res = client.post(f"/api/matches/{mid}/undo", headers={"X-Seat": tokens["Red"]},
                      json={"version": red["version"]})
    assert res.status_code == 409
    blue = _state(client, mid, tokens["Blue"])
    assert blue["can_undo"]


def test_two_seats_of_manila_never_see_each_others_hidden_units(client: TestClient) -> None:
    """Manila '45 6.5 (fog of war) through two seat links: the Japanese set-up is secret (3.2),
    an unrevealed Japanese unit is never named to the US seat, and the US seat's answers
    name no Japanese unit until the rules flip it face up."""
    created = start(client, "manila45", seed=5, sides={"US": "link", "Japan": "link"})
    mid = created["id"]
    tokens = {"US": seat_of(created, "US"), "Japan": seat_of(created, "Japan")}
    taken = _play_and_watch(client, mid, tokens, 160, seed=2)
    assert taken == 160
    match = room_match(client, mid)
    assert any(e.data.get("player") == "US" for e in match.log.of_kind("decision")), \
        "the US side has played"
    assert secrets_of(match, "US"), "some Japanese units are still hidden"
