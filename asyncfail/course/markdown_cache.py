"""A memo of marimo's Markdown renderer, so a lesson's recompute renders each text once.

marimo renders Markdown to HTML whenever it makes an object that holds some: every ``mo.md``
and every control's label (``marimo._output.md._render_markdown``: Python-Markdown with about
twenty extensions). A change of one control remakes many of the same texts again: the labels
of the controls it rebuilds, the headings and captions of the panels it redraws. Profiled with
cProfile inside the WebAssembly page (lesson 2, three changes of "Start from", 2026-12-02),
that rendering was a third of the Python work of a change, for texts already rendered before.

The rule: marimo's renderer is a function of its text alone (it resets its converter before
each call; the lessons use no footnotes, whose numbering is the one thing a reset keeps), so
the HTML rendered for a text is reused for the same text. ``install`` wraps the renderer in an
LRU cache of ``SIZE`` texts. It replaces the renderer as ``course/marimo_functions.py`` states:
in the module marimo has loaded, once, and nowhere marimo has no such renderer (another version),
so a lesson is never broken by it, only slower.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Final

from asyncfail.course.marimo_functions import replace_once

RENDERER_MODULE: Final = "marimo._output.md"
RENDERER: Final = "_render_markdown"
"""Where marimo 0.25.2 keeps its renderer: ``_md`` looks it up there on every call."""
SIZE: Final = 1024
"""Texts kept: a lesson renders a few hundred distinct ones, so the cache holds a session's
worth and keeps memory bounded however long a learner plays."""


def install(mo: Any) -> bool:
    """Memoize marimo's Markdown renderer (``mo`` is the imported ``marimo``), once; whether it
    is memoized now."""
    del mo  # imported by the lesson: its renderer's module is loaded with it
    return replace_once(RENDERER_MODULE, RENDERER, done=_is_memoized, replace=_memoized)


def _is_memoized(render: Callable[..., Any]) -> bool:
    """Whether ``render`` is this memo (an LRU cache has ``cache_info``)."""
    return hasattr(render, "cache_info")


def _memoized(render: Callable[..., Any]) -> Callable[..., Any]:
    """marimo's renderer behind an LRU cache of ``SIZE`` texts."""
    return functools.lru_cache(maxsize=SIZE)(render)
