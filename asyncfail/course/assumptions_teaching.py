"""Break the assumptions in class: its plan, its reveals and its misconceptions.

The guide's own words (``course.teaching`` says what they are and the rules they follow). Every
demo starts from one of the lesson's starting points (``assumptions_lesson.STARTS``), named by
the number of the assumption it breaks; the demos other lessons' plans point to are named here.
"""

from typing import Final

from asyncfail.course import questions
from asyncfail.course.assumptions_lesson import PLAN_LABEL, STARTS, TABLE_HEADER, start_label
from asyncfail.course.contract_teaching import KEY_PER_ATTEMPT
from asyncfail.course.demos import LabDemo, control_name
from asyncfail.course.setting_demos import SettingsDemo, TimeTraceDemo
from asyncfail.course.teaching import (
    LessonPlan,
    Misconception,
    Reveal,
    Segment,
    lesson_name,
    lesson_ref,
)
from asyncfail.ground.prose import number_word, quoted
from asyncfail.ground.seed import ASSUMPTIONS
from asyncfail.lab.assumptions import (
    LOOKUP_AND_STORE,
    NOT_MODELED,
    RETAINED_ATOMIC,
    SINGLE_FAULT,
    STABLE_KEY,
)
from asyncfail.lab.scenario import Mode, option, option_value


def _start(assumption: int) -> str:
    """A starting point as the lesson's dropdown names it, quoted."""
    return quoted(next(start_label(d) for d in STARTS if d.assumption == assumption))


def _set(name: str, value: str) -> str:
    """A control set to a value, as the guide's text writes it: ``--key`` to ``stable``."""
    return f"`{option(name)}` to `{value}`"


_OPENING: Final = next(d.scenario for d in STARTS if d.assumption == NOT_MODELED)
KEPT: Final = option_value(_OPENING.settings.retention)
"""The opening point's retention, in seconds as the lesson's field shows it."""
APART: Final = option_value(_OPENING.settings.redelivery_delay)
"""The opening point's redelivery delay, in seconds."""
SOONER: Final = "30"
"""A redelivery delay shorter than the opening point's retention, in seconds."""

EXPIRING: Final = SettingsDemo(NOT_MODELED)
"""The lesson's opening point: a record kept exactly as long as the redelivery takes."""
EXPIRING_SOONER: Final = SettingsDemo(NOT_MODELED, (("redelivery_delay", SOONER),))
"""The same record, with the redelivery coming before it expires."""
EXPIRING_AT_ONCE: Final = SettingsDemo(NOT_MODELED, (("redelivery_delay", "0"),))
"""The same record, with the redelivery coming at once."""
_EXPIRING_RESTORED: Final = SettingsDemo(NOT_MODELED, restore=True)
_EXPIRING_LENIENT: Final = SettingsDemo(NOT_MODELED, (("boundary", "retained-at-boundary"),))
_EXPIRING_DEDUPE: Final = SettingsDemo(NOT_MODELED, (("receiver", "dedupe"),))

NEW_KEY: Final = SettingsDemo(STABLE_KEY)
"""A new operation key on every delivery attempt."""
_NEW_KEY_RESTORED: Final = SettingsDemo(STABLE_KEY, restore=True)
_NEW_KEY_DEDUPE: Final = SettingsDemo(STABLE_KEY, (("receiver", "dedupe"),))

_SEPARATE: Final = SettingsDemo(RETAINED_ATOMIC, restore=True)
_ATOMIC: Final = SettingsDemo(RETAINED_ATOMIC, (("record", "atomic"),))
_SEPARATE_DEDUPE: Final = SettingsDemo(RETAINED_ATOMIC, (("receiver", "dedupe"),))

_FAIL_OPEN: Final = SettingsDemo(LOOKUP_AND_STORE, restore=True)
_FAIL_CLOSED: Final = SettingsDemo(LOOKUP_AND_STORE, (("on_lookup_outage", "fail-closed"),))
_FAIL_OPEN_DEDUPE: Final = SettingsDemo(LOOKUP_AND_STORE, (("receiver", "dedupe"),))
SPENT: Final = SettingsDemo(SINGLE_FAULT, restore=True)
"""A plan that crashes every delivery before dispatch."""
_SPENT_ONE_MORE: Final = SettingsDemo(SINGLE_FAULT, (("deliveries", "4"),))

