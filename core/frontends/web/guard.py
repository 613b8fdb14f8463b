"""What every request must show before the server reads it: its Host, its Origin, its body.

A web page on another site can make the browser send requests to this server: a form or a
``fetch`` posted cross-site (a ``text/plain`` body needs no CORS preflight), or a page whose
own domain is pointed at this machine afterwards (DNS rebinding). So the server answers

- only a request whose ``Host`` is one of its own names with its port (the loopback names
  ``localhost``, ``127.0.0.1``, ``[::1]``, the address it is bound to, and any named with
  ``--allow-host``); any other, on every route, is refused with 421 (Misdirected Request);
- a state-changing request (POST, PUT, PATCH, DELETE) only with an ``Origin``, when the
  browser sends one, whose host and port are one of those (403 otherwise) and a
  ``Content-Type: application/json`` body (415 otherwise), which a cross-site page cannot
  send without a preflight the server never grants;
- a JSON body only up to :data:`MAX_BODY` bytes (413) and :data:`MAX_DEPTH` levels of
  nesting (400), never a traceback or a 500 however deep it nests.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from .rooms import WebError

MAX_BODY = 32 * 1024 * 1024  # a save of a long game is a few megabytes at most
MAX_DEPTH = 64  # a save nests a handful of levels; far deeper is no tabletop file
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOOPBACK = ("localhost", "127.0.0.1", "::1")


Authority = tuple[str, int]


def authority(value: str, default_port: int = 80) -> Authority | None:
    """``host[:port]`` (as a Host header or ``--allow-host`` gives it) as (lower-case host,
    port); None when it is not one."""
    try:
        parts = urlsplit(f"//{value.strip()}")
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not host or parts.username is not None or parts.password is not None or parts.path:
        return None
    return host.lower(), default_port if port is None else port


def own_names(bound: str, port: int, extra: Iterable[str] = ()) -> list[str]:
    """The names (``host:port``) a server bound to ``bound``:``port`` answers to: the
    loopback names, the bound address and the ``extra`` names (``host`` or ``host:port``),
    each with that port unless it names its own."""
    out: list[str] = []
    for name in (*LOOPBACK, bound, *extra):
        shown = f"[{name}]" if name.count(":") > 1 and not name.startswith("[") else name
        found = authority(shown, port)
        if found is None:
            raise WebError(f"{name!r} is not a host name or address (--host, --allow-host)")
        host, at = found
        named = f"[{host}]:{at}" if ":" in host else f"{host}:{at}"
        if named not in out:
            out.append(named)
    return out


def _origin(value: str) -> Authority | None:
    """The (host, port) an ``Origin`` header names; None for ``null`` or a malformed one."""
    try:
        parts = urlsplit(value.strip())
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not host:
        return None
    return host.lower(), port if port is not None else (443 if parts.scheme == "https" else 80)


def refusal(method: str, headers: Headers, hosts: frozenset[Authority]) -> WebError | None:
    """Why a request is refused before it is read (None: it may go on)."""
    host = headers.get("host")
    if host is None or authority(host) not in hosts:
        return WebError(f"this server does not answer to the host {host!r} (it answers to "
                        f"{_names(hosts)}; start it with --allow-host NAME for another)", 421)
    if method.upper() in SAFE_METHODS:
        return None
    origin = headers.get("origin")
    if origin is not None and _origin(origin) not in hosts:
        return WebError(f"a request from another site ({origin!r}) may not change anything "
                        f"here: use this server's own pages", 403)
    kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind != "application/json":
        return WebError(f"a {method.upper()} request must send a JSON body with "
                        f"Content-Type: application/json (not {kind or 'none'!r})", 415)
    return None


def _names(hosts: frozenset[Authority]) -> str:
    return ", ".join(sorted(f"[{h}]:{p}" if ":" in h else f"{h}:{p}" for h, p in hosts))


class HostGuard:
    """The ASGI middleware that refuses, on every route, what :func:`refusal` refuses."""

    def __init__(self, app: ASGIApp, hosts: frozenset[Authority]) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            error = refusal(scope.get("method", "GET"), Headers(scope=scope), self.hosts)
            if error is not None and scope["type"] == "websocket":  # the server offers none
                await send({"type": "websocket.close", "code": 1008})
                return
            if error is not None:
                response = JSONResponse({"error": str(error)}, status_code=error.status)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def too_deep(data: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether parsed JSON nests arrays and objects more than ``limit`` levels deep (walked
    level by level, without recursion)."""
    level = [data] if isinstance(data, (dict, list)) else []
    for _ in range(limit):
        if not level:
            return False
        below: list[Any] = []
        for node in level:
            below.extend(x for x in (node.values() if isinstance(node, dict) else node)
                         if isinstance(x, (dict, list)))
        level = below
    return bool(level)


def parse_object(raw: bytes | str, what: str = "the request body") -> dict[str, Any]:
    """JSON text sent from outside (a body, a rows line inside one) as an object, or one
    clear WebError: not JSON, not an object, or nested deeper than :data:`MAX_DEPTH`."""
    deep = WebError(f"{what} nests more than {MAX_DEPTH} levels deep: no tabletop request does")
    try:
        data = json.loads(raw)
    except RecursionError:  # the parser's own bound, far past ours: refused in one line
        raise deep from None
    except (ValueError, UnicodeDecodeError):
        raise WebError(f"{what} is not JSON") from None
    if not isinstance(data, dict):
        raise WebError(f"{what} must be a JSON object")
    if too_deep(data):
        raise deep
    return data


async def read_json(request: Request) -> dict[str, Any]:
    """A request's body as a JSON object: read up to :data:`MAX_BODY` bytes (413 past it),
    parsed in a worker thread with a nesting too deep for the parser refused as one 400, as
    is one deeper than :data:`MAX_DEPTH` levels; anything else is one clear 4xx."""
    large = WebError(f"request too large (more than {MAX_BODY // (1024 * 1024)} MB)", 413)
    length = request.headers.get("content-length")
    if length and length.isdigit() and int(length) > MAX_BODY:
        raise large
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise large
        chunks.append(chunk)
    raw = b"".join(chunks).strip() or b"{}"  # no body: no fields (each route names those it needs)
    return await run_in_threadpool(parse_object, raw)
