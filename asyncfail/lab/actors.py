"""The simulated actors' state: the downstream receiver and the durable runtime's store.

Both outlive a worker crash; the worker's own memory does not, which is why it is not here.
They are plain mutable objects owned by one simulation run and never shared between runs. Each
rule a setting changes is stated on the method that applies it.
"""

from dataclasses import dataclass, field
from enum import StrEnum

from asyncfail.ground.durations import Duration
from asyncfail.ground.retention import retained
from asyncfail.lab.events import EventKind
from asyncfail.lab.settings import (
    Availability,
    Claim,
    LabSettings,
    ReceiverContract,
    RecordWrite,
)
from asyncfail.lab.trace import TraceRecorder


@dataclass(frozen=True, slots=True)
class Receipt:
    """What the receiver returns for an applied debit: the ledger entry's number."""

    entry: int


@dataclass(frozen=True, slots=True)
class StoredRecord:
    """An idempotency record: the receipt of the keyed debit, and when it was written."""

    receipt: Receipt
    written_at: Duration


class Refusal(StrEnum):
    """Why the receiver refused a request without applying it."""

    IN_PROGRESS = "in-progress"
    """A request with the same key is still executing (409 Conflict): retry later."""
    FENCED = "fenced"
    """The request's fencing token is older than one the receiver has accepted."""


class Answer(StrEnum):
    """What a lookup by key tells the runtime."""

    FOUND = "found"
    MISSING = "missing"
    FAILED = "failed"


@dataclass(slots=True)
class Receiver:
    """The downstream system: it owns the ledger (the business effect) and idempotency records.

    Rules: a keyed debit writes the record for its key with the debit, in one transaction
    (``record=atomic``, the seed's third assumption) or in its own transaction after it
    (``separate``). A record counts while it is retained (``ground.retention.retained``, with
    ``retention`` None: for the whole run); an expired one counts as none. A lookup reads the
    record for a key (fourth assumption: it answers, unless ``lookup=outage``). Under
    ``receiver=dedupe`` a keyed request whose record counts gets the stored receipt and no new
    debit; under ``lookup-only`` it is applied again. Under ``dedupe`` the receiver also keeps
    an in-progress record for a key while its request executes, and refuses a second request
    with that key meanwhile (409, as the IETF draft and Stripe do). Fencing (Kleppmann, "How
    to do distributed locking", 2016: the resource checks the token, not the sender): a request
    carrying a token older than the largest the receiver has admitted is refused, when it
    arrives and again when it would commit. Only a request the receiver admits to execute moves
    the fence: one refused (fenced, or 409 in progress) or answered from a stored record was
    not processed, and its token counts for nothing.
    """

    trace: TraceRecorder
    settings: LabSettings
    ledger: list[int] = field(default_factory=list)
    records: dict[str, StoredRecord] = field(default_factory=dict)
    in_progress: set[str] = field(default_factory=set)
    largest_token: int = 0

    def _record(self, key: str) -> StoredRecord | None:
        """The record for ``key`` if it counts now; an expired one is noted, and is none."""
        record = self.records.get(key)
        if record is None or self.settings.retention is None:
            return record
        age = Duration(self.trace.now.millis - record.written_at.millis)
        if retained(age, self.settings.retention, self.settings.boundary):
            return record
        self.trace.emit(EventKind.RECORD_EXPIRED, key=key)
        return None

    def admit(self, key: str | None, token: int | None) -> Receipt | Refusal | None:
        """Take a request: a refusal when its fencing token is older than the largest
        admitted, a stored receipt when ``dedupe`` answers it from a retained record, a refusal
        when its key is already executing, or None when it is admitted and executes: its token
        then moves the fence, and under ``dedupe`` its key is in progress until ``finish``."""
        if self._fenced(key, token):
            return Refusal.FENCED
        if key is not None and self.settings.receiver is ReceiverContract.DEDUPE:
            record = self._record(key)
            if record is not None:
                self.trace.emit(EventKind.REQUEST_DEDUPLICATED, key=key)
                return record.receipt
            if key in self.in_progress:
                self.trace.emit(EventKind.REQUEST_IN_PROGRESS, key=key)
                return Refusal.IN_PROGRESS
            self.in_progress.add(key)
        if token is not None:
            self.largest_token = max(self.largest_token, token)
        return None

    def _fenced(self, key: str | None, token: int | None) -> bool:
        """Whether a request carrying ``token`` is refused (noted): older than the largest
        token of a request the receiver admitted."""
        if token is None or token >= self.largest_token:
            return False
        self.trace.emit(EventKind.REQUEST_FENCED, key=key)
        return True

    def finish(self, key: str | None, token: int | None) -> Refusal | None:
        """An admitted request is about to commit: its key is no longer in progress, and it
        is refused when a newer token was admitted meanwhile (the check at the write)."""
        if key is not None:
            self.in_progress.discard(key)
        return Refusal.FENCED if self._fenced(key, token) else None

    def complete(self, key: str | None, crashes_before_record: bool) -> Receipt | None:
        """Commit an admitted request that ``finish`` let through: its receipt, or None when
        the receiver crashes mid-request.

        ``crashes_before_record``: the fault plan crashes the receiver after the debit and
        before a keyed request's record; with an atomic record the debit never commits.
        """
        if key is not None and crashes_before_record:
            if self.settings.record is RecordWrite.SEPARATE:
                self._debit(key)
            self.trace.emit(EventKind.RECEIVER_CRASHED, key=key)
            return None
        receipt = self._debit(key)
        if key is not None:
            self.records[key] = StoredRecord(receipt, self.trace.now)
        return receipt

    def _debit(self, key: str | None) -> Receipt:
        """Apply one debit; a debit on a ledger that already holds one is a duplicate."""
        kind = EventKind.DEBIT_APPLIED_AGAIN if self.ledger else EventKind.DEBIT_APPLIED
        receipt = Receipt(entry=len(self.ledger) + 1)
        self.ledger.append(receipt.entry)
        self.trace.emit(kind, key=key)
        return receipt

    def lookup(self, key: str) -> tuple[Answer, Receipt | None]:
        """Look the operation key up: found (with the stored receipt), missing (no record that
        counts), or failed (``lookup=outage``: the lookup service never answers)."""
        if self.settings.lookup is Availability.OUTAGE:
            self.trace.emit(EventKind.OPERATION_LOOKUP_FAILED, key=key)
            return Answer.FAILED, None
        record = self._record(key)
        if record is None:
            self.trace.emit(EventKind.OPERATION_LOOKUP_MISSING, key=key)
            return Answer.MISSING, None
        self.trace.emit(EventKind.OPERATION_LOOKUP_FOUND, key=key)
        return Answer.FOUND, record.receipt


