"""Lesson 1 runs headless, with its defaults and with substituted controls, and shows the model."""

import io
from types import SimpleNamespace
from typing import Any

import marimo as mo
import pytest

from asyncfail import Fault, Mode, Scenario, simulate
from asyncfail.charts.timeline import narrate, timeline_rows
from asyncfail.cli.main import main
from asyncfail.course.questions import LAB_QUESTION
from asyncfail.lab.scenario import SEED_MODES
from tests.notebook_support import (
    load_notebook,
    run_lesson,
    stats,
    unescape_nested,
    vega_specs,
    visible_text,
)

nb = load_notebook("01_async_failure_lab")


def run(**controls: object) -> tuple[str, dict[str, Any]]:
    return run_lesson(nb, **controls)


def test_defaults_show_question_and_assumptions_but_hide_counts_until_predicted() -> None:
    page, defs = run()
    text = visible_text(page)
    assert "The debit succeeds. The worker crashes before recording the result." in text
    for assumption in simulate(Scenario()).assumptions:
        assert assumption in text
    assert defs["revealed"] is False
    assert "Commit a guess" in text
    assert vega_specs(page) == [], "no trace before the learner predicts or skips"
    assert defs["fault"].value == "crash-after-effect"  # type: ignore[attr-defined]


@pytest.mark.parametrize("fault", list(Fault))
def test_each_fault_shows_the_librarys_counts_status_and_traces(fault: Fault) -> None:
    page, defs = run(
        fault=mo.ui.dropdown([f.value for f in Fault], value=fault.value),
        skip_prediction=mo.ui.switch(value=True),
    )
    text = visible_text(page)
    expected = {m: simulate(Scenario(fault=fault, mode=m)) for m in SEED_MODES}
    assert defs["results"] == expected
    for result in expected.values():
        assert result.status.value in text
        assert f"Tool calls {result.counts.tool_calls} · lookups {result.counts.lookups}" in text
        assert f"outcome {result.outcome.value}" in text
    specs = vega_specs(page)
    assert [s["title"] for s in specs] == [f"{m.value} runtime: {fault.value}" for m in SEED_MODES]
    for spec, mode in zip(specs, SEED_MODES, strict=True):
        assert spec["datasets"]["events"] == timeline_rows(expected[mode], defs["step"].value)
        assert spec["description"].startswith(f"Timeline of the {mode.value} runtime")


def test_seed_case_counts_are_displayed_as_stats() -> None:
    page, _ = run(skip_prediction=mo.ui.switch(value=True))
    # Naive first, then durable: the seed's 2 attempts / 2 effects and 2 attempts / 1 effect.
    assert stats(page) == [
        ("Delivery attempts", "2"),
        ("Business effects", "2"),
        ("Delivery attempts", "2"),
        ("Business effects", "1"),
    ]


def test_stepping_moves_narration_and_highlight() -> None:
    page, defs = run(skip_prediction=mo.ui.switch(value=True), step=mo.ui.slider(1, 6, value=3))
    naive = defs["results"][Mode.NAIVE]  # type: ignore[index]
    assert visible_text(narrate(naive, 3)) in visible_text(page)
    assert "Step 3 of 5, delivery attempt 1, worker: The worker process crashes" in visible_text(
        page
    )
    states = [r["state"] for r in vega_specs(page)[0]["datasets"]["events"]]
    assert states == ["past", "past", "current", "future", "future"]


def test_committed_prediction_is_judged_against_the_model() -> None:
    results = {m: simulate(Scenario(mode=m)) for m in SEED_MODES}
    guess = SimpleNamespace(value={"naive": 1, "durable": 1})
    view, _ = nb.counts_panel.run(prediction=guess, revealed=True, results=results)
    text = visible_text(view.text)
    assert "naive: you guessed 1; the model applied 2 business effects" in text
    assert "durable: right, 1 business effect." in text


def test_skipping_lasts_across_faults_while_the_prediction_is_per_fault() -> None:
    # The prediction is built from the fault, so a new fault asks afresh; the skip switch is
    # not, so a learner who skips keeps skipping as they try other faults.
    graph = nb.app._graph
    (skip_cell,) = [c for c in graph.cells.values() if "skip_prediction" in c.defs]
    (prediction_cell,) = [c for c in graph.cells.values() if "prediction" in c.defs]
    assert "fault" not in skip_cell.refs and "fault" in prediction_cell.refs
    _, first = run()
    _, second = run(fault=mo.ui.dropdown([f.value for f in Fault], value="none"))
    skips = [visible_text(run["skip_prediction"].text) for run in (first, second)]  # type: ignore[attr-defined]
    assert skips[0] == skips[1] and "crash-after-effect" not in skips[0]
    assert "Under <strong>none</strong>" in unescape_nested(second["prediction"].text)  # type: ignore[attr-defined]


def test_cli_command_and_json_match_the_cli() -> None:
    page, _ = run(fault=mo.ui.dropdown([f.value for f in Fault], value="response-lost"))
    text = visible_text(page)
    for mode in SEED_MODES:
        argv = ["lab", "--fault", "response-lost", "--mode", mode.value]
        assert "asyncfail " + " ".join(argv) in text
        out = io.StringIO()
        assert main(argv, stdout=out) == 0
        # Syntax highlighting splits the JSON into spans: compare without whitespace.
        assert "".join(out.getvalue().split()) in "".join(text.split())


def test_check_question_feedback() -> None:
    page, _ = run(understanding=mo.ui.radio(list(LAB_QUESTION.options), value=LAB_QUESTION.answer))
    assert "Right." in visible_text(page)
    wrong = LAB_QUESTION.options[0]
    page, _ = run(understanding=mo.ui.radio(list(LAB_QUESTION.options), value=wrong))
    assert "Not quite." in visible_text(page)


def test_a_static_snapshot_shows_the_results_without_the_prediction_step() -> None:
    # `marimo export html ... -- --snapshot` sets this; a snapshot cannot take a prediction.
    page, defs = run(snapshot=True)
    assert defs["revealed"] is True
    assert ("Business effects", "2") in stats(page)
    assert "Static snapshot: the counts are shown without the prediction step." in visible_text(
        page
    )
    assert len(vega_specs(page)) == 2
