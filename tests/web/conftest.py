"""Fixtures of the web tests: the application over HTTP in-process, and helpers that play."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # newer Starlette prefers httpx2 for its test client; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tabletop.core.engine.match import Game, Match
from tabletop.core.engine.registry import load_game
from tabletop.core.frontends.web import create_app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "docs" / "example" / "skirmish")
HOSTS = ("testserver",)  # the Host the test client sends: the one name these apps answer to


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A fresh folder for the server's autosaves."""
    return tmp_path / "matches"


@pytest.fixture
def client(data_dir: Path) -> Iterator[TestClient]:
    """The web application, with the example game added, over in-process HTTP."""
    game = load_game(EXAMPLE)
    with TestClient(create_app(data_dir, {game.info.id: game}, hosts=HOSTS)) as c:
        yield c


def start(client: TestClient, game: str, **body: Any) -> dict[str, Any]:
    """Start a match through the API; returns the answer (id and seat links)."""
    res = client.post("/api/matches", json={"game": game, **body})
    assert res.status_code == 201, res.text
    out: dict[str, Any] = res.json()
    return out


def token(link: dict[str, Any]) -> str:
    """The seat token in a seat link."""
    found = re.search(r"seat=([^&]+)$", link["url"])
    assert found
    return found.group(1)


def seat_of(created: dict[str, Any], side: str) -> str:
    """The token of the seat that plays ``side``."""
    return next(token(s) for s in created["seats"] if side in s["sides"])


def room_match(client: TestClient, match_id: str) -> Match:
    """The live match behind a room (the tests' game-master view, never sent to a seat)."""
    app: Any = client.app
    match: Match = app.state.web.rooms.get(match_id).match
    return match


def game(name: str) -> Game:
    """A game by name (the example by its folder)."""
    return load_game(EXAMPLE if name == "skirmish" else name)
