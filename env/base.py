"""What the PettingZoo and Gymnasium environments share: the game, its encoder, a match, the
rewards, the pictures and the checks on an action."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Game, Match
from tabletop.core.engine.registry import load_game

from .encoding import Encoder, check_options

RENDER_MODES = ("rgb_array", "ansi")
ILLEGAL = ("penalize", "raise")


class IllegalAction(TabletopError, ValueError):
    """An action that is not the index of one of the pending decision's options."""


def resolve_game(game: str | Game) -> Game:
    """A game from its name as :func:`~tabletop.core.engine.registry.load_game` takes it, or
    a game object as it is."""
    return game if isinstance(game, Game) else load_game(game)


class Table:
    """One game and scenario with its encoder, and the match being played in it."""

    def __init__(self, game: str | Game, *, scenario: str | None, options: Mapping[str, JSON] | None,
                 max_steps: int | None, shaping: float, illegal: str, render_mode: str | None) -> None:
        self.game = resolve_game(game)
        info = self.game.info
        if not info.playable:
            raise TabletopError(f"game {info.id} is not playable yet")
        self.scenario = info.scenario(scenario).id
        self.options = info.resolve_options(options)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise TabletopError(f"render_mode {render_mode!r} is not one of {', '.join(RENDER_MODES)}")
        if illegal not in ILLEGAL:
            raise TabletopError(f"illegal_action {illegal!r} is not one of {', '.join(ILLEGAL)}")
        if max_steps is not None and max_steps < 1:
            raise TabletopError(f"max_steps must be at least 1, not {max_steps}")
        self.max_steps = max_steps
        self.shaping = float(shaping)
        self.illegal = illegal
        self.render_mode = render_mode
        self.encoder = Encoder(self.game, self.new_match(0))
        self.match: Match | None = None
        self.steps = 0

    def new_match(self, seed: int) -> Match:
        """A match of the scenario and options from its set-up, with ``seed``."""
        return Match(self.game, scenario=self.scenario, seed=seed, options=self.options)

    def start(self, seed: int) -> Match:
        """Begin a new match (the boards kept by the encoder forgotten)."""
        self.match = self.new_match(seed)
        self.encoder.forget()
        self.steps = 0
        return self.match

    @property
    def live(self) -> Match:
        """The match being played (reset must come first)."""
        if self.match is None:
            raise TabletopError("the environment has no match yet: call reset() first")
        return self.match

    def potential(self, side: str) -> float:
        """The shaped reward's potential of ``side``: the game's evaluation of an unfinished
        match (:meth:`~tabletop.core.engine.match.Game.evaluate`), 0 at the end."""
        match = self.live
        if self.shaping == 0.0 or match.finished:
            return 0.0
        return self.shaping * float(self.game.evaluate(match, side))

    def index(self, action: Any) -> int | None:
        """The option index an action names, or None (after a penalty) when it names none;
        raises IllegalAction when the environment is set to."""
        decision = self.live.pending
        if decision is None:
            raise TabletopError("the match is over: there is no decision to take")
        check_options(self.game, decision, self.encoder.size)
        try:
            index = int(action)
        except (TypeError, ValueError):
            index = -1
        if isinstance(action, bool) or not 0 <= index < len(decision.options):
            if self.illegal == "raise":
                raise IllegalAction(f"action {action!r} is not legal for {decision.prompt!r} "
                                    f"({decision.section}): legal actions are 0..{len(decision.options) - 1}")
            return None
        return index

    def observe(self, side: str, *, new: bool = False) -> dict[str, NDArray[Any]]:
        """``side``'s observation of the match: read-only arrays, an unchanged one handed
        out again (:meth:`.encoding.Encoder.observe`); with ``new``, new arrays of the
        caller's own (what Gymnasium asks of a step)."""
        observed = self.encoder.observe(self.live, side)
        return {key: array.copy() for key, array in observed.items()} if new else observed

    def decision_info(self, side: str) -> dict[str, Any]:
        """What ``side``'s info dict says of its own pending decision (nothing of another's)."""
        match = self.live
        decision = match.pending
        if decision is None or decision.player != side:
            return {}
        return {"kind": decision.kind, "prompt": decision.prompt, "section": decision.section,
                "options": len(decision.options)}

    def option_labels(self, side: str) -> list[str]:
        """The labels of ``side``'s own pending decision's options, by action index (empty when
        it does not decide now)."""
        decision = self.live.pending
        if decision is None or decision.player != side:
            return []
        return [o.label or str(o.value) for o in decision.options]

    def render(self, side: str | None) -> Any:
        """The picture of the match as ``side`` sees it (None: every piece face-up): an RGB
        array from the SVG map, or the terminal's text map."""
        match = self.live
        if self.render_mode == "ansi":
            from tabletop.core.board.render.ascii import render_match as text_map

            return text_map(match, player=side)
        if self.render_mode == "rgb_array":
            return rgb_array(match, side)
        return None


def rgb_array(match: Match, side: str | None) -> NDArray[np.uint8]:
    """The SVG picture of a match as ``side`` sees it, as an ``height x width x 3`` array."""
    import io

    from PIL import Image

    from tabletop.core.board.render.svg import render_match as svg_map

    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # OSError: the cairo library itself is missing
        raise TabletopError(f"render_mode 'rgb_array' needs cairosvg and the cairo library ({exc}): "
                            "pip install 'tabletop-engine[rl]'") from None
    png = cairosvg.svg2png(bytestring=svg_map(match, hidden_from=side).encode("utf-8"))
    with Image.open(io.BytesIO(png)) as picture:
        return np.asarray(picture.convert("RGB"), dtype=np.uint8)
