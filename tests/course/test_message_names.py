"""course/message_names.py: where marimo runs in Pyodide, its bridge reads the name of each
message it sends the page from the message's ``op`` alone, and the page receives every message
as marimo's own bridge sends it (run through marimo's own Pyodide session, the page's, in a
process of its own; the oracle is marimo's whole decoder); elsewhere nothing is patched;
installed once; nothing is patched where marimo has no such decoder. And the bridge reads
nothing else of what it decodes, and every message of marimo's carries its name as its op."""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from marimo._messaging.notification import (
    CellNotification,
    CompletedRunNotification,
    ExecutionNotification,
    NotificationMessage,
    RemoveUIElementsNotification,
)
from marimo._messaging.serde import deserialize_kernel_message, serialize_kernel_message

from asyncfail.course import message_names
from tests.course.test_editor_data import drops_only

INSTALL = "from asyncfail.course import message_names; installed = message_names.install({!r})"
"""The statement that installs the switch for a platform in marimo's Pyodide session."""

MESSAGES = [
    CellNotification(cell_id="c1", status="running"),
    CellNotification(cell_id="c1", status="idle", stale_inputs=False),
    RemoveUIElementsNotification(cell_id="c2"),
    ExecutionNotification(execution_id="e1", cell_id="c1", run_id=None, phase="planned"),
    CompletedRunNotification(),
]
"""Notifications of several kinds, which marimo's kernel encodes (``serialize_kernel_message``)."""


def test_in_the_page_every_message_is_sent_as_marimo_sends_it(tmp_path: Path) -> None:
    # The ops the page gets are those marimo's whole decoder names, message for message.
    drops_only(tmp_path, INSTALL, dropped=set(), marimo_sends={"completed-run": 1})


@pytest.fixture
def decoded(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """marimo's whole decoder, in the bridge's module, made a recorder of what it decodes (and
    put back after the test)."""
    module = importlib.import_module(message_names.BRIDGE_MODULE)
    seen: list[bytes] = []

    def record(message: bytes) -> object:
        seen.append(message)
        return deserialize_kernel_message(message)

    monkeypatch.setattr(module, message_names.DECODER, record)
    return seen


def bridge_decoder() -> Callable[[bytes], Any]:
    module = sys.modules[message_names.BRIDGE_MODULE]
    decode: Callable[[bytes], Any] = getattr(module, message_names.DECODER)
    return decode


def test_outside_pyodide_nothing_is_patched(decoded: list[bytes]) -> None:
    before = bridge_decoder()
    assert sys.platform != message_names.PYODIDE
    assert message_names.install() is False
    assert bridge_decoder() is before


def test_in_pyodide_each_name_is_the_whole_decoders_without_it_and_installed_once(
    decoded: list[bytes],
) -> None:
    assert message_names.install(message_names.PYODIDE)
    once = bridge_decoder()
    assert message_names.install(message_names.PYODIDE)
    assert bridge_decoder() is once
    encoded = [serialize_kernel_message(message) for message in MESSAGES]
    names = [once(message).name for message in encoded]
    assert names == [deserialize_kernel_message(message).name for message in encoded]
    assert names == ["cell-op", "cell-op", "remove-ui-elements", "execution", "completed-run"]
    assert decoded == []


def test_where_marimo_has_no_such_decoder_nothing_is_patched(
    decoded: list[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    module = sys.modules[message_names.BRIDGE_MODULE]
    names = sys.modules[message_names.NAMES_MODULE]
    before = bridge_decoder()
    with monkeypatch.context() as without_names:
        without_names.delattr(names, message_names.NAME_DECODER)
        assert message_names.install(message_names.PYODIDE) is False
        assert bridge_decoder() is before
    monkeypatch.delattr(module, message_names.DECODER)
    assert message_names.install(message_names.PYODIDE) is False
    assert not hasattr(module, message_names.DECODER)
    monkeypatch.setitem(sys.modules, message_names.BRIDGE_MODULE, types.ModuleType("other"))
    assert message_names.install(message_names.PYODIDE) is False
    monkeypatch.delitem(sys.modules, message_names.BRIDGE_MODULE)
    assert message_names.install(message_names.PYODIDE) is False


def test_the_bridge_reads_only_the_name_of_what_it_decodes() -> None:
    # The premise, read from marimo's own bridge: every use of the whole decoder there, but its
    # import, is a call whose result is read for `.name` and nothing else.
    bridge = importlib.import_module(message_names.BRIDGE_MODULE)
    tree = ast.parse(inspect.getsource(bridge))
    uses = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and node.id == message_names.DECODER
    ]
    named = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr == "name"
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id == message_names.DECODER
    ]
    assert len(uses) == len(named) == 1


def test_every_message_of_marimos_is_named_by_its_op() -> None:
    # The premise of reading the name alone: each of marimo's notifications is encoded with its
    # name as the tag of its `op` field, which marimo's decoder of the name alone reads.
    kinds = typing.get_args(NotificationMessage)
    assert len(kinds) >= 40
    for kind in kinds:
        config = kind.__struct_config__
        assert (config.tag_field, config.tag) == ("op", kind.name), kind
