"""Trace events: the facts a run of the model produces, one frozen record each.

Every event kind has one fixed actor, one fixed layer and one sentence of narration, declared
once in ``EVENT_KINDS``; an ``Event`` stores only what varies (its sequence number, kind and
delivery attempt) and derives the rest, so the table cannot drift from the trace.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from pydantic import (
    BaseModel,
    Field,
    SerializerFunctionWrapHandler,
    computed_field,
    model_serializer,
)

from asyncfail.ground.durations import ClockTime
from asyncfail.ground.frozen import FROZEN
from asyncfail.lab.faults import POINT_PROSE, FaultPoint


class Actor(StrEnum):
    """Who a fact belongs to: one lane each in a timeline."""

    CHANNEL = "channel"
    """The delivery channel that (re)delivers the operation to a worker until acknowledged."""
    WORKER = "worker"
    """The worker process; its memory is lost when it crashes."""
    STORE = "store"
    """The durable runtime's own store (durable mode only); it survives crashes."""
    RECEIVER = "receiver"
    """The downstream receiver: owns the ledger and the idempotency records."""


class Layer(StrEnum):
    """Whether a fact is about delivering and processing the operation, or about the business.

    The lab's point is that the two are counted separately: a delivery can be repeated without
    repeating the effect, and an effect can be repeated by a single delivery.
    """

    DELIVERY = "delivery"
    BUSINESS_EFFECT = "business-effect"


class EventKind(StrEnum):
    """The closed vocabulary of trace events, named as the seed names them."""

    TOOL_CALLED = "ToolCalled"
    TOOL_CALLED_AGAIN = "ToolCalledAgain"
    DISPATCH_INTENT_RECORDED = "DispatchIntentRecorded"
    DEBIT_APPLIED = "DebitApplied"
    DEBIT_APPLIED_AGAIN = "DebitAppliedAgain"
    PROCESS_CRASHED = "ProcessCrashed"
    TIMEOUT_OBSERVED = "TimeoutObserved"
    RUN_REPLAYED = "RunReplayed"
    OPERATION_LOOKUP_FOUND = "OperationLookupFound"
    OPERATION_LOOKUP_MISSING = "OperationLookupMissing"
    TOOL_RESULT_RECORDED = "ToolResultRecorded"
    TOOL_RESULT_REPLAYED = "ToolResultReplayed"
    DELIVERY_ABANDONED = "DeliveryAbandoned"
    RECORD_EXPIRED = "RecordExpired"
    OPERATION_LOOKUP_FAILED = "OperationLookupFailed"
    REQUEST_DEDUPLICATED = "RequestDeduplicated"
    RECEIVER_CRASHED = "ReceiverCrashed"
    OPERATION_PARKED = "OperationParked"
    STORE_WRITE_FAILED = "StoreWriteFailed"
    LEASE_EXPIRED = "LeaseExpired"
    WORKER_PAUSED = "WorkerPaused"
    WORKER_RESUMED = "WorkerResumed"
    OPERATION_CLAIMED = "OperationClaimed"
    CLAIM_HELD = "ClaimHeld"
    CLAIM_LOST = "ClaimLost"
    REQUEST_IN_PROGRESS = "RequestInProgress"
    REQUEST_FENCED = "RequestFenced"
    DELIVERY_REPLAYED = "DeliveryReplayed"
    WORKFLOW_FAILED = "WorkflowFailed"


@dataclass(frozen=True, slots=True)
class KindInfo:
    """What is fixed for every event of one kind; ``keyed`` completes the narration of an event
    that carries an operation key."""

    actor: Actor
    layer: Layer
    narration: str
    keyed: str = ""


