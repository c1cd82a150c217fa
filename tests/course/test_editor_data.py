"""course/editor_data.py: where marimo runs in Pyodide, its kernel sends the page none of its
editor's panel data and every other message as before (run through marimo's own Pyodide
session, the page's, in a process of its own); elsewhere nothing is patched; installed once, by
every lesson; nothing is patched where marimo has no such switch."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
import types
from collections.abc import Callable, Collection
from pathlib import Path

import marimo as mo
import pytest

from asyncfail.course import editor_data

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
PANEL_DATA = {"variable-values", "datasets", "data-source-connections", "storage-namespaces"}
"""The kernel's messages for the editor's panels (variables, datasets, data sources, storage)."""
VARYING = {"timestamp", "run_id", "execution_id"}
"""What differs between two runs of the same notebook: the kernel's clock and its ids."""

NOTEBOOK = """
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo

    return (mo,)


@app.cell
def _(mo):
    rows = [{"debit": 1}, {"debit": 2}]
    total = sum(row["debit"] for row in rows)
    mo.md(f"total {total}")
    return (total,)


@app.cell
def _(mo, total):
    mo.md(f"twice {2 * total}")
    return
"""

# The page's session in CPython: marimo's Pyodide bootstrap (create_session, instantiate), with
# a switch of the course installed first (a statement that sets ``installed``) or not; prints the
# kernel's messages, as the page would get them, once its first run is over. Pyodide's HTTP patch
# is the one piece CPython lacks.
SESSION = textwrap.dedent(
    """
    import asyncio, json, os, sys, types

    sys.modules["pyodide_http"] = types.SimpleNamespace(patch_all=lambda: None)
    import marimo
    from marimo._pyodide.bootstrap import create_session, instantiate

    installed = None
    if sys.argv[2] != "-":
        exec(sys.argv[2])
    sent = []


    async def main():
        session, _bridge = create_session(
            filename=sys.argv[1], query_params={}, message_callback=sent.append, user_config={}
        )
        instantiate(session)
        asyncio.create_task(session.start())
        for _ in range(600):
            await asyncio.sleep(0.05)
            if any('"completed-run"' in message for message in sent):
                break
        messages = [json.loads(message) for message in sent]
        print(json.dumps({"installed": installed, "messages": messages}), flush=True)
        os._exit(0)  # the kernel's task runs for ever, as in the page


    asyncio.run(main())
    """
)


INSTALL = "from asyncfail.course import editor_data; installed = editor_data.install(marimo, {!r})"
"""The statement that installs this switch for a platform, in ``SESSION``."""


def page_session(notebook: Path, install: str = "-") -> tuple[bool | None, list[dict[str, object]]]:
    """Whether the switch was installed (None: not asked) and the kernel's messages of the first
    run of ``notebook`` in marimo's Pyodide session, the switch installed first by the
    statement ``install`` (which sets ``installed``; ``-``: none)."""
    done = subprocess.run(
        [sys.executable, "-c", SESSION, str(notebook), install],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "PYTHONHASHSEED": "0"},  # marimo lists a graph's names from sets
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return result["installed"], result["messages"]


def steady(value: object) -> object:
    """``value`` without what differs between two runs, at any depth."""
    if isinstance(value, dict):
        return {key: steady(item) for key, item in value.items() if key not in VARYING}
    if isinstance(value, list):
        return [steady(item) for item in value]
    return value


def drops_only(
    tmp_path: Path, install: str, dropped: Collection[str], marimo_sends: dict[str, int]
) -> None:
    """Check a switch of the course in the page's session of ``NOTEBOOK``: installed by
    ``install`` (a statement, ``{}`` standing for the platform) where marimo runs in Pyodide, the
    kernel sends none of the messages whose ops ``dropped`` names and every other message as
    marimo's own session does, which sends those of ``marimo_sends`` as many times as it says;
    installed for another platform, it leaves marimo's session as it was."""
    notebook = tmp_path / "notebook.py"
    notebook.write_text(NOTEBOOK, encoding="utf-8")
    asked, marimos = page_session(notebook)
    installed, patched = page_session(notebook, install.format(editor_data.PYODIDE))
    assert asked is None and installed is True
    ops = [message["op"] for message in marimos]
    assert {op: ops.count(op) for op in marimo_sends} == marimo_sends
    assert ops[-1] == "completed-run"
    assert [message for message in patched if message["op"] in dropped] == []

    def kept(messages: list[dict[str, object]]) -> list[object]:
        return [steady(message) for message in messages if message["op"] not in dropped]

    assert kept(patched) == kept(marimos)
    outputs = [message for message in patched if message["op"] == "cell-op"]
    assert any("twice 6" in json.dumps(message) for message in outputs)
    declined, other = page_session(notebook, install.format("linux"))
    assert declined is False
    assert [message["op"] for message in other] == ops


def test_in_the_page_the_kernel_sends_no_panel_data_and_all_else(tmp_path: Path) -> None:
    # marimo's own session sends the variables panel each of the two cells' names.
    drops_only(tmp_path, INSTALL, PANEL_DATA, {"variable-values": 2})


@pytest.fixture
def switch(monkeypatch: pytest.MonkeyPatch) -> Callable[[], bool]:
    """marimo's own switch, put back in place (a lesson run here leaves it as it is, but a test
    may not), and put back again after the test."""
    module = importlib.import_module(editor_data.SWITCH_MODULE)
    current = getattr(module, editor_data.SWITCH)
    original = getattr(current, "__wrapped__", current)
    monkeypatch.setattr(module, editor_data.SWITCH, original)
    return original  # type: ignore[no-any-return]


def test_outside_pyodide_nothing_is_patched(switch: Callable[[], bool]) -> None:
    assert sys.platform != editor_data.PYODIDE
    assert editor_data.install(mo) is False
    assert getattr(sys.modules[editor_data.SWITCH_MODULE], editor_data.SWITCH) is switch


def test_installing_twice_patches_once(switch: Callable[[], bool]) -> None:
    assert editor_data.install(mo, editor_data.PYODIDE)
    assert editor_data.install(mo, editor_data.PYODIDE)
    patched = getattr(sys.modules[editor_data.SWITCH_MODULE], editor_data.SWITCH)
    assert patched.__wrapped__ is switch
    assert patched() is False


def test_without_marimos_switch_nothing_is_patched(
    switch: Callable[[], bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    module = sys.modules[editor_data.SWITCH_MODULE]
    monkeypatch.delattr(module, editor_data.SWITCH)
    assert editor_data.install(mo, editor_data.PYODIDE) is False
    assert not hasattr(module, editor_data.SWITCH)
    monkeypatch.setitem(sys.modules, editor_data.SWITCH_MODULE, types.ModuleType("other"))
    assert editor_data.install(mo, editor_data.PYODIDE) is False
    monkeypatch.delitem(sys.modules, editor_data.SWITCH_MODULE)
    assert editor_data.install(mo, editor_data.PYODIDE) is False


def test_every_lesson_installs_it() -> None:
    for notebook in LESSONS:
        assert "_editor_data.install(mo)" in notebook.read_text(encoding="utf-8"), notebook.name