@dataclass(slots=True)
class DispatchRecord:
    """What the durable store knows of one operation: an intent, and perhaps its result (or,
    for a checkpoint runtime's workflow, that it ended in error)."""

    result: Receipt | None = None
    failed: bool = False


@dataclass(slots=True)
class ClaimRecord:
    """Who holds the operation in the journal, until when, and under which fencing token."""

    worker: int
    until: Duration
    token: int


@dataclass(slots=True)
class DurableStore:
    """The durable runtime's journal, keyed by the operation; it survives worker crashes.

    Rule: under ``store=outage`` nothing can be written to it during the first delivery; it is
    back for later ones.
    """

    trace: TraceRecorder
    settings: LabSettings
    runs: dict[str, DispatchRecord] = field(default_factory=dict)
    claim: ClaimRecord | None = None
    tokens: int = 0

    def take_claim(self, worker: int) -> int | None:
        """Claim the operation for ``worker`` and hand it the next fencing token; None when
        another worker's claim still holds (``claim=lease``: a claim holds while now <
        ``until``, one lease after it was taken or last checked). A worker's own earlier claim
        never stands in its way: a new delivery to it is a new process."""
        now, held = self.trace.now, self.claim
        leased = self.settings.claim is Claim.LEASE
        if leased and held is not None and held.worker != worker and now < held.until:
            self.trace.emit(EventKind.CLAIM_HELD)
            return None
        self.tokens += 1
        self.claim = ClaimRecord(worker, now + self.settings.lease, self.tokens)
        self.trace.emit(EventKind.OPERATION_CLAIMED)
        return self.tokens

    def claim_holds(self, token: int) -> bool:
        """Whether the claim under ``token`` is still the operation's and has not run out; a
        claim that holds is renewed for another lease. A lost one is noted (``ClaimLost``)."""
        now, held = self.trace.now, self.claim
        if held is not None and held.token == token and now < held.until:
            held.until = now + self.settings.lease
            return True
        self.trace.emit(EventKind.CLAIM_LOST)
        return False

    def _writable(self) -> bool:
        if self.settings.store is Availability.OUTAGE and self.trace.attempt == 1:
            self.trace.emit(EventKind.STORE_WRITE_FAILED)
            return False
        return True

    def record_intent(self, operation: str, key: str) -> bool:
        """Write the dispatch intent ahead of the call (write-ahead: the call, under ``key``,
        follows it); False when the store cannot be written."""
        if not self._writable():
            return False
        self.runs[operation] = DispatchRecord()
        self.trace.emit(EventKind.DISPATCH_INTENT_RECORDED, key=key)
        return True

    def start_workflow(self, operation: str) -> bool:
        """Record that a checkpoint runtime's workflow has started (no trace event: the engine's
        own bookkeeping, as DBOS writes the workflow's status before its first step); False
        when the store cannot be written."""
        if not self._writable():
            return False
        self.runs[operation] = DispatchRecord()
        return True

    def record_result(self, operation: str, key: str | None, receipt: Receipt) -> bool:
        """Record the call's result; False when the store cannot be written."""
        if not self._writable():
            return False
        self.runs.setdefault(operation, DispatchRecord()).result = receipt
        self.trace.emit(EventKind.TOOL_RESULT_RECORDED, key=key)
        return True
