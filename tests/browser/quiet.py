"""What a page must not do on a normal load (issue 24): fail a request (a response of 400 or
more, such as marimo's idle icon asked for beside the page), log an error to the console,
throw an uncaught error, or install the library with micropip (one step more before its first
cell: Pyodide loads it from the site's lock, with pydantic, in its first batch). Installed on
the tests that already boot each interactive page, so the check costs no page load of its
own."""

from __future__ import annotations

import re
from typing import Any

IDLE_ICON_MS = 30_000  # marimo sets its idle icon 3 s after the cells end
ICON_FETCH_MS = 1_000  # then the browser fetches it (an icon is no load event to wait for)
# Pyodide's line once it has loaded a batch of packages of the lock, the library among them.
LOADED = re.compile(r"Loaded .*\basyncfail\b")
PYTHON_ERROR = "Traceback (most recent call last)"
# marimo's icon once the cells have run and it has gone idle (not an inline image).
ICON_IDLE = "() => !document.querySelector(\"link[rel~='icon']\").href.startsWith('data:')"


class Quiet:
    """Listens to ``page`` (and its context's responses) from before it navigates."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.failed: list[str] = []
        self.errors: list[str] = []
        self.logged: list[str] = []
        page.context.on("response", self._response)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))

    def _console(self, message: Any) -> None:
        self.logged.append(message.text)
        if message.type == "error":
            self.errors.append(message.text)

    def _response(self, response: Any) -> None:
        if response.status >= 400:
            self.failed.append(f"{response.status} {response.url}")

    def idle(self) -> None:
        """Wait for marimo's last request of a load: its idle icon, set once the cells ran."""
        self.page.wait_for_function(ICON_IDLE, timeout=IDLE_ICON_MS, polling=250)
        self.page.wait_for_timeout(ICON_FETCH_MS)

    def check(self) -> None:
        """After ``idle``: no failed request, no console error, no uncaught error (the page's,
        or Python's, printed by the kernel's worker); the library loaded by Pyodide (its
        "Loaded ..." line names it), not by micropip."""
        assert self.failed == []
        assert self.errors == []
        # A Python error outside a cell (one that marimo's kernel or Pyodide's event loop
        # caught, such as the work a lesson makes after its first run, course.warmup) is
        # printed to the console as a warning, one line per message.
        assert [m for m in self.logged if m.startswith(PYTHON_ERROR)] == []
        assert [m for m in self.logged if m.startswith("Loading from micropip")] == []
        assert [m for m in self.logged if LOADED.match(m)] != [], self.logged
