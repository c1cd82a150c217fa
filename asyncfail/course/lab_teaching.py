"""The Async Failure Lab in class: its plan, its reveals and its misconceptions.

The guide's own words (``course.teaching`` says what they are and the rules they follow).
"""

from typing import Final

from asyncfail.course import questions
from asyncfail.course.assumptions_teaching import (
    APART,
    EXPIRING,
    EXPIRING_AT_ONCE,
    EXPIRING_SOONER,
    KEPT,
    NEW_KEY,
    SOONER,
)
from asyncfail.course.contract_teaching import KEY_PER_ATTEMPT_AT_ONCE
from asyncfail.course.demos import LabDemo, TraceDemo
from asyncfail.course.lab_lesson import COMMIT_LABEL, STEP_LABEL
from asyncfail.course.setting_demos import SettingsDemo
from asyncfail.course.teaching import LessonPlan, Misconception, Reveal, Segment, lesson_ref
from asyncfail.course.timed_demos import RiskDemo
from asyncfail.course.workers_teaching import STALLED, STALLED_DURABLE
from asyncfail.ground.prose import quoted
from asyncfail.lab.faults import Fault
from asyncfail.lab.scenario import Mode

_RESPONSE_LOST: Final = LabDemo(Fault.RESPONSE_LOST)

