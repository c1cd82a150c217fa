"""One delivery attempt as a runtime sees it: the actors, the fault plan, and the wire.

Runtimes yield every crash point they reach and call ``send`` for every call; the fault plan
decides, here and nowhere else, whether a failure strikes (``crashes_at`` for the worker's
points, inside ``send`` for the wire's and the receiver's).
"""

from dataclasses import dataclass, field

from asyncfail.lab.actors import DurableStore, Receipt, Receiver
from asyncfail.lab.events import TOOL_CALL_KINDS, EventKind
from asyncfail.lab.faults import FAILURE_AT, Failure, FaultPlan, FaultPoint
from asyncfail.lab.settings import LabSettings
from asyncfail.lab.trace import TraceRecorder


@dataclass(slots=True)
class Delivery:
    """The context of one delivery attempt.

    ``memory`` is the worker process's memory. The model gives every delivery a fresh process,
    so whatever a runtime keeps there is gone by the next delivery, as after a crash.
    """

    attempt: int
    plan: FaultPlan
    settings: LabSettings
    trace: TraceRecorder
    receiver: Receiver
    store: DurableStore
    memory: dict[str, Receipt] = field(default_factory=dict)
    _passed: set[FaultPoint] = field(default_factory=set)

    def _strikes(self, point: FaultPoint) -> bool:
        # An injection fires the first time its attempt reaches its point, never again.
        first_pass = point not in self._passed
        self._passed.add(point)
        return first_pass and self.plan.fires(self.attempt, point)

    def crashes_at(self, point: FaultPoint) -> bool:
        """Whether the plan crashes the worker as it reaches ``point`` (a crash point)."""
        return FAILURE_AT[point] is Failure.CRASH and self._strikes(point)

    def tool_call_kind(self) -> EventKind:
        """``ToolCalledAgain`` once any call was made for the operation, ``ToolCalled`` before."""
        return (
            EventKind.TOOL_CALLED_AGAIN
            if self.trace.has(*TOOL_CALL_KINDS)
            else EventKind.TOOL_CALLED
        )

    def send(self, key: str | None) -> Receipt | None:
        """Send the debit request and wait for the reply.

        Returns the receipt, or None after a timeout: the request or the reply was lost, or the
        receiver crashed mid-request (only a keyed request reaches the receiver's point: one
        without a key writes no record), and the worker cannot tell which.
        """
        if self._strikes(FaultPoint.REQUEST):
            self.trace.emit(EventKind.TIMEOUT_OBSERVED, point=FaultPoint.REQUEST)
            return None
        crashes = key is not None and self._strikes(FaultPoint.RECEIVER_BEFORE_RECORD)
        receipt = self.receiver.handle(key, crashes_before_record=crashes)
        if receipt is None:
            self.trace.emit(EventKind.TIMEOUT_OBSERVED, point=FaultPoint.RECEIVER_BEFORE_RECORD)
            return None
        if self._strikes(FaultPoint.RESPONSE):
            self.trace.emit(EventKind.TIMEOUT_OBSERVED, point=FaultPoint.RESPONSE)
            return None
        return receipt
