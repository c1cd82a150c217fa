"""Lesson "Explore every failure" runs headless: it asks before it shows the matrix, the matrix is
the explorer's, its controls never rerun with it, a cell shows its minimal counterexample as a
replayable run, and the exercise is judged by the explorer."""

import json
from math import comb
from types import SimpleNamespace
from typing import Any

import marimo as mo
import pytest

from asyncfail import FaultPoint, Mode
from asyncfail.charts.specs import timeline_spec
from asyncfail.course import controls as setting_controls
from asyncfail.course import lesson04_explore_every_failure as lesson04
from asyncfail.explore.explorer import explore
from asyncfail.explore.invariants import Invariant
from asyncfail.ground.quiz import Question
from asyncfail.lab.simulation import simulate
from tests.cli_support import run_main
from tests.course.conftest import Lessons
from tests.notebook_support import (
    load_notebook,
    run_lesson,
    vega_specs,
    visible_text,
)

STEM = "04_explore_every_failure"
nb = load_notebook(STEM)
PLANS_UP_TO_2 = sum(comb(len(FaultPoint) * 3, k) for k in range(3))  # 24 injections: 301


SKIP = mo.ui.switch(value=True)


def run(**controls: object) -> tuple[str, dict[str, Any]]:
    """The lesson with ``controls`` substituted, predicting skipped unless they say."""
    return run_lesson(nb, **({"skip_prediction": SKIP} | controls))


def cell(title: str, invariant: Invariant = Invariant.AT_MOST_ONCE) -> dict[str, object]:
    """The counterexample view's two controls, set to one cell of the matrix."""
    return {
        "row": mo.ui.dropdown(lesson04.row_labels(), value=title),
        "invariant": mo.ui.radio([i.value for i in Invariant], value=invariant.value),
    }


def attempts(n: int) -> dict[str, object]:
    return {"get_attempts": lambda: n, "set_attempts": lambda _: None}


SOLVED = {
    "mode": "durable",
    "deliveries": 3,
    "key": "stable",
    "receiver": "lookup-only",
    "record": "atomic",
    "on_lookup_outage": "fail-closed",
    "on_store_outage": "fail-closed",
    "retention": "",
}


def test_the_matrix_is_the_explorers_for_every_row() -> None:
    page, defs = run()
    text = visible_text(page)
    for r in lesson04.ROWS:
        found = explore(r.mode, r.settings, 3, 2)
        assert defs["explorations"][r.title] == found
        cells = " ".join(lesson04.cell(report, found) for report in found.invariants)
        assert f"{r.title} {cells}" in text
    assert f"({PLANS_UP_TO_2} explored per row" in text


def test_the_seeds_durable_runtime_holds_and_the_lesson_says_among_how_many_plans() -> None:
    text = visible_text(run(**cell("durable, the seed's assumptions"))[0])
    assert (
        f"No plan of up to 2 faults breaks at-most-once here: the explorer ran {PLANS_UP_TO_2} "
        "plans" in text
    )


def test_a_cell_shows_its_smallest_counterexample_as_a_replayable_run() -> None:
    page, defs = run(**cell("durable, a key per attempt"))
    text = visible_text(page)
    assert "The smallest is 1:after-effect : 2 business effects, Duplicate debit" in text
    command = "asyncfail lab --plan 1:after-effect --mode durable --key per-attempt"
    assert command in "".join(text.split(" ")) or command.replace(" ", "") in text.replace(" ", "")
    scenario = lesson04.counterexample_scenario(
        defs["explorations"]["durable, a key per attempt"], Invariant.AT_MOST_ONCE
    )
    assert scenario is not None
    (spec,) = vega_specs(page)
    assert spec["datasets"] == timeline_spec(simulate(scenario), width=560)["datasets"]
    code, out, _ = run_main(*command.split()[1:])
    assert code == 0 and json.loads(out)["counts"]["effects"] == 2


def test_fewer_faults_per_plan_explore_fewer_plans() -> None:
    page, _ = run(max_faults=mo.ui.slider(0, 3, value=1), deliveries=mo.ui.number(1, 9, value=3))
    assert f"({1 + len(FaultPoint) * 3} explored per row" in visible_text(page)


def test_the_exercise_asks_before_it_shows_an_answer(lessons: Lessons) -> None:
    text = visible_text(lessons.run(STEM)[0])
    assert "Show an answer" not in text and "Hints" not in text


