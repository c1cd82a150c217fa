"""What a lesson makes as its page starts, so that a learner's first pick of a choice is not
slower than a return to it.

Like ``course/page.py`` and ``course/reveal.py``, it takes what the lesson hands in and never
imports marimo.
"""

from collections.abc import Callable, Iterable


def warm(snapshot: bool, show: Callable[[str], object], choices: Iterable[str]) -> None:
    """Make what ``show(choice)`` makes for every one of ``choices`` (a control's options)
    once, as the page starts, and drop it, so that the first time a learner picks a choice
    answers as quickly as a return to it: what it made stays in the caches the cells read
    (the model's runs, ``lab.simulation``; the Markdown texts, ``course/markdown_cache``;
    lesson 3's heatmaps). ``show`` is what the cells that show a choice call, so what is made
    here is what they will make. Not in a snapshot, which shows one choice and never changes.

    In the WebAssembly page, the first change of lesson 1's fault after the page went live
    took 88 ms and the later ones 55-68 ms; with every fault made as the page starts, 57-71
    ms and 55-59 ms, and the page went live as soon (exports/README.md)."""
    if snapshot:
        return
    for choice in choices:
        show(choice)
