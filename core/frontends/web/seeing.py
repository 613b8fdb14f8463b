"""What one side may be sent: its view, its part of the log, its picture of the board.

Every byte a seat receives about the position passes through this module, so the web side
keeps to the core's model of hidden information (:mod:`tabletop.core.engine.visibility`): the
side's read-only view (``match.view(side)``), the side's log as the core masks it
(``match.log.visible(side)``), the SVG drawn for that side (hidden pieces face-down, never
named), and the pending decision in full only for the side that takes it.
``match.state`` itself is never serialised to a seat.
"""

from __future__ import annotations

import html
import json
import re
import threading
from collections.abc import Mapping
from typing import Any

from ...board.render.svg import Picture, match_picture, render_match
from ...engine.canonical import JSON, thaw
from ...engine.decisions import Decision
from ...engine.events import Event
from ...engine.match import Game, Match
from ...engine.odds import option_odds
from ...engine.routes import Routes, routes_of

# the clickable places and pieces of a board picture (see core.render.svg)
_TARGET_ATTR = re.compile(r'data-(?:hex|area|box|piece)="([^"]*)"')
_PIECES_ATTR = re.compile(r'data-pieces="([^"]*)"')


def board_svg(match: Match, side: str | None) -> str:
    """The board as ``side`` sees it (None: the game master's picture, every piece face-up)."""
    return render_match(match, hidden_from=side)


def board_picture(match: Match, side: str | None) -> Picture:
    """:func:`board_svg` as a picture: its fixed part (the map, the same for every side) and
    the layers drawn for the side."""
    return match_picture(match, hidden_from=side)


def svg_targets(svg: str) -> set[str]:
    """The ids of the hexes, areas, boxes and face-up pieces a board picture makes clickable."""
    found = {html.unescape(m) for m in _TARGET_ATTR.findall(svg)}
    for raw in _PIECES_ATTR.findall(svg):
        try:
            ids = json.loads(html.unescape(raw))
        except ValueError:
            continue
        found.update(str(i) for i in ids if isinstance(i, str))
    return found


_FIXED_TARGETS: dict[str, frozenset[str]] = {}  # a picture's key -> the targets of its fixed part
_FIXED_LOCK = threading.Lock()


def picture_targets(picture: Picture) -> set[str]:
    """:func:`svg_targets` of a picture, its fixed part read once per key (the server's
    threads share what is read, under a lock)."""
    with _FIXED_LOCK:
        fixed = _FIXED_TARGETS.get(picture.key)
    if fixed is None:
        fixed = frozenset(svg_targets(picture.fixed_text()))
        with _FIXED_LOCK:
            if len(_FIXED_TARGETS) >= 64:  # a few maps and sizes are served; never grows unbounded
                _FIXED_TARGETS.clear()
            _FIXED_TARGETS[picture.key] = fixed
    found = set(fixed)
    for text in picture.layers.values():
        found |= svg_targets(text)
    return found


def piece_names(view: Mapping[str, Any], targets: set[str]) -> dict[str, list[str]]:
    """The pieces a side's view shows by name (hidden pieces have none there): name -> ids
    clickable on the board, so an option naming a unit (``"3/3"``) can be its counters."""
    out: dict[str, list[str]] = {}
    pieces = view.get("pieces")
    for piece in pieces if isinstance(pieces, list | tuple) else ():
        if not isinstance(piece, Mapping) or piece.get("kind") == "hidden":
            continue
        name, pid = piece.get("name"), piece.get("id")
        if isinstance(name, str) and name and isinstance(pid, str) and pid in targets:
            out.setdefault(name, []).append(pid)
    return out


def option_targets(value: JSON, detail: Mapping[str, Any], targets: set[str],
                   names: Mapping[str, list[str]] | None = None) -> list[str]:
    """The map elements an option names, if any: its value when that is a hex, area, box or
    piece id on the board; else the last ``:``-separated part of the value (``"move:26 Tk"``);
    else a ``hex``/``area``/``piece``/``box`` entry of the option's detail; else the
    counters of the pieces the value names (``"3/3"``: every marker of that regiment)."""
    if isinstance(value, str):
        if value in targets:
            return [value]
        tail = value.rsplit(":", 1)[-1]
        if ":" in value and tail in targets:
            return [tail]
    for key in ("hex", "area", "piece", "box", "at"):
        got = detail.get(key)
        if isinstance(got, str) and got in targets:
            return [got]
    if isinstance(value, str) and names:
        return list(names.get(value, ()))
    return []


