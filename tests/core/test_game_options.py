"""A game option's choices read as words: its labels in the home page's list and in
``tabletop info``, the value itself what ``--option ID=VALUE`` types."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import GameOption
from tabletop.core.engine.registry import load_game
from tabletop.core.frontends.cli import cli
from tabletop.core.frontends.web.app import game_json


def test_a_choice_reads_as_its_label_else_its_value_in_words() -> None:
    labelled = GameOption("move", "6.0 Move", "adjacent", ("adjacent", "through_friendly"),
                          ("to an adjacent position", "any way through friends"))
    assert labelled.label_of("through_friendly") == "any way through friends"
    plain = GameOption("walls", "10.9 walls", "stops_fire", ("stops_fire", "ignored"))
    assert plain.label_of("stops_fire") == "stops fire"
    assert GameOption("cards", "8.0 cards", 30, (27, 30)).label_of(27) == "27"


def test_labels_must_match_the_choices_one_for_one() -> None:
    with pytest.raises(TabletopError, match="2 labels for 3 choices"):
        GameOption("x", "x", "a", ("a", "b", "c"), ("A", "B"))


def test_the_home_page_list_and_info_show_the_labels() -> None:
    game = load_game("iwo_1945")
    listed = next(o for o in game_json(game)["options"] if o["id"] == "usmc_move")
    assert listed["labels"] == ["to an adjacent position (2.0)",
                                "any way not through a Japanese-occupied position"]
    out = CliRunner().invoke(cli, ["info", "iwo_1945"]).output
    assert "    through_friendly: any way not through a Japanese-occupied position" in out
    assert "option usmc_move — 6.0 Move: where a regiment may move (default adjacent)" in out
