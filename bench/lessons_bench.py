"""How long a lesson takes to recompute after one control changes (`make bench`).

Measured through the notebook's own cells: marimo's dataflow graph names the cells that depend
on the control; every other definition is substituted from a previous run, so `app.run` executes
the dependent cells (model, tables, chart specs) plus the few output-only cells that define
nothing (markdown prose). Those are timed on their own as a floor and reported beside it.
"""

import statistics
import sys
import time
from pathlib import Path
from typing import Any

import marimo as mo

from asyncfail import Fault
from asyncfail.course import lesson02_break_the_assumptions as words

# The notebooks are loaded exactly as the lesson tests load them.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.notebook_support import load_notebook


def _dependent_defs(app: Any, control: str) -> set[str]:
    graph = app._graph
    (cell_id,) = (cid for cid, cell in graph.cells.items() if control in cell.defs)
    return {d for cid in graph.descendants(cell_id) for d in graph.cells[cid].defs}


def recompute_ms(
    app: Any, control: str, element: Any, base: dict[str, Any], repeats: int = 15
) -> tuple[float, float]:
    """Median ms to rerun what depends on ``control`` set to ``element``, and the floor."""
    _, defs = app.run(defs=base)
    dependent = _dependent_defs(app, control)
    fixed = {k: v for k, v in defs.items() if k not in dependent}
    fixed[control] = element
    everything = dict(defs)

    def timed(substitutes: dict[str, Any]) -> float:
        samples = []
        for _ in range(repeats):
            start = time.perf_counter()
            outputs, _ = app.run(defs=substitutes)
            for output in outputs:  # render, as the page would
                getattr(output, "text", None)
            samples.append((time.perf_counter() - start) * 1e3)
        return statistics.median(samples)

    return timed(fixed), timed(everything)


def report(label: str, goal_ms: float, runs: list[tuple[str, float, float]]) -> None:
    for control, total, floor in runs:
        print(
            f"{label}: change {control:<16} median {total:6.1f} ms "
            f"(output-only cells {floor:5.1f} ms; goal < {goal_ms:.0f} ms, "
            f"ratio {total / goal_ms:.2f})"
        )


def lesson_1() -> None:
    app = load_notebook("01_async_failure_lab").app
    faults = [f.value for f in Fault]
    revealed = {"skip_prediction": mo.ui.switch(value=True)}
    # The step sliders, one per fault (`steps`), each at step 2.
    steps = mo.ui.dictionary({f: mo.ui.slider(1, 7, value=2) for f in faults})
    runs = [
        ("fault", *recompute_ms(app, "fault", mo.ui.dropdown(faults, value="response-lost"), {})),
        ("skip_prediction", *recompute_ms(app, "skip_prediction", revealed["skip_prediction"], {})),
        ("steps", *recompute_ms(app, "steps", steps, revealed)),
    ]
    report("lesson 1", 50, runs)


def lesson_2() -> None:
    app = load_notebook("02_break_the_assumptions").app
    revealed = {"skip_prediction": mo.ui.switch(value=True)}
    starts = list(words.start_options())
    runs = [
        ("start", *recompute_ms(app, "start", mo.ui.dropdown(starts, value=starts[0]), revealed)),
        ("retention", *recompute_ms(app, "retention", mo.ui.text(value="61"), revealed)),
        ("delay", *recompute_ms(app, "delay", mo.ui.text(value="0.5"), revealed)),
    ]
    report("lesson 2", 50, runs)


def lesson_3() -> None:
    app = load_notebook("03_idempotency_contract").app
    _, defs = app.run()
    # The knobs are made once for every profile (`knob_sets`): the default profile's retention
    # moved, the others as made.
    made = defs["knob_sets"]
    default = defs["profile"].value
    knobs = mo.ui.dictionary(
        {
            p: mo.ui.dictionary(
                {
                    name: mo.ui.text(value="86400")
                    if (p, name) == (default, "retention")
                    else made[p][name]
                    for name in made.value[p]
                }
            )
            for p in made.value
        }
    )
    profiles = dict(defs["profile"].options)
    other = next(label for label, value in profiles.items() if value != default)
    runs = [
        ("delay", *recompute_ms(app, "delay", mo.ui.text(value="3600"), {})),
        ("retention", *recompute_ms(app, "knob_sets", knobs, {})),
        ("profile", *recompute_ms(app, "profile", mo.ui.dropdown(profiles, value=other), {})),
    ]
    report("lesson 3", 150, runs)


def main(lessons: list[str]) -> None:
    available = {"1": lesson_1, "2": lesson_2, "3": lesson_3}
    for lesson in lessons or sorted(available):
        available[lesson]()


if __name__ == "__main__":
    main(sys.argv[1:])
