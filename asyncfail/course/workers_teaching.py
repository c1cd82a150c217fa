"""Two workers, one debit in class: its plan, its reveals and its misconceptions.

The guide's own words (``course.teaching`` says what they are and the rules they follow). Every
demo starts from the lesson's controls as they open (worker 1's request stalls 60 s, the lease
is 30 s, no safeguard) and names only what it sets otherwise; the demos other lessons' plans
point to are named here.
"""

from typing import Final

from asyncfail.course import questions
from asyncfail.course.demos import LabDemo, control_name
from asyncfail.course.teaching import (
    LessonPlan,
    Misconception,
    Reveal,
    Segment,
    lesson_ref,
)
from asyncfail.course.timed_demos import WorkersDemo, WorkersTraceDemo
from asyncfail.course.workers_lesson import (
    DEFAULT_STALL,
    EXPLORER_TITLE,
    LEASE_TEXT,
    PAUSE_TEXT,
    STALL_LABEL,
)
from asyncfail.ground.prose import quoted
from asyncfail.lab.faults import FaultPoint
from asyncfail.lab.scenario import Mode, option
from asyncfail.lab.settings import Claim, Fencing, ReceiverContract


def _set(name: str, value: str) -> str:
    """A control set to a value, as the guide's text writes it: ``--claim`` to ``lease``."""
    return f"`{option(name)}` to `{value}`"


SHORTER: Final = "20"
"""A stall shorter than the lease, in seconds."""
_LEASE: Final = str(LEASE_TEXT)
_BEFORE: Final = FaultPoint.PAUSE_BEFORE_DISPATCH.value
_CLAIM: Final = ("claim", Claim.LEASE.value)
_FENCING: Final = ("fencing", Fencing.TOKEN.value)
_DEDUPE: Final = ("receiver", ReceiverContract.DEDUPE.value)

STALLED: Final = WorkersDemo()
"""The lesson as it opens: worker 1's request stalls past its lease, and no safeguard."""
_STALLED_NAIVE: Final = WorkersDemo(modes=(Mode.NAIVE,))
STALLED_DURABLE: Final = WorkersDemo(modes=(Mode.DURABLE,))
"""The durable runtime alone, as the lesson opens: two debits without a crash."""
_SHORT: Final = WorkersDemo((("pause", SHORTER),))
_AS_LONG: Final = WorkersDemo((("pause", _LEASE),))
_CLAIMED: Final = WorkersDemo((_CLAIM,))
_CLAIMED_BEFORE: Final = WorkersDemo((_CLAIM, ("stall", _BEFORE)))
_FENCED: Final = WorkersDemo((_FENCING,))
_IN_PROGRESS: Final = WorkersDemo((_DEDUPE,))

_VERDICT_SHORT: Final = WorkersDemo((("pause", SHORTER),), explorer=True)
_VERDICT_CLAIM: Final = WorkersDemo((_CLAIM,), explorer=True)
_VERDICT_FENCING: Final = WorkersDemo((_FENCING,), explorer=True)
_VERDICT_BOTH: Final = WorkersDemo((_CLAIM, _FENCING), explorer=True)
_VERDICT_DEDUPE: Final = WorkersDemo((_DEDUPE,), explorer=True)
SEED_VERDICT: Final = WorkersDemo(explorer=True)
"""The explorer on the seed's durable runtime with two workers and no safeguard."""

_VERDICT: Final = quoted(EXPLORER_TITLE.removeprefix("## "))

