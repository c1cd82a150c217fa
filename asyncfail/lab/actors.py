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
from asyncfail.lab.settings import Availability, LabSettings, ReceiverContract, RecordWrite
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
    debit; under ``lookup-only`` it is applied again.
    """

    trace: TraceRecorder
    settings: LabSettings
    ledger: list[int] = field(default_factory=list)
    records: dict[str, StoredRecord] = field(default_factory=dict)

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

    def handle(self, key: str | None, crashes_before_record: bool) -> Receipt | None:
        """Handle one debit request; None when the receiver crashes mid-request.

        ``crashes_before_record``: the fault plan crashes the receiver after the debit and
        before a keyed request's record; with an atomic record the debit never commits.
        """
        if key is not None and self.settings.receiver is ReceiverContract.DEDUPE:
            record = self._record(key)
            if record is not None:
                self.trace.emit(EventKind.REQUEST_DEDUPLICATED, key=key)
                return record.receipt
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
    """What the durable store knows of one operation: an intent, and perhaps its result."""

    result: Receipt | None = None


@dataclass(slots=True)
class DurableStore:
    """The durable runtime's journal, keyed by the operation; it survives worker crashes.

    Rule: under ``store=outage`` nothing can be written to it during the first delivery; it is
    back for later ones.
    """

    trace: TraceRecorder
    settings: LabSettings
    runs: dict[str, DispatchRecord] = field(default_factory=dict)

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

    def record_result(self, operation: str, key: str, receipt: Receipt) -> bool:
        """Record the call's result; False when the store cannot be written."""
        if not self._writable():
            return False
        self.runs.setdefault(operation, DispatchRecord()).result = receipt
        self.trace.emit(EventKind.TOOL_RESULT_RECORDED, key=key)
        return True
