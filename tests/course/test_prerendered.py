"""course/prerendered.py: in a published page, marimo's renderer answers the texts of the build's
memo from it and renders every other text as before; elsewhere nothing changes, and the
installed library names no lifespan for marimo's kernel to enter; the lifespan also stops the
kernel gathering its editor's panel data and sending its execution notices before the first run,
and has marimo's bridge read each message's name alone, in Pyodide only. (On the built site,
under Pyodide: tests/browser/test_prerendered.py.)"""

from __future__ import annotations

import importlib
import inspect
import json
import sys
import types
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import marimo as mo
import pytest
from marimo._entrypoints.registry import EntryPointRegistry

from asyncfail.course import (
    editor_data,
    execution_notices,
    markdown_cache,
    message_names,
    prerendered,
)

PYODIDE = "emscripten"
MEMO = {"# Kept": '<h1 id="kept">From the memo</h1>'}


@pytest.fixture
def module(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """marimo's renderer module, its own renderer in place, put back after the test."""
    found = sys.modules[prerendered.RENDERER_MODULE]
    monkeypatch.setattr(
        found, prerendered.RENDERER, inspect.unwrap(getattr(found, prerendered.RENDERER))
    )
    return found


def test_in_pyodide_a_text_of_the_memo_is_answered_from_it_and_no_other(
    module: types.ModuleType,
) -> None:
    other = "Rendered **as before**"
    marimos = mo.md(other).text
    assert prerendered.install(MEMO, platform=PYODIDE) is True
    assert "From the memo" in mo.md("# Kept").text
    assert mo.md(other).text == marimos
    assert getattr(module, prerendered.RENDERER)("# Kept") == MEMO["# Kept"]


def test_a_memo_answers_without_marimos_renderer(
    module: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []

    def marimos(text: str) -> str:
        asked.append(text)
        return f"<p>{text}</p>"

    monkeypatch.setattr(module, prerendered.RENDERER, marimos)
    assert prerendered.install(MEMO, platform=PYODIDE)
    render = getattr(module, prerendered.RENDERER)
    assert [render("# Kept"), render("other")] == [MEMO["# Kept"], "<p>other</p>"]
    assert asked == ["other"]


def test_outside_pyodide_or_without_a_memo_nothing_is_patched(module: types.ModuleType) -> None:
    marimos = getattr(module, prerendered.RENDERER)
    assert prerendered.install(MEMO, platform="linux") is False
    assert prerendered.install({}, platform=PYODIDE) is False
    assert getattr(module, prerendered.RENDERER) is marimos


def test_installing_twice_patches_once_and_the_lessons_memo_still_wraps_it(
    module: types.ModuleType,
) -> None:
    assert prerendered.install(MEMO, platform=PYODIDE)
    first = getattr(module, prerendered.RENDERER)
    assert prerendered.install({"other": "<p>x</p>"}, platform=PYODIDE)
    assert getattr(module, prerendered.RENDERER) is first
    assert markdown_cache.install(mo)
    assert "From the memo" in mo.md("# Kept").text


def test_without_marimos_renderer_nothing_is_patched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, prerendered.RENDERER_MODULE)
    assert prerendered.install(MEMO, platform=PYODIDE) is False


def test_a_checkout_holds_no_memo() -> None:
    assert prerendered.load() == {}


@pytest.mark.parametrize(
    ("written", "loaded"),
    [
        (json.dumps(MEMO), MEMO),
        ("{not json", {}),
        (json.dumps(["# Kept"]), {}),
        (json.dumps({"# Kept": 1}), {}),
    ],
)
def test_the_memo_is_read_whole_or_not_at_all(
    written: str, loaded: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / prerendered.MEMO).write_text(written, encoding="utf-8")
    monkeypatch.setattr(prerendered, "files", lambda _package: tmp_path)
    assert prerendered.load() == loaded


def test_the_installed_library_names_no_lifespan_for_a_kernel_in_cpython() -> None:
    # Only the site's copy of the wheel names it (exports/prerender.py): marimo's server would
    # enter it in every lesson's kernel, and end it with a traceback as it stops.
    assert not entry_points(group=prerendered.ENTRY_POINT_GROUP, name="asyncfail")
    registry: EntryPointRegistry[object] = EntryPointRegistry(prerendered.ENTRY_POINT_GROUP)
    assert prerendered.lifespan not in registry.get_all()
    name, _, target = prerendered.ENTRY_POINT.partition(" = ")
    module, _, attribute = target.partition(":")
    assert (name, getattr(sys.modules[module], attribute)) == ("asyncfail", prerendered.lifespan)


def finished(step: Any) -> None:
    """Run ``step`` (a coroutine that awaits nothing) to its end, without an event loop (a
    test's browser may hold this thread's)."""
    try:
        step.send(None)
    except StopIteration:
        return
    raise AssertionError("the lifespan awaited something")


def test_the_lifespan_installs_the_memo_and_every_other_switch_in_pyodide_only(
    module: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    marimos = getattr(module, prerendered.RENDERER)
    runner = importlib.import_module(editor_data.SWITCH_MODULE)
    switch = inspect.unwrap(getattr(runner, editor_data.SWITCH))
    monkeypatch.setattr(runner, editor_data.SWITCH, switch)  # marimo's own, and put back after
    attempts = importlib.import_module(execution_notices.SENDER_MODULE)
    sender = inspect.unwrap(getattr(attempts, execution_notices.SENDER))
    monkeypatch.setattr(attempts, execution_notices.SENDER, sender)
    bridge = importlib.import_module(message_names.BRIDGE_MODULE)
    decoder = inspect.unwrap(getattr(bridge, message_names.DECODER))
    monkeypatch.setattr(bridge, message_names.DECODER, decoder)
    monkeypatch.setattr(prerendered, "load", lambda: MEMO)
    for pyodide in (False, True):
        if pyodide:  # as if this were Pyodide
            monkeypatch.setattr(prerendered, "PYODIDE", sys.platform)
            monkeypatch.setattr(editor_data, "PYODIDE", sys.platform)
            monkeypatch.setattr(execution_notices, "PYODIDE", sys.platform)
            monkeypatch.setattr(message_names, "PYODIDE", sys.platform)
        span = prerendered.lifespan(None)
        finished(span.__aenter__())
        installed = getattr(module, prerendered.RENDERER) is not marimos
        gathers = getattr(runner, editor_data.SWITCH) is switch
        notes = getattr(attempts, execution_notices.SENDER) is sender
        decodes = getattr(bridge, message_names.DECODER) is decoder
        finished(span.__aexit__(None, None, None))
        assert (installed, gathers, notes, decodes) == (pyodide, *[not pyodide] * 3)
    assert getattr(module, prerendered.RENDERER)("# Kept") == MEMO["# Kept"]
    assert getattr(runner, editor_data.SWITCH)() is False
