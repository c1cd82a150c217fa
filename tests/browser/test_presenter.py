"""The presenter view opens on its title slide, however slowly the lesson's first run goes.

marimo renders a cell that holds Markdown alone (its compiler's ``markdown``) as the kernel
starts, before any other cell runs (``Kernel._handle_markdown_cells_on_instantiate``, marimo
0.25.2). Its slides layout then keeps the slide reveal.js is on when the deck is ready, as the
presenter's own choice, and goes back to it as the other outputs arrive. Lesson 1 had one such
cell, the heading of its last section ("Does the model tell the truth?"): when the deck was
ready before the first run's outputs came, it was the deck's only slide, and the presenter
view opened there. Under `marimo run`, it did so in 3 of 3 loads with the first cell slowed by
4 s, and in 1 of 2 without; with the heading in one cell with its first fold, in 0 of 6 (3
slowed).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from copies import write_copy  # exports/, on the path in conftest
from lessons import PRESENTED
from marimo._ast.compiler import compile_cell
from marimo._ast.load import load_app
from playwright.sync_api import expect

from asyncfail.course.catalog import LESSONS
from tests.browser.test_course_server import START_S
from tests.server_support import answering, free_port

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SLOW_S = 4
"""How much longer the slowed copy's first cell runs: the deck is ready well before it ends."""
FIRST_CELL = "@app.cell\ndef _():\n"
TITLE = LESSONS[0].title
SLIDES = 8
"""Slides the deck has once the first run's outputs have come (lesson 1 has 10)."""


def markdown_alone(notebook: Path) -> list[int]:
    """The cells of ``notebook`` that marimo renders as its kernel starts (by their order)."""
    app = load_app(str(notebook))
    assert app is not None
    codes = list(app._cell_manager.codes())
    return [i for i, code in enumerate(codes) if compile_cell(code, cell_id=str(i)).markdown]


@pytest.mark.parametrize("slug", sorted(PRESENTED))
def test_a_presented_lesson_has_no_cell_of_markdown_alone(slug: str) -> None:
    assert markdown_alone(ROOT / "notebooks" / f"{slug}.py") == []


def test_the_oracle_finds_a_cell_of_markdown_alone(tmp_path: Path) -> None:
    notebook = tmp_path / "n.py"
    notebook.write_text(
        "import marimo\napp = marimo.App()\n\n\n@app.cell\ndef _():\n    import marimo as mo\n"
        '    return (mo,)\n\n\n@app.cell\ndef _(mo):\n    mo.md("# A")\n    return\n\n\n'
        '@app.cell\ndef _(mo):\n    mo.vstack([mo.md("# B")])\n    return\n',
        encoding="utf-8",
    )
    assert markdown_alone(notebook) == [1]


@pytest.fixture(scope="module")
def slowed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Lesson 1's presenter copy (as `make serve` and the build make it), its first cell
    slowed by SLOW_S, served by `marimo run` on a free port: its URL."""
    folder = tmp_path_factory.mktemp("presenter")
    copy = write_copy(ROOT / "notebooks" / f"{LESSONS[0].stem}.py", folder, TITLE, slides=True)
    text = copy.read_text(encoding="utf-8")
    at = text.index(FIRST_CELL) + len(FIRST_CELL)
    copy.write_text(
        f"{text[:at]}    import time as _time\n    _time.sleep({SLOW_S})\n{text[at:]}",
        encoding="utf-8",
    )
    port = free_port()
    argv = [sys.executable, "-m", "marimo", "run", str(copy), "--headless", "--no-token"]
    process = subprocess.Popen(
        [*argv, "--host", "127.0.0.1", "--port", str(port)],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    answering(process, url, "marimo run", START_S)
    yield url
    process.kill()
    process.wait()


def test_the_presenter_opens_on_its_title_while_the_first_run_is_slow(
    guarded_page: Any, slowed: str
) -> None:
    page, _guard = guarded_page
    page.goto(slowed)
    shown = page.locator(".reveal .slides > section.present")
    shown.first.wait_for(timeout=START_S * 1000)
    # The deck is ready before the first run ends; then the run's outputs come, each a slide.
    page.wait_for_function(
        f"() => document.querySelectorAll('.reveal .slides > section').length >= {SLIDES}",
        timeout=START_S * 1000,
    )
    expect(shown.first.get_by_role("heading", level=1)).to_have_text(TITLE)
