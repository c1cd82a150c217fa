"""One delivery attempt as a runtime sees it: the actors, the fault plan, and the wire.

Runtimes yield every crash point they reach and call ``send``, ``lookup`` and
``record_intent`` for every call, lookup and journal write; the fault plan decides, here and
nowhere else, whether a failure strikes (``crashes_at`` for the worker's points, inside the
others for the wire's, the receiver's, the lookup service's and the journal's).
"""

from collections.abc import Generator
from dataclasses import dataclass, field

from asyncfail.lab.actors import Answer, DurableStore, Receipt, Receiver, Refusal
from asyncfail.lab.events import TOOL_CALL_KINDS, EventKind
from asyncfail.lab.faults import FAILURE_AT, Failure, FaultPlan, FaultPoint
from asyncfail.lab.settings import Claim, Fencing, LabSettings
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
    fired: set[tuple[int, FaultPoint]]
    """The injections that struck so far in the run (shared by its deliveries)."""
    worker: int = 1
    """The worker the channel handed this delivery to."""
    token: int | None = None
    """The fencing token of this delivery's claim, once it has one."""
    superseded: bool = False
    """Whether the channel has handed the operation on (its lease ran out)."""
    memory: dict[str, Receipt] = field(default_factory=dict)
    timed_out: bool = False
    """Set by the channel: the request stalled at the receiver for longer than the client
    timeout, so the worker gives up on it; the receiver still finishes it (``commit_late``)."""
    _request: tuple[str | None, int | None] = (None, None)
    _passed: set[FaultPoint] = field(default_factory=set)

    def _strikes(self, point: FaultPoint) -> bool:
        # An injection fires the first time its attempt reaches its point, never again.
        first_pass = point not in self._passed
        self._passed.add(point)
        strikes = first_pass and self.plan.fires(self.attempt, point)
        if strikes:
            self.fired.add((self.attempt, point))
        return strikes

    def crashes_at(self, point: FaultPoint) -> bool:
        """Whether the plan crashes the worker as it reaches ``point`` (a crash point)."""
        return FAILURE_AT[point] is Failure.CRASH and self._strikes(point)

    def pauses_at(self, point: FaultPoint) -> bool:
        """Whether the plan stalls the worker (or its request) at ``point`` (a pause point)."""
        return FAILURE_AT[point] is Failure.PAUSE and self._strikes(point)

    def claims(self) -> bool:
        """Whether this run claims the operation: with a claim lease, or to carry fencing
        tokens (each claim gets the next one)."""
        return self.settings.claim is Claim.LEASE or self.settings.fencing is Fencing.TOKEN

    def take_claim(self) -> bool:
        """Claim the operation for this delivery's worker; False when another's claim holds."""
        self.token = self.store.take_claim(self.worker)
        return self.token is not None

    def claim_holds(self) -> bool:
        """Whether this delivery's claim still holds (checked, and renewed, under a lease)."""
        if self.settings.claim is not Claim.LEASE or self.token is None:
            return True
        return self.store.claim_holds(self.token)

    def tool_call_kind(self) -> EventKind:
        """``ToolCalledAgain`` once any call was made for the operation, ``ToolCalled`` before."""
        return (
            EventKind.TOOL_CALLED_AGAIN
            if self.trace.has(*TOOL_CALL_KINDS)
            else EventKind.TOOL_CALLED
        )

    def lookup(self, key: str) -> tuple[Answer, Receipt | None]:
        """Look ``key`` up at the receiver; an injected lookup outage fails this one lookup."""
        if self._strikes(FaultPoint.LOOKUP):
            self.trace.emit(EventKind.OPERATION_LOOKUP_FAILED, point=FaultPoint.LOOKUP, key=key)
            return Answer.FAILED, None
        return self.receiver.lookup(key)

    def record_intent(self, operation: str, key: str) -> bool:
        """Write the dispatch intent to the journal; False when it cannot be written (an
        injected journal outage, or ``store=outage``)."""
        if self._strikes(FaultPoint.JOURNAL_WRITE):
            self.trace.emit(EventKind.STORE_WRITE_FAILED, point=FaultPoint.JOURNAL_WRITE)
            return False
        return self.store.record_intent(operation, key)

    def record_checkpoint(self, operation: str, key: str | None, receipt: Receipt) -> bool:
        """Journal a step's result (the checkpoint runtime's one journal write after a call);
        False when it cannot be written (an injected journal outage, or ``store=outage``)."""
        if self._strikes(FaultPoint.JOURNAL_WRITE):
            self.trace.emit(EventKind.STORE_WRITE_FAILED, point=FaultPoint.JOURNAL_WRITE)
            return False
        return self.store.record_result(operation, key, receipt)

    def send(self, key: str | None) -> Generator[FaultPoint, None, Receipt | Refusal | None]:
        """Send the debit request and wait for the reply (a step: the request may stall at the
        receiver, ``pause-in-request``).

        Returns the receipt, a refusal (in progress, fenced), or None after a timeout: the
        request or the reply was lost, or the receiver crashed mid-request (only a keyed
        request reaches the receiver's point: one without a key writes no record), or it
        stalled there longer than the client timeout (the channel sets ``timed_out`` and
        finishes the request later, ``commit_late``), and the worker cannot tell which. A
        request carries the delivery's fencing token under ``fencing=token``.
        """
        if self._strikes(FaultPoint.REQUEST):
            self.trace.emit(EventKind.TIMEOUT_OBSERVED, point=FaultPoint.REQUEST)
            return None
        token = self.token if self.settings.fencing is Fencing.TOKEN else None
        answer = self.receiver.admit(key, token)
        if isinstance(answer, Refusal):
            return answer
        if answer is None:
            self._request = (key, token)
            yield FaultPoint.PAUSE_IN_REQUEST
            if self.timed_out:
                # The client's timeout fired while the request was still executing: the worker
                # cannot tell what became of it, and the receiver goes on without it.
                self.timed_out = False
                self.trace.emit(EventKind.TIMEOUT_OBSERVED, point=FaultPoint.PAUSE_IN_REQUEST)
                return None
            answer = self._commit()
            if answer is None:
                self.trace.emit(EventKind.TIMEOUT_OBSERVED, point=FaultPoint.RECEIVER_BEFORE_RECORD)
                return None
            if isinstance(answer, Refusal):
                return answer
        if self._strikes(FaultPoint.RESPONSE):
            self.trace.emit(EventKind.TIMEOUT_OBSERVED, point=FaultPoint.RESPONSE)
            return None
        return answer

    def _commit(self) -> Receipt | Refusal | None:
        """The receiver finishes the admitted request: refused when fenced meanwhile (then the
        receiver's crash point never comes), else committed, or cut off by a receiver crash."""
        key, token = self._request
        refusal = self.receiver.finish(key, token)
        if refusal is not None:
            return refusal
        crashes = key is not None and self._strikes(FaultPoint.RECEIVER_BEFORE_RECORD)
        return self.receiver.complete(key, crashes_before_record=crashes)

    def commit_late(self) -> None:
        """The stalled request the worker gave up on reaches its end at the receiver: a late
        commit (a debit nobody waits for), a refusal, or a receiver crash; its reply, if any,
        goes to nobody."""
        self._commit()
