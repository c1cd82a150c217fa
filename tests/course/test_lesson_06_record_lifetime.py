"""Lesson 6, "How long must records live?", runs headless: the estimates, the curve, the required
retention and the prediction's verdict are the risk wing's, and the command prints the same."""

import io
import json
import re
from types import SimpleNamespace
from typing import Any

import marimo as mo
import pytest

from asyncfail.charts.specs import risk_curve_spec
from asyncfail.cli.main import main
from asyncfail.course import lesson06_record_lifetime as lesson06
from asyncfail.ground.durations import approx
from asyncfail.ground.prose import chance, percent
from asyncfail.ground.quiz import Question
from asyncfail.risk.estimates import wilson
from asyncfail.risk.inputs import BROWSER_TRIALS, RiskInputs, command_line
from asyncfail.risk.report import assess
from tests.course.conftest import Lessons
from tests.notebook_support import (
    cells_rerun_by,
    load_notebook,
    run_lesson,
    vega_specs,
    visible_text,
)

STEM = "06_record_lifetime"
nb = load_notebook(STEM)
SKIP = mo.ui.switch(value=True)


def run(**controls: object) -> tuple[str, dict[str, Any]]:
    return run_lesson(nb, **controls)


def test_nothing_runs_before_a_prediction(lessons: Lessons) -> None:
    page, defs = lessons.run(STEM)
    assert defs["run"] is None and vega_specs(page) == []
    assert defs["inputs"].trials == BROWSER_TRIALS


def test_the_estimates_curve_and_required_retention_are_the_risk_wings() -> None:
    page, defs = run(skip_prediction=SKIP)
    expected = assess(defs["inputs"])
    assert defs["run"].report == expected.report
    text = visible_text(page)
    d = expected.report.duplicate
    # Plain numbers, as the risk wing's prose says them: never an exponent.
    interval = f"(95% interval {percent(d.low)} to {percent(d.high)}"
    assert f"Duplicate : {chance(d.probability)} {interval}" in text
    assert not re.search(r"\de-\d", text), "no exponent on the page"
    curve, defaults, chosen = lesson06.chart_data(expected)
    spec = risk_curve_spec(curve, defaults, chosen, 1e-4, lesson06.curve_description(expected))
    assert vega_specs(page)[0]["datasets"] == spec["datasets"]
    required = expected.report.required.estimate
    assert required is not None
    assert f"Records must live at least {approx(required, up=True)}" in text


def test_the_histogram_is_the_trials_replays_with_its_own_words_and_table() -> None:
    page, defs = run(skip_prediction=SKIP)
    replays = defs["run"].replays()
    spec = vega_specs(page)[1]
    bins = spec["datasets"]["bins"]
    # An oracle apart from the binning: each bin counts the delays between its edges (under
    # 1 s in the first, from its start on in the last).
    seconds = [max(delay / 1000, 1.0) for delay in replays]
    for i, b in enumerate(bins):
        upper = float("inf") if i == len(bins) - 1 else b["to_s"]
        assert b["count"] == sum(b["from_s"] <= s < upper for s in seconds)
    fullest = max(bins, key=lambda b: b["count"])
    trials = f"{len(replays):,} of {BROWSER_TRIALS:,} trials"
    assert spec["description"].startswith(f"Replay delays drawn in {trials}")
    assert fullest["text"] in spec["description"] and "Your retention: 1 d." in spec["description"]
    assert spec["description"] in visible_text(page)  # said beside the chart, not only in it


def test_a_histogram_with_no_replay_says_so() -> None:
    question = RiskInputs(trials=1000, replay_median=None)
    bins = lesson06.histogram_data(question)
    assert sum(b["count"] for b in bins) == 0
    said = lesson06.histogram_description(question, bins)
    assert said.startswith("No trial draws a replay") and "fullest" not in said


def test_a_change_of_target_reports_again_from_the_kept_trials() -> None:
    # The target changes no trial: moving it reruns the report with its command, one cell,
    # not the trials, their progress bar, or the replay histogram (a recompute in the page is
    # one cell, not the whole lesson).
    (rerun,) = cells_rerun_by(nb, "target")
    assert "report_of(inputs, tally)" in rerun and "command_line(inputs)" in rerun
    assert "progress_bar" not in rerun and "replay_histogram_spec" not in rerun
    # Every other setting asks for other trials: they run again.
    for control in ("texts", "deliveries", "jitter", "trials", "seed"):
        assert any("tallied(" in code for code in cells_rerun_by(nb, control)), control


def test_the_command_shown_prints_the_same_report() -> None:
    page, defs = run(skip_prediction=SKIP)
    command = command_line(defs["inputs"])
    assert command in visible_text(page)
    out = io.StringIO()
    assert main(command.split()[1:], stdout=out) == 0
    assert json.loads(out.getvalue()) == defs["run"].report.model_dump(mode="json")


