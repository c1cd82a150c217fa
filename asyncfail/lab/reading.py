"""Every rule that reads a trace: counts, outcome, status, and the facts a review words.

A trace is the whole evidence of a run; each figure and fact below is derived from it here and
nowhere else, so a count can never disagree with the events it counts, and the review handoff
only puts these facts into words.
"""

from collections.abc import Sequence
from enum import StrEnum
from typing import Final

from pydantic import BaseModel

from asyncfail.ground.frozen import FROZEN_LENIENT
from asyncfail.lab.events import LOOKUP_KINDS, TOOL_CALL_KINDS, Event, EventKind, has_kind

# ---------------------------------------------------------------------------------------------
# Figures


class Counts(BaseModel):
    """The four figures of a run (definitions in ``counts_of``)."""

    model_config = FROZEN_LENIENT

    attempts: int
    effects: int
    tool_calls: int
    lookups: int


def counts_of(events: Sequence[Event]) -> Counts:
    """Count a trace.

    - attempt: one delivery of the operation to a worker. Every delivery leaves at least one
      event, so attempts is the number of distinct ``attempt`` values in the trace.
    - effect: one debit applied to the ledger, i.e. one business-effect event
      (``DebitApplied`` or ``DebitAppliedAgain``). Nothing else changes the ledger.
    - tool call: one effect-capable request sent towards the receiver, whether or not it
      arrives: ``ToolCalled``, ``ToolCalledAgain``, and the durable runtime's write-ahead
      ``DispatchIntentRecorded`` (its first dispatch is journaled, then sent, in one step).
    - lookup: one query of the receiver's idempotency record by operation key, found or not.
    """
    return Counts(
        attempts=len({e.attempt for e in events}),
        effects=sum(1 for e in events if e.is_business_effect),
        tool_calls=sum(1 for e in events if e.kind in TOOL_CALL_KINDS),
        lookups=sum(1 for e in events if e.kind in LOOKUP_KINDS),
    )


# ---------------------------------------------------------------------------------------------
# Outcome and status


class Outcome(StrEnum):
    """The outcome class of a run, judged on the ledger and on what the system kept."""

    EXACTLY_ONCE = "exactly-once"
    DUPLICATE = "duplicate"
    LOST = "lost"
    UNKNOWN = "unknown"
    PARKED = "parked"


class Status(StrEnum):
    """The closed set of status sentences a run can end with."""

    APPLIED_ONCE = "Debit applied once"
    DUPLICATE = "Duplicate debit"
    RECOVERED_BY_KEY = "Recovered by operation key"
    RECOVERED_FROM_STORE = "Recovered from recorded result"
    RETRIED_AFTER_LOOKUP = "Retried after lookup found nothing"
    NEVER_APPLIED = "Debit never applied"
    UNKNOWN = "Outcome unknown"
    APPLIED_BUT_ABANDONED = "Debit applied once, but the delivery was abandoned"
    PARKED = "Parked for an operator: outcome unknown"
    DEDUPLICATED = "Deduplicated by the receiver"
    TOLD_TO_RETRY = "Debit applied once; a concurrent request was told to retry later"
    FENCED_OFF = "Debit applied once; a stale worker's request was fenced off"
    CLAIM_LOST = "Debit applied once; a stale worker stopped when its claim ran out"


def _abandoned(events: Sequence[Event]) -> bool:
    """Whether the channel gave up for good: it recorded ``DeliveryAbandoned`` and no operator
    replayed the delivery afterwards (``DeliveryReplayed``). A stale worker may still act after
    the channel gave up; that does not undo it."""
    gave_up = False
    for e in events:
        if e.kind is EventKind.DELIVERY_ABANDONED:
            gave_up = True
        elif e.kind is EventKind.DELIVERY_REPLAYED:
            gave_up = False
    return gave_up


def _outcome_kept(events: Sequence[Event]) -> bool:
    """Whether the system kept the debit's outcome when the run ended.

    It did if the last delivery was acknowledged (the channel did not give up) or the result is
    recorded in the runtime's own durable store; a result held only in a crashed worker's memory
    is not kept. The receiver's idempotency record does not count: it says the debit happened,
    but nothing in the runtime has looked at it yet, so the runtime does not know.
    """
    return not _abandoned(events) or has_kind(events, EventKind.TOOL_RESULT_RECORDED)


def outcome_of(events: Sequence[Event]) -> Outcome:
    """Classify a run: ``outcome_from`` its effects, whether it was parked
    (``OperationParked``) and whether the system kept its outcome (``_outcome_kept``)."""
    return outcome_from(
        counts_of(events).effects,
        parked=has_kind(events, EventKind.OPERATION_PARKED),
        kept=_outcome_kept(events),
    )


