"""Play and watch in the browser: ``tabletop serve``.

A local web application over the same match loop the terminal uses: the home page starts a
match (each side a person at this browser, a person with a seat link, or a bot), resumes a
save or opens a record in the replay viewer; the play page shows the game's SVG board made
clickable, the pending decision, the log and undo. Each seat is sent only its side's view
(:mod:`.seeing`); seats, bots and autosave live in :mod:`.rooms`, the viewer in
:mod:`.replays`, the HTTP routes in :mod:`.app`, the games a request may name in
:mod:`.catalogue`, the checks every request passes (Host, Origin, JSON) in :mod:`.guard`, and
:mod:`.server` runs it on uvicorn.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
