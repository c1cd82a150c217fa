"""The course server's guard for a class: what a visitor may reach, and how many at once.

``ClassGuard`` wraps the course's ASGI app (``course_server.py``). Rules:

- **Hidden**: marimo's home endpoints (``…/api/home/…``: the workspace's file list, running and
  recent notebooks) answer 404 to anyone: in run mode the lessons never call them, and the file
  list shows the server's temporary paths.
- **The switch**: every request carries the person serving's live-verification switch in its
  ``meta`` (``LIVE_VERIFY_META`` of lesson 1's ``verification`` module), which lesson 1
  reads; being set here on every request, a visitor cannot set it.
- **At most ``max_sessions`` lessons open at once**: a lesson's session lives while its page's
  websocket (``…/ws``) is open, and for marimo's session TTL after. A websocket beyond the
  limit is refused before it opens (the page says it lost its connection; a reload retries),
  so threads and memory stay bounded by a class's size, not by how fast pages are opened.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final

from asyncfail.course.lesson01_async_failure_lab.verification import LIVE_VERIFY_META, LiveVerify

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

HIDDEN: Final = re.compile(r"(^|/)api/home(/|$)")
"""Paths no visitor may reach: marimo's home endpoints, under any lesson."""
SESSION_SOCKET: Final = re.compile(r"(^|/)ws$")
"""The websocket a lesson's page holds for its session."""
TRY_AGAIN_LATER: Final = 1013
"""The websocket close code for a server at its limit (RFC 6455's registry: try again later)."""


class ClassGuard:
    """An ASGI middleware: hides marimo's home endpoints, states the live-verification switch
    in every request's ``meta``, and holds open lesson sessions to ``max_sessions``."""

    def __init__(self, app: App, *, live_verify: LiveVerify, max_sessions: int) -> None:
        if max_sessions < 1:
            raise ValueError(f"max_sessions must be at least 1, got {max_sessions}")
        self.app, self.live_verify, self.max_sessions = app, live_verify, max_sessions
        self.open_sessions = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if HIDDEN.search(path):
            await _refuse(scope, send)
            return
        meta = dict(scope.get("meta") or {})
        meta[LIVE_VERIFY_META] = self.live_verify.value
        scope = {**scope, "meta": meta}
        if scope["type"] != "websocket" or not SESSION_SOCKET.search(path):
            await self.app(scope, receive, send)
            return
        if self.open_sessions >= self.max_sessions:
            await send({"type": "websocket.close", "code": TRY_AGAIN_LATER})
            return
        # One event loop serves every request: counting needs no lock.
        self.open_sessions += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open_sessions -= 1


async def _refuse(scope: Scope, send: Send) -> None:
    """404 for a request, a refused handshake for a websocket."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    body = b"Not Found"
    await send(
        {
            "type": "http.response.start",
            "status": 404,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