def test_a_failed_attempt_earns_a_hint_each_and_shows_the_smallest_plan() -> None:
    tried = SimpleNamespace(value=dict(lesson04.EXERCISE_START))
    page, _ = run(exercise=tried, **attempts(2))
    text = visible_text(page)
    assert "Not yet. at-most-once is broken by" in text
    # Two attempts, two hints, in order (a numbered list): the third stays hidden.
    assert "Hints A loop that cannot tell a lost request from a lost reply" in text
    assert text.index("A loop that cannot") < text.index("Two faults can spoil two deliveries")
    assert "A lookup helps only if" not in text
    assert "Show an answer" in text


def test_a_right_answer_is_confirmed_by_the_explorer_without_hints() -> None:
    page, _ = run(exercise=SimpleNamespace(value=SOLVED), **attempts(3))
    text = visible_text(page)
    assert (
        "Right. No plan of up to 2 faults breaks any invariant: the explorer ran "
        f"{PLANS_UP_TO_2} plans" in text
    )
    assert "Hints" not in text


def test_the_revealed_answer_is_checked_live() -> None:
    assert "No plan of up to 2 faults breaks any invariant" in lesson04.answer_text()
    mode, budget, settings, errors = lesson04.exercise_settings(SOLVED)
    assert (mode, budget, errors) == (lesson04.ANSWER_MODE, lesson04.ANSWER_DELIVERIES, [])
    assert settings == lesson04.ANSWER_SETTINGS


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"retention": "soon"}, "Retention: 'soon' is not a number"),
        ({"deliveries": None}, "Delivery budget: 'None' is not a whole number from 1 to 9"),
    ],
)
def test_an_unreadable_answer_gets_one_line_and_the_default(
    change: dict[str, object], message: str
) -> None:
    page, _ = run(exercise=SimpleNamespace(value=SOLVED | change), **attempts(1))
    assert message in visible_text(page)


def test_hints_never_run_out_of_range() -> None:
    hints = ("look first", "count deliveries")
    assert lesson04.hints_text(hints, 0) == lesson04.hints_text(hints, -1) == ""
    assert lesson04.hints_text(hints, 1) == "1. look first"
    assert lesson04.hints_text(hints, 99) == "1. look first\n2. count deliveries"


def test_the_check_feedback(lessons: Lessons) -> None:
    question: Question = lessons.run(STEM)[1]["question"]
    page, _ = run(understanding=mo.ui.radio(list(question.options), value=question.answer))
    assert "Right." in visible_text(page)


def test_the_naive_row_breaks_at_most_once_in_one_fault() -> None:
    found = explore(Mode.NAIVE, lesson04.ROWS[0].settings, 3, 1)
    _, command = lesson04.counterexample_text(found, Invariant.AT_MOST_ONCE)
    assert command is not None and "--plan 1:response" in command


def test_the_heaviest_setting_runs_every_plan() -> None:
    # Three faults over nine deliveries: 99 injections, 161,800 plans a row, none left out.
    page, defs = run(max_faults=mo.ui.slider(0, 3, value=3), deliveries=mo.ui.number(1, 9, value=9))
    heaviest = sum(comb(len(FaultPoint) * 9, k) for k in range(4))
    assert heaviest == 161_800
    assert f"({heaviest} explored per row" in visible_text(page)
    assert {(e.deliveries, e.max_faults) for e in defs["explorations"].values()} == {(9, 3)}
    assert defs["explorations"] is not defs["starting"]


# --- asks before it tells ----------------------------------------------------------------------


def holding_rows() -> list[str]:
    # The oracle: each row explored here, at the starting scope, read for at-most-once.
    return [
        r.title
        for r in lesson04.ROWS
        if explore(r.mode, r.settings, 3, 2).invariants[0].violations == 0
    ]


def test_nothing_on_the_page_gives_the_answer_before_the_guess(lessons: Lessons) -> None:
    page, defs = lessons.run(STEM)
    text = visible_text(page)
    assert defs["revealed"] is False
    assert "Predict first. With up to 2 faults per plan over 3 deliveries" in text
    assert "Commit your prediction, or switch on skip predicting" in text
    # Nothing explored, so nothing of the answer: no cell, count, counterexample or chart.
    assert not {"starting", "explorations", "max_faults", "row"} & set(defs)
    for word in (lesson04.HOLDS, "✗", "explored per row", "The smallest is", "Duplicate debit",
                 "asyncfail lab --plan", "Faults per plan", "Which settings break"):  # fmt: skip
        assert word not in text, word
    assert vega_specs(page) == []
    # The check's question names what the seed's durable row found: it waits for the guess too.
    # (The exercise stays: it says nothing until the learner checks settings of their own.)
    assert "found no second debit" not in text and "Exercise: settings" in text
    after = visible_text(run()[0])
    for shown in (lesson04.HOLDS, "Faults per plan", "found no second debit"):
        assert shown in after, shown


