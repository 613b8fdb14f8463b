"""The search agent's options: what ``mcts:NAME=VALUE,...`` and a game's ``ai.yaml``
(``search``) may set, read and checked (:func:`parse_options`), apart from the search
itself (:mod:`.search`) so that a game's AI file can be checked without it."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from .errors import TabletopError

NAME = "mcts"
"""The name of the search agent (``--agent SIDE=mcts``)."""

ROLLOUTS = ("default", "random")
"""Who plays a rollout: each side's default bot (:meth:`~.match.Game.default_bot`), or the
random-legal agent."""

ROOTS = ("tree", "paired")
"""How the root's options are weighed: a tree over the determinizations, or every option
played on the same determinizations (:mod:`.search`)."""


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """The settings of the search agent, as ``mcts:NAME=VALUE,...`` gives them."""

    #: playouts a decision (the budget; reproducible)
    playouts: int = 200
    #: seconds a decision may take at most (a cap: a search stopped by it is not reproducible)
    seconds: float | None = None
    #: who plays the rollouts: ``default`` (each side's default bot) or ``random``
    rollout: str = "default"
    #: the most decisions a playout takes from the decision searched (in the tree and the
    #: rollout) before the game's evaluation scores where it stands
    depth: int = 200
    #: the exploration constant of the upper confidence bound (scores run from -1 to 1)
    c: float = 1.4
    #: how the root's options are weighed: ``tree`` (UCT over one tree for every
    #: determinization) or ``paired`` (every option played on the same determinizations,
    #: then rolled out by the bots, and compared draw by draw)
    root: str = "tree"
    #: ``root=paired``: how many standard errors an option's paired gain over the side's
    #: bot's choice must exceed for the search to overrule the bot
    z: float = 2.0

    def spec(self) -> str:
        """The agent's name with the options that differ from the defaults, as typed."""
        given = [f"{f.name}={_shown(getattr(self, f.name))}" for f in fields(self)
                 if getattr(self, f.name) != f.default]
        return NAME + (":" + ",".join(given) if given else "")


def _shown(value: object) -> str:
    return format(value, "g") if isinstance(value, float) else str(value)


_HELP = ("playouts=N (a whole number >= 1), seconds=S (> 0), rollout=default|random, "
         "depth=N (>= 1), c=X (>= 0), root=tree|paired, z=X (>= 0)")


def parse_options(spec: str, defaults: Mapping[str, Any] | None = None) -> SearchOptions:
    """The options of ``mcts`` or ``mcts:NAME=VALUE,NAME=VALUE`` (one clear TabletopError
    naming what is wrong and what is allowed), over ``defaults`` (a game's own, its
    ``ai.yaml``'s ``search``: checked there) for those the name does not give."""
    name, _, given = spec.partition(":")
    if name != NAME:
        raise TabletopError(f"agent {spec!r}: not the search agent ({NAME})")
    values: dict[str, Any] = {}
    if given.strip() or spec.endswith(":"):
        for part in given.split(","):
            key, sep, raw = (s.strip() for s in part.partition("="))
            problem = _option(key, raw) if sep and key and raw else "must look like NAME=VALUE"
            if problem:
                raise TabletopError(f"agent {spec!r}: {part.strip() or 'an empty option'} "
                                    f"{problem} (options: {_HELP})")
            if key in values:
                raise TabletopError(f"agent {spec!r}: {key} is given twice (options: {_HELP})")
            values[key] = _value(key, raw)
    base = {key: _value(key, str(value)) for key, value in (defaults or {}).items()}
    return SearchOptions(**{**base, **values})


def search_option_problem(key: str, raw: str) -> str:
    """What is wrong with ``key=raw`` as an option of the search agent, followed by the
    options allowed ("" when nothing): how a game's ``ai.yaml`` has its ``search`` checked."""
    problem = _option(key, raw)
    return f"{problem} (options: {_HELP})" if problem else ""


def _option(key: str, raw: str) -> str:
    """What is wrong with ``key=raw`` as an option of the search agent ("" when nothing)."""
    if key not in {f.name for f in fields(SearchOptions)}:
        return "is no option of mcts"
    try:
        value = _value(key, raw)
    except ValueError:
        return "has a value of the wrong kind"
    if key == "rollout":
        return "" if value in ROLLOUTS else f"is not one of {', '.join(ROLLOUTS)}"
    if key == "root":
        return "" if value in ROOTS else f"is not one of {', '.join(ROOTS)}"
    least = 1 if key in ("playouts", "depth") else 0
    ok = math.isfinite(value) and (value > 0 if key == "seconds" else value >= least)
    return "" if ok else "is out of range"


def _value(key: str, raw: str) -> Any:
    if key in ("playouts", "depth"):
        return int(raw)
    if key in ("seconds", "c", "z"):
        return float(raw)
    return raw


def is_search(name: str) -> bool:
    """Whether an agent's name (as typed) names the search agent."""
    return name == NAME or name.startswith(NAME + ":")


def is_reproducible(name: str) -> bool:
    """Whether an agent named so answers the same from the same seed whatever the machine:
    every agent but a search given a ``seconds`` cap."""
    return not is_search(name) or parse_options(name).seconds is None
