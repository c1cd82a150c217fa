"""The course: its lessons in order, each with its title, one line on what it is about, the
minutes it takes, and what a learner will be able to do after it.

The notebooks, the course home of ``make serve``, the published site's landing page and the
instructor guide all read the lessons from here.
"""

from dataclasses import dataclass
from typing import Final

from asyncfail.ground.seed import QUESTION

COURSE_TITLE: Final = "The Async Failure Lab"
COURSE_LINE: Final = (
    "A short course on what happens when an asynchronous worker's side effect succeeds but the "
    "worker crashes before it records the result, and where the pattern that fixes it stops "
    "protecting you."
)
COURSE_QUESTION: Final = QUESTION


@dataclass(frozen=True, slots=True)
class LessonInfo:
    """One lesson of the course."""

    stem: str
    """The notebook's file name without ``.py``: ``01_async_failure_lab``."""
    title: str
    summary: str
    minutes: int
    outcomes: tuple[str, ...]
    """What a learner will be able to do after the lesson, each a verb phrase."""


LESSONS: Final[tuple[LessonInfo, ...]] = (
    LessonInfo(
        "01_async_failure_lab",
        "The Async Failure Lab",
        "The debit succeeds, the worker crashes: predict, then compare a naive retry loop with a "
        "durable runtime, event by event.",
        20,
        (
            "tell a delivery attempt from a business effect, and count both in a trace",
            "explain why a missing result is an unknown outcome, not a failure",
            "say which faults make a naive retry loop debit twice, and why a lookup by a stable "
            "operation key prevents it",
        ),
    ),
    LessonInfo(
        "02_break_the_assumptions",
        "Break the assumptions",
        "The durable runtime recovers by key only under five assumptions: break each one, watch "
        "the promise fail against a clock, and find the change that restores it.",
        25,
        (
            "name the assumption a durable runtime's recovery rests on when a debit repeats",
            "read a trace against time, and tell whether an idempotency record still counted "
            "when the redelivery came",
            "choose between failing open and failing closed when a lookup or the journal is "
            "down, knowing what each costs",
        ),
    ),
    LessonInfo(
        "03_idempotency_contract",
        "Stress the idempotency contract",
        "Key scope, payload fingerprints and the retention boundary: when does a second request "
        "become a second debit?",
        20,
        (
            "choose what an idempotency key must identify (the tenant and the business "
            "operation, not the delivery attempt)",
            "predict what a receiver does with a retained, expired or never-stored record",
            "read a real system's contract (the IETF draft, Stripe, Brandur Leach's design, "
            "Powertools) as settings of one experiment",
        ),
    ),
    LessonInfo(
        "04_explore_every_failure",
        "Explore every failure",
        "Every fault plan up to a few injections, checked against three invariants: the "
        "smallest counterexample, or how many plans could not find one.",
        20,
        (
            "state the invariants a side-effecting runtime must keep: at most once, no silent "
            "loss, a truthful status",
            "read a minimal counterexample as a trace, and replay it from a terminal",
            "say what an exhaustive search within bounds does and does not prove",
        ),
    ),
    LessonInfo(
        "05_two_workers",
        "Two workers, one debit",
        "A slow worker's lease runs out and a second worker takes the operation over: which "
        "safeguard keeps the debit single?",
        20,
        (
            "explain how a pause, not a crash, puts two workers on one operation",
            "say why a lease checked before the act cannot stop a stalled request, and what a "
            "fencing token or an in-progress record adds",
            "read a two-worker timeline: whose lease held, who stalled, whose request landed",
        ),
    ),
    LessonInfo(
        "06_record_lifetime",
        "How long must records live?",
        "Seeded Monte Carlo trials of the timed model: how likely a second debit is at each "
        "retention, and the retention a target risk requires.",
        20,
        (
            "estimate a duplicate risk with an honest interval, and say what no duplicate seen "
            "does and does not show",
            "choose a retention from the replay delays a system will actually see",
            "check an estimate against an exact answer where one exists",
        ),
    ),
    LessonInfo(
        "07_readiness_checklist",
        "Take the replay-readiness checklist to your own design",
        "Describe your own design and get a readiness report, with your retention and replay "
        "window run through the contract experiment.",
        15,
        (
            "check a real design against the four recommendations of a reliability review",
            "decide whether a retention covers a replay window, at the exact boundary too",
            "name the unknowns a design still has, and who owns recovery",
        ),
    ),
    LessonInfo(
        "08_review_handoff",
        "Read the review handoff the model writes",
        "The reliability review handoff, generated from both runtimes under the fault you pick: "
        "every figure in it is the model's.",
        10,
        (
            "read a failure map: dispatch intent, external effect, recorded result, replay",
            "tell the evidence a review rests on from the assumptions it cannot check",
        ),
    ),
    LessonInfo(
        "09_what_does_your_engine_do",
        "What does your engine do?",
        "The seed's crash in a durable-execution engine: predict the debits of a plain step, a "
        "step with a key and the course's pattern, then see the model and a real DBOS run side "
        "by side.",
        15,
        (
            "say when an engine checkpoints a step, and why a crash between the effect and the "
            "checkpoint runs the step again",
            "tell what a stable step key needs from the receiver before it prevents a second debit",
            "check a model's claim against a real engine's run, and read what the engine recorded",
        ),
    ),
)
"""The lessons, in course order."""


def lesson(stem: str) -> LessonInfo:
    """The lesson whose notebook is ``stem``."""
    return next(info for info in LESSONS if info.stem == stem)


NOTEBOOKS_README_INTRO: Final = """\
# The course

Serve every lesson locally with `make serve` (http://127.0.0.1:2718), or open one for editing
with `.venv/bin/marimo edit notebooks/<lesson>.py`. Lessons, in order:
"""
NOTEBOOKS_README_CLOSING: Final = """\
Every number, trace and chart comes from the `asyncfail` library. A lesson is its notebook,
whose Markdown cells hold its words, plus at most one module or folder of the same name in
`asyncfail/course/` (`lesson01_async_failure_lab/`, `lesson02_break_the_assumptions.py`, ...)
for what it computes beyond the model; the parts every page shares are in
`asyncfail/course/page.py`, and predict-then-reveal in `asyncfail/course/reveal.py`. Inputs
stay in page memory: nothing is written to the URL or sent anywhere.

*Written by `make golden` from `asyncfail/course/catalog.py`; do not edit.*
"""


def notebooks_readme() -> str:
    """``notebooks/README.md``: the lessons in order, each with its file, title, summary and
    minutes."""
    items = "\n".join(
        f"{n}. `{info.stem}.py`: **{info.title}** ({info.minutes} minutes). {info.summary}"
        for n, info in enumerate(LESSONS, start=1)
    )
    return f"{NOTEBOOKS_README_INTRO}\n{items}\n\n{NOTEBOOKS_README_CLOSING}"
