"""How long must records live? in class: its plan, its reveals and its misconceptions.

The guide's own words (``course.teaching`` says what they are and the rules they follow). Every
demo starts from the lesson's controls as they open (records kept a day, replays a day late at
the median, 4,000 trials, seed 0) and names only what it sets otherwise; every estimate,
interval and exact answer is the risk wing's, run when the guide is generated.
"""

from typing import Final

from asyncfail.contract.terms import ContractProfile
from asyncfail.course import questions
from asyncfail.course.demos import ContractDemo
from asyncfail.course.setting_demos import SettingsDemo
from asyncfail.course.teaching import (
    LessonPlan,
    Misconception,
    Reveal,
    Segment,
    lesson_name,
    lesson_ref,
    retention_hours,
    seconds,
)
from asyncfail.course.timed_demos import RiskDemo, RiskView
from asyncfail.lab.faults import Fault

V = RiskView
HOUR, WEEK, MONTH = "3600", "604800", "2592000"
"""The median replay delays and the retention the plan sets, in seconds as the fields take
them: an hour, a week, and 30 days (the longest retention the field accepts)."""
_MORE: Final = ("trials", "20000")
_WEEKLY_MONTH: Final = (("replay", WEEK), ("retention", MONTH))
_EXACT: Final = (("crash", "0"), ("deliveries", "1"))
"""The exact case's controls: no random failure, one delivery (a fault is set in the terminal)."""

FIRST: Final = RiskDemo(views=(V.DUPLICATE, V.DEFAULTS))
"""The lesson's first trials: the duplicate risk at a day, and the real defaults."""
_REQUIRED: Final = RiskDemo(views=(V.REQUIRED,))
_MORE_TRIALS: Final = RiskDemo((_MORE,), (V.DUPLICATE, V.REQUIRED))
_EVEN: Final = RiskDemo((("spread", "0"), _MORE), (V.REQUIRED,))
_SPREAD: Final = RiskDemo((_MORE,), (V.REQUIRED,))
_WIDE: Final = RiskDemo((("spread", "2"), _MORE), (V.REQUIRED,))
NONE_SEEN: Final = RiskDemo(_WEEKLY_MONTH)
"""Replays a week late at the median, records kept 30 days: no duplicate in 4,000 trials."""
_SOME_SEEN: Final = RiskDemo((*_WEEKLY_MONTH, _MORE))
_HOURLY: Final = RiskDemo((("replay", HOUR), _MORE), (V.DEFAULTS,))
_DAILY: Final = RiskDemo((_MORE,), (V.DEFAULTS,))
_WEEKLY: Final = RiskDemo((("replay", WEEK), _MORE), (V.DEFAULTS,))
_AFTER: Final = Fault.CRASH_AFTER_EFFECT
EXACT_DAY: Final = RiskDemo(_EXACT, (V.DUPLICATE, V.EXACT), _AFTER)
"""The exact case in a terminal, records kept a day: one half."""
_EXACT_THREE_DAYS: Final = RiskDemo(
    (*_EXACT, ("retention", "259200")), (V.DUPLICATE, V.EXACT), _AFTER
)
_EXACT_MONTH: Final = RiskDemo((*_EXACT, ("retention", MONTH)), (V.DUPLICATE, V.EXACT), _AFTER)

_LEAK: Final = {"profile": "powertools", "scope": "operation", "second": "other-tenant"}
_LEAKING: Final = ContractDemo.of(**_LEAK)
_LEAK_OVER: Final = ContractDemo.of(**_LEAK, delay_seconds=seconds(7200))
_STRIPE_H: Final = retention_hours(ContractProfile.STRIPE)
_BRANDUR_H: Final = retention_hours(ContractProfile.BRANDUR_POSTGRES)

