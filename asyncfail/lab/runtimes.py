"""The two runtimes: what a worker does with one delivery of the debit operation.

Each runtime is a straight-line procedure over the delivery context. Neither knows which fault
was chosen: failures reach them only as a crash at a checkpoint or a timeout from ``send``.
"""

from enum import StrEnum
from typing import Final, Protocol

from asyncfail.lab.delivery import Delivery
from asyncfail.lab.events import EventKind
from asyncfail.lab.faults import FaultPoint

OPERATION_KEY: Final = "debit:tenant-a:order-42"
"""The stable operation key of the one debit: the same on every delivery attempt."""

CALLS_PER_DELIVERY: Final = 2
"""How many calls a worker makes within one delivery before it releases the delivery."""


class Ending(StrEnum):
    """How a delivery ended without a crash."""

    ACKNOWLEDGED = "acknowledged"
    """The worker finished; the channel stops redelivering."""
    RELEASED = "released"
    """The worker gave up on this delivery; the channel redelivers it."""


class Runtime(Protocol):
    def deliver(self, delivery: Delivery) -> Ending: ...


class NaiveRuntime:
    """A retry loop with no memory beyond the process.

    Promise: none beyond at-least-once. On each delivery it calls the tool; a timeout counts as
    failure and the call is retried blindly (up to ``CALLS_PER_DELIVERY`` calls); a result is
    kept only in process memory, so a crash before the acknowledgement loses it and the
    redelivery calls the tool again.
    """

    def deliver(self, delivery: Delivery) -> Ending:
        for _ in range(CALLS_PER_DELIVERY):
            delivery.checkpoint(FaultPoint.BEFORE_DISPATCH)
            delivery.trace.emit(delivery.tool_call_kind())
            receipt = delivery.send(key=None)
            if receipt is None:
                continue
            delivery.checkpoint(FaultPoint.AFTER_EFFECT)
            delivery.memory[OPERATION_KEY] = receipt
            delivery.checkpoint(FaultPoint.AFTER_RECORD)
            return Ending.ACKNOWLEDGED
        return Ending.RELEASED


class DurableRuntime:
    """A runtime that journals a dispatch intent and reconciles unknown outcomes by lookup.

    Promise, under the seed's assumptions (stable key, record atomic with the effect and
    retained, lookups answer): at most one debit, whatever crashes or lost messages happen.
    Rules: it records the intent under the stable operation key before the first call; a
    redelivery replays the recorded run; a recorded result is reused without calling; an intent
    without a result, or a timeout, is an unknown outcome and is looked up downstream before
    any further effect-capable call; only a lookup that finds nothing permits calling again.
    """

    def deliver(self, delivery: Delivery) -> Ending:
        store, receiver, trace = delivery.store, delivery.receiver, delivery.trace
        run = store.runs.get(OPERATION_KEY)
        receipt = None
        if run is not None:
            trace.emit(EventKind.RUN_REPLAYED)
            if run.result is not None:
                trace.emit(EventKind.TOOL_RESULT_REPLAYED, key=OPERATION_KEY)
                return Ending.ACKNOWLEDGED
            receipt = receiver.lookup(OPERATION_KEY)
        calls = 0
        while receipt is None:
            if calls == CALLS_PER_DELIVERY:
                return Ending.RELEASED
            calls += 1
            delivery.checkpoint(FaultPoint.BEFORE_DISPATCH)
            if OPERATION_KEY in store.runs:
                trace.emit(delivery.tool_call_kind(), key=OPERATION_KEY)
            else:
                store.record_intent(OPERATION_KEY)
            receipt = delivery.send(key=OPERATION_KEY)
            if receipt is None:
                receipt = receiver.lookup(OPERATION_KEY)
        delivery.checkpoint(FaultPoint.AFTER_EFFECT)
        store.record_result(OPERATION_KEY, receipt)
        delivery.checkpoint(FaultPoint.AFTER_RECORD)
        return Ending.ACKNOWLEDGED
