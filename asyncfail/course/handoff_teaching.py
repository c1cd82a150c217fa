"""The review handoff in class: its plan, its reveals and its misconceptions.

The guide's own words (``course.teaching`` says what they are and the rules they follow).
"""

from typing import Final

from asyncfail.course import questions
from asyncfail.course.demos import ReadinessDemo, ReviewDemo
from asyncfail.course.setting_demos import SettingsDemo
from asyncfail.course.teaching import (
    PLAIN_CHECK,
    LessonPlan,
    Misconception,
    Reveal,
    Segment,
    lesson_ref,
)
from asyncfail.ground.prose import quoted
from asyncfail.ground.seed import Boundary, HandoffSection
from asyncfail.lab.faults import Fault

_CANNOT_DECIDE: Final = quoted(HandoffSection.CANNOT_DECIDE.value)
_ASSUMPTIONS: Final = quoted(HandoffSection.ASSUMPTIONS.value)

PLAN: Final = LessonPlan(
    stem=ReviewDemo.lesson,
    segments=(
        Segment(
            5,
            "Frame",
            "Say what a review handoff is for: the evidence a reviewer passes to the team that "
            "owns the system, with the assumptions the evidence rests on.",
            "Name who in their organisation would receive such a handoff.",
        ),
        Segment(
            10,
            "The seed's case",
            "With the fault on `crash-after-effect`, ask for the failure map's rows before "
            "showing the document, then read it section by section.",
            "Predict each row of the failure map, then mark what they got wrong.",
        ),
        Segment(
            12,
            "Other faults",
            "Switch to `response-lost`, then `crash-after-record`, asking for the evidence "
            "summary and the recorded result first.",
            "Find in the timelines the events each sentence of the handoff rests on.",
        ),
        Segment(
            10,
            "Evidence and assumptions",
            f"Read {_ASSUMPTIONS} and {_CANNOT_DECIDE}; ask which of the assumptions "
            f"{lesson_ref(SettingsDemo.lesson)} broke, and with which setting.",
            "Sort the handoff's statements into evidence from the model and assumptions about "
            "a real system.",
        ),
        Segment(
            7,
            "Use the shape",
            "Ask learners to draft the four failure-map rows for their own system, using their "
            f"report from {lesson_ref(ReadinessDemo.lesson)}.",
            "Draft the rows, and name who decides each replay.",
        ),
        PLAIN_CHECK,
    ),
    reveals=(
        Reveal(
            "the handoff for the seed's case",
            ("What will the failure map say about the replay, for each runtime?",),
            (ReviewDemo(Fault.CRASH_AFTER_EFFECT, Boundary.REPLAY),),
        ),
        Reveal(
            "the handoff for `response-lost`",
            (
                "How many attempts and effects will the evidence summary give the naive loop?",
                "Is the result recorded anywhere when the worker sees the timeout?",
            ),
            (
                ReviewDemo(Fault.RESPONSE_LOST),
                ReviewDemo(Fault.RESPONSE_LOST, Boundary.RECORDED_RESULT),
            ),
        ),
        Reveal(
            "the handoff for `crash-after-record`",
            ("In which trace is the result recorded before the crash?",),
            (ReviewDemo(Fault.CRASH_AFTER_RECORD, Boundary.RECORDED_RESULT),),
        ),
    ),
    misconceptions=(
        Misconception(
            "The handoff is a verdict on our system.",
            "The handoff is generated from two synthetic runs of the model: its evidence is "
            "the counts and events of those runs, its assumptions are the lab's, and its "
            f"section {_CANNOT_DECIDE} lists what no such sample can settle. Use its shape "
            "(failure map, evidence, recommendations, owners) for the review of a real system, "
            "with that system's evidence in place of the model's.",
            (ReviewDemo(Fault.CRASH_AFTER_EFFECT),),
        ),
    ),
    check=questions.HANDOFF_QUESTION,
)
