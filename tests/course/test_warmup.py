"""course/warmup.py: what a lesson makes as its page starts, just after the first run where a
kernel runs it. The lessons' own tests count what showing each choice makes after the start
(tests/notebook_support.made_after_the_start); the browser tests run the real kernel (a
Python error it logs fails them, tests/browser/quiet.py)."""

import asyncio
import contextlib
import dataclasses
import importlib
import sys
from collections.abc import Iterator
from types import ModuleType, SimpleNamespace

import marimo as mo
import pytest

from asyncfail.course import warmup
from tests.serve.apart import run_apart

IN_A_KERNEL = SimpleNamespace(running_in_notebook=lambda: True)
"""What the lesson hands in where marimo's kernel runs it: ``mo.running_in_notebook()``."""


@pytest.mark.parametrize(("snapshot", "shown"), [(False, ["b", "a", "c"]), (True, [])])
def test_run_as_a_script_the_start_makes_every_choice_at_once_in_order_but_in_a_snapshot(
    snapshot: bool, shown: list[str]
) -> None:
    # A lesson run as a script (app.run()), as the lessons' tests run them: no kernel's loop.
    made: list[str] = []
    warmup.warm(mo, snapshot, made.append, iter(["b", "a", "c"]))
    assert made == shown


def test_run_as_a_script_inside_another_loop_the_start_makes_every_choice_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A script's run inside some loop that is not marimo's kernel (a test's browser holds one):
    # even with a cell running (the script's own context), nothing is left for later.
    kernel_module(monkeypatch, Kernel("Kclp"))
    made: list[str] = []

    async def script() -> list[str]:
        warmup.warm(mo, False, made.append, ["b", "a"])
        return list(made)

    assert run_apart(script()) == ["b", "a"]


class Kernel:
    """A stand-in for marimo's kernel context: the cell it runs, and ``with_cell_id``."""

    def __init__(self, cell: str | None) -> None:
        self.execution_context = None if cell is None else SimpleNamespace(cell_id=cell)
        self.as_cell: list[str] = []

    @contextlib.contextmanager
    def with_cell_id(self, cell: str) -> Iterator[None]:
        self.as_cell.append(cell)
        yield
        self.as_cell.append(f"/{cell}")


def kernel_module(monkeypatch: pytest.MonkeyPatch, kernel: Kernel | None) -> None:
    """marimo's context module as the lesson finds it, its context ``kernel``; every other name
    the real module's (marimo's own finalizers import from it while the stand-in is in place:
    without them a collection during the test printed an ImportError per object collected)."""
    real = importlib.import_module(warmup.CONTEXT_MODULE)
    module = ModuleType(warmup.CONTEXT_MODULE)
    setattr(module, warmup.CONTEXT, lambda: kernel)
    module.__getattr__ = lambda name: getattr(real, name)
    monkeypatch.setitem(sys.modules, warmup.CONTEXT_MODULE, module)


def test_in_a_kernel_the_start_makes_every_choice_after_the_run_as_the_cell_that_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kernel = Kernel("Kclp")
    kernel_module(monkeypatch, kernel)
    made: list[str] = []

    def show(choice: str) -> None:
        made.append(f"{choice} in {kernel.as_cell[-1]}")

    async def page() -> list[str]:
        seen = []
        warmup.warm(IN_A_KERNEL, False, show, ["b", "a"])
        seen.append(f"after the cell: {made}")
        # The rest of the run: later cells, in the same turn of the loop.
        seen.append(f"after the run: {made}")
        await asyncio.sleep(0)  # the kernel waits for the next request: the loop turns
        seen.append(f"next turn: {made}")
        return seen

    assert run_apart(page()) == [
        "after the cell: []",
        "after the run: []",
        "next turn: ['b in Kclp', 'a in Kclp']",
    ]
    assert kernel.as_cell == ["Kclp", "/Kclp"]


def test_in_a_kernel_the_start_comes_before_a_request_that_came_later(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kernel_module(monkeypatch, Kernel("Kclp"))
    order: list[str] = []

    async def page() -> None:
        warmup.warm(IN_A_KERNEL, False, order.append, ["made"])
        asyncio.get_running_loop().call_soon(order.append, "a learner's change")
        await asyncio.sleep(0)

    run_apart(page())
    assert order == ["made", "a learner's change"]


@pytest.mark.parametrize(
    "kernel",
    [None, Kernel(None)],
    ids=["no kernel context (another marimo)", "no cell running"],
)
def test_a_loop_without_a_kernel_it_knows_makes_every_choice_at_once(
    monkeypatch: pytest.MonkeyPatch, kernel: Kernel | None
) -> None:
    kernel_module(monkeypatch, kernel)
    made: list[str] = []

    async def page() -> list[str]:
        warmup.warm(IN_A_KERNEL, False, made.append, ["b", "a"])
        return list(made)

    assert run_apart(page()) == ["b", "a"]


def test_marimo_keeps_its_kernel_context_where_the_start_reads_it() -> None:
    # What after_this_run reads of marimo (0.25.2): a marimo that moves it still works, made
    # at once; this test says so, so the slower start is noticed.
    from marimo._runtime.context.kernel_context import KernelRuntimeContext
    from marimo._runtime.context.types import ExecutionContext

    module = sys.modules[warmup.CONTEXT_MODULE]
    assert getattr(module, warmup.CONTEXT)() is None  # no kernel runs in this test
    assert callable(KernelRuntimeContext.with_cell_id)
    assert "cell_id" in {f.name for f in dataclasses.fields(ExecutionContext)}