_STORE_OPEN: Final = SettingsDemo(None, (("store", "outage"), ("on_store_outage", "fail-open")))
_STORE_CLOSED: Final = SettingsDemo(None, (("store", "outage"),))

PLAN: Final = LessonPlan(
    stem=SettingsDemo.lesson,
    segments=(
        Segment(
            5,
            "Open",
            f"Recall how {lesson_ref(LabDemo.lesson)} ended: the durable runtime recovered by "
            f"operation key. Read the lesson's {number_word(len(ASSUMPTIONS))} assumptions "
            f"aloud from its table, with the columns {quoted(TABLE_HEADER[3])} and "
            f"{quoted(TABLE_HEADER[4])} off the projector: they give every answer away.",
            "For each assumption, write down how breaking it could lead to a second debit, or "
            "to none at all.",
        ),
        Segment(
            9,
            "A record with an end date",
            f"The lesson opens on {_start(NOT_MODELED)}. Ask for each runtime's debits, let "
            "learners commit, then read the traces against time. The lesson asks for a guess "
            "once per starting point and shows every later change at once, so ask the room "
            f"before each change: {_set('redelivery_delay', SOONER)}, then to `0`; then, with "
            f"the delay back at `{APART}`, {_set('boundary', 'retained-at-boundary')}.",
            "Predict, then find on the receiver's lane where the record's band ends and when "
            "the second delivery comes.",
        ),
        Segment(
            7,
            "A new key every time",
            f"Start from {_start(STABLE_KEY)}. Ask whether the durable runtime's lookup will "
            f"find the first debit; then set {_set('receiver', 'dedupe')} and ask again.",
            "Say what the key must be built from for the lookup to find the debit.",
        ),
        Segment(
            7,
            "Atomic or nothing",
            f"Start from {_start(RETAINED_ATOMIC)}. Ask which runtime will debit twice before "
            f"the reveal; then set {_set('record', 'atomic')}.",
            "Explain why the naive loop is safe here and the durable runtime is not.",
        ),
        Segment(
            8,
            "Fail open or fail closed",
            f"Start from {_start(LOOKUP_AND_STORE)}. After the reveal, set "
            f"{_set('on_lookup_outage', 'fail-closed')}; then back to `fail-open`, with "
            f"{_set('receiver', 'dedupe')}.",
            "Decide, for a payment they know, whether they would rather park it or risk a "
            "second debit, and who would find out which it was.",
        ),
        Segment(
            4,
            "Every delivery spent",
            f"Start from {_start(SINGLE_FAULT)}: a fault plan, in the field "
            f"{quoted(control_name(PLAN_LABEL))}, not a setting. Ask how many debits each "
            "runtime makes and whether that is a success; then raise the delivery budget by "
            "one.",
            "Say what a run without a second debit does not prove.",
        ),
        Segment(
            4,
            "What restores it",
            "Show the table's last two columns now, and the callout of single changes that "
            "restore the promise. Ask why a deduplicating receiver restores it when lookups are "
            "down, but not when the record has expired.",
            "In pairs, pick one broken assumption and the change they would make in a real "
            "system, with its cost.",
        ),
        Segment(
            6,
            "Check",
            "Pose the check for understanding: its settings are the lesson's opening point.",
            "Answer alone, then try each option's change in the lesson with a neighbour.",
        ),
    ),
    reveals=(
        Reveal(
            "the runs of a record that expires",
            (
                f"Records are kept {KEPT} seconds, and the redelivery comes {APART} seconds "
                "after the crash. How many debits will each runtime make?",
                "Will the durable runtime's lookup find the first debit?",
            ),
            (EXPIRING, TimeTraceDemo(EXPIRING, Mode.DURABLE, 2)),
        ),
        Reveal(
            "a sooner redelivery, and one at once",
            (
                f"The redelivery now comes {SOONER} seconds after the crash. Which runtime's "
                "count changes?",
                "And at 0 seconds: does retrying at once save the naive loop?",
            ),
            (EXPIRING_SOONER, EXPIRING_AT_ONCE),
        ),
        Reveal(
            "the other boundary convention",
            (
                "The receiver now counts a record at exactly its expiry, with the redelivery "
                f"back at {APART} seconds. What changes?",
            ),
            (_EXPIRING_LENIENT,),
        ),
        Reveal(
            "a new key on every delivery",
            (
                "Will the durable runtime's lookup find the first debit?",
                "Will a receiver that deduplicates by key save it?",
            ),
            (TimeTraceDemo(NEW_KEY, Mode.DURABLE, 2), NEW_KEY, _NEW_KEY_DEDUPE),
        ),
        Reveal(
            "a record written apart from its debit",
            (
                "The receiver crashes after the debit and before its idempotency record. Which "
                "runtime debits twice?",
                "In how many delivery attempts?",
            ),
            (_SEPARATE, TimeTraceDemo(_SEPARATE, Mode.DURABLE, 1), _ATOMIC),
        ),
        Reveal(
            "a lookup service that is down",
            (
                "The runtime fails open: how many debits?",
                "Failing closed: how many debits, and what will the status say?",
                "Which receiver setting saves the runtime that fails open?",
            ),
            (_FAIL_OPEN, _FAIL_CLOSED, _FAIL_OPEN_DEDUPE),
        ),
        Reveal(
            "a crash before dispatch on every delivery",
            (
                "Every delivery crashes before the dispatch. How many debits will each runtime "
                "make?",
                "What will the status say, and is the promise kept?",
            ),
            (SPENT, _SPENT_ONE_MORE),
        ),
    ),
    misconceptions=(
        Misconception(
            "An idempotency key makes retries safe forever.",
            "A key is only as good as the record it finds, and records expire. At the lesson's "
            f"opening point, records kept {KEPT} seconds and a redelivery {APART} seconds "
            "after the crash, the durable runtime's lookup finds the record just expired under "
            "the seed's boundary convention, and it debits again. A deduplicating receiver "
            "cannot save it: it needs that same record. Records must outlive the last "
            "redelivery the channel can make, strictly under the seed's convention, or the "
            "receiver must count a record at exactly its expiry.",
            (_EXPIRING_RESTORED, _EXPIRING_DEDUPE, _EXPIRING_LENIENT),
        ),
        Misconception(
            "A durable runtime means exactly-once.",
            "Its promise rests on a key that names the operation, not the delivery. With a key "
            "per delivery attempt, the lookup at the second delivery asks for a key that was "
            "never stored, finds nothing, and the runtime calls the tool again: two debits, "
            "with a deduplicating receiver too, since every request carries a new key. Only a "
            "stable key restores the promise: Temporal recommends a key built from the workflow "
            "run id and the activity id, which stay the same across retries. "
            f"{lesson_name(KEY_PER_ATTEMPT.lesson)} shows the same mistake at the receiver.",
            (_NEW_KEY_RESTORED, _NEW_KEY_DEDUPE, KEY_PER_ATTEMPT),
        ),
        Misconception(
            "If the lookup service is down, retrying is the safe choice.",
            "Calling again without an answer is failing open: the runtime does not know whether "
            "the debit happened, and a receiver that only looks keys up applies it twice. "
            "Failing closed parks the operation: one debit, but its outcome stays unknown until "
            "an operator checks (safe, not live). A receiver that deduplicates by a retained "
            "key answers the repeated request from its record: one debit. The same trade holds "
            "when the journal cannot be written during the first delivery: failing open "
            "dispatches without a recorded intent and debits twice after the crash, failing "
            "closed releases the delivery and the next one debits once.",
            (_FAIL_OPEN, _FAIL_CLOSED, _FAIL_OPEN_DEDUPE, _STORE_OPEN, _STORE_CLOSED),
        ),
        Misconception(
            "Writing the idempotency record right after the debit is as good as writing it in "
            "the same transaction.",
            "Not when the receiver crashes between the two. With a separate record the debit "
            "stays and its record is lost, so the durable runtime's lookup after the timeout "
            "finds nothing and it debits again, within the same delivery attempt; a "
            "deduplicating receiver has no record to answer from either. In the same "
            "transaction the crash takes the debit with it, and the call after the lookup "
            "debits once. The naive loop debits once here: its requests carry no key, so the "
            "receiver writes no record and the crash never strikes.",
            (_SEPARATE, _SEPARATE_DEDUPE, _ATOMIC),
        ),
    ),
    check=questions.ASSUMPTIONS_QUESTION,
)