EVENT_KINDS: Final[dict[EventKind, KindInfo]] = {
    EventKind.TOOL_CALLED: KindInfo(
        Actor.WORKER, Layer.DELIVERY, "The worker calls the debit tool."
    ),
    EventKind.TOOL_CALLED_AGAIN: KindInfo(
        Actor.WORKER,
        Layer.DELIVERY,
        "The worker calls the debit tool again for the same operation.",
    ),
    EventKind.DISPATCH_INTENT_RECORDED: KindInfo(
        Actor.STORE,
        Layer.DELIVERY,
        "The runtime records a dispatch intent under the stable operation key, "
        "then dispatches the call with that key.",
    ),
    EventKind.DEBIT_APPLIED: KindInfo(
        Actor.RECEIVER,
        Layer.BUSINESS_EFFECT,
        "The receiver applies the debit to the ledger.",
        "The request carries the operation key, so its idempotency record commits in the same "
        "transaction.",
    ),
    EventKind.DEBIT_APPLIED_AGAIN: KindInfo(
        Actor.RECEIVER,
        Layer.BUSINESS_EFFECT,
        "The receiver applies the same debit again: the ledger now holds a duplicate.",
        "The request carries the operation key, so its idempotency record commits in the same "
        "transaction.",
    ),
    EventKind.PROCESS_CRASHED: KindInfo(
        Actor.WORKER,
        Layer.DELIVERY,
        "The worker process crashes: its memory is lost and the delivery is not acknowledged.",
    ),
    EventKind.TIMEOUT_OBSERVED: KindInfo(
        Actor.WORKER,
        Layer.DELIVERY,
        "The call times out: the worker cannot tell whether the debit happened.",
    ),
    EventKind.RUN_REPLAYED: KindInfo(
        Actor.WORKER,
        Layer.DELIVERY,
        "The operation is redelivered and the runtime replays its recorded run.",
    ),
    EventKind.OPERATION_LOOKUP_FOUND: KindInfo(
        Actor.RECEIVER,
        Layer.DELIVERY,
        "A lookup by operation key finds the debit already applied, so no new call is made.",
    ),
    EventKind.OPERATION_LOOKUP_MISSING: KindInfo(
        Actor.RECEIVER,
        Layer.DELIVERY,
        "A lookup by operation key finds no debit, so calling the tool is safe.",
    ),
    EventKind.TOOL_RESULT_RECORDED: KindInfo(
        Actor.STORE,
        Layer.DELIVERY,
        "The runtime records the tool result in its durable store.",
    ),
    EventKind.TOOL_RESULT_REPLAYED: KindInfo(
        Actor.STORE,
        Layer.DELIVERY,
        "The runtime reuses the result recorded in its store instead of calling the tool.",
    ),
    EventKind.DELIVERY_ABANDONED: KindInfo(
        Actor.CHANNEL,
        Layer.DELIVERY,
        "The channel stops redelivering: the delivery budget is spent.",
    ),
    EventKind.RECORD_EXPIRED: KindInfo(
        Actor.RECEIVER,
        Layer.DELIVERY,
        "The receiver's idempotency record for this key has expired: it no longer counts.",
    ),
    EventKind.OPERATION_LOOKUP_FAILED: KindInfo(
        Actor.RECEIVER,
        Layer.DELIVERY,
        "A lookup by operation key fails: the lookup service does not answer.",
    ),
    EventKind.REQUEST_DEDUPLICATED: KindInfo(
        Actor.RECEIVER,
        Layer.DELIVERY,
        "The receiver holds a retained record for this key and returns its stored result: no "
        "second debit.",
    ),
    EventKind.RECEIVER_CRASHED: KindInfo(
        Actor.RECEIVER,
        Layer.DELIVERY,
        "The receiver crashes between the debit and its idempotency record; the connection drops.",
    ),
    EventKind.OPERATION_PARKED: KindInfo(
        Actor.WORKER,
        Layer.DELIVERY,
        "The runtime parks the operation as an unknown outcome for an operator: no "
        "effect-capable call without an answer.",
    ),
    EventKind.STORE_WRITE_FAILED: KindInfo(
        Actor.STORE,
        Layer.DELIVERY,
        "The runtime cannot write its journal: the store is unavailable.",
    ),
    EventKind.LEASE_EXPIRED: KindInfo(
        Actor.CHANNEL,
        Layer.DELIVERY,
        "The delivery's lease runs out while its worker is still busy: the channel hands the "
        "operation to another worker.",
    ),
    EventKind.WORKER_PAUSED: KindInfo(
        Actor.WORKER,
        Layer.DELIVERY,
        "The worker stalls (a GC pause, a stalled call); it does not know it has stopped.",
    ),
    EventKind.WORKER_RESUMED: KindInfo(
        Actor.WORKER,
        Layer.DELIVERY,
        "The worker resumes where it stalled, unaware of how long it was gone.",
    ),
    EventKind.OPERATION_CLAIMED: KindInfo(
        Actor.STORE,
        Layer.DELIVERY,
        "The runtime claims the operation in its journal; the claim holds for one lease and "
        "carries the next fencing token.",
    ),
    EventKind.CLAIM_HELD: KindInfo(
        Actor.STORE,
        Layer.DELIVERY,
        "Another worker's claim on the operation still holds: this worker releases its "
        "delivery to try later.",
    ),
    EventKind.CLAIM_LOST: KindInfo(
        Actor.STORE,
        Layer.DELIVERY,
        "The worker's claim has expired and another worker holds the operation: it stops "
        "without dispatching.",
    ),
    EventKind.REQUEST_IN_PROGRESS: KindInfo(
        Actor.RECEIVER,
        Layer.DELIVERY,
        "The receiver refuses the request: one with the same key is still executing (409 "
        "Conflict, as the IETF draft and Stripe answer; Brandur Leach's design locks the key). "
        "The worker is told to retry later.",
    ),
    EventKind.WORKFLOW_FAILED: KindInfo(
        Actor.STORE,
        Layer.DELIVERY,
        "The step got no reply and may not retry: the engine records its error and ends the "
        "workflow in error, which it never runs again by itself.",
    ),
    EventKind.DELIVERY_REPLAYED: KindInfo(
        Actor.CHANNEL,
        Layer.DELIVERY,
        "An operator replays the abandoned delivery by hand (a dead letter redriven): the "
        "operation is delivered once more.",
    ),
    EventKind.REQUEST_FENCED: KindInfo(
        Actor.RECEIVER,
        Layer.DELIVERY,
        "The receiver refuses the request: its fencing token is older than one it has already "
        "accepted, so its sender no longer holds the operation.",
    ),
}


