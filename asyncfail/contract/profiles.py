"""The four real contracts the receiver can follow, each from its public source.

A profile fixes what the real system it stands for fixes: how a reused key with a different
payload is reported, and each knob of the experiment (key scope, payload policy, retention,
boundary convention) that the system sets, with whether its users can change it. A knob the
system leaves open takes the seed's default (``contract.terms``).
"""

from dataclasses import dataclass
from typing import Final, Generic, TypeVar

from asyncfail.contract.terms import ContractProfile, KeyScope, PayloadPolicy
from asyncfail.ground.durations import Duration
from asyncfail.ground.retention import BoundaryConvention

T = TypeVar("T", covariant=True)


@dataclass(frozen=True, slots=True)
class Rejection:
    """How a profile reports a conflict: an HTTP status (None when it raises an exception
    instead), and the error type, problem title or exception it reports."""

    status_code: int | None
    error: str


@dataclass(frozen=True, slots=True)
class Knob(Generic[T]):
    """What a real system says about one knob of the experiment.

    ``value`` is what the system does (None: it publishes no rule, so the seed's default
    applies); ``fixed`` says its users cannot change it. Setting a fixed knob to another value
    departs from what the system does, and a result says so.
    """

    value: T | None
    fixed: bool


@dataclass(frozen=True, slots=True)
class ProfileInfo:
    """What one real contract says about a reused key, with its source."""

    conflict: Rejection
    scope: Knob[KeyScope]
    policy: Knob[PayloadPolicy]
    retention: Knob[Duration]
    boundary: Knob[BoundaryConvention]
    source: str
    clock: Duration | None = None
    """The tick of the system's expiry clock, when it is coarser than the model's milliseconds:
    the record's age and its retention are read in whole ticks, the write taken at the start of
    one (``contract.rules.record_states``). None: exact milliseconds."""


HOUR: Final = 3600

PROFILES: Final[dict[ContractProfile, ProfileInfo]] = {
    ContractProfile.IETF_DRAFT: ProfileInfo(
        conflict=Rejection(status_code=422, error="Idempotency-Key is already used"),
        scope=Knob(None, fixed=False),
        policy=Knob(PayloadPolicy.ENFORCE, fixed=True),
        retention=Knob(None, fixed=False),
        boundary=Knob(None, fixed=False),
        source="IETF draft-ietf-httpapi-idempotency-key-header, section 2.7: reusing a key with "
        "a different payload SHOULD get 422 (problem title 'Idempotency-Key is already used'); "
        "keys may expire, under a published policy, with no number and no post-expiry rule.",
    ),
    ContractProfile.STRIPE: ProfileInfo(
        conflict=Rejection(status_code=400, error="idempotency_error"),
        scope=Knob(KeyScope.TENANT_OPERATION, fixed=True),
        policy=Knob(PayloadPolicy.ENFORCE, fixed=True),
        retention=Knob(Duration.of_seconds(24 * HOUR), fixed=True),
        boundary=Knob(BoundaryConvention.EXPIRED_AT_BOUNDARY, fixed=True),
        source="Stripe API docs, 'Idempotent requests': keys belong to the account that sends "
        "them; parameters of a reused key are compared with the first request's and a mismatch "
        "errors (an idempotency_error, HTTP 400); keys may be pruned once at least 24 h old "
        "(so at exactly 24 h the record may already be gone), and a reused key after that is a "
        "new request.",
    ),
    ContractProfile.BRANDUR_POSTGRES: ProfileInfo(
        conflict=Rejection(
            status_code=409,
            error="There was a mismatch between this request's parameters and the parameters "
            "of a previously stored request with the same Idempotency-Key.",
        ),
        scope=Knob(KeyScope.TENANT_OPERATION, fixed=True),
        policy=Knob(PayloadPolicy.ENFORCE, fixed=True),
        retention=Knob(Duration.of_seconds(72 * HOUR), fixed=True),
        boundary=Knob(BoundaryConvention.RETAINED_AT_BOUNDARY, fixed=True),
        source="Brandur Leach, 'Implementing Stripe-like Idempotency Keys in Postgres' "
        "(rocket-rides-atomic): keys are unique per (user_id, key); api.rb halts with 409 when "
        "stored request_params != params; reaper.rb deletes keys with created_at < now - 72 h, "
        "so a key exactly 72 h old is still there.",
    ),
    ContractProfile.POWERTOOLS: ProfileInfo(
        conflict=Rejection(status_code=None, error="IdempotencyValidationError"),
        scope=Knob(None, fixed=False),
        policy=Knob(PayloadPolicy.IGNORE, fixed=False),
        retention=Knob(Duration.of_seconds(HOUR), fixed=False),
        boundary=Knob(BoundaryConvention.RETAINED_AT_BOUNDARY, fixed=True),
        source="AWS Lambda Powertools for Python, idempotency utility: the key is the function "
        "name and a hash of the payload subset the user selects; payload validation is off by "
        "default (payload_validation_jmespath turns it on, and a mismatch then raises "
        "IdempotencyValidationError); expires_after_seconds defaults to 3600; the expiry is "
        "stored in whole epoch seconds (int(now) + expires_after_seconds) and a record expires "
        "only when int(now) > expiry, so at its expiry second it still counts, and up to a "
        "second past its retention it may (persistence/base.py).",
        clock=Duration.of_seconds(1),
    ),
}
"""The four contracts, each from its public source. A profile never changes *whether* a request
conflicts under a given policy; it names how the conflict is reported, and sets every knob its
system sets."""
