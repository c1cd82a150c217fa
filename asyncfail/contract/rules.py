"""The receiver's rules, each defined once: record state, disposition, effects and finding.

Model-free: ``asyncfail.contract.experiment`` wraps them in validated inputs and a result, and
``asyncfail.contract.sweep`` applies them over a grid.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import repeat
from typing import Final

from asyncfail.contract.requests import ContractCase, Relation
from asyncfail.contract.terms import PayloadPolicy
from asyncfail.ground.retention import RETAINED_WHILE, BoundaryConvention

# ---------------------------------------------------------------------------------------------
# The receiver's rules


class RecordState(StrEnum):
    """The idempotency record found under the second request's key."""

    RETAINED = "retained"
    """The first request's record is stored under this key and still within its retention."""
    EXPIRED = "expired"
    """The first request's record was stored under this key, but its retention has run out."""
    NEVER_STORED = "never-stored"
    """No record was ever stored under this key: the second key differs from the first."""


class Disposition(StrEnum):
    """What the receiver does with the second request."""

    APPLIED = "applied"
    """Executed as a new request: a second effect."""
    REUSED = "reused"
    """Answered with the first request's stored result: no new effect."""
    CONFLICT = "conflict"
    """Refused as a reused key with a different payload (reported as the profile says)."""


# Indexed by a bool: a stored record that is not retained has expired.
_STATE_IF_RETAINED: Final = (RecordState.EXPIRED, RecordState.RETAINED)


