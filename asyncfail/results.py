"""What a run means: counts, outcome class and status, each derived from the trace alone.

Every rule that turns a trace into a figure lives here, once. A result stores its trace and
nothing derived from it, so a count can never disagree with the events it counts.
"""

from collections.abc import Sequence
from enum import StrEnum

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    computed_field,
    model_serializer,
)

from asyncfail.assumptions import ASSUMPTIONS
from asyncfail.events import LOOKUP_KINDS, TOOL_CALL_KINDS, Event, EventKind
from asyncfail.faults import Fault
from asyncfail.scenario import MAX_DELIVERIES, Mode


class Outcome(StrEnum):
    """The outcome class of a run, judged on the ledger and on what the system kept."""

    EXACTLY_ONCE = "exactly-once"
    DUPLICATE = "duplicate"
    LOST = "lost"
    UNKNOWN = "unknown"


class Status(StrEnum):
    """The closed set of status sentences a run can end with."""

    APPLIED_ONCE = "Debit applied once"
    DUPLICATE = "Duplicate debit"
    RECOVERED_BY_KEY = "Recovered by operation key"
    RECOVERED_FROM_STORE = "Recovered from recorded result"
    RETRIED_AFTER_LOOKUP = "Retried after lookup found nothing"
    NEVER_APPLIED = "Debit never applied"
    UNKNOWN = "Outcome unknown"


class Counts(BaseModel):
    """The four figures of a run (definitions in ``counts_of``)."""

    model_config = ConfigDict(frozen=True)

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


def _outcome_kept(events: Sequence[Event]) -> bool:
    """Whether the system kept the debit's outcome when the run ended.

    It did if the last delivery was acknowledged (the channel did not give up) or the result is
    recorded in the runtime's own durable store; a result held only in a crashed worker's memory
    is not kept. The receiver's idempotency record does not count: it says the debit happened,
    but nothing in the runtime has looked at it yet, so the runtime does not know.
    """
    abandoned = bool(events) and events[-1].kind is EventKind.DELIVERY_ABANDONED
    return not abandoned or any(e.kind is EventKind.TOOL_RESULT_RECORDED for e in events)


def outcome_of(events: Sequence[Event]) -> Outcome:
    """Classify a run.

    More than one effect is a duplicate; no effect is lost; exactly one effect is exactly-once
    if the system kept its outcome (``_outcome_kept``) and unknown otherwise: the debit
    happened, but nothing that survived knows it (Jepsen would call it ``info``).
    """
    effects = counts_of(events).effects
    if effects > 1:
        return Outcome.DUPLICATE
    if effects == 0:
        return Outcome.LOST
    return Outcome.EXACTLY_ONCE if _outcome_kept(events) else Outcome.UNKNOWN


def status_of(events: Sequence[Event]) -> Status:
    """The status sentence: the outcome class, refined by how an exactly-once run got there.

    First rule that matches wins: duplicate, lost, unknown; then a lookup that found the debit
    (recovered by operation key), a result reused from the store (recovered from recorded
    result), a lookup that found nothing before a new call (retried after lookup found nothing);
    otherwise the debit was simply applied once.
    """
    outcome = outcome_of(events)
    kinds = {e.kind for e in events}
    if outcome is Outcome.DUPLICATE:
        return Status.DUPLICATE
    if outcome is Outcome.LOST:
        return Status.NEVER_APPLIED
    if outcome is Outcome.UNKNOWN:
        return Status.UNKNOWN
    if EventKind.OPERATION_LOOKUP_FOUND in kinds:
        return Status.RECOVERED_BY_KEY
    if EventKind.TOOL_RESULT_REPLAYED in kinds:
        return Status.RECOVERED_FROM_STORE
    if EventKind.OPERATION_LOOKUP_MISSING in kinds:
        return Status.RETRIED_AFTER_LOOKUP
    return Status.APPLIED_ONCE


# The order of keys in a result document: inputs, then figures, then the evidence.
_DOCUMENT_ORDER = (
    "fault",
    "mode",
    "deliveries",
    "counts",
    "outcome",
    "status",
    "assumptions",
    "events",
)


class LabResult(BaseModel):
    """One run of the lab: its inputs, its trace, and what follows from the trace."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    fault: Fault
    mode: Mode
    deliveries: int = Field(ge=1, le=MAX_DELIVERIES)
    events: tuple[Event, ...]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def counts(self) -> Counts:
        return counts_of(self.events)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def outcome(self) -> Outcome:
        return outcome_of(self.events)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def status(self) -> Status:
        return status_of(self.events)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def assumptions(self) -> tuple[str, ...]:
        """The seed's five assumptions, word for word: the conditions these figures hold under."""
        return ASSUMPTIONS

    @model_serializer(mode="wrap")
    def _in_document_order(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        data = handler(self)
        return {key: data[key] for key in _DOCUMENT_ORDER}