def test_the_answer_is_the_explorers_and_not_the_lessons_guess() -> None:
    _, defs = run()
    assert holding_rows() == ["durable, the seed's assumptions", ROWS_DEDUPE]
    assert lesson04.keeping_rows(defs["starting"], Invariant.AT_MOST_ONCE) == holding_rows()


ROWS_DEDUPE = "durable, failing open, but the receiver deduplicates"


@pytest.mark.parametrize(
    ("chosen", "said"),
    [
        (
            ["durable, the seed's assumptions", ROWS_DEDUPE],
            "Rows where no plan breaks at-most-once: right.",
        ),
        (
            ["durable, the seed's assumptions", "naive loop"],
            f"You left out: {ROWS_DEDUPE} The model does not choose: naive loop",
        ),
        ([], "Rows where no plan breaks at-most-once: nothing chosen."),
    ],
)
def test_a_committed_prediction_is_compared_with_the_explorer(chosen: list[str], said: str) -> None:
    page, defs = run(prediction=SimpleNamespace(value=chosen), skip_prediction=mo.ui.switch())
    assert defs["revealed"] is True
    assert said in visible_text(page)


def test_the_snapshot_shows_everything_and_labels_the_answer(lessons: Lessons) -> None:
    page, _ = lessons.run(STEM, snapshot=True)
    text = visible_text(page)
    assert "Static snapshot: the matrix and its counterexamples are shown" in text
    answer = (
        "The prediction's answer (up to 2 faults per plan over 3 deliveries). Rows where no plan "
        "breaks at-most-once: " + " ".join(holding_rows())
    )
    assert answer in text
    # Its controls do nothing, so it says nothing of what they do while the matrix runs.
    assert "While the matrix recomputes" not in text
    assert "While the matrix recomputes" in visible_text(run()[0])
    assert lesson04.HOLDS in text and "The smallest is" in text and len(vega_specs(page)) == 1


# --- heavy work keeps its controls -------------------------------------------------------------


def graph():  # type: ignore[no-untyped-def]
    """The notebook's dependency graph, built if no run has built it yet in this process."""
    nb.app._maybe_initialize()
    return nb.app._graph


def defining(name: str) -> str:
    (cell_id,) = [i for i, c in graph().cells.items() if name in c.defs]
    return cell_id


def test_the_controls_never_rerun_with_the_exploration() -> None:
    # marimo greys out (and, while it runs, hides) a cell that reruns: the controls are defined
    # and shown by cells that neither heavy cell reaches, so they stay while it computes.
    dependencies = graph()
    heavy = {defining("starting"), defining("explorations")}
    controls = {defining(name) for name in ("max_faults", "deliveries", "row", "invariant")}
    for cell_id in heavy:
        assert not controls & (dependencies.descendants(cell_id) | {cell_id})
    # The starting matrix reads no control: changing one reruns only the matrix.
    assert defining("max_faults") not in dependencies.ancestors(defining("starting"))


def test_the_controls_show_in_their_own_cells_and_the_matrix_reuses_the_start() -> None:
    shown, _ = nb.matrix_controls.run(
        controls=setting_controls, lesson04=lesson04, mo=mo, revealed=True, snapshot=False
    )
    assert "marimo-slider" in shown.text and "marimo-number" in shown.text
    view, _ = nb.view_controls.run(
        Invariant=Invariant, lesson04=lesson04, mo=mo, revealed=True, snapshot=False
    )
    assert "marimo-dropdown" in view.text and "marimo-radio" in view.text
    _, found = run()
    assert found["explorations"] is found["starting"]
    matrix_out, _ = nb.matrix.run(
        deliveries=found["deliveries"],
        lesson04=lesson04,
        max_faults=mo.ui.slider(0, 3, value=1),
        mo=mo,
        starting=found["starting"],
    )
    assert "marimo-slider" not in matrix_out.text and "explored per row" in matrix_out.text