_DETAILS: Final = frozenset({"point", "key", "worker"})


class Event(BaseModel):
    """One fact of a trace.

    ``seq`` numbers the events of one run from 1 without gaps; ``attempt`` is the delivery
    attempt (from 1) during which the fact happened, ``at`` the time it happened. ``point``
    says where an injected failure struck (on a crash or a timeout) and ``key`` which operation
    key a request or lookup carried; ``worker`` which worker's step it was, in a run with two
    workers. Each is left out of a document when there is none.
    Actor, layer and description are derived from the kind (and the point and key).
    """

    model_config = FROZEN

    seq: int = Field(ge=1, description="Position in the trace, from 1, without gaps.")
    kind: EventKind
    attempt: int = Field(ge=1, description="The delivery attempt this fact belongs to.")
    at: ClockTime = Field(
        description="When it happened, from the first delivery: time passes only between "
        "deliveries (steps within one take no time)."
    )
    point: FaultPoint | None = Field(
        None, description="Where the injected failure struck (crashes and timeouts only)."
    )
    key: str | None = Field(
        None, description="The operation key the request, record or lookup carried, if any."
    )
    worker: int | None = Field(
        None,
        ge=1,
        description="Which worker's step this fact belongs to, in a run with more than one.",
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def actor(self) -> Actor:
        """The lane this fact belongs to."""
        return EVENT_KINDS[self.kind].actor

    @computed_field  # type: ignore[prop-decorator]
    @property
    def layer(self) -> Layer:
        """Whether this is a delivery-level fact or a business effect."""
        return EVENT_KINDS[self.kind].layer

    @computed_field  # type: ignore[prop-decorator]
    @property
    def description(self) -> str:
        """The narration of this fact: its kind's sentence, then where an injected failure
        struck, or what its operation key does."""
        info = EVENT_KINDS[self.kind]
        parts = [info.narration]
        if self.point is not None:
            parts.append(f"Injected {POINT_PROSE[self.point].place}.")
        if self.key is not None and info.keyed:
            parts.append(info.keyed)
        return " ".join(parts)

    @model_serializer(mode="wrap")
    def _without_empty_details(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        # A point or key is a detail of a few events: absent, not null, on all the others.
        data = handler(self)
        return {k: v for k, v in data.items() if k not in _DETAILS or v is not None}

    @property
    def is_business_effect(self) -> bool:
        """True for facts that change the ledger (the business effect), false otherwise."""
        return self.layer is Layer.BUSINESS_EFFECT


TOOL_CALL_KINDS: Final[frozenset[EventKind]] = frozenset(
    {EventKind.TOOL_CALLED, EventKind.TOOL_CALLED_AGAIN, EventKind.DISPATCH_INTENT_RECORDED}
)
"""Kinds that send an effect-capable request towards the receiver (see ``counts_of``)."""

LOOKUP_KINDS: Final[frozenset[EventKind]] = frozenset(
    {
        EventKind.OPERATION_LOOKUP_FOUND,
        EventKind.OPERATION_LOOKUP_MISSING,
        EventKind.OPERATION_LOOKUP_FAILED,
    }
)
"""Kinds that query the receiver's idempotency record by operation key, answered or not."""


def has_kind(events: Iterable[Event], *kinds: EventKind) -> bool:
    """Whether any of ``events`` is of one of ``kinds``."""
    return any(e.kind in kinds for e in events)
