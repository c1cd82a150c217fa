"""Where a lesson may offer a live run on real processes, written once for the lessons that
offer one (lesson 1: the reference implementation; lesson 9: DBOS): the served-page check and
the switch of the person serving the course.

Only a lesson served by CPython from a checkout can start processes; the published pages (an
export, the WebAssembly page) never can. A lesson imports its runner (``reference.live``,
``engines.live``) only after its button is pressed; this module imports neither.
"""

import sys
from collections.abc import Mapping
from enum import StrEnum
from typing import Final

LIVE_VERIFY_META: Final = "asyncfail_live_verify"
"""The key under which the course server (``make serve``) states its switch in each request's
``meta`` (``mo.app_meta().request.meta``): set by the server for every request, so a visitor
cannot set it."""


class LiveVerify(StrEnum):
    """The switch of the person serving the course: may a visitor run a verification live?"""

    ON = "on"
    OFF = "off"


class LiveChance(StrEnum):
    """Where the lesson runs, as far as a live run goes."""

    CAN_RUN = "can run"
    """Served by CPython, the switch on: the button is offered."""
    TURNED_OFF = "turned off"
    """Served by CPython, but the person serving turned live runs off."""
    NO_PROCESSES = "no processes"
    """An export, a test, or the WebAssembly page: no process can start."""


def can_run_live(
    served: bool, platform: str = sys.platform, switch: LiveVerify = LiveVerify.ON
) -> bool:
    """Whether the lesson may offer to run a verification live: only when a marimo server
    serves it (``served``: the session has an HTTP request, as ``make lab`` gives it; an
    export runs without one) on a platform that can start processes (not ``emscripten``, the
    WebAssembly page, where no process can start), with the server's switch on."""
    return served and platform != "emscripten" and switch is LiveVerify.ON


def live_chance(request: object | None, platform: str = sys.platform) -> LiveChance:
    """What the lesson may offer, from its session's request (``mo.app_meta().request``).

    Rules: no request (an export, a test) or the WebAssembly page: ``NO_PROCESSES``. Served,
    the switch is the request's ``meta[LIVE_VERIFY_META]``, which ``make serve`` always sets
    (``VERIFY=on|off``; off by default on any address but loopback); a server that sets none
    (``marimo run`` or ``marimo edit`` on one's own notebook) leaves it on. Anything but
    ``on`` there counts as off.
    """
    if not can_run_live(request is not None, platform):
        return LiveChance.NO_PROCESSES
    meta = getattr(request, "meta", None)
    stated = meta.get(LIVE_VERIFY_META, LiveVerify.ON) if isinstance(meta, Mapping) else None
    if stated in (None, LiveVerify.ON.value):
        return LiveChance.CAN_RUN
    return LiveChance.TURNED_OFF
