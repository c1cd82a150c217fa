"""The cells `bench/export_bench.py` adds to each lesson to time it render no Markdown: marimo
renders a control's label as Markdown, which a lesson's page answers from the site's memo of its
own texts; a text of the bench's would build the page's Markdown converter in the first run,
which neither the lesson's page nor the trivial page it is measured against does. Checked by
running the probe cells in marimo, counting every Markdown text marimo renders."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import marimo._output.md as marimo_md
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import export_bench

MARKER = '\nif __name__ == "__main__":'
LABELLED = """

@app.cell
def _():
    import marimo as _mo

    _mo.ui.dropdown(["a", "b"], value="a", label="a label")
    return
"""


def rendered_markdown(
    cells: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[str], str]:
    """The texts marimo renders as Markdown while it runs the trivial notebook with ``cells``
    added at its end (as ``probe_copy`` adds them to a lesson), and the run's outputs' HTML."""
    assert export_bench.TRIVIAL.count(MARKER) == 1
    notebook = tmp_path / "probed.py"
    notebook.write_text(export_bench.TRIVIAL.replace(MARKER, cells + MARKER), encoding="utf-8")
    texts: list[str] = []
    render = marimo_md._render_markdown

    def counted(text: str) -> str:
        texts.append(text)
        return render(text)

    monkeypatch.setattr(marimo_md, "_render_markdown", counted)
    spec = importlib.util.spec_from_file_location("probed", notebook)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    outputs, _defs = module.app.run()
    return texts, "".join(getattr(output, "text", "") for output in outputs if output is not None)


def test_the_probe_cells_render_no_markdown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    markdown, html = rendered_markdown(export_bench.PROBE_CELLS, tmp_path, monkeypatch)
    assert markdown == []
    # The harness finds the probe's dropdown by its wrapper, and the lesson's live by the echo.
    assert "data-bench-probe" in html and "marimo-dropdown" in html
    assert "<p data-bench-echo>a</p>" in html


def test_a_labelled_control_renders_its_label_as_markdown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rule the probe avoids, so the test above can fail: a label goes through Markdown."""
    markdown, _html = rendered_markdown(LABELLED, tmp_path, monkeypatch)
    assert markdown == ["a label"]
