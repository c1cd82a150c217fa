"""The instructor guide's own words: what a lesson plan holds, and the guide's course-wide prose.

The guide (``docs/teaching.md``, laid out by ``course.guide``) plans each lesson as a class of
``CLASS_MINUTES``: timed segments, the questions to ask before each reveal, the misconceptions
learners bring and how the lessons answer them, and the lesson's check for understanding. Each
lesson's plan is in its own module (``lab_teaching``, ``assumptions_teaching``,
``contract_teaching``, ``explore_teaching``, ``workers_teaching``, ``records_teaching``,
``readiness_teaching``, ``handoff_teaching``), built from the types below.

Rules: the guide says only what the course does not already say. Lesson titles, minutes and
outcomes are the catalog's, the checks are ``course.questions``', control labels the lessons'
own, and every figure is the model's: a reveal or a misconception names demos
(``course.demos``, ``setting_demos``, ``timed_demos``) that run it, and its prose makes no
claim a test does not check (``tests/course/test_*teaching.py``). A lesson's number is its
place in the catalog (``lesson_name``, ``lesson_ref``), never typed. Text marks code with
backticks and has no other markup.
"""

from dataclasses import dataclass
from typing import Final, TypeAlias

from asyncfail.contract.profiles import PROFILES
from asyncfail.contract.terms import ContractProfile
from asyncfail.course import assumptions_lesson, lab_lesson, record_lesson
from asyncfail.course.catalog import LESSONS
from asyncfail.course.demos import (
    ContractDemo,
    LabDemo,
    ReadinessDemo,
    ReviewDemo,
    TraceDemo,
)
from asyncfail.course.setting_demos import (
    ExerciseDemo,
    ExploreDemo,
    SettingsDemo,
    TimeTraceDemo,
)
from asyncfail.course.timed_demos import RiskDemo, WorkersDemo, WorkersTraceDemo
from asyncfail.ground.durations import Duration
from asyncfail.ground.prose import quoted
from asyncfail.ground.quiz import Question

Demo: TypeAlias = (
    LabDemo
    | TraceDemo
    | SettingsDemo
    | TimeTraceDemo
    | ContractDemo
    | ReadinessDemo
    | ReviewDemo
    | ExploreDemo
    | ExerciseDemo
    | WorkersDemo
    | WorkersTraceDemo
    | RiskDemo
)
"""Every kind of demonstration; each names its ``lesson`` and has ``setting`` and ``shows``."""

CLASS_MINUTES: Final = 50
"""The length of one class; every plan's segments add up to it."""


@dataclass(frozen=True, slots=True)
class Segment:
    """One timed part of a class: what the instructor does, and what learners do."""

    minutes: int
    name: str
    instructor: str
    learners: str


PLAIN_CHECK: Final = Segment(
    6,
    "Check",
    "Pose the check for understanding and discuss the options.",
    "Answer alone, then compare with a neighbour.",
)
"""The closing segment of a plan whose check needs nothing of its own."""


@dataclass(frozen=True, slots=True)
class Reveal:
    """A moment a lesson shows a result: what is about to be shown, the questions to ask before
    it is, and the demos that set it up and say what it will show."""

    before: str
    questions: tuple[str, ...]
    demos: tuple[Demo, ...]


@dataclass(frozen=True, slots=True)
class Misconception:
    """A belief learners bring, how the course answers it, and the demos that show it."""

    belief: str
    answer: str
    demos: tuple[Demo, ...]


@dataclass(frozen=True, slots=True)
class LessonPlan:
    """Everything the guide says about one lesson: ``stem`` names it in the catalog.

    Rule: the segments add up to ``CLASS_MINUTES``, each at least a minute long.
    """

    stem: str
    segments: tuple[Segment, ...]
    reveals: tuple[Reveal, ...]
    misconceptions: tuple[Misconception, ...]
    check: Question

    def __post_init__(self) -> None:
        minutes = [s.minutes for s in self.segments]
        if sum(minutes) != CLASS_MINUTES or min(minutes, default=0) < 1:
            raise ValueError(f"{self.stem}: segments of {minutes} minutes, not {CLASS_MINUTES}")


def seconds(amount: int) -> Duration:
    """A whole number of seconds, as a demo's retention or delay."""
    return Duration.of_seconds(amount)


def retention_hours(profile: ContractProfile) -> int:
    """The whole hours of retention a profile's system sets (ValueError if it sets none)."""
    retention = PROFILES[profile].retention.value
    if retention is None:
        raise ValueError(f"{profile} sets no retention")
    return retention.millis // 3_600_000


LESSON: Final = "Lesson"
LESSON_NAME: Final = LESSON + " {number}"
"""A lesson by its place in the course: ``Lesson 2``."""


def lesson_name(stem: str) -> str:
    """``Lesson 2``: the lesson whose notebook is ``stem``, by its place in the catalog
    (a ValueError for a stem the catalog does not have)."""
    number = [info.stem for info in LESSONS].index(stem) + 1
    return LESSON_NAME.format(number=number)