def test_a_prediction_is_judged_by_the_trials() -> None:
    guess = SimpleNamespace(value="Temporal Cloud (30 d)")
    page, defs = run(prediction=guess)
    right, said = lesson06.judge(defs["run"], guess.value)
    assert said.split(":")[0] in visible_text(page)
    # Worked from the defaults: replays a day late (median) are rarely 30 days late, so 30
    # days of records keeps the estimate below 1e-4; an hour never does.
    assert right
    assert not lesson06.judge(defs["run"], "Powertools (1 h)")[0]


@pytest.mark.parametrize(
    ("field", "text", "message"),
    [
        ("retention", "a week", "Retention: 'a week' is not a number"),
        ("crash", "2", "Crash probability: '2' is not from 0 to 1"),
        ("spread", "wide", "Replay spread: 'wide' is not a number from 0 to 4"),
    ],
)
def test_unreadable_text_gets_one_line(field: str, text: str, message: str) -> None:
    texts = dict(lesson06.CONTROL_TEXTS) | {field: text}
    controls = {k: mo.ui.text(value=v) for k, v in texts.items()}
    page, _ = run(
        texts=mo.ui.dictionary(controls),
        deliveries=mo.ui.number(1, 9, value=2),
        jitter=mo.ui.dropdown(["none", "full", "equal"], value="none"),
        target=mo.ui.dropdown(list(lesson06.TARGETS), value=chance(1e-4)),
        trials=mo.ui.dropdown({"1,000": 1000}, value="1,000"),
        seed=mo.ui.number(0, 10, value=0),
    )
    assert message in visible_text(page)


def test_the_checks_answer_is_wilsons(lessons: Lessons) -> None:
    question: Question = lessons.run(STEM)[1]["question"]
    _, high = wilson(0, 20_000)
    assert high == pytest.approx(3.84 / 20_000, rel=0.01)
    assert "1.9 in 10,000" in question.answer and high < 2e-4
    page, _ = run(understanding=mo.ui.radio(list(question.options), value=question.answer))
    assert "Right." in visible_text(page)


def test_what_to_notice_waits_for_the_guess(lessons: Lessons) -> None:
    # It says what sets the retention a target needs: the answer to the prediction.
    before = visible_text(lessons.run(STEM)[0])
    assert "What to notice shows once you commit your guess." in before
    assert "The tail decides" not in before
    assert "The tail decides" in visible_text(run(skip_prediction=SKIP)[0])


# --- heavy settings run fewer trials ------------------------------------------------------------


def heavy(trials: int, crash: float = 0.5) -> RiskInputs:
    # 9 deliveries: 10 attempts (the budget and the replay) of 4 crash points, by hand.
    return RiskInputs(deliveries=9, crash_probability=crash, loss_probability=0, trials=trials)


@pytest.mark.parametrize(
    ("inputs", "ran"),
    [
        (heavy(2000), 2000),  # 2,000 x 20 = 40,000 injections: the budget, kept
        (heavy(2001), 2000),  # one trial more: cut to the whole thousands that fit
        (heavy(20_000), 2000),
        (heavy(20_000, crash=0.125), 8000),  # 5 a trial
        (heavy(1000, crash=1.0), 1000),  # 40 a trial: 40,000, kept
        # Every point fails: more than 40 a trial, so not even 1,000 fit; 1,000 run, the fewest
        # the lesson offers.
        (heavy(20_000, crash=1.0).model_copy(update={"loss_probability": 1.0}), 1000),
    ],
)
def test_heavy_settings_run_the_trials_that_fit_the_budget(inputs: RiskInputs, ran: int) -> None:
    fitted, said = lesson06.fitted(inputs)
    assert fitted.trials == ran
    assert fitted.model_copy(update={"trials": inputs.trials}) == inputs
    assert (said is None) == (ran == inputs.trials)
    if said is not None:
        assert f"ran {ran:,} of the {inputs.trials:,} trials" in said
        assert command_line(inputs) in said


def test_the_lesson_says_when_it_ran_fewer_trials_and_gives_the_full_command() -> None:
    texts = dict(lesson06.CONTROL_TEXTS) | {"crash": "0.5"}
    page, defs = run(
        texts=mo.ui.dictionary({k: mo.ui.text(value=v) for k, v in texts.items()}),
        deliveries=mo.ui.number(1, 9, value=9),
        jitter=mo.ui.dropdown(["none", "full", "equal"], value="full"),
        target=mo.ui.dropdown(list(lesson06.TARGETS), value=chance(1e-4)),
        trials=mo.ui.dropdown({"20,000": 20_000}, value="20,000"),
        seed=mo.ui.number(0, 10, value=0),
        skip_prediction=SKIP,
    )
    assert defs["run"].report.trials == defs["inputs"].trials < 20_000
    asked = defs["inputs"].model_copy(update={"trials": 20_000})
    text = visible_text(page)
    assert f"ran {defs['inputs'].trials:,} of the 20,000 trials asked" in text
    assert command_line(asked) in text
