"""A static snapshot says it is one, shows its controls disabled, and answers its check."""

import pytest

from asyncfail.course.page import SNAPSHOT_BANNER
from asyncfail.course.questions import (
    ASSUMPTIONS_QUESTION,
    CONTRACT_QUESTION,
    EXPLORE_QUESTION,
    HANDOFF_QUESTION,
    LAB_QUESTION,
    READINESS_QUESTION,
    RECORDS_QUESTION,
    WORKERS_QUESTION,
)
from asyncfail.ground.quiz import Question
from tests.notebook_support import load_notebook, run_lesson, unescape_nested, visible_text

LESSONS = {
    "01_async_failure_lab": LAB_QUESTION,
    "02_break_the_assumptions": ASSUMPTIONS_QUESTION,
    "03_idempotency_contract": CONTRACT_QUESTION,
    "07_readiness_checklist": READINESS_QUESTION,
    "08_review_handoff": HANDOFF_QUESTION,
    "04_explore_every_failure": EXPLORE_QUESTION,
    "05_two_workers": WORKERS_QUESTION,
    "06_record_lifetime": RECORDS_QUESTION,
}


# Not shown in a snapshot at all: the check's radio (its answer is shown instead) and lesson 1's
# prediction form (a note says the snapshot skips it).
NOT_SHOWN = {"understanding", "prediction"}


def controls(defs: dict[str, object]) -> dict[str, str]:
    """Every UI element a lesson shows, by name, as rendered (a dictionary of elements with its
    elements' markup unescaped)."""
    return {
        name: unescape_nested(value.text)  # type: ignore[attr-defined]
        for name, value in defs.items()
        if name not in NOT_SHOWN and "<marimo-ui-element" in str(getattr(value, "text", ""))
    }


@pytest.mark.parametrize(("stem", "question"), LESSONS.items())
def test_a_snapshot_is_labelled_disabled_and_answered(stem: str, question: Question) -> None:
    page, defs = run_lesson(load_notebook(stem), snapshot=True)
    text = visible_text(page)
    assert visible_text(SNAPSHOT_BANNER.replace("**", "")).split(":")[0] in text
    found = controls(defs)
    assert found, "every lesson has controls"
    for name, html in found.items():
        assert "data-disabled='true'" in html and "data-disabled='false'" not in html, name
    assert question.answer in text and question.explanation in text


@pytest.mark.parametrize("stem", LESSONS)
def test_a_live_lesson_has_live_controls_and_no_banner(stem: str) -> None:
    page, defs = run_lesson(load_notebook(stem), snapshot=False)
    assert "This is a static snapshot" not in visible_text(page)
    for name, html in controls(defs).items():
        assert "data-disabled='false'" in html and "data-disabled='true'" not in html, name
