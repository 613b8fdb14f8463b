"""The reusable game harness (core.testing) run on the Pig test game, and shown to catch bugs."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from tabletop.core.designer.testing import (
    InvariantBroken,
    check_conformance,
    game_state_machine,
    play_random_game,
)
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.dice import Dice, force
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Match

from .piggame import GAME, PigGame

TestPigMachine = game_state_machine(GAME).TestCase
TestPigMachine.settings = settings(max_examples=25, stateful_step_count=20, deadline=None)


def test_conformance_on_pig() -> None:
    """The API test passes on a correct game: ends, replays, saves, views, refuses junk."""
    check_conformance(GAME, range(5))


class BrokenPig(PigGame):
    """Pig whose invariant fails once a score passes 5: the harness must notice."""

    def invariants(self, match: Match) -> list[str]:
        """Scores must stay at 5 or below (a deliberately false invariant)."""
        scores = [t.value for t in match.state.tracks.values()]
        return [f"score {s} above 5" for s in scores if s > 5]


def test_harness_reports_a_broken_invariant() -> None:
    """A game whose invariant breaks is caught with the seed and the decision number."""
    with pytest.raises(InvariantBroken, match=r"pig seed \d+ after decision \d+"):
        for seed in range(20):
            play_random_game(BrokenPig(), seed)


def test_run_procedure_answers_in_order_and_checks_legality() -> None:
    """run_procedure: answers decisions in order, returns the value, refuses illegal or
    missing answers and leftovers."""
    from tabletop.core.designer.testing import run_procedure
    from tabletop.core.engine.decisions import Decision, choose

    def proc() -> Generator[Decision, JSON, str]:
        a = yield choose("A", "pick", "1.0", ["x", "y"])
        b = yield choose("A", "again", "1.0", ["x", "y"])
        return f"{a}{b}"

    assert run_procedure(proc(), ["y", "x"]) == "yx"
    with pytest.raises(AssertionError, match="unanswered"):
        run_procedure(proc(), ["y"])
    with pytest.raises(AssertionError, match="not legal"):
        run_procedure(proc(), ["z", "x"])
    with pytest.raises(AssertionError, match="left over"):
        run_procedure(proc(), ["x", "x", "x"])


def test_script_dice_mid_match() -> None:
    """Match.script_dice: from now on the match rolls the given faces, logged as rolls."""
    m = Match(GAME, seed=1)
    m.script_dice([6, 1])
    m.decide("roll")
    m.decide("roll")
    faces = [e.data["faces"] for e in m.log.of_kind("roll")]
    assert faces[-2:] == [[6], [1]]


class _PiecePig(PigGame):
    """Pig with a marker piece in play and three bots: one that only reads its view, one that
    writes into its view, and one that reaches the match behind its view."""

    def setup(self, match: Match) -> None:
        """Pig's set-up plus the marker."""
        from tabletop.core.engine.pieces import Piece

        super().setup(match)
        match.state.pieces.add(Piece("marker", "marker", "A", location="table", attrs={"n": 0}))
        self.current = match  # only for the meddling bot below

    def bots(self) -> dict[str, Any]:
        """'reader' holds at once; 'vandal' also bumps the marker's attrs in its view;
        'meddler' bumps them in the match itself."""
        game = self

        class Reader:
            name = "reader"

            def choose(self, view: Any, decision: Any) -> Any:
                return decision.values[-1]

        class Vandal(Reader):
            name = "vandal"

            def choose(self, view: Any, decision: Any) -> Any:
                for p in view["pieces"]:
                    if p["id"] == "marker":
                        p["location"] = "elsewhere"  # its own copy
                        with contextlib.suppress(TypeError):  # a read-only window on the piece
                            p["attrs"]["n"] += 1
                return decision.values[-1]

        class Meddler(Reader):
            name = "meddler"

            def choose(self, view: Any, decision: Any) -> Any:
                game.current.state.pieces["marker"].attrs["n"] += 1
                return decision.values[-1]

        return {"reader": lambda side, seed: Reader(), "vandal": lambda side, seed: Vandal(),
                "meddler": lambda side, seed: Meddler()}


def test_views_are_copies_an_agent_cannot_write_through() -> None:
    """Hidden information (views): a view is read-only, and what an agent does to the values it
    reads from it never reaches the match; check_agent_read_only still fails an agent that
    changes the match some other way."""
    from tabletop.core.designer.testing import check_agent_read_only

    game = _PiecePig()
    check_agent_read_only(game, "reader", decisions=20)
    check_agent_read_only(game, "vandal", decisions=20)
    match = Match(game, seed=1)
    view = match.view("A")
    with pytest.raises(TypeError):
        view["pieces"] = []  # type: ignore[index]
    with pytest.raises(TypeError):
        view["pieces"][0]["attrs"]["n"] = 99
    view["pieces"][0]["location"] = "elsewhere"
    assert match.state.pieces["marker"].attrs["n"] == 0
    assert match.state.pieces["marker"].location == "table"
    with pytest.raises(AssertionError, match="changed the match while choosing"):
        check_agent_read_only(game, "meddler", decisions=20)


