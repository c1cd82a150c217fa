"""The contract experiment's fictional requests and the receiver's rules, each defined once.

Model-free: ``asyncfail.contract`` wraps them in validated inputs and a result.
"""

import json
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import repeat
from typing import Final

from asyncfail.contract_terms import (
    BoundaryConvention,
    ContractProfile,
    KeyScope,
    PayloadPolicy,
    SecondRequest,
)


@dataclass(frozen=True, slots=True)
class Rejection:
    """How a profile reports a conflict: an HTTP status (None when it raises an exception
    instead), and the error type, problem title or exception it reports."""

    status_code: int | None
    error: str


@dataclass(frozen=True, slots=True)
class ProfileInfo:
    """What one real contract says about a reused key: its rejection and defaults, with source."""

    conflict: Rejection
    default_policy: PayloadPolicy
    retention_seconds: int | None
    """The retention the source documents (None: the source publishes no number)."""
    source: str


PROFILES: Final[dict[ContractProfile, ProfileInfo]] = {
    ContractProfile.IETF_DRAFT: ProfileInfo(
        conflict=Rejection(status_code=422, error="Idempotency-Key is already used"),
        default_policy=PayloadPolicy.ENFORCE,
        retention_seconds=None,
        source="IETF draft-ietf-httpapi-idempotency-key-header, section 2.7: reusing a key with "
        "a different payload SHOULD get 422 (problem title 'Idempotency-Key is already used'); "
        "keys may expire, under a published policy, with no number and no post-expiry rule.",
    ),
    ContractProfile.STRIPE: ProfileInfo(
        conflict=Rejection(status_code=400, error="idempotency_error"),
        default_policy=PayloadPolicy.ENFORCE,
        retention_seconds=24 * 3600,
        source="Stripe API docs, 'Idempotent requests': parameters of a reused key are compared "
        "with the first request's and a mismatch errors (an idempotency_error, HTTP 400); keys "
        "are pruned once at least 24 h old, and a reused key after that is a new request.",
    ),
    ContractProfile.BRANDUR_POSTGRES: ProfileInfo(
        conflict=Rejection(
            status_code=409,
            error="There was a mismatch between this request's parameters and the parameters "
            "of a previously stored request with the same Idempotency-Key.",
        ),
        default_policy=PayloadPolicy.ENFORCE,
        retention_seconds=72 * 3600,
        source="Brandur Leach, 'Implementing Stripe-like Idempotency Keys in Postgres' "
        "(rocket-rides-atomic, api.rb): stored request_params != params halts with 409; keys "
        "are unique per (user_id, key); the reaper deletes keys after 72 h.",
    ),
    ContractProfile.POWERTOOLS: ProfileInfo(
        conflict=Rejection(status_code=None, error="IdempotencyValidationError"),
        default_policy=PayloadPolicy.IGNORE,
        retention_seconds=3600,
        source="AWS Lambda Powertools for Python, idempotency utility: payload validation is off "
        "by default, so a different payload under a retained key silently gets the stored "
        "result; with payload_validation_jmespath set, a mismatch raises "
        "IdempotencyValidationError; expires_after_seconds defaults to 3600.",
    ),
}
"""The four contracts, each from its public source. A profile never changes *whether* a request
conflicts (that is the policy); it names how the conflict is reported, and the policy a scenario
gets when it names none: enforce for the draft, Stripe and Brandur Leach, which all compare
parameters; ignore for Powertools, whose validation is off unless configured."""


# ---------------------------------------------------------------------------------------------
# The fictional requests, their keys and fingerprints


@dataclass(frozen=True, slots=True)
class FictionalRequest:
    """One request the lab sends to the receiver. Tenants, operations and amounts are made up."""

    attempt: int
    """The delivery attempt that carries this request, from 1."""
    tenant: str
    operation: str
    amount_minor_units: int

    @property
    def attempt_id(self) -> str:
        """The delivery attempt's id: unique per attempt, as a broker's delivery id is."""
        return f"attempt-{self.attempt}"

    @property
    def business_identity(self) -> str:
        """Tenant and operation as the seed's table prints them: ``tenant-a / order-42``."""
        return f"{self.tenant} / {self.operation}"