PLAN: Final = LessonPlan(
    stem=WorkersDemo.lesson,
    segments=(
        Segment(
            5,
            "Open",
            f"Recall {lesson_ref(LabDemo.lesson)}: the operation came back only after a crash. "
            "Read the lesson's opening aloud: a worker that is slow, not dead, and a lease that "
            "runs out while it is still working.",
            "Write down what a worker does when it wakes from a long pause, and whether it "
            "knows its lease is gone.",
        ),
        Segment(
            8,
            "Predict",
            f"The lesson opens with {quoted(control_name(STALL_LABEL))} on `{DEFAULT_STALL}`, "
            f"a {PAUSE_TEXT}-second pause, a {LEASE_TEXT}-second lease and no safeguard. Ask "
            "for each runtime's debits, let learners commit, then read both workers' lanes. The "
            "lesson asks for a guess once and shows every later change at once, so ask the "
            "room before each change from here on.",
            "Predict, then find on the timeline where worker 1's lease ends, where its stall "
            "ends, and whose debit lands first.",
        ),
        Segment(
            5,
            "Slow or dead",
            f"Set {_set('pause', SHORTER)}, then to `{_LEASE}`, exactly the lease.",
            "Say what the stall must be compared with, and why exactly the lease is too long.",
        ),
        Segment(
            12,
            "The safeguards",
            f"Set {_set(*_CLAIM)}; then, with it, worker 1 stalls at `{_BEFORE}`. Back at "
            f"`{DEFAULT_STALL}` with no claim, set {_set(*_FENCING)}; then instead "
            f"{_set(*_DEDUPE)}.",
            "For each safeguard, say where its check happens: in the worker before it acts, or "
            "at the receiver where the debit happens.",
        ),
        Segment(
            8,
            "The explorer",
            f"With each safeguard set, ask whether any plan of up to two injections still "
            f"debits twice, then read {_VERDICT}. With fencing alone, replay its counterexample "
            "in a terminal and read its timeline.",
            "Read the two-stall counterexample: which request carries the older token, and "
            "which lands first.",
        ),
        Segment(
            6,
            "Real systems",
            "Connect the lesson to Martin Kleppmann's argument about leases and fencing "
            "tokens, and to the in-progress record the IETF draft and Stripe keep for a "
            "request still running.",
            "In pairs, pick a worker pool they know: what takes over a stalled worker's job, "
            "and which check stands where the effect happens?",
        ),
        Segment(
            6,
            "Check",
            "Pose the check for understanding: its run is the lesson's opening stall with a claim.",
            "Answer alone, then set each option in the lesson with a neighbour.",
        ),
    ),
    reveals=(
        Reveal(
            "the first two-worker runs",
            (
                f"Worker 1's request stalls for {PAUSE_TEXT} seconds; its lease holds "
                f"{LEASE_TEXT}. Nothing crashes and nothing is lost. How many debits under "
                "each runtime?",
                "On worker 2, will the durable runtime's lookup find the debit?",
            ),
            (STALLED, WorkersTraceDemo(STALLED, Mode.DURABLE)),
        ),
        Reveal(
            "a shorter stall, and one exactly as long as the lease",
            (
                f"The stall now lasts {SHORTER} seconds. How many debits?",
                f"And {_LEASE} seconds, exactly the lease?",
            ),
            (_SHORT, _AS_LONG),
        ),
        Reveal(
            "a claim with a lease",
            (
                "The durable runtime now claims the operation and checks its claim right "
                "before it dispatches. How many debits?",
                "And if worker 1 stalls before it dispatches instead?",
            ),
            (_CLAIMED, WorkersTraceDemo(_CLAIMED, Mode.DURABLE), _CLAIMED_BEFORE),
        ),
        Reveal(
            "fencing tokens, and a receiver that deduplicates",
            (
                "No claim check now, but every claim carries a fencing token the receiver "
                "checks. How many debits?",
                "Instead, a receiver that keeps an in-progress record: what does it answer "
                "worker 2, and in how many delivery attempts does the run end?",
            ),
            (_FENCED, _IN_PROGRESS, WorkersTraceDemo(_IN_PROGRESS, Mode.DURABLE)),
        ),
        Reveal(
            "the explorer's verdicts",
            (
                "With fencing tokens alone, can a plan of up to two injections still debit "
                "twice? How many stalls would it take?",
                "And with a claim and fencing tokens together? With a deduplicating receiver?",
            ),
            (_VERDICT_FENCING, _VERDICT_BOTH, _VERDICT_DEDUPE),
        ),
    ),
    misconceptions=(
        Misconception(
            "Once its lease runs out, a slow worker is as good as dead.",
            "The channel cannot tell slow from dead: all it sees is a lease running out, so it "
            "hands the operation to worker 2. Worker 1 was only stalled; when it resumes it "
            "carries on, unaware, and its request lands. Nothing crashed and no message was "
            "lost, yet the naive loop debits twice, and so does the durable runtime with no "
            "safeguard: worker 2's lookup finds nothing, because worker 1's debit has not "
            f"committed yet. A stall of {SHORTER} seconds, inside the {_LEASE}-second lease, "
            f"changes nothing; one of exactly {_LEASE} seconds already loses the lease, which "
            "holds only while less time has passed. Short stalls are no safeguard either: two "
            f"of {SHORTER} seconds in one delivery outlast the lease.",
            (
                _STALLED_NAIVE,
                WorkersTraceDemo(STALLED, Mode.NAIVE),
                _SHORT,
                _AS_LONG,
                _VERDICT_SHORT,
            ),
        ),
        Misconception(
            "A lease makes its holder the only worker acting.",
            "A lease is checked before the act, not during it: Martin Kleppmann's point about "
            "distributed locks. With a claim, the durable runtime checks it right before it "
            "dispatches. Worker 1's request stalls after that check: its claim runs out, "
            "worker 2 claims the operation, finds no debit and makes one, and then worker 1's "
            "request lands: two debits. The check stops only a worker that stalls before it: "
            "stalled before dispatch, worker 1 finds its claim gone when it resumes, and "
            "stops. The explorer's smallest counterexample with a claim is the lesson's own "
            "stall in the request.",
            (_CLAIMED, WorkersTraceDemo(_CLAIMED, Mode.DURABLE), _CLAIMED_BEFORE, _VERDICT_CLAIM),
        ),
        Misconception(
            "Fencing tokens make the debit idempotent.",
            "A fencing token orders writes; it does not deduplicate them. The receiver refuses "
            "a token older than the largest it has accepted, so worker 1's stalled request, "
            "landing after worker 2's, is fenced off. But when both workers stall before they "
            "dispatch and worker 1's older request lands first, worker 2's newer one is "
            "accepted too: the explorer's smallest counterexample with fencing alone is that "
            "plan of two stalls, and it debits twice. With a claim and fencing tokens together, "
            "or with a receiver that keeps an in-progress record, no plan of up to two "
            "injections debits twice.",
            (_FENCED, _VERDICT_FENCING, _VERDICT_BOTH, _VERDICT_DEDUPE),
        ),
        Misconception(
            "A 409 is an error.",
            "Here it is the safeguard at work. A deduplicating receiver holds an in-progress "
            "record for a key while its request executes; worker 2's request comes while "
            "worker 1's is still running, and the receiver answers 409, retry later, as the "
            "IETF draft and Stripe answer a request still in flight. Worker 2 releases its "
            "delivery; worker 1's debit commits and is recorded; the channel delivers again "
            "and the durable runtime reuses the recorded result. One debit in three delivery "
            "attempts, and the status says a concurrent request was told to retry later: "
            "nothing to page anyone about.",
            (_IN_PROGRESS, WorkersTraceDemo(_IN_PROGRESS, Mode.DURABLE)),
        ),
    ),
    check=questions.WORKERS_QUESTION,
)
