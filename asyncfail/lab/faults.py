"""Fault points in the worker's timeline, the named faults of the lab, and fault plans.

A fault plan is data: a set of (delivery attempt, fault point) injections. The runtimes ask the
plan at each point they pass; they never branch on which named fault was chosen. So a new fault,
more injections, or an exhaustive enumeration of plans needs no change to the runtimes.
"""

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from pydantic import BaseModel, Field, field_validator

from asyncfail.ground.frozen import FROZEN
from asyncfail.ground.prose import capitalised, echoed


class FaultPoint(StrEnum):
    """A named point on the dispatch path of one delivery, in the order a first delivery
    passes them.

    The worker decides to dispatch (``before-dispatch``); the durable runtime writes its
    dispatch intent to its journal (``journal-write``); the request travels (``request``); the
    receiver applies the debit and, for a keyed request, writes its idempotency record
    (``receiver-before-record``, between the two); the reply travels back (``response``); after
    a timeout, or on a redelivery, the durable runtime looks the key up (``lookup``); the worker
    holds the outcome (``after-effect``), records it (``after-record``) and finally acknowledges
    the delivery. A point a runtime never passes (the naive loop writes no journal and looks
    nothing up) is never struck there.
    """

    BEFORE_DISPATCH = "before-dispatch"
    PAUSE_BEFORE_DISPATCH = "pause-before-dispatch"
    JOURNAL_WRITE = "journal-write"
    REQUEST = "request"
    PAUSE_IN_REQUEST = "pause-in-request"
    RECEIVER_BEFORE_RECORD = "receiver-before-record"
    RESPONSE = "response"
    LOOKUP = "lookup"
    AFTER_EFFECT = "after-effect"
    PAUSE_AFTER_EFFECT = "pause-after-effect"
    AFTER_RECORD = "after-record"


class Failure(StrEnum):
    """What an injection at a point does."""

    CRASH = "crash"
    """The worker process dies: its memory is gone and the delivery is not acknowledged."""
    MESSAGE_LOST = "message-lost"
    """A message between worker and receiver is lost; the worker observes a timeout."""
    RECEIVER_CRASH = "receiver-crash"
    """The receiver crashes mid-request: what it had not committed is lost, the connection
    drops, and the worker observes a timeout."""
    JOURNAL_UNAVAILABLE = "journal-unavailable"
    """The runtime's journal cannot be written this once (a storage outage, injected)."""
    LOOKUP_FAILED = "lookup-failed"
    """The lookup service does not answer this lookup (a lookup outage, injected)."""
    PAUSE = "pause"
    """The worker (or its request) stalls for the ``pause`` setting, then carries on unaware: a
    GC pause, a stalled network call. Nothing is lost; time passes. A request stalled longer
    than the ``client_timeout`` setting times out for its worker meanwhile."""


# Which failure each point injects. Network points lose a message, the receiver's point crashes
# the receiver, the journal and lookup points are one-off outages, the others crash the worker.
FAILURE_AT: Final[dict[FaultPoint, Failure]] = {
    FaultPoint.BEFORE_DISPATCH: Failure.CRASH,
    FaultPoint.PAUSE_BEFORE_DISPATCH: Failure.PAUSE,
    FaultPoint.JOURNAL_WRITE: Failure.JOURNAL_UNAVAILABLE,
    FaultPoint.REQUEST: Failure.MESSAGE_LOST,
    FaultPoint.PAUSE_IN_REQUEST: Failure.PAUSE,
    FaultPoint.RECEIVER_BEFORE_RECORD: Failure.RECEIVER_CRASH,
    FaultPoint.RESPONSE: Failure.MESSAGE_LOST,
    FaultPoint.LOOKUP: Failure.LOOKUP_FAILED,
    FaultPoint.AFTER_EFFECT: Failure.CRASH,
    FaultPoint.PAUSE_AFTER_EFFECT: Failure.PAUSE,
    FaultPoint.AFTER_RECORD: Failure.CRASH,
}


class Fault(StrEnum):
    """The lab's named faults; each is injected once, into the first delivery."""

    NONE = "none"
    CRASH_BEFORE_DISPATCH = "crash-before-dispatch"
    REQUEST_LOST = "request-lost"
    CRASH_AFTER_EFFECT = "crash-after-effect"
    RESPONSE_LOST = "response-lost"
    CRASH_AFTER_RECORD = "crash-after-record"
    RECEIVER_CRASH_BEFORE_RECORD = "receiver-crash-before-record"


@dataclass(frozen=True, slots=True)
class PointProse:
    """How the course words an injection at one fault point, written once for every document."""

    clause: str
    """The injection as a clause: "the worker crashes before it records the result"."""
    place: str
    """Where on the dispatch path it strikes: "before the result is recorded"."""
    name: str
    """What the injected failure is called: "crash", "request loss", "reply loss"."""
    detail: str = ""
    """A sentence that completes the fault's description, or nothing."""


