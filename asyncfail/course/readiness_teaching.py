"""The replay-readiness checklist in class: its plan, its reveals and its misconceptions.

The guide's own words (``course.teaching`` says what they are and the rules they follow). The
reveals start from the worked design (``demos.WORKED_DESIGN``), which the guide shows whole.
"""

from typing import Final

from asyncfail.contract.terms import ContractProfile
from asyncfail.course import questions
from asyncfail.course.demos import ContractDemo, LabDemo, ReadinessDemo
from asyncfail.course.setting_demos import SettingsDemo
from asyncfail.course.teaching import (
    LessonPlan,
    Misconception,
    Reveal,
    Segment,
    lesson_ref,
    retention_hours,
    seconds,
)
from asyncfail.course.timed_demos import RiskDemo
from asyncfail.ground.prose import joined, quoted
from asyncfail.ground.seed import RECOMMENDATIONS, RecommendationId
from asyncfail.handoff.design import Role

_RETENTION: Final = RecommendationId.RETENTION_COVERS_REPLAY
_OWNER: Final = RecommendationId.RECOVERY_OWNER
_EQUAL_RETENTION: Final = (("retention", ("24", "hours")),)
_ONE_SECOND_MORE: Final = (("retention", ("86401", "seconds")),)
_STRIPE_H: Final = retention_hours(ContractProfile.STRIPE)
_NOBODY_NAMED: Final = tuple((role.name.lower(), "") for role in Role)

PLAN: Final = LessonPlan(
    stem=ReadinessDemo.lesson,
    segments=(
        Segment(
            5,
            "Frame",
            "Recall the assumptions the durable runtime needed in "
            f"{lesson_ref(LabDemo.lesson)}, broken one at a time in "
            f"{lesson_ref(SettingsDemo.lesson)} and at the receiver in "
            f"{lesson_ref(ContractDemo.lesson)}, and the retention {lesson_ref(RiskDemo.lesson)} "
            "asked of a system's replay delays; the checklist turns them into questions about "
            "a real design, its retention and replay window among them.",
            "Pick the design they will assess: a system of their own, or one the instructor "
            "assigns.",
        ),
        Segment(
            8,
            "Worked design",
            "On the projector, enter the worked design below with the report scrolled out of "
            "view; ask before showing it, then cut the retention to the replay window.",
            "Predict how many checks are met, and which one fails after the change.",
        ),
        Segment(
            15,
            "Your design",
            "Circulate. Ask learners to leave what they do not know as unknown instead of "
            "guessing.",
            "Describe their design and read the reason given for every check that is not met "
            "or unknown.",
        ),
        Segment(
            10,
            "One change at a time",
            "Pair learners. For each check that is not met, ask what single change would meet "
            "it, and have them try it.",
            "Change one answer at a time and watch the report and the retention chart.",
        ),
        Segment(
            6,
            "The boundary",
            "Ask which boundary convention each learner's receiver follows, and point to the "
            "rule the report quotes.",
            "Find their replay on the retention chart: inside the retained region, on the "
            "diagonal, or past it.",
        ),
        Segment(
            6,
            "Check and close",
            "Pose the check for understanding, then have learners download their report.",
            "Answer the check, and write an owner next to every question still unknown.",
        ),
    ),
    reveals=(
        Reveal(
            "the report of a blank form",
            ("Nothing is answered yet. Is this design unready, or something else?",),
            (ReadinessDemo(RecommendationId.KEY_ACROSS_ATTEMPTS, worked=False),),
        ),
        Reveal(
            "the report of the worked design",
            ("How many checks will the worked design meet?",),
            (ReadinessDemo(_RETENTION),),
        ),
        Reveal(
            "a retention cut to the replay window",
            (
                "The records are now kept exactly as long as the longest replay window. Which "
                "check changes?",
                "What is the shortest retention in seconds that meets it again?",
            ),
            (
                ReadinessDemo(_RETENTION, _EQUAL_RETENTION),
                ReadinessDemo(_RETENTION, _ONE_SECOND_MORE),
            ),
        ),
        Reveal(
            "a key scoped to the delivery attempt",
            (
                "The design still carries one key across every attempt, but the key is the "
                "delivery attempt. Which P0 check fails?",
            ),
            (ReadinessDemo(RecommendationId.KEY_ACROSS_ATTEMPTS, (("key_scope", "attempt"),)),),
        ),
    ),
    misconceptions=(
        Misconception(
            "A retention as long as the replay window is enough.",
            "The sample handoff recommends "
            f"{quoted(RECOMMENDATIONS[_RETENTION].title)}, but under the seed's boundary "
            "convention, which the checklist applies, a replay at exactly the retention finds "
            "the record already expired and is applied again: records must outlive the "
            "longest replay window, if only by a second. Under the convention of Powertools "
            "and Brandur Leach's reaper, equal is enough; Stripe prunes keys once they are at "
            f"least {_STRIPE_H} hours old, so a replay at exactly {_STRIPE_H} hours may already "
            "be a new request. "
            "Ask which convention the learner's receiver follows: the report quotes the one it "
            "applies.",
            (
                ReadinessDemo(_RETENTION, _EQUAL_RETENTION),
                ReadinessDemo(_RETENTION, _ONE_SECOND_MORE),
                ContractDemo.of(profile="stripe", delay_seconds=seconds(_STRIPE_H * 3600)),
                ContractDemo.of(
                    delay_seconds=seconds(_STRIPE_H * 3600),
                    retention_seconds=seconds(_STRIPE_H * 3600),
                    boundary="retained-at-boundary",
                ),
            ),
        ),
        Misconception(
            "Deduplication makes a recovery owner unnecessary.",
            f"{quoted(RECOMMENDATIONS[_OWNER].title)} is met only when the design names who "
            f"can {joined([role.value for role in Role])}, and a lookup by key lets them "
            "inspect the operation record. Without the lookup it is not met, whoever is named; "
            "with the lookup and nobody named, it stays unknown.",
            (
                ReadinessDemo(_OWNER),
                ReadinessDemo(_OWNER, _NOBODY_NAMED),
                ReadinessDemo(_OWNER, (("lookup_by_key", "no"),)),
            ),
        ),
    ),
    check=questions.READINESS_QUESTION,
)
