"""Fault points in the worker's timeline, the named faults of the lab, and fault plans.

A fault plan is data: a set of (delivery attempt, fault point) injections. The runtimes ask the
plan at each point they pass; they never branch on which named fault was chosen. So a new fault,
more injections, or an exhaustive enumeration of plans needs no change to the runtimes.
"""

from enum import StrEnum
from typing import Final

from pydantic import BaseModel, ConfigDict, Field, field_validator


class FaultPoint(StrEnum):
    """A named point on the dispatch path of one delivery, in timeline order.

    The worker passes them in this order on each dispatch: it decides to dispatch
    (``before-dispatch``), sends the request (``request``), the receiver applies the debit, the
    reply travels back (``response``), the worker holds the outcome (``after-effect``), records it
    (``after-record``) and finally acknowledges the delivery.
    """

    BEFORE_DISPATCH = "before-dispatch"
    REQUEST = "request"
    RESPONSE = "response"
    AFTER_EFFECT = "after-effect"
    AFTER_RECORD = "after-record"


class Failure(StrEnum):
    """What an injection at a point does."""

    CRASH = "crash"
    """The worker process dies: its memory is gone and the delivery is not acknowledged."""
    MESSAGE_LOST = "message-lost"
    """A message between worker and receiver is lost; the worker observes a timeout."""


# Which failure each point injects. Network points lose a message; the others crash the worker.
FAILURE_AT: Final[dict[FaultPoint, Failure]] = {
    FaultPoint.BEFORE_DISPATCH: Failure.CRASH,
    FaultPoint.REQUEST: Failure.MESSAGE_LOST,
    FaultPoint.RESPONSE: Failure.MESSAGE_LOST,
    FaultPoint.AFTER_EFFECT: Failure.CRASH,
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


FAULT_DESCRIPTIONS: Final[dict[Fault, str]] = {
    Fault.NONE: "No fault: the first delivery runs to completion.",
    Fault.CRASH_BEFORE_DISPATCH: (
        "The worker crashes before it dispatches anything "
        "(in durable mode, before the dispatch intent is written)."
    ),
    Fault.REQUEST_LOST: "The call never reaches the receiver; the worker sees a timeout.",
    Fault.CRASH_AFTER_EFFECT: (
        "The receiver applies the debit; the worker crashes before it records the result."
    ),
    Fault.RESPONSE_LOST: (
        "The receiver applies the debit but the reply is lost; the worker sees a timeout."
    ),
    Fault.CRASH_AFTER_RECORD: (
        "The result is recorded, but the worker crashes before acknowledging the delivery, "
        "so the operation is redelivered."
    ),
}
"""One sentence per named fault, for lessons, reviews and help text."""


# Where each named fault strikes. ``none`` strikes nowhere.
FAULT_POINT: Final[dict[Fault, FaultPoint | None]] = {
    Fault.NONE: None,
    Fault.CRASH_BEFORE_DISPATCH: FaultPoint.BEFORE_DISPATCH,
    Fault.REQUEST_LOST: FaultPoint.REQUEST,
    Fault.CRASH_AFTER_EFFECT: FaultPoint.AFTER_EFFECT,
    Fault.RESPONSE_LOST: FaultPoint.RESPONSE,
    Fault.CRASH_AFTER_RECORD: FaultPoint.AFTER_RECORD,
}


class Injection(BaseModel):
    """One failure at one point of one delivery attempt.

    An injection fires the first time its attempt reaches its point, and only then: a retried
    call later in the same attempt passes the point unharmed.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    attempt: int = Field(ge=1)
    point: FaultPoint

    @property
    def failure(self) -> Failure:
        return FAILURE_AT[self.point]


class FaultPlan(BaseModel):
    """The injections of one run, kept sorted so equal plans are equal values."""

    model_config = ConfigDict(frozen=True, extra="forbid")

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
