"""What a lesson makes as its page starts, so that a learner's first pick of a choice is not
slower than a return to it; made just after the page's first run, so the page does not wait
for it.

Like ``course/page.py`` and ``course/reveal.py``, it takes what the lesson hands in and never
imports marimo. Like ``course/markdown_cache.py``, it reads what marimo 0.25.2's kernel has
loaded (its context, ``CONTEXT_MODULE``, and its event loop, ``LOOP_MODULE``), and where that
is not there it makes everything at once: a lesson is never broken by it, only slower to start.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any, Final

LOOP_MODULE: Final = "asyncio"
"""The module whose ``get_running_loop`` gives the loop marimo's kernel runs on: read where the
kernel loaded it, never imported here (the model imports no ``asyncio``, which brings
``subprocess`` with it; tests/test_house.py)."""
CONTEXT_MODULE: Final = "marimo._runtime.context"
CONTEXT: Final = "safe_get_context"
"""Where marimo 0.25.2 keeps its kernel's context: ``safe_get_context()`` is the context of the
kernel running in this thread (None outside one), whose ``execution_context.cell_id`` names the
cell it is running and whose ``with_cell_id(cell_id)`` runs code as that cell (what a control
made then belongs to the cell, as marimo requires of every control it registers)."""


def warm(mo: Any, snapshot: bool, show: Callable[[str], object], choices: Iterable[str]) -> None:
    """Make what ``show(choice)`` makes for every one of ``choices`` (a control's options),
    once, and drop it, so that the first time a learner picks a choice answers as quickly as a
    return to it: what it made stays in the caches the cells read (the model's runs,
    ``lab.simulation``; the Markdown texts, ``course/markdown_cache``; lesson 3's heatmaps).
    ``show`` is what the cells that show a choice call, so what is made here is what they will
    make. Not in a snapshot, which shows one choice and never changes.

    When: in a page run by marimo's kernel (the WebAssembly page, ``make lab``, ``make serve``;
    ``mo`` is the imported ``marimo``), just after the page's first run is over, as the cell
    that asks for it (``after_this_run``); else (a lesson run as a script, a marimo whose
    kernel this does not know) at once, in order.

    In the WebAssembly page, the first change of lesson 1's fault after the page went live
    took 88 ms and the later ones 55-68 ms; with every fault made as the page starts, 57-71
    ms and 55-59 ms. Made in the first run, it took 111-161 ms of it; made after, lesson 1's
    cells took 125 ms less in all (its step sliders now run the faults' models; medians of 3
    loads, exports/README.md)."""
    if snapshot:
        return
    made = list(choices)

    def make() -> None:
        for choice in made:
            show(choice)

    later = after_this_run(mo)
    if later is None:
        make()
    else:
        later(make)


def after_this_run(mo: Any) -> Callable[[Callable[[], None]], None] | None:
    """What runs a function just after the run of cells that is going on is over, as the cell
    running now; None where nothing can (no kernel: a lesson run as a script).

    The rule: marimo's kernel runs a request's cells in one turn of its event loop (unless a
    cell awaits, which no lesson's does) and says the run is over (``completed-run``) at the
    end of that turn; a function handed to the loop's ``call_soon`` runs at the next turn,
    before any request that comes later (the loop keeps its order). The page goes live without
    waiting for it; a learner's change that comes while it runs waits for it to end. ``mo`` is
    the imported ``marimo``, whose kernel context module is then loaded (``CONTEXT_MODULE``):
    only its kernel counts (``mo.running_in_notebook()``), not a lesson run as a script inside
    some other loop (a test's browser holds one)."""
    asyncio = sys.modules.get(LOOP_MODULE)
    if asyncio is None or not mo.running_in_notebook():
        return None
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    module = sys.modules.get(CONTEXT_MODULE)
    context = getattr(module, CONTEXT, lambda: None)()
    cell = getattr(getattr(context, "execution_context", None), "cell_id", None)
    as_cell = getattr(context, "with_cell_id", None)
    if cell is None or as_cell is None:
        return None

    def later(run: Callable[[], None]) -> None:
        def in_cell() -> None:
            with as_cell(cell):
                run()

        loop.call_soon(in_cell)

    return later
