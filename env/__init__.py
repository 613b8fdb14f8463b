"""Learning environments: every game of the engine through PettingZoo, Gymnasium and OpenSpiel.

The optional extra ``rl`` (``pip install 'tabletop-engine[rl]'``) installs what these need.
Nothing here is imported by the core; importing this package imports none of the learning
libraries until an environment is made:

- :func:`pettingzoo_env`: an agent-environment-cycle environment, one agent a side that
  decides (:class:`~.aec.TabletopAEC`);
- :func:`gymnasium_env`: one side's single-agent environment, the other sides played by
  named bots (:class:`~.single.TabletopGym`);
- :mod:`tabletop.env.openspiel`: each game registered as a Python game of OpenSpiel
  (``pyspiel.load_game("tabletop_iwo_1945")``).

Every observation, info dict and string is built from one side's view
(:meth:`~tabletop.core.engine.match.Match.view`) alone (:mod:`.encoding`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.match import Game

if TYPE_CHECKING:
    from .aec import TabletopAEC
    from .single import TabletopGym

__all__ = ["gymnasium_env", "pettingzoo_env"]


def pettingzoo_env(game: str | Game, *, scenario: str | None = None,
                   options: Mapping[str, JSON] | None = None, **kwargs: Any) -> TabletopAEC:
    """A PettingZoo AEC environment of ``game`` (a registered name, a game folder or
    ``module:attr``): see :class:`~.aec.TabletopAEC` for the keyword arguments."""
    from .aec import TabletopAEC

    return TabletopAEC(game, scenario=scenario, options=options, **kwargs)


def gymnasium_env(game: str | Game, *, side: str | None = None,
                  opponent: str | Mapping[str, str] = "heuristic",
                  scenario: str | None = None, options: Mapping[str, JSON] | None = None,
                  **kwargs: Any) -> TabletopGym:
    """A Gymnasium environment in which the agent plays ``side`` of ``game`` and the
    ``opponent`` bots the other sides: see :class:`~.single.TabletopGym`."""
    from .single import TabletopGym

    return TabletopGym(game, side=side, opponent=opponent, scenario=scenario, options=options,
                       **kwargs)
