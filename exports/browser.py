"""Headless Debian Chromium through Playwright, kept on loopback (browser tests and the bench).

Never ``playwright install``: the browser is Debian's package ``chromium``.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Browser, BrowserContext, Playwright, Route

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/lib/chromium/chromium")
# Keep Chromium quiet on a closed network, and make any name other than loopback unresolvable.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}
LOCAL_SCHEMES = {"data", "blob", "about"}


def find_chromium() -> str | None:
    """Debian's Chromium, or the binary named by $CHROMIUM (which then must exist)."""
    env = os.environ.get("CHROMIUM")
    candidates = [env] if env else [*CHROMIUM_CANDIDATES, shutil.which("chromium")]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def launch(playwright: Playwright, executable: str) -> Browser:
    return playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)


def is_local(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in LOCAL_SCHEMES:
        return True
    return parts.scheme in {"http", "https", "ws", "wss"} and parts.hostname in LOCAL_HOSTS


@dataclass
class LoopbackGuard:
    """Routes every request of a context: loopback, data: and blob: pass; the rest is aborted.

    ``blocked`` lists every aborted URL (and any non-local request seen by other means).
    """

    blocked: list[str] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)

    def install(self, context: BrowserContext) -> None:
        context.route("**/*", self._route)
        context.on("request", self._saw)
        context.on("websocket", lambda ws: self._saw_url(ws.url))

    def _route(self, route: Route) -> None:
        url = route.request.url
        if is_local(url):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort("blockedbyclient")

    def _saw(self, request: object) -> None:
        self._saw_url(request.url)  # type: ignore[attr-defined]

    def _saw_url(self, url: str) -> None:
        self.seen.append(url)
        if not is_local(url) and url not in self.blocked:
            self.blocked.append(url)