FIRST_REQUEST: Final = FictionalRequest(
    attempt=1, tenant="tenant-a", operation="order-42", amount_minor_units=1200
)

SECOND_REQUESTS: Final[dict[SecondRequest, FictionalRequest]] = {
    SecondRequest.SAME_INTENT: replace(FIRST_REQUEST, attempt=2),
    SecondRequest.DIFFERENT_AMOUNT: replace(FIRST_REQUEST, attempt=2, amount_minor_units=1500),
    SecondRequest.OTHER_TENANT: replace(FIRST_REQUEST, attempt=2, tenant="tenant-b"),
    SecondRequest.NEW_OPERATION: replace(FIRST_REQUEST, attempt=2, operation="order-43"),
}

KEY_FIELDS: Final[dict[KeyScope, tuple[str, ...]]] = {
    KeyScope.ATTEMPT: ("attempt_id",),
    KeyScope.OPERATION: ("operation",),
    KeyScope.TENANT_OPERATION: ("tenant", "operation"),
}
"""The request fields, in order, that make up the receiver key under each scope."""

FINGERPRINT_FIELDS: Final = ("tenant", "operation", "amount_minor_units")
"""The canonical request fingerprint: every field of the business intent. The seed: "A canonical
tuple stands in for a request fingerprint, not a production cryptographic hash"."""


def canonical_json(parts: Sequence[str | int]) -> str:
    """A tuple as a compact JSON array: ``["tenant-a","order-42",1200]``.

    Injective, which is the point: JSON quotes and escapes every string, so two different tuples
    never render alike (a naive ``"/".join`` would merge ("a/b", "c") and ("a", "b/c")). The
    receiver compares these strings, so a collision here would be a wrong reuse.
    """
    return json.dumps(list(parts), separators=(",", ":"), ensure_ascii=False)


def receiver_key(scope: KeyScope, request: FictionalRequest) -> str:
    """The key the receiver stores the record under: ``KEY_FIELDS[scope]``, canonical."""
    return canonical_json([str(getattr(request, name)) for name in KEY_FIELDS[scope]])


def fingerprint(request: FictionalRequest) -> str:
    """The canonical fingerprint tuple (tenant, operation, amount in minor units)."""
    return canonical_json([getattr(request, name) for name in FINGERPRINT_FIELDS])


# ---------------------------------------------------------------------------------------------
# The receiver's rules


class RecordState(StrEnum):
    """The idempotency record found under the second request's key."""

    RETAINED = "retained"
    """The first request's record is stored under this key and still within its retention."""
    EXPIRED = "expired"
    """The first request's record was stored under this key, but its retention has run out."""
    ABSENT = "absent"
    """No record was ever stored under this key: the second key differs from the first."""


class Disposition(StrEnum):
    """What the receiver does with the second request."""

    APPLIED = "applied"
    """Executed as a new request: a second effect."""
    REUSED = "reused"
    """Answered with the first request's stored result: no new effect."""
    CONFLICT = "conflict"
    """Refused as a reused key with a different payload (reported as the profile says)."""


RETAINED_WHILE: Final[dict[BoundaryConvention, Callable[[float, float], bool]]] = {
    BoundaryConvention.EXPIRED_AT_BOUNDARY: operator.lt,
    BoundaryConvention.RETAINED_AT_BOUNDARY: operator.le,
}
"""A stored record is retained while ``RETAINED_WHILE[boundary](delay, retention)``:
``delay < retention`` under the seed's convention, ``delay <= retention`` under Powertools'
(its ``is_expired`` is ``int(now) > expiry_timestamp``). Powertools truncates timestamps to whole
seconds; the model compares the seconds exactly, so the two agree on whole-second values."""

