"""Lesson 8, "Read the review handoff the model writes", runs headless: the handoff of the
chosen fault, with its evidence as timelines."""

import re
from types import SimpleNamespace

import marimo as mo
import pytest

from asyncfail.charts.sequence_drawing import sequence_view
from asyncfail.ground.quiz import Question
from asyncfail.ground.seed import BEFORE_REPLAY, BEFORE_REPLAY_TITLE, RECOMMENDATIONS, Priority
from asyncfail.lab.faults import Fault
from asyncfail.lab.scenario import Mode
from asyncfail.review.handoff import build_review
from tests.course.conftest import Lessons
from tests.notebook_support import (
    load_notebook,
    run_lesson,
    sequence_drawings,
    unescape_nested,
    visible_text,
)

STEM = "08_review_handoff"
nb = load_notebook(STEM)
SKIP = mo.ui.switch(value=True)
P0 = [r.title for r in RECOMMENDATIONS.values() if r.priority is Priority.P0]
P1 = [r.title for r in RECOMMENDATIONS.values() if r.priority is Priority.P1]


def test_the_handoff_waits_for_the_learners_draft(lessons: Lessons) -> None:
    # The handoff states the decision (its P0s, its steps before a replay): nothing of it, nor
    # the evidence, before the learner drafts or skips.
    page, defs = lessons.run(STEM)
    review = build_review(Fault.CRASH_AFTER_EFFECT)
    assert defs["review"] == review and defs["revealed"] is False
    text = visible_text(page)
    assert "Draft the decision first." in text
    for words in ("Prioritized recommendations", BEFORE_REPLAY_TITLE, "sample handoff"):
        assert words not in text
    assert review.html(standalone=False) not in page and sequence_drawings(page) == []
    # Every recommendation is offered, P0 or not, in an order that is not the model's.
    assert defs["p0_options"] == sorted(P0 + P1) != P0 + P1
    assert set(BEFORE_REPLAY) < set(defs["replay_options"])


def test_skipping_shows_the_seed_handoff_and_its_sequence_views() -> None:
    page, defs = run_lesson(nb, skip_prediction=SKIP)
    review = build_review(Fault.CRASH_AFTER_EFFECT)
    assert defs["review"] == review
    assert review.html(standalone=False) in page
    assert "Async Reliability Review: sample handoff" in visible_text(page)
    assert sequence_drawings(page) == [
        unescape_nested(sequence_view(r, width=340)[0].svg) for r in review.runs
    ]


@pytest.mark.parametrize(
    ("p0", "replay", "said", "not_said"),
    [
        (P0, list(BEFORE_REPLAY), ["P0: right.", "Before a replay: right."], ["You left out"]),
        (
            P0[:1] + P1[:1],
            [*BEFORE_REPLAY[:3], "Raise the retry limit so the replay gets through."],
            [f"You left out: {P0[1]}", f"The model does not choose: {P1[0]}",
             f"You left out: {BEFORE_REPLAY[3]}",
             "The model does not choose: Raise the retry limit"],
            ["P0: right."],
        ),
        ([], [], ["P0: nothing chosen.", "Before a replay: nothing chosen."], ["right."]),
    ],
)  # fmt: skip
def test_a_draft_is_compared_with_the_models_decision(
    lessons: Lessons, p0: list[str], replay: list[str], said: list[str], not_said: list[str]
) -> None:
    defs = lessons.run(STEM)[1]
    words = {k: defs[k] for k in ("model_p0", "model_replay", "p0_options", "replay_options")}
    draft = SimpleNamespace(value={"p0": p0, "replay": replay})
    page, _ = run_lesson(nb, draft=draft, revealed=True, **words)
    text = visible_text(page)
    for words_said in said:
        assert words_said in text
    for words_not_said in not_said:
        assert words_not_said not in text
    assert "Async Reliability Review: sample handoff" in text


def test_the_handoff_follows_the_chosen_fault() -> None:
    page, defs = run_lesson(
        nb,
        handoff_fault=mo.ui.dropdown(["response-lost"], value="response-lost"),
        skip_prediction=SKIP,
    )
    assert defs["review"] == build_review(Fault.RESPONSE_LOST)
    assert build_review(Fault.RESPONSE_LOST).html(standalone=False) in page


def test_sequence_views_without_a_step_slider_highlight_no_event() -> None:
    page, _ = run_lesson(nb, skip_prediction=SKIP)
    drawings = sequence_drawings(page)
    assert drawings
    for drawing in drawings:
        assert set(re.findall(r'data-state="(\w+)"', drawing)) == {"past"}
        assert "opacity" not in drawing


def test_the_check_matches_the_model(lessons: Lessons) -> None:
    question: Question = lessons.run(STEM)[1]["question"]
    naive = build_review(Fault.RESPONSE_LOST).reviewed.counts
    assert (naive.attempts, naive.effects) == (1, 2), "one delivery, two debits"
    page, _ = run_lesson(
        nb, understanding=mo.ui.radio(list(question.options), value=question.answer)
    )
    assert "Right." in visible_text(page)


def test_more_settings_put_an_engine_step_under_review() -> None:
    """The seed's naive loop by default; under More settings, a durable engine's step."""
    page, defs = run_lesson(nb, skip_prediction=SKIP)
    assert defs["handoff_mode"].value == "naive"
    assert "More settings" in visible_text(page)
    engine_step = mo.ui.radio({"Engine checkpoint": "checkpoint"}, value="Engine checkpoint")
    page, defs = run_lesson(nb, handoff_mode=engine_step, skip_prediction=SKIP)
    review = build_review(Fault.CRASH_AFTER_EFFECT, mode=Mode.CHECKPOINT)
    assert defs["review"] == review
    assert review.html(standalone=False) in page
    assert sequence_drawings(page) == [
        unescape_nested(sequence_view(r, width=340)[0].svg) for r in review.runs
    ]
    assert "review-handoff-crash-after-effect-checkpoint.md" in page