PLAN: Final = LessonPlan(
    stem=RiskDemo.lesson,
    segments=(
        Segment(
            5,
            "Open",
            f"Recall {lesson_ref(SettingsDemo.lesson)}: a record that expired as the "
            "redelivery came made the durable runtime debit twice; and "
            f"{lesson_ref(ContractDemo.lesson)}: Stripe keeps keys {_STRIPE_H} hours, Brandur "
            f"Leach's design {_BRANDUR_H}. Here operators replay dead letters late by chance: "
            "how likely is a second debit, and how long must records live?",
            "Write down how late an operator where they work might replay a dead letter: "
            "typically, and at the latest.",
        ),
        Segment(
            8,
            "Predict and run",
            "The lesson runs no trial until a prediction is committed. Read the controls aloud "
            "(records kept a day, replays a day late at the median, 4,000 trials), ask which "
            "real default keeps the duplicate risk below the target, let learners commit, then "
            "read the estimate with its interval.",
            "Commit a prediction, then read the duplicate line: how many trials debited twice, "
            "the estimate, its interval.",
        ),
        Segment(
            10,
            "More trials, and the tail",
            "Raise the trials to 20,000 and ask whether the required retention will stay put. "
            "Then, with 20,000 trials, set the replay spread to `0`, then to `2`, asking "
            "before each; read the curve and the histogram of replay delays every time.",
            "Say why the same median replay delay asks for such different retentions.",
        ),
        Segment(
            8,
            "What no duplicate shows",
            f"Back at a spread of 1 and 4,000 trials, set the median replay delay to `{WEEK}` "
            f"(a week) and the retention to `{MONTH}` (30 days). Ask what no duplicate in "
            "4,000 trials shows; then raise the trials to 20,000.",
            "Work out 3.84 / n for 4,000 and for 20,000 trials, and compare it with the "
            "interval's upper end.",
        ),
        Segment(
            7,
            "Your replay habits",
            f"Pairs keep 20,000 trials and set the median replay delay to `{HOUR}` (an hour), "
            "back to a day, then to their own system's, and read which real defaults keep the "
            "estimate below the target.",
            "Choose a retention for their own system, and say how many trials without a "
            "duplicate would show it with 95% confidence.",
        ),
        Segment(
            6,
            "The exact case",
            "The lesson has no control for a certain fault: in a terminal, run the exact case "
            "below with records kept a day, then 30 days. Ask for the probability before each "
            "prints.",
            "Predict the exact answer at a day (what share of replays come later than the "
            "median?), then check that the estimate's interval holds it.",
        ),
        Segment(
            6,
            "Check",
            "Pose the check for understanding: its 20,000 trials and 30 days are the lesson's "
            "most trials and longest retention.",
            f"Answer alone; then set the lesson to the check's case (20,000 trials, retention "
            f"`{MONTH}`) and read the interval's upper end.",
        ),
    ),
    reveals=(
        Reveal(
            "the first trials",
            (
                "Operators replay a day late, typically. Which real default keeps the "
                "duplicate risk below 1 in 10,000?",
                "With records kept a day, how many of 4,000 trials will debit twice?",
            ),
            (FIRST,),
        ),
        Reveal(
            "twenty thousand trials",
            (
                "Five times the trials: will the interval narrow?",
                "Will the retention the target requires stay where it was?",
            ),
            (_REQUIRED, _MORE_TRIALS),
        ),
        Reveal(
            "a narrower and a wider spread of replays",
            (
                "Same median, but every replay exactly a day late (a spread of 0): how long "
                "must records live?",
                "And with a spread of 2?",
            ),
            (_EVEN, _SPREAD, _WIDE),
        ),
        Reveal(
            "replays a week late, with records kept 30 days",
            (
                "How many of 4,000 trials will debit twice?",
                "May you then say the risk is below 1 in 10,000? And after 20,000 trials?",
            ),
            (NONE_SEEN, _SOME_SEEN),
        ),
        Reveal(
            "the exact case",
            (
                "One certain crash after the debit, a single delivery, no other failure, "
                "replays a day late at the median, records kept a day: how likely is a second "
                "debit?",
                "And with records kept 30 days?",
            ),
            (EXACT_DAY, _EXACT_MONTH),
        ),
    ),
    misconceptions=(
        Misconception(
            "No duplicate in 4,000 trials means no risk.",
            "Seeing nothing in n trials bounds the risk; it does not rule it out. The 95% "
            "interval still reaches about 3.84 / n: about 9.6 in 10,000 after 4,000 trials, "
            "nearly ten times the target, and showing a risk below 1 in 10,000 takes 38,411 "
            "trials without a duplicate. With replays a week late and records kept 30 days, "
            "4,000 trials see none, and 20,000 see enough to put the whole interval above the "
            "target. The lesson's verdict on a prediction reads estimates, not intervals: at "
            "its opening it says Temporal Cloud's 30 days keep the risk below the target from "
            "no duplicate in 4,000 trials, which 4,000 trials cannot show. The exact case "
            "shows what can hide there: 4,000 trials see no duplicate at 30 days, while the "
            "exact risk is more than three times the target.",
            (NONE_SEEN, _SOME_SEEN, FIRST, _EXACT_MONTH),
        ),
        Misconception(
            "The typical replay delay decides how long records must live.",
            "The tail decides. With the median held at a day, records must live about a day "
            "when every replay comes exactly a day late, most of a week with the lesson's "
            "spread, and longer than the 30 days the retention field accepts with a spread of "
            "2: a retention must outlast the few replays that come days after the typical "
            "one. Hold the figures loosely: each rests on the latest duplicates the trials "
            "happened to draw, and 20,000 trials already ask for more than 4,000 did.",
            (_EVEN, _SPREAD, _WIDE, _REQUIRED),
        ),
        Misconception(
            "One default retention fits every system.",
            "Which default is enough depends on when operators replay. With replays an hour "
            "late at the median, Powertools' hour is not enough and Stripe's day is, by the "
            "estimate; a day late, only Temporal Cloud's 30 days; a week late, not even that. "
            "In the lesson's runs a longer retention never raises the duplicate risk, but it "
            f"is not free: in {lesson_ref(ContractDemo.lesson)}, with a key that omits the "
            "tenant, another tenant receives tenant-a's result for as long as the record "
            "lives, and is correctly applied once it has expired. Choose the retention from "
            "your own replay habits, with the lesson's curve.",
            (_HOURLY, _DAILY, _WEEKLY, _LEAKING, _LEAK_OVER),
        ),
        Misconception(
            "A simulated risk is only a guess: nothing can check it.",
            "Where the model has an exact answer, the risk wing computes it from the same draw "
            "rules as the trials, and the estimate's interval must hold it. With one certain "
            "crash after the debit, a single delivery and no other failure, the run debits "
            "twice exactly when the operator's replay comes at least a retention after the "
            "debit. With records kept a day and replays a day late at the median, that is one "
            "half; with three days, the chance a standard normal exceeds ln 3, about 0.136. "
            f"{lesson_name(RiskDemo.lesson)} has no control for a certain fault: run the exact "
            "cases in a terminal.",
            (EXACT_DAY, _EXACT_THREE_DAYS),
        ),
    ),
    check=questions.RECORDS_QUESTION,
)