BOUNDARY_RULES: Final[dict[BoundaryConvention, str]] = {
    BoundaryConvention.EXPIRED_AT_BOUNDARY: "At exactly the retention boundary the record is "
    "already expired (the seed's convention): retained while delay < retention.",
    BoundaryConvention.RETAINED_AT_BOUNDARY: "At exactly the retention boundary the record still "
    "counts (AWS Lambda Powertools' convention): retained while delay <= retention "
    "(Powertools compares whole seconds; the lab compares exact ones).",
}
"""The convention in force, in words: every result states it."""

# Indexed by a bool: a stored record that is not retained has expired.
_STATE_IF_RETAINED: Final = (RecordState.EXPIRED, RecordState.RETAINED)


def record_states(
    *,
    key_reused: bool,
    retention_seconds: float,
    delays: Sequence[float],
    boundary: BoundaryConvention,
) -> tuple[RecordState, ...]:
    """The record at the second request, for each delay in ``delays``.

    - absent: the second key differs from the first, so nothing was ever stored under it;
    - retained: the key is the first one and ``RETAINED_WHILE[boundary](delay, retention)``;
    - expired: the key is the first one and the retention has run out.

    It takes a whole row of delays because the sweep calls it once per retention; the single
    evaluator passes one delay. Written with C-level ``map`` so a row of 1,000 costs microseconds.
    """
    if not key_reused:
        return (RecordState.ABSENT,) * len(delays)
    retained = map(RETAINED_WHILE[boundary], delays, repeat(retention_seconds))
    return tuple(map(_STATE_IF_RETAINED.__getitem__, retained))


def disposition_of(
    record: RecordState, fingerprints_match: bool, policy: PayloadPolicy
) -> Disposition:
    """What the receiver does with the second request.

    - applied: the record is absent or expired (a reused key after expiry is a new request, as
      Stripe documents: nothing is left to compare with);
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


class Relation(StrEnum):
    """How the second request relates to the first, judged on the business data alone."""

    SAME_INTENT = "same-intent"
    """Same tenant, operation and amount: one intent, sent twice."""
    CHANGED_PAYLOAD = "changed-payload"
    """Same tenant and operation, another amount: a conflicting request for one operation."""
    OTHER_TENANT = "other-tenant"
    """Another tenant: a different business identity, whatever its operation id."""
    OTHER_OPERATION = "other-operation"
    """Same tenant, another operation: a new intent."""


def relation_of(first: FictionalRequest, second: FictionalRequest) -> Relation:
    """Compare the business data: tenant first, then operation, then amount."""
    if second.tenant != first.tenant:
        return Relation.OTHER_TENANT
    if second.operation != first.operation:
        return Relation.OTHER_OPERATION
    if second.amount_minor_units != first.amount_minor_units:
        return Relation.CHANGED_PAYLOAD
    return Relation.SAME_INTENT


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
      per attempt (record absent: only a key without the business identity misses it).
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
class ContractCase:
    """What the scope and the second request fix before any clock is read."""

    first: FictionalRequest
    second: FictionalRequest
    scope: KeyScope

    @property
    def key_reused(self) -> bool:
        """Whether the second request's receiver key is the first's (compared as the receiver
        compares them: canonical strings)."""
        return receiver_key(self.scope, self.second) == receiver_key(self.scope, self.first)

    @property
    def fingerprints_match(self) -> bool:
        return fingerprint(self.second) == fingerprint(self.first)

    @property
    def relation(self) -> Relation:
        return relation_of(self.first, self.second)


def case_of(scope: KeyScope, second: SecondRequest) -> ContractCase:
    """The two fictional requests of a run, under one key scope."""
    return ContractCase(first=FIRST_REQUEST, second=SECOND_REQUESTS[second], scope=scope)


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