POINT_PROSE: Final[dict[FaultPoint, PointProse]] = {
    FaultPoint.BEFORE_DISPATCH: PointProse(
        "the worker crashes before it dispatches the call",
        "before the call is dispatched",
        "crash",
        "In durable mode it dies before the dispatch intent is written.",
    ),
    FaultPoint.REQUEST: PointProse(
        "the request is lost on its way to the receiver, and the worker sees a timeout",
        "on the request's way to the receiver",
        "request loss",
    ),
    FaultPoint.RESPONSE: PointProse(
        "the reply is lost on its way back, and the worker sees a timeout",
        "on the reply's way back to the worker",
        "reply loss",
        "The receiver has already applied the debit.",
    ),
    FaultPoint.AFTER_EFFECT: PointProse(
        "the worker crashes before it records the result",
        "before the result is recorded",
        "crash",
        "The receiver has already applied the debit.",
    ),
    FaultPoint.RECEIVER_BEFORE_RECORD: PointProse(
        "the receiver crashes after writing the debit and before writing its idempotency "
        "record, and the worker sees a timeout",
        "at the receiver, between the debit and its idempotency record",
        "receiver crash",
        "With an atomic record the debit never commits; with a separate one it does, without "
        "its record. A request without a key writes no record, so this never strikes it.",
    ),
    FaultPoint.JOURNAL_WRITE: PointProse(
        "the runtime's journal cannot be written when it records the dispatch intent",
        "at the journal, as the dispatch intent is written",
        "journal outage",
        "What the runtime does next is its store-outage policy.",
    ),
    FaultPoint.LOOKUP: PointProse(
        "the lookup service does not answer a lookup by operation key",
        "at the lookup service",
        "lookup outage",
        "What the runtime does next is its lookup-outage policy.",
    ),
    FaultPoint.PAUSE_BEFORE_DISPATCH: PointProse(
        "the worker stalls just before it dispatches the call",
        "just before the call is dispatched",
        "pause",
        "If its lease runs out meanwhile, a second worker may take the operation over.",
    ),
    FaultPoint.PAUSE_IN_REQUEST: PointProse(
        "the request stalls at the receiver after it was taken and before the debit commits",
        "at the receiver, while the request executes",
        "pause",
        "Any check the worker made before sending is already behind it.",
    ),
    FaultPoint.PAUSE_AFTER_EFFECT: PointProse(
        "the worker stalls holding the reply, before it records the result",
        "after the debit, before the result is recorded",
        "pause",
        "The receiver has already applied the debit.",
    ),
    FaultPoint.AFTER_RECORD: PointProse(
        "the worker crashes after it records the result, before it acknowledges the delivery",
        "after the result is recorded, before the delivery is acknowledged",
        "crash",
        "The operation is redelivered.",
    ),
}
"""The words for an injection at each point; the review's sentences and the faults'
descriptions are built from these and nothing else."""

NO_FAULT_DESCRIPTION: Final = "No fault: the first delivery runs to completion."


# Where each named fault strikes. ``none`` strikes nowhere.
FAULT_POINT: Final[dict[Fault, FaultPoint | None]] = {
    Fault.NONE: None,
    Fault.CRASH_BEFORE_DISPATCH: FaultPoint.BEFORE_DISPATCH,
    Fault.REQUEST_LOST: FaultPoint.REQUEST,
    Fault.CRASH_AFTER_EFFECT: FaultPoint.AFTER_EFFECT,
    Fault.RESPONSE_LOST: FaultPoint.RESPONSE,
    Fault.CRASH_AFTER_RECORD: FaultPoint.AFTER_RECORD,
    Fault.RECEIVER_CRASH_BEFORE_RECORD: FaultPoint.RECEIVER_BEFORE_RECORD,
}


def describe_fault(fault: Fault) -> str:
    """One or two sentences on a named fault, for lessons and help text: its point's clause,
    capitalised, then the point's detail."""
    point = FAULT_POINT[fault]
    if point is None:
        return NO_FAULT_DESCRIPTION
    prose = POINT_PROSE[point]
    return " ".join(filter(None, (f"{capitalised(prose.clause)}.", prose.detail)))


class Injection(BaseModel):
    """One failure at one point of one delivery attempt.

    An injection fires the first time its attempt reaches its point, and only then: a retried
    call later in the same attempt passes the point unharmed.
    """

    model_config = FROZEN

    attempt: int = Field(ge=1)
    point: FaultPoint

    @property
    def failure(self) -> Failure:
        return FAILURE_AT[self.point]