def decision_json(decision: Decision, targets: set[str],
                  names: Mapping[str, list[str]] | None = None, *,
                  routes: Routes | None = None, picks_mover: bool = False) -> dict[str, JSON]:
    """The pending decision for the side that takes it, each option marked with the map
    elements that choose it (``targets``, empty for an option chosen by a button); with the
    destinations of a move by destination (``routes``: each place's cost and path, worked
    out from the match for this side's own decision) and whether it picks the unit such a
    move then moves (``picks_mover``: a click on the unit takes it at once)."""
    out = decision.to_json()
    if routes is not None:
        out["routes"] = routes.to_json()
    if picks_mover:
        out["picks_mover"] = True
    for opt, raw in zip(out["options"], decision.options, strict=True):
        opt["targets"] = option_targets(raw.value, raw.detail, targets, names)
    results, rows = option_odds(decision.options)
    if rows:  # the odds once, as a table (a row an option), not under every option
        out["odds"] = {"results": list(results),
                       "rows": [{"index": i, "percents": dict(p)} for i, p in rows]}
    return out


def pending_json(match: Match, side: str, targets: set[str]) -> dict[str, JSON]:
    """The pending decision as the side that takes it is sent it (:func:`decision_json`),
    ``targets`` the clickable elements of its picture (:func:`picture_targets`), with its
    routes when it is a move by destination (:func:`~tabletop.core.engine.routes.routes_of`)."""
    pending = match.pending
    assert pending is not None and pending.player == side
    names = piece_names(match.view(side), targets)
    return decision_json(pending, targets, names, routes=routes_of(match, pending),
                         picks_mover=pending.kind in match.game.mover_kinds)


def event_json(event: Event, game: Game | None = None) -> dict[str, JSON]:
    """An event as a seat sees it: text, rule section, when (the phase by its id, and by its
    name when ``game`` is given), and who decided (no raw data)."""
    out: dict[str, JSON] = {"seq": event.seq, "kind": event.kind, "section": event.section,
                            "text": event.text, "turn": event.turn, "phase": event.phase}
    if game is not None and event.phase:
        out["phase_name"] = game.phase_name(event.phase)
    player = event.data.get("player") if event.kind == "decision" else None
    if isinstance(player, str):
        out["player"] = player
    return out


def visible_events(match: Match, side: str | None, since: int = 0) -> list[Event]:
    """The events numbered ``since`` and later that ``side`` may see (every one for the game
    master, None); an event hidden from a side stays hidden, so a side's log only grows."""
    return match.log.since(since) if side is None else match.log.visible(side, since)


def status_json(match: Match, side: str | None) -> dict[str, JSON]:
    """Score and status on demand, from the side's view (None: the game master's): turn,
    phase, tracks, the game variables the game declares readable by the side
    (``Game.var_visibility``), the scenario, the game's description and, once over, the
    result and score fields; ``standing``, the victory as it stands in the game's words
    (``Game.standing``, the terminal's ``v``), as the side may know it."""
    info = match.game.info
    view = match.view(side)
    scenario = info.scenario(match.scenario)
    out: dict[str, JSON] = {
        "turn": view["turn"], "phase": view["phase"], "tracks": thaw(view["tracks"]),
        "vars": thaw(view["vars"]),
        "scenario": {"id": scenario.id, "name": scenario.name, "description": scenario.description},
        "description": info.description,
        "rulebook": info.rulebook,
        "result": match.result.to_json() if match.result else None,
        "standing": list(match.game.standing(match, side if side is not None
                                             else (info.human_side or info.players[0]))),
    }
    if match.finished:
        out["summary"] = thaw(match.game.summary(match))
    return out
