"""Explore every failure in class: its plan, its reveals and its misconceptions.

The guide's own words (``course.teaching`` says what they are and the rules they follow). Rows
of the matrix are named by their index in ``explore_lesson.ROWS``; every cell, count and
counterexample is the explorer's, run when the guide is generated.
"""

from typing import Final

from asyncfail.course import questions
from asyncfail.course.assumptions_teaching import SPENT
from asyncfail.course.demos import LabDemo, control_name
from asyncfail.course.explore_lesson import (
    DEFAULT_ROW,
    MAX_FAULTS_LABEL,
    ROW_LABEL,
    ROWS,
)
from asyncfail.course.setting_demos import ExerciseDemo, ExploreDemo, SettingsDemo
from asyncfail.course.teaching import (
    PLAIN_CHECK,
    LessonPlan,
    Misconception,
    Reveal,
    Segment,
    lesson_name,
    lesson_ref,
)
from asyncfail.course.workers_teaching import SEED_VERDICT
from asyncfail.explore.invariants import Invariant
from asyncfail.ground.prose import quoted
from asyncfail.lab.reading import Status

SEED, KEY_PER_ATTEMPT, LOOKUP_OPEN, JOURNAL_OPEN = 1, 2, 5, 6
"""The rows of the matrix the plan names, by their index in ``ROWS``."""
_ONCE: Final = Invariant.AT_MOST_ONCE
_LOSS: Final = Invariant.NO_SILENT_LOSS

_SEED_LOSS: Final = ExploreDemo(SEED, _LOSS)
_SEED_LOSS_THREE: Final = ExploreDemo(SEED, _LOSS, max_faults=3)
_SEED_LOSS_TWO_DELIVERIES: Final = ExploreDemo(SEED, _LOSS, deliveries=2)
_LOOKUP_OPEN: Final = ExploreDemo(LOOKUP_OPEN, _ONCE)

PLAN: Final = LessonPlan(
    stem=ExploreDemo.lesson,
    segments=(
        Segment(
            5,
            "Open",
            f"Recall the named faults of {lesson_ref(LabDemo.lesson)}, one fault each, and the "
            f"assumptions {lesson_ref(SettingsDemo.lesson)} broke one at a time. Read the "
            "lesson's three invariants aloud, with their reasons.",
            "For each invariant, name a run from the earlier lessons that breaks it, if they "
            "know one.",
        ),
        Segment(
            10,
            "The matrix",
            "The lesson explores every row as it opens, with no guess to commit first: keep the "
            "matrix off the projector. Ask which invariants each row breaks with up to two "
            "faults per plan, then show it.",
            "Fill in a copy of the matrix, holds or breaks, before it is shown.",
        ),
        Segment(
            10,
            "The smallest counterexample",
            f"The view {quoted(control_name(ROW_LABEL))} opens on "
            f"{quoted(ROWS[DEFAULT_ROW].title)}; then pick {quoted(ROWS[LOOKUP_OPEN].title)}. "
            "Before each, ask how many faults the smallest plan needs. Replay one in a terminal "
            "with the command the lesson shows.",
            "Read the counterexample's timeline and say which injection did the harm.",
        ),
        Segment(
            7,
            "The bounds",
            f"Pick {quoted(ROWS[SEED].title)} and `{_LOSS.value}`. Raise "
            f"{quoted(control_name(MAX_FAULTS_LABEL))} to 3; then, back at 2, lower the delivery "
            "budget to 2. Ask before each change.",
            "Say what a search that finds nothing proves, and what it does not.",
        ),
        Segment(
            12,
            "The exercise",
            "Pairs work the exercise. The lesson gives one more hint after each check that "
            "fails, and offers its answer once a pair has checked; ask pairs to change one "
            "answer at a time.",
            "Change the form until the explorer finds no counterexample, one answer at a time.",
        ),
        PLAIN_CHECK,
    ),
    reveals=(
        Reveal(
            "the matrix",
            (
                "Which rows break `at-most-once` with up to two faults per plan?",
                "Does any row break `no-silent-loss` or `truthful-status`?",
            ),
            tuple(ExploreDemo(row) for row in range(len(ROWS))),
        ),
        Reveal(
            "the smallest counterexamples",
            (
                "With a key per attempt, how many faults does the smallest plan need, and where?",
                "Failing open when a lookup fails: how many faults, and which?",
            ),
            (ExploreDemo(KEY_PER_ATTEMPT, _ONCE), _LOOKUP_OPEN),
        ),
        Reveal(
            "three faults per plan, and two deliveries",
            (
                "The seed's durable runtime breaks nothing with up to two faults. With three?",
                "And with two faults, but a budget of two deliveries?",
            ),
            (_SEED_LOSS_THREE, _SEED_LOSS_TWO_DELIVERIES),
        ),
        Reveal(
            "the first check of the exercise",
            (
                "The form starts with the naive loop and every setting the explorer will "
                "refuse. Which invariant breaks first, and by which plan?",
                "And if only the runtime becomes durable?",
            ),
            (ExerciseDemo(), ExerciseDemo((("mode", "durable"),))),
        ),
    ),
    misconceptions=(
        Misconception(
            "If the explorer finds no counterexample, the runtime is correct.",
            "The search is exhaustive only within its bounds: every plan of up to so many "
            "injections, at the modeled points, over the deliveries the budget allows, under "
            "one set of settings. The seed's durable runtime breaks nothing with up to two "
            "faults and three deliveries; with three faults, a crash before dispatch on every "
            "delivery leaves the debit never applied under a status that reads as final, and "
            "with two deliveries two such faults are enough. Every row of the matrix has one "
            "worker, and with one worker a stall only delays; with a second, in "
            f"{lesson_ref(SEED_VERDICT.lesson)}, a single stall before dispatch makes the "
            "seed's durable runtime debit twice. A failure at a point the model does not name "
            "is outside the search altogether.",
            (_SEED_LOSS, _SEED_LOSS_THREE, _SEED_LOSS_TWO_DELIVERIES, SEED_VERDICT),
        ),
        Misconception(
            "A few well-chosen faults are enough to test a runtime.",
            "Failing open when a lookup fails debits twice only when the debit happened "
            "unseen (a lost reply, or a crash after the debit) and the lookup that follows "
            "fails too: two faults. No plan of one fault shows it, so none of "
            f"{lesson_ref(LabDemo.lesson)}'s named faults would. Failing open when the journal "
            "cannot be written is the same: the only plan that breaks it holds the outage and "
            "a crash after the debit.",
            (
                ExploreDemo(LOOKUP_OPEN, _ONCE, max_faults=1),
                _LOOKUP_OPEN,
                ExploreDemo(JOURNAL_OPEN, _ONCE),
            ),
        ),
        Misconception(
            "A run without a second debit went well.",
            f"`{_ONCE.value}` is one invariant of three. A crash before dispatch on every "
            "delivery leaves no debit at all, under the status "
            f"{quoted(Status.NEVER_APPLIED.value)}, which reads as final: nobody is asked to "
            "look, though the debit the customer asked for never happened "
            f"(`{_LOSS.value}`). A status that admits not knowing, unknown or "
            f"parked, keeps it, because it asks a person. {lesson_name(SPENT.lesson)} shows the "
            "run, and that one more delivery restores it.",
            (SPENT, _SEED_LOSS_TWO_DELIVERIES),
        ),
    ),
    check=questions.EXPLORE_QUESTION,
)
