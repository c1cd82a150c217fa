"""Lesson 8, "Read the review handoff the model writes", runs headless: the handoff of the
chosen fault, with its evidence as timelines."""

import marimo as mo

from asyncfail.charts.timeline import timeline_rows
from asyncfail.ground.quiz import Question
from asyncfail.lab.faults import Fault
from asyncfail.review.handoff import build_review
from tests.course.conftest import Lessons
from tests.notebook_support import RUNTIMES, load_notebook, run_lesson, vega_specs, visible_text

STEM = "08_review_handoff"
nb = load_notebook(STEM)


def test_defaults_show_the_seed_handoff_and_its_timelines(lessons: Lessons) -> None:
    page, defs = lessons.run(STEM)
    review = build_review(Fault.CRASH_AFTER_EFFECT)
    assert defs["review"] == review
    assert review.html(standalone=False) in page
    assert "Async Reliability Review: sample handoff" in visible_text(page)
    titles = [s["title"] for s in vega_specs(page)]
    assert titles == [f"{m.value} runtime: crash-after-effect" for m in RUNTIMES]


def test_the_handoff_follows_the_chosen_fault() -> None:
    page, defs = run_lesson(
        nb, handoff_fault=mo.ui.dropdown(["response-lost"], value="response-lost")
    )
    assert defs["review"] == build_review(Fault.RESPONSE_LOST)
    assert build_review(Fault.RESPONSE_LOST).html(standalone=False) in page


def test_timelines_without_a_step_slider_highlight_no_event(lessons: Lessons) -> None:
    page, defs = lessons.run(STEM)
    for spec, run in zip(vega_specs(page), defs["review"].runs, strict=True):
        rows = spec["datasets"]["events"]
        assert rows == timeline_rows(run)
        assert {row["state"] for row in rows} == {"past"}


def test_the_check_matches_the_model(lessons: Lessons) -> None:
    question: Question = lessons.run(STEM)[1]["question"]
    naive = build_review(Fault.RESPONSE_LOST).naive.counts
    assert (naive.attempts, naive.effects) == (1, 2), "one delivery, two debits"
    page, _ = run_lesson(
        nb, understanding=mo.ui.radio(list(question.options), value=question.answer)
    )
    assert "Right." in visible_text(page)
