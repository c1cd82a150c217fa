"""course/toplevel_hint.py: marimo's check for a reusable top-level function, with the names
counted first, answers as marimo's own for every cell (hand-written ones and every lesson's),
parses only the cells that define exactly one name, is installed once by every lesson, and
patches nothing where marimo has no such check."""

from __future__ import annotations

import inspect
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import marimo as mo
import pytest
from marimo._ast.cell import CellImpl
from marimo._ast.compiler import compile_cell
from marimo._ast.load import load_app

from asyncfail.course import toplevel_hint

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
WRITTEN = (
    "def debit():\n    return 1",  # a reusable function
    "async def deliver():\n    return 1",
    "class Ledger:\n    pass",
    "def _private():\n    return 1",  # a temporary: marimo's answer is its own kind
    "def total(rows):\n    return sum(rows) + fee",  # refers to another cell's name
    "def debit():\n    return 1\n\n\ndebit()",  # one name, two statements: no
    "def debit():\n    return 1\n\n\nfee = 2",  # two names
    "fee = 2",  # one name, not a function
    "import json",
    "for _row in range(3):\n    pass",  # one temporary, a loop
    "mo.md('no names')",
    "",
)


def cells() -> Iterator[CellImpl]:
    """Every cell to check: the hand-written ones above, then every cell of every lesson, each
    compiled by marimo as its kernel compiles it."""
    for number, code in enumerate(WRITTEN):
        yield compile_cell(code, f"written-{number}")  # type: ignore[arg-type]
    for notebook in LESSONS:
        app = load_app(notebook)
        assert app is not None, notebook.name
        for data in app._cell_manager.cell_data():
            yield compile_cell(data.code, data.cell_id)


@pytest.fixture
def marimos(monkeypatch: pytest.MonkeyPatch) -> Callable[[Any], Any]:
    """marimo's own check, put back in place (a lesson run in this process installs the
    count), and put back again after the test."""
    check = inspect.getattr_static(CellImpl, toplevel_hint.CHECK)
    original = getattr(check.fget, "__wrapped__", check.fget)
    monkeypatch.setattr(CellImpl, toplevel_hint.CHECK, property(original))
    return original  # type: ignore[no-any-return]


def test_the_check_answers_as_marimos_for_every_cell(marimos: Callable[[Any], Any]) -> None:
    compiled = list(cells())
    expected = [marimos(cell) for cell in compiled]
    assert toplevel_hint.install(mo) is True
    assert [cell.toplevel_variable for cell in compiled] == expected
    # The hand-written cells hold each answer marimo gives: a function, its temporary kind, none.
    kinds = [None if found is None else found.kind for found in expected[: len(WRITTEN)]]
    assert kinds[:5] == ["function", "function", "class", "temporary", "function"]
    assert kinds[5:] == [None] * (len(WRITTEN) - 5)
    assert len(compiled) > len(WRITTEN) + 9 * 10  # the lessons' cells were all read


def test_only_a_cell_with_one_name_is_parsed(
    marimos: Callable[[Any], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled = list(cells())
    module = sys.modules[toplevel_hint.OWNER_MODULE]
    parsed: list[str] = []
    parse = module.ast_parse

    def counted(code: str, *args: Any, **kwargs: Any) -> Any:
        parsed.append(code)
        return parse(code, *args, **kwargs)

    monkeypatch.setattr(module, "ast_parse", counted)
    for cell in compiled:
        _ = cell.toplevel_variable
    assert len(parsed) == len(compiled)  # marimo's own check parses every cell
    parsed.clear()
    toplevel_hint.install(mo)
    for cell in compiled:
        _ = cell.toplevel_variable
    single = [cell.code for cell in compiled if len(cell.defs | cell.temporaries) == 1]
    assert parsed == single
    assert 0 < len(single) < len(compiled) / 2


def test_installing_twice_counts_once(marimos: Callable[[Any], Any]) -> None:
    assert toplevel_hint.install(mo) and toplevel_hint.install(mo)
    check = inspect.getattr_static(CellImpl, toplevel_hint.CHECK)
    assert check.fget.__wrapped__ is marimos
    assert check.__doc__ == marimos.__doc__


def test_without_marimos_check_nothing_is_patched(
    marimos: Callable[[Any], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr(CellImpl, toplevel_hint.CHECK)
    assert toplevel_hint.install(mo) is False
    assert not hasattr(CellImpl, toplevel_hint.CHECK)
    monkeypatch.setitem(sys.modules, toplevel_hint.OWNER_MODULE, types.ModuleType("other"))
    assert toplevel_hint.install(mo) is False
    monkeypatch.delitem(sys.modules, toplevel_hint.OWNER_MODULE)
    assert toplevel_hint.install(mo) is False


def test_every_lesson_installs_it() -> None:
    for notebook in LESSONS:
        assert "_toplevel_hint.install(mo)" in notebook.read_text(encoding="utf-8"), notebook.name
