"""The two runtimes: what a worker does with one delivery of the debit operation.

Each runtime is a generator over the delivery context: it yields every crash point it reaches
(``FaultPoint``) and returns how the delivery ended. Whoever drives it (the interpreter) decides
at each yield whether the worker goes on; a crash is simply never resuming it, so nothing a
runtime holds in memory survives. Neither runtime knows which fault was chosen: failures reach
it only as a crash at a point or a timeout from ``send``.
"""

from collections.abc import Generator
from enum import StrEnum
from typing import Final, Protocol, TypeAlias

from asyncfail.lab.actors import Answer, Receipt, Refusal
from asyncfail.lab.delivery import Delivery
from asyncfail.lab.events import EventKind
from asyncfail.lab.faults import FaultPoint
from asyncfail.lab.settings import KeyStability, OutagePolicy

OPERATION_ID: Final = "debit:tenant-a:order-42"
"""The business operation: what the durable runtime's journal is keyed by, and its stable
operation key."""

OPERATION_KEY: Final = OPERATION_ID
"""The stable operation key of the one debit: the same on every delivery attempt."""

CALLS_PER_DELIVERY: Final = 2
"""How many calls a worker makes within one delivery before it releases the delivery."""


class Ending(StrEnum):
    """How a delivery ended without a crash."""

    ACKNOWLEDGED = "acknowledged"
    """The worker finished; the channel stops redelivering."""
    RELEASED = "released"
    """The worker gave up on this delivery; the channel redelivers it."""
    PARKED = "parked"
    """The worker parked the operation for an operator; the channel stops redelivering."""
    STOPPED = "stopped"
    """The worker stopped: another worker holds the operation now (its claim ran out, or its
    request was fenced off). Its delivery was already handed on."""


Steps: TypeAlias = Generator[FaultPoint, None, Ending]
"""A runtime's delivery: the crash points it reaches, then how it ended."""


class Runtime(Protocol):
    def deliver(self, delivery: Delivery) -> Steps: ...


def operation_key(delivery: Delivery) -> str:
    """The key the durable runtime sends and looks up: the operation's own under
    ``key=stable``; under ``per-attempt``, one derived from the delivery attempt, as when an
    activity's execution id changes on each retry."""
    if delivery.settings.key is KeyStability.STABLE:
        return OPERATION_KEY
    return f"{OPERATION_KEY}:attempt-{delivery.attempt}"


class NaiveRuntime:
    """A retry loop with no memory beyond the process.

    Promise: none beyond at-least-once. On each delivery it calls the tool; a timeout counts as
    failure and the call is retried blindly (up to ``CALLS_PER_DELIVERY`` calls); a result is
    kept only in process memory, so a crash before the acknowledgement loses it and the
    redelivery calls the tool again. It sends no key, so no durable-runtime setting touches it.
    """

    def deliver(self, delivery: Delivery) -> Steps:
        for _ in range(CALLS_PER_DELIVERY):
            yield FaultPoint.BEFORE_DISPATCH
            yield FaultPoint.PAUSE_BEFORE_DISPATCH
            delivery.trace.emit(delivery.tool_call_kind())
            receipt = yield from delivery.send(key=None)
            if not isinstance(receipt, Receipt):
                continue
            yield FaultPoint.AFTER_EFFECT
            yield FaultPoint.PAUSE_AFTER_EFFECT
            delivery.memory[OPERATION_ID] = receipt
            yield FaultPoint.AFTER_RECORD
            return Ending.ACKNOWLEDGED
        return Ending.RELEASED


class DurableRuntime:
    """A runtime that journals a dispatch intent and reconciles unknown outcomes by lookup.

    Promise, under the seed's assumptions (stable key, record atomic with the effect and
    retained, lookups answer, the store writable): at most one debit, whatever crashes or lost
    messages happen. Rules: it records the intent before the first call; a redelivery replays
    the recorded run; a recorded result is reused without calling; an intent without a result,
    or a timeout, is an unknown outcome and is looked up downstream before any further
    effect-capable call; only a lookup that finds nothing permits calling again.

    When a lookup fails it parks the operation for an operator (``on_lookup_outage=
    fail-closed``) or calls again (``fail-open``); when the store cannot take the intent it
    releases the delivery to try later (``on_store_outage=fail-closed``) or dispatches without
    one (``fail-open``).

    With a claim (``claim=lease``, or ``fencing=token``, which needs claims for its tokens) it
    first claims the operation in its journal: if another worker's claim still holds it
    releases the delivery; under a lease it checks its claim again right before each dispatch
    and stops if the claim ran out. A request refused as in progress releases the delivery
    (retry later); one refused as fenced stops the worker.
    """

    def deliver(self, delivery: Delivery) -> Steps:
        store, trace = delivery.store, delivery.trace
        settings, key = delivery.settings, operation_key(delivery)
        if delivery.claims() and not delivery.take_claim():
            return Ending.RELEASED
        run = store.runs.get(OPERATION_ID)
        receipt: Receipt | None = None
        if run is not None:
            trace.emit(EventKind.RUN_REPLAYED)
            if run.result is not None:
                trace.emit(EventKind.TOOL_RESULT_REPLAYED, key=key)
                return Ending.ACKNOWLEDGED
            answer, receipt = delivery.lookup(key)
            if answer is Answer.FAILED and settings.on_lookup_outage is OutagePolicy.FAIL_CLOSED:
                trace.emit(EventKind.OPERATION_PARKED, key=key)
                return Ending.PARKED
        calls = 0
        while receipt is None:
            if calls == CALLS_PER_DELIVERY:
                return Ending.RELEASED
            calls += 1
            yield FaultPoint.BEFORE_DISPATCH
            yield FaultPoint.PAUSE_BEFORE_DISPATCH
            if not delivery.claim_holds():
                return Ending.STOPPED
            if OPERATION_ID in store.runs:
                trace.emit(delivery.tool_call_kind(), key=key)
            elif not delivery.record_intent(OPERATION_ID, key):
                if settings.on_store_outage is OutagePolicy.FAIL_CLOSED:
                    return Ending.RELEASED
                trace.emit(delivery.tool_call_kind(), key=key)
            reply = yield from delivery.send(key=key)
            if reply is Refusal.IN_PROGRESS:
                return Ending.RELEASED
            if reply is Refusal.FENCED:
                return Ending.STOPPED
            receipt = reply if isinstance(reply, Receipt) else None
            if receipt is None:
                answer, receipt = delivery.lookup(key)
                if answer is Answer.FAILED and (
                    settings.on_lookup_outage is OutagePolicy.FAIL_CLOSED
                ):
                    trace.emit(EventKind.OPERATION_PARKED, key=key)
                    return Ending.PARKED
        yield FaultPoint.AFTER_EFFECT
        yield FaultPoint.PAUSE_AFTER_EFFECT
        store.record_result(OPERATION_ID, key, receipt)
        yield FaultPoint.AFTER_RECORD
        return Ending.ACKNOWLEDGED