def lesson_ref(stem: str) -> str:
    """``lesson 2``: ``lesson_name`` within a sentence."""
    name = lesson_name(stem)
    return name[:1].lower() + name[1:]


# ---------------------------------------------------------------------------------------------
# The guide's course-wide prose

KICKER: Final = "Instructor guide"
TITLE: Final = "Teaching the course"

PURPOSE: Final = (
    "This guide plans each of the course's {lessons} lessons as a {minutes}-minute class: timed "
    "segments, the questions to ask before each result is shown, the misconceptions learners "
    "bring with the settings that answer them, and the answers to every check for "
    "understanding."
)
"""``{lessons}`` is the number of lessons in words, ``{minutes}`` ``CLASS_MINUTES``."""

ASK_FIRST: Final = (
    "Ask before you show. Predicting before a demonstration helps learners; watching the same "
    "demonstration without predicting does not (Crouch et al. 2004; Miller et al. 2013). Before "
    "each reveal below, pose its questions and let everyone commit to an answer, in writing or "
    "by a show of hands, before the result is on screen."
)

PROVENANCE: Final = (
    "Every figure under {shows} is computed by running the model when this guide is generated "
    "(`make golden`), and a test checks every claim in its text against the model: the guide "
    "and the lessons cannot disagree."
)
"""``{shows}`` is the title of the guide's column of figures."""

BEFORE_CLASS_TITLE: Final = "Before class"
BEFORE_CLASS: Final[tuple[str, ...]] = (
    "Serve the course with `make serve HOST=0.0.0.0` on a machine the room can reach, or have "
    "learners run `make serve` on their own machines. The first run installs the course and "
    "takes a few minutes: do it before class.",
    "Teach from the interactive lessons, not the published static snapshots: a snapshot shows "
    "every count and every check's answer at once, so nobody can predict first.",
    f"{lesson_name(LabDemo.lesson)}, {lesson_ref(SettingsDemo.lesson)}, "
    f"{lesson_ref(WorkersDemo.lesson)} and {lesson_ref(RiskDemo.lesson)} show no result until "
    f"a guess is committed (all but the table of assumptions at the top of "
    f"{lesson_ref(SettingsDemo.lesson)}). Ask learners to leave "
    f"{quoted(lab_lesson.SKIP_LABEL)}, {quoted(assumptions_lesson.SKIP_LABEL)} (in "
    f"{lesson_ref(SettingsDemo.lesson)} and {lesson_ref(WorkersDemo.lesson)}) and "
    f"{quoted(record_lesson.SKIP_LABEL)} switched off.",
    "Keep a terminal open in the project: some demonstrations of "
    f"{lesson_ref(LabDemo.lesson)} give the channel a single delivery "
    "(`asyncfail lab --deliveries 1`), which that lesson has no control for; "
    f"{lesson_ref(ExploreDemo.lesson)} and {lesson_ref(WorkersDemo.lesson)} replay their "
    f"counterexamples there; and {lesson_ref(RiskDemo.lesson)}'s exact cases need a fault in "
    "every trial, which only `asyncfail risk --fault` sets.",
    "Learners' inputs stay in their own page and are sent nowhere, so in "
    f"{lesson_ref(ReadinessDemo.lesson)} they can describe a real system.",
)

GLANCE_TITLE: Final = "The course at a glance"
GLANCE_HEADER: Final = ("Lesson", "Notebook", "Alone", "In class")

# The guide's headings and the words around each part of a lesson

SET: Final = "Set"
SHOWS: Final = "The model shows"
PART_TITLE: Final = "{lesson} · {part}"
"""A section of the guide about one part of a lesson: ``Lesson 2 · Misconceptions``."""

CLASS_TIME: Final = (
    "Alone, a learner takes about {alone} minutes; in class, with predictions and discussion, "
    "the lesson takes {minutes}. After it, learners can:"
)
PLAN_TITLE: Final = "Class plan"
PLAN_HEADER: Final = ("Minutes", "Segment", "Instructor", "Learners")
MINUTES: Final = "{start}\u2013{end}"
"""A segment's place in the class, in minutes from the start, joined by an en dash."""

REVEALS_TITLE: Final = "Ask before you show"
SETTINGS_NOTE: Final = (
    "A setting names only the controls that differ from where the lesson starts them."
)
REVEALS_LEAD: Final = (
    "For each moment below: make the settings, pose the questions, let everyone commit to an "
    "answer, then show it. " + SETTINGS_NOTE
)
MISCONCEPTIONS_LEAD: Final = (
    "Learners arrive with these beliefs. Let them say it first, then make the settings that "
    "answer it. " + SETTINGS_NOTE
)
REVEAL_TITLE: Final = "Before {before}"
ASK: Final = "Ask first:"
WORKED_DESIGN_TITLE: Final = "The worked design"
WORKED_DESIGN_HEADER: Final = ("Question", "Answer")

MISCONCEPTIONS_TITLE: Final = "Misconceptions"

CHECK_TITLE: Final = "Check for understanding"
ANSWER_MARK: Final = " (the answer)"
ANSWER: Final = "Answer"
WHY: Final = "Why"
