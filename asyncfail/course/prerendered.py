"""The lessons' Markdown as the published pages render it, rendered once when the site is built.

Every lesson's page renders Markdown as it starts: its Markdown-only cells as marimo's kernel
instantiates the notebook, before any cell runs, then every ``mo.md`` and control label its
first run makes (``marimo._output.md._render_markdown``: Python-Markdown and some twenty
extensions, the converter built at the first call). Timed under Node, in marimo's own Pyodide
session running lesson 1 (2026-12-06), that rendering took 145-196 ms of a kernel start of
about 600 ms, 56-93 ms of it building the converter; the bench's trivial page renders none.

The rule: the page's renderer is a function of its text alone (``course/markdown_cache.py``
states why), and the texts a lesson's first run renders, and its warm-up just after
(``course/warmup.py``), are the same at every visit (the model is deterministic, the controls
start where the notebook sets them). So the site's build runs each lesson's first run and
warm-up once in the page's own Python, Pyodide under Node with the site's own wheels
(``exports/prerender.mjs``), keeps every text the renderer was given with the HTML it gave
(``MEMO``, written into the site's copy of this package; a text with an image, which marimo's
Pyodide renderer inlines from the page's files, is not kept), and the page answers those texts
from it. A text it does not hold (a change of a control, an edited lesson) is rendered as
before. So the page shows the same HTML, byte for byte, and neither the first run nor the
warm-up builds a converter (``tests/browser/test_prerendered.py`` checks both on the built
site). Kept for the warm-up too (2026-12-07), the memo holds 243 texts (82 kB) against 184
(65 kB), and under Node the warm-up after lesson 1's first run took 107-196 ms against 381-413
ms, lesson 2's 78-111 ms against 308-335 ms (3 runs each): the time a learner's first change
right after the page went live waits for it.

When: marimo's kernel enters the lifespans installed distributions name as entry points
(``ENTRY_POINT_GROUP``) as it instantiates the notebook, before it renders the Markdown-only
cells; no lesson cell runs that early. The site's build names ``lifespan`` there in its copy of
the library's wheel only (``ENTRY_POINT``), the one a page installs; the library's own metadata
names none, so a kernel in CPython (marimo's server, ``make serve``) never enters it: marimo
ends a lifespan it entered in a run-mode kernel with a traceback as the server stops. And it
acts only where marimo runs in Pyodide (``sys.platform == "emscripten"``), the one place the
memo was rendered for. ``install`` replaces the renderer as ``course/marimo_functions.py``
states (in the module marimo has loaded, once, and nowhere marimo has no such renderer), and not
at all where the memo is missing, so a page is never broken by it, only slower.
"""

from __future__ import annotations

import contextlib
import functools
import json
import sys
from collections.abc import AsyncIterator, Callable, Mapping
from importlib.resources import files
from typing import Any, Final

from asyncfail.course import editor_data, execution_notices, message_names
from asyncfail.course.marimo_functions import PYODIDE, replace_once

# Where marimo keeps its renderer, as the lessons' own memo reads it.
from asyncfail.course.markdown_cache import RENDERER, RENDERER_MODULE

MEMO: Final = "prerendered_markdown.json"
"""The memo's file in this package: a JSON object of text to HTML, written by the site's build
into its copy of the library's wheel only (``exports/prerender.py``); absent from a checkout."""
ENTRY_POINT_GROUP: Final = "marimo.kernel.lifespan"
ENTRY_POINT: Final = "asyncfail = asyncfail.course.prerendered:lifespan"
"""The entry point marimo 0.25.2's kernel loads as it starts (``marimo._runtime.runtime``'s
registry of that group), as a line of a wheel's ``entry_points.txt``."""
KEPT_ASIDE: Final = "<img"
"""HTML the memo never holds: marimo's renderer in Pyodide inlines a local image from the
page's own files (``pymdownx.b64``), which the build does not have."""


def load() -> dict[str, str]:
    """The memo this package holds: empty where there is none (a checkout) or it is not a JSON
    object of strings (never a traceback in a page: it is only slower)."""
    try:
        memo = json.loads(files(__package__).joinpath(MEMO).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(memo, dict) or not all(
        isinstance(text, str) and isinstance(html, str) for text, html in memo.items()
    ):
        return {}
    return memo


def install(memo: Mapping[str, str], platform: str = sys.platform) -> bool:
    """Make marimo's renderer answer the texts of ``memo`` from it, where marimo runs in
    Pyodide (``platform`` is ``sys.platform``, given by a test), once; whether it does now."""
    if platform != PYODIDE or not memo:
        return False
    kept = dict(memo)

    def from_memo(render: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(render)
        def answered(text: str) -> str:
            html = kept.get(text)
            return render(text) if html is None else html

        answered.prerendered = len(kept)  # type: ignore[attr-defined]
        return answered

    return replace_once(RENDERER_MODULE, RENDERER, done=_is_prerendered, replace=from_memo)


def _is_prerendered(render: Callable[..., Any]) -> bool:
    """Whether ``render`` answers from a memo already (it carries the memo's size)."""
    return hasattr(render, "prerendered")


@contextlib.asynccontextmanager
async def lifespan(app: Any) -> AsyncIterator[None]:
    """marimo's kernel lifespan (``app`` is None for a kernel): installs the memo as the kernel
    instantiates the notebook, and before the first run stops the kernel gathering its editor's
    panel data (``course/editor_data.py``), where a lesson's own install comes only after that
    run has asked, and sending the notices of each attempt to run a cell
    (``course/execution_notices.py``), and makes marimo's bridge read each message's name from
    its ``op`` field alone (``course/message_names.py``); nothing to undo when it ends."""
    del app
    install(load())
    # marimo's runtime has loaded their modules by now; the lesson hands no marimo here.
    editor_data.install(None)
    execution_notices.install()
    message_names.install()
    yield
