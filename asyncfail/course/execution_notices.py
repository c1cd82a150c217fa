"""The kernel's notices of each attempt to run a cell, not sent in a published page.

marimo 0.25.2's kernel reports every attempt to run a cell three times (planned, running,
completed: ``marimo._runtime.execution.ExecutionAttempt``), each an ``execution`` notification,
the first with the cell's code in an edit session, sent through that module's
``broadcast_notification``. They are for marimo's server (``marimo._server.host`` translates
them for its hosts). A WebAssembly page reads none of them: its script drops the message unread
(the handler of marimo 0.25.2's page, ``case "execution": return``), and the Pyodide session's
own record (``SessionView``) keeps cell notifications, variables and the like, never these. Yet
in the page each one is encoded by the kernel, decoded twice by marimo's Pyodide bridge (once to
name it for the page, once for that record), posted to the page and parsed there. Lesson 1's
first run sent 66 of its 180 messages so (28 of its 86 kB); under Node, in marimo's own Pyodide
session, sending them took 18-50 ms of the kernel's start (lessons 1, 2 and 4, 3 runs each,
2026-12-07), and a change that reruns ``n`` cells sends ``3 n`` more (exports/README.md).

The rule: where marimo runs in Pyodide (``sys.platform == "emscripten"``), the kernel sends no
``execution`` notification; every other message is sent as before. In the site's pages from the
first run: the library's kernel lifespan, which the site's build names in its copy of the wheel
(``course/prerendered.py``), installs this as marimo's kernel instantiates the notebook. A
lesson run by marimo's server or as a script is untouched, and so is a page exported without the
site's build. ``install`` replaces the sender as ``course/marimo_functions.py`` states: in the
module marimo has loaded, once, and nowhere marimo has no such sender (another version), so a page
is never broken by it, only slower.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, Final

from asyncfail.course.marimo_functions import PYODIDE, is_wrapper, replace_once

SENDER_MODULE: Final = "marimo._runtime.execution"
SENDER: Final = "broadcast_notification"
"""Where marimo 0.25.2 sends an attempt's notices: the module's own name for marimo's
``broadcast_notification``, looked up there at each notice; marimo's runtime imports the module
before it starts a kernel."""
NOTICE: Final = "execution"
"""The notices' name (marimo's ``ExecutionNotification.name``, the page's ``op``)."""


def install(platform: str = sys.platform) -> bool:
    """Stop marimo's kernel sending the notices of each attempt to run a cell where it runs in
    Pyodide (``platform`` is ``sys.platform``, given by a test), once; whether it sends none
    now."""
    if platform != PYODIDE:
        return False
    return replace_once(SENDER_MODULE, SENDER, done=is_wrapper, replace=_without_notices)


def _without_notices(send: Callable[..., Any]) -> Callable[..., Any]:
    """marimo's sender, sending every notification but the notices."""

    @functools.wraps(send)
    def without_notices(notification: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(notification, "name", None) == NOTICE:
            return None  # read by nothing in the page
        return send(notification, *args, **kwargs)

    return without_notices