PLAN: Final = LessonPlan(
    stem=LabDemo.lesson,
    segments=(
        Segment(
            5,
            "Open",
            "Read the lesson's question aloud, with the fault on `crash-after-effect`. Define "
            "the two counts the lesson keeps apart: a delivery attempt (the operation reached a "
            "worker) and a business effect (the ledger was debited).",
            "Write down, alone, whether the next attempt should call the tool again, and why.",
        ),
        Segment(
            7,
            "Predict",
            "Ask how many debits each runtime will make; take a show of hands for each answer "
            "before anyone commits.",
            f"Enter a guess for each runtime and press {quoted(COMMIT_LABEL)}.",
        ),
        Segment(
            10,
            "Reveal and trace",
            f"Reveal the counts, then move the slider {quoted(STEP_LABEL)} through both traces, "
            "stopping at the crash and at the durable runtime's lookup.",
            "Say, at each event, which actor acted and whether the ledger changed.",
        ),
        Segment(
            12,
            "Fault by fault",
            "Switch the fault to `request-lost`, `response-lost` and `crash-after-record`. The "
            "form asks for a new guess after every switch: ask the room before each reveal.",
            "In pairs, fill in a table of attempts and effects per fault and runtime before each "
            "reveal, then correct it.",
        ),
        Segment(
            8,
            "Where the promise ends",
            "In a terminal, run the durable runtime with a single delivery (below), then connect "
            "the lesson to Temporal's documented case and to the assumptions the lesson lists, "
            f"which {lesson_ref(SettingsDemo.lesson)} breaks one at a time; "
            f"{lesson_ref(STALLED.lesson)} and {lesson_ref(RiskDemo.lesson)} model the "
            "concurrency and the timing distributions the last one leaves out.",
            "Name a step in a system they know that runs at least once, and what it would have "
            "to look up before running again.",
        ),
        Segment(
            8,
            "Check",
            "Pose the check for understanding; once everyone has answered, ask who chose each "
            "wrong option and why.",
            "Answer alone, then explain the answer to a neighbour.",
        ),
    ),
    reveals=(
        Reveal(
            "the counts for the seed's case",
            (
                "How many delivery attempts will each runtime make?",
                "How many debits will reach the ledger under each runtime?",
                "Will the durable runtime call the debit tool a second time?",
            ),
            (LabDemo(Fault.CRASH_AFTER_EFFECT),),
        ),
        Reveal(
            "the second delivery attempt in the traces",
            (
                "What does the durable runtime do first when the operation is delivered again?",
                "Which event keeps it from calling the tool again?",
            ),
            (
                TraceDemo(Fault.CRASH_AFTER_EFFECT, Mode.NAIVE, 2),
                TraceDemo(Fault.CRASH_AFTER_EFFECT, Mode.DURABLE, 2),
            ),
        ),
        Reveal(
            "`request-lost` and `response-lost`",
            (
                "From inside the worker both faults look the same: a timeout. Will either make "
                "the naive loop debit twice? Which one?",
                "How many delivery attempts will that take?",
            ),
            (LabDemo(Fault.REQUEST_LOST), _RESPONSE_LOST),
        ),
        Reveal(
            "`crash-after-record`",
            (
                "The naive worker held the result when it crashed. Will the naive loop debit "
                "again?",
                "On its second delivery, will the durable runtime look the key up, reuse a "
                "result, or call the tool?",
            ),
            (
                LabDemo(Fault.CRASH_AFTER_RECORD),
                TraceDemo(Fault.CRASH_AFTER_RECORD, Mode.DURABLE, 2),
            ),
        ),
    ),
    misconceptions=(
        Misconception(
            "A timeout means it failed.",
            "A timeout says only that no reply arrived, not which message was lost. Under "
            "`response-lost` the receiver applied the debit before the reply was lost: the "
            "naive loop treats the timeout as a failure and debits again, while the durable "
            "runtime treats it as unknown, looks the operation key up and finds the debit. "
            "Under `request-lost` the worker sees the same timeout, and there no debit has "
            "happened yet. Jepsen's Maelstrom calls such an error indefinite (it may have "
            "happened): a checker that treats it as failed is wrong.",
            (_RESPONSE_LOST, LabDemo(Fault.REQUEST_LOST)),
        ),
        Misconception(
            "Retries are safe if we retry fast.",
            "Speed is not what makes a retry safe; knowing the outcome is. Under "
            "`response-lost` the naive loop retries at once, within the same delivery attempt "
            "and at the same instant, and still debits twice; the durable runtime is safe "
            "because it looks the operation key up before calling again, not because it waits. "
            f"Time matters only against what the lookup needs: in {lesson_ref(EXPIRING.lesson)}, "
            f"with records kept {KEPT} seconds, a redelivery {APART} seconds after the crash "
            "finds the record expired and the durable runtime debits twice, while one "
            f"{SOONER} seconds after finds it; the naive loop debits twice at any delay, 0 "
            "included. In "
            f"{lesson_ref(KEY_PER_ATTEMPT_AT_ONCE.lesson)} a key per delivery attempt applies "
            "the same intent twice even when the second request arrives after 0 seconds.",
            (
                LabDemo(Fault.RESPONSE_LOST, modes=(Mode.NAIVE,)),
                EXPIRING,
                EXPIRING_SOONER,
                EXPIRING_AT_ONCE,
                KEY_PER_ATTEMPT_AT_ONCE,
            ),
        ),
        Misconception(
            "Two delivery attempts mean two debits.",
            "The lesson counts delivery attempts and business effects apart because they "
            "differ. Under `crash-after-effect` both runtimes make two delivery attempts and "
            "only the naive loop debits twice; under `response-lost` the naive loop debits "
            "twice in a single attempt. A count of retries does not count debits.",
            (LabDemo(Fault.CRASH_AFTER_EFFECT), LabDemo(Fault.RESPONSE_LOST, modes=(Mode.NAIVE,))),
        ),
        Misconception(
            "The worker had the result, so a crash after that is harmless.",
            "Memory is not a record. Under `crash-after-record` the naive worker held the "
            "result in process memory and lost it with the process: the operation is "
            "redelivered and the naive loop debits again. The durable runtime wrote the result "
            "to its store before the crash and reuses it on the next delivery without calling "
            "the tool.",
            (
                LabDemo(Fault.CRASH_AFTER_RECORD),
                TraceDemo(Fault.CRASH_AFTER_RECORD, Mode.DURABLE, 2),
            ),
        ),
        Misconception(
            "The durable runtime means exactly-once in every case.",
            "The durable runtime promises at most one debit, and only under the lesson's "
            "stated assumptions: among them a stable operation key, an idempotency record kept "
            "until the last redelivery, and a lookup that answers. With a single delivery, a "
            "crash after the debit leaves the outcome unknown (the debit happened, but nothing "
            "the runtime kept knows it), and a crash before dispatch leaves no debit at all. In "
            f"{lesson_ref(SettingsDemo.lesson)} these assumptions are settings: a key per "
            "delivery attempt, or a record that expires as the redelivery comes, makes the "
            "durable runtime debit twice. With a second worker, in "
            f"{lesson_ref(STALLED.lesson)}, no crash is needed at all: a worker that stalls past "
            "its lease is enough. Temporal documents this very case for its activities, which "
            "run at least once, and recommends an idempotency key that the called service "
            "enforces.",
            (
                LabDemo(Fault.CRASH_AFTER_EFFECT, deliveries=1, modes=(Mode.DURABLE,)),
                LabDemo(Fault.CRASH_BEFORE_DISPATCH, deliveries=1, modes=(Mode.DURABLE,)),
                NEW_KEY,
                EXPIRING,
                STALLED_DURABLE,
            ),
        ),
    ),
    check=questions.LAB_QUESTION,
)
