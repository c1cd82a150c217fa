"""How a published page's kernel finds the name of each message it sends the page: from the
message's ``op`` field alone, without decoding the whole message.

marimo 0.25.2's Pyodide bridge (``write_kernel_message`` in ``marimo._pyodide.bootstrap``'s
``create_session``) sends the page each message of the kernel as ``{"op": name, "data":
message}``. It finds the name by decoding the whole message into its typed notification
(``deserialize_kernel_message(message).name``), then drops what it decoded; the Pyodide
session decodes the same message again, whole, for its own record (``SessionView``). marimo has
a decoder of the name alone, which its server's socket uses for the same purpose
(``marimo._messaging.serde.deserialize_kernel_notification_name``: the message's ``op`` field,
the tag its notifications are encoded with). Under Node, in marimo's own Pyodide session (lessons
1 and 7, 2026-12-07), the bridge's whole decodes took 0.15-0.28 ms a message after the first
(which builds the decoder's types, and which the session's record needs anyway), and the name
alone 0.01 ms; lesson 1's start sends 114 messages, lesson 7's 163: 17-45 ms of a kernel start
of 640-1,130 ms (exports/README.md).

The rule: where marimo runs in Pyodide (``sys.platform == "emscripten"``), the bridge names each
message with marimo's decoder of the name alone; the page receives the same text, and the
session's record decodes each message as before. In the site's pages from the first run: the
library's kernel lifespan (``course/prerendered.py``) installs this as marimo's kernel
instantiates the notebook, after the bridge has sent its first message (``kernel-ready``). A
lesson run by marimo's server or as a script is untouched, and so is a page exported without the
site's build. ``install`` replaces the bridge's decoder as ``course/marimo_functions.py`` states:
in the module marimo has loaded, once, and nowhere marimo has no such decoder or no decoder of
the name alone (another version), so a page is never broken by it, only slower.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, Final, NamedTuple

from asyncfail.course.marimo_functions import PYODIDE, is_wrapper, replace_once

BRIDGE_MODULE: Final = "marimo._pyodide.bootstrap"
DECODER: Final = "deserialize_kernel_message"
"""The bridge's own name for marimo's whole decoder, looked up in the bridge's module at each
message, where marimo 0.25.2 uses it for the message's name alone."""
NAMES_MODULE: Final = "marimo._messaging.serde"
NAME_DECODER: Final = "deserialize_kernel_notification_name"
"""marimo's decoder of a message's name alone (its ``op``), loaded with the bridge."""


class Named(NamedTuple):
    """What the bridge reads of a decoded message: its name."""

    name: str


def install(platform: str = sys.platform) -> bool:
    """Make marimo's Pyodide bridge read each message's name from its ``op`` field alone where
    it runs in Pyodide (``platform`` is ``sys.platform``, given by a test), once; whether it does
    now."""
    if platform != PYODIDE:
        return False
    name_of = getattr(sys.modules.get(NAMES_MODULE), NAME_DECODER, None)
    if not callable(name_of):
        return False
    return replace_once(BRIDGE_MODULE, DECODER, done=is_wrapper, replace=_by_name(name_of))


def _by_name(name_of: Callable[[bytes], str]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The replacement of marimo's whole decoder: the message's name alone, by ``name_of``."""

    def replace(decode: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(decode)
        def named(message: bytes) -> Named:
            return Named(name_of(message))

        return named

    return replace
