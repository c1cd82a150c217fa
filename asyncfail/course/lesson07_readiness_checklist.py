"""Lesson 7, "Take the replay-readiness checklist to your own design"
(``notebooks/07_readiness_checklist.py``): its controls, with their defaults.

The questions themselves are the checklist's (``handoff.design.QUESTIONS``), so the lesson asks
exactly what the report answers.
"""

from typing import Any, Final

from asyncfail.ground.durations import MAX_DURATION_TEXT, TimeUnit
from asyncfail.readiness.design import QUESTIONS, Answer

DEFAULT_ANSWER: Final = Answer.UNKNOWN
DEFAULT_UNIT: Final = TimeUnit.HOURS
UNIT_LABEL: Final = "unit"
DURATION_PLACEHOLDERS: Final[dict[str, str]] = {"retention": "e.g. 24", "replay_window": "e.g. 72"}


def answer_control(mo: Any, question: str, snapshot: bool) -> Any:
    """A yes / no / unknown question of the checklist (``QUESTIONS[question]``), starting at
    ``DEFAULT_ANSWER``; inert in a snapshot (``mo`` is marimo, handed in by the lesson)."""
    return mo.ui.radio(
        options=[a.value for a in Answer],
        value=DEFAULT_ANSWER.value,
        inline=True,
        label=QUESTIONS[question],
        disabled=snapshot,
    )


def amount_control(mo: Any, question: str, snapshot: bool) -> Any:
    """The amount of a duration question (``retention``, ``replay_window``), as typed, up to
    ``MAX_DURATION_TEXT`` characters."""
    return mo.ui.text(
        placeholder=DURATION_PLACEHOLDERS[question],
        max_length=MAX_DURATION_TEXT,
        label=QUESTIONS[question],
        disabled=snapshot,
    )


def unit_control(mo: Any, snapshot: bool) -> Any:
    """The unit beside a duration's amount, starting at ``DEFAULT_UNIT``."""
    return mo.ui.dropdown(
        options=[u.value for u in TimeUnit],
        value=DEFAULT_UNIT.value,
        label=UNIT_LABEL,
        disabled=snapshot,
    )