class FaultPlan(BaseModel):
    """The injections of one run, kept sorted so equal plans are equal values."""

    model_config = FROZEN

    injections: tuple[Injection, ...] = ()

    @field_validator("injections")
    @classmethod
    def _sorted_and_unique(cls, injections: tuple[Injection, ...]) -> tuple[Injection, ...]:
        # However a plan is built, equal plans compare equal: by attempt, then timeline order.
        order = list(FaultPoint)
        unique = {(i.attempt, i.point): i for i in injections}
        return tuple(unique[k] for k in sorted(unique, key=lambda k: (k[0], order.index(k[1]))))

    @classmethod
    def of(cls, *injections: Injection) -> "FaultPlan":
        return cls(injections=injections)

    @classmethod
    def for_fault(cls, fault: Fault) -> "FaultPlan":
        """The plan of a named fault: one injection into the first delivery, or none."""
        point = FAULT_POINT[fault]
        return cls() if point is None else cls.of(Injection(attempt=1, point=point))

    def fires(self, attempt: int, point: FaultPoint) -> bool:
        """Whether this plan injects a failure at ``point`` during delivery ``attempt``."""
        return any(i.attempt == attempt and i.point is point for i in self.injections)


MAX_ATTEMPT: Final = 10
"""The last delivery attempt any plan may name: the largest delivery budget
(``scenario.MAX_DELIVERIES``, 9) and an operator's replay after it. A plan's own budget may
allow fewer (``Scenario`` checks); the parser refuses what no budget allows."""

MAX_INJECTIONS: Final = MAX_ATTEMPT * len(FaultPoint)
"""The most injections a plan can hold: each point of each attempt, once (110)."""

MAX_PLAN_TEXT: Final = 4000
"""The longest plan text read, in characters: the largest plan written out
(``plan_text`` of every injection, 1,840 characters) with room for spaces around its items. A
longer text is refused before it is read."""

PLAN_ACCEPTED: Final = (
    "a comma-separated list of ATTEMPT:POINT injections such as 1:after-effect,2:lookup (ATTEMPT "
    f"a delivery attempt from 1 to {MAX_ATTEMPT}, POINT one of "
    + ", ".join(p.value for p in FaultPoint)
    + f"), each at most once ({MAX_INJECTIONS} at most, {MAX_PLAN_TEXT:,} characters at most), "
    "or none"
)
"""What ``parse_plan`` accepts, for every message that refuses a plan."""

NO_PLAN: Final = "none"
"""A plan without injections, as text."""


def injection_text(injection: Injection) -> str:
    """One injection as a plan's text writes it: ``2:lookup``."""
    return f"{injection.attempt}:{injection.point.value}"


def plan_text(plan: FaultPlan) -> str:
    """A plan as ``--plan`` takes it, in the plan's order: ``1:after-effect,2:lookup``, or
    ``none``."""
    return ",".join(injection_text(i) for i in plan.injections) or NO_PLAN


_POINTS: Final = {p.value: p for p in FaultPoint}


def _attempt(text: str) -> int | None:
    """``text`` as a delivery attempt from 1 to ``MAX_ATTEMPT``, or None. Its digits are
    counted before ``int`` reads them: a huge number is refused as one, never converted."""
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > len(str(MAX_ATTEMPT)):
        return None
    attempt = int(text)
    return attempt if 1 <= attempt <= MAX_ATTEMPT else None


def parse_plan(text: str) -> FaultPlan:
    """Read a plan written as ``plan_text`` writes it (spaces around items are ignored), in
    time linear in its length.

    Raises ValueError for a text longer than ``MAX_PLAN_TEXT`` or of more items than
    ``MAX_INJECTIONS`` (both refused before any item is read), else naming the first item
    that cannot be read: not ``ATTEMPT:POINT``, an attempt that is not a whole number from 1
    to ``MAX_ATTEMPT``, an unknown point, or an injection given twice.
    """
    if len(text) > MAX_PLAN_TEXT:
        raise ValueError(
            f"a plan of {len(text):,} characters is too long ({MAX_PLAN_TEXT:,} at most)"
        )
    if text.strip() in {"", NO_PLAN}:
        return FaultPlan()
    if (items := text.count(",") + 1) > MAX_INJECTIONS:
        raise ValueError(
            f"a plan of {items:,} items is more than any plan can hold ({MAX_INJECTIONS}: each "
            f"point of each of {MAX_ATTEMPT} attempts once)"
        )
    injections: dict[tuple[int, FaultPoint], Injection] = {}
    for item in (part.strip() for part in text.split(",")):
        digits, colon, name = item.partition(":")
        if not colon:
            raise ValueError(f"{echoed(item)} is not ATTEMPT:POINT")
        attempt = _attempt(digits)
        if attempt is None:
            raise ValueError(
                f"{echoed(digits)} is not a delivery attempt (a whole number from 1 to "
                f"{MAX_ATTEMPT})"
            )
        point = _POINTS.get(name)
        if point is None:
            raise ValueError(f"{echoed(name)} is not a fault point")
        if (attempt, point) in injections:
            raise ValueError(f"{echoed(item)} is given twice")
        injections[attempt, point] = Injection(attempt=attempt, point=point)
    return FaultPlan(injections=tuple(injections.values()))