def record_states(
    *,
    key_reused: bool,
    retention_ms: int,
    delays_ms: Sequence[int],
    boundary: BoundaryConvention,
    clock_ms: int | None = None,
) -> tuple[RecordState, ...]:
    """The record at the second request, for each delay in ``delays_ms`` (whole milliseconds).

    - never stored: the second key differs from the first, so nothing was stored under it;
    - retained: the key is the first one and the retention rule (``ground.retention``) keeps
      the record ``delay`` after it was written;
    - expired: the key is the first one and the retention has run out.

    ``clock_ms``: the tick of the real system's expiry clock (``ProfileInfo.clock``; Powertools
    stores ``int(now) + expires_after_seconds`` and expires when ``int(now) > expiry``). The
    record is taken to be written at the start of a tick, so the rule compares the delay and
    the retention in whole ticks, truncated: under Powertools' boundary a record counts until
    one second past its retention. Written later in its tick, a real record expires up to a
    tick sooner (``phase_decides`` says where).

    It takes a whole row of delays because the sweep calls it once per retention; the single
    evaluator passes one delay. Written with C-level ``map`` so a row of 1,000 costs microseconds.
    """
    if not key_reused:
        return (RecordState.NEVER_STORED,) * len(delays_ms)
    if clock_ms is not None:
        delays_ms, retention_ms = [d // clock_ms for d in delays_ms], retention_ms // clock_ms
    retained = map(RETAINED_WHILE[boundary], delays_ms, repeat(retention_ms))
    return tuple(map(_STATE_IF_RETAINED.__getitem__, retained))


def phase_decides(
    retention_ms: int, delay_ms: int, boundary: BoundaryConvention, clock_ms: int | None
) -> bool:
    """Whether, on a clock of ``clock_ms`` ticks, when within its tick the record was written
    decides if it still counts ``delay_ms`` later: the delay is not a whole number of ticks,
    and the ticks it may span (its whole ticks, or one more for a write late in a tick) give
    different answers. Never on an exact clock (None)."""
    if clock_ms is None or delay_ms % clock_ms == 0:
        return False
    ticks, kept = delay_ms // clock_ms, retention_ms // clock_ms
    rule = RETAINED_WHILE[boundary]
    return rule(ticks, kept) != rule(ticks + 1, kept)


def disposition_of(
    record: RecordState, fingerprints_match: bool, policy: PayloadPolicy
) -> Disposition:
    """What the receiver does with the second request.

    - applied: the record was never stored or has expired (a reused key after expiry is a new
      request, as Stripe documents: nothing is left to compare with);
    - reused: the record is retained and the fingerprints match, or the policy ignores them;
    - conflict: the record is retained, the policy enforces and the fingerprints differ.
    """
    if record is not RecordState.RETAINED:
        return Disposition.APPLIED
    if fingerprints_match or policy is PayloadPolicy.IGNORE:
        return Disposition.REUSED
    return Disposition.CONFLICT


EFFECTS: Final[dict[Disposition, int]] = {
    Disposition.APPLIED: 2,
    Disposition.REUSED: 1,
    Disposition.CONFLICT: 1,
}
"""Total effects: the first request is always applied (nothing is stored before it); the second
adds one only when applied. Record and effect commit atomically, so no other count exists."""


class Finding(StrEnum):
    """The verdict on one run, in plain words; ``CORRECT_FINDINGS`` are the right outcomes."""

    SAME_INTENT_REUSED = "Same intent reused its retained result"
    NEW_INTENT_APPLIED = "New intent correctly applied"
    CONFLICT_REJECTED = "Conflicting reuse rejected"
    APPLIED_TWICE_RECORD_EXPIRED = "One intent applied twice because the record expired"
    APPLIED_TWICE_KEY_PER_ATTEMPT = "One intent applied twice because the key changed per attempt"
    CONFLICT_APPLIED_RECORD_EXPIRED = "Conflicting request applied because the record expired"
    CONFLICT_APPLIED_KEY_PER_ATTEMPT = (
        "Conflicting request applied because the key changed per attempt"
    )
    CONFLICT_HIDDEN = "Conflicting request hidden behind a previous result"
    OTHER_TENANTS_RESULT = "One tenant received another tenant's result"
    OTHER_TENANT_REJECTED = "Another tenant's new intent rejected because the key omits the tenant"


CORRECT_FINDINGS: Final = frozenset(
    {Finding.SAME_INTENT_REUSED, Finding.NEW_INTENT_APPLIED, Finding.CONFLICT_REJECTED}
)
"""One effect for one intent, a second effect for a new intent, a changed payload refused: the
outcomes the IETF draft asks for. Every other finding is a wrong outcome."""


def finding_of(relation: Relation, record: RecordState, disposition: Disposition) -> Finding:
    """Judge the outcome. Read it as a table, first match wins:

    - reused: the same intent reused its retained result; another tenant's request received the
      first tenant's result; any other request is a conflicting request hidden behind it.
    - conflict: another tenant's new intent rejected because the key omits the tenant (its
      request was legitimate); otherwise a conflicting reuse rejected.
    - applied, to a different business identity (another tenant or operation): a new intent
      correctly applied, even where the key collided but the record had expired.
    - applied, to the same (tenant, operation): one intent applied twice, or a conflicting
      request applied, because the record expired (record expired) or because the key changed
      per attempt (record never stored: only a key without the business identity misses it).
    """
    match disposition, relation, record:
        case Disposition.REUSED, Relation.SAME_INTENT, _:
            return Finding.SAME_INTENT_REUSED
        case Disposition.REUSED, Relation.OTHER_TENANT, _:
            return Finding.OTHER_TENANTS_RESULT
        case Disposition.REUSED, _, _:
            return Finding.CONFLICT_HIDDEN
        case Disposition.CONFLICT, Relation.OTHER_TENANT, _:
            return Finding.OTHER_TENANT_REJECTED
        case Disposition.CONFLICT, _, _:
            return Finding.CONFLICT_REJECTED
        case _, Relation.OTHER_TENANT | Relation.OTHER_OPERATION, _:
            return Finding.NEW_INTENT_APPLIED
        case _, Relation.SAME_INTENT, RecordState.EXPIRED:
            return Finding.APPLIED_TWICE_RECORD_EXPIRED
        case _, Relation.SAME_INTENT, _:
            return Finding.APPLIED_TWICE_KEY_PER_ATTEMPT
        case _, _, RecordState.EXPIRED:
            return Finding.CONFLICT_APPLIED_RECORD_EXPIRED
        case _:
            return Finding.CONFLICT_APPLIED_KEY_PER_ATTEMPT


@dataclass(frozen=True, slots=True)
class Judgement:
    """Everything that follows from the record state: disposition, effects and finding."""

    record: RecordState
    disposition: Disposition
    effects: int
    finding: Finding

    @property
    def correct(self) -> bool:
        return self.finding in CORRECT_FINDINGS


def judge(case: ContractCase, record: RecordState, policy: PayloadPolicy) -> Judgement:
    """Apply ``disposition_of``, ``EFFECTS`` and ``finding_of`` to one record state."""
    disposition = disposition_of(record, case.fingerprints_match, policy)
    return Judgement(
        record=record,
        disposition=disposition,
        effects=EFFECTS[disposition],
        finding=finding_of(case.relation, record, disposition),
    )
