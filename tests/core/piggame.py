"""A tiny dice game (Pig) used by the core tests to drive the decision loop end to end."""

from __future__ import annotations

from tabletop.core.engine.decisions import Option, choose
from tabletop.core.engine.match import Flow, Game, GameInfo, GameOption, Match, Result
from tabletop.core.engine.pieces import Deck, Piece


class PigGame(Game):
    """Pig: roll to add to your turn total, a 1 loses it; hold to bank it; first to 20 wins."""

    info = GameInfo(
        id="pig", title="Pig", version="1.0", players=("A", "B"),
        options=(GameOption("target", "points to win", 20, (10, 20, 30)),),
    )

    def setup(self, match: Match) -> None:
        """Two score tracks, a secret token per player, a small deck dealt one card each."""
        for p in self.info.players:
            match.state.track(f"score:{p}", 0, 0, 100)
            match.state.pieces.add(Piece(f"token:{p}", "token", p, location=f"box:{p}",
                                         hidden=True, values={"front": {"value": 3}}))
        deck = match.state.deck(Deck("cards", [f"c{i}" for i in range(6)]))
        match.dice.shuffle(deck.piles["draw"], purpose="shuffle the deck")
        for p in self.info.players:
            deck.draw(1, to=f"hand:{p}")

    def play(self, match: Match) -> Flow:
        """Players alternate turns until one banks the target (or 30 turns pass: a draw)."""
        target = int(match.options["target"])
        for turn in range(1, 31):
            match.state.turn = turn
            for player in self.info.players:
                match.state.phase = player
                pot = 0
                while True:
                    answer = yield choose(player, f"pot {pot}: roll or hold?", "1.1",
                                          [Option("roll", "Roll"), Option("hold", "Hold")],
                                          kind="roll_or_hold")
                    if answer == "hold":
                        break
                    face = match.dice.d6(purpose="pig roll", section="1.2")
                    if face == 1:
                        pot = 0
                        match.emit("bust", "1.2", f"{player} rolls a 1 and loses the pot")
                        break
                    pot += face
                score = match.state.tracks[f"score:{player}"].add(pot)
                if score >= target:
                    return Result(player, "win", "1.3", {"A": match.state.tracks["score:A"].value,
                                                         "B": match.state.tracks["score:B"].value})
        return Result(None, "draw", "1.4")


GAME = PigGame()


class SecretSetup(PigGame):
    """Pig with a private opening choice by A (a secret set-up, like Bonins 18.1)."""

    def play(self, match: Match) -> Flow:
        """A secretly picks a number, then Pig as usual."""
        secret = yield choose("A", "secret number?", "0.1", [1, 2, 3], private=True)
        match.emit("secret", "0.1", f"A picked {secret}", visible_to=("A",))
        return (yield from super().play(match))


SECRET = SecretSetup()


class AnnouncedGame(Game):
    """A game announced but not yet playable (no rules, no map): what `list` marks and
    `play` and `render` refuse."""

    info = GameInfo(id="announced", title="Announced", version="0.1", players=("A", "B"),
                    playable=False)


ANNOUNCED = AnnouncedGame()
