"""Typed decision kinds: a bot declares the kinds it answers (``@handles``), a game the kinds it
asks (``Game.decision_kinds``), and the conformance check fails when they disagree."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from tabletop.core.designer.testing import check_conformance, check_decision_kinds
from tabletop.core.engine.agents import FirstOptionAgent, KindBot, RandomAgent, decision_kinds_of, handles
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Decision
from tabletop.core.engine.match import Game
from tabletop.core.engine.registry import load_game

EXAMPLE = str(Path(__file__).resolve().parents[2] / "docs" / "example" / "skirmish")


def _example() -> Game:
    """A game object of its own, safe to patch."""
    return type(load_game(EXAMPLE))()


class _MovesOnly(KindBot):
    """A bot that answers the movement decisions alone: it forgot combat."""

    name = "moves-only"

    def __init__(self, side: str = "", seed: int = 0) -> None:
        self.side = side

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        handler = self.handler(decision.kind)
        return decision.options[0].value if handler is None else handler(decision)

    @handles("select_unit")
    def _unit(self, decision: Decision) -> JSON:
        return DONE if decision.is_legal(DONE) else decision.options[0].value

    @handles("select_hex")
    def _hex(self, decision: Decision) -> JSON:
        return decision.options[0].value


class _Everything(_MovesOnly):
    """The same bot, completed: a subclass's marks add to its base's."""

    @handles("select_target", "select_attacker", "select_retreat", "select_advance")
    @handles("take_loss")
    def _first(self, decision: Decision) -> JSON:
        return decision.options[0].value


def test_a_bot_declares_the_kinds_its_marked_methods_answer() -> None:
    assert _MovesOnly.answers == {"select_unit", "select_hex"}
    assert _Everything.answers == {"select_unit", "select_hex", "select_target",
                                   "select_attacker", "take_loss", "select_retreat", "select_advance"}
    bot = _Everything()
    assert bot.handler("take_loss") == bot._first
    assert bot.handler("no_such_kind") is None
    assert decision_kinds_of(bot) == _Everything.answers
    assert decision_kinds_of(RandomAgent()) is None and decision_kinds_of(FirstOptionAgent()) is None


def test_two_methods_answering_one_kind_are_refused() -> None:
    with pytest.raises(TypeError, match="'select_hex' is answered by both _a and _b"):
        class _Twice(KindBot):
            @handles("select_hex")
            def _a(self) -> None: ...

            @handles("select_hex")
            def _b(self) -> None: ...


def test_handles_needs_a_kind() -> None:
    with pytest.raises(TypeError):
        handles()
    with pytest.raises(TypeError):
        handles("")


def test_the_example_game_and_its_bot_agree_on_the_kinds() -> None:
    check_conformance(_example(), range(2))


def test_conformance_fails_for_a_bot_that_does_not_answer_a_kind_the_game_asks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot missing the combat kinds: the declared kinds no side answers, and the kinds
    random play asked that it does not answer, are named."""
    game = _example()
    monkeypatch.setattr(game, "bots", lambda: {"moves-only": _MovesOnly})
    with pytest.raises(AssertionError) as failed:
        check_conformance(game, range(2))
    message = str(failed.value)
    assert "no side of bot 'moves-only' answers the declared kinds select_advance, select_attacker, " \
           "select_retreat, select_target, take_loss" in message
    assert re.search(r"bot 'moves-only' for \w+ does not answer the decision kinds it was "
                     r"asked: [a-z_, ]*select_target", message)
    monkeypatch.setattr(game, "bots", lambda: {"complete": _Everything})
    check_conformance(game, range(2))


def test_conformance_fails_for_a_game_asking_a_kind_it_does_not_declare(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = _example()
    monkeypatch.setattr(game, "decision_kinds", game.decision_kinds - {"select_hex"})
    monkeypatch.setattr(game, "bots", lambda: {"random": RandomAgent})
    with pytest.raises(AssertionError, match="was asked decision kinds the game does not "
                                             "declare: 'select_hex'"):
        check_conformance(game, range(1))


def test_a_bot_answering_a_kind_the_game_never_asks_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _example()
    monkeypatch.setattr(game, "decision_kinds", game.decision_kinds - {"take_loss"})
    monkeypatch.setattr(game, "bots", lambda: {"complete": _Everything})
    with pytest.raises(AssertionError, match=r"bot 'complete' for \w+ answers kinds the game "
                                             r"does not declare: take_loss"):
        check_decision_kinds(game)


def test_bots_that_declare_kinds_need_a_game_that_declares_them(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _example()
    monkeypatch.setattr(game, "decision_kinds", frozenset())
    with pytest.raises(AssertionError, match="the game declares none"):
        check_decision_kinds(game)


@pytest.mark.parametrize("name", ["iwo_bonins", "iwo_1945", "iwo_valor", "manila45"])
def test_every_game_s_bots_answer_every_kind_it_declares(name: str) -> None:
    check_decision_kinds(load_game(name))