def outcome_from(effects: int, *, parked: bool, kept: bool) -> Outcome:
    """The outcome class, from the three facts it rests on (read from a trace by
    ``outcome_of``, or from a real ledger, journal and queue by ``asyncfail.reference``).

    More than one effect is a duplicate; a run the runtime parked for an operator is parked
    (a deliberate stop without an answer, whether or not the debit happened: safe, not live);
    no effect is lost; exactly one effect is exactly-once if the system kept its outcome and
    unknown otherwise: the debit happened, but nothing that survived knows it (Jepsen would
    call it ``info``).
    """
    if effects > 1:
        return Outcome.DUPLICATE
    if parked:
        return Outcome.PARKED
    if effects == 0:
        return Outcome.LOST
    return Outcome.EXACTLY_ONCE if kept else Outcome.UNKNOWN


class Route(StrEnum):
    """How a stretch of trace dealt with the debit, judged by the first of these it shows."""

    REPEATED = "repeated"
    """The debit was applied again (``DebitAppliedAgain``)."""
    TOLD_TO_RETRY = "told-to-retry"
    """The receiver refused a request whose key was still executing (``RequestInProgress``)."""
    FENCED_OFF = "fenced-off"
    """The receiver refused a stale worker's request by its fencing token
    (``RequestFenced``)."""
    CLAIM_LOST = "claim-lost"
    """A stale worker found its claim expired and stopped (``ClaimLost``)."""
    FOUND_BY_KEY = "found-by-key"
    """A lookup by operation key found the debit (``OperationLookupFound``)."""
    DEDUPLICATED = "deduplicated"
    """The receiver answered a repeated keyed request from its record
    (``RequestDeduplicated``)."""
    REUSED_RESULT = "reused-result"
    """The runtime reused the result in its store (``ToolResultReplayed``)."""
    CALLED_AFTER_MISSING = "called-after-missing"
    """A lookup found nothing, so the tool was called again (``OperationLookupMissing``)."""
    CALLED = "called"
    """The tool was called, with none of the above."""
    NONE = "none"
    """Nothing was called, looked up or reused."""


_ROUTE_EVIDENCE: Final = (
    (Route.REPEATED, frozenset({EventKind.DEBIT_APPLIED_AGAIN})),
    (Route.TOLD_TO_RETRY, frozenset({EventKind.REQUEST_IN_PROGRESS})),
    (Route.FENCED_OFF, frozenset({EventKind.REQUEST_FENCED})),
    (Route.CLAIM_LOST, frozenset({EventKind.CLAIM_LOST})),
    (Route.FOUND_BY_KEY, frozenset({EventKind.OPERATION_LOOKUP_FOUND})),
    (Route.DEDUPLICATED, frozenset({EventKind.REQUEST_DEDUPLICATED})),
    (Route.REUSED_RESULT, frozenset({EventKind.TOOL_RESULT_REPLAYED})),
    (Route.CALLED_AFTER_MISSING, frozenset({EventKind.OPERATION_LOOKUP_MISSING})),
    (Route.CALLED, TOOL_CALL_KINDS),
)


def route_of(events: Sequence[Event]) -> Route:
    """The route of ``events``: the first of ``Route``'s members, in declaration order, whose
    evidence the events hold (a repeat outweighs a lookup, a lookup a reuse, and so on)."""
    kinds = {e.kind for e in events}
    return next((route for route, evidence in _ROUTE_EVIDENCE if kinds & evidence), Route.NONE)


_STATUS_OF_ROUTE: Final[dict[Route, Status]] = {
    Route.TOLD_TO_RETRY: Status.TOLD_TO_RETRY,
    Route.FENCED_OFF: Status.FENCED_OFF,
    Route.CLAIM_LOST: Status.CLAIM_LOST,
    Route.FOUND_BY_KEY: Status.RECOVERED_BY_KEY,
    Route.DEDUPLICATED: Status.DEDUPLICATED,
    Route.REUSED_RESULT: Status.RECOVERED_FROM_STORE,
    Route.CALLED_AFTER_MISSING: Status.RETRIED_AFTER_LOOKUP,
}


