"""The Japanese bot (18.0 choices, played as 19.3 advises).

Each test names the section whose choice it checks.
"""

from __future__ import annotations

from tabletop.core.engine.decisions import DONE, Option, choose
from tabletop.core.engine.match import Match
from tabletop.games.iwo_bonins import GAME
from tabletop.games.iwo_bonins import common as c
from tabletop.games.iwo_bonins import two_player as tp
from tabletop.games.iwo_bonins.bots_japan import JapaneseBot

from .test_japanese_units import Build, jp_match, put

__all__ = ["jp_match"]


def test_bot_deployment_protects_fire_support(jp_match: Build) -> None:
    """18.1, 19.3: a legal deployment; no HQ or artillery unit in the north (sector 6),
    each required sector holding one."""
    m = Match(GAME, scenario="two_player", seed=5)
    bot = JapaneseBot(c.JAPAN, 5)
    while m.pending is not None and m.pending.kind == tp.KIND_DEPLOY:
        m.decide(bot.choose(m.view(c.JAPAN), m.pending))
    fs = [p for p in c.units(m, c.JAPAN) if p.kind in ("hq", "artillery")]
    assert len(fs) == 11
    assert all(c.sector_of(p.location) != 6 for p in fs)
    assert set(tp.FIRE_SUPPORT_SECTORS) <= {c.sector_of(p.location) for p in fs}


def test_bot_stays_dug_in_and_never_attacks(jp_match: Build) -> None:
    """18.2, 18.3, 19.3: no move, no attack: the bot ends the movement at once."""
    m = jp_match()
    m.state.vars[c.V_TWO_PLAYER] = True
    put(m, "309", "1312")
    put(m, "1/23", "1311")
    bot = JapaneseBot(c.JAPAN, 1)
    d = choose(c.JAPAN, "Japanese movement: which unit?", "18.2",
               [Option("move:309"), Option("tunnel:309"), Option("done")], kind=tp.KIND_ACTION)
    assert bot.choose(m.view(c.JAPAN), d) == "done"


def test_bot_tunnels_threatened_hq(jp_match: Build) -> None:
    """18.2.1, 19.3: an HQ next to a US unit tunnels away, to the hex furthest from them."""
    m = jp_match()
    put(m, "145 HQ", "1312")
    put(m, "1/23", "1311")
    bot = JapaneseBot(c.JAPAN, 1)
    view = m.view(c.JAPAN)
    d = choose(c.JAPAN, "which unit?", "18.2", [Option("tunnel:145 HQ"), Option("done")],
               kind=tp.KIND_ACTION)
    assert bot.choose(view, d) == "tunnel:145 HQ"
    d = choose(c.JAPAN, "to?", "18.2.1", [Option("1413"), Option("0913")], kind=tp.KIND_TUNNEL)
    assert bot.choose(view, d) == "0913"


def test_bot_places_on_the_line_and_takes_no_substitute(jp_match: Build) -> None:
    """18.4, 19.3: the eligible hex nearest the US holds the line; no optional substitute."""
    m = jp_match()
    put(m, "1/23", "1311")
    bot = JapaneseBot(c.JAPAN, 1)
    view = m.view(c.JAPAN)
    d = choose(c.JAPAN, "Place?", "18.4", [Option("1212"), Option("1615")], kind="jp_place_hex")
    assert bot.choose(view, d) == "1212"
    d = choose(c.JAPAN, "substitute?", "18.4", [Option(False), Option(True)], kind="jp_substitute")
    assert bot.choose(view, d) is False


def test_bot_bombards_the_crowded_beach(jp_match: Build) -> None:
    """18.5: the hex with the most US units on the weakest cover first."""
    m = jp_match()
    put(m, "1/23", "2513")
    put(m, "FT/23", "2513")
    put(m, "2/23", "1413")
    bot = JapaneseBot(c.JAPAN, 1)
    d = choose(c.JAPAN, "try which hex?", "18.5", [Option("2513"), Option("1413"), Option(DONE)],
               kind="jp_bombard_hex")
    assert bot.choose(m.view(c.JAPAN), d) == "2513"
