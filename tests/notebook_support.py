"""Helpers to run marimo lessons headless and read their rendered outputs back."""

import html
import importlib.util
import json
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import marimo as mo
import pytest

from asyncfail.course import markdown_cache
from asyncfail.ground.quiz import Question
from asyncfail.lab.scenario import Mode
from asyncfail.lab.simulation import simulate

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
RUNTIMES: tuple[Mode, ...] = (Mode.NAIVE, Mode.DURABLE)
"""The runtimes the lessons set side by side, in their order (not every mode the lab has)."""

_VEGA = re.compile(
    r"data-mime='&quot;application/vnd\.vegalite\.v\d\+json&quot;' data-data='([^']*)'"
)

_SEQUENCE = re.compile(r'<svg [^>]*class="sequence-view".*?</svg>', re.S)

_HEATMAP = re.compile(r'<svg [^>]*class="heatmap-view".*?</svg>', re.S)


def load_notebook(stem: str) -> ModuleType:
    """Import ``notebooks/<stem>.py`` as a module (its ``app`` and named cells)."""
    path = NOTEBOOKS / f"{stem}.py"
    spec = importlib.util.spec_from_file_location(f"lesson_{stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def lesson_question(stem: str) -> Question:
    """A lesson's check for understanding, as its notebook writes it (its ``check_question``
    cell, run alone: the rest of the lesson does not run; once per session)."""
    _, defs = load_notebook(stem).check_question.run(Question=Question)
    question = defs["question"]
    assert isinstance(question, Question)
    return question


def cells_rerun_by(module: ModuleType, name: str) -> list[str]:
    """The code of every cell of the lesson ``module`` that a change of its control ``name``
    reruns: those that read it, and everything downstream of them (marimo's dataflow graph, as
    the page's kernel walks it)."""
    module.app._maybe_initialize()
    graph = module.app._graph
    rerun = set(graph.get_referring_cells(name, language="python"))
    for cell in list(rerun):
        rerun |= graph.descendants(cell)
    return [graph.cells[cell].code for cell in sorted(rerun)]


def made_after_the_start(
    monkeypatch: pytest.MonkeyPatch,
    run: Callable[..., object],
    picks: Sequence[Mapping[str, object]],
    **start: object,
) -> tuple[list[str], int]:
    """With marimo's Markdown renderer and the model's runs forgotten, a lesson run as it
    starts (``run(**start)``), then once with each of ``picks`` substituted as well: the texts
    rendered and the number of runs simulated after the start (``course.warmup.warm``'s test)."""
    markdown_cache.install(mo)  # as every lesson does, once per process
    module = sys.modules[markdown_cache.RENDERER_MODULE]
    memo = getattr(module, markdown_cache.RENDERER)
    memo.cache_clear()
    simulate.cache_clear()
    run(**start)
    simulated = simulate.cache_info().misses
    rendered: list[str] = []

    def render(text: str) -> str:
        misses = memo.cache_info().misses
        html = memo(text)
        if memo.cache_info().misses > misses:
            rendered.append(text)
        return str(html)

    monkeypatch.setattr(module, markdown_cache.RENDERER, render)
    for pick in picks:
        run(**start, **pick)
    return rendered, simulate.cache_info().misses - simulated


def run_lesson(module: ModuleType, **controls: object) -> tuple[str, dict[str, Any]]:
    """Run a lesson headless with ``controls`` substituted: (rendered HTML, definitions)."""
    outputs, defs = module.app.run(defs=controls)
    return rendered_text(outputs), dict(defs)


def rendered_text(outputs: tuple[Any, ...]) -> str:
    """All cell outputs as one HTML string."""
    return "\n".join(o.text for o in outputs if hasattr(o, "text"))


def vega_specs(page: str) -> list[dict[str, Any]]:
    """The Vega-Lite specs embedded in rendered output, in page order."""
    return [json.loads(json.loads(html.unescape(m))) for m in _VEGA.findall(page)]


def sequence_drawings(page: str) -> list[str]:
    """The sequence views (the library's SVG, ``charts.sequence_drawing``) in rendered output,
    in page order, unescaped as ``unescape_nested`` unescapes the page: compare them with
    ``unescape_nested(drawing.svg)``."""
    return _SEQUENCE.findall(unescape_nested(page))


def heatmap_drawings(page: str) -> list[str]:
    """The retention heatmaps (the library's SVG, ``charts.heatmap_drawing``) in rendered
    output, in page order, unescaped as ``sequence_drawings`` does."""
    return _HEATMAP.findall(unescape_nested(page))


def unescape_nested(page: str) -> str:
    """Undo the escaping of HTML that marimo nests inside attributes (callouts, stats)."""
    for _ in range(6):
        unescaped = html.unescape(page)
        for escaped, plain in (("\\u003c", "<"), ("\\u003e", ">"), ("\\u0026", "&"),
                               ('\\"', '"'), ("\\n", " ")):  # fmt: skip
            unescaped = unescaped.replace(escaped, plain)
        if unescaped == page:
            break
        page = unescaped
    return page


def visible_text(page: str) -> str:
    """Rendered HTML reduced to its text, whitespace folded."""
    text = re.sub(r"<[^<>]*>", " ", unescape_nested(page))
    return " ".join(text.split())


def stats(page: str) -> list[tuple[str, str]]:
    """The (label, value) of every ``mo.stat`` in rendered output, in page order."""
    found = re.findall(
        r"<marimo-stat data-value='([^']*)' data-label='\"([^\"]*)\"'", unescape_nested(page)
    )
    return [(label, value) for value, label in found]
