"""The simulated actors' state: the downstream receiver and the durable runtime's store.

Both outlive a worker crash; the worker's own memory does not, which is why it is not here.
They are plain mutable objects owned by one simulation run and never shared between runs.
"""

from dataclasses import dataclass, field

from asyncfail.lab.events import EventKind
from asyncfail.lab.trace import TraceRecorder


@dataclass(frozen=True, slots=True)
class Receipt:
    """What the receiver returns for an applied debit: the ledger entry's number."""

    entry: int


@dataclass(slots=True)
class Receiver:
    """The downstream system: it owns the ledger (the business effect) and idempotency records.

    Rule: a request that carries an operation key commits the idempotency record for that key in
    the same transaction as the debit, so a record exists exactly when the debit does (the seed's
    third assumption). A lookup by key reads that record and always answers (fourth assumption).
    """

    trace: TraceRecorder
    ledger: list[int] = field(default_factory=list)
    records: dict[str, Receipt] = field(default_factory=dict)

    def apply_debit(self, key: str | None) -> Receipt:
        """Apply one debit; a debit on a ledger that already holds one is a duplicate."""
        kind = EventKind.DEBIT_APPLIED_AGAIN if self.ledger else EventKind.DEBIT_APPLIED
        receipt = Receipt(entry=len(self.ledger) + 1)
        self.ledger.append(receipt.entry)
        if key is not None:
            self.records[key] = receipt
        self.trace.emit(kind, key=key)
        return receipt

    def lookup(self, key: str) -> Receipt | None:
        """Look the operation key up: the stored receipt, or None if no debit carries the key."""
        receipt = self.records.get(key)
        self.trace.emit(
            EventKind.OPERATION_LOOKUP_MISSING
            if receipt is None
            else EventKind.OPERATION_LOOKUP_FOUND,
            key=key,
        )
        return receipt


@dataclass(slots=True)
class DispatchRecord:
    """What the durable store knows of one operation: an intent, and perhaps its result."""

    result: Receipt | None = None


@dataclass(slots=True)
class DurableStore:
    """The durable runtime's journal, keyed by operation key; it survives worker crashes."""

    trace: TraceRecorder
    runs: dict[str, DispatchRecord] = field(default_factory=dict)

    def record_intent(self, key: str) -> None:
        """Write the dispatch intent ahead of the call (write-ahead: the call follows it)."""
        self.runs[key] = DispatchRecord()
        self.trace.emit(EventKind.DISPATCH_INTENT_RECORDED, key=key)

    def record_result(self, key: str, receipt: Receipt) -> None:
        self.runs[key].result = receipt
        self.trace.emit(EventKind.TOOL_RESULT_RECORDED, key=key)