# -- forced rolls name a declared roll: exactly, or by rule number ---------------------------

def _bonins_start(*forced: object) -> None:
    from tabletop.core.designer.testing import start as start_at
    from tabletop.core.engine.registry import load_game
    start_at(load_game("iwo_bonins"), forced=list(forced))  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", ["iwo_bonins", "iwo_1945", "iwo_valor", "manila45",
                                     "docs/example/skirmish"])
def test_rules_rolls_lists_every_declared_roll_with_its_dice_and_rule(
        game_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    from tabletop.core.engine.dice import roll_purposes
    from tabletop.core.engine.registry import load_game
    from tabletop.core.frontends.cli import main

    assert main(["rules", game_id, "--rolls"]) == 0
    lines = capsys.readouterr().out.splitlines()
    game = load_game(game_id)
    declared = roll_purposes(game)
    titles = {s.id: s.title for s in _sections(game).sections}
    assert len(lines) == len(declared) > 0
    for line, purpose in zip(lines, declared, strict=True):
        assert line.startswith(purpose.label()) and f" {purpose.dice} " in line
        if purpose.section in titles:
            assert f"rule {purpose.section} {titles[purpose.section]}" in line
        else:
            assert re.search(rf"rule {re.escape(purpose.section)} \(in (\S+) ", line), line
    assert main(["rules", game_id, "--rolls", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["rolls"]
    assert [r["key"] for r in listed] == [p.label() for p in declared]
    assert all(titles[r["rule"]] == r["title"] for r in listed)


def _sections(game: object) -> Any:
    """The game's data/sections.yaml."""
    import sys

    from tabletop.core.designer.coverage import load_sections
    return load_sections(Path(str(sys.modules[type(game).__module__].__file__)).parent)


def test_rules_rolls_shows_the_rulebook_section_a_roll_belongs_to(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A roll of a lettered item (9.1d) is shown in its numbered section (9.1) with the
    section's title; a roll of a listed section with that section's title."""
    from tabletop.core.frontends.cli import main

    assert main(["rules", "iwo_bonins", "--rolls"]) == 0
    out = capsys.readouterr().out.splitlines()
    crt = next(line for line in out if line.startswith("9.1d CRT "))
    assert re.search(r" 1d6 +rule 9\.1d \(in 9\.1 Combat Procedure\)$", crt), crt
    storm = next(line for line in out if line.startswith("5.1.7 storm check "))
    assert storm.endswith("rule 5.1.7 Administrative Phase"), storm


@pytest.mark.parametrize("game_id", ["iwo_bonins", "iwo_1945", "iwo_valor", "manila45",
                                     "docs/example/skirmish"])
def test_every_declared_roll_cites_a_section_of_the_rulebook(game_id: str) -> None:
    """Each roll's section in rolls.yaml is a section of the game's sections.yaml, or an
    item or step of one (9.1d of 9.1, IV.F.1 of IV.F): a typo cannot hide a roll's rule."""
    from tabletop.core.designer.coverage import resolve
    from tabletop.core.engine.dice import roll_purposes
    from tabletop.core.engine.registry import load_game

    game = load_game(game_id)
    known = [s.id for s in _sections(game).sections]
    unknown = [p.label() for p in roll_purposes(game) if resolve(p.section, known) is None]
    assert not unknown, f"{game_id}: rolls.yaml cites no section of the rulebook: {unknown}"


def test_a_forced_roll_takes_only_the_roll_its_declaration_describes_most_closely() -> None:
    """6.0 (Iwo Jima 1945): "Japanese fire" ({card}: fire on {area}) would also fit the
    text of a "Japanese fire reroll" roll ({card}: fire on {area}: reroll of {n}
    three(s)); the reroll is the more specific declaration, so a forced "Japanese fire"
    leaves it to the seed, whatever order the two are forced or declared in."""
    from tabletop.core.engine.dice import roll_purposes
    from tabletop.core.engine.registry import load_game

    declared = roll_purposes(load_game("iwo_1945"))
    reroll_text = "J07: fire on Airfield 1: reroll of 2 three(s)"
    for order in (declared, tuple(reversed(declared))):
        dice = Dice(5, forced=[force("Japanese fire", 1, 1)])
        dice.declare(order)
        assert dice.roll(2, purpose=reroll_text, section="6.0") == Dice(5).roll(2, purpose="x")
        assert dice.forced[0].left == 2
        assert dice.roll(2, purpose="J07: fire on Airfield 1", section="6.0") == (1, 1)
        reroll = Dice(5, forced=[force("Japanese fire reroll", 2, 2), force("Japanese fire", 1)])
        reroll.declare(order)
        assert reroll.roll(2, purpose=reroll_text, section="6.0") == (2, 2)


def test_a_forced_roll_names_a_declared_purpose_exactly() -> None:
    from tabletop.core.engine.dice import RollPurpose, resolve_purpose

    night = RollPurpose("night", "IV.F.1", "1d6")
    second = RollPurpose("night (second roll)", "IV.F.1", "1d6")
    assert resolve_purpose("night", [second, night]) == (night, "")
    assert resolve_purpose("IV.F night (second roll)", [night, second]) == (second, "")
    dice = Dice(0, forced=[force("night", 4)])
    dice.declare([night, second])
    dice.d6(purpose="night (second roll)", section="IV.F.1")
    assert dice.forced[0].left == 1
    assert dice.d6(purpose="night", section="IV.F.1") == 4


def test_a_forced_roll_names_a_declared_purpose_by_rule_number() -> None:
    from tabletop.core.engine.dice import RollPurpose, resolve_purpose

    crt = RollPurpose("CRT", "9.1d", "1d6")
    crmt = RollPurpose("CRMT", "9.2.1", "1d6")
    assert resolve_purpose("9.1", [crt, crmt]) == (crt, "")
    assert resolve_purpose("9.1 CRT", [crt, crmt]) == (crt, "")


def test_a_forced_roll_naming_several_rolls_fails_listing_them() -> None:
    with pytest.raises(TabletopError, match=r"names several rolls.*'9.2.1 CRMT', '18.3 CRMT'"):
        _bonins_start(force("CRMT", 1))
    with pytest.raises(TabletopError, match=r"names several rolls.*'15.5 Banzai move'"):
        _bonins_start(force("15.5", 1))


def test_a_forced_roll_naming_no_roll_fails_listing_the_candidates() -> None:
    with pytest.raises(TabletopError, match=r"'5.1.7 storm' names no roll.*'5.1.7 storm check'"):
        _bonins_start(force("5.1.7 storm", 6))
    with pytest.raises(TabletopError, match=r"'nothing' names no roll.*'9.1d CRT'"):
        _bonins_start(force("nothing", 6))


def test_a_forced_roll_may_name_one_logged_roll_by_its_whole_text() -> None:
    from tabletop.core.engine.dice import RollPurpose

    attack = RollPurpose("attack", "6.0", "nd6", text="{regiment} attack on {area}")
    dice = Dice(0, forced=[force("6.0 5/28 attack on Airfield 3", 6)])
    dice.declare([attack])
    dice.d6(purpose="3/9 attack on Airfield 3", section="6.0")
    assert dice.forced[0].left == 1
    assert dice.d6(purpose="5/28 attack on Airfield 3", section="6.0") == 6


def test_a_position_dice_entry_follows_the_same_rule(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from tabletop.core.frontends.cli import main

    duel = (Path(__file__).parents[2] / "docs" / "example" / "skirmish" / "positions" / "duel.yaml")
    bad = tmp_path / "duel.yaml"
    bad.write_text(duel.read_text(encoding="utf-8").replace('"5.3 combat"', '"5.3 comb"'),
                   encoding="utf-8")
    game = str(duel.parents[1])
    assert main(["play", game, "--position", str(duel), "--auto", "--seed", "1"]) == 0
    capsys.readouterr()
    assert main(["play", game, "--position", str(bad), "--auto", "--seed", "1"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{bad}: dice.0.roll: forced roll '5.3 comb' names no roll" in err[0]
    assert "'5.3 combat'" in err[0]


def test_a_malformed_rolls_file_is_refused_naming_the_file_and_entry(tmp_path: Path) -> None:
    from tabletop.core.engine.dice import load_roll_purposes
    from tabletop.core.engine.errors import DataError

    bad = tmp_path / "rolls.yaml"
    bad.write_text("rolls:\n  - {name: CRT, section: '9.1d'}\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"rolls.yaml: rolls\[0\] needs text fields .* got .*'CRT'"):
        load_roll_purposes(bad)
    bad.write_text("rolls:\n  - {name: CRT, section: '9.1d', dice: 1d6}\n"
                   "  - {name: crt, section: '9.1d', dice: 1d6}\n", encoding="utf-8")
    with pytest.raises(DataError, match="two rolls share a section and name"):
        load_roll_purposes(bad)
