"""The data marimo's kernel gathers for its editor's panels, not gathered in a published page.

After every cell it runs, marimo's kernel in an edit session gathers what its editor's panels
show: a preview of every name the cell defines (the variables panel), whether each value is a
table (the datasets panel: each value offered to narwhals), an SQL engine, a DuckDB
connection or a storage backend (the data sources panel), and sends each to the page. Whether
it does is ``marimo._runtime.runner.cell_runner._should_broadcast_data``, asked once per run
before its first cell in marimo 0.25.2: yes in an edit session. In a WebAssembly page,
marimo's Pyodide bootstrap opens an edit session whatever mode the page was exported in
(``marimo._pyodide.bootstrap.create_session`` passes ``SessionMode.EDIT``), so a page exported
to run, which has no such panels, still gathered and sent it all. Profiled with cProfile inside
lesson 1's page (2026-12-06), those hooks took 120 ms of the first run's 1,005 ms of profiled
Python. Timed inside lesson 2's page (12 changes of "Start from" per load, 8 loads alternating
with the lesson without this), a change took the kernel 21.6 ms against 23.8 ms (medians; less
in 6 of the 8 pairs). The bench's recompute ratio does not move: the trivial cell it is set
against pays those hooks too (exports/README.md).

The rule: where marimo runs in Pyodide (``sys.platform == "emscripten"``), the kernel gathers no
panel data. In the site's pages, from the first run: the library's kernel lifespan, which the site's
build names in its copy of the wheel (``course/prerendered.py``), installs this as marimo's kernel
instantiates the notebook, before that run asks; under Node, in marimo's own Pyodide session, the
nine lessons' first runs then took 31 ms less on average (from 110 ms less, lesson 4, to 37 ms more,
lesson 3, within the noise; medians of 4-6 runs each, alternating, 2026-12-07) and lesson 1's sent
13 messages fewer. Elsewhere (a lesson exported without the site's build) the run whose cell
installs this has asked already and still gathers, and every later run (each control's change) does
not. The course publishes its WebAssembly pages to run and to run only (``exports/build.py`` exports
each with ``--mode run``): none of them has a panel to show it. A lesson run by marimo's server
(``marimo edit`` keeps its panels; ``marimo run`` and ``make serve`` gather none anyway) or as a
script is untouched. ``install`` replaces the switch as ``course/marimo_functions.py`` states: in
the module marimo has loaded, once, and nowhere marimo has no such switch (another version), so a
lesson is never broken by it, only slower.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, Final

from asyncfail.course.marimo_functions import PYODIDE, is_wrapper, replace_once

SWITCH_MODULE: Final = "marimo._runtime.runner.cell_runner"
SWITCH: Final = "_should_broadcast_data"
"""Where marimo 0.25.2 decides whether a run's cells broadcast their panels' data: a function
of the runner's module, looked up there once per run, before its first cell."""


def install(mo: Any, platform: str = sys.platform) -> bool:
    """Stop marimo's kernel gathering its editor's panel data where it runs in Pyodide (``mo``
    is the imported ``marimo``; ``platform`` is ``sys.platform``, given by a test), once;
    whether it gathers none now."""
    del mo  # imported by the lesson: the switch's module is loaded with it
    if platform != PYODIDE:
        return False
    return replace_once(SWITCH_MODULE, SWITCH, done=is_wrapper, replace=_no_panels)


def _no_panels(switch: Callable[[], bool]) -> Callable[[], bool]:
    """marimo's switch, answering that no run broadcasts panel data."""

    @functools.wraps(switch)
    def no_panels() -> bool:
        return False

    return no_panels