def status_of(events: Sequence[Event]) -> Status:
    """The status sentence: the outcome class, refined by how an exactly-once run got there.

    First rule that matches wins: duplicate, parked, lost, unknown; then an exactly-once run whose
    delivery the channel abandoned (the debit is recorded, but the operation was never
    acknowledged: someone must still close it, so no status may hide it); then the run's
    ``route_of``: a safeguard against a concurrent worker that acted (a request told to retry
    later, a stale request fenced off, a stale worker stopped by its lost claim), a lookup that
    found the debit (recovered by operation key), a repeated keyed
    request the receiver answered from its record (deduplicated by the receiver), a result
    reused from the store (recovered from recorded result), a lookup that found nothing before a
    new call (retried after lookup found nothing); otherwise the debit was simply applied once.
    """
    outcome = outcome_of(events)
    if outcome is Outcome.DUPLICATE:
        return Status.DUPLICATE
    if outcome is Outcome.PARKED:
        return Status.PARKED
    if outcome is Outcome.LOST:
        return Status.NEVER_APPLIED
    if outcome is Outcome.UNKNOWN:
        return Status.UNKNOWN
    if _abandoned(events):
        return Status.APPLIED_BUT_ABANDONED
    return _STATUS_OF_ROUTE.get(route_of(events), Status.APPLIED_ONCE)


# ---------------------------------------------------------------------------------------------
# Where the failure struck, as the trace shows it

FAILURE_KINDS: Final = frozenset({EventKind.PROCESS_CRASHED, EventKind.TIMEOUT_OBSERVED})
"""The events an injected failure leaves: a crash, or a timeout after a lost message."""


def failure_event(events: Sequence[Event]) -> Event | None:
    """The trace's first crash or timeout: the injected failure as the trace records it.

    Named faults are injected once, into the first delivery, and nothing else in the model
    crashes a worker or times a call out, so the first such event is the injection.
    """
    return next((e for e in events if e.kind in FAILURE_KINDS), None)


def events_after(events: Sequence[Event], event: Event | None) -> tuple[Event, ...]:
    """The events after ``event`` (all of them when it is None)."""
    start = 0 if event is None else event.seq
    return tuple(e for e in events if e.seq > start)


class Order(StrEnum):
    """Where a trace puts the first business effect relative to the injected failure."""

    EFFECT_FIRST = "effect-first"
    FAULT_FIRST = "fault-first"
    NO_FAULT = "no-fault"
    NO_EFFECT = "no-effect"


def order_of(events: Sequence[Event]) -> Order:
    """Whether the first debit precedes the injected failure in this trace (by sequence)."""
    failure = failure_event(events)
    effect = next((e for e in events if e.is_business_effect), None)
    if failure is None:
        return Order.NO_FAULT
    if effect is None:
        return Order.NO_EFFECT
    return Order.EFFECT_FIRST if effect.seq < failure.seq else Order.FAULT_FIRST


class ResultRecord(StrEnum):
    """What a trace shows of the runtime's recorded result around the injected failure."""

    BEFORE_FAILURE = "before-failure"
    """``ToolResultRecorded`` precedes the failure."""
    ABSENT_AT_TIMEOUT = "absent-at-timeout"
    """Not recorded before the failure, which is a timeout the worker sees."""
    ABSENT_AT_RESTART = "absent-at-restart"
    """Not recorded before a crash, and a later delivery restarts the worker without it."""
    ABSENT_AT_CRASH = "absent-at-crash"
    """Not recorded before a crash that no later delivery follows."""
    NO_FAILURE = "no-failure"
    """The trace has no failure to place the record against."""


def result_record_of(events: Sequence[Event]) -> ResultRecord:
    """Place the recorded result against the failure (``ResultRecord``'s members, in order)."""
    failure = failure_event(events)
    if failure is None:
        return ResultRecord.NO_FAILURE
    if any(e.kind is EventKind.TOOL_RESULT_RECORDED and e.seq < failure.seq for e in events):
        return ResultRecord.BEFORE_FAILURE
    if failure.kind is EventKind.TIMEOUT_OBSERVED:
        return ResultRecord.ABSENT_AT_TIMEOUT
    if any(e.attempt > failure.attempt for e in events):
        return ResultRecord.ABSENT_AT_RESTART
    return ResultRecord.ABSENT_AT_CRASH


def recovery_of(events: Sequence[Event]) -> Route:
    """What the run did after its injected failure: the ``route_of`` the later events."""
    return route_of(events_after(events, failure_event(events)))


def record_writes(events: Sequence[Event]) -> tuple[Event, ...]:
    """The debits that wrote an idempotency record: those that carried a key and were not cut
    off by a receiver crash before the record (with a separate record the debit survives such a
    crash, its record does not)."""
    return tuple(
        event
        for event, after in zip(events, (*events[1:], None), strict=True)
        if event.is_business_effect
        and event.key is not None
        and (after is None or after.kind is not EventKind.RECEIVER_CRASHED)
    )
