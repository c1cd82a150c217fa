"""course/markdown_cache.py: marimo's Markdown renderer, memoized, renders exactly what it
rendered before, once per text; every lesson installs it; nothing breaks where marimo has no
such renderer."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

import marimo as mo
import pytest

from asyncfail.course import markdown_cache

ROOT = Path(__file__).resolve().parents[2]
TEXTS = (
    "# A heading\n\n## Another heading\n\nText with **bold**, `code` and a [link](https://x.y/).",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    '```json\n{"a": 1}\n```',
    "- one\n- two\n\n1. first\n2. second",
    "/// details | Folded\nInside.\n///",
    "Dollars $5 and a <small>tag</small>",
)


@pytest.fixture
def module(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """marimo's renderer module, its renderer put back after the test."""
    found = sys.modules[markdown_cache.RENDERER_MODULE]
    original = getattr(found, markdown_cache.RENDERER)
    original = getattr(original, "__wrapped__", original)
    monkeypatch.setattr(found, markdown_cache.RENDERER, original)
    return found


def test_the_memo_renders_what_marimo_rendered_once_per_text(module: types.ModuleType) -> None:
    before = [mo.md(text).text for text in TEXTS]
    labels = [mo.ui.text(label=text).text for text in TEXTS]
    assert markdown_cache.install(mo) is True
    render = getattr(module, markdown_cache.RENDERER)
    assert [mo.md(text).text for text in TEXTS] == before
    assert [mo.md(text).text for text in TEXTS] == before
    # Labels go through the same renderer; a control's HTML also holds its random id.
    ids = re.compile(r"(object|random)-id='[^']*'")
    again = [mo.ui.text(label=text).text for text in TEXTS]
    assert [ids.sub("", t) for t in again] == [ids.sub("", t) for t in labels]
    info = render.cache_info()
    assert info.misses == len(TEXTS)
    assert info.hits >= 2 * len(TEXTS)


def test_installing_twice_memoizes_once(module: types.ModuleType) -> None:
    assert markdown_cache.install(mo) and markdown_cache.install(mo)
    render = getattr(module, markdown_cache.RENDERER)
    assert not hasattr(render.__wrapped__, "cache_info")


def test_without_marimos_renderer_nothing_is_patched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, markdown_cache.RENDERER_MODULE, types.ModuleType("other"))
    assert markdown_cache.install(mo) is False
    monkeypatch.delitem(sys.modules, markdown_cache.RENDERER_MODULE)
    assert markdown_cache.install(mo) is False


def test_every_lesson_installs_it_and_none_uses_footnotes() -> None:
    # Footnotes are the one thing the renderer numbers across calls: a memo would repeat ids.
    for notebook in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py")):
        text = notebook.read_text(encoding="utf-8")
        assert "_markdown_cache.install(mo)" in text, notebook.name
        assert re.search(r"\[\^[^\]]+\]", text) is None, notebook.name
    for module_file in sorted((ROOT / "asyncfail").rglob("*.py")):
        assert re.search(r"\[\^[\w-]+\]:", module_file.read_text(encoding="utf-8")) is None
