"""course/execution_notices.py: where marimo runs in Pyodide, its kernel sends the page no notice
of an attempt to run a cell and every other message as before (run through marimo's own Pyodide
session, the page's, in a process of its own); elsewhere nothing is patched; installed once;
nothing is patched where marimo has no such sender. And the page's script reads none of them."""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable
from pathlib import Path

import pytest
from marimo._messaging.notification import CellNotification, ExecutionNotification

from asyncfail.course import execution_notices
from tests.course.test_editor_data import drops_only

INSTALL = (
    "from asyncfail.course import execution_notices; installed = execution_notices.install({!r})"
)
"""The statement that installs the switch for a platform in marimo's Pyodide session."""


def test_in_the_page_the_kernel_sends_no_notices_and_all_else(tmp_path: Path) -> None:
    # marimo's own session notes each of the three cells' attempt three times.
    notice = execution_notices.NOTICE
    drops_only(tmp_path, INSTALL, {notice}, {notice: 9})


@pytest.fixture
def sender(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """marimo's sender of the notices made a recorder (and put back after the test): what it
    was handed, in order."""
    module = importlib.import_module(execution_notices.SENDER_MODULE)
    sent: list[object] = []

    def record(notification: object, stream: object = None) -> None:
        sent.append(notification)

    monkeypatch.setattr(module, execution_notices.SENDER, record)
    return sent


def current_sender() -> Callable[..., object]:
    module = sys.modules[execution_notices.SENDER_MODULE]
    send: Callable[..., object] = getattr(module, execution_notices.SENDER)
    return send


def test_outside_pyodide_nothing_is_patched(sender: list[object]) -> None:
    before = current_sender()
    assert sys.platform != execution_notices.PYODIDE
    assert execution_notices.install() is False
    assert current_sender() is before


def test_in_pyodide_only_the_notices_are_dropped_and_installed_once(sender: list[object]) -> None:
    assert execution_notices.install(execution_notices.PYODIDE)
    once = current_sender()
    assert execution_notices.install(execution_notices.PYODIDE)
    assert current_sender() is once
    notice = ExecutionNotification(
        execution_id="e1", cell_id="c1", run_id=None, phase="planned", code="x = 1"
    )
    cell = CellNotification(cell_id="c1", status="running")
    once(notice)
    once(cell)
    once(notice, None)
    assert sender == [cell]


def test_where_marimo_has_no_such_sender_nothing_is_patched(
    sender: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    module = sys.modules[execution_notices.SENDER_MODULE]
    monkeypatch.delattr(module, execution_notices.SENDER)
    assert execution_notices.install(execution_notices.PYODIDE) is False
    assert not hasattr(module, execution_notices.SENDER)
    other = types.ModuleType("other")
    monkeypatch.setitem(sys.modules, execution_notices.SENDER_MODULE, other)
    assert execution_notices.install(execution_notices.PYODIDE) is False
    monkeypatch.delitem(sys.modules, execution_notices.SENDER_MODULE)
    assert execution_notices.install(execution_notices.PYODIDE) is False


def test_the_page_script_drops_the_notices_unread() -> None:
    # The premise, read from marimo's own page script: its handler of the kernel's messages
    # returns on an execution notice and does nothing else with it.
    import marimo

    assets = Path(marimo.__file__).parent / "_static" / "assets"
    handled = [
        path.name
        for path in sorted(assets.glob("*.js"))
        if f"case`{execution_notices.NOTICE}`:return;" in path.read_text(encoding="utf-8")
    ]
    assert handled, f"no page script of {assets} drops the `{execution_notices.NOTICE}` op"
